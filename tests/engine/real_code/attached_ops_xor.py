# A tutorial's engine grown chapter by chapter: the class keeps only + and *, and the
# operations a later chapter needs are written as plain functions of `self` and set on
# the class afterwards. Until they are set, the method is missing.
import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

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

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._prev:
                    visit(child)
                order.append(node)

        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


# Chapter 3's additions, as free functions first.
def squash(self):
    s = 1.0 / (1.0 + math.exp(-self.data))
    out = Value(s, (self,), "sigmoid")

    def _backward():
        self.grad += s * (1.0 - s) * out.grad

    out._backward = _backward
    return out


def negate(self):
    return self * Value(-1.0)


def minus(self, other):
    other = other if isinstance(other, Value) else Value(other)
    return self + negate(other)


def square(self):
    out = Value(self.data * self.data, (self,), "**2")

    def _backward():
        self.grad += 2.0 * self.data * out.grad

    out._backward = _backward
    return out


probe = Value(0.25)
try:
    probe.sigmoid()
except AttributeError as err:
    print("before:", err)
try:
    probe - 1.0
except TypeError as err:
    print("before:", err)

Value.sigmoid = squash
Value.__neg__ = negate
Value.__sub__ = minus
Value.square = square
print("after:", probe.sigmoid(), -probe, (probe - 1.0).data)

random.seed(11)
hidden = [[Value(random.uniform(-1, 1)) for _ in range(3)] for _ in range(3)]  # w, w, b
top = [Value(random.uniform(-1, 1)) for _ in range(4)]  # three weights and a bias
params = [p for row in hidden for p in row] + top
table = [((0.0, 0.0), 0.0), ((0.0, 1.0), 1.0), ((1.0, 0.0), 1.0), ((1.0, 1.0), 0.0)]


def forward(x1, x2):
    h = [(w1 * x1 + w2 * x2 + b).sigmoid() for w1, w2, b in hidden]
    return (top[0] * h[0] + top[1] * h[1] + top[2] * h[2] + top[3]).sigmoid()


for epoch in range(12):
    loss = Value(0.0)
    for (x1, x2), want in table:
        loss = loss + (forward(x1, x2) - want).square()
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data -= 2.0 * p.grad
    if epoch % 4 == 0 or epoch == 11:
        print(f"epoch {epoch:2d} loss {loss.data:.6f}")
print([round(forward(a, b).data, 4) for (a, b), _ in table])
print(max(abs(p.grad) for p in params) > 0, len(loss._prev))
