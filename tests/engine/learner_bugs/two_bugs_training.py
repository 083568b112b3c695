# Two bugs at once, in a training loop with zero_grad: add's rule writes with `=`, and
# tanh's rule uses 1 - t.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad = out.grad
            other.grad = out.grad
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
            self.grad += (1 - t) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

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


w = Value(0.4)
b = Value(-0.1)
data = [(1.0, 0.5), (-2.0, -0.8)]
for step in range(2):
    loss = Value(0.0)
    for x, y in data:
        p = (w * x + b).tanh()
        d = p + Value(-y)
        loss = loss + d * d
    w.grad = 0.0
    b.grad = 0.0
    loss.backward()
    w.data -= 0.1 * w.grad
    b.data -= 0.1 * b.grad
    print(step, f"{loss.data:.10f}", f"{w.grad:.10f}", f"{b.grad:.10f}")
