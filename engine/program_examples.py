"""Example programs of the bigger language (SPEC §11): training, several passes, and a
learner's own engine. Plain source strings; `engine.examples` lists them with the rest.
"""

from __future__ import annotations

FORGOT_ZERO_GRAD = """\
# Two backward() calls, no zero_grad: gradients are never cleared for you.
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
ab = a * b
c = ab + a
c.backward()
print('after one pass, a.grad =', a.grad)
c.backward()
print('after two passes, a.grad =', a.grad)  # not 2 * -2: ab.grad doubled too
"""

WITH_ZERO_GRAD = """\
# The same two passes, with every gradient cleared in between.
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
ab = a * b
c = ab + a
c.backward()
for node in [a, b, ab, c]:
    node.grad = 0.0
c.backward()
print('a.grad =', a.grad)
"""

MLP_TRAINING = """\
# A small multi-layer perceptron in the style of micrograd's nn.py, trained for 5 steps.
import random
from micrograd.engine import Value


class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, n_inputs, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(n_inputs)]
        self.b = Value(0.0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    def __init__(self, n_inputs, n_outputs, **kwargs):
        self.neurons = [Neuron(n_inputs, **kwargs) for _ in range(n_outputs)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP(Module):
    def __init__(self, n_inputs, sizes):
        dims = [n_inputs] + sizes
        self.layers = [
            Layer(dims[i], dims[i + 1], nonlin=i != len(sizes) - 1) for i in range(len(sizes))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


random.seed(0)
model = MLP(3, [4, 4, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
for step in range(5):
    preds = [model(x) for x in xs]
    loss = sum((p - y) ** 2 for p, y in zip(preds, ys))
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad
    print(f'step {step}: loss {loss.data:.4f}')
"""

OWN_ENGINE = """\
# A whole autograd engine as a program: this class, not the player's, does the work.
import math


class Value:
    def __init__(self, data, children=(), op='', label=''):
        self.data = data
        self.grad = 0.0
        self.label = label
        self._prev = set(children)  # a set, as in the article: iterated in insertion order
        self._op = op
        self._backward = lambda: None

    def __repr__(self):
        return f'Value({self.label}: data={self.data:.4f}, grad={self.grad:.4f})'

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._prev:
                    visit(child)
                order.append(node)  # after its children: that is the whole trick

        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()
        print([node.label for node in order])


x1 = Value(2.0, label='x1'); x2 = Value(0.0, label='x2')
w1 = Value(-3.0, label='w1'); w2 = Value(1.0, label='w2')
b = Value(6.8813735870195432, label='b')
n = x1 * w1 + x2 * w2 + b; n.label = 'n'
o = n.tanh(); o.label = 'o'
o.backward()
print(x1, w1, x2, w2, b, sep='\\n')
"""

# The same engine with each classic bug written into it (SPEC §14), on a graph where
# each bug shows: `a` feeds `c` and `d`, and `c` (not a leaf) feeds `d` and `e`.
_ENGINE_CLASS = OWN_ENGINE[: OWN_ENGINE.index("x1 = Value(")]
_FORK = """\
a = Value(1.0, label='a')
b = Value(-1.5, label='b')
c = a * b; c.label = 'c'
d = c + a; d.label = 'd'  # a is used twice
e = d * c; e.label = 'e'  # and so is c
o = e.tanh(); o.label = 'o'
o.backward()
print(a, b, sep='\\n')
"""


def _with_bug(comment: str, *changes: tuple[str, str]) -> str:
    # Without the print of the order: CPython orders a set of nodes by address.
    source = _ENGINE_CLASS.replace("        print([node.label for node in order])\n", "")
    for old, new in changes:
        if old not in source:
            raise ValueError(f"the engine has no {old!r} to change")  # an edit gone stale
        source = source.replace(old, new)
    return f"# {comment}\n" + source.split("\n", 1)[1] + _FORK


OWN_ENGINE_FORK = _with_bug("The whole engine, right, on a graph that uses a and c twice.")
BUGGY_ASSIGN = _with_bug(
    "Bug: every rule writes child.grad = … instead of +=. Check your engine.",
    ("self.grad += 1.0 * out.grad", "self.grad = 1.0 * out.grad"),
    ("other.grad += 1.0 * out.grad", "other.grad = 1.0 * out.grad"),
    ("self.grad += other.data * out.grad", "self.grad = other.data * out.grad"),
    ("other.grad += self.data * out.grad", "other.grad = self.data * out.grad"),
    ("self.grad += (1 - t**2) * out.grad", "self.grad = (1 - t**2) * out.grad"),
)
BUGGY_APPEND_FIRST = _with_bug(
    "Bug: the sort appends a node before visiting its children. Check your engine.",
    (
        "                for child in node._prev:\n"
        "                    visit(child)\n"
        "                order.append(node)  # after its children: that is the whole trick\n",
        "                order.append(node)  # before its children: the bug\n"
        "                for child in node._prev:\n"
        "                    visit(child)\n",
    ),
)
BUGGY_NO_SORT = _with_bug(
    "Bug: backward runs each rule as a depth-first walk reaches it, with no sort.",
    # Children in operand order: which path the walk takes first decides the numbers.
    (
        "self._prev = set(children)  # a set, as in the article: iterated in insertion order",
        "self._prev = tuple(children)",
    ),
    (
        "        order, seen = [], set()\n",
        "        order = []\n",
    ),
    (
        "            if node not in seen:\n"
        "                seen.add(node)\n"
        "                for child in node._prev:\n"
        "                    visit(child)\n"
        "                order.append(node)  # after its children: that is the whole trick\n",
        "            node._backward()  # at once, before every consumer has added its share\n"
        "            order.append(node)\n"
        "            for child in node._prev:\n"
        "                visit(child)\n",
    ),
    (
        "        visit(self)\n        self.grad = 1.0\n        for node in reversed(order):\n"
        "            node._backward()\n",
        "        self.grad = 1.0\n        visit(self)\n",
    ),
)
BUGGY_DERIVATIVE = _with_bug(
    "Bug: tanh's rule uses the input where the output belongs. Check your engine.",
    ("self.grad += (1 - t**2) * out.grad", "self.grad += (1 - self.data**2) * out.grad"),
)
