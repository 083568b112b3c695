"""SPEC §14's numeric reference for an op no table knows (engine/lab/op_rerun.py): the
call of the learner's that made the node, run again on moved copies of its operands
once the program has ended, gives the right local derivative; where that is not sound
(another number now, an error, a bound) the node has none, as before."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import Limits, enginecheck_source, trace_source
from tests.engine.cpython import printed_lines, run_in_cpython
from tests.engine.random_programs import compare

HEAD = """import math
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev: build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo): v._backward()
"""


def program(method: str, tail: str) -> str:
    """The class above with `method` (indented as written) added, then `tail`."""
    indented = "".join(f"    {line}\n" for line in method.strip("\n").splitlines())
    return HEAD + indented + tail


CUBE = """def cube(self):
    out = Value(self.data**3, (self,), 'cube')
    def _backward():
        self.grad += {factor} * out.grad
    out._backward = _backward
    return out
"""
CUBE_TAIL = (
    "a = Value(0.5); b = Value(2.0)\nc = (a * b).cube()\nc.backward()\nprint(a.grad, b.grad)\n"
)


def nodes(source: str, **limits: Any) -> dict[str, dict[str, Any]]:
    trace = trace_source(source, limits=Limits(**limits))
    return {node["op"] or node["label"] or node["id"]: node for node in trace["nodes"]}


def row(source: str, op: str) -> dict[str, Any]:
    found = [r for r in enginecheck_source(source)["rules"] if r["op"] == op]
    assert len(found) == 1
    return found[0]


def test_a_cube_with_a_right_rule_is_judged_right_and_carries_numeric_gradients() -> None:
    source = program(CUBE.format(factor="3 * self.data**2"), CUBE_TAIL)
    found = nodes(source)
    cube = found["cube"]
    assert cube["reference"] == "numeric"
    assert cube["correct_grad"] == 1.0
    assert math.isclose(found["*"]["correct_grad"], 3.0, rel_tol=1e-8)  # 3 · 1²
    for node in found.values():
        assert math.isclose(node["correct_grad"], node["grad"], rel_tol=1e-8)
    assert "reference" not in found["*"]  # the registry's own `*`
    assert row(source, "cube")["verdict"] == "right"
    assert compare(source) is None


def test_a_cube_with_a_wrong_rule_is_wrong_at_its_first_use() -> None:
    source = program(CUBE.format(factor="2 * self.data**2"), CUBE_TAIL)
    judged = row(source, "cube")
    assert judged["verdict"] == "wrong"
    first = judged["first"]
    assert first["learner"] == 2.0
    assert math.isclose(first["correct"], 3.0, rel_tol=1e-8)
    assert row(source, "*")["verdict"] == "right"


FOO = """def foo(self):
    out = Value(math.sin(self.data) * 3, (self,), 'foo')
    def _backward():
        self.grad += math.cos(self.data) * out.grad   # forgot factor 3
    out._backward = _backward
    return out
"""


def test_an_op_whose_rule_forgets_a_factor_is_wrong_and_its_operands_are_right() -> None:
    source = program(FOO, CUBE_TAIL.replace(".cube()", ".foo()"))
    found = nodes(source)
    assert found["foo"]["reference"] == "numeric"
    assert math.isclose(found["*"]["correct_grad"], 3 * math.cos(1.0), rel_tol=1e-8)
    assert math.isclose(found["*"]["grad"], math.cos(1.0), rel_tol=1e-12)
    a = next(n for n in found.values() if n["kind"] == "leaf" and n["data"] == 0.5)
    assert math.isclose(a["correct_grad"], 2 * 3 * math.cos(1.0), rel_tol=1e-8)
    judged = row(source, "foo")
    assert judged["verdict"] == "wrong"
    assert math.isclose(judged["first"]["correct"], 3 * math.cos(1.0), rel_tol=1e-8)
    assert judged["first"]["learner"] == math.cos(1.0)


HYP = """def hyp(self, other):
    out = Value(math.sqrt(self.data**2 + other.data**2), (self, other), 'hyp')
    def _backward():
        self.grad += self.data / out.data * out.grad
        other.grad += {other} / out.data * out.grad
    out._backward = _backward
    return out
"""
HYP_TAIL = "a = Value(3.0); b = Value(4.0)\nc = a.hyp(b)\nc.backward()\nprint(a.grad, b.grad)\n"


@pytest.mark.parametrize(("other", "verdict"), [("other.data", "right"), ("self.data", "wrong")])
def test_an_op_of_two_operands_no_table_knows_is_judged_for_each(other: str, verdict: str) -> None:
    source = program(HYP.format(other=other), HYP_TAIL)
    found = {node["data"]: node for node in trace_source(source)["nodes"]}
    assert math.isclose(found[3.0]["correct_grad"], 0.6, rel_tol=1e-8)
    assert math.isclose(found[4.0]["correct_grad"], 0.8, rel_tol=1e-8)
    assert found[5.0]["reference"] == "numeric"
    assert row(source, "hyp")["verdict"] == verdict


def test_an_operand_used_twice_gets_its_whole_derivative_once() -> None:
    method = """def hyp(self, other):
    out = Value(math.sqrt(self.data**2 + other.data**2), (self, other), 'hyp')
    def _backward():
        self.grad += self.data / out.data * out.grad
        other.grad += other.data / out.data * out.grad
    out._backward = _backward
    return out
"""
    source = program(method, "a = Value(3.0)\nc = a.hyp(a)\nc.backward()\nprint(a.grad)\n")
    a = next(n for n in trace_source(source)["nodes"] if n["kind"] == "leaf")
    assert math.isclose(a["correct_grad"], math.sqrt(2), rel_tol=1e-8)
    assert row(source, "hyp")["verdict"] == "right"


SCALE = """def scale(self):
    out = Value(self.data * K[0], (self,), 'scale')
    def _backward():
        self.grad += 7 * out.grad
    out._backward = _backward
    return out
"""


def test_a_method_reading_a_global_changed_since_has_no_reference() -> None:
    tail = "K = [2.0]\na = Value(1.5)\nc = a.scale()\nc.backward()\nK[0] = 5.0\nprint(a.grad)\n"
    source = program(SCALE, tail)
    found = nodes(source)
    assert "correct_grad" not in found["scale"] or "reference" not in found["scale"]
    leaf = next(n for n in found.values() if n["kind"] == "leaf")
    assert "correct_grad" not in leaf
    assert row(source, "scale")["verdict"] == "unchecked"
    # Unchanged, the same global gives the reference, and the wrong 7 is found.
    assert row(program(SCALE, tail.replace("K[0] = 5.0\n", "")), "scale")["verdict"] == "wrong"


def test_a_method_that_prints_prints_once() -> None:
    method = CUBE.format(factor="3 * self.data**2").replace(
        "    return out", "    print('cubed', self.data)\n    return out"
    )
    source = program(method, CUBE_TAIL)
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    assert sum(line.startswith("cubed") for line in printed_lines(trace)) == 1
    assert row(source, "cube")["verdict"] == "right"
    assert compare(source) is None


@pytest.mark.parametrize(
    "again",
    [
        "raise ValueError('again')",
        "while True: pass",
        "return self.cube()",  # recursion without end
        "return [Value(i) for i in range(10_000)][-1]",
        "return 2.0",
        "return Value(self.data * 2, (self,), 'cube')",
        "[c.backward() for c in self._prev]",  # a pass over the program's graph
        "return Value(10**400, (self,), 'cube')",  # no float holds it
        "[c._backward() for c in self._prev]",  # a node's rule, by hand
    ],
)
def test_a_method_that_fails_when_run_again_has_no_reference(again: str) -> None:
    method = CUBE.format(factor="3 * self.data**2").replace(
        "def cube(self):\n", f"def cube(self):\n    if DONE[0]:\n        {again}\n"
    )
    source = program(method, "DONE = [False]\n" + CUBE_TAIL + "DONE[0] = True\n")
    found = nodes(source)
    assert "reference" not in found["cube"]
    assert all("correct_grad" not in n for n in found.values() if n["kind"] == "leaf")
    assert row(source, "cube")["verdict"] == "unchecked"
    assert compare(source) is None


@pytest.mark.parametrize(
    ("again", "reference"), [("c.label = 'again'", None), ("c.data = 0.0", False)]
)
def test_a_method_that_writes_a_node_of_the_graph_when_run_again_changes_nothing(
    again: str, reference: bool | None
) -> None:
    method = CUBE.format(factor="3 * self.data**2").replace(
        "def cube(self):\n",
        f"def cube(self):\n    if DONE[0]:\n        for c in self._prev:\n            {again}\n",
    )
    tail = "DONE = [False]\n" + CUBE_TAIL + "DONE[0] = True\n"
    source = program(method, tail)
    found = trace_source(source)["nodes"]
    plain = trace_source(program(method, tail.replace("DONE[0] = True\n", "")))["nodes"]
    assert [(n["label"], n["data"]) for n in found] == [(n["label"], n["data"]) for n in plain]
    # (a number written is refused: no derivative; a label, put back or refused)
    assert reference is None or ("reference" in found[-1]) is reference
    assert compare(source) is None


def test_a_method_that_changes_a_list_of_the_programs_keeps_the_trace_as_it_was() -> None:
    method = CUBE.format(factor="3 * self.data**2").replace(
        "def cube(self):\n", "def cube(self):\n    LOG.append(self.data)\n"
    )
    source = program(method, "LOG = []\n" + CUBE_TAIL + "print(LOG)\n")
    assert row(source, "cube")["verdict"] == "right"
    assert compare(source) is None


def test_a_node_made_by_a_helper_handed_its_number_has_no_reference() -> None:
    # `make` is given the number, not the way to compute it: moving its operand would
    # leave the number as it is (a derivative of 0 for any op), so it is not run again.
    method = """def make(self, data, op):
    out = Value(data, (self,), op)
    def _backward():
        self.grad += 2 * self.data**2 * out.grad
    out._backward = _backward
    return out
def cube(self):
    return self.make(self.data**3, 'cube')
"""
    source = program(method, CUBE_TAIL)
    assert "reference" not in nodes(source)["cube"]
    assert row(source, "cube")["verdict"] == "unchecked"
    assert compare(source) is None


def test_a_call_that_returns_another_node_made_of_the_noted_one_is_not_taken() -> None:
    # `f` makes `cube` then returns its square: at a = 1 both are 1, but the derivative
    # of what `f` returns is not cube's; the op of what the re-run gives is not `cube`.
    method = CUBE.format(factor="2 * self.data**2")
    tail = (
        "def f(a):\n    c = Value(a.data**3, (a,), 'cube')\n"
        "    return Value(c.data**2, (c,), 'sq')\n"
        "a = Value(1.0)\ny = f(a)\ny.backward()\nprint(a.grad)\n"
    )
    found = nodes(program(method, tail))
    assert "reference" not in found["cube"]


WRAPPED_POWER = """def __pow__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data ** other.data, (self, other), f'**{other.data}')
    def _backward():
        self.grad += other.data * self.data ** (other.data - 1) * out.grad
    out._backward = _backward
    return out
"""


def test_a_power_keeping_its_exponent_wrapped_is_answered_by_the_table_not_a_rerun(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `x ** 2` keeping 2 as a leaf operand: `right_locals` answers it from the registry,
    # so noting its call for a re-run would be work thrown away.
    from backprop_animator.engine.trace.recorder import Recorder

    noted: list[str] = []
    note = Recorder.note_call

    def counting(recorder: Recorder, instance: Any, node: Any) -> None:
        noted.append(node._op)
        note(recorder, instance, node)

    monkeypatch.setattr(Recorder, "note_call", counting)
    source = program(WRAPPED_POWER, "x = Value(3.0)\ny = x ** 2\ny.backward()\nprint(x.grad)\n")
    trace = trace_source(source)
    assert noted == []
    assert [node["correct_grad"] for node in trace["nodes"] if node["label"] == "x"] == [6.0]
    (row,) = enginecheck_source(source)["rules"]
    assert (row["op"], row["verdict"]) == ("**", "right")
    # A power whose second operand is not its exponent is still noted.
    noted.clear()
    fifth = WRAPPED_POWER.replace("f'**{other.data}'", "'**5'")
    trace_source(program(fifth, "x = Value(3.0)\ny = x ** 2\ny.backward()\n"))
    assert noted == ["**5"]


def test_a_method_that_hands_back_a_node_it_kept_has_no_reference() -> None:
    # A memo of the op's output on its operand (`self._cache`, shared by the re-run's
    # copy): run again, moved or not, it gives the graph's own node back, whose number
    # no move changes (a derivative of 0 blamed the right rule).
    method = (
        CUBE.format(factor="3 * self.data**2")
        .replace(
            "def cube(self):\n",
            "def cube(self):\n    if 'cube' in self._cache:\n        return self._cache['cube']\n",
        )
        .replace("    return out", "    self._cache['cube'] = out\n    return out")
    )
    source = program(method, CUBE_TAIL).replace(
        "        self._op = _op\n", "        self._op = _op\n        self._cache = {}\n", 1
    )
    assert "reference" not in nodes(source)["cube"]
    assert row(source, "cube")["verdict"] == "unchecked"
    assert compare(source) is None


def test_the_frame_of_a_wrong_rule_no_table_knows_names_the_measured_derivative() -> None:
    # The check row and the graph said the cube was wrong; the frame where its rule ran
    # said nothing, the reference being measured only once the program had ended.
    def said(factor: str) -> str:
        trace = trace_source(program(CUBE.format(factor=factor), CUBE_TAIL))
        cube = next(node["id"] for node in trace["nodes"] if node["op"] == "cube")
        (frame,) = [f for f in trace["frames"] if f["phase"] == "backward" and f["node"] == cube]
        return str(frame["text"])

    assert said("2 * self.data**2").endswith(
        ". The right local derivative for a*b is 3, not 2. No table knows cube: the right one "
        "was measured by running its own code again with a*b nudged a tiny step up and down."
    )
    assert "No table knows" not in said("3 * self.data**2")


MAGNITUDE = """def magnitude(self):
    out = Value(self.data if self.data >= 0 else -self.data, (self,), 'magnitude')
    def _backward():
        self.grad += {slope} * out.grad
    out._backward = _backward
    return out
"""


@pytest.mark.parametrize("at", ["0.0", "-0.0"])
def test_an_op_no_table_knows_at_a_kink_has_no_one_right_derivative(at: str) -> None:
    # |x| at 0, the learner's slope there 1 (`x >= 0`), as good as any between -1 and 1:
    # the quotient of the nudges up and down, 0, was "the right local derivative", and the
    # rule was called wrong ("The right local derivative for a*b is 0, not 1").
    tail = (
        f"a = Value({at}); b = Value(2.0)\nc = (a * b).magnitude()\nc.backward()\nprint(a.grad)\n"
    )
    source = program(MAGNITUDE.format(slope="(1.0 if self.data >= 0 else -1.0)"), tail)
    assert printed_lines(trace_source(source)) == run_in_cpython(source)
    assert row(source, "magnitude")["verdict"] != "wrong"
    texts = [f["text"] for f in trace_source(source)["frames"] if f["phase"] == "backward"]
    assert not any("The right local derivative" in text for text in texts)
    # Away from the kink its slope is measured, and a wrong one named.
    away = source.replace(f"a = Value({at})", "a = Value(0.5)")
    assert row(away, "magnitude")["verdict"] == "right"
    assert row(away.replace("(1.0 if", "(2.0 if"), "magnitude")["verdict"] == "wrong"


# DeZero (steps 11 to 16): each op a `Function` whose `__call__(self, *inputs)` makes the
# output and keeps the record (`set_creator(self)`, `self.inputs`): a node's op no table
# knows is re-run through its record's `__call__`, on a copy of the record, so the
# program's own record is never written.
DEZERO = (
    (Path(__file__).parent / "real_code" / "dezero_step16_generations.py")
    .read_text(encoding="utf-8")
    .split("# step 14: the same variable used twice")[0]
)
DEZERO_OPS = """
class Cube(Function):
    def forward(self, x):
        return x ** 3

    def backward(self, gy):
        x = self.inputs[0].data
        return 3 * x ** 2 * gy


class Wobble(Function):
    def forward(self, x0, x1):
        return x0 * x1 + math.sin(x0)

    def backward(self, gy):
        x0, x1 = self.inputs[0].data, self.inputs[1].data
        return gy * (x1 + math.cos(x0)), gy * x0
"""
DEZERO_RUN = """
x = Variable(0.5)
w = Variable(2.0)
c = Cube()(x)
y = Wobble()(c, w)
y.backward()
print(x.grad, w.grad)
print(c.creator.inputs[0] is x, y.creator.inputs[0] is c, len(y.creator.inputs))
"""


def dezero_rows(source: str) -> dict[str, str]:
    return {row["op"]: row["verdict"] for row in enginecheck_source(source)["rules"]}


def test_dezero_ops_no_table_knows_are_rerun_through_their_records_call() -> None:
    # They were `unchecked`: the call making the node is `Function.__call__`, whose
    # `self` is the op's record, not an operand, so no re-run was noted.
    source = DEZERO + DEZERO_OPS + DEZERO_RUN
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    assert dezero_rows(source) == {"cube": "right", "Wobble": "right"}
    by_name = {node["label"] or node["name"]: node for node in trace["nodes"]}
    for name in ("x", "w", "c"):
        assert by_name[name]["correct_grad"] == pytest.approx(by_name[name]["grad"], rel=1e-6)
    assert by_name["x"].get("reference") is None  # a leaf: its own op is none
    assert by_name["c"]["reference"] == "numeric"


def test_a_wrong_rule_of_a_dezero_op_no_table_knows_is_wrong() -> None:
    # Wobble's backward() forgets sin's derivative: x0's share is x1 alone.
    source = DEZERO + DEZERO_OPS.replace("gy * (x1 + math.cos(x0))", "gy * x1") + DEZERO_RUN
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    check = enginecheck_source(source)
    (row,) = [row for row in check["rules"] if row["op"] == "Wobble"]
    assert row["verdict"] == "wrong"
    assert row["first"]["learner"] == pytest.approx(2.0)
    assert row["first"]["correct"] == pytest.approx(2.0 + math.cos(0.125), rel=1e-6)


def test_a_dezero_op_whose_call_gives_another_number_again_has_no_reference() -> None:
    # A forward() reading a global the program changed since: not exact, so none.
    source = DEZERO + DEZERO_OPS.replace("return x ** 3", "return x ** 3 + K") + "K = 0.0\n"
    source += DEZERO_RUN.replace("y.backward()", "K = 1.0\ny.backward()")
    assert dezero_rows(source)["cube"] == "unchecked"
    assert printed_lines(trace_source(source)) == run_in_cpython(source)


@pytest.mark.parametrize(
    "again",
    [
        "while True:\n                pass",  # endless: the re-runs' share of the bounds
        "self.inputs[0].data = 0.0",  # a write to a node of the graph: refused
        "self.generation = -1",  # the record's own attribute: its copy's, not the program's
        "raise ValueError('again')",
    ],
)
def test_a_dezero_op_that_misbehaves_when_run_again_changes_nothing(again: str) -> None:
    guarded = DEZERO_OPS.replace(
        "        return x ** 3",
        f"        if DONE[0]:\n            {again}\n        return x ** 3",
    )
    tail = "DONE = [False]\n" + DEZERO_RUN + "DONE[0] = True\nprint(len(c.creator.inputs))\n"
    source = DEZERO + guarded + tail
    trace = trace_source(source, limits=Limits(time_limit=60.0))
    assert printed_lines(trace) == run_in_cpython(source)
    plain = trace_source(DEZERO + guarded + tail.replace("DONE[0] = True\n", ""))
    assert [(n["name"], n["data"], n["grad"]) for n in trace["nodes"]] == [
        (n["name"], n["data"], n["grad"]) for n in plain["nodes"]
    ]
    assert trace["edges"] == plain["edges"]
    written = again.startswith("self.generation")
    assert dezero_rows(source)["cube"] == ("right" if written else "unchecked")


def test_a_dezero_record_holding_a_huge_list_is_copied_within_the_bounds() -> None:
    # Each re-run copies the record, its lists too: charged by their length (a step per
    # ten items), so the re-runs of a record of 400,000 items spend their share of the
    # steps and leave the op unchecked, no error; with room, they judge it.
    huge = DEZERO_OPS.replace(
        "class Cube(Function):\n",
        "class Cube(Function):\n    def __init__(self):\n        self.log = [0] * 400000\n\n",
    )
    source = DEZERO + huge + DEZERO_RUN
    for steps, verdict in ((200_000, "unchecked"), (10_000_000, "right")):
        limits = Limits(max_steps=steps, time_limit=60.0)
        trace = trace_source(source, limits=limits)
        assert printed_lines(trace) == run_in_cpython(source)
        check = enginecheck_source(source, limits=limits)
        assert {row["op"]: row["verdict"] for row in check["rules"]}["cube"] == verdict


# A recursive engine whose rule runs each operand's rule right after its write: the
# rule's run is cut into stretches, one frame each (`narrate.rule_stretch_text`). Its
# second factor is wrong (2·a where a belongs).
NESTED = """\
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = list(_children)
        self._op = _op
    def zap(self, other):
        out = Value(self.data * other.data + 0.0, (self, other), 'zap')
        def _backward():
            self.grad += other.data * out.grad
            self._backward()
            other.grad += {factor} * out.grad
            other._backward()
        out._backward = _backward
        return out
    def backward(self):
        self.grad = 1.0
        self._backward()
a = Value(2.0); b = Value(3.0); c = Value(4.0)
d = a.zap(b)
e = d.zap(c)
e.backward()
print(a.grad, b.grad, c.grad, d.grad)
"""


def test_a_rule_cut_by_the_rules_it_calls_is_judged_where_each_share_is_written() -> None:
    # Each stretch was judged as the whole rule: e's first stretch, which writes d's
    # share alone, said c's derivative was 0 (c's share comes in the next stretch), and
    # the next said the same of d, whose share was right.
    source = NESTED.format(factor="2 * self.data")
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    label = {node["id"]: node["label"] for node in trace["nodes"]}
    said = [
        (label[f["node"]], f["text"])
        for f in trace["frames"]
        if f["phase"] == "backward" and f["contributions"]
    ]
    assert [who for who, _ in said] == ["e", "d", "d", "e"]
    measured = " No table knows zap: the right one was measured by running its own code "
    assert said[0][1].endswith("d.grad += 4 × 1 → 4; then d's rule runs inside it.")
    assert said[1][1].endswith("a.grad += 3 × 4 → 12; then a's rule runs inside it.")
    assert said[2][1].endswith(
        "b.grad += 4 × 4 → 16; then b's rule runs inside it. The right local derivative for "
        f"b is 2, not 4.{measured}again with b nudged a tiny step up and down."
    )
    assert said[3][1].endswith(
        "c.grad += 12 × 1 → 12; then c's rule runs inside it. The right local derivative for "
        f"c is 6, not 12.{measured}again with c nudged a tiny step up and down."
    )
    # A right rule's stretches say nothing of derivatives.
    right = trace_source(NESTED.format(factor="self.data"))
    assert not any("right local derivative" in f["text"] for f in right["frames"])
    # A share the rule never writes is said at its last stretch.
    forgot = NESTED.format(factor="self.data").replace(
        "            self.grad += other.data * out.grad\n", ""
    )
    texts = [f["text"] for f in trace_source(forgot)["frames"] if f["phase"] == "backward"]
    assert sum("right local derivative for d is 4, not 0" in t for t in texts) == 1
    assert sum("right local derivative for a is 3, not 0" in t for t in texts) == 1


@pytest.mark.parametrize("op", ["zap", "*"])
def test_a_wrong_share_of_a_cut_rule_is_shown_at_the_frame_that_writes_it(op: str) -> None:
    # The row's Show frame went to the run's first frame, e's stretch that writes d's
    # share alone; c's wrong share is written in its next stretch. (`*`: a table's op.)
    source = NESTED.format(factor="2 * self.data").replace("'zap'", repr(op))
    if op == "*":
        source = source.replace(" + 0.0", "")
    trace = trace_source(source)
    label = {node["id"]: node["label"] for node in trace["nodes"]}
    (row,) = trace["engine_check"]["rules"]
    first = row["first"]
    assert row["verdict"] == "wrong" and label[first["child"]] == "c"
    frame = trace["frames"][first["frame"]]
    assert label[frame["node"]] == "e"
    assert [label[c["to"]] for c in frame["contributions"]] == ["c"]
    # And that frame says so, as a whole rule's frame does; a table's op's stretches said
    # nothing of their factors.
    said = [f["text"] for f in trace["frames"] if f["phase"] == "backward"]
    assert "The right local derivative for c is 6, not 12." in frame["text"]
    assert sum("right local derivative" in text for text in said) == 2  # b's and c's


def test_a_wide_rule_cut_after_each_write_names_each_wrong_share_once() -> None:
    # A rule over n operands that runs each one's rule after its write is n frames: each
    # was handed the whole run's writes, and kept its own copy of the n right locals, so
    # the run took n² steps and memory (2,000 operands: twice main's time, and more).
    source = (
        NESTED.split("    def zap(self, other):")[0]
        + "    def backward(self):\n        self.grad = 1.0\n        self._backward()\n"
        + "def total(xs):\n    out = Value(sum(x.data for x in xs), xs, '+')\n"
        + "    def _backward():\n        for x in xs:\n            x.grad += 2.0 * out.grad\n"
        + "            x._backward()\n    out._backward = _backward\n    return out\n"
        + "xs = [Value(float(i)) for i in range(300)]\ny = total(xs)\ny.backward()\n"
        + "print(xs[0].grad, xs[299].grad)\n"
    )
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    runs = [f for f in trace["frames"] if f["phase"] == "backward" and f["contributions"]]
    assert len(runs) == 300
    for k, frame in enumerate(runs):
        assert frame["text"].endswith(
            f"then xs[{k}]'s rule runs inside it. The right local derivative for xs[{k}] is 1, "
            "not 2."
        )
