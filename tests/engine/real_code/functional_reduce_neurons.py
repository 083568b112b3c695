"""A neural net in functional style: neurons are closures over their weights, layers
are lists of neurons, the forward pass folds with functools.reduce."""
import functools
import math
import operator
import random


class V:
    def __init__(self, data, children=(), op=""):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(children)
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, V) else V(other)
        out = V(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, V) else V(other)
        out = V(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def __sub__(self, other):
        return self + (-1.0) * other

    def relu(self):
        out = V(max(0.0, self.data), (self,), "relu")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def go(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    go(c)
                topo.append(v)

        go(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def make_neuron(n_in, rng, nonlin=True):
    ws = [V(rng.uniform(-1, 1)) for _ in range(n_in)]
    b = V(0.0)

    def neuron(xs):
        act = functools.reduce(operator.add, map(operator.mul, ws, xs), b)
        return act.relu() if nonlin else act

    neuron.params = ws + [b]
    return neuron


def make_layer(n_in, n_out, rng, nonlin=True):
    neurons = [make_neuron(n_in, rng, nonlin) for _ in range(n_out)]
    return lambda xs: [n(xs) for n in neurons], [p for n in neurons for p in n.params]


def compose(*fns):
    return lambda x: functools.reduce(lambda acc, f: f(acc), fns, x)


rng = random.Random(42)
l1, p1 = make_layer(2, 4, rng)
l2, p2 = make_layer(4, 4, rng)
l3, p3 = make_layer(4, 1, rng, nonlin=False)
net = compose(l1, l2, l3, operator.itemgetter(0))
params = p1 + p2 + p3

xs = [(0.5, -1.0), (1.5, 0.25), (-0.75, 0.5), (-1.25, -1.5), (0.1, 0.9)]
ys = [1.0, -1.0, 0.5, -0.5, 1.0]
for step in range(8):
    preds = list(map(net, xs))
    loss = functools.reduce(operator.add, ((p - y) * (p - y) for p, y in zip(preds, ys)))
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data += -0.02 * p.grad
    print(step, round(loss.data, 10))
print(len(params), sum(p.grad for p in params))
print([f"{p.data:.5f}" for p in p3])
