from enum import Enum
import math

class Scalar:
    class Operator(Enum):
        ADD = "+"
        MUL = "*"
        POW = "**"
        RELU = "ReLU"

    def __init__(self, data, _op=None, _children=()):
        self.data = data
        self.grad = 0
        self._op = _op
        self._children = set(_children)

        def _backward():
            pass
        self._backward = _backward

    def __repr__(self):
        return f"Scalar(data={self.data})"
    
    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, _op=Scalar.Operator.ADD, _children=(self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    
    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, _op=Scalar.Operator.MUL, _children=(self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    
    def __pow__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data ** other.data, _op=Scalar.Operator.POW, _children=(self, other))
        def _backward():
            if self.data > 0:
                self.grad += (other.data) * (self.data ** (other.data - 1)) * out.grad
                other.grad += (self.data ** other.data) * (math.log(self.data)) * out.grad
            else:
                # TODO: An opportunity to leverage complex analysis.
                self.grad += (other.data) * (self.data ** (other.data - 1)) * out.grad
        out._backward = _backward
        return out
    
    def relu(self):
        out = Scalar(0 if self.data < 0 else self.data, _op=Scalar.Operator.RELU, _children=(self,))
        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        return out
    
    def backward(self):
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        for node in reversed(topo):
            node._backward()
    
    def __radd__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return other + self
    
    def __rmul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return other * self
    
    def __sub__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return self + (-other)
    
    def __rsub__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return other + (-self)
    
    def __rpow__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return other ** self
    
    def __truediv__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return self * (other ** (-1))
    
    def __rtruediv__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        return other * (self ** (-1))
    
    def __neg__(self):
        return self * -1

import math
import unittest

class EngineTest(unittest.TestCase):
    def test_creation(self):
        x = Scalar(10)
        self.assertEqual(x.data, 10)
        self.assertEqual(x.grad, 0)
    
    def test_add(self):
        a = Scalar(10)
        b = Scalar(20)

        c = a + b
        self.assertEqual(c.data, 30)
        self.assertEqual(c.grad, 0)

        c.backward()
        self.assertEqual(c.grad, 1)
        self.assertEqual(a.grad, 1)
        self.assertEqual(b.grad, 1)

    def test_mul(self):
        a = Scalar(10)
        b = Scalar(20)

        c = a * b
        self.assertEqual(c.data, 200)
        self.assertEqual(c.grad, 0)

        c.backward()
        self.assertEqual(c.grad, 1)
        self.assertEqual(a.grad, 20)
        self.assertEqual(b.grad, 10)

    
    def test_mul_square(self):
        a = Scalar(10)

        b = a * a
        self.assertEqual(b.data, 100)
        self.assertEqual(b.grad, 0)

        b.backward()
        self.assertEqual(b.grad, 1)
        self.assertEqual(a.grad, 20)

    def test_sub(self):
        a = Scalar(10)
        b = Scalar(20)

        c = a - b
        self.assertEqual(c.data, -10)
        self.assertEqual(c.grad, 0)

        c.backward()
        self.assertEqual(c.grad, 1)
        self.assertEqual(a.grad, 1)
        self.assertEqual(b.grad, -1)
    
    def test_pow(self):
        a = Scalar(2)
        b = Scalar(3)

        c = a ** b
        self.assertEqual(c.data, 8)
        self.assertEqual(c.grad, 0)

        c.backward()
        self.assertEqual(c.grad, 1)
        self.assertEqual(a.grad, 12)
        self.assertEqual(b.grad, 8 * math.log(2))

    def test_rtruediv(self):
        a = Scalar(2)

        b = 4 / a
        self.assertEqual(b.data, 2)
        self.assertEqual(b.grad, 0)

        b.backward()
        self.assertEqual(b.grad, 1)
        self.assertEqual(a.grad, -1)

    def test_relu(self):
        a = Scalar(1)
        b = Scalar(-1)
        c = Scalar(0)

        a1 = a.relu()
        self.assertEqual(a1.data, 1)
        b1 = b.relu()
        self.assertEqual(b1.data, 0)
        c1 = c.relu()
        self.assertEqual(c1.data, 0)

        a1.backward()
        self.assertEqual(a.grad, 1)
        b1.backward()
        self.assertEqual(b.grad, 0)
        c1.backward()
        self.assertEqual(c.grad, 0)

    def test_karpathy(self):
        a = Scalar(-4.0)
        b = Scalar(2.0)
        c = a + b
        d = a * b + b**3
        c += c + 1
        c += 1 + c + (-a)
        d += d * 2 + (b + a).relu()
        d += 3 * d + (b - a).relu()
        e = c - d
        f = e**2
        g = f / 2.0
        g += 10.0 / f
        self.assertAlmostEqual(g.data, 24.7041, places=3)

        g.backward()
        self.assertAlmostEqual(a.grad, 138.8338, places=3)
        self.assertAlmostEqual(b.grad, 645.5773, places=3)

EngineTest().test_creation()
EngineTest().test_add()
EngineTest().test_mul()
EngineTest().test_mul_square()
EngineTest().test_sub()
EngineTest().test_pow()
EngineTest().test_rtruediv()
EngineTest().test_relu()
EngineTest().test_karpathy()
