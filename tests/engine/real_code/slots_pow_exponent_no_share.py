# Fitting y = a * x**p with a learned exponent p, on a `__slots__` Value.
# Two slips: `__pow__` wraps its exponent in a Value and lists it as an operand, but
# its rule only passes the base's share (p's gradient stays 0, so p never moves); and
# with no `__radd__`, `sum()` of the errors fails (its start, 0, is an int), so the
# loss is added up with functools.reduce instead.
import functools
import math
import operator


class Value:
    __slots__ = ("data", "grad", "_backward", "_prev", "_op")

    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
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
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data**other.data, (self, other), "**")

        def _backward():
            self.grad += other.data * self.data ** (other.data - 1) * out.grad

        out._backward = _backward
        return out

    def __sub__(self, other):
        return self + other * -1.0

    def backward(self):
        topo = []
        seen = set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    visit(c)
                topo.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a = Value(1.0)
p = Value(1.5)
points = [(1.0, 2.0), (2.0, 8.0), (3.0, 18.0)]
for step in range(3):
    errors = [(a * Value(x) ** p - y) ** 2.0 for x, y in points]
    try:
        loss = sum(errors)
    except TypeError as e:
        print("sum failed:", e)
        loss = functools.reduce(operator.add, errors)
    a.grad = p.grad = 0.0
    loss.backward()
    print(step, round(loss.data, 6), round(a.grad, 6), p.grad)
    a.data -= 0.01 * a.grad
    p.data -= 0.01 * p.grad
print("a", round(a.data, 6), "p", p.data, "log 2", round(math.log(2), 6))
