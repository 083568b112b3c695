# The sort runs each node's rule as it appends the node ("while we are here"), and the
# loop after it runs them all again in the right order: a rule run from the sort runs
# before its node's gradient has arrived, or adds it a second time.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = list(_children)
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

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        self.grad = 1.0
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
                v._backward()
        build_topo(self)
        for v in reversed(topo):
            v._backward()


x = Value(0.5)
w = Value(-1.2)
h = (x * w).exp()
y = h * x + h
y.backward()
print(round(y.data, 6), round(x.grad, 6), round(w.grad, 6), round(h.grad, 6))
