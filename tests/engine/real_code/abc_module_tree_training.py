from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from typing import Iterator


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

    def __pow__(self, other):
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1


class Module(ABC):
    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self) -> Iterator[Value]:
        for child in self.children():
            yield from child.parameters()

    def children(self) -> list[Module]:
        return []

    @abstractmethod
    def forward(self, x): ...

    def __call__(self, x):
        return self.forward(x)


class Linear(Module):
    def __init__(self, nin: int, nout: int, rng: random.Random) -> None:
        scale = 1 / math.sqrt(nin)
        self.w = [[Value(rng.uniform(-scale, scale)) for _ in range(nin)] for _ in range(nout)]
        self.b = [Value(0.0) for _ in range(nout)]

    def parameters(self) -> Iterator[Value]:
        for row in self.w:
            yield from row
        yield from self.b

    def forward(self, x):
        return [sum((wi * xi for wi, xi in zip(row, x)), b) for row, b in zip(self.w, self.b)]


class ReLU(Module):
    def forward(self, x):
        return [v.relu() for v in x]


class Sequential(Module):
    def __init__(self, *layers: Module) -> None:
        super().__init__()
        self.layers = list(layers)

    def children(self) -> list[Module]:
        return self.layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    @classmethod
    def mlp(cls, sizes: list[int], seed: int) -> Sequential:
        rng = random.Random(seed)
        layers: list[Module] = []
        for nin, nout in zip(sizes, sizes[1:]):
            layers += [Linear(nin, nout, rng), ReLU()]
        return cls(*layers[:-1])


try:
    Module()
except TypeError as e:
    print(e)

net = Sequential.mlp([2, 6, 6, 1], seed=0)
print(sum(1 for _ in net.parameters()), [type(m).__name__ for m in net.children()])
X = [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]
Y = [0.0, 1.0, 1.0, 0.0]
for epoch in range(12):
    loss = sum((net(x)[0] - y) ** 2 for x, y in zip(X, Y)) / len(X)
    net.zero_grad()
    loss.backward()
    for p in net.parameters():
        p.data -= 0.2 * p.grad
    print(f"{epoch:02d} {loss.data:.6f}")
print([round(net(x)[0].data, 4) for x in X])
