"""A recurrent network trained by backpropagation through time, as courses write it
after micrograd: an Elman cell whose weights are lists of lists of scalar Values, the
hidden state carried from one time step to the next, the loss summed over every step of
a short sequence, then one backward() through the whole unrolled graph, the gradients
clipped by their global norm and an SGD step, for fifteen epochs."""

import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

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

    def __pow__(self, k):
        assert isinstance(k, (int, float))
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

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
                order.append(node)

        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


def dot(ws, xs):
    total = ws[0] * xs[0]
    for w, x in zip(ws[1:], xs[1:]):
        total = total + w * x
    return total


class ElmanRNN:
    def __init__(self, n_in, n_hidden):
        scale = 1 / math.sqrt(n_hidden)
        self.n_hidden = n_hidden
        self.W_xh = [[Value(random.uniform(-scale, scale)) for _ in range(n_in)] for _ in range(n_hidden)]
        self.W_hh = [[Value(random.uniform(-scale, scale)) for _ in range(n_hidden)] for _ in range(n_hidden)]
        self.b_h = [Value(0.0) for _ in range(n_hidden)]
        self.W_hy = [Value(random.uniform(-scale, scale)) for _ in range(n_hidden)]
        self.b_y = Value(0.0)

    def step(self, x, h):
        h_new = [
            (dot(self.W_xh[i], x) + dot(self.W_hh[i], h) + self.b_h[i]).tanh()
            for i in range(self.n_hidden)
        ]
        y = dot(self.W_hy, h_new) + self.b_y
        return y, h_new

    def parameters(self):
        rows = self.W_xh + self.W_hh
        return [w for row in rows for w in row] + self.b_h + self.W_hy + [self.b_y]


def clip_by_global_norm(params, max_norm):
    norm = math.sqrt(sum(p.grad**2 for p in params))
    if norm > max_norm:
        for p in params:
            p.grad *= max_norm / norm
    return norm


random.seed(7)
# predict the next sample of a sampled sine wave from the current one
wave = [math.sin(0.6 * t) for t in range(7)]
inputs, targets = wave[:-1], wave[1:]

rnn = ElmanRNN(1, 3)
params = rnn.parameters()
print(f"{len(params)} parameters")

learning_rate = 0.5
for epoch in range(15):
    h = [Value(0.0) for _ in range(rnn.n_hidden)]
    loss = Value(0.0)
    for x_t, y_t in zip(inputs, targets):
        pred, h = rnn.step([Value(x_t)], h)
        loss = loss + (pred - y_t) ** 2
    loss = loss * (1 / len(inputs))

    for p in params:
        p.grad = 0.0
    loss.backward()
    norm = clip_by_global_norm(params, 1.0)
    for p in params:
        p.data -= learning_rate * p.grad
    print(f"epoch {epoch:2d}  loss {loss.data:.6f}  grad norm {norm:.4f}")

# run the trained cell over the sequence once more, without training
h = [Value(0.0) for _ in range(rnn.n_hidden)]
for x_t, y_t in zip(inputs, targets):
    pred, h = rnn.step([Value(x_t)], h)
    print(f"x={x_t:+.3f}  target={y_t:+.3f}  prediction={pred.data:+.3f}")
