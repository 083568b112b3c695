# grad kept behind a property; tanh's rule takes tanh of the output again:
# 1 - math.tanh(out.data)**2 where out.data already is tanh(x).
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self._data = data
        self._grad = 0.0
        self._prev = _children
        self._op = _op
        self._backward = lambda: None

    @property
    def data(self):
        return self._data

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value):
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
        out = Value(math.tanh(self.data), (self,), 'tanh')

        def _backward():
            self.grad += (1 - math.tanh(out.data) ** 2) * out.grad
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


x = Value(0.8)
w = Value(1.5)
h = (x * w).tanh()
y = h * 2.0 + x
y.backward()
print("%.10f %.10f %.10f" % (y.data, x.grad, w.grad))
