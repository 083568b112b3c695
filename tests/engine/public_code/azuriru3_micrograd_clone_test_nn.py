"""
Scalar-valued autograd engine.

Everything here is a graph of Value nodes. Every op that combines Values
records how to route gradients backward through itself (_backward), and
Value.backward() walks that graph in reverse topological order, calling
each node's _backward in turn. That's the whole trick behind backprop -
it's just the chain rule applied node by node, in the right order.
"""

class Value:
    """Stores a single scalar value and its gradient."""

    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        # internal bookkeeping used to build the autograd graph
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op  # the op that produced this node, just for debugging/repr

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            # d(out)/d(self) = 1, d(out)/d(other) = 1, so just pass the
            # upstream gradient straight through to both parents. We use
            # += because a Value can feed into more than one op (e.g. x + x),
            # and gradients from each path need to accumulate, not overwrite.
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            # product rule: d(out)/d(self) = other.data, d(out)/d(other) = self.data
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data ** other, (self,), f'**{other}')

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad
        out._backward = _backward

        return out

    def tanh(self):
        x = self.data
        t = (pow(2.718281828459045, 2 * x) - 1) / (pow(2.718281828459045, 2 * x) + 1)
        out = Value(t, (self,), 'tanh')

        def _backward():
            # d/dx tanh(x) = 1 - tanh(x)^2
            self.grad += (1 - t ** 2) * out.grad
        out._backward = _backward

        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'relu')

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward

        return out

    def backward(self):
        # build a topological ordering of the graph so that every node
        # is processed only after everything that depends on it has
        # already had its gradient finalized. classic DFS post-order.
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        # seed the gradient at the output (dL/dL = 1), then walk the
        # topo order backward, applying each node's local backward rule.
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

import random


class Module:
    """Base class just so Neuron/Layer/MLP share zero_grad without repeating it."""

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        # random init in [-1, 1], nothing fancy like Xavier/He here
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{'Tanh' if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    def __init__(self, nin, nouts):
        # nouts is the size of each layer, e.g. MLP(2, [4, 4, 1]) -> 2 in, two
        # hidden layers of 4, 1 output. last layer is linear (no tanh) since
        # it's usually feeding into a loss function directly.
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

import pytest


def test_neuron_parameter_count():
    n = Neuron(3)
    assert len(n.parameters()) == 4  # 3 weights + 1 bias


def test_neuron_output_is_tanh_bounded():
    n = Neuron(2)
    out = n([Value(1.0), Value(-1.0)])
    assert -1.0 < out.data < 1.0


def test_linear_neuron_skips_nonlinearity():
    # nonlin=False should give back the raw weighted sum, so it can
    # blow past tanh's (-1, 1) range if the weights push it there.
    n = Neuron(1, nonlin=False)
    n.w[0] = Value(5.0)
    n.b = Value(0.0)
    out = n([Value(10.0)])
    assert out.data == pytest.approx(50.0)


def test_layer_parameter_count_and_output_size():
    layer = Layer(3, 4)
    assert len(layer.parameters()) == 4 * (3 + 1)
    out = layer([Value(1.0), Value(2.0), Value(3.0)])
    assert len(out) == 4


def test_layer_with_single_output_unwraps_to_scalar():
    layer = Layer(2, 1)
    out = layer([Value(1.0), Value(1.0)])
    assert isinstance(out, Value)


def test_mlp_parameter_count():
    mlp = MLP(2, [4, 4, 1])
    # layer sizes: (2->4), (4->4), (4->1)
    expected = 4 * (2 + 1) + 4 * (4 + 1) + 1 * (4 + 1)
    assert len(mlp.parameters()) == expected


def test_mlp_last_layer_is_linear():
    mlp = MLP(2, [4, 1])
    assert mlp.layers[-1].neurons[0].nonlin is False
    assert mlp.layers[0].neurons[0].nonlin is True


def test_zero_grad_resets_all_parameters():
    mlp = MLP(2, [4, 1])
    out = mlp([Value(1.0), Value(-1.0)])
    out.backward()
    assert any(p.grad != 0.0 for p in mlp.parameters())

    mlp.zero_grad()
    assert all(p.grad == 0.0 for p in mlp.parameters())


test_neuron_parameter_count()
test_neuron_output_is_tanh_bounded()
test_linear_neuron_skips_nonlinearity()
test_layer_parameter_count_and_output_size()
test_layer_with_single_output_unwraps_to_scalar()
test_mlp_parameter_count()
test_mlp_last_layer_is_linear()
test_zero_grad_resets_all_parameters()
