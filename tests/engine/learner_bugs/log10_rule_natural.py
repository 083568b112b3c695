# A base-10 log (math.log10, for a loss printed in decibels) whose rule is the natural
# log's 1/x: the derivative of log10(x) is 1 / (x ln 10).
import math


class Scalar:
    def __init__(self, value, children=(), op=''):
        self.value = value
        self.grad = 0.0
        self.children = children
        self.op = op
        self._backward = lambda: None

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value * other.value, (self, other), '*')

        def _backward():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad
        out._backward = _backward
        return out

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value + other.value, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def log(self):
        out = Scalar(math.log10(self.value), (self,), 'log10')

        def _backward():
            self.grad += (1 / self.value) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        order = []
        seen = set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node.children:
                    visit(child)
                order.append(node)
        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


a = Scalar(4.0)
b = Scalar(2.5)
y = (a * b).log() + a
y.backward()
print(round(y.value, 6), a.grad, b.grad)
