import math
import random
from collections import Counter, deque


class Tensor0:
    """A zero-dimensional tensor: one number, its gradient, the nodes it came from."""

    def __init__(self, data, src=(), op=""):
        self.data = float(data)
        self.grad = 0.0
        self.src = src
        self.op = op
        self._backward = None

    def __add__(self, other):
        other = other if isinstance(other, Tensor0) else Tensor0(other)
        out = Tensor0(self.data + other.data, (self, other), "+")

        def bw():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = bw
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Tensor0) else Tensor0(other)
        out = Tensor0(self.data * other.data, (self, other), "*")

        def bw():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = bw
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def __sub__(self, other):
        return self + other * -1.0

    def tanh(self):
        t = math.tanh(self.data)
        out = Tensor0(t, (self,), "tanh")

        def bw():
            self.grad += (1.0 - t * t) * out.grad

        out._backward = bw
        return out

    def backward(self):
        # Kahn's algorithm: count each node's consumers, then release a node once every
        # consumer has passed its gradient down.
        indegree = Counter()
        seen = {self}
        queue = deque([self])
        while queue:
            v = queue.popleft()
            for s in v.src:
                indegree[s] += 1
                if s not in seen:
                    seen.add(s)
                    queue.append(s)
        self.grad = 1.0
        ready = deque([self])
        processed = 0
        while ready:
            v = ready.popleft()
            processed += 1
            if v._backward is not None:
                v._backward()
            for s in v.src:
                indegree[s] -= 1
                if indegree[s] == 0:
                    ready.append(s)
        return processed


rng = random.Random(2024)
W1 = [[Tensor0(rng.gauss(0, 0.5)) for _ in range(2)] for _ in range(3)]
b1 = [Tensor0(0.0) for _ in range(3)]
W2 = [Tensor0(rng.gauss(0, 0.5)) for _ in range(3)]
b2 = Tensor0(0.0)
params = [p for row in W1 for p in row] + b1 + W2 + [b2]

data = [((rng.uniform(-2, 2), rng.uniform(-2, 2)), None) for _ in range(6)]
data = [(x, 1.0 if x[0] * x[1] > 0 else -1.0) for x, _ in data]


def forward(x):
    h = [(sum((w * xi for w, xi in zip(row, x)), bias)).tanh() for row, bias in zip(W1, b1)]
    return sum((w * hi for w, hi in zip(W2, h)), b2).tanh()


for step in range(11):
    loss = Tensor0(0.0)
    for x, y in data:
        d = forward(x) - y
        loss = loss + d * d
    for p in params:
        p.grad = 0.0
    n = loss.backward()
    for p in params:
        p.data -= 0.1 * p.grad
    print(f"{step:>3} {loss.data:10.6f} ({n} nodes)")
print(Counter(type(p.data).__name__ for p in params), max(abs(p.grad) for p in params))
