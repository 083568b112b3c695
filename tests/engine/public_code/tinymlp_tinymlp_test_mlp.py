def topological_sort(root):
    """
    Returns a topologically sorted list of nodes from the computational graph rooted at `root`.
    """

    topo = []
    visited = set()

    def build_topo(v):
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build_topo(child)
            topo.append(v)

    build_topo(root)
    return topo


def trace(root):
    """
    Traces all nodes and edges in the computational graph ending at `root`.
    Returns (nodes, edges).
    """

    nodes, edges = set(), set()

    def build(v):
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)

    build(root)
    return nodes, edges

import math


class Value:
    """
    Stores a scalar value and its gradient for reverse-mode automatic differentiation.
    """

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = float(data)
        self.grad = 0.0
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        if self.label:
            return f"Value(label={self.label}, data={self.data}, grad={self.grad})"
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return Value(other) + (-self)

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += (other * (self.data ** (other - 1))) * out.grad

        out._backward = _backward
        return out

    def __truediv__(self, other):
        return self * (other**-1)

    def __rtruediv__(self, other):
        return Value(other) * (self**-1)

    def exp(self):
        x = self.data
        out = Value(math.exp(x), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def log(self):
        x = self.data
        assert x > 0, "logarithm only defined for positive values"
        out = Value(math.log(x), (self,), "log")

        def _backward():
            self.grad += (1.0 / x) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self):
        x = self.data
        if x >= 0:
            s = 1.0 / (1.0 + math.exp(-x))
        else:
            z = math.exp(x)
            s = z / (1.0 + z)
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1.0 - s) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        x = self.data
        t = math.tanh(x)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1.0 - t**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        """
        Computes gradients for all nodes in the computational graph via reverse-mode AD.
        """
        topo = topological_sort(self)

        # go one node at a time and apply chain rule to calculate gradients
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()



def relu(x):
    """
    Applies Rectified Linear Unit (ReLU) activation to input x (Value or float/int).
    """
    if isinstance(x, Value):
        return x.relu()
    return max(0.0, float(x))

import math


def sigmoid(x):
    """
    Applies Sigmoid activation function to input x (Value or float/int).
    """
    if isinstance(x, Value):
        return x.sigmoid()
    val = float(x)
    if val >= 0:
        return 1.0 / (1.0 + math.exp(-val))
    z = math.exp(val)
    return z / (1.0 + z)

import math


def tanh(x):
    """
    Applies Hyperbolic Tangent (Tanh) activation function to input x (Value or float/int).
    """
    if isinstance(x, Value):
        return x.tanh()
    return math.tanh(float(x))



def mse_loss(y_pred, y_true):
    """
    Computes Mean Squared Error (MSE) loss.
    Accepts single values or lists of values.
    """
    if not isinstance(y_pred, list):
        y_pred = [y_pred]
    if not isinstance(y_true, list):
        y_true = [y_true]

    assert len(y_pred) == len(y_true), "y_pred and y_true must have the same length"

    total_loss = Value(0.0)
    for pred, target in zip(y_pred, y_true):
        target_val = target if isinstance(target, Value) else Value(target)
        diff = pred - target_val
        total_loss = total_loss + (diff ** 2)

    return total_loss / len(y_pred)

import math


def binary_cross_entropy(y_pred, y_true, eps: float = 1e-7):
    """
    Computes Binary Cross Entropy (BCE) loss for probability inputs in [0, 1]:
    loss = -1/N * sum(y * log(p) + (1 - y) * log(1 - p))

    Handles boundary probabilities (0.0 and 1.0) numerically while preserving
    autograd computational graph and gradient propagation.
    """
    if not isinstance(y_pred, list):
        y_pred = [y_pred]
    if not isinstance(y_true, list):
        y_true = [y_true]

    if len(y_pred) != len(y_true):
        raise ValueError(
            f"y_pred and y_true must have the same length, got {len(y_pred)} and {len(y_true)}"
        )

    total_loss = Value(0.0)
    for pred, target in zip(y_pred, y_true):
        pred_node = pred if isinstance(pred, Value) else Value(pred)
        target_node = target if isinstance(target, Value) else Value(target)

        p_data = pred_node.data
        t_data = target_node.data

        if p_data < 0.0 or p_data > 1.0:
            raise ValueError(
                f"Invalid prediction probability {p_data}: predictions must be in range [0, 1]"
            )
        if t_data < 0.0 or t_data > 1.0:
            raise ValueError(
                f"Invalid target probability {t_data}: targets must be in range [0, 1]"
            )

        # Clamped probability values for safe log evaluation
        p_clamped = max(eps, min(1.0 - eps, p_data))
        one_minus_p_clamped = max(eps, min(1.0 - eps, 1.0 - p_data))

        # Direct autograd log nodes with clipping protection
        p_log = Value(math.log(p_clamped), (pred_node,), "log")

        def _backward_p_log(node=pred_node, p_c=p_clamped, p_l=p_log):
            node.grad += (1.0 / p_c) * p_l.grad

        p_log._backward = _backward_p_log

        one_minus_p_log = Value(math.log(one_minus_p_clamped), (pred_node,), "log")

        def _backward_one_minus_p_log(node=pred_node, omp_c=one_minus_p_clamped, omp_l=one_minus_p_log):
            node.grad -= (1.0 / omp_c) * omp_l.grad

        one_minus_p_log._backward = _backward_one_minus_p_log

        term1 = target_node * p_log
        term2 = (Value(1.0) - target_node) * one_minus_p_log
        sample_loss = -(term1 + term2)
        total_loss = total_loss + sample_loss

    return total_loss / len(y_pred)

import random


class Neuron:
    """
    A single artificial neuron with weights, bias, and optional activation.
    """

    def __init__(self, nin: int, nonlin: bool = True, activation: str = "relu"):
        # Initialize weights randomly in [-1, 1] scaled by sqrt(nin) for basic Xavier-like init
        scale = 1.0 / (nin**0.5) if nin > 0 else 1.0
        self.w = [Value(random.uniform(-1, 1) * scale) for _ in range(nin)]
        self.b = Value(0.0)
        self.nonlin = nonlin
        self.activation = activation.lower() if isinstance(activation, str) else activation

    def __call__(self, x):
        # x is a list of inputs (floats or Values)
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        if not self.nonlin:
            return act

        if self.activation == "relu":
            return act.relu()
        elif self.activation == "sigmoid":
            return act.sigmoid()
        elif self.activation == "tanh":
            return act.tanh()
        elif callable(self.activation):
            return self.activation(act)
        else:
            return act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        act_str = f", act='{self.activation}'" if self.nonlin else ", linear"
        return f"Neuron(nin={len(self.w)}{act_str})"



class Layer:
    """
    A layer of neurons.
    """

    def __init__(self, nin: int, nout: int, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]

    def __repr__(self):
        return f"Layer(nin={len(self.neurons[0].w)}, nout={len(self.neurons)})"



class MLP:
    """
    Multi-Layer Perceptron (MLP) consisting of a sequence of Layers.
    """

    def __init__(self, nin: int, nouts: list, activations: list = None):
        sz = [nin] + nouts
        self.layers = []

        if activations is None:
            # Default: relu for hidden layers, linear/relu for final output
            activations = ["relu"] * (len(nouts) - 1) + ["linear"]
        elif isinstance(activations, str):
            activations = [activations] * len(nouts)

        assert len(activations) == len(nouts), "Number of activations must match number of layers"

        for i in range(len(nouts)):
            act = activations[i]
            nonlin = act != "linear"
            self.layers.append(
                Layer(sz[i], sz[i + 1], nonlin=nonlin, activation=act)
            )

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def __repr__(self):
        layers_str = ", ".join(str(layer) for layer in self.layers)
        return f"MLP([\n  {layers_str}\n])"

class SGD:
    """
    Stochastic Gradient Descent (SGD) optimizer with optional momentum.
    """

    def __init__(self, params, lr: float = 0.01, momentum: float = 0.0):
        self.params = list(params)
        self.lr = lr
        self.momentum = momentum
        self.velocities = [0.0] * len(self.params)

    def step(self):
        """
        Updates parameters based on gradients.
        """
        for i, p in enumerate(self.params):
            if self.momentum > 0.0:
                self.velocities[i] = self.momentum * self.velocities[i] + self.lr * p.grad
                p.data -= self.velocities[i]
            else:
                p.data -= self.lr * p.grad

    def zero_grad(self):
        """
        Resets gradients of all parameters to zero.
        """
        for p in self.params:
            p.grad = 0.0






def test_mlp_structure():
    model = MLP(3, [4, 4, 1], activations=['relu', 'relu', 'linear'])
    assert len(model.layers) == 3
    # Layer 0: 3->4 = 4*(3+1)=16 params
    # Layer 1: 4->4 = 4*(4+1)=20 params
    # Layer 2: 4->1 = 1*(4+1)=5 params
    # Total = 41 params
    assert len(model.parameters()) == 41


def test_mlp_forward_and_zero_grad():
    model = MLP(2, [3, 1], activations=['relu', 'linear'])
    x = [0.5, -1.0]
    out = model(x)
    assert isinstance(out, Value)

    out.backward()
    # verify gradients non-zero
    assert any(p.grad != 0.0 for p in model.parameters())

    model.zero_grad()
    # verify gradients cleared
    assert all(p.grad == 0.0 for p in model.parameters())

test_mlp_structure()
test_mlp_forward_and_zero_grad()
