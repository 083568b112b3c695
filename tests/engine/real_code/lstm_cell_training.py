"""An LSTM cell on a micrograd-style engine, trained to remember the first number of a
sequence until its end: input, forget and output gates (a sigmoid written as
1 / (1 + exp(-x))) and a tanh candidate, their weights in a dict keyed by gate, a cell
state carried beside the hidden state, and SGD with momentum kept per parameter in a
dict keyed by the parameter itself."""

import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __repr__(self):
        return f"Value({self.data:.4f})"

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

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __pow__(self, k):
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self):
        return 1 / (1 + (-self).exp())

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


GATES = "ifog"  # input, forget, output, candidate


class LSTMCell:
    def __init__(self, n_in, n_hid):
        self.n_hid = n_hid
        self.W = {g: [[Value(random.uniform(-0.5, 0.5)) for _ in range(n_in + n_hid)]
                      for _ in range(n_hid)] for g in GATES}
        # a forget bias of 1, as the usual advice goes
        self.b = {g: [Value(1.0 if g == "f" else 0.0) for _ in range(n_hid)] for g in GATES}

    def __call__(self, x, state):
        h, c = state
        xh = x + h
        pre = {g: [sum((w * v for w, v in zip(row, xh)), self.b[g][j])
                   for j, row in enumerate(self.W[g])] for g in GATES}
        i = [z.sigmoid() for z in pre["i"]]
        f = [z.sigmoid() for z in pre["f"]]
        o = [z.sigmoid() for z in pre["o"]]
        g = [z.tanh() for z in pre["g"]]
        c = [fj * cj + ij * gj for fj, cj, ij, gj in zip(f, c, i, g)]
        h = [oj * cj.tanh() for oj, cj in zip(o, c)]
        return h, c

    def parameters(self):
        return [p for g in GATES for row in self.W[g] for p in row] + \
               [p for g in GATES for p in self.b[g]]


random.seed(11)
cell = LSTMCell(1, 2)
readout = [Value(random.uniform(-0.5, 0.5)) for _ in range(2)]
params = cell.parameters() + readout
velocity = {p: 0.0 for p in params}

# the first number of each sequence is the one to recall after two distractors
sequences = [[0.8, -0.3, 0.1], [-0.6, 0.4, -0.2]]

for epoch in range(4):
    loss = Value(0.0)
    for seq in sequences:
        state = ([Value(0.0)] * 2, [Value(0.0)] * 2)
        for x in seq:
            h, c = cell([Value(x)], state)
            state = (h, c)
        y = sum((w * hj for w, hj in zip(readout, h)), Value(0.0))
        loss = loss + (y - seq[0]) ** 2
    loss = loss / len(sequences)

    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        velocity[p] = 0.9 * velocity[p] - 1.5 * p.grad
        p.data += velocity[p]
    print(f"epoch {epoch}: loss {loss.data:.5f}")

print("cell state after the last sequence:", [round(cj.data, 4) for cj in state[1]])
