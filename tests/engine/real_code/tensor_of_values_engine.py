"""A `Tensor` that holds a list of scalar `Value`s (no numpy): elementwise ops, a dot
product, `sum()`, and a `backward()` of its own that hands the work to its one Value."""

import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


class Tensor:
    def __init__(self, data):
        self.data = [d if isinstance(d, Value) else Value(d) for d in data]
        self.shape = (len(self.data),)

    def __add__(self, other):
        if isinstance(other, Tensor):
            return Tensor([a + b for a, b in zip(self.data, other.data)])
        return Tensor([a + other for a in self.data])

    def __mul__(self, other):
        if isinstance(other, Tensor):
            return Tensor([a * b for a, b in zip(self.data, other.data)])
        return Tensor([a * other for a in self.data])

    def __matmul__(self, other):
        return sum((a * b for a, b in zip(self.data, other.data)), Value(0.0))

    def tanh(self):
        return Tensor([a.tanh() for a in self.data])

    def sum(self):
        return Tensor([sum(self.data, Value(0.0))])

    def backward(self):
        assert self.shape == (1,), "backward() needs a one-element tensor"
        self.data[0].backward()

    @property
    def grad(self):
        return [a.grad for a in self.data]

    def __repr__(self):
        return "Tensor([" + ", ".join(f"{a.data:.4f}" for a in self.data) + "])"


random.seed(0)
w = Tensor([random.uniform(-1, 1) for _ in range(3)])
x = Tensor([1.0, -2.0, 0.5])
h = (w * x + 0.1).tanh()
loss = (h * h).sum()
loss.backward()
print(h, loss)
print([round(g, 6) for g in w.grad])
score = w @ x
score.backward()
print(round(score.data, 6), [round(g, 6) for g in w.grad])
