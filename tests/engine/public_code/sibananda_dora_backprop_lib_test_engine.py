"""Scalar autograd engine: the ``Value`` class.

Implements reverse-mode autodiff over a dynamically built DAG,
in the spirit of Karpathy's micrograd but with a slightly different API:

- ``Value`` carries a human-readable ``label`` (useful for graphviz plots)
- supports ``+ - * / ** tanh exp`` (+ ``relu`` for convenience)
- ``pow`` accepts int/float (a ``Value`` exponent is unwrapped to its data)
- ``zero_grad`` clears grads in the subgraph
"""

import math


class Value:
    """Stores a single scalar value and its gradient."""

    def __init__(self, data, _children=(), _op='', label='None'):
        self.data = data
        self.grad = 0.0
        self.label = label
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op  # the op that produced this node, for graphviz / debugging / etc

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    # --- addition ---
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward

        return out

    def __radd__(self, other):  # other + self
        return self + other

    # --- multiplication ---
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __rmul__(self, other):  # other * self
        return self * other

    # --- power ---
    def __pow__(self, other):
        # unwrap Value exponents so `Value(2) ** Value(2)` keeps working
        # like in the original notebook; only the base gets a gradient
        # (same limitation as the notebook version).
        if isinstance(other, Value):
            other = other.data
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data ** other, (self,), f'**{other}')

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad
        out._backward = _backward

        return out

    # --- subtraction / division (defined via + * **, like the notebook) ---
    def __neg__(self):  # -self
        return self * -1

    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, (self, other), '-')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += -1.0 * out.grad
        out._backward = _backward

        return out

    def __rsub__(self, other):  # other - self
        other = other if isinstance(other, Value) else Value(other)
        return other - self

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        other = other if isinstance(other, Value) else Value(other)
        return other * self**-1

    # --- nonlinearities ---
    def tanh(self):
        x = self.data
        t = (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward

        return out

    def exp(self):
        x = self.data
        out = Value(math.exp(x), (self,), 'exp')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward

        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward

        return out

    # --- backprop ---
    def backward(self):
        # topological order all of the children in the graph
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

    def zero_grad(self):
        # clears grads of every node in the graph. call it BEFORE the next
        # accumulation buffer starts, i.e. right before optimizer.step(),
        # never between the backward() calls of one batch.
        # iterative version (handles shared subgraphs without revisiting).
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        for node in topo:
            node.grad = 0.0

import random


class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, nin):
        # nin = number of inputs
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        # w*x + b
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        out = act.tanh()
        return out

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"TanhNeuron({len(self.w)})"


class Layer(Module):
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        params = []
        for n in self.neurons:
            params.extend(n.parameters())
        return params

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        params = []
        for layer in self.layers:
            params.extend(layer.parameters())
        return params

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

"""Tests for the Value autograd engine (numerical-grad checked, no torch needed)."""

import math
import random



def numerical_grad(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def test_add_mul_backward():
    a = Value(2.0, label='a')
    b = Value(-3.0, label='b')
    c = Value(10.0, label='c')
    e = a * b
    d = e + c
    f = Value(-2.0, label='f')
    L = d * f
    L.backward()
    # L = ((a*b) + c) * f  =>  dL/da = b*f, dL/db = a*f, dL/dc = f, etc.
    assert L.data == -8.0
    assert a.grad == (-3.0) * (-2.0)
    assert b.grad == 2.0 * (-2.0)
    assert c.grad == -2.0
    assert e.grad == -2.0
    assert d.grad == -2.0
    assert f.grad == 4.0


def test_sub_div_pow():
    a = Value(3.0)
    b = Value(2.0)
    c = a - b  # 1
    d = a / b  # 1.5
    e = a ** 2  # 9
    c.backward()
    assert c.data == 1.0
    assert a.grad == 1.0 and b.grad == -1.0

    a.grad = b.grad = 0.0
    d.backward()
    assert d.data == 1.5
    assert abs(a.grad - 1 / 2.0) < 1e-9
    assert abs(b.grad - (-3.0 / 4.0)) < 1e-9

    a.grad = 0.0
    e.backward()
    assert e.data == 9.0
    assert a.grad == 6.0


def test_tanh_exp_vs_numerical():
    for fn_name in ("tanh", "exp"):
        x0 = 0.8813735870195432
        x = Value(x0)
        y = getattr(x, fn_name)()
        y.backward()
        if fn_name == "tanh":
            f = math.tanh
        else:
            f = math.exp
        expected = numerical_grad(f, x0)
        assert abs(y.data - f(x0)) < 1e-9
        assert abs(x.grad - expected) < 1e-5


def test_neuron_mlp_forward_and_zero_grad():
    random.seed(0)
    n = MLP(3, [4, 4, 1])
    # 3-in, 4+4+1-out MLP: (3*4+4) + (4*4+4) + (4*1+1) = 41 params
    assert len(n.parameters()) == 41
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5]]
    ypred = [n(x) for x in xs]
    loss = sum((y - 1.0) ** 2 for y in ypred)
    loss.backward()
    assert any(p.grad != 0.0 for p in n.parameters())
    n.zero_grad()
    assert all(p.grad == 0.0 for p in n.parameters())


def test_broadcast_with_scalars():
    a = Value(2.0)
    b = a + 1
    c = 3 * a
    d = a - 5
    assert (b.data, c.data, d.data) == (3.0, 6.0, -3.0)
    b.backward()
    assert a.grad == 1.0

test_add_mul_backward()
test_sub_div_pow()
test_tanh_exp_vs_numerical()
test_neuron_mlp_forward_and_zero_grad()
test_broadcast_with_scalars()
