"""A dataclass Value whose sort returns a list, and whose recursion drops the list
each call returns: the order holds the output alone, so only its rule runs and the
gradients stop one step below the loss."""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(eq=False)
class Value:
    data: float
    grad: float = 0.0
    _prev: set = field(default_factory=set)
    _op: str = ""
    label: str = ""

    def __post_init__(self):
        self._backward = lambda: None

    def __add__(self, other: Value) -> Value:
        out = Value(self.data + other.data, _prev={self, other}, _op="+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Value) -> Value:
        out = Value(self.data * other.data, _prev={self, other}, _op="*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def sigmoid(self) -> Value:
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, _prev={self}, _op="sigmoid")

        def _backward():
            self.grad += s * (1 - s) * out.grad

        out._backward = _backward
        return out

    def build_topo(self, visited=None):
        if visited is None:
            visited = set()
        order = []
        if self not in visited:
            visited.add(self)
            for child in self._prev:
                child.build_topo(visited)
            order.append(self)
        return order

    def backward(self):
        self.grad = 1.0
        for v in reversed(self.build_topo()):
            v._backward()


x1 = Value(2.0, label="x1")
x2 = Value(-1.0, label="x2")
w1 = Value(0.5, label="w1")
w2 = Value(0.25, label="w2")
b = Value(0.1, label="b")
n = x1 * w1 + x2 * w2 + b
n.label = "n"
o = n.sigmoid()
o.label = "o"
o.backward()
for v in (o, n, w1, w2, b):
    print(f"{v.label}: data={v.data:.4f} grad={v.grad:.4f}")
