# Each rule adds through a temporary (`g = self.grad + …; self.grad = g`), which
# accumulates all the same; exp's rule uses the input, not the output.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            g = self.grad + out.grad
            self.grad = g
            g = other.grad + out.grad
            other.grad = g
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            g = self.grad + other.data * out.grad
            self.grad = g
            g = other.grad + self.data * out.grad
            other.grad = g
        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            g = self.grad + self.data * out.grad
            self.grad = g
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


a = Value(0.4)
b = Value(2.0)
e = (a * b).exp()
f = e * a + a
f.backward()
print(a.grad, b.grad)
