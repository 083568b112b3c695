"""A learner's engine as a dataclass, fitting y = 2x + 1 by gradient descent.

The bug: `__mul__`'s rule writes `self.grad = ...` where `+=` belongs, so the
weight, used once per sample of the batch, keeps only the last sample's share.
"""

from dataclasses import dataclass, field
from typing import Callable, List, Tuple


@dataclass(eq=False)
class Value:
    data: float
    _prev: Tuple["Value", ...] = ()
    _op: str = ""
    grad: float = 0.0
    _backward: Callable[[], None] = field(default=lambda: None, repr=False)

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    __radd__ = __add__

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad = other.data * out.grad
            other.grad = self.data * out.grad

        out._backward = _backward
        return out

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __pow__(self, k):
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo: List[Value] = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


@dataclass
class Line:
    w: Value = field(default_factory=lambda: Value(0.5))
    b: Value = field(default_factory=lambda: Value(0.0))

    def __call__(self, x):
        return self.w * x + self.b

    def parameters(self):
        return [self.w, self.b]


xs = [1.0, 2.0, 3.0]
ys = [3.0, 5.0, 7.0]
model = Line()
lr = 0.02
for step in range(4):
    loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys))
    for p in model.parameters():
        p.grad = 0.0
    loss.backward()
    print(f"step {step}: loss {loss.data:.6f} dw {model.w.grad:.6f} db {model.b.grad:.6f}")
    for p in model.parameters():
        p.data -= lr * p.grad
print(model)
