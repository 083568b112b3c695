from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Set


@dataclass(eq=False)
class Value:
    data: float
    grad: float = 0.0
    _prev: Set["Value"] = field(default_factory=set, repr=False)
    _op: str = field(default="", repr=False)
    _backward: Callable[[], None] = field(default=lambda: None, repr=False, compare=False)

    def __add__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(float(other))
        out = Value(self.data + other.data, _prev={self, other}, _op="+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    __radd__ = __add__

    def __mul__(self, other: Value | float) -> Value:
        other = other if isinstance(other, Value) else Value(float(other))
        out = Value(self.data * other.data, _prev={self, other}, _op="*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __rmul__ = __mul__

    def __neg__(self) -> Value:
        return self * -1.0

    def __sub__(self, other: Value | float) -> Value:
        return self + (-other)

    def __pow__(self, k: float) -> Value:
        out = Value(self.data**k, _prev={self}, _op=f"**{k}")

        def _backward() -> None:
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self) -> Value:
        s = 1.0 / (1.0 + math.exp(-self.data))
        out = Value(s, _prev={self}, _op="sigmoid")

        def _backward() -> None:
            self.grad += s * (1.0 - s) * out.grad

        out._backward = _backward
        return out

    def backward(self) -> None:
        order: list[Value] = []
        seen: set[int] = set()

        def visit(v: Value) -> None:
            if id(v) not in seen:
                seen.add(id(v))
                for p in v._prev:
                    visit(p)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()


@dataclass
class Logistic:
    n_in: int
    weights: list[Value] = field(default_factory=list)
    bias: Value = field(default_factory=lambda: Value(0.0))

    def __post_init__(self) -> None:
        rng = random.Random(7)
        self.weights = [Value(rng.uniform(-0.5, 0.5)) for _ in range(self.n_in)]

    def __call__(self, xs: list[float]) -> Value:
        z = sum((w * x for w, x in zip(self.weights, xs)), self.bias)
        return z.sigmoid()

    def parameters(self) -> list[Value]:
        return [*self.weights, self.bias]


points = [([0.2, 0.9, -0.3], 1.0), ([-1.1, 0.4, 0.8], 0.0), ([0.7, -0.6, 0.1], 1.0),
          ([-0.4, -0.9, 0.5], 0.0), ([1.3, 0.2, -0.7], 1.0), ([-0.8, 1.0, 0.9], 0.0)]
model = Logistic(3)
for epoch in range(30):
    loss = sum((model(x) - y) ** 2 for x, y in points) * (1.0 / len(points))
    for p in model.parameters():
        p.grad = 0.0
    loss.backward()
    for p in model.parameters():
        p.data -= 0.8 * p.grad
    if epoch % 5 == 0 or epoch == 29:
        print(f"epoch {epoch:2d} loss {loss.data:.6f}")
print(model.bias)
print([round(w.data, 6) for w in model.weights])
