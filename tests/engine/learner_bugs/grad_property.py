# A right engine whose gradient is a property: the setter checks the number and keeps
# it in `_grad`; every rule still writes `x.grad += …`, which reads, adds, and sets.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self._grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value):
        if math.isnan(value):
            raise ValueError("gradient is nan")
        self._grad = value

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

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t ** 2) * out.grad
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


x, w = Value(0.7), Value(-1.1)
h = (x * w).tanh()
y = h * x + h * h
y.backward()
print(y.data, x.grad, w.grad)
