# Ops as methods named for them (x.add(y), x.mul(y), x.pow(k)), as a tutorial writes
# them before it reaches the dunders; the class keeps no op. pow takes a Value exponent,
# and its rule for the exponent forgets the log of the base: d(x**k)/dk = x**k · ln x.
import math


class Value:
    def __init__(self, data, parents=None):
        self.data = data
        self.grad = 0.0
        self.parents = parents if parents is not None else []
        self._backward = lambda: None

    def add(self, other):
        out = Value(self.data + other.data, [self, other])

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def mul(self, other):
        out = Value(self.data * other.data, [self, other])

        def _backward():
            self.grad += out.grad * other.data
            other.grad += out.grad * self.data
        out._backward = _backward
        return out

    def pow(self, other):
        out = Value(self.data ** other.data, [self, other])

        def _backward():
            self.grad += out.grad * other.data * self.data ** (other.data - 1)
            other.grad += out.grad * self.data ** other.data
        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for parent in node.parents:
                    visit(parent)
                order.append(node)
        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


x = Value(1.5)
k = Value(3.0)
w = Value(-0.4)
y = x.pow(k).mul(w).add(x)
y.backward()
print(y.data, x.grad, k.grad, w.grad)
