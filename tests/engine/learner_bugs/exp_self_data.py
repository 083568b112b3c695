# An engine on `value` and `_children`; exp's rule multiplies by the input, not by e^x.
import math


class Value:
    def __init__(self, value, _children=(), _op=''):
        self.value = value
        self.grad = 0.0
        self._children = _children
        self._op = _op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.value + other.value, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.value * other.value, (self, other), '*')

        def _backward():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad
        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def exp(self):
        out = Value(math.exp(self.value), (self,), 'exp')

        def _backward():
            self.grad += self.value * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()


x = Value(0.3)
y = 2 * x.exp() + x * x
y.backward()
print("%.12f %.12f" % (y.value, x.grad))
