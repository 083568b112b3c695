"""A node made with @dataclass whose id comes from `count().__next__` (a field's
default_factory), typed with `Self`, `__eq__`/`__hash__` by that id, its sort pushing
onto a deque with appendleft; weights drawn with random.gauss, a leaky ReLU."""

import random
from collections import deque
from dataclasses import dataclass, field
from itertools import count
from math import cos, exp, sin
from typing import Callable, Self

NEXT_ID = count().__next__


def no_rule():
    pass


@dataclass
class Value:
    id: int = field(init=False, default_factory=NEXT_ID)
    data: float
    parents: tuple[Self, ...] = ()
    ops: str = ''
    grad: float = field(init=False, default=0)
    update_grad: Callable[[], None] = field(init=False)

    def __post_init__(self):
        self.update_grad = no_rule

    def __add__(self, other: Self | float) -> Self:
        other = self.to_value(other)
        out = Value(self.data + other.data, (self, other), '+')
        def update_grad():
            self.grad += out.grad
            other.grad += out.grad
        out.update_grad = update_grad
        return out

    def __mul__(self, other: Self | float) -> Self:
        other = self.to_value(other)
        out = Value(self.data * other.data, (self, other), '*')
        def update_grad():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out.update_grad = update_grad
        return out

    def __pow__(self, p: int | float) -> Self:
        out = Value(self.data ** p, (self,), f'**{p}')
        def update_grad():
            self.grad += (p * self.data ** (p - 1)) * out.grad
        out.update_grad = update_grad
        return out

    def relu(self) -> Self:
        return self.leaky_relu(0, 'ReLU')

    def leaky_relu(self, s: float = 0.01, name='LeakyRelu') -> Self:
        f = 1 if self.data > 0 else s
        out = Value(self.data * f, (self,), name)
        def update_grad():
            self.grad += f * out.grad
        out.update_grad = update_grad
        return out

    def sin(self) -> Self:
        out = Value(sin(self.data), (self,), 'Sin')
        def update_grad():
            self.grad += cos(self.data) * out.grad
        out.update_grad = update_grad
        return out

    def sigmoid(self) -> Self:
        z = 1 / (1 + exp(-self.data))
        out = Value(z, (self,), 'Sigmoid')
        def update_grad():
            self.grad += z * (1 - z) * out.grad
        out.update_grad = update_grad
        return out

    def tanh(self) -> Self:
        z = exp(self.data)
        z = (z - 1 / z) / (z + 1 / z)
        out = Value(z, (self,), 'Tanh')
        def update_grad():
            self.grad += (1 - z * z) * out.grad
        out.update_grad = update_grad
        return out

    def backward(self):
        stk = deque()
        seen = set()
        def build(child):
            if child not in seen:
                seen.add(child)
                for parent in child.parents:
                    build(parent)
                stk.appendleft(child)
        build(self)
        self.grad = 1
        for v in stk:
            v.update_grad()

    def __neg__(self) -> Self:
        return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1

    def __eq__(self, other) -> bool:
        return isinstance(other, Value) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        if self.ops:
            return f'Value(data={round(self.data, 3)}, grad={round(self.grad, 3)}, grad_fn={self.ops})'
        return f'Value(data={round(self.data, 3)}, grad={round(self.grad, 3)})'

    @staticmethod
    def to_value(x: float) -> 'Value':
        if not isinstance(x, Value):
            x = Value(x)
        return x



class Neuron:
    def __init__(self, nin: int, slope: float = 0.1):
        self.w = [Value(random.gauss(0, 0.5)) for _ in range(nin)]
        self.b = Value(0.0)
        self.slope = slope

    def __call__(self, xs: list[float]) -> Value:
        act = sum((wi * xi for wi, xi in zip(self.w, xs)), self.b)
        return act.leaky_relu(self.slope)

    def parameters(self):
        yield from self.w
        yield self.b


random.seed(11)
hidden = [Neuron(2) for _ in range(3)]
head_w = [Value(random.gauss(0, 0.5)) for _ in range(3)]
params = [p for n in hidden for p in n.parameters()] + head_w
points = [([0.5, -1.0], 1.0), ([-0.3, 0.8], -1.0), ([1.2, 0.4], 1.0), ([-1.1, -0.2], -1.0)]

for step in range(6):
    loss = Value(0.0)
    for xs, y in points:
        h = [n(xs) for n in hidden]
        out = sum((w * hi for w, hi in zip(head_w, h)), Value(0.0)).tanh()
        loss = loss + (out - y) ** 2
    loss = loss / len(points)
    for p in params:
        p.grad = 0
    loss.backward()
    for p in params:
        p.data -= 0.5 * p.grad
    print(f"step {step}: {loss!r}")

a = Value(2.0)
b = Value(-3.0)
c = (a * b + 1).leaky_relu() + (a / b).sin() - 2 / a + a.sigmoid() * b.tanh()
d = c ** 2
d.backward()
print(a, b, c, d)
print(a.id, d.id - a.id, a == b, a == Value(2.0), len({a, b, a}))
