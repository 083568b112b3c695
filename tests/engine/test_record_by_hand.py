"""DeZero's steps 6 and 7 before the recursion ("Deep Learning from Scratch 3"): each
`Variable` keeps the `Function` that made it (`creator`), and the program walks the graph
itself, either through a backward() of each node that runs one step (`y.backward();
b.backward(); a.backward()`) or writing `b.grad = C.backward(y.grad)` out node by node.
Either is one walk by hand, drawn as the calls the program made, and checked as one pass."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, Limits, enginecheck_source, trace_source
from backprop_animator.engine.lab.gradcheck import gradcheck_source
from tests.engine.cpython import (
    assert_same_output,
    printed_lines,
    run_in_cpython,
    run_in_cpython_with_passes,
)

CLASSES = """
import math

class Variable:
    def __init__(self, data):
        self.data = data
        self.grad = None
        self.creator = None

    def set_creator(self, func):
        self.creator = func

    def backward(self):
        f = self.creator
        if f is not None:
            x = f.input
            x.grad = f.backward(self.grad)

class Function:
    def __call__(self, input):
        output = Variable(self.forward(input.data))
        output.set_creator(self)
        self.input = input
        self.output = output
        return output

class Square(Function):
    def forward(self, x):
        return x ** 2

    def backward(self, gy):
        return 2 * self.input.data * gy

class Exp(Function):
    def forward(self, x):
        return math.exp(x)

    def backward(self, gy):
        return math.exp(self.input.data) * gy

A = Square()
B = Exp()
C = Square()
x = Variable(0.5)
a = A(x)
b = B(a)
y = C(b)
y.grad = 1.0
"""
STEPS = "y.backward()\nb.backward()\na.backward()\nprint(x.grad)\n"
WRITTEN_OUT = (
    "b.grad = C.backward(y.grad)\na.grad = B.backward(b.grad)\nx.grad = A.backward(a.grad)\n"
    "print(x.grad)\n"
)


def _ids(trace: dict) -> dict[str, str]:
    return {node["label"] or node["name"]: node["id"] for node in trace["nodes"]}


@pytest.mark.parametrize("walk", [STEPS, WRITTEN_OUT], ids=["steps", "written_out"])
def test_a_walk_through_the_creators_by_hand_is_one_pass_as_cpython_runs_it(walk: str) -> None:
    source = CLASSES + walk
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    ids = _ids(trace)
    assert len(trace["passes"]) == 1
    assert trace["topo"] == [ids["a"], ids["b"], ids["y"]]
    backward = [f for f in trace["frames"] if f["phase"] == "backward"]
    assert [f["node"] for f in backward] == [ids["y"], ids["b"], ids["a"]]
    assert [c["to"] for f in backward for c in f["contributions"]] == [
        ids["b"], ids["a"], ids["x"]
    ]  # fmt: skip
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert "the Square that made y" in sort["text"]
    by_id = {node["id"]: node for node in trace["nodes"]}
    x = by_id[ids["x"]]
    assert x["correct_grad"] == pytest.approx(x["grad"], rel=1e-6)
    checked = enginecheck_source(source)
    assert checked["sort"]["verdict"] == "right"
    assert [row["verdict"] for row in checked["rules"]] == ["right", "right"]
    # The rules' lines are the records' backward(), as in the recursive step 7.
    lines = source.splitlines()
    assert all("def backward(self, gy)" in lines[row["line"] - 1] for row in checked["rules"])


def test_the_gradient_check_moves_x_of_a_walk_by_steps() -> None:
    checked = gradcheck_source(CLASSES + STEPS, h=[1e-6])
    (row,) = checked["checks"][0]["rows"]
    assert row["numeric"] == pytest.approx(checked["checks"][0]["analytic"], rel=1e-4)


def test_one_step_called_once_stays_a_pass_that_never_runs_the_other_rules() -> None:
    # Only y's rule runs: no walk by hand follows, so the pass's sort is the one judged.
    source = CLASSES + "y.backward()\nprint(x.grad, b.grad)\n"
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    assert enginecheck_source(source)["sort"]["verdict"] == "wrong"


def test_steps_run_again_and_again_are_a_walk_each_and_a_bounded_run() -> None:
    loop = "for _ in range(30):\n    y.backward()\n    b.backward()\n    a.backward()\n"
    trace = trace_source(CLASSES + loop)
    assert len(trace["passes"]) == 30  # y's rule again starts a new walk
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        trace_source(
            CLASSES + loop.replace("30", "10**6"), limits=Limits(max_steps=3_000, time_limit=30)
        )


# A class of micrograd's shape (no record of its op) whose backward() runs its own
# node's rule alone, a learner's that forgot the sort, called on the output and then on
# an operand: two backward() calls, two passes, as CPython counts them.
ONE_STEP_BACKWARD = """\
class Value:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def backward(self):
        self._backward()

a = Value(2.0); b = Value(-3.0); c = Value(10.0)
e = a * b
d = e + c
d.grad = 1.0
d.backward()
e.backward()
print(a.grad, b.grad, c.grad)
"""


def test_one_step_backwards_of_a_class_with_no_records_are_passes_as_cpython_counts() -> None:
    # DeZero's walk by steps (left18) took them in too: one walk by hand, its sort frame
    # "No backward() here: the program calls _backward() itself" of a program calling
    # backward() twice and _backward() never, and the learner's backward(), which never
    # runs e's rule, judged right.
    lines, numbers, _ = run_in_cpython_with_passes(ONE_STEP_BACKWARD)
    trace = trace_source(ONE_STEP_BACKWARD)
    assert printed_lines(trace) == lines
    assert [one["data"] for one in trace["passes"]] == numbers == [4.0, -6.0]
    sorts = [f["text"] for f in trace["frames"] if f["phase"] == "sort"]
    assert sorts[0].startswith("d.backward() never runs e's rule")
    assert trace["engine_check"]["sort"]["verdict"] == "wrong"
