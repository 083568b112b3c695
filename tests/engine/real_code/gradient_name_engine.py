"""An engine that keeps each node's gradient in `gradient`, not `grad` (as some courses
write it), trained for a few steps: its rules' `+=` are traced as `grad`'s are."""

import math


class Var:
    def __init__(self, data, parents=(), op=""):
        self.data = data
        self.gradient = 0.0
        self._backward = lambda: None
        self._prev = set(parents)
        self._op = op

    def __add__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        out = Var(self.data + other.data, (self, other), "+")

        def _backward():
            self.gradient += out.gradient
            other.gradient += out.gradient

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        out = Var(self.data * other.data, (self, other), "*")

        def _backward():
            self.gradient += other.data * out.gradient
            other.gradient += self.data * out.gradient

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Var(t, (self,), "tanh")

        def _backward():
            self.gradient += (1 - t**2) * out.gradient

        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for p in v._prev:
                    visit(p)
                order.append(v)

        visit(self)
        self.gradient = 1.0
        for v in reversed(order):
            v._backward()


w, b = Var(0.3), Var(-0.1)
data = [(0.5, 0.2), (-1.0, -0.6), (2.0, 0.9)]
for step in range(4):
    loss = Var(0.0)
    for x, y in data:
        diff = (w * x + b).tanh() + (-y)
        loss = loss + diff * diff
    w.gradient = 0.0
    b.gradient = 0.0
    loss.backward()
    w.data -= 0.1 * w.gradient
    b.data -= 0.1 * b.gradient
    print(step, round(loss.data, 6), w.gradient, b.gradient)
