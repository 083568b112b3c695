"""A node class whose gradient starts as None (as PyTorch has it) and whose rule is a
`_grad_fn` returning the operands' gradients, with PEP 604 annotations and id() marks."""

import math
from typing import Callable


class Value:
    def __init__(
        self,
        data: float,
        _prev: tuple["Value", ...] | None = None,
        _grad_fn: Callable[[float], tuple[float, ...]] | None = None,
    ):
        self.data = data
        self.grad: float | None = None
        self._prev: tuple["Value", ...] | None = _prev
        self._grad_fn: Callable | None = _grad_fn

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other: "Value | float") -> "Value":
        if not isinstance(other, Value):
            other = Value(other)
        return Value(self.data + other.data, (self, other), lambda g: (g, g))

    def __mul__(self, other: "Value | float") -> "Value":
        if not isinstance(other, Value):
            other = Value(other)
        return Value(self.data * other.data, (self, other), lambda g: (g * other.data, g * self.data))

    def tanh(self) -> "Value":
        t = math.tanh(self.data)
        return Value(t, (self,), lambda g: (g * (1 - t * t),))

    def backward(self) -> None:
        order: list[Value] = []
        seen: set[int] = set()

        def visit(v: "Value") -> None:
            if id(v) in seen:
                return
            seen.add(id(v))
            for p in v._prev or ():
                visit(p)
            order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            if v._grad_fn is None or v._prev is None:
                continue
            for p, g in zip(v._prev, v._grad_fn(v.grad)):
                p.grad = g if p.grad is None else p.grad + g


x = Value(0.3)
w = Value(-2.0)
y = (x * w + x).tanh()
y.backward()
print(y, x, w)
