"""A character bigram model, as makemore's first lecture trains one, but on a scalar
Value of the learner's own: a table of logits, one row per character, a softmax over the
row of each character, and the mean negative log-likelihood of the next one.

The bug: `log`'s rule adds `1 / x` and forgets the `* out.grad`, so the loss's own
factor (−1/n, from the mean) never reaches the probabilities."""

import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

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

    def __neg__(self):
        return self * -1

    def __pow__(self, k):
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def __truediv__(self, other):
        return self * other**-1

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += 1 / self.data

        out._backward = _backward
        return out

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


words = ["abba", "baab", "cab", "acca", "bac"]
chars = sorted(set("".join(words)))
stoi = {ch: i + 1 for i, ch in enumerate(chars)}
stoi["."] = 0
itos = {i: ch for ch, i in stoi.items()}
V = len(stoi)

random.seed(42)
W = [[Value(random.gauss(0, 1)) for _ in range(V)] for _ in range(V)]
pairs = []
for w in words:
    seq = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(seq, seq[1:]):
        pairs.append((stoi[ch1], stoi[ch2]))
print(len(pairs), "bigrams,", V, "characters")

for step in range(6):
    nll = []
    for ix1, ix2 in pairs:
        counts = [logit.exp() for logit in W[ix1]]
        total = sum(counts)
        prob = counts[ix2] / total
        nll.append(-prob.log())
    loss = sum(nll) * (1 / len(nll))
    for row in W:
        for p in row:
            p.grad = 0.0
    loss.backward()
    for row in W:
        for p in row:
            p.data += -1.0 * p.grad
    print(f"step {step}: loss {loss.data:.4f}")

row = W[stoi["a"]]
counts = [math.exp(p.data) for p in row]
print({itos[i]: round(c / sum(counts), 3) for i, c in enumerate(counts)})
