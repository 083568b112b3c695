# `2 ** x` through __rpow__; its rule passes base**x * out.grad, the log of the base
# forgotten: d/dx b**x = b**x * ln(b).
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

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __rpow__(self, base):
        out = Value(base ** self.data, (self,), f'{base}**')

        def _backward():
            self.grad += base ** self.data * out.grad
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


x = Value(1.5)
k = Value(-0.5)
y = 2 ** (x * k) + x
y.backward()
print(f"y={y.data:.6f} dx={x.grad:.6f} dk={k.grad:.6f}", math.log(2) > 0)
