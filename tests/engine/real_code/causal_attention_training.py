"""One head of causal self-attention on scalar Values, trained to predict the next
token of a short repeating sequence, as "attention from scratch" lessons write it on
top of a micrograd engine: token and position embeddings as lists of Values, query,
key and value projections, scores scaled by 1/sqrt(d), a causal mask that leaves the
future out of each softmax, a residual connection, a linear head, cross-entropy through
a log-sum-exp, and Adam with bias correction."""

import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

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

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

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

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return self * other.reciprocal()

    def reciprocal(self):
        out = Value(1 / self.data, (self,), "1/x")

        def _backward():
            self.grad += -(1 / self.data**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def matrix(rows, cols, std=0.5):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


def linear(W, x):
    # W has one row per output, x is a list of Values
    return [sum((w * xi for w, xi in zip(row, x)), Value(0.0)) for row in W]


def softmax(logits):
    m = max(l.data for l in logits)  # a plain float: shifting changes no gradient
    exps = [(l - m).exp() for l in logits]
    total = sum(exps, Value(0.0))
    return [e / total for e in exps]


def cross_entropy(logits, target):
    m = max(l.data for l in logits)
    lse = sum(((l - m).exp() for l in logits), Value(0.0)).log() + m
    return lse - logits[target]


random.seed(3)
vocab = ["a", "b", "c"]
text = "abcabcab"
ids = [vocab.index(ch) for ch in text]
n_embd, block = 4, 4

tok_emb = matrix(len(vocab), n_embd)
pos_emb = matrix(block, n_embd)
Wq, Wk, Wv = matrix(n_embd, n_embd), matrix(n_embd, n_embd), matrix(n_embd, n_embd)
W_out = matrix(len(vocab), n_embd)
params = [p for M in (tok_emb, pos_emb, Wq, Wk, Wv, W_out) for row in M for p in row]
print("parameters:", len(params))


def forward(context):
    xs = [[t + p for t, p in zip(tok_emb[i], pos_emb[pos])] for pos, i in enumerate(context)]
    qs = [linear(Wq, x) for x in xs]
    ks = [linear(Wk, x) for x in xs]
    vs = [linear(Wv, x) for x in xs]
    scale = 1 / math.sqrt(n_embd)
    logits_per_pos = []
    for t in range(len(xs)):
        # causal: position t attends to positions 0..t only
        scores = [sum((a * b for a, b in zip(qs[t], ks[s])), Value(0.0)) * scale for s in range(t + 1)]
        weights = softmax(scores)
        attended = [sum((w * vs[s][j] for s, w in enumerate(weights)), Value(0.0)) for j in range(n_embd)]
        h = [x + a for x, a in zip(xs[t], attended)]  # residual
        logits_per_pos.append(linear(W_out, h))
    return logits_per_pos


lr, beta1, beta2, eps = 0.05, 0.9, 0.99, 1e-8
m_buf = [0.0] * len(params)
v_buf = [0.0] * len(params)
for step in range(1, 5):
    start = (step - 1) % (len(ids) - block)
    context = ids[start : start + block]
    targets = ids[start + 1 : start + block + 1]
    logits_per_pos = forward(context)
    losses = [cross_entropy(lg, tg) for lg, tg in zip(logits_per_pos, targets)]
    loss = sum(losses, Value(0.0)) * (1 / len(losses))

    for p in params:
        p.grad = 0.0
    loss.backward()
    for i, p in enumerate(params):
        m_buf[i] = beta1 * m_buf[i] + (1 - beta1) * p.grad
        v_buf[i] = beta2 * v_buf[i] + (1 - beta2) * p.grad**2
        m_hat = m_buf[i] / (1 - beta1**step)
        v_hat = v_buf[i] / (1 - beta2**step)
        p.data -= lr * m_hat / (math.sqrt(v_hat) + eps)
    print(f"step {step}: context {''.join(vocab[i] for i in context)!r} loss {loss.data:.4f}")

last = forward(ids[:block])[-1]
probs = softmax(last)
print("after 'abca':", {ch: round(p.data, 3) for ch, p in zip(vocab, probs)})
