"""`engine.examples`: every example traces, and its numbers are the ones worked by hand."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from backprop_animator.engine import trace_source
from backprop_animator.engine.examples import EXAMPLES, Example
from tests.engine.helpers import leaf_grads, output_node


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def check_neuron(trace: dict[str, Any]) -> None:
    assert leaf_grads(trace) == pytest.approx(
        {"x1": -1.5, "x2": 0.5, "w1": 1.0, "w2": 0.0, "b": 0.5}, abs=1e-12
    )
    assert output_node(trace)["data"] == pytest.approx(math.sqrt(0.5), rel=1e-12)


def check_train_step(trace: dict[str, Any]) -> None:
    # loss = (2w - 3)**2, dloss/dw = 4(2w - 3); w moves by -0.05 * grad each step.
    w, losses = 0.5, []
    for _ in range(4):
        losses.append((2 * w - 3) ** 2)
        w -= 0.05 * 4 * (2 * w - 3)
    assert [p["data"] for p in trace["passes"]] == pytest.approx(losses, rel=1e-12)
    assert trace["nodes"][0]["label"] == "w"
    assert trace["nodes"][0]["data"] == pytest.approx(w, rel=1e-12)


def check_a_plus_a(trace: dict[str, Any]) -> None:
    assert leaf_grads(trace) == {"a": 2.0}
    assert output_node(trace)["data"] == 6.0


def check_micrograd_style(trace: dict[str, Any]) -> None:
    a, w, c = 1.5, -0.5, 0.25
    y = math.tanh(a * w + c)
    dz = 1 - y**2
    assert leaf_grads(trace) == pytest.approx({"a": w * dz, "w": a * dz, "c": dz}, rel=1e-12)
    assert output_node(trace)["label"] == "y"


def check_fork(trace: dict[str, Any]) -> None:
    x = 3.0
    assert leaf_grads(trace) == {"x": 2 * x + 1}
    assert output_node(trace)["data"] == x * x + x


def check_relu(trace: dict[str, Any]) -> None:
    # w*x + b = -1.5 < 0: relu is off, so nothing flows back.
    assert output_node(trace)["data"] == 0.0
    assert leaf_grads(trace) == {"x": 0.0, "w": 0.0, "b": 0.0}


def check_division(trace: dict[str, Any]) -> None:
    a, b = 6.0, 4.0
    assert output_node(trace)["data"] == a / b
    assert leaf_grads(trace) == pytest.approx({"a": 1 / b, "b": -a / b**2}, rel=1e-12)
    assert "**-1" in [node["op"] for node in trace["nodes"]]


def check_logistic_loss(trace: dict[str, Any]) -> None:
    x, w, b = 2.0, 0.5, -1.5
    s = sigmoid(w * x + b)
    dz = s - 1  # d(-log s)/dz
    assert output_node(trace)["data"] == pytest.approx(-math.log(s), rel=1e-12)
    assert leaf_grads(trace) == pytest.approx({"x": w * dz, "w": x * dz, "b": dz}, rel=1e-12)


def check_sigmoid_expanded(trace: dict[str, Any]) -> None:
    s = sigmoid(0.5)
    assert output_node(trace)["data"] == pytest.approx(s, rel=1e-14)
    assert leaf_grads(trace) == pytest.approx({"x": s * (1 - s)}, rel=1e-12)
    assert "sigmoid" not in [node["op"] for node in trace["nodes"]]


HAND_CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "neuron": check_neuron,
    "neuron-expanded": check_neuron,
    "a-plus-a": check_a_plus_a,
    "micrograd-style": check_micrograd_style,
    "fork": check_fork,
    "relu": check_relu,
    "division": check_division,
    "train-step": check_train_step,
    "logistic-loss": check_logistic_loss,
    "sigmoid-expanded": check_sigmoid_expanded,
}

BY_ID = {example.id: example for example in EXAMPLES}


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_every_example_traces_and_describes_itself(example: Example) -> None:
    trace = trace_source(example.source, example.granularity)
    assert trace["granularity"] == example.granularity in ("packed", "expanded")
    assert example.title and example.description


def test_example_ids_are_unique() -> None:
    assert len(BY_ID) == len(EXAMPLES)


@pytest.mark.parametrize("example_id", sorted(HAND_CHECKS))
def test_example_numbers_match_the_hand_calculation(example_id: str) -> None:
    assert example_id in BY_ID, f"the example {example_id!r} is gone; update its hand check"
    example = BY_ID[example_id]
    HAND_CHECKS[example_id](trace_source(example.source, example.granularity))


def test_the_neuron_examples_differ_only_in_granularity() -> None:
    packed, expanded = BY_ID["neuron"], BY_ID["neuron-expanded"]
    assert packed.source == expanded.source
    assert (packed.granularity, expanded.granularity) == ("packed", "expanded")
