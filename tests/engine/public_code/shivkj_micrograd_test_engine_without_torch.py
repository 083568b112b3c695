from collections import deque
from dataclasses import dataclass, field
from itertools import count
from math import cos, exp, sin
from typing import Callable, Self

ID_CREATOR = count().__next__


def default_backward_fun():
    pass


@dataclass
class Value:
    id: int = field(init=False, default_factory=ID_CREATOR)
    data: float
    parents: tuple[Self, ...] = ()
    ops: str = ''

    grad: float = field(init=False, default=0)
    grad_fn: Callable[[], None] = field(init=False)

    def __post_init__(self):
        self.grad_fn = default_backward_fun

    def __add__(self, other: Self | float) -> Self:
        other = self.to_value(other)

        out = Value(self.data + other.data, (self, other), '+')

        def grad_fn():
            # for understanding grad in more detail; https://colah.github.io/posts/2015-08-Backprop/
            self.grad += out.grad
            other.grad += out.grad

        out.grad_fn = grad_fn

        return out

    def __mul__(self, other: Self | float) -> Self:
        other = self.to_value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def grad_fn():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out.grad_fn = grad_fn

        return out

    def __pow__(self, p: int | float) -> Self:
        assert isinstance(p, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data ** p, (self,), f'**{p}')

        def grad_fn():
            self.grad += (p * self.data ** (p - 1)) * out.grad

        out.grad_fn = grad_fn

        return out

    def relu(self) -> Self:
        return self.leaky_relu(0, 'ReLU')

    def leaky_relu(self, s: float = 0.01, name='LeakyRelu') -> Self:
        assert 0 <= s <= 1

        f = 1 if self.data > 0 else s

        out = Value(self.data * f, (self,), name)

        def grad_fn():
            self.grad += f * out.grad

        out.grad_fn = grad_fn

        return out

    def sin(self) -> Self:
        out = Value(sin(self.data), (self,), 'Sin')

        def grad_fn():
            self.grad += cos(self.data) * out.grad

        out.grad_fn = grad_fn

        return out

    def cos(self) -> Self:
        out = Value(cos(self.data), (self,), 'Cos')

        def grad_fn():
            self.grad += -sin(self.data) * out.grad

        out.grad_fn = grad_fn

        return out

    def sigmoid(self) -> Self:
        z = 1 / (1 + exp(-self.data))

        out = Value(z, (self,), 'Sigmoid')

        def grad_fn():
            self.grad += z * (1 - z) * out.grad

        out.grad_fn = grad_fn

        return out

    def tanh(self) -> Self:
        z = exp(self.data)
        z = (z - 1 / z) / (z + 1 / z)
        out = Value(z, (self,), 'Tanh')

        def grad_fn():
            self.grad += (1 - z * z) * out.grad

        out.grad_fn = grad_fn

        return out

    def backward(self):
        stk = deque()
        visited_nodes = set()

        def build_topo(child: Value):
            if child not in visited_nodes:
                visited_nodes.add(child)

                for parent in child.parents:
                    build_topo(parent)

                stk.appendleft(child)

        build_topo(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1

        for v in stk:
            v.grad_fn()

    def __neg__(self) -> Self:  # -self
        return self * -1

    def __radd__(self, other: Self | float) -> Self:  # other + self
        return self + other

    def __sub__(self, other: Self | float) -> Self:  # self - other
        return self + (-other)

    def __rsub__(self, other: Self | float) -> Self:  # other - self
        return other + (-self)

    def __rmul__(self, other: Self | float) -> Self:  # other * self
        return self * other

    def __truediv__(self, other: Self | float) -> Self:  # self / other
        return self * other ** -1

    def __rtruediv__(self, other: Self | float) -> Self:  # other / self
        return other * self ** -1

    # overriding eq and hash function as required for topological sorting
    def __eq__(self, other) -> bool:
        return isinstance(other, Value) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        if self.ops:
            return f'Value(data={round(self.data, 3)}, grad={round(self.grad, 3)}, grad_fn={self.ops})'
        else:
            return f'Value(data={round(self.data, 3)}, grad={round(self.grad, 3)})'

    @staticmethod
    def to_value(x: float) -> 'Value':
        if not isinstance(x, Value):
            x = Value(x)

        return x

import random
from abc import abstractmethod
from functools import cached_property
from operator import mul



class Module:
    def zero_grad(self):
        for p in self.parameters:
            p.grad = 0

    @cached_property
    @abstractmethod
    def parameters(self) -> list[Value]:
        pass


class Neuron(Module):
    def __init__(self, nin: int, activation='ReLU'):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.activation = activation

    def __call__(self, x: list[float]) -> Value:
        act = sum(map(mul, self.w, x)) + self.b

        match self.activation:
            case None | '':
                return act
            case 'ReLU':
                return act.relu()
            case 'Sigmoid':
                return act.sigmoid()
            case 'Tanh':
                return act.tanh()
            case _:
                raise ValueError(f'activation function={self.activation} is not recognised')

    @cached_property
    def parameters(self) -> list[Value]:
        return self.w + [self.b]

    def __repr__(self):
        return f"{'ReLU' if self.activation else 'Linear'}-Neuron({len(self.w)})"


class Layer(Module):
    def __init__(self, n_in: int, n_out: int, **kwargs):
        self.neurons = [Neuron(n_in, **kwargs) for _ in range(n_out)]

    def __call__(self, x: list[float]):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    @cached_property
    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    def __init__(self, n_in: int, n_outs: list[int]):
        sz = [n_in] + n_outs
        last_layer_index = len(n_outs) - 1

        self.layers = [Layer(sz[i], sz[i + 1], activation='ReLU' if i != last_layer_index else None)
                       for i in range(len(n_outs))]

    def __call__(self, x: list[float]) -> list[float]:
        for layer in self.layers:
            x = layer(x)
        return x

    @cached_property
    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

import pytest




def test_sanity_check():
    x = Value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xmg, ymg = x, y


test_sanity_check()
