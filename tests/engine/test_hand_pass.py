"""A program that calls its rules by hand and never `backward()` (a lecture's first
steps: seed the output, then `o._backward()`, `n._backward()`, … in an order worked out
on paper): each walk is a backward pass, its frames the calls as the program made them,
checked against the right engine like any pass of the learner's own class."""

from __future__ import annotations

import pytest

from backprop_animator.engine import enginecheck_source, trace_source
from backprop_animator.engine.lab.gradcheck import gradcheck_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

ENGINE = """
import math

class V:
    def __init__(self, data, kids=(), op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(kids)
        self._op = op

    def __add__(self, other):
        out = V(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = V(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = V(t, (self,), 'tanh')
        def _backward():
            self.grad += (1 - t * t) * out.grad
        out._backward = _backward
        return out

x = V(2.0); w = V(-3.0); b = V(6.5)
xw = x * w
n = xw + b
o = n.tanh()
o.grad = 1.0
"""
BY_HAND = "o._backward()\nn._backward()\nb._backward()\nxw._backward()\n"
PRINT = "print(x.grad, w.grad, b.grad)\n"


def backward_frames(trace: dict, index: int) -> list[dict]:
    return [f for f in trace["frames"] if f["phase"] == "backward" and f["pass"] == index]


def test_rules_called_by_hand_are_one_pass_in_the_order_called() -> None:
    source = ENGINE + BY_HAND + PRINT
    trace = trace_source(source)
    assert len(trace["passes"]) == 1
    ids = {node["label"] or node["name"]: node["id"] for node in trace["nodes"]}
    assert trace["output"] == ids["o"]
    # The pass's order is the program's: the node whose rule it called last comes first.
    assert trace["topo"] == [ids["xw"], ids["b"], ids["n"], ids["o"]]
    assert [f["node"] for f in backward_frames(trace, 0)] == [
        ids["o"], ids["n"], ids["b"], ids["xw"]
    ]  # fmt: skip
    # Each frame has the line of the call that ran it, where the page shows it.
    lines = source.splitlines()
    assert [lines[f["line"] - 1] for f in backward_frames(trace, 0)] == BY_HAND.splitlines()
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert sort["text"].startswith("No backward() here: the program calls _backward() itself")
    assert trace["engine_check"]["sort"]["verdict"] == "right"
    assert printed_lines(trace) == run_in_cpython(source)
    grads = {node["label"] or node["name"]: node["grad"] for node in trace["nodes"]}
    assert grads["w"] == pytest.approx(2.0 * (1 - trace["passes"][0]["data"] ** 2))


def test_a_hand_walk_in_a_wrong_order_gives_cpythons_wrong_gradients_and_a_wrong_sort() -> None:
    # xw's rule runs before n's has given it any gradient: x and w get nothing.
    source = ENGINE + "o._backward()\nxw._backward()\nn._backward()\n" + PRINT
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    assert trace["engine_check"]["sort"]["verdict"] == "wrong"
    assert enginecheck_source(source)["sort"]["verdict"] == "wrong"


def test_a_walk_started_again_is_a_second_pass() -> None:
    again = "for v in (x, w, b, xw, n, o):\n    v.grad = 0.0\no.grad = 1.0\n"
    source = ENGINE + BY_HAND + PRINT + again + BY_HAND + PRINT
    trace = trace_source(source)
    assert len(trace["passes"]) == 2
    assert len(backward_frames(trace, 0)) == len(backward_frames(trace, 1)) == 4
    # The zeroing and the new seed come after the first walk's last rule: the second pass's.
    updates = [f for f in trace["frames"] if f["phase"] == "update"]
    assert [f["pass"] for f in updates] == [0, 1, 1]
    assert printed_lines(trace) == run_in_cpython(source)
    assert trace["engine_check"]["sort"]["verdict"] == "right"


def test_a_loop_over_a_sort_written_at_the_top_level_is_a_pass() -> None:
    walk = """
order, seen = [], set()
def visit(v):
    if v not in seen:
        seen.add(v)
        for child in v._prev:
            visit(child)
        order.append(v)
visit(o)
for v in reversed(order):
    v._backward()
"""
    source = ENGINE + walk + PRINT
    trace = trace_source(source)
    assert len(trace["passes"]) == 1
    assert len(backward_frames(trace, 0)) == 6
    assert_same_output(printed_lines(trace), run_in_cpython(source))


def test_hand_calls_beside_a_backward_call_stay_updates() -> None:
    # A program that also calls backward() has its passes: the calls by hand before it
    # are updates, as before.
    source = ENGINE + BY_HAND + PRINT + "x.grad = 0.0\n"
    with_backward = (
        source.replace(
            "    def tanh(self):",
            "    def backward(self):\n        self.grad = 1.0\n        for v in (self, n, xw):\n"
            "            v._backward()\n\n    def tanh(self):",
        )
        + "o.backward()\n"
        + PRINT
    )
    trace = trace_source(with_backward)
    assert len(trace["passes"]) == 1
    assert len(backward_frames(trace, 0)) == 3
    assert all(f["phase"] != "backward" or f["pass"] == 0 for f in trace["frames"])
    assert printed_lines(trace) == run_in_cpython(with_backward)


def test_the_gradient_check_moves_a_leaf_of_a_hand_pass() -> None:
    checked = gradcheck_source(ENGINE + BY_HAND, h=[1e-6], leaves=["x"])
    (row,) = checked["checks"][0]["rows"]
    assert row["numeric"] == pytest.approx(checked["checks"][0]["analytic"], rel=1e-4)
    # The second walk of a program is pass 1, checked at its own start.
    # (A new graph from a moved x: the rules read x.data when they run.)
    twice = ENGINE + BY_HAND + "x.data += 1.0\nw.grad = 0.0\nxw = x * w\nn = xw + b\n"
    twice += "o = n.tanh()\no.grad = 1.0\n" + BY_HAND
    second = gradcheck_source(twice, h=[1e-6], leaves=["w"], pass_index=1)
    (row,) = second["checks"][0]["rows"]
    assert row["numeric"] == pytest.approx(second["checks"][0]["analytic"], rel=1e-4)
    first = gradcheck_source(twice, h=[1e-6], leaves=["w"], pass_index=0)
    assert first["checks"][0]["analytic"] != second["checks"][0]["analytic"]


# The chain rule by hand: no backward(), no rule called; the program writes each gradient.
CHAIN_BY_HAND = (
    "xw.grad = (1 - o.data**2) * o.grad\nn.grad = xw.grad\nb.grad = n.grad\n"
    "x.grad = w.data * xw.grad\nw.grad = x.data * xw.grad\n" + PRINT
)


def test_gradients_worked_out_by_hand_are_update_frames_of_a_pass_of_no_rule() -> None:
    # It was refused ("call .backward()") where CPython prints. Its graph is shown up to
    # the output, each hand-set gradient an update frame, no rule run, the gradients the
    # program's own, a right engine's beside them from the seed the program gave.
    source = ENGINE + CHAIN_BY_HAND
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    ids = {node["label"] or node["name"]: node["id"] for node in trace["nodes"]}
    assert len(trace["passes"]) == 1 and trace["output"] == ids["o"]
    assert trace["passes"][0]["topo"] == []
    assert not [f for f in trace["frames"] if f["phase"] == "backward"]
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert sort["text"].startswith("No backward() here, nor a node's rule")
    assert "works out the gradients itself" in sort["text"]
    updated = [c["node"] for f in trace["frames"] if f["phase"] == "update" for c in f["changes"]]
    assert updated == [ids[name] for name in ("o", "xw", "n", "b", "x", "w")]
    by_name = {node["label"]: node for node in trace["nodes"]}
    assert by_name["x"]["grad"] == pytest.approx(by_name["x"]["correct_grad"])
    assert by_name["w"]["grad"] == pytest.approx(by_name["w"]["correct_grad"])
    assert trace["engine_check"]["sort"]["verdict"] == "right"
    # The gradient check compares the program's own gradients with the difference quotient.
    (check,) = gradcheck_source(source, h=[1e-6], leaves=["w"])["checks"]
    assert check["rows"][0]["numeric"] == pytest.approx(check["analytic"], rel=1e-4)


def test_a_program_that_builds_a_graph_and_never_asks_for_gradients_is_shown() -> None:
    # No pass, no result but the graph: the forward pass, its last node the output; a
    # right engine given no seed gives no gradient either.
    source = ENGINE.replace("o.grad = 1.0\n", "") + "print(o.data)\n"
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert sort["text"].endswith("never asks for its gradients.")
    assert [f["phase"] for f in trace["frames"]].count("build") == 3
    assert {node["correct_grad"] for node in trace["nodes"]} == {0.0}
    rows = enginecheck_source(source)["rules"]
    assert {row["verdict"] for row in rows} == {"unchecked"}


def test_the_right_engine_starts_each_walk_where_the_program_left_the_gradients() -> None:
    # The zeroing and the new seed between two walks are the second walk's start.
    again = "for v in (x, w, b, xw, n, o):\n    v.grad = 0.0\no.grad = 1.0\n"
    trace = trace_source(ENGINE + BY_HAND + again + BY_HAND)
    assert all(node["grad"] == node["correct_grad"] for node in trace["nodes"])


def test_a_rule_called_twice_in_a_walk_is_the_sorts_wrong_not_a_new_pass() -> None:
    source = ENGINE + "o._backward()\nn._backward()\nn._backward()\nxw._backward()\n" + PRINT
    trace = trace_source(source)
    assert len(trace["passes"]) == 1
    assert printed_lines(trace) == run_in_cpython(source)
    assert trace["engine_check"]["sort"]["verdict"] == "wrong"


def test_the_walk_starts_from_the_gradient_the_program_gave_its_first_node() -> None:
    # No seed of 1 here: the sort frame says the output's gradient as it is (2).
    source = ENGINE.replace("o.grad = 1.0\n", "o.grad = 2.0\n") + BY_HAND + PRINT
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert [(c["before"], c["after"]) for c in sort["changes"]] == [(2.0, 2.0)]
    unseeded = ENGINE.replace("o.grad = 1.0\n", "") + BY_HAND + PRINT
    trace = trace_source(unseeded)
    assert trace["schema"] == 2  # the sort frame's change is kept in one pass too
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert [(c["before"], c["after"]) for c in sort["changes"]] == [(0.0, 0.0)]


def test_gradients_worked_out_by_hand_between_calls_stay_updates() -> None:
    source = ENGINE + "o._backward()\nn._backward()\nx.grad += w.data * xw.grad\n" + PRINT
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    updates = [f for f in trace["frames"] if f["phase"] == "update"]
    assert updates[-1]["line"] == source.splitlines().index("x.grad += w.data * xw.grad") + 1
    assert len(backward_frames(trace, 0)) == 2


def test_the_chain_rule_by_hand_on_the_engines_values_runs_no_rule_either() -> None:
    # micrograd's Value, the gradients written by hand, the last statement a write (no
    # Value result): it was refused ("the program's result is not a Value ... call
    # .backward()") where CPython prints. No engine pass is added to what it wrote.
    source = (
        "from micrograd.engine import Value\n"
        "a = Value(2.0); b = Value(-3.0); c = a * b\n"
        "c.grad = 1.0\na.grad = b.data * c.grad\nb.grad = a.data * c.grad\n"
        "print(a.grad, b.grad)\n"
    )
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source) == ["-3.0 2.0"]
    assert [f["phase"] for f in trace["frames"]] == ["build", *["update"] * 3, "sort"]
    assert {node["label"]: node["grad"] for node in trace["nodes"]} == {
        "a": -3.0, "b": 2.0, "c": 1.0
    }  # fmt: skip
    assert trace["passes"][0]["topo"] == []
    (check,) = gradcheck_source(source, h=[1e-6], leaves=["a"])["checks"]
    assert check["rows"][0]["numeric"] == pytest.approx(-3.0, rel=1e-6)


@pytest.mark.parametrize(
    "head", ["", "from micrograd.engine import Value\ndef f(x):\n    return x\n"]
)
def test_a_value_result_after_gradients_worked_out_by_hand_gets_no_engine_pass(head: str) -> None:
    # Its result `c` was given the engine's pass after the program's own writes: the
    # gradients shown doubled (-6, 4) where CPython leaves -3 and 2. Straight-line (no
    # import, no def) or not, the program's chain rule by hand is the pass, of no rule.
    source = head + (
        "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\n"
        "c.grad = 1.0\na.grad = b.data * c.grad\nb.grad = a.data * c.grad\nc\n"
    )
    trace = trace_source(source)
    assert {node["label"]: node["grad"] for node in trace["nodes"]} == {
        "a": -3.0, "b": 2.0, "c": 1.0
    }  # fmt: skip
    assert trace["passes"][0]["topo"] == []
    assert not [f for f in trace["frames"] if f["phase"] == "backward"]
    # A seed alone is no chain rule: the engine's pass, as ever.
    seeded = trace_source(head + "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\nc.grad = 1.0\nc\n")
    assert {node["label"]: node["grad"] for node in seeded["nodes"]}["a"] == -3.0
    assert len([f for f in seeded["frames"] if f["phase"] == "backward"]) == 3
    # Nor are gradients set to 0 (`x.grad = 0.0`, a reset before the result): the
    # engine's pass, not "works out the gradients itself" of a program that wrote none.
    for zeroed in ("a.grad = 0.0\n", "for v in (a, b, c):\n    v.grad = 0\n"):
        source = head + "a = Value(2.0)\nb = Value(-3.0)\nc = a * b\n" + zeroed + "c\n"
        trace = trace_source(source)
        assert {node["label"]: node["grad"] for node in trace["nodes"]}["a"] == -3.0
        assert len([f for f in trace["frames"] if f["phase"] == "backward"]) == 3
