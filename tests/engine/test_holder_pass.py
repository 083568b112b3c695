"""Gates of the "Hacker's guide to Neural Networks" (SPEC §14-15): units that hold a
value and a gradient and no operands, gate objects that keep the units they were given
beside the one they made, and a backward pass the program runs itself, one gate's
`backward()` at a time. Drawn as a pass run by hand: the units are nodes, each gate's
made unit is an op node whose operands are the gate's other units, its op named from
the gate's class, and the gate's `backward()` is that node's rule, judged by the engine
check. Every number and printed line as CPython's."""

from __future__ import annotations

from pathlib import Path

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from backprop_animator.engine.lab.gradcheck import gradcheck_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython
from tests.support.traces import ROOMY

PROGRAM = Path(__file__).parent / "real_code" / "hackers_guide_gates.py"
HAND_CALLS = ["sg.backward()", "addg1.backward()", "addg0.backward()", "mulg1.backward()"]

UNIT = """
class Unit:
    def __init__(self, value, grad):
        self.value = value
        self.grad = grad

"""
MUL = """
class MultiplyGate:
    def forward(self, u0, u1):
        self.u0 = u0
        self.u1 = u1
        self.utop = Unit(u0.value * u1.value, 0.0)
        return self.utop

    def backward(self):
        self.u0.grad += self.u1.value * self.utop.grad
        self.u1.grad += self.u0.value * self.utop.grad

"""


def by_name(trace: dict) -> dict[str, dict]:
    """The first node of each name (a training loop makes an `s` per pass)."""
    named: dict[str, dict] = {}
    for node in trace["nodes"]:
        named.setdefault(node["name"], node)
    return named


def test_the_guides_gates_are_a_graph_and_their_backward_calls_passes_by_hand() -> None:
    source = PROGRAM.read_text(encoding="utf-8")
    trace = trace_source(source, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    # One walk before the nudge, then one per data point of the three training steps.
    assert len(trace["passes"]) == 1 + 3 * 4
    nodes = by_name(trace)
    ops = {name: node["op"] for name, node in nodes.items()}
    assert ops["mulg0.utop"] == ops["mulg1.utop"] == "*"
    assert ops["addg0.utop"] == ops["addg1.utop"] == "+"
    assert ops["s"] == "sigmoid"
    ids = {node["id"]: name for name, node in nodes.items()}
    operands = {}
    for edge in trace["edges"]:
        operands.setdefault(ids.get(edge["target"]), []).append(ids.get(edge["source"]))
    assert operands["mulg0.utop"] == ["a", "x"]
    assert operands["addg1.utop"] == ["addg0.utop", "c"]
    assert operands["s"] == ["addg1.utop"]
    # Each gate's backward() is its unit's rule: the node's `rule` is the method's lines.
    lines = source.splitlines()
    rule = nodes["mulg0.utop"]["rule"]
    assert lines[rule["line"] - 1].strip() == "def backward(self):"
    # The first pass: no sort, the program's calls in its order, each frame its call's line.
    first = [f for f in trace["frames"] if f["pass"] == 0]
    sort = next(f for f in first if f["phase"] == "sort")
    assert sort["text"].startswith("No backward() of a node here")
    assert "SigmoidGate that made s" in sort["text"]
    calls = [lines[f["line"] - 1].split("#")[0].strip() for f in first if f["phase"] == "backward"]
    assert calls == [*HAND_CALLS, "mulg0.backward()"]
    check = trace["engine_check"]
    assert [(row["op"], row["verdict"]) for row in check["rules"]] == [
        ("*", "right"), ("+", "right"), ("sigmoid", "right")
    ]  # fmt: skip
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    # The seed the program gives s (the squared error's gradient) is where the right
    # engine starts too: every gradient is the right one.
    assert all(node["grad"] == pytest.approx(node["correct_grad"]) for node in trace["nodes"])


def test_a_gate_with_a_wrong_rule_is_named_wrong() -> None:
    right = "self.u0.grad += (s * (1 - s)) * self.utop.grad"
    source = PROGRAM.read_text(encoding="utf-8")
    assert right in source
    wrong = source.replace(right, "self.u0.grad += (s * (1 + s)) * self.utop.grad")
    trace = trace_source(wrong, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(wrong))
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert rows["*"]["verdict"] == rows["+"]["verdict"] == "right"
    assert rows["sigmoid"]["verdict"] == "wrong"
    first = rows["sigmoid"]["first"]
    frame = trace["frames"][first["frame"]]
    assert frame["node"] == first["node"] == by_name(trace)["s"]["id"]
    assert "The right local derivative for addg1.utop is 0.105" in frame["text"]


def test_a_gate_of_an_unknown_name_names_its_op_by_its_class() -> None:
    source = (
        UNIT
        + MUL
        + """
class HalveGate:
    def forward(self, u0):
        self.u0 = u0
        self.utop = Unit(u0.value / 2, 0.0)
        return self.utop

    def backward(self):
        self.u0.grad += 0.5 * self.utop.grad

a, b = Unit(3.0, 0.0), Unit(-2.0, 0.0)
m, h = MultiplyGate(), HalveGate()
out = h.forward(m.forward(a, b))
out.grad = 1.0
h.backward()
m.backward()
print(a.grad, b.grad)
"""
    )
    trace = trace_source(source, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(source)
    assert by_name(trace)["out"]["op"] == "HalveGate"
    # No right rule is known for an op of the program's own: its row is unchecked.
    rows = {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]}
    assert rows == {"*": "right", "HalveGate": "unchecked"}


def test_a_gate_whose_backward_raises_fails_as_in_cpython() -> None:
    source = (
        UNIT
        + MUL.replace(
            "        self.u0.grad += self.u1.value",
            "        raise ValueError('no gradient here')\n        self.u0.grad += self.u1.value",
        )
        + "a, b = Unit(3.0, 0.0), Unit(-2.0, 0.0)\ng = MultiplyGate()\nout = g.forward(a, b)\n"
        + "out.grad = 1.0\ng.backward()\n"
    )
    with pytest.raises(EngineError) as raised:
        trace_source(source, limits=ROOMY)
    assert raised.value.message.startswith("ValueError: no gradient here")
    assert (
        source.splitlines()[raised.value.line - 1].strip() == "raise ValueError('no gradient here')"
    )
    caught = source.replace("g.backward()\n", "try:\n    g.backward()\nexcept ValueError as e:\n")
    caught += "    print('caught', e)\nprint(a.grad, b.grad)\n"
    trace = trace_source(caught, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(caught)


def test_a_gate_holding_itself_its_output_or_thousands_of_units_stays_bounded() -> None:
    # The gate keeps itself, and after forward() its output as an input too: only older
    # units it was given are operands, so no cycle comes of it.
    looped = (
        UNIT
        + MUL
        + "a, b = Unit(3.0, 0.0), Unit(-2.0, 0.0)\ng = MultiplyGate()\ng.me = g\n"
        + "out = g.forward(a, b)\ng.u0 = g.utop\nout.grad = 1.0\ng.backward()\n"
        + "print(a.grad, b.grad, out.grad)\n"
    )
    trace = trace_source(looped, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(looped)
    assert len(trace["passes"]) == 1
    # A sum gate over thousands of units: every unit an operand, each walk charged.
    wide = (
        UNIT
        + """
class SumGate:
    def forward(self, units):
        self.units = units
        self.utop = Unit(sum(u.value for u in units), 0.0)
        return self.utop

    def backward(self):
        for u in self.units:
            u.grad += 1.0 * self.utop.grad

units = [Unit(i * 0.5, 0.0) for i in range(2000)]
g = SumGate()
out = g.forward(units)
out.grad = 1.0
g.backward()
print(sum(u.grad for u in units))
"""
    )
    trace = trace_source(wide, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(wide)
    assert (
        sum(1 for edge in trace["edges"] if edge["target"] == by_name(trace)["out"]["id"]) == 2000
    )
    with pytest.raises(EngineError, match="steps"):
        trace_source(wide, limits=Limits(max_steps=5_000, time_limit=30.0))


def test_an_object_that_made_no_node_it_keeps_is_refused_as_before() -> None:
    # backward() on an object that holds units but made none of them: no graph here.
    source = (
        UNIT
        + "class Box:\n    def backward(self):\n        self.u.grad += 1.0\n\n"
        + "box = Box()\nbox.u = Unit(1.0, 0.0)\nbox.v = Unit(2.0, 0.0)\nbox.backward()\n"
    )
    with pytest.raises(
        EngineError, match="backward\\(\\) was called on a Box, which is not a graph"
    ):
        trace_source(source)
    # Nor are parameters an object made in its __init__ the operands of the last one.
    params = (
        UNIT
        + "class Neuron:\n    def __init__(self):\n        self.a = Unit(1.0, 0.0)\n"
        + "        self.b = Unit(2.0, 0.0)\n\n    def backward(self):\n"
        + "        self.a.grad += 1.0\n\nn = Neuron()\nn.backward()\n"
    )
    with pytest.raises(EngineError, match="backward\\(\\) was called on a Neuron"):
        trace_source(params)


def test_the_gradient_check_moves_a_unit_of_a_gate_pass() -> None:
    source = (
        UNIT
        + MUL
        + "a, b = Unit(3.0, 0.0), Unit(-2.0, 0.0)\ng = MultiplyGate()\nout = g.forward(a, b)\n"
        + "out.grad = 1.0\ng.backward()\n"
    )
    checked = gradcheck_source(source, h=[1e-6], leaves=["a"])
    (row,) = checked["checks"][0]["rows"]
    assert checked["checks"][0]["analytic"] == -2.0
    assert row["numeric"] == pytest.approx(-2.0, rel=1e-6)


def test_a_gate_fed_its_own_earlier_output_takes_it_as_an_operand() -> None:
    # A recurrence through one gate object: its earlier output is an op node it made,
    # an operand all the same (only leaves it made itself, parameters, are not).
    source = (
        UNIT
        + MUL
        + "x = Unit(0.5, 0.0)\nh = Unit(2.0, 0.0)\ng = MultiplyGate()\nh1 = g.forward(h, x)\n"
        + "g1 = MultiplyGate()\nh2 = g1.forward(h1, x)\nh3 = g1.forward(g1.utop, x)\n"
        + "h3.grad = 1.0\ng1.backward()\n"
        + "print(h.grad, x.grad, h1.grad, h2.grad)\n"
    )
    trace = trace_source(source, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(source)
    nodes = by_name(trace)
    names = {node["id"]: name for name, node in nodes.items()}
    into = {}
    for edge in trace["edges"]:
        into.setdefault(names[edge["target"]], []).append(names[edge["source"]])
    assert into["h3"] == ["h2", "x"]
    # h2, made by the same gate before h3, is a leaf: the gate keeps h3's units only.
    assert "h2" not in into
    assert nodes["h2"]["kind"] == "leaf"


def test_an_object_that_makes_its_parameters_and_its_output_holds_them_all() -> None:
    # A neuron object: its parameters made in __init__, its output in forward(): the
    # output's operands are all the units it keeps, parameters and inputs alike.
    source = (
        UNIT
        + """
import math

class Neuron:
    def __init__(self):
        self.a = Unit(1.0, 0.0)
        self.b = Unit(-2.0, 0.0)

    def forward(self, x):
        self.x = x
        self.out = Unit(math.tanh(self.a.value * x.value + self.b.value), 0.0)
        return self.out

    def backward(self):
        d = (1 - self.out.value ** 2) * self.out.grad
        self.a.grad += self.x.value * d
        self.b.grad += d
        self.x.grad += self.a.value * d

n = Neuron()
x = Unit(0.5, 0.0)
out = n.forward(x)
out.grad = 1.0
n.backward()
print(n.a.grad, n.b.grad, x.grad)
"""
    )
    trace = trace_source(source, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(source)
    nodes = {node["id"]: node for node in trace["nodes"]}
    out = next(node for node in trace["nodes"] if node["name"] == "out")
    operands = [nodes[e["source"]]["name"] for e in trace["edges"] if e["target"] == out["id"]]
    assert operands == ["a", "b", "x"]
    assert out["op"] == "Neuron"


WENGERT = Path(__file__).parent / "real_code" / "wengert_list.py"


def test_a_wengert_lists_records_are_its_graph() -> None:
    source = WENGERT.read_text(encoding="utf-8")
    trace = trace_source(source, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    assert len(trace["passes"]) == 5  # f, then four steps of gradient descent
    nodes = {node["id"]: node for node in trace["nodes"]}
    f = by_name(trace)["f"]
    into_f = [nodes[e["source"]]["name"] for e in trace["edges"] if e["target"] == f["id"]]
    # Named by what they are, not by where the tape keeps them (`TAPE[0][0]`).
    assert into_f == ["x*y", "sin(x)"]
    lines = source.splitlines()
    # Each record's node is built on the line of the op that made it.
    builds = [f for f in trace["frames"] if f["phase"] == "build" and f["pass"] == 0]
    assert [lines[b["line"] - 1].strip() for b in builds] == [
        "out = Var(self.value * other.value)",
        "out = Var(math.sin(self.value))",
        "out = Var(self.value + other.value)",
    ]
    check = trace["engine_check"]
    assert {row["op"]: row["verdict"] for row in check["rules"]} == {
        "*": "right", "sin": "right", "+": "right", "exp": "right"
    }  # fmt: skip
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    assert all(node["grad"] == pytest.approx(node["correct_grad"]) for node in trace["nodes"])


def test_a_wengert_list_with_a_wrong_local_derivative_or_a_tape_never_cleared() -> None:
    source = WENGERT.read_text(encoding="utf-8")
    wrong = source.replace("[(self, math.cos(self.value))]", "[(self, math.sin(self.value))]")
    assert wrong != source
    trace = trace_source(wrong, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(wrong))
    rows = {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]}
    assert rows["sin"] == "wrong" and rows["*"] == "right"
    # A tape nothing clears: each backward() runs the earlier steps' records again.
    stale = source.replace("    TAPE.clear()\n", "")
    trace = trace_source(stale, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(stale))
    assert trace["engine_check"]["sort"]["verdict"] == "wrong"


def test_records_that_point_forward_or_at_themselves_link_nothing() -> None:
    head = "TAPE = []\nclass Var:\n    def __init__(self, value):\n        self.value = value\n"
    head += "        self.grad = 0.0\n"
    walk = (
        "def backward(out):\n    out.grad = 1.0\n    for node, inputs in reversed(TAPE):\n"
        "        for inp, local in inputs:\n            inp.grad += local * node.grad\n"
    )
    # x's record names f, made after it, and f's names itself: no graph, the old refusal.
    looped = (
        head
        + walk
        + "x = Var(2.0)\nf = Var(3.0)\nTAPE.append((x, [(f, 1.0)]))\n"
        + "TAPE.append((f, [(f, 1.0)]))\nbackward(f)\nprint(x.grad, f.grad)\n"
    )
    with pytest.raises(EngineError, match=r"backward\(\) was called on a Var, which is not a"):
        trace_source(looped, limits=ROOMY)
    # Thousands of records: each looked at within the step bound.
    many = (
        head
        + "    def __add__(self, other):\n        out = Var(self.value + other.value)\n"
        + "        TAPE.append((out, [(self, 1.0), (other, 1.0)]))\n        return out\n"
        + walk
        + "s = Var(0.0)\nfor i in range(2000):\n    s = s + Var(1.0)\nbackward(s)\n"
        + "print(s.value, TAPE[0][1][1][0].grad)\n"
    )
    trace = trace_source(many, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(many)
    with pytest.raises(EngineError, match="steps"):
        trace_source(many, limits=Limits(max_steps=10_000, time_limit=30.0))


TAPE_OF_NODES = Path(__file__).parent / "real_code" / "tape_of_nodes.py"


def test_a_tape_of_node_objects_is_a_graph_and_its_backward_a_pass() -> None:
    source = TAPE_OF_NODES.read_text(encoding="utf-8")
    trace = trace_source(source, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    assert len(trace["passes"]) == 2  # the tape's backward(), at two points
    nodes = {node["id"]: node for node in trace["nodes"]}
    named = by_name(trace)
    into_y = [nodes[e["source"]]["name"] for e in trace["edges"] if e["target"] == named["y"]["id"]]
    assert into_y == ["v3", "v4"]
    assert [named[n]["op"] for n in ("v3", "v4", "y")] == ["*", "sin", "+"]
    lines = source.splitlines()
    # The pass is the tape's backward(); each node's rule its class's backward().
    code = trace["passes"][0]["backward"]
    assert lines[code["line"] - 1].strip() == "def backward(self):"
    assert lines[code["line"] - 3].strip() == "return self.nodes[-1].output"  # Tape's
    check = trace["engine_check"]
    assert check["grad"] == "gradient"
    assert {row["op"]: row["verdict"] for row in check["rules"]} == {
        "*": "right", "sin": "right", "+": "right"
    }  # fmt: skip
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    assert all(node["grad"] == pytest.approx(node["correct_grad"]) for node in trace["nodes"])
    wrong = source.replace(
        "self.right.gradient += self.left.output * self.gradient",
        "self.right.gradient += self.right.output * self.gradient",
    )
    assert wrong != source
    trace = trace_source(wrong, limits=ROOMY)
    assert_same_output(printed_lines(trace), run_in_cpython(wrong))
    rows = {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]}
    assert rows == {"*": "wrong", "sin": "right", "+": "right"}


def test_a_tape_of_thousands_of_nodes_or_of_nodes_holding_themselves_stays_bounded() -> None:
    source = TAPE_OF_NODES.read_text(encoding="utf-8")
    head = source.split("# f(x1, x2)")[0]
    # Each node keeps itself too: never its own operand.
    selfish = head.replace(
        "        tape.add(self)\n", "        tape.add(self)\n        self.me = self\n"
    )
    selfish += "a = Variable(3.0)\nb = Variable(4.0)\nc = Multiply(a, b)\n"
    selfish += "tape.forward()\ntape.backward()\nprint(a.gradient, b.gradient)\n"
    trace = trace_source(selfish, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(selfish)
    assert len(trace["edges"]) == 2
    # A chain of 3,000 nodes on one tape: every walk of it charged.
    chain = head + "s = Variable(0.5)\nfor i in range(1500):\n    s = Add(s, Variable(0.001))\n"
    chain += "print(tape.forward())\ntape.backward()\nprint(tape.nodes[0].gradient)\n"
    trace = trace_source(chain, limits=ROOMY)
    assert printed_lines(trace) == run_in_cpython(chain)
    with pytest.raises(EngineError, match="steps"):
        trace_source(chain, limits=Limits(max_steps=20_000, time_limit=30.0))
    # A node whose backward() raises ends the program as CPython's does.
    raising = head.replace(
        "        self.left.gradient += self.gradient\n", "        raise RuntimeError('no')\n"
    )
    raising += "a = Variable(3.0)\nb = Add(a, a)\ntape.forward()\ntape.backward()\n"
    with pytest.raises(EngineError) as raised:
        trace_source(raising, limits=ROOMY)
    assert raised.value.message.startswith("RuntimeError: no")


def test_the_gradient_check_agrees_on_gates_seeded_by_a_loss_and_on_a_tapes_forward() -> None:
    # A gate pass seeded with the squared error's gradient: the quotient is scaled by it.
    gates = PROGRAM.read_text(encoding="utf-8")
    checked = gradcheck_source(gates, h=[1e-6], leaves=["b"], pass_index=5)
    (row,) = checked["checks"][0]["rows"]
    assert row["numeric"] == pytest.approx(checked["checks"][0]["analytic"], rel=1e-5)
    # A tape's forward() works out the numbers after the nodes are made: the leaf is
    # moved where that forward() writes it.
    tape = TAPE_OF_NODES.read_text(encoding="utf-8")
    for index, leaf in ((0, "x2"), (1, "x1")):
        checked = gradcheck_source(tape, h=[1e-6], leaves=[leaf], pass_index=index)
        (row,) = checked["checks"][0]["rows"]
        assert row["numeric"] == pytest.approx(checked["checks"][0]["analytic"], rel=1e-5)
    wengert = WENGERT.read_text(encoding="utf-8")
    checked = gradcheck_source(wengert, h=[1e-6], leaves=["x"])
    (row,) = checked["checks"][0]["rows"]
    assert row["numeric"] == pytest.approx(checked["checks"][0]["analytic"], rel=1e-5)
