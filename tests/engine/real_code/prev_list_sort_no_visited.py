# A learner's Value keeps its operands in a list (so `e * e` lists e twice) and sorts
# them with no visited set: a node reached along two paths, or listed twice, is put in
# the order twice, and its rule runs twice.
import math


class Value:
    def __init__(self, data, _children=[], _op=''):
        self.data = data
        self.grad = 0
        self._prev = list(_children)
        self._op = _op
        self._backward = lambda: None

    def __repr__(self):
        return f"Value({self.data:.4f}, grad={self.grad:.4f})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, [self, other], '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, [self, other], '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __sub__(self, other):
        return self + other * -1

    def exp(self):
        out = Value(math.exp(self.data), [self], 'exp')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []

        def build_topo(v):
            for child in v._prev:
                build_topo(child)
            topo.append(v)
        build_topo(self)
        self.grad = 1
        for node in reversed(topo):
            node._backward()


w = Value(0.4)
b = Value(-0.2)
x = Value(1.5)
z = w * x + b
s = z.exp()
e = s - 2.0
loss = e * e
loss.backward()
print(loss)
print("w", w, "b", b)
print("x", x)
