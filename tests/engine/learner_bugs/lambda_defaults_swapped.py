# Rules as lambdas with default arguments; mul's lambda gives each operand its own data.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def _acc(self, g):
        self.grad += g

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')
        out._backward = lambda a=self, b=other, o=out: (a._acc(o.grad), b._acc(o.grad))
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')
        out._backward = lambda a=self, b=other, o=out: (
            a._acc(a.data * o.grad), b._acc(b.data * o.grad))
        return out

    def tanh(self):
        out = Value(math.tanh(self.data), (self,), 'tanh')
        out._backward = lambda a=self, o=out: a._acc((1 - o.data ** 2) * o.grad)
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


x = Value(0.5)
w = Value(2.0)
y = (x * w).tanh() + x
y.backward()
print(x.grad, w.grad)
