"""`__slots__`, a global counter for ids, and each op's backward rule a module-level
function bound to its node with functools.partial; `**` keeps its exponent in the op's
name and the rule reads it back from there."""

import functools
import math


def do_nothing():
    pass


def backward_add(out, self, other):
    self.grad += out.grad
    other.grad += out.grad


def backward_mul(out, self, other):
    self.grad += other.data * out.grad
    other.grad += self.data * out.grad


def backward_pow(out, self):
    other = float(out._op[2:])
    self.grad += (other * self.data ** (other - 1)) * out.grad


def backward_exp(out, self):
    self.grad += out.data * out.grad


counter = 0


class Value:
    __slots__ = ("data", "grad", "_backward", "_prev", "_op", "_id")

    def __init__(self, data, _children=(), _op=""):
        global counter
        self.data = data
        self.grad = 0
        self._backward = do_nothing
        self._prev = tuple(_children)
        self._op = _op
        counter += 1
        self._id = counter

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")
        out._backward = functools.partial(backward_add, out, self, other)
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")
        out._backward = functools.partial(backward_mul, out, self, other)
        return out

    def __pow__(self, other):
        out = Value(self.data ** other, (self,), f"**{other}")
        out._backward = functools.partial(backward_pow, out, self)
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), "exp")
        out._backward = functools.partial(backward_exp, out, self)
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def backward(self):
        topo, visited = [], set()
        stack = [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif v._id not in visited:
                visited.add(v._id)
                stack.append((v, True))
                stack.extend((c, False) for c in v._prev)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __repr__(self):
        return f"Value#{self._id}(data={self.data:.4f}, grad={self.grad:.4f})"


x = Value(1.5)
y = Value(-0.5)
s = (1 + (-(x * 2 + y)).exp()) ** -1  # a sigmoid from primitives
loss = (s - 1.0) ** 2 + (x * y) ** 2 / 4
loss.backward()
print(loss)
print(x, y)
print(counter, "values made")
