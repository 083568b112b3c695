"""Real code as people write it (SPEC §15): programs in tests/engine/real_code/, written
the way public courses and repositories write them (typing, abc, dataclasses,
functools, itertools, exceptions, decorators, properties, `if __name__ ==
"__main__":`), run verbatim and compared line by line with CPython running them.

And the new constructs' bounds: nothing a handler does catches a limit, exceptions
carry no Python object, decorators stay within the program's own objects.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import (
    assert_leaves_among,
    assert_same_output,
    leaves_of,
    printed_lines,
    run_in_cpython,
    run_in_cpython_with_passes,
    run_in_cpython_with_stderr,
)
from tests.support.traces import ROOMY, same_program, traced

PROGRAMS = sorted((Path(__file__).parent / "real_code").glob("*.py"))


@pytest.mark.parametrize(
    "path", [pytest.param(path, marks=same_program(path), id=path.stem) for path in PROGRAMS]
)
def test_a_real_program_prints_what_cpython_prints(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    # The numbers are what is compared; the time limit is roomy (test_bounds.py says why).
    # The trace test_columns.py makes of it too (tests/support/traces.py).
    ours = printed_lines(traced(trace_source, source, "packed", ROOMY))
    assert ours, "the program printed nothing"
    # A program that logs: its log lines are printed, where CPython writes them to stderr.
    logs = "import logging" in source
    assert_same_output(ours, run_in_cpython_with_stderr(source) if logs else run_in_cpython(source))


def run(body: str, limits: Limits | None = None) -> list[str]:
    return printed_lines(trace_source(body + "\nv = Value(1.0)\nv.backward()\n", limits=limits))


def test_an_uncaught_exception_is_cpythons_message_with_its_line_and_call_chain() -> None:
    source = "def f(x):\n    if x < 0:\n        raise ValueError(f'bad {x}')\n\nf(-1)\n"
    with pytest.raises(EngineError) as caught:
        run(source)
    assert caught.value.message == "ValueError: bad -1 (in f(), called from line 5)"
    assert caught.value.line == 3


def test_interpreter_errors_are_caught_as_their_cpython_class() -> None:
    source = """
out = []
try:
    1 / 0
except ArithmeticError as e:
    out.append(type(e).__name__)
try:
    [][3]
except LookupError as e:
    out.append(type(e).__name__)
try:
    undefined_name
except NameError:
    out.append("NameError")
try:
    'a' + 1
except TypeError:
    out.append("TypeError")
try:
    assert 1 == 2, "no"
except AssertionError as e:
    out.append(str(e))
print(out)
"""
    assert run(source) == run_in_cpython(source + "\nv = Value(1.0)\nv.backward()\n")


def test_no_handler_catches_a_limit() -> None:
    # `except Exception` around a loop that never ends: the time limit still stops it,
    # and neither the handler nor the `finally` runs past it.
    source = (
        "try:\n    while True:\n        pass\nexcept Exception:\n    print('caught')\n"
        "finally:\n    print('finally')\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_TRACE_TIME_LIMIT"):
        run(source, Limits(max_steps=10**12, time_limit=0.3))
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        run(source.replace("while True", "for i in range(10**9)"), Limits(max_steps=5_000))
    # The call depth is CPython's RecursionError, which a program catches as CPython's
    # (tests/engine/test_cpython_divergences.py); one that recurses again after catching
    # it still ends, at the steps bound (or the time bound, whichever comes first).
    recursion = (
        "def f():\n    try:\n        f()\n    except BaseException:\n        f()\n"
        "try:\n    f()\nexcept BaseException:\n    print('no')\n"
    )
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        run(recursion, Limits(max_steps=20_000))


def test_the_name_of_an_except_clause_is_gone_after_it() -> None:
    source = "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    pass\nprint(e)\n"
    with pytest.raises(EngineError, match="name 'e' is not defined"):
        run(source)


def test_return_in_finally_wins_and_bare_raise_reraises() -> None:
    source = """
def f():
    try:
        raise KeyError('k')
    finally:
        return 'finally'
def g():
    try:
        {}['missing']
    except KeyError:
        raise
try:
    g()
except KeyError as e:
    print(f(), repr(e))
"""
    assert run(source) == ["finally KeyError('missing')"]


def test_a_cached_function_stays_within_the_step_limit() -> None:
    source = "import functools\n@functools.cache\ndef f(n):\n    return f(n - 1) + 1 if n else 0\n"
    assert run(source + "print(f(150))\n") == ["150"]
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        run("import itertools\nfor p in itertools.product(range(100), repeat=5):\n    pass\n")


def test_a_node_class_with_other_names_and_late_operands_is_drawn_as_a_graph() -> None:
    source = (Path(__file__).parent / "real_code" / "other_names_engine.py").read_text()
    trace = trace_source(source)
    kinds = {node["kind"] for node in trace["nodes"]}
    assert kinds == {"leaf", "op"}
    # `out.children = [self, other]` after the node was made: its edges are there.
    assert len(trace["edges"]) == 6
    backward = [frame for frame in trace["frames"] if frame["phase"] == "backward"]
    assert len(backward) == 3
    assert all("a leaf" not in frame["text"] for frame in backward)


def test_backward_on_an_object_that_is_not_a_node_says_what_it_lacks() -> None:
    source = (
        "class Box:\n    def __init__(self, v):\n        self.x = v\n        self.grad = 0\n"
        "    def backward(self):\n        self.grad = 1\nBox(2.0).backward()\n"
    )
    with pytest.raises(EngineError, match="Box, which is not a graph node here: it has no number"):
        trace_source(source)


def test_an_error_inside_micrograd_nn_points_at_the_learners_line() -> None:
    source = "from micrograd.nn import Neuron\nn = Neuron(2)\n\nout = n(3.0)\n"
    with pytest.raises(EngineError, match="TypeError: 'float' object is not iterable") as caught:
        trace_source(source)
    assert caught.value.line == 4


def test_micrograd_nn_nodes_carry_the_learners_lines_and_paths() -> None:
    source = (Path(__file__).parent / "real_code" / "micrograd_nn_import.py").read_text()
    trace = trace_source(source)
    program_lines = len(source.splitlines())
    assert all(frame.get("line", 1) <= program_lines for frame in trace["frames"])
    assert "MLP.layers[2].neurons[0]" in {node["group"] for node in trace["nodes"]}


def test_a_build_frame_of_a_node_linked_by_its_own_method_points_where_it_was_made() -> None:
    # DeZero's `output.set_creator(self)`: every build frame pointed at `self.creator =
    # func`, a helper's line, whatever the op; now at the op's making of its output.
    source = (Path(__file__).parent / "real_code" / "dezero_step16_generations.py").read_text()
    lines = source.splitlines()
    builds = [f for f in trace_source(source)["frames"] if f["phase"] == "build"]
    assert {lines[f["line"] - 1].strip() for f in builds} == {"outputs = [Variable(y) for y in ys]"}
    # An op's own code that sets the link keeps its line (early tinygrad's `apply`).
    source = (Path(__file__).parent / "real_code" / "function_instance_engine.py").read_text()
    lines = source.splitlines()
    builds = [f for f in trace_source(source)["frames"] if f["phase"] == "build"]
    assert {lines[f["line"] - 1].strip() for f in builds} == {"ret._ctx = ctx"}


def test_calls_nest_as_deep_as_cpythons_default() -> None:
    # A learner's recursive sort over a 900-deep chain, as CPython runs it.
    source = (
        "class N:\n    def __init__(self, p):\n        self.p = p\n"
        "def build(v, out):\n    if v is not None:\n        build(v.p, out)\n"
        "        out.append(v)\n"
        "v = None\nfor i in range(900):\n    v = N(v)\nout = []\nbuild(v, out)\nprint(len(out))\n"
    )
    assert run(source) == ["900"]


def test_generators_are_bounded_like_calls_and_loops() -> None:
    recursive = (
        "def walk(n):\n    yield n\n    yield from walk(n + 1)\nfor x in walk(0):\n    pass\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_MAX_CALL_DEPTH"):
        run(recursive, Limits(time_limit=30.0))  # the depth, not the clock, on a busy machine
    endless = "def forever():\n    while True:\n        yield 1\nxs = list(forever())\n"
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        run(endless, Limits(max_steps=20_000, time_limit=30.0))
    # A generator is lazy: one that never ends is fine while nobody asks for it all.
    lazy = "def forever():\n    while True:\n        yield 1\ng = forever()\nprint(next(g))\n"
    assert run(lazy) == ["1"]


def test_a_backward_that_writes_the_gradients_itself_keeps_its_writes() -> None:
    # No node has a rule: the sort frame holds every write, and says so, even in a
    # one-pass trace (schema 2, so that its `changes` are kept for the page to replay).
    source = (Path(__file__).parent / "real_code" / "recursive_backward.py").read_text()
    one_pass = source[: source.index("x.grad = y.grad = 0.0")]
    trace = trace_source(one_pass)
    assert trace["schema"] == 2 and len(trace["passes"]) == 1
    assert not [f for f in trace["frames"] if f["phase"] == "backward"]
    (sort,) = [f for f in trace["frames"] if f["phase"] == "sort"]
    assert sort["text"].startswith("z.backward() calls no node's rule")
    final: dict[str, float] = {}
    for change in sort["changes"]:
        final[change["node"]] = change["after"]
    assert final == {node["id"]: node["grad"] for node in trace["nodes"]}


# PyTorch-`Function`-style engines: a node keeps no operands of its own, only the record
# of the op that made it (`out._ctx = ctx` with `ctx.parents`, a `Function` instance,
# `out.grad_fn = MulBackward(a, b)` with `.inputs`, `out._ctx = (Mul, (a, b))`).
HELD = ["function_ctx_engine", "function_instance_engine", "grad_fn_object_engine"]


def as_cpython_with_leaves(source: str) -> dict[str, Any]:
    """The trace of `source`, checked against CPython's run: printed lines, each pass's
    output number and every leaf's (number, gradient)."""
    lines, numbers, outputs = run_in_cpython_with_passes(source)
    trace = trace_source(source, limits=Limits(time_limit=30.0))
    assert_same_output(printed_lines(trace), lines)
    assert [one["data"] for one in trace["passes"]] == pytest.approx(numbers, rel=1e-12)
    ours = [(float(n["data"]), float(n["grad"])) for n in trace["nodes"] if n["kind"] == "leaf"]
    theirs = leaves_of(outputs)
    assert len(ours) == len(theirs) > 0
    assert_leaves_among(ours, theirs)
    return trace


@pytest.mark.parametrize("program", HELD)
def test_operands_kept_in_the_ops_record_are_drawn_with_edges_and_rules(program: str) -> None:
    trace = as_cpython_with_leaves(
        (Path(__file__).parent / "real_code" / f"{program}.py").read_text()
    )
    nodes = {node["id"]: node for node in trace["nodes"]}
    ops = {node["id"] for node in trace["nodes"] if node["kind"] == "op"}
    assert ops and trace["edges"]
    # Every op node has its operands as edges, and its op named (`Mul`, `MulBackward`: `*`).
    assert {edge["target"] for edge in trace["edges"]} == ops
    assert all(nodes[i]["op"] in {"+", "*", "tanh", "exp", "**-1", "relu", "log"} for i in ops)
    # Every gradient is a right engine's, and each op node's rule has its backward frame
    # in each pass, whose writes are the loop's over the record's operands.
    for node in trace["nodes"]:
        assert math.isclose(node["grad"], node["correct_grad"], rel_tol=1e-9, abs_tol=1e-12)
    backward = [frame for frame in trace["frames"] if frame["phase"] == "backward"]
    for one, pass_ in enumerate(trace["passes"]):
        ran = [frame["node"] for frame in backward if frame["pass"] == one]
        assert sorted(ran) == sorted(pass_["topo"]) and len(ran) == len(set(ran))
    assert all(frame["contributions"] for frame in backward)
    check = trace["engine_check"]
    assert {rule["verdict"] for rule in check["rules"]} == {"right"}
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"


@pytest.mark.parametrize("program", HELD)
def test_a_held_records_rule_is_its_op_classs_backward_not_the_loop_that_adds_its_shares(
    program: str,
) -> None:
    """Each op node's rule is its op class's method (`Mul.backward`, a `grad_fn`'s
    `apply`): its lines, the check's rows and the backward frames name it, and the
    frames say the loop of backward() adds what it worked out. They named the loop's
    `p.grad += g` line as every op's "own rule"."""
    source = (Path(__file__).parent / "real_code" / f"{program}.py").read_text()
    lines = source.splitlines()
    trace = trace_source(source, limits=Limits(time_limit=30.0))
    ops = [node for node in trace["nodes"] if node["kind"] == "op"]
    defs = {node["rule"]["line"] for node in ops}
    assert len(defs) >= 3
    for line in defs:
        assert re.match(r"\s*def (backward|apply)\(", lines[line - 1]), lines[line - 1]
    assert {rule["line"] for rule in trace["engine_check"]["rules"]} == defs
    loop = next(
        i + 1 for i, text in enumerate(lines) if re.match(r"\s+(p|t|inp)\.grad (\+)?= ", text)
    )
    # `+=` adds; `p.grad = g if p.grad is None else p.grad + g` writes (said "adds" of
    # DeZero's `x.grad = f.backward(self.grad)` too, which adds nothing).
    verb = "adds" if ".grad += " in lines[loop - 1] else "writes"
    rule_of = {node["id"]: node["rule"]["line"] for node in ops}
    backward = [frame for frame in trace["frames"] if frame["phase"] == "backward"]
    assert backward
    for frame in backward:
        said = (
            f"its own rule on line {rule_of[frame['node']]} worked out the shares, "
            f"which line {loop} {verb}. "
        )
        assert said in frame["text"], frame["text"]


TUPLE_RECORD = """
import math

class Mul:
    @staticmethod
    def backward(a, b, g):
        return g * b.data, g * a.data

class Add:
    @staticmethod
    def backward(a, b, g):
        return g, g

class Var:
    def __init__(self, data, ctx=None):
        self.data = data
        self.grad = 0.0
        self._ctx = ctx

    def __add__(self, other):
        return Var(self.data + other.data, (Add, (self, other)))

    def __mul__(self, other):
        return Var(self.data * other.data, (Mul, (self, other)))

def backward(out):
    order, seen = [], set()
    def visit(v):
        if v not in seen:
            seen.add(v)
            if v._ctx:
                for p in v._ctx[1]:
                    visit(p)
            order.append(v)
    visit(out)
    out.grad = 1.0
    for v in reversed(order):
        if v._ctx:
            fn, parents = v._ctx
            for p, g in zip(parents, fn.backward(*parents, v.grad)):
                p.grad += g

a, b = Var(2.0), Var(-3.0)
c = a * b + a
backward(c)
print(c.data, a.grad, b.grad)
"""


def test_an_ops_record_kept_as_a_tuple_gives_the_operands_and_the_op() -> None:
    # `(Mul, (a, b))`: the class names the op, the inner tuple holds the operands.
    trace = as_cpython_with_leaves(TUPLE_RECORD)
    ops = sorted(node["op"] for node in trace["nodes"] if node["kind"] == "op")
    assert ops == ["*", "+"] and len(trace["edges"]) == 4


def test_an_ops_record_is_read_as_it_is_never_run() -> None:
    # The record's class has a property named like operands, and the record holds the
    # node itself, a huge tuple and a list of a million numbers: nothing of it runs or is
    # walked (the property would print), a node is no record, the run is CPython's.
    source = """
class Ctx:
    @property
    def parents(self):
        print("property ran")
        return []

class V:
    def __init__(self, data):
        self.data = data
        self.grad = 0.0
        self._ctx = None

    def __mul__(self, other):
        out = V(self.data * other.data)
        out._ctx = Ctx()
        return out

    def backward(self):
        self.grad = 1.0

a = V(2.0)
b = a * a
b._ctx = b
c = a * b
c._ctx = (Ctx,) * 100000
d = a * c
d._ctx = (Ctx, [0.5] * 1000000, (a, c))
d.backward()
print(d.data, d.grad, a.grad)
"""
    trace = as_cpython_with_leaves(source)
    nodes = {node["id"]: node for node in trace["nodes"]}
    # d's two operands, from its tuple record's inner tuple; no other node has any.
    assert sorted(nodes[e["source"]]["data"] for e in trace["edges"]) == [2.0, 8.0]
    assert {nodes[e["target"]]["data"] for e in trace["edges"]} == {16.0}


def test_a_record_of_the_op_with_no_operands_where_they_are_looked_for_is_refused() -> None:
    # `ctx.inputs_`: no name operands go by. Drawn, it would be one node with every
    # gradient in its sort frame; refused, saying where to keep them.
    source = (Path(__file__).parent / "real_code" / "function_ctx_engine.py").read_text()
    source = source.replace("self.parents = parents", "self.inputs_ = parents")
    source = source.replace("v._ctx.parents", "v._ctx.inputs_")
    assert run_in_cpython(source)  # CPython runs it
    with pytest.raises(EngineError, match="Scalar whose _ctx holds no operands here") as caught:
        trace_source(source)
    assert caught.value.line == source.splitlines().index("o.backward()") + 1


RECURSIVE_BACKWARD = """    def backward(self, allow_fill=True):
        if self._ctx is None:
            return
        if self.grad is None and allow_fill:
            self.grad = 1.0
        grads = self._ctx.backward(self.grad)
        if len(self._ctx.parents) == 1:
            grads = [grads]
        for t, g in zip(self._ctx.parents, grads):
            t.grad = g if t.grad is None else t.grad + g
            t.backward(False)


"""


def test_early_tinygrads_walk_without_a_sort_is_drawn_and_judged_wrong_at_its_sort() -> None:
    # Each node's backward() hands its parents their shares and recurses into them,
    # as early tinygrad did, with no topological sort: a node reached twice passes on a
    # share before it has all of its own. Its numbers are CPython's; the check says the
    # sort is where it parts from a right engine (each op's shares are right).
    source = (Path(__file__).parent / "real_code" / "function_instance_engine.py").read_text()
    start, end = source.index("    def backward(self):"), source.index("def sigmoid")
    source = source[:start] + RECURSIVE_BACKWARD + source[end:]
    source = source.replace("    b.grad = None\n", "    b.grad = None\n    loss.grad = None\n")
    trace = as_cpython_with_leaves(source)
    check = trace["engine_check"]
    assert {rule["verdict"] for rule in check["rules"]} == {"right"}
    assert check["sort"]["verdict"] == "wrong"
    assert any(
        not math.isclose(node["grad"], node["correct_grad"], rel_tol=1e-6)
        for node in trace["nodes"]
    )


def test_operands_put_in_the_record_after_it_was_hung_on_the_node_are_its_edges() -> None:
    # `out._ctx = ctx` with an empty `ctx.parents`, filled afterwards: the edges are
    # there when the pass begins, as for `out._prev.append(…)`.
    source = (Path(__file__).parent / "real_code" / "function_ctx_engine.py").read_text()
    made = "        ctx = Context(cls, inputs)\n"
    hung = "        out._ctx = ctx\n"
    assert made in source and hung in source
    late = source.replace(made, "        ctx = Context(cls, [])\n")
    late = late.replace(hung, hung + "        ctx.parents.extend(inputs)\n")
    edges = [(e["source"], e["target"]) for e in trace_source(source)["edges"]]
    assert (
        edges
        and [(e["source"], e["target"]) for e in as_cpython_with_leaves(late)["edges"]] == edges
    )


def test_a_next_functions_graph_is_followed_as_pytorch_keeps_it() -> None:
    # `grad_fn.next_functions`: (function, input_nr) pairs, each the input's own grad_fn
    # or the AccumulateGrad that owns a leaf: edges to those functions' tensors.
    source = (Path(__file__).parent / "real_code" / "next_functions_engine.py").read_text()
    trace = as_cpython_with_leaves(source)
    ids = {node["id"]: node for node in trace["nodes"]}
    ops = {node["id"] for node in trace["nodes"] if node["kind"] == "op"}
    assert {edge["target"] for edge in trace["edges"]} == ops
    operands: dict[str, list[str]] = {}  # each op node's, in order, by its id
    for edge in trace["edges"]:
        operands.setdefault(edge["target"], []).append(ids[edge["source"]]["name"])
    expected = {
        "x1*w1": ["x1", "w1"],
        "x2*w2": ["x2", "w2"],
        "x1*w1+x2*w2": ["x1*w1", "x2*w2"],
        "n": ["x1*w1+x2*w2", "b"],
        "o": ["n"],
    }
    assert len(operands) == 2 * len(expected)  # the graph of each of the two passes
    for target, names in operands.items():
        assert names == expected[ids[target]["name"]]
    assert {ids[i]["op"] for i in ops} == {"*", "+", "tanh"}
    # Only the leaves' AccumulateGrad write a `.grad`, and they are the right engine's.
    for node in trace["nodes"]:
        if node["kind"] == "leaf":
            assert math.isclose(node["grad"], node["correct_grad"], rel_tol=1e-9, abs_tol=1e-12)
