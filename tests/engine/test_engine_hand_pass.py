"""The engine's own `Value`s' rules called by hand (`o._backward()`, the micrograd
lecture's first half on micrograd's `Value`, or on the built-in one of a program with no
class of its own): a walk like that of a program's own class (tests/engine/test_hand_pass.py),
each call a frame, the gradients CPython's, checked against the right engine."""

from __future__ import annotations

import pytest

from backprop_animator.engine import Limits, enginecheck_source, trace_source
from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.lab.gradcheck import gradcheck_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

# The lecture's neuron, with micrograd's ops (its Value has no tanh: relu here).
GRAPH = """
x1 = Value(2.0); x2 = Value(0.0)
w1 = Value(-3.0); w2 = Value(1.0)
b = Value(6.8813735870195432)
x1w1 = x1*w1; x2w2 = x2*w2
x1w1x2w2 = x1w1 + x2w2
n = x1w1x2w2 + b
o = n.relu()
"""
WALK = """o.grad = 1.0
o._backward()
n._backward()
b._backward()
x1w1x2w2._backward()
x2w2._backward()
x1w1._backward()
"""
PRINT = "print(x1.grad, w1.grad, x2.grad, w2.grad, b.grad, n.grad)\n"
IMPORT = "from micrograd.engine import Value\n"


def backward_frames(trace: dict, index: int = 0) -> list[dict]:
    return [f for f in trace["frames"] if f["phase"] == "backward" and f["pass"] == index]


def grads(trace: dict) -> dict[str, float]:
    return {node["label"] or node["name"]: node["grad"] for node in trace["nodes"]}


@pytest.mark.parametrize("head", [IMPORT, "", "import math\n"])
def test_the_engines_rules_called_by_hand_are_a_pass_in_the_order_called(head: str) -> None:
    # It was refused ("a Value has no attribute '_backward' that programs can use")
    # where CPython runs it: micrograd's Value, or the built-in one.
    source = head + GRAPH + WALK + PRINT
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    assert len(trace["passes"]) == 1
    ids = {node["label"] or node["name"]: node["id"] for node in trace["nodes"]}
    assert trace["output"] == ids["o"]
    called = ["o", "n", "b", "x1w1x2w2", "x2w2", "x1w1"]
    assert [f["node"] for f in backward_frames(trace)] == [ids[name] for name in called]
    # Each frame has the line of the call that ran it.
    lines = source.splitlines()
    assert [lines[f["line"] - 1] for f in backward_frames(trace)] == WALK.splitlines()[1:]
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert sort["text"].startswith("No backward() here: the program calls _backward() itself")
    # The rules wrote what the engine's pass writes: the same gradients, right ones.
    passed = trace_source(head + GRAPH + "o.backward()\n" + PRINT)
    assert grads(trace) == grads(passed)
    assert all(node["correct_grad"] == node["grad"] for node in trace["nodes"])
    assert enginecheck_source(source)["sort"]["verdict"] == "right"
    # The frame says what the rule wrote, as the engine's pass says it.
    said = {f["node"]: f["text"] for f in backward_frames(passed)}
    walked = backward_frames(trace)
    assert [f["text"] for f in walked] == [said[f["node"]] for f in walked]


def test_a_hand_walk_in_a_wrong_order_is_cpythons_and_the_check_says_the_sort_is_wrong() -> None:
    # x1w1x2w2's rule runs before n's has given it a gradient: x1w1 and x2w2 get 0.
    walk = "o.grad = 1.0\no._backward()\nx1w1x2w2._backward()\nn._backward()\nx1w1._backward()\n"
    source = IMPORT + GRAPH + walk + PRINT
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    by_label = {node["label"]: node for node in trace["nodes"]}
    assert by_label["x1"]["grad"] == 0.0
    assert by_label["x1"]["correct_grad"] == -3.0  # the right engine's, beside
    check = trace["engine_check"]
    assert check["sort"]["verdict"] == "wrong"
    assert check["sort"]["first"]["node"] == by_label["x1w1x2w2"]["id"]
    assert check["sort"]["first"]["consumer"] == by_label["n"]["id"]


def test_a_rule_called_twice_is_cpythons_and_said_and_wrong() -> None:
    walk = "o.grad = 1.0\no._backward()\nn._backward()\nn._backward()\n"
    source = IMPORT + GRAPH + walk + PRINT
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    frames = backward_frames(trace)
    assert len(frames) == 3
    assert frames[2]["text"].endswith("This is the 2nd run of n's rule in this pass.")
    assert trace["engine_check"]["sort"]["verdict"] == "wrong"


def test_a_rule_read_and_called_later_or_kept_in_a_list_is_one_too() -> None:
    walk = (
        "o.grad = 1.0\nrule = o._backward\nrule()\n"
        "rules = [v._backward for v in (n, x1w1x2w2, x1w1, x2w2)]\n"
        "for r in rules:\n    r()\n"
        "print(o._backward is o._backward, o._backward == o._backward, callable(rule))\n"
    )
    source = IMPORT + GRAPH + walk + PRINT
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    assert len(backward_frames(trace)) == 5
    assert trace["engine_check"]["sort"]["verdict"] == "right"


def test_a_rule_printed_is_named_as_cpython_names_it() -> None:
    source = IMPORT + GRAPH + "print(o._backward)\nprint(x1._backward)\nprint(n._backward)\n"
    ours = printed_lines(trace_source(source))
    theirs = [line.rpartition(" at 0x")[0] + ">" for line in run_in_cpython(source)]
    assert ours == theirs


def test_calls_by_hand_beside_a_backward_call_stay_updates() -> None:
    # A program that calls backward() too has that pass: its hand calls write updates.
    zero = "for v in (x1, w1, x2, w2, b, x1w1, x2w2, x1w1x2w2, n):\n    v.grad = 0\n"
    source = IMPORT + GRAPH + WALK + PRINT + zero + "o.backward()\nn._backward()\n" + PRINT
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    assert len(trace["passes"]) == 1
    updates = [f for f in trace["frames"] if f["phase"] == "update"]
    # n's rule after the pass wrote into its two operands: an update of both.
    assert updates[-1]["line"] == len(source.splitlines()) - 1
    assert len(updates[-1]["changes"]) == 2
    assert grads(trace)["b"] == 2.0


def test_the_gradient_check_moves_a_leaf_of_an_engine_hand_walk() -> None:
    checked = gradcheck_source(IMPORT + GRAPH + WALK, h=[1e-6], leaves=["w1"])
    (row,) = checked["checks"][0]["rows"]
    assert row["numeric"] == pytest.approx(checked["checks"][0]["analytic"], rel=1e-4)
    assert checked["checks"][0]["analytic"] == pytest.approx(2.0)


def test_a_rule_takes_no_arguments_as_cpythons_closure() -> None:
    source = IMPORT + GRAPH + "try:\n    o._backward(1)\nexcept TypeError as e:\n    print(e)\n"
    assert printed_lines(trace_source(source + "o\n")) == run_in_cpython(source)


def test_a_hand_walk_is_bounded() -> None:
    # An endless walk: the step bound ends it, with a sentence, no host error.
    endless = IMPORT + GRAPH + "o.grad = 1.0\nwhile True:\n    o._backward()\n"
    with pytest.raises(EngineError) as raised:
        trace_source(endless, limits=Limits(max_steps=20_000))
    assert "steps" in str(raised.value)
    # A gradient past the float range: refused, as an engine pass's is.
    huge = IMPORT + "a = Value(1e300)\nc = a * a\nc.grad = 1e300\nc._backward()\n"
    with pytest.raises(EngineError) as raised:
        trace_source(huge)
    assert "not a finite number" in str(raised.value)


def test_the_bug_labs_mistake_is_refused_for_a_walk_by_hand() -> None:
    with pytest.raises(EngineError) as raised:
        trace_source(IMPORT + GRAPH + WALK, mistake="assign")
    assert "_backward()" in str(raised.value)


def test_a_function_built_from_primitives_runs_its_whole_rule_by_hand() -> None:
    # `expanded` builds tanh from primitives: `o._backward()` ran only the last of them,
    # so n got nothing and x1.grad was 0 where CPython's one tanh rule gives -1.5.
    source = GRAPH.replace("n.relu()", "n.tanh()") + WALK + PRINT
    packed = trace_source(source)
    expanded = trace_source(source, granularity="expanded")
    assert_same_output(printed_lines(expanded), printed_lines(packed))
    assert printed_lines(packed)[0].startswith("-1.49999")
    assert expanded["engine_check"]["sort"]["verdict"] == "right"
    # Each primitive's rule is a frame of the one call, at its line.
    lines = source.splitlines()
    called = {
        lines[f["line"] - 1] for f in backward_frames(expanded) if f["node"] != expanded["output"]
    }
    assert "o._backward()" in called
