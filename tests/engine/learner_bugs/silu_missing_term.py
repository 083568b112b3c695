# SiLU (swish), x * sigmoid(x), as one op; its rule passes sigmoid(x) alone and forgets
# the product rule's second term, x * s * (1 - s).
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def silu(self):
        s = 1 / (1 + math.exp(-self.data))
        out = Value(self.data * s, (self,), 'silu')

        def _backward():
            self.grad += s * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

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


ws = [Value(0.4), Value(-0.7)]
xs = [1.0, 2.0]
h = sum(w * x for w, x in zip(ws, xs)).silu()
y = 3 * h
y.backward()
print([round(w.grad, 6) for w in ws], round(h.data, 6))
