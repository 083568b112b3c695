"""Forward mode beside reverse mode, as autodiff courses teach them: a `Dual` number
(value and tangent) gives one directional derivative a run, a micrograd-style `Value`
gives every gradient in one backward pass, and the program checks the two agree."""

import math


class Dual:
    def __init__(self, val, eps=0.0):
        self.val = val
        self.eps = eps

    def __add__(self, other):
        other = other if isinstance(other, Dual) else Dual(other)
        return Dual(self.val + other.val, self.eps + other.eps)

    __radd__ = __add__

    def __mul__(self, other):
        other = other if isinstance(other, Dual) else Dual(other)
        return Dual(self.val * other.val, self.val * other.eps + self.eps * other.val)

    __rmul__ = __mul__

    def __sub__(self, other):
        return self + (-1) * other

    def exp(self):
        e = math.exp(self.val)
        return Dual(e, e * self.eps)

    def tanh(self):
        t = math.tanh(self.val)
        return Dual(t, (1 - t * t) * self.eps)

    def __repr__(self):
        return f"Dual({self.val:.6f}, {self.eps:.6f})"


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

    __radd__ = __add__

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __rmul__ = __mul__

    def __sub__(self, other):
        return self + (-1) * other

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    visit(c)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()


def f(x, y, z):
    # the same code runs on Duals and on Values
    return (x * y + z).tanh() * 2 + (x * 0.5).exp() - y * z


point = {"x": 0.3, "y": -1.2, "z": 0.8}

# forward mode: one run per input, its tangent set to 1
forward = {}
for name in point:
    args = {k: Dual(v, 1.0 if k == name else 0.0) for k, v in point.items()}
    out = f(**args)
    forward[name] = out.eps
    print(f"d f / d {name} (forward mode): {out!r}")

# reverse mode: one backward pass gives all three
leaves = {k: Value(v) for k, v in point.items()}
out = f(**leaves)
out.backward()
for name, leaf in leaves.items():
    agree = math.isclose(leaf.grad, forward[name], rel_tol=1e-12)
    print(f"d f / d {name} (reverse mode): {leaf.grad:.6f}  agree: {agree}")
print(f"f = {out.data:.6f}")
