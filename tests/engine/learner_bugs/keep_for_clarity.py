# A right engine with one line too many: mul's rule stores self.grad back as it is
# ("for clarity"), which writes nothing; x is used twice, in x * x and in x * w.
import math


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            self.grad = self.grad  # clearer
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    visit(child)
                topo.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


x = Value(0.5)
w = Value(-1.5)
y = (x * x + x * w).tanh()
y.backward()
print(f"{y.data:.6f} {x.grad:.6f} {w.grad:.6f}")
