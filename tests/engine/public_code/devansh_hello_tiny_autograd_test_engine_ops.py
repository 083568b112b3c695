import math


class Value:
    """A single number that remembers how it was computed."""

    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
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
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only support int or float powers"
        out = Value(self.data ** other, (self,), f"**{other}")

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __radd__(self, other):
        return self + other

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __rtruediv__(self, other):
        return other * self ** -1

    def relu(self):
        out = Value(0.0 if self.data < 0 else self.data, (self,), "relu")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build(node):
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    build(child)
                topo.append(node)

        build(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

import math



def test_add_grad():
    a = Value(2.0)
    b = Value(5.0)
    out = a + b
    out.backward()
    assert a.grad == 1.0
    assert b.grad == 1.0


def test_mul_grad():
    a = Value(2.0)
    b = Value(5.0)
    out = a * b
    out.backward()
    assert a.grad == 5.0
    assert b.grad == 2.0


def test_pow_grad():
    a = Value(3.0)
    out = a ** 3
    out.backward()
    assert a.grad == 3 * 3.0 ** 2


def test_div_grad():
    a = Value(6.0)
    b = Value(2.0)
    out = a / b
    out.backward()
    assert a.grad == 1 / 2.0
    assert b.grad == -6.0 / 2.0 ** 2


def test_relu_grad_positive():
    a = Value(4.0)
    out = a.relu()
    out.backward()
    assert out.data == 4.0
    assert a.grad == 1.0


def test_relu_grad_negative():
    a = Value(-4.0)
    out = a.relu()
    out.backward()
    assert out.data == 0.0
    assert a.grad == 0.0


def test_tanh_grad():
    a = Value(0.7)
    out = a.tanh()
    out.backward()
    assert a.grad == 1 - math.tanh(0.7) ** 2


def test_exp_grad():
    a = Value(1.5)
    out = a.exp()
    out.backward()
    assert a.grad == math.exp(1.5)


def test_log_grad():
    a = Value(2.0)
    out = a.log()
    out.backward()
    assert a.grad == 1 / 2.0

test_add_grad()
test_mul_grad()
test_pow_grad()
test_div_grad()
test_relu_grad_positive()
test_relu_grad_negative()
test_tanh_grad()
test_exp_grad()
test_log_grad()
