"""Operands kept as a dict's keys (`self._prev = {c: 1 for c in kids}`, a dict of child
→ local derivative, `{self: other.data, other: self.data}`): the keys are the node's
operands, as a list's, tuple's or set's items are, so the graph has its edges and Check
your engine judges its rules (it had no edges and blamed nothing)."""

from __future__ import annotations

import pytest

from backprop_animator.engine import Limits, enginecheck_source, trace_source
from backprop_animator.engine.errors import EngineError
from tests.engine.cpython import (
    assert_leaves_among,
    assert_same_output,
    leaves_of,
    printed_lines,
    run_in_cpython_with_passes,
)

# micrograd with its operands a dict whose values say nothing (`{c: 1}`).
KEYS = """
class V:
    def __init__(self, data, kids=(), op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = {c: 1 for c in kids}
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

    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

a = V(2.0); b = V(-3.0); c = V(10.0)
e = a * b
L = e + c * a
L.backward()
print(a.grad, b.grad, c.grad)
"""

# Each node keeps its children with their local derivatives, and backward() adds the
# shares itself: no rule of the node's own.
LOCALS = """
class V:
    def __init__(self, data, children=None):
        self.data = data
        self.grad = 0.0
        self._children = children or {}

    def __add__(self, other):
        return V(self.data + other.data, {self: 1.0, other: 1.0})

    def __mul__(self, other):
        return V(self.data * other.data, {self: other.data, other: self.data})

    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._children:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            for child, local in v._children.items():
                child.grad += local * v.grad

a = V(2.0); b = V(-3.0); c = V(10.0)
e = a * b
L = e + c * a
L.backward()
print(a.grad, b.grad, c.grad)
"""

# A wrong `*` in each: the other operand's factor is its own data.
WRONG_KEYS = KEYS.replace(
    "other.grad += self.data * out.grad", "other.grad += other.data * out.grad"
)
WRONG_LOCALS = LOCALS.replace(
    "{self: other.data, other: self.data}", "{self: other.data, other: other.data}"
)


def verdicts(check: dict) -> dict[str, str]:
    return {row["op"]: row["verdict"] for row in check["rules"]}


@pytest.mark.parametrize("source", [KEYS, LOCALS, WRONG_KEYS, WRONG_LOCALS])
def test_dict_operands_are_edges_and_the_gradients_cpythons(source: str) -> None:
    trace = trace_source(source)
    lines, _, outputs = run_in_cpython_with_passes(source)
    assert_same_output(printed_lines(trace), lines)
    ids = {node["label"]: node["id"] for node in trace["nodes"]}
    edges = {(edge["source"], edge["target"]) for edge in trace["edges"]}
    assert {(ids["a"], ids["e"]), (ids["b"], ids["e"]), (ids["e"], ids["L"])} <= edges
    leaves = [(n["data"], n["grad"]) for n in trace["nodes"] if n["kind"] == "leaf"]
    assert_leaves_among(leaves, leaves_of(outputs))


@pytest.mark.parametrize("source", [KEYS, LOCALS])
def test_a_right_engine_with_dict_operands_is_judged_right(source: str) -> None:
    check = enginecheck_source(source)
    assert verdicts(check) == {"*": "right", "+": "right"}
    assert check["sort"]["verdict"] == "right"
    assert check["accumulation"]["verdict"] == "right"
    trace = trace_source(source)
    assert all(node["grad"] == pytest.approx(node["correct_grad"]) for node in trace["nodes"])


@pytest.mark.parametrize("source", [WRONG_KEYS, WRONG_LOCALS])
def test_a_wrong_rule_of_an_engine_with_dict_operands_is_named(source: str) -> None:
    check = enginecheck_source(source)
    assert verdicts(check) == {"*": "wrong", "+": "right"}
    trace = trace_source(source)
    by_label = {node["label"]: node for node in trace["nodes"]}
    (first,) = [row["first"] for row in check["rules"] if row["op"] == "*"]
    # c * a's rule, run first, gave a its own data (2) where c's (10) is right.
    assert (first["child"], first["learner"], first["correct"]) == (by_label["a"]["id"], 2, 10)
    assert by_label["b"]["grad"] != pytest.approx(by_label["b"]["correct_grad"])


def test_a_dict_that_merges_a_repeated_operand_loses_a_share_and_is_named() -> None:
    # `a * a` keeps one key: the share of the second operand is lost, in CPython too.
    source = LOCALS.replace("L = e + c * a", "L = e + a * a")
    trace = trace_source(source)
    lines, _, outputs = run_in_cpython_with_passes(source)
    assert_same_output(printed_lines(trace), lines)
    leaves = [(n["data"], n["grad"]) for n in trace["nodes"] if n["kind"] == "leaf"]
    assert_leaves_among(leaves, leaves_of(outputs))
    assert verdicts(enginecheck_source(source))["*"] == "wrong"


def test_a_loop_over_the_dicts_items_that_forgets_the_upstream_gradient_is_named() -> None:
    # `for child, local in v._children.items(): child.grad += local` (no `* v.grad`): the
    # loop walks v's operands, so its writes are v's rule (it was a backward() that
    # writes every gradient itself, every row unchecked).
    source = LOCALS.replace("child.grad += local * v.grad", "child.grad += local")
    source = source.replace("L = e + c * a", "L = (e + c * a) * c")
    trace = trace_source(source)
    lines, _, _ = run_in_cpython_with_passes(source)
    assert_same_output(printed_lines(trace), lines)
    check = enginecheck_source(source)
    assert verdicts(check) == {"*": "right", "+": "wrong"}
    (first,) = [row["first"] for row in check["rules"] if row["op"] == "+"]
    assert (first["learner"], first["correct"]) == (0.1, 1.0)  # 1 where 1 × 10 is right


def test_dict_operands_are_bounded_and_a_node_its_own_key_is_no_hang() -> None:
    # A node made its own operand (`L._prev[L] = 1`): a cycle the sort's `seen` cuts in
    # CPython; here too, with CPython's gradients and a check that answers.
    looped = KEYS.replace("L.backward()", "L._prev[L] = 1\nL.backward()")
    trace = trace_source(looped)
    lines, _, _ = run_in_cpython_with_passes(looped)
    assert_same_output(printed_lines(trace), lines)
    assert enginecheck_source(looped)["sort"]["verdict"] in ("right", "wrong")
    # A dict of 300,000 keys as a node's operands: read within the step bound.
    huge = KEYS.replace(
        "a = V(2.0);", "big = V(1.0)\nbig._prev = {i: 1 for i in range(300000)}\na = V(2.0);"
    )
    with pytest.raises(EngineError, match="too many steps"):
        trace_source(huge, limits=Limits(max_steps=100_000))
