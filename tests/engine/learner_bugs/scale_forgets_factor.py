# `scale(k)` multiplies by a number it keeps nowhere, and its rule forgets k.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def scale(self, k):
        out = Value(self.data * k, (self,), '*')
        def _backward():
            self.grad += out.grad   # bug: forgot the factor k
        out._backward = _backward
        return out
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
a = Value(2.0); b = Value(-3.0)
d = a.scale(3.0) + b


a = Value(2.0)
b = Value(-3.0)
d = a.scale(3.0) + b
d.backward()
print(a.grad, b.grad)
