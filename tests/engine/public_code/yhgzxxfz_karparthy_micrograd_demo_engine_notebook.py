import math
import typing as tp


class Value:
    def __init__(self, data, label="", _children: tp.Tuple = (), _op: str = "") -> None:
        self.label = label
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, _children=(self, other), _op="+")

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, _children=(self, other), _op="*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), _children=(self,), _op="exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "Only supports int or float."

        out = Value(self.data**other, _children=(self,), _op=f"**{other}")

        def _backward():
            self.grad = (other * self.data ** (other - 1)) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):  # -self
        return self * -1

    def __radd__(self, other):  # other + self
        return self + other

    def __sub__(self, other):  # self - other
        return self + (-other)

    def __rsub__(self, other):  # other - self
        return other + (-self)

    def __rmul__(self, other):  # other * self
        return self * other

    def __truediv__(self, other):  # self / other
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        return other * self**-1

    def tanh(self):
        data = (math.exp(2 * self.data) - 1) / (math.exp(2 * self.data) + 1)
        out = Value(data, _children=(self,), _op="tanh")

        def _backward():
            self.grad += (1 - data**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def topo_sort(node):
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    topo_sort(child)
                topo.append(node)

        topo_sort(self)

        self.grad = 1.0
        for n in reversed(topo):
            n._backward()

import math

# df/dx = lim_h->0 (f(x+h) - f(x) / h)
h = 0.00001

a, b, c = 2.0, -3.0, 15.0
d1 = a * b + c
c += h
d2 = a * b + c
print(f"d1: {d1}")
print(f"d2: {d2}")
print(f"slope: {(d2-d1)/h}")


a = Value(3.0, label="a")
b = Value(2.0, label="b")
c = a * b
c.label = "c"

d = Value(1.0, label="d")
e = c + d
e.label = "e"
f = Value(-2.0, label="f")
L = e * f
L.label = "L"

# dL/dL = 1
L.grad = 1.0

# dL/de = f, dL/df = e
e.grad = f.data
f.grad = e.data

# dL/dc = (dL/de) * (de/dc)
c.grad = e.grad
d.grad = e.grad

# dL/da = (dL/dc) * (dc/da)
a.grad = c.grad * b.data
b.grad = c.grad * a.data


# inputs x1,x2
x1 = Value(2.0, label="x1")
x2 = Value(0.0, label="x2")
# weights w1,w2
w1 = Value(-3.0, label="w1")
w2 = Value(1.0, label="w2")
# bias of the neuron
b = Value(6.8813735870195432, label="b")
# x1*w1 + x2*w2 + b
x1w1 = x1 * w1
x1w1.label = "x1*w1"
x2w2 = x2 * w2
x2w2.label = "x2*w2"
x1w1x2w2 = x1w1 + x2w2
x1w1x2w2.label = "x1*w1 + x2*w2"
n = x1w1x2w2 + b
n.label = "n"
o = n.tanh()
o.label = "o"

# Manual Backpropagation
o.grad = 1.0
n.grad = 1 - o.data**2
b.grad = n.grad
x1w1x2w2.grad = n.grad

x1w1.grad = x1w1x2w2.grad
x2w2.grad = x1w1x2w2.grad

x1.grad = w1.data * x1w1.grad
w1.grad = x1.data * x1w1.grad
x2.grad = w2.data * x2w2.grad
w2.grad = x2.data * x2w2.grad

# Semi-manual Backpropagation
o.grad = 1.0
o._backward()
n._backward()
x1w1x2w2._backward()
x1w1._backward()
x2w2._backward()

# Auto Backpropagation
o.backward()

# Another example where each node is used more than once
x = Value(3.0, label="x")
y = Value(2.0, label="y")
z1 = x + y
z2 = x * y
z = z1 + z2

z.backward()

# Division

x = Value(3.0) / Value(2.0)
x.backward()

# Break down Tanh

# inputs x1,x2
x1 = Value(2.0, label="x1")
x2 = Value(0.0, label="x2")
# weights w1,w2
w1 = Value(-3.0, label="w1")
w2 = Value(1.0, label="w2")
# bias of the neuron
b = Value(6.8813735870195432, label="b")
# x1*w1 + x2*w2 + b
x1w1 = x1 * w1
x1w1.label = "x1*w1"
x2w2 = x2 * w2
x2w2.label = "x2*w2"
x1w1x2w2 = x1w1 + x2w2
x1w1x2w2.label = "x1*w1 + x2*w2"
n = x1w1x2w2 + b
n.label = "n"
e = (2 * n).exp()
o = (e - 1) / (e + 1)
o.label = "o"

o.backward()
