"""The API's JSON shapes as pydantic models: the trace of SPEC §3 and §11, requests, errors.

The trace's models describe the format that `engine/trace/format.py` types once (its
TypedDicts): FastAPI turns them into the OpenAPI document at `/docs`, and
`tests/app/test_trace_format.py` checks that each has the same fields, equally
optional, as its TypedDict. Routes declare them as `response_model` but send the
engine's JSON as bytes (encoded in a worker), so a trace is not re-validated per
request; the tests validate real traces against these models instead.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from backprop_animator.engine.ops import EXPANDED, op_list

Granularity = Literal["packed", "expanded"]
# The bug lab's mistaken engines (SPEC §8, engine/lab/mistakes.py).
Mistake = Literal["assign", "append-first", "no-sort"]
# How a trace is written: schema 1 or 2's objects, or the page's columns (docs/TRACE.md).
Encoding = Literal["objects", "columns"]
ENCODING_DESCRIPTION = (
    "`objects` (the default): the trace of SPEC §3 (schema 1 or 2). `columns`: the same "
    "trace as the page reads it, a list per field, about a fifth of the bytes, with the "
    "frames' texts that the trace's numbers give back left out (docs/TRACE.md)."
)


class Strict(BaseModel):
    # An unknown field means the format drifted from this reference: fail loudly.
    model_config = ConfigDict(extra="forbid")


class RuleLines(Strict):
    """The lines of a program-class node's `_backward` (a `def`, a `lambda` or a method)."""

    line: int = Field(ge=1, description="Its first line in `source` (1-based).")
    end_line: int = Field(ge=1, description="Its last line.")


class BackwardLines(Strict):
    """The lines of the program's own `backward()` that ran a pass (SPEC §14)."""

    line: int = Field(ge=1, description="Its first line in `source` (1-based).")
    end_line: int = Field(ge=1, description="Its last line.")
    call: int | None = Field(
        ge=1,
        description="The line of its statement that ran the pass's first rule (the "
        "`node._backward()` of its loop), or null where it ran none.",
    )


class Node(Strict):
    id: str = Field(description="Unique id of the node.")
    label: str = Field(description='The name the program gave it, or `""`.')
    op: str = Field(description=f'`""` for a leaf or constant, else `{op_list()}` or `**k`.')
    kind: Literal["leaf", "const", "op"]
    name: str = Field(
        description="What the frames' texts call it: its label (cut at 40 characters), a "
        "leaf's or constant's data to 4 significant digits, or the expression over its "
        "operands' names (`(a+b)*c`, `tanh(n)`) while that is short, else `the * node`. "
        "Schema 2: as the last pass that reaches it calls it (`passes[].names`)."
    )
    data: float = Field(description="The value computed by the forward pass (at the end).")
    grad: float = Field(description="The final gradient of the output with respect to it.")
    underflow: Literal[True] | None = Field(
        default=None,
        description="Present (true) when a float underflowed at this node: its data, or an "
        "amount its rule passed on, became 0 or lost digits though the exact value is not 0.",
    )
    correct_grad: float | None = Field(
        default=None,
        description="In a mistaken engine's trace (`mistake`), and on the nodes of a "
        "program's own Value class (§14): the gradient the right engine gives the same "
        "graph, to compare with `grad`. Absent where no right local derivative is known "
        "on the way from the output.",
    )
    reference: Literal["numeric"] | None = Field(
        default=None,
        description="Present where the right engine differentiated the node's op "
        "numerically (an op the registry does not have: `-`, `/`, `sin`…).",
    )
    requires_grad: Literal[False] | None = Field(
        default=None,
        description="A program's own Value class (§14): present (false) where the node "
        "needs no gradient (its `requires_grad` is false: an input or constant) and the "
        "learner's rules left its share out; the right engine computes none for it either, "
        "so it has no `correct_grad`.",
    )
    group: str | None = Field(
        default=None,
        description="Schema 2 (§11) programs: the call path the node was made in, "
        '`MLP.layers[1].neurons[0]`, `neuron()`, or `""` at the top level.',
    )
    rule: RuleLines | None = Field(
        default=None,
        description="Only for a node of the program's own Value-like class (§11): where in "
        "`source` its own `_backward` is written, so the page shows the learner's rule "
        "rather than the engine's. Absent for the engine's `Value`s.",
    )


class Edge(Strict):
    source: str = Field(description="Child id: data flows from here...")
    target: str = Field(description="...to this parent id.")


class Contribution(Strict):
    """One `+=` into a child's gradient during a backward step (or, in a program's own
    Value class, one write its rule made, §14)."""

    to: str = Field(description="The child whose gradient grows.")
    local: float | None = Field(
        description="Local derivative of the parent with respect to the child. For a "
        "program's own class: the factor read off the learner's write, or null where it "
        "cannot be read off it."
    )
    upstream: float = Field(description="The parent's gradient.")
    delta: float = Field(description="`after − before`, the amount added.")
    before: float
    after: float
    write: Literal["+=", "="] | None = Field(
        default=None,
        description="A program's own class (§14): what the learner's statement did to "
        "the child's `.grad`: `+=` adds to what was there (a `-=` too: see `subtracts`), "
        "`=` overwrites it.",
    )
    line: int | None = Field(
        default=None, description="A program's own class: the line of the learner's write."
    )
    subtracts: Literal[True] | None = Field(
        default=None,
        description="Present (true) where the learner wrote `-=`: a `+=` of minus the "
        "product, its `local` minus the factor the code subtracts (`delta` = `local` × "
        "`upstream` as for any `+=`).",
    )
    underflow: Literal[True] | None = Field(
        default=None, description="Present (true) when `delta` or `local` underflowed."
    )


class Change(Strict):
    """One write to a node's `.data` or `.grad` (an update frame; a pass's seed)."""

    node: str
    field: Literal["data", "grad"]
    before: float
    after: float


class FrameBase(Strict):
    pass_index: int | None = Field(
        default=None,
        alias="pass",
        description="Programs of §11: the 0-based pass (backward() call) the frame belongs to; "
        "build and update frames belong to the pass they precede.",
    )
    prints: list[str] | None = Field(
        default=None,
        description="Lines the program printed after the previous frame and up to this one "
        "(lines printed after the last frame go on it).",
    )


class BuildFrame(FrameBase):
    phase: Literal["build"]
    text: str
    node: str = Field(description="The op node this step creates.")
    line: int | None = Field(
        default=None, description="1-based source line of the statement that created the node."
    )


class SortFrame(FrameBase):
    """The sort: one frame, or with `sort_steps` one per call of the recursive `build(v)`
    (`visit`, `skip`, `append`, with `node` and `depth`) and then the `seed`."""

    phase: Literal["sort"]
    text: str
    node: str | None = Field(
        default=None,
        description="With `sort_steps`: the node `build` was called on; in a multi-pass "
        "trace's one sort frame: the output, seeded with grad 1.0.",
    )
    step: Literal["visit", "skip", "append", "seed"] | None = Field(
        default=None,
        description="Only with `sort_steps`: `visit` (first call on a node), `skip` (already "
        "visited), `append` (`topo.append`), `seed` (the output's grad becomes 1.0).",
    )
    depth: int | None = Field(
        default=None, description="With `sort_steps`: the recursion depth; the output is 0."
    )
    changes: list[Change] | None = Field(
        default=None,
        description="Schema 2: the seed as a change of the output's grad (before -> 1.0).",
    )


class UpdateFrame(FrameBase):
    """Schema 2: every write one statement made to `.data`/`.grad` between passes."""

    phase: Literal["update"]
    text: str
    line: int = Field(description="1-based line of the statement that made the changes.")
    changes: list[Change]


class BackwardFrame(FrameBase):
    phase: Literal["backward"]
    text: str
    node: str = Field(description="The node whose `_backward` rule runs.")
    contributions: list[Contribution]
    line: int | None = Field(
        default=None,
        description="A rule the program called itself, with no backward() (a pass run by "
        "hand): the 1-based line of the call.",
    )


Frame = Annotated[
    BuildFrame | SortFrame | BackwardFrame | UpdateFrame, Field(discriminator="phase")
]


class Pass(Strict):
    """One `backward()` call (§11)."""

    output: str = Field(description="Id of the node backward() was called on.")
    topo: list[str] = Field(description="Ids in the order that pass's sort produced.")
    data: float = Field(description="The output's value in that pass (a loss curve's point).")
    names: dict[str, str] = Field(
        description="Node id -> name, for the nodes this pass's texts call otherwise than "
        "`nodes[].name` (an unlabelled value the program does not keep is named by its data "
        "in that pass)."
    )
    correct_grads: dict[str, float] | None = Field(
        default=None,
        description="With a `mistake` (§13): node id -> the gradient the right engine gives "
        "in this pass, from the gradients the pass started with, for every node it reaches.",
    )
    backward: BackwardLines | None = Field(
        default=None,
        description="A pass run by the program's own class with its own `backward()` (§14): "
        "where that is written, which the code panel shows instead of the engine's.",
    )


class Slip(Strict):
    """A number a learner may multiply by instead of the op's local derivative."""

    text: str = Field(description="As `local` writes it: `{out}`, `{child}`, `{other}`, `{k}`.")
    value: str = Field(description="Python syntax over `out`, `child`, `other`, `k`.")


class OpFacts(Strict):
    """What the page needs to know about one primitive (engine/ops.py)."""

    glyph: str = Field(description="What the graph draws for the op; `{k}`: a power's exponent.")
    local: str = Field(
        description="The local derivative as the code panel writes it: `{out}`, `{child}`, "
        "`{other}` stand for those nodes' `.data`; `{k}`, `{k-1}` for the exponent."
    )
    slips: list[Slip] = Field(
        description="Numbers a learner may multiply by instead: `text` (as `local`) and "
        "`value` (Python syntax over `out`, `child`, `other`, `k`)."
    )


class Trace(Strict):
    """Everything the player needs to animate one program (SPEC §3)."""

    schema_version: Literal[1, 2] = Field(
        alias="schema",
        description="1 for one pass with no update frames, 2 for several passes or updates.",
    )
    source: str
    granularity: Granularity
    nodes: list[Node] = Field(description="Exactly the nodes reachable from any pass's output.")
    edges: list[Edge] = Field(description="One per use of a child: `a + a` gives two.")
    topo: list[str] = Field(description="Node ids in depth-first topological order (last pass).")
    output: str = Field(description="Id of the output node (of the last pass).")
    frames: list[Frame] = Field(
        description="Build frames (one per op node), one sort frame, backward frames; "
        "per pass, with update frames between passes."
    )
    passes: list[Pass] = Field(
        description="One per backward() call, in order (SPEC §11); exactly one in schema 1."
    )
    ops: dict[str, OpFacts] = Field(
        description="The facts about each primitive op the nodes use, by op (`**` for every "
        "`**k`); another engine's op matches ours ignoring case (`ReLU`); one the registry does "
        "not have (`sin`) has none."
    )
    mistake: Mistake | None = Field(
        default=None,
        description="Echo of the request's mistake; absent for the right engine. With "
        "`no-sort`, `topo` is the order the rules ran and backward frames follow it.",
    )
    engine_check: EngineCheck | None = Field(
        default=None,
        description="A program with its own Value class (§14): the answer of "
        "`POST /api/enginecheck`, so every host (page, embed, export, notebook) shows it.",
    )


class RuleFirst(Strict):
    """The first use where a rule's local derivative is not the right one."""

    frame: int = Field(description="Index in `frames` of that backward frame.")
    node: str = Field(description="The node whose rule ran.")
    child: str = Field(description="The child it wrote.")
    learner: float = Field(description="The factor the learner's rule used.")
    correct: float = Field(description="The right local derivative.")
    merged: str | None = Field(
        default=None,
        description="The node `child` was merged with by the node's set of operands (a class "
        "that hashes by value): `child` is no operand in the graph and its rule never runs "
        "after (`learner` 0). Absent otherwise.",
    )
    kept_on: str | None = Field(
        default=None,
        description="The operand the op's method set the node's rule on "
        "(`self.backward_fn = fn`): the node keeps no rule of its own (`learner` 0). "
        "Absent otherwise.",
    )


class RuleVerdict(Strict):
    op: str = Field(description="The op (`**` for every `**k`).")
    line: int | None = Field(description="The line of its `_backward`; null: the built-in engine.")
    verdict: Literal["right", "wrong", "unchecked"]
    first: RuleFirst | None


class SortFirst(Strict):
    frame: int
    node: str = Field(
        description="The node whose rule ran too early, twice or never, or in a pass whose "
        "output does not reach it (a rule left over from an earlier pass: `pass`)."
    )
    consumer: str | None = Field(description="A consumer whose rule had not run yet.")
    pass_index: int | None = Field(
        default=None,
        alias="pass",
        description="A rule left over from an earlier pass (a tape nothing cleared): the "
        "0-based pass whose graph its node is of. Absent otherwise.",
    )
    line: int | None = Field(
        default=None, description="With `pass`: the line of that node's rule, where it is known."
    )


class SortVerdict(Strict):
    verdict: Literal["right", "wrong"]
    first: SortFirst | None


class AccumulationFirst(Strict):
    frame: int
    node: str = Field(description="The node whose rule overwrote a gradient.")
    child: str = Field(description="The child whose gradient was overwritten.")
    lost: float = Field(description="The gradient that was there and is lost.")


class AccumulationVerdict(Strict):
    verdict: Literal["right", "wrong"]
    first: AccumulationFirst | None


class EngineCheck(Strict):
    """Where a program's own engine parts from a right one (SPEC §14)."""

    rules: list[RuleVerdict] = Field(description="One per op used in the graph.")
    sort: SortVerdict
    accumulation: AccumulationVerdict
    grad: str | None = Field(
        default=None,
        description="The gradient's attribute where the class keeps it under another name "
        "than `grad` (`gradient`, `derivative`, `_grad`); absent for `grad`.",
    )


class EngineCheckRequest(BaseModel):
    """Check a program's own Value class against a right engine (SPEC §14)."""

    source: str = Field(description="The program, with its own Value class (or without).")
    granularity: Granularity = "packed"


class TraceRequest(BaseModel):
    source: str = Field(description="The program: a small subset of Python (SPEC §2).")
    granularity: Granularity = Field(
        default="packed",
        description=f"`expanded` builds {' and '.join(sorted(EXPANDED))} from primitives.",
    )
    mistake: Mistake | None = Field(
        default=None,
        description="Run the engine made wrong: `assign` (`=` for `+=`), `append-first` "
        "(append before the children), `no-sort` (no topological sort).",
    )
    sort_steps: bool = Field(
        default=False,
        description="Replace the sort frame by the recursive sort's visit/skip/append frames.",
    )
    encoding: Encoding = Field(default="objects", description=ENCODING_DESCRIPTION)

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"source": "a = Value(3.0)\nb = a * a + a\nb.backward()"}]}
    )


class GradcheckRequest(BaseModel):
    """A gradient check (SPEC §7): every leaf's gradient against difference quotients."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"source": "x = Value(3.0)\nf = 3*x**2 - 4*x + 5"}]}
    )

    source: str = Field(description="The program: a small subset of Python (SPEC §2).")
    granularity: Granularity = "packed"
    scheme: Literal["forward", "central"] = Field(
        default="forward",
        description="`forward`: (f(x+h) − f(x))/h; `central`: (f(x+h) − f(x−h))/2h.",
    )
    h: list[Annotated[float, Field(gt=0, allow_inf_nan=False, strict=True)]] | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Step sizes, each positive and finite (default 1e-1, 1e-2, …, 1e-14).",
    )
    leaves: list[str] | None = Field(
        default=None,
        max_length=20_000,
        description="Check only the leaves with these labels (default: every leaf).",
    )
    mistake: Mistake | None = Field(
        default=None, description="Check a mistaken engine's gradients instead (SPEC §8)."
    )
    pass_index: int = Field(
        default=0,
        ge=0,
        alias="pass",
        strict=True,
        description="Which backward pass to check (0-based): its leaves, its output, the "
        "gradients it leaves; the program is run again with each leaf moved (SPEC §13).",
    )


class GradcheckRow(Strict):
    h: float
    numeric: float = Field(description="The difference quotient at this h.")
    error: float = Field(description="`|numeric − analytic|`.")


class GradcheckLeaf(Strict):
    node: str = Field(description="The leaf's id, as in the trace.")
    label: str
    analytic: float = Field(description="The engine's gradient (or the mistaken engine's).")
    rows: list[GradcheckRow] = Field(description="One per h, in the order asked.")


class Gradcheck(Strict):
    output: str = Field(description="Id of the output node, as in the trace.")
    checks: list[GradcheckLeaf] = Field(description="One per leaf, in node-id order.")


class Example(BaseModel):
    id: str
    title: str
    description: str
    source: str
    granularity: Granularity
    mistake: Mistake | None = Field(
        default=None, description="Present on bug-lab examples: the mistake to run it with."
    )
    sort_steps: bool | None = Field(
        default=None, description="Present when the example is meant with the sort step by step."
    )
    gradcheck: bool | None = Field(
        default=None, description="Present when the example is meant with the gradient check."
    )


class Health(BaseModel):
    status: Literal["ok"]
    version: str


class ErrorDetail(BaseModel):
    message: str = Field(description="What is wrong, as a sentence.")
    line: int | None = Field(description="1-based line in the source, when it is about the source.")
    column: int | None = Field(description="1-based column (in characters), with `line`.")


class ErrorBody(BaseModel):
    """The body of every 4xx and 5xx response."""

    error: ErrorDetail
