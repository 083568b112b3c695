"""A node class whose number and gradient sit behind properties (`_value`, `_grad`), with
`_children`, `_operation`, an abstract base, its own exception and identity hashing."""

import math
from abc import ABC, abstractmethod

class AutogradError(Exception):
    pass

class Node(ABC):
    def __init__(self, value, children=(), operation=None):
        self._value = float(value)
        self._grad = 0.0
        self._children = tuple(children)
        self._operation = operation
        self._backward = lambda: None

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, v):
        self._value = v

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, g):
        self._grad = g

    @abstractmethod
    def describe(self):
        ...

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

class Scalar(Node):
    def describe(self):
        return f"Scalar({self.value:.4f}, grad={self.grad:.4f}, op={self._operation})"

    def __add__(self, other):
        if not isinstance(other, Scalar):
            other = Scalar(other)
        out = Scalar(self.value + other.value, (self, other), "add")
        def backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = backward
        return out

    def __mul__(self, other):
        if not isinstance(other, Scalar):
            other = Scalar(other)
        out = Scalar(self.value * other.value, (self, other), "mul")
        def backward():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad
        out._backward = backward
        return out

    def log(self):
        if self.value <= 0:
            raise AutogradError(f"log of non-positive value {self.value}")
        out = Scalar(math.log(self.value), (self,), "log")
        def backward():
            self.grad += out.grad / self.value
        out._backward = backward
        return out

    def backward(self):
        order, seen = [], set()
        def visit(n):
            if n in seen:
                return
            seen.add(n)
            for c in n._children:
                visit(c)
            order.append(n)
        visit(self)
        self.grad = 1.0
        for n in reversed(order):
            n._backward()

a = Scalar(2.0)
b = Scalar(3.0)
try:
    Scalar(-1.0).log()
except AutogradError as e:
    print("error:", e)
try:
    Node(1.0)
except TypeError as e:
    print("abstract:", type(e).__name__)
c = (a * b + a).log()
c.backward()
print(a.describe())
print(b.describe())
print(getattr(a, "value"), hasattr(a, "grad"), type(c).__name__)
