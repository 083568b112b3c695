"""The bug lab (SPEC §8): each mistaken engine, its article case, and a reference for each.

The references below are small engines of their own, written from the SPEC's table
over a trace's graph (nodes, edges in operand order, data): they share no code with
`engine.lab.mistakes`. Random programs come from test_properties.py.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backprop_animator.app.schemas import Trace
from backprop_animator.engine import MISTAKES, EngineError, trace_source
from tests.engine.helpers import (
    HYPOTHESIS,
    NEURON,
    contributions_to,
    leaf_grads,
    node_labelled,
    nodes_by_id,
)
from tests.engine.test_properties import Program, programs, traced

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()\n"


# --- The reference engines -------------------------------------------------------


class Graph:
    """A trace's graph as plain data: children in operand order and local derivatives."""

    def __init__(self, trace: dict[str, Any]) -> None:
        self.nodes = nodes_by_id(trace)
        self.output = trace["output"]
        self.children: dict[str, list[str]] = {node_id: [] for node_id in self.nodes}
        for edge in trace["edges"]:
            self.children[edge["target"]].append(edge["source"])

    def locals_of(self, node_id: str) -> list[float]:
        """d node / d child for each operand, from the data alone."""
        node = self.nodes[node_id]
        op, out = node["op"], node["data"]
        xs = [self.nodes[child]["data"] for child in self.children[node_id]]
        if op == "+":
            return [1.0, 1.0]
        if op == "*":
            return [xs[1], xs[0]]
        if op.startswith("**"):
            k = float(op[2:])
            return [k * xs[0] ** (k - 1)]
        derivative: dict[str, Callable[[float], float]] = {
            "tanh": lambda x: 1 - out**2,
            "exp": lambda x: out,
            "relu": lambda x: 1.0 if x > 0 else 0.0,
            "log": lambda x: 1 / x,
            "sigmoid": lambda x: out * (1 - out),
        }
        return [derivative[op](xs[0])] if op else []

    def recursive_topo(self, *, append_first: bool) -> list[str]:
        topo: list[str] = []
        visited: set[str] = set()

        def build(v: str) -> None:
            if v in visited:
                return
            visited.add(v)
            if append_first:
                topo.append(v)
            for child in self.children[v]:
                build(child)
            if not append_first:
                topo.append(v)

        build(self.output)
        return topo

    def run(self, order: list[str], *, assign: bool) -> tuple[dict[str, float], list[str]]:
        grads = dict.fromkeys(self.nodes, 0.0)
        grads[self.output] = 1.0
        for v in order:
            for child, local in zip(self.children[v], self.locals_of(v), strict=True):
                if assign:
                    grads[child] = local * grads[v]
                else:
                    grads[child] += local * grads[v]
        return grads, order


def reference(trace: dict[str, Any], mistake: str | None) -> tuple[dict[str, float], list[str]]:
    """(final grads, the order the rules ran) of the engine with `mistake`, from scratch."""
    graph = Graph(trace)
    if mistake in (None, "assign"):
        return graph.run(graph.recursive_topo(append_first=False)[::-1], assign=mistake == "assign")
    if mistake == "append-first":
        return graph.run(graph.recursive_topo(append_first=True)[::-1], assign=False)
    walked: list[str] = []

    def walk(v: str) -> None:  # no sort: each rule when the walk first gets there
        if v in walked:
            return
        walked.append(v)
        for child in graph.children[v]:
            walk(child)

    walk(graph.output)
    return graph.run(walked, assign=False)


def backward_nodes(trace: dict[str, Any]) -> list[str]:
    return [frame["node"] for frame in trace["frames"] if frame["phase"] == "backward"]


# --- The article's cases ---------------------------------------------------------


def test_a_plus_a_with_assign_gives_one_where_the_right_engine_gives_two() -> None:
    trace = trace_source(A_PLUS_A, mistake="assign")

    a = node_labelled(trace, "a")
    assert (a["grad"], a["correct_grad"]) == (1.0, 2.0)
    writes = contributions_to(trace, a["id"])
    assert [(c["before"], c["after"]) for c in writes] == [(0.0, 1.0), (1.0, 1.0)]


def test_a_plus_a_with_assign_says_the_second_write_overwrote_the_first() -> None:
    trace = trace_source(A_PLUS_A, mistake="assign")

    text = next(f["text"] for f in trace["frames"] if f["phase"] == "backward")
    assert "a.grad = 1 × 1 → 1" in text
    assert "2nd write overwrote the 1 already there" in text
    assert "+= would have made it 2" in text


def test_the_neuron_with_append_first_leaves_every_leaf_gradient_at_zero() -> None:
    trace = trace_source(NEURON, mistake="append-first")

    assert leaf_grads(trace) == dict.fromkeys(["x1", "x2", "w1", "w2", "b"], 0.0)
    right = {node["label"]: node["correct_grad"] for node in trace["nodes"]}
    assert (right["x1"], right["w1"], right["x2"], right["w2"], right["b"]) == pytest.approx(
        (-1.5, 1.0, 0.5, 0.0, 0.5)
    )


def test_append_first_puts_every_parent_before_its_children_in_topo() -> None:
    trace = trace_source(NEURON, mistake="append-first")

    position = {node_id: i for i, node_id in enumerate(trace["topo"])}
    for edge in trace["edges"]:
        assert position[edge["target"]] < position[edge["source"]]
    assert trace["topo"][0] == trace["output"]
    assert backward_nodes(trace) == trace["topo"][::-1]


def test_the_expanded_neuron_without_sort_passes_on_0_1464_at_e_before_minus_0_1036_arrives() -> (
    None
):
    trace = trace_source(NEURON, "expanded", mistake="no-sort")
    e = node_labelled(trace, "e")
    order = backward_nodes(trace)
    frames = [frame for frame in trace["frames"] if frame["phase"] == "backward"]

    e_frame = frames[order.index(e["id"])]
    assert e_frame["contributions"][0]["upstream"] == pytest.approx(0.1464, abs=5e-5)
    arrivals = [
        (order.index(frame["node"]), c["delta"])
        for frame in frames
        for c in frame["contributions"]
        if c["to"] == e["id"]
    ]
    assert [delta for _, delta in arrivals] == pytest.approx([0.1464, -0.1036], abs=5e-5)
    late_index = arrivals[1][0]
    assert late_index > order.index(e["id"]), "the −0.1036 comes after e's rule ran"
    assert "−0.1036 from den has not arrived yet" in e_frame["text"]
    assert "too late" in frames[late_index]["text"]
    assert e["grad"] == pytest.approx(e["correct_grad"]) == pytest.approx(0.0429, abs=5e-5)


def test_no_sort_is_right_on_a_tree() -> None:
    trace = trace_source(NEURON, mistake="no-sort")

    for node in trace["nodes"]:
        assert node["grad"] == pytest.approx(node["correct_grad"])


def test_no_sort_reports_the_order_its_rules_ran_as_topo_and_says_no_sort_happened() -> None:
    trace = trace_source(NEURON, "expanded", mistake="no-sort")

    assert backward_nodes(trace) == trace["topo"]
    assert trace["topo"][0] == trace["output"]
    sort_frames = [frame for frame in trace["frames"] if frame["phase"] == "sort"]
    assert len(sort_frames) == 1
    assert sort_frames[0]["text"].startswith("No sort happened")


# --- The shape of a mistaken trace -----------------------------------------------


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_mistaken_trace_echoes_its_mistake_and_gives_every_node_a_correct_grad(
    mistake: str,
) -> None:
    trace = trace_source(NEURON, "expanded", mistake=mistake)
    right = trace_source(NEURON, "expanded")

    assert trace["mistake"] == mistake
    assert [node["correct_grad"] for node in trace["nodes"]] == [
        node["grad"] for node in right["nodes"]
    ]
    assert len(trace["frames"]) == len(right["frames"])
    Trace.model_validate(trace)
    json.dumps(trace, allow_nan=False)


def test_the_right_engine_has_neither_mistake_nor_correct_grad() -> None:
    trace = trace_source(NEURON)

    assert "mistake" not in trace
    assert all("correct_grad" not in node for node in trace["nodes"])


def test_an_unknown_mistake_is_refused_by_name() -> None:
    with pytest.raises(EngineError, match=r"mistake must be one of 'assign'.*not 'typo'"):
        trace_source(NEURON, mistake="typo")


def test_a_mistaken_trace_refuses_a_rule_that_cannot_be_computed_with_its_line() -> None:
    # The right engine's pass (for correct_grad) meets the same pole: x**0.5 at 0.
    with pytest.raises(EngineError, match="local derivative") as caught:
        trace_source("x = 0.0\ny = x ** 0.5\n", mistake="assign")
    assert caught.value.line == 2


# --- Each mistake against its reference, on random programs --------------------


@settings(HYPOTHESIS, max_examples=60)
@given(programs(), st.sampled_from(["packed", "expanded"]), st.sampled_from(MISTAKES))
def test_every_mistake_computes_what_its_reference_computes(
    program: Program, granularity: str, mistake: str
) -> None:
    right = traced(program, granularity)
    try:
        trace = trace_source(program.source(), granularity, mistake=mistake)
    except EngineError:
        return  # a mistaken pass may overflow where the right one does not
    grads, order = reference(right, mistake)

    assert backward_nodes(trace) == order
    for node in trace["nodes"]:
        assert node["grad"] == pytest.approx(grads[node["id"]], rel=1e-9, abs=1e-12)
    assert [n["correct_grad"] for n in trace["nodes"]] == [n["grad"] for n in right["nodes"]]


@settings(HYPOTHESIS, max_examples=40)
@given(programs())
def test_with_assign_every_write_leaves_the_child_at_its_delta(program: Program) -> None:
    traced(program)
    try:
        trace = trace_source(program.source(), mistake="assign")
    except EngineError:
        return  # a mistaken pass may overflow where the right one does not

    for frame in trace["frames"]:
        for c in frame.get("contributions", []):
            assert c["after"] == c["delta"] == c["local"] * c["upstream"]
            assert math.isfinite(c["before"])
