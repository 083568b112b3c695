"""The pydantic reference of the trace format accepts every multi-pass trace the engine
writes, field for field (the models forbid unknown fields)."""

from __future__ import annotations

import pytest

from backprop_animator.app.schemas import Trace
from backprop_animator.engine import trace_source
from backprop_animator.engine.examples import EXAMPLES

PROGRAMS = {
    "two passes": "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + a\nc.backward()\nc.backward()\n",
    "updates and prints": (
        "w = Value(1.0)\nfor k in range(2):\n    loss = w * w\n    w.grad = 0.0\n"
        "    loss.backward()\n    w.data -= 0.1 * w.grad\n    print(k, loss.data)\n"
    ),
    "own value class": (
        "class V:\n    def __init__(self, d, ch=()):\n        self.data = d\n"
        "        self.grad = 0.0\n        self._prev = set(ch)\n        self._op = ''\n"
        "        self._backward = lambda: None\n"
        "    def backward(self):\n        self.grad = 1.0\n        for c in self._prev:\n"
        "            c._backward()\nx = V(1.0)\ny = V(2.0, (x,))\ny.backward()\n"
    ),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_multi_pass_trace_matches_the_documented_models(name: str) -> None:
    trace = trace_source(PROGRAMS[name])
    model = Trace.model_validate(trace)
    assert model.model_dump(by_alias=True, exclude_unset=True) == trace


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_every_example_matches_the_documented_models(example: object) -> None:
    trace = trace_source(example.source, example.granularity)  # type: ignore[attr-defined]
    assert Trace.model_validate(trace).model_dump(by_alias=True, exclude_unset=True) == trace
