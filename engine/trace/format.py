"""The trace format, typed once: the one description of the JSON the engine writes.

`Trace` is what `trace_source` (SPEC §2, §11) and `trace_value` return,
and what `POST /api/trace` answers, exports embed and `backprop-animator trace` prints.
Every field below is one the engine really emits (`engine.trace.recorder`,
`engine.lab.sort_steps`, `engine.lab.engine_check`, `engine.ops.page_facts`); a `NotRequired`
field is left out, never sent as null, where it does not apply. Where a number is
`float`, the engine writes a float (`1.0`, not `1`); where it is `int`, an int.

`tests/engine/test_trace_format.py` checks real traces against these types (closed
dicts: no key the types do not name; every optional key, `Literal` value and union
branch seen), and `tests/app/test_trace_format.py` checks the other descriptions:

- `app/schemas.py`, the API's pydantic response models: the same fields, equally
  optional, model by model;
- `static/js/passes/trace.js`, the page's JSDoc typedefs (`TraceNode`, `Contribution`, the
  frames, `EngineCheck`…), with the exceptions that test lists and says why;
- `docs/TRACE.md`, which says what each field means: it names every field here.

Change the format here first; those tests then say what else must follow.

Example: `a = Value(3.0); b = a + a` traces to a `Trace` with 2 `Node`s, 2 `Edge`s and
the frames `BuildFrame`, `SortFrame`, `BackwardFrame` (two `Contribution`s to `n0`),
`BackwardFrame`.
"""

# No `from __future__ import annotations`: Python 3.11 then cannot tell `NotRequired`
# keys from required ones (`__optional_keys__`), and the types must say which is which.
from typing import Literal, NotRequired, TypedDict

Granularity = Literal["packed", "expanded"]
# The bug lab's mistaken engines (SPEC §8, `engine.lab.mistakes.MISTAKES`).
Mistake = Literal["assign", "append-first", "no-sort"]
NodeKind = Literal["leaf", "const", "op"]
Verdict = Literal["right", "wrong"]


class BackwardLines(TypedDict):
    """Where the program's own `backward()` of a pass is written (1-based lines of
    `source`), and `call`: the line of the statement that ran the pass's first rule
    (None where no rule was called: a `backward()` that writes the gradients itself)."""

    line: int
    end_line: int
    call: int | None


class RuleLines(TypedDict):
    """Where a program-class node's own `_backward` is written (1-based lines of `source`)."""

    line: int
    end_line: int


class Node(TypedDict):
    """One node of the graph, with its values when the program ended."""

    id: str  # `n0`, `n1`, … in creation order
    label: str  # the program's label, or `""`; cut to 100 characters
    name: str  # what the frames' texts call it (`engine.trace.narrate.Names`)
    op: str  # `""` for a leaf or constant
    kind: NodeKind
    data: float
    grad: float
    # A float underflowed here (`engine.trace.underflow`); only then, and only where the
    # built-in engine's rules ran (not a learner's own class's).
    underflow: NotRequired[Literal[True]]
    # With a `mistake`, and on a program's own Value class: the right engine's gradient.
    correct_grad: NotRequired[float]
    # A program's own class whose op the right engine differentiated numerically.
    reference: NotRequired[Literal["numeric"]]
    # A program's own class: the node needs no gradient (its `requires_grad` false) and the
    # learner's rules left its share out; the right engine computes none (no `correct_grad`).
    requires_grad: NotRequired[Literal[False]]
    # Real programs (`engine.trace.recorder`): the call path the node was made in, or `""`.
    group: NotRequired[str]
    # A node of the program's own Value-like class whose `_backward` is the program's.
    rule: NotRequired[RuleLines]


class Edge(TypedDict):
    """Child -> parent, the way data flows; one per use (`a + a` gives two)."""

    source: str
    target: str


class Contribution(TypedDict):
    """One `+=` a rule made into a child's gradient (a program's own class: one write)."""

    to: str
    # The local derivative; None only for a program's own class where the factor
    # cannot be read off the learner's write.
    local: float | None
    upstream: float
    delta: float
    before: float
    after: float
    underflow: NotRequired[Literal[True]]  # `delta` or `local` underflowed; only then
    write: NotRequired[Literal["+=", "="]]  # a program's own class: what its code did
    subtracts: NotRequired[Literal[True]]  # that `+=` was written `-=` (local: minus its factor)
    line: NotRequired[int]  # a program's own class: the line of the write


class Change(TypedDict):
    """One write to a node's `.data` or `.grad`: an update frame's, or a pass's seed."""

    node: str
    field: Literal["data", "grad"]
    before: float
    after: float


# What every frame of a real program (`engine.trace.recorder`) adds: the 0-based pass it belongs
# to, and the lines printed since the previous frame (only when there are some). `pass`
# is a keyword, hence the functional form.
FrameBase = TypedDict(
    "FrameBase",
    {"pass": NotRequired[int], "prints": NotRequired[list[str]]},
)


class BuildFrame(FrameBase):
    """An op node is made (one per op node, the first time a pass reaches it)."""

    phase: Literal["build"]
    node: str
    text: str
    line: NotRequired[int]  # the line that made it; absent for a graph built in Python


class SortFrame(FrameBase):
    """The sort and the seed; with `sort_steps`, one per call of the recursive sort."""

    phase: Literal["sort"]
    text: str
    # With `sort_steps` (`engine.lab.sort_steps`): the call's kind, then `seed` last.
    step: NotRequired[Literal["visit", "skip", "append", "seed"]]
    # A sort step's node; in a real program's seed, the pass's output.
    node: NotRequired[str]
    depth: NotRequired[int]  # a sort step's recursion depth, the output at 0
    changes: NotRequired[list[Change]]  # schema 2: the seed, as a change of the output's grad


class BackwardFrame(FrameBase):
    """One rule ran (for the engine, one per node of the reversed `topo`, leaves too)."""

    phase: Literal["backward"]
    node: str
    text: str
    contributions: list[Contribution]
    line: NotRequired[int]  # a rule the program called by hand: the line of the call


class UpdateFrame(FrameBase):
    """Schema 2: the writes one statement made to `.data`/`.grad` outside a pass."""

    phase: Literal["update"]
    changes: list[Change]
    line: int
    text: str


Frame = BuildFrame | SortFrame | BackwardFrame | UpdateFrame


class Pass(TypedDict):
    """One `backward()` call."""

    output: str
    topo: list[str]
    data: float  # the output's data in that pass
    names: dict[str, str]  # node id -> the name this pass's texts use, where it differs
    # With a `mistake`: node id -> the right engine's gradient in this pass.
    correct_grads: NotRequired[dict[str, float]]
    # A pass the program's own class ran with its own backward(): where that is written.
    backward: NotRequired[BackwardLines]


class Slip(TypedDict):
    """A number a learner may multiply by instead of the local derivative."""

    text: str  # as `OpFacts.local` writes it
    value: str  # Python syntax over `out`, `child`, `other`, `k`


class OpFacts(TypedDict):
    """What the page needs about one primitive op (`engine.ops.page_facts`)."""

    glyph: str
    local: str
    slips: list[Slip]


class RuleFirst(TypedDict):
    """The first use where a learner's rule used the wrong local derivative."""

    frame: int  # index in `frames`
    node: str
    child: str
    learner: float
    correct: float
    # The node `child` was merged with by a set of operands (a class that hashes by value):
    # `child` is no operand of `node` in the graph, and its rule never runs after.
    merged: NotRequired[str]
    # The operand that keeps `node`'s rule (`self.backward_fn = fn`): `node` keeps none.
    kept_on: NotRequired[str]


class RuleVerdict(TypedDict):
    op: str  # by registry key (`**` for every `**k`)
    line: int | None  # the line of its `_backward`; None for the built-in engine
    verdict: Literal["right", "wrong", "unchecked"]
    first: RuleFirst | None


# `consumer`: a consumer whose rule had not run; None: the rule ran twice, never, or is
# left over from an earlier pass (a tape nothing cleared), which `pass` (the 0-based pass
# whose graph its node is of) and `line` (its rule's line, where it is known) say; the
# functional form, as `pass` is a keyword.
SortFirst = TypedDict(
    "SortFirst",
    {
        "frame": int,
        "node": str,
        "consumer": str | None,
        "pass": NotRequired[int],
        "line": NotRequired[int],
    },
)


class SortVerdict(TypedDict):
    verdict: Verdict
    first: SortFirst | None


class AccumulationFirst(TypedDict):
    frame: int
    node: str
    child: str
    lost: float


class AccumulationVerdict(TypedDict):
    verdict: Verdict
    first: AccumulationFirst | None


class EngineCheck(TypedDict):
    """Where a program's own engine parts from a right one (`engine.lab.engine_check`)."""

    rules: list[RuleVerdict]
    sort: SortVerdict
    accumulation: AccumulationVerdict
    # The gradient's attribute where the class keeps it under another name than `grad`
    # (`gradient`, `derivative`, `_grad`): the rows quote the learner's code with it.
    grad: NotRequired[str]


class Trace(TypedDict):
    """Everything the player needs to animate one program."""

    schema: Literal[1, 2]
    source: str
    granularity: Granularity
    nodes: list[Node]
    edges: list[Edge]
    topo: list[str]
    output: str
    frames: list[Frame]
    ops: dict[str, OpFacts]
    # One per `backward()` call; a trace of one pass (schema 1, and a graph built in
    # Python) has exactly one.
    passes: list[Pass]
    mistake: NotRequired[Mistake]  # the bug lab's mistaken engine, when one ran
    engine_check: NotRequired[EngineCheck]  # a program with its own Value class
