# A learner's engine: __sub__ has its own rule, and the subtrahend's sign is wrong.
import math


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

    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad  # should be -= : d(a-b)/db = -1

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
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

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


w = Value(0.4)
b = Value(-0.1)
data = [(1.0, 2.0), (2.0, 3.5), (-1.0, -0.5)]
for step in range(3):
    loss = Value(0.0)
    for x, y in data:
        err = Value(y) - (w * x + b).exp()
        loss = loss + err * err
    w.grad = 0.0
    b.grad = 0.0
    loss.backward()
    print(f"step {step}: loss={loss.data:.6f} w.grad={w.grad:.6f} b.grad={b.grad:.6f}")
    w.data -= 0.01 * w.grad
    b.data -= 0.01 * b.grad
