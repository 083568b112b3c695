# Abstract class for value interface
from __future__ import annotations

from abc import ABC, abstractmethod


class ValueInterface(ABC):
    @abstractmethod
    def __init__(
        self,
        data: float | int,
        children: tuple[ValueInterface, ValueInterface]
        | tuple[ValueInterface]
        | tuple[()] = (),
        operator: str = "",
        label: str = "",
    ):
        self.data = data
        self.grad = 0
        self.children = children or []
        self.operator = operator
        self.label = label

import math



class Value(ValueInterface):
    activations = {
        "linear": lambda x: x,
        "tanh": lambda x: x.tanh(),
        "relu": lambda x: x.relu(),
        "sigmoid": lambda x: x.sigmoid(),
        "log": lambda x: x.log(),
    }

    def __init__(
        self,
        data: float | int,
        children: tuple[Value, Value] | tuple[Value] | tuple[()] = (),
        operator: str = "",
        label: str = "",
    ):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self.children = set(children)
        self.operator = operator
        self.label = label

    def __repr__(self: Value) -> str:
        return f"Value(data={self.data})"

    def __neg__(self) -> Value:
        result = self * -1
        result.label = f"-{self.label}"
        return result

    def __add__(self, other: Value | float | int) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(
            self.data + other.data,
            (self, other),
            "+",
            f"({self.label} + {other.label})",
        )

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other: Value | float | int) -> Value:
        return self.__add__(other)

    def __sub__(self, other: Value | float | int) -> Value:
        result = self + (-other)
        result.label = (
            f"({self.label} - {other.label if isinstance(other, Value) else other})"
        )
        return result

    def __rsub__(self, other: Value | float | int) -> Value:
        return self.__sub__(other)

    def __mul__(self, other: Value | float | int) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(
            self.data * other.data,
            (self, other),
            "*",
            f"({self.label} * {other.label})",
        )

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __rmul__(self, other: Value | float | int) -> Value:
        return self.__mul__(other)

    def __truediv__(self, other: Value | float | int) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        result = self * other**-1
        result.label = f"({self.label} / {other.label})"
        return result

    def __pow__(self, other: float | int) -> Value:
        assert isinstance(other, (float, int)), "Exponent must be a scalar"
        out = Value(
            self.data**other, (self,), f"**{other}", f"({self.label} ** {other})"
        )

        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad

        out._backward = _backward
        return out

    def __rpow__(self, other: float | int) -> Value:
        assert isinstance(other, (float, int)), "Exponent must be a scalar"
        out = Value(
            other**self.data, (self,), f"{other}**", f"({other} ** {self.label})"
        )

        def _backward():
            self.grad += (other**self.data) * math.log(other) * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> Value:
        x = self.data
        t = (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)
        out = Value(t, (self,), "tanh", f"tanh({self.label})")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def exp(self) -> Value:
        out = Value(math.exp(self.data), (self,), "exp", f"exp({self.label})")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def relu(self) -> Value:
        out = Value(max(0, self.data), (self,), "relu", f"relu({self.label})")

        def _backward():
            self.grad += (self.data > 0) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self) -> Value:
        out = Value(
            1 / (1 + math.exp(-self.data)), (self,), "sigmoid", f"sigmoid({self.label})"
        )

        def _backward():
            self.grad += (1 - out.data) * out.data * out.grad

        out._backward = _backward
        return out

    def log(self, base: float | int = math.e) -> Value:
        assert self.data > 0, "Logarithm of negative number is undefined"
        assert base > 0, "Logarithm base must be positive"
        assert base != 1, "Logarithm base cannot be 1"
        assert isinstance(base, (float, int)), "Logarithm base must be a scalar"
        out = Value(math.log(self.data, base), (self,), "log", f"log({self.label})")

        def _backward():
            self.grad += (
                1 / ((self.data * math.log(base)) if base != math.e else self.data)
            ) * out.grad

        out._backward = _backward
        return out

    def linear(self) -> Value:
        return self

    def cos(self) -> Value:
        out = Value(math.cos(self.data), (self,), "cos", f"cos({self.label})")

        def _backward():
            self.grad += -math.sin(self.data) * out.grad

        out._backward = _backward
        return out

    def sin(self) -> Value:
        out = Value(math.sin(self.data), (self,), "sin", f"sin({self.label})")

        def _backward():
            self.grad += math.cos(self.data) * out.grad

        out._backward = _backward
        return out

    def backward(self) -> None:
        topo = []
        visited = set()

        def build_topo(v: Value):
            if v not in visited:
                visited.add(v)
                for child in v.children:
                    build_topo(child)
                topo.append(v)

        build_topo(self)

        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

    def visualize(self):
        return draw_dot(self)

import math
import random


class Neuron:
    def __init__(self, num_inputs: int, layer_idx: int, neuron_idx: int, **kwargs):
        self.layer_idx = layer_idx
        self.neuron_idx = neuron_idx

        weights_init = None
        match kwargs.get("initilization", "normal"):
            case "uniform":
                weights_init = lambda: random.uniform(-1.0, 1.0)
            case "normal":
                mean = kwargs.get("mean", 0.0)
                std = kwargs.get("std", 1.0)
                weights_init = lambda: random.normalvariate(mean, std)
            case "constant":
                weights_init = lambda: kwargs.get("value", 0.0)
            case "xavier_uniform":
                gain = kwargs.get("gain", 1.0)
                weights_init = lambda: random.uniform(-gain, gain) * math.sqrt(
                    (6.0 / (num_inputs + 1))
                )
            case "xavier_normal":
                gain = kwargs.get("gain", 1.0)
                weights_init = lambda: random.normalvariate(0.0, gain) * math.sqrt(
                    (2.0 / (num_inputs + 1))
                )
            case "truncate_normal":
                mean = kwargs.get("mean", 0.0)
                std = kwargs.get("std", 1.0)
                min_val = kwargs.get("min_val", -2.0)
                max_val = kwargs.get("max_val", 2.0)
                weights_init = lambda: min(
                    max(random.normalvariate(mean, std), min_val), max_val
                )
            case _:
                raise ValueError(
                    f"Unknown initilization: {kwargs.get('initilization', 'uniform')}"
                )
        self.w = [
            Value(weights_init(), label=f"l{layer_idx}n{neuron_idx}w{input_idx}")
            for input_idx in range(num_inputs)
        ]
        self.b = Value(weights_init(), label=f"l{layer_idx}n{neuron_idx}b")

    def __call__(
        self,
        x: list[float | int | Value],
        example_idx: int,
        activation_fn: str = "linear",
    ) -> Value:
        assert len(x) == len(
            self.w
        ), f"Input size must be equal to weight size x.size = {len(x)}, w.size = {len(self.w)}"
        act = sum(
            (
                self.w[feature_num]
                * (
                    x[feature_num]
                    if isinstance(x[feature_num], Value)
                    else Value(x[feature_num], label=f"e{example_idx}x{feature_num}")
                )
                for feature_num in range(len(x))
            ),
            self.b,
        )
        out = Value.activations[activation_fn](act)
        return out

    def forward(
        self,
        x: list[float | int | Value],
        example_idx: int,
        activation_fn: str = "linear",
    ) -> Value:
        return self(x, example_idx, activation_fn)

    def parameters(self) -> list[Value]:
        return self.w + [self.b]


class Layer:
    def __init__(
        self,
        num_inputs: int,
        num_neurons: int,
        layer_idx: int,
        activation_fn: str = "linear",
        **kwargs,
    ):
        self.activation_fn = activation_fn
        self.layer_idx = layer_idx
        self.neurons = [
            Neuron(num_inputs, layer_idx, neuron_idx, *kwargs)
            for neuron_idx in range(num_neurons)
        ]

    def __call__(self, x: list[float | int | Value], example_idx: int) -> list[Value]:
        outs = [neuron(x, example_idx, self.activation_fn) for neuron in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def forward(self, x: list[float | int | Value], example_idx: int) -> list[Value]:
        return self(x, example_idx)

    def parameters(self) -> list[Value]:
        return [
            neuron_param
            for neuron in self.neurons
            for neuron_param in neuron.parameters()
        ]


class MLP:
    def __init__(
        self,
        num_inputs: int,
        layer_sizes: list[int],
        activation_fn: str | list[str] = "linear",
        **kwargs,
    ):
        if isinstance(activation_fn, str):
            activation_fn = [activation_fn] * len(layer_sizes)

        assert len(layer_sizes) == len(
            activation_fn
        ), f"Number of layers must be equal to number of activation functions, got {len(layer_sizes)} layers and {len(activation_fn)} activation functions"
        all_layers = [num_inputs] + layer_sizes
        self.layers = [
            Layer(
                all_layers[layer_idx],
                all_layers[layer_idx + 1],
                layer_idx,
                activation_fn[layer_idx],
                *kwargs,
            )
            for layer_idx in range(len(layer_sizes))
        ]

    def __call__(self, x: list[float | int | Value], example_num: int) -> list[Value]:
        for layer in self.layers:
            x = layer(x, example_num)
        return x

    def forward(self, x: list[float | int | Value], example_num: int) -> list[Value]:
        return self(x, example_num)

    def parameters(self) -> list[Value]:
        return [
            layer_params for layer in self.layers for layer_params in layer.parameters()
        ]




a = Value(2.0, label="a")
b = Value(4.0, label="b")
c = a * b
c.label = "c"
d = Value(3.0, label="d")
e = c + d
e.label = "e"
e

e.backward()
b.grad


# Define inputs x1, x2
x1 = Value(2.0, label="x1")
x2 = Value(0.0, label="x2")

# Define weights w1,w2
w1 = Value(-3.0, label="w1")
w2 = Value(1.0, label="w2")

# Define bias of the neuron
b = Value(6.8813735870195432, label="b")

x1w1 = x1 * w1
x1w1.label = "x1*w1"
x2w2 = x2 * w2
x2w2.label = "x2*w2"
x1w1x2w2 = x1w1 + x2w2
x1w1x2w2.label = "x1*w1 + x2*w2"
n = x1w1x2w2 + b
n.label = "n"

o = n.tanh()
o.label = "o"

o.backward()


# Data
xs = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0],
]
ys = [1.0, -1.0, -1.0, 1.0]  # desired targets

n = MLP(3, [4, 4, 1], "tanh")

EPOCHS = 20
alpha = 0.1
for k in range(EPOCHS):
    # generate predictions
    ypred = [n(xs[i], i) for i in range(len(xs))]
    # calculate loss as MSE
    loss = sum(((ygt - yout) ** 2 for ygt, yout in zip(ys, ypred)))
    print(f"Current loss: {loss.data}")
    params = n.parameters()

    # reset gradients
    for p in params:
        p.grad = 0.0

    # perform backpropagation
    loss.backward()

    # update parameters
    for p in params:
        p.data -= alpha * p.grad

