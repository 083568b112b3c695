# The gradient kept as `_grad` (no property), every rule `self._grad += …`; tanh's rule
# uses 1 - t. The `+=` are the learner's own: nothing is overwritten.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self._grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self._grad += out._grad
            other._grad += out._grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self._grad += out._grad * other.data
            other._grad += out._grad * self.data
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self._grad += (1 - t) * out._grad
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
        self._grad = 1.0
        for v in reversed(topo):
            v._backward()


x = Value(0.5)
w = Value(-1.5)
h = (x * w).tanh()
y = h * x + h
y.backward()
print(x._grad, w._grad, h._grad)
