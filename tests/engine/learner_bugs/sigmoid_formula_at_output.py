# A course's micrograd copy extended with exp and sigmoid. exp's op is written with its
# input in it (`e^0.2`), and sigmoid's rule takes the derivative's formula, e^-x/(1+e^-x)²,
# at the output where the input belongs.
import math


class Value:
    def __init__(self, data, _children=(), _op='', name=''):
        self.data = data
        self.grad = 0
        self.name = name
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

    def exp(self):
        out = Value(math.exp(self.data), (self,), f'e^{self.data}')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def sigmoid(self):
        s = 1. / (1. + math.exp(-self.data))
        out = Value(s, (self,), 'Sigmoid')

        def _backward():
            x = out.data
            self.grad += out.grad * math.exp(-x) / (1. + math.exp(-x)) ** 2
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
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad}, name={self.name})"


x = Value(0.2, name='x')
w = Value(1.5, name='w')
b = Value(-0.4, name='b')
z = x * w + b
y = z.sigmoid() + (x * 0.5).exp()
y.name = 'y'
y.backward()
print(y)
print(x)
print(w)
print(b)
