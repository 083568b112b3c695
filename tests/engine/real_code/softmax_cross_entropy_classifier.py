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

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, other):
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

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

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()


def softmax(logits):
    m = max(l.data for l in logits)  # a plain number: subtracting it keeps exp() finite
    exps = [(l - m).exp() for l in logits]
    total = sum(exps)
    return [e / total for e in exps]


def cross_entropy(logits, target):
    return -softmax(logits)[target].log()


random.seed(11)
n_classes, n_features = 3, 2
W = [[Value(random.gauss(0, 0.3)) for _ in range(n_features)] for _ in range(n_classes)]
b = [Value(0.0) for _ in range(n_classes)]
params = [w for row in W for w in row] + b

centers = [(1.0, 1.0), (-1.0, 0.5), (0.0, -1.2)]
samples = []
for c, (cx, cy) in enumerate(centers):
    for _ in range(3):
        samples.append(((cx + random.gauss(0, 0.3), cy + random.gauss(0, 0.3)), c))
random.shuffle(samples)

for epoch in range(10):
    losses = []
    correct = 0
    for x, y in samples:
        logits = [sum((wi * xi for wi, xi in zip(row, x)), bias) for row, bias in zip(W, b)]
        losses.append(cross_entropy(logits, y))
        correct += max(range(n_classes), key=lambda k: logits[k].data) == y
    loss = sum(losses) / len(losses)
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data -= 0.5 * p.grad
    print(f"epoch {epoch}: loss={loss.data:.6f} acc={correct}/{len(samples)}")

probs = softmax([Value(1000.0), Value(999.0), Value(-5.0)])
print([round(p.data, 12) for p in probs])
