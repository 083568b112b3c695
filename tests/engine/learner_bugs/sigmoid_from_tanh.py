# A right engine with a sigmoid of its own, worked out from tanh: sigmoid(x) is
# (1 + tanh(x/2)) / 2, whose derivative (1 − tanh²(x/2)) / 4 equals s·(1 − s).
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
            self.grad += out.grad
            other.grad += out.grad
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

    def sigmoid(self):
        t = math.tanh(self.data / 2)
        out = Value((1 + t) / 2, (self,), 'sigmoid')

        def _backward():
            self.grad += (1 - t * t) / 4 * out.grad
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


x, w, b = Value(1.5), Value(-0.8), Value(0.3)
p = (x * w + b).sigmoid()
loss = p * p + p * -2.0
loss.backward()
print(p.data, x.grad, w.grad, b.grad)
