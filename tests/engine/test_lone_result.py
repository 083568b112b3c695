"""A program that calls no backward() and whose last statement makes a node alone (`d =
V(5.0)`, a gradient kept as a node, `a.grad = V(3.0)`): its pass is on the graph it
built last (the newest node with operands), not on that lone node, and the sort frame
says so; CPython's output is the same either way."""

from __future__ import annotations

import pytest

from backprop_animator.engine import trace_columns, trace_source
from tests.engine.cpython import printed_lines, run_in_cpython

OWN = """
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

a = V(2.0); b = V(-3.0); c = V(10.0)
e = a * b
L = e + c
print(L.data)
"""
ENGINE = """from micrograd.engine import Value
a = Value(2.0); b = Value(-3.0); c = Value(10.0)
e = a * b
L = e + c
print(L.data)
"""


def ids(trace: dict) -> dict[str, str]:
    return {node["label"] or node["name"]: node["id"] for node in trace["nodes"]}


def sort_text(trace: dict) -> str:
    return next(f["text"] for f in trace["frames"] if f["phase"] == "sort")


@pytest.mark.parametrize(
    ("last", "said"), [("d = V(5.0)\n", "d"), ("a.grad = V(3.0)\n", "a node of 3")]
)
def test_a_lone_node_last_of_a_program_of_its_own_class_is_not_the_output(
    last: str, said: str
) -> None:
    # The pass was on the lone node: a graph of one node, the program's graph not shown.
    source = OWN + last
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source) == ["4.0"]
    assert trace["output"] == ids(trace)["L"]
    assert {"a", "b", "c", "e", "L"} <= set(ids(trace))
    text = sort_text(trace)
    assert text.startswith(
        "No backward() here, nor a node's rule: the program builds the graph up to L"
    )
    assert f"Its last statement makes {said} alone" in text
    assert "the pass is on L, the node with operands it made last" in text


def test_a_lone_value_last_of_a_program_of_the_engines_values_is_not_the_output() -> None:
    # The engine's pass was on the lone d; now on L, as L.backward() would run it.
    source = ENGINE + "d = Value(5.0)\n"
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source) == ["4.0"]
    assert trace["output"] == ids(trace)["L"]
    passed = trace_source(ENGINE + "L.backward()\n")
    grads = {n["label"]: n["grad"] for n in trace["nodes"]}
    assert grads == {n["label"]: n["grad"] for n in passed["nodes"]}
    text = sort_text(trace)
    assert text.startswith(sort_text(passed))
    assert text.endswith(
        "Its last statement makes d alone, a node with no operands that no node uses: "
        "the pass is on L, the node with operands it made last."
    )
    # The page's encoding says it too (its sort sentence is no longer the page's own).
    columns = trace_columns(source)
    assert "Its last statement makes d alone" in str(columns["frames"])


@pytest.mark.parametrize(
    "source",
    [
        OWN.split("a = V(2.0)")[0] + "d = V(5.0)\n",  # nothing else made: d is the graph
        ENGINE.split("e = a * b")[0] + "d = Value(5.0)\n",
        ENGINE + "a\n",  # a leaf the graph uses: the program's result, as before
    ],
)
def test_a_node_alone_with_no_graph_beside_it_or_used_by_one_stays_the_output(source: str) -> None:
    trace = trace_source(source)
    assert "alone" not in sort_text(trace)
    last = source.strip().splitlines()[-1].split(" = ")[0]
    assert trace["output"] == ids(trace)[last]
