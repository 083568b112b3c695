"""Graphs built with the real `micrograd` package (PyPI, 0.1.0) trace like our own.

micrograd names its ReLU op `ReLU`, keeps `_prev` as a set and writes its rules with
`+=`: the foreign-graph path (`engine.foreign`) has to take it as it is.
"""

from __future__ import annotations

import pytest
from micrograd.engine import Value as MicrogradValue
from micrograd.nn import MLP

from backprop_animator.app.notebook import animate
from backprop_animator.engine import trace_value
from tests.engine.helpers import assert_trace_invariants


def test_an_mlp_from_micrograd_animates_with_its_relu_narrated() -> None:
    model = MLP(2, [3, 1])
    output = model([MicrogradValue(1.0), MicrogradValue(-2.0)])

    animation = animate(output)

    relu_steps = [
        frame["text"]
        for frame in animation.trace["frames"]
        if frame["phase"] == "backward" and "(ReLU," in frame["text"]
    ]
    assert len(relu_steps) == 3
    assert all("local derivative 1 if x > 0, else 0" in text for text in relu_steps)
    assert_trace_invariants(animation.trace)


def test_micrograd_gradients_after_tracing_equal_micrograd_s_own_backward() -> None:
    a, b = MicrogradValue(2.0), MicrogradValue(-3.0)
    out = (a * b + a).relu() + (a**2) * b
    out.backward()
    expected = (a.grad, b.grad)
    a.grad = b.grad = 0.0

    trace = trace_value(out)

    assert (a.grad, b.grad) == pytest.approx(expected)
    assert [node["op"] for node in trace["nodes"] if node["kind"] == "op"].count("ReLU") == 1
    assert_trace_invariants(trace)


def test_a_relu_that_is_off_passes_no_gradient_in_the_narration_either() -> None:
    a, b = MicrogradValue(2.0), MicrogradValue(-3.0)
    trace = trace_value((a * b + a).relu())
    relu_step = next(f for f in trace["frames"] if f["phase"] == "backward")
    # `_prev` is a set, so the operands' order inside the name may vary between runs.
    assert relu_step["text"].startswith("ReLU(")
    assert "(ReLU, grad 1): local derivative 1 if x > 0, else 0." in relu_step["text"]
    assert relu_step["contributions"][0]["local"] == 0.0
    assert a.grad == 0.0 and b.grad == 0.0
