"""Underflow is kept but marked (engine.trace.underflow): the article's expanded tanh of a
large input, where den**-2 becomes 0 and x.grad comes out 2 instead of 0."""

from __future__ import annotations

import json

import pytest

from backprop_animator.engine import trace_source
from backprop_animator.engine.examples import NEURON
from backprop_animator.engine.trace.underflow import tiny
from tests.engine.helpers import assert_trace_invariants, node_labelled
from tests.support.programs import OWN_VALUE_PROGRAM


def large_tanh(x: float) -> str:
    return f"x = Value({x})\no = tanh(x)\no.backward()"


@pytest.mark.parametrize("x", [190.0, 250.0, 350.0])
def test_expanded_tanh_of_a_large_input_keeps_the_float_numbers_and_marks_the_underflow(
    x: float,
) -> None:
    expanded = trace_source(large_tanh(x), "expanded")
    packed = trace_source(large_tanh(x), "packed")

    assert node_labelled(expanded, "x")["grad"] == pytest.approx(2.0)
    assert node_labelled(packed, "x")["grad"] == 0.0
    marked = [node for node in expanded["nodes"] if node.get("underflow")]
    assert [node["op"] for node in marked] == ["**-1"]
    frame = next(
        f for f in expanded["frames"] if f["phase"] == "backward" and f["node"] == marked[0]["id"]
    )
    assert "Underflow" in frame["text"] and "den" in frame["text"]
    lost = [c for c in frame["contributions"] if c.get("underflow")]
    assert [c["to"] for c in lost] == [node_labelled(expanded, "den")["id"]]
    assert_trace_invariants(expanded)


@pytest.mark.parametrize("granularity", ["packed", "expanded"])
def test_traces_without_underflow_have_no_underflow_fields(granularity: str) -> None:
    text = json.dumps(trace_source(NEURON, granularity))
    assert "underflow" not in text and "Underflow" not in text


def test_a_product_that_underflows_marks_its_node() -> None:
    trace = trace_source("a = Value(1e-200)\nb = Value(1e-200)\nc = a * b")
    assert node_labelled(trace, "c").get("underflow") is True


@pytest.mark.parametrize(
    "source",
    ["a = Value(0.0)\nb = Value(5.0)\nc = a * b", "a = Value(1e-200)\nc = a**0"],
    ids=["true-zero-product", "zeroth-power"],
)
def test_a_result_that_is_really_zero_is_not_an_underflow(source: str) -> None:
    assert "underflow" not in json.dumps(trace_source(source))


def test_tiny_means_zero_or_subnormal() -> None:
    assert (tiny(0.0), tiny(-1e-320), tiny(1e-300), tiny(2.0)) == (True, True, False, False)


def test_a_real_program_marks_underflow_as_a_straight_line_one_does() -> None:
    # The same product made in a loop: one recorder marks both (it used to mark only the
    # straight-line trace).
    straight = trace_source("a = Value(1e-200)\nb = Value(1e-200)\nc = a * b\nc.backward()")
    real = trace_source(
        "a = Value(1e-200)\nb = Value(1e-200)\nfor _ in range(1):\n    c = a * b\nc.backward()"
    )
    for trace in (straight, real):
        marked = [node["op"] for node in trace["nodes"] if node.get("underflow")]
        assert marked == ["*"]
    assert real["schema"] == 1 and "group" in real["nodes"][0]


def test_a_leaf_gradient_lost_to_underflow_in_a_loop_is_marked_on_its_contribution() -> None:
    trace = trace_source(
        "x = Value(350.0, label='x')\nfor _ in range(1):\n    o = x.tanh()\no.backward()",
        "expanded",
    )
    lost = [
        c
        for f in trace["frames"]
        if f["phase"] == "backward"
        for c in f["contributions"]
        if c.get("underflow")
    ]
    assert lost and all(f.get("pass") == 0 for f in trace["frames"])
    assert any("Underflow" in f["text"] for f in trace["frames"] if f["phase"] == "backward")


def test_a_learners_own_class_is_not_marked_for_underflow() -> None:
    # Its rules are its own (docs/TRACE.md): a half-marked rule (the node and its text but
    # not the contribution) would say the built-in engine's words about the learner's code.
    source = OWN_VALUE_PROGRAM.replace("OP)", "'*')", 1).replace(
        "a = V(2.0)\nb = V(3.0)\nc = a * b\nc.backward()",
        "a = V(1e-200)\nb = V(1e-200)\nc = a * b\nd = c * a\nd.backward()",
    )
    trace = trace_source(source)
    assert len(trace["nodes"]) == 4
    text = json.dumps(trace)
    assert "underflow" not in text and "Underflow" not in text
