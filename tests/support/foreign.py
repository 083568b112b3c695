"""A micrograd-style engine that is not ours: the foreign side of `trace_value` and of
the notebook's `animate`, written here so the tests own it.

`ForeignValue` keeps what micrograd's and the article's `Value` keep (children in a
set, the op's name in `_op`, a `label`, one closure per op for `+`, `*` and `tanh`)
and nothing of the product's engine. `foreign_neuron()` builds the article's neuron
with it.

Example: `a = ForeignValue(3.0); b = a + a; b.grad = 1.0; b._backward()` leaves
`a.grad == 2.0`.
"""

from __future__ import annotations

import math
from collections.abc import Callable


class ForeignValue:
    def __init__(
        self, data: float, children: tuple[ForeignValue, ...] = (), op: str = "", label: str = ""
    ) -> None:
        self.data = data
        self.grad = 0.0
        self._backward: Callable[[], None] = lambda: None
        self._prev = set(children)
        self._op = op
        self.label = label

    def __add__(self, other: ForeignValue) -> ForeignValue:
        out = ForeignValue(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: ForeignValue) -> ForeignValue:
        out = ForeignValue(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> ForeignValue:
        t = math.tanh(self.data)
        out = ForeignValue(t, (self,), "tanh")

        def _backward() -> None:
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out


def foreign_neuron() -> tuple[ForeignValue, dict[str, ForeignValue]]:
    """The article's neuron `o = tanh(x1*w1 + x2*w2 + b)`, its leaves labelled and
    returned by label; the leaves' gradients are -1.5, 1.0, 0.5, 0.0 and 0.5."""
    leaves = {
        name: ForeignValue(value, label=name)
        for name, value in [("x1", 2.0), ("x2", 0.0), ("w1", -3.0), ("w2", 1.0)]
    }
    leaves["b"] = ForeignValue(6.8813735870195432, label="b")
    n = leaves["x1"] * leaves["w1"] + leaves["x2"] * leaves["w2"] + leaves["b"]
    o = n.tanh()
    o.label = "o"
    return o, leaves
