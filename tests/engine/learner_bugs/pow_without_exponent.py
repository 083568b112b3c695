# A Node engine whose backward rules sit in a dict of ops; `**` forgets the exponent.
import math


def add_back(node):
    a, b = node._prev
    a.grad += node.grad
    b.grad += node.grad


def mul_back(node):
    a, b = node._prev
    a.grad += b.data * node.grad
    b.grad += a.data * node.grad


def pow_back(node):
    (a,) = node._prev
    a.grad += a.data ** (node.k - 1) * node.grad


BACKWARD = {'+': add_back, '*': mul_back, '**': pow_back}


class Node:
    def __init__(self, data, prev=(), op=''):
        self.data = data
        self.grad = 0.0
        self._prev = prev
        self._op = op
        self.k = None

    def _backward(self):
        if self._op in BACKWARD:
            BACKWARD[self._op](self)

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        return Node(self.data + other.data, (self, other), '+')

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        return Node(self.data * other.data, (self, other), '*')

    def __rmul__(self, other):
        return self * other

    def __pow__(self, k):
        out = Node(self.data ** k, (self,), '**')
        out.k = k
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


x = Node(3.0)
f = 3 * x ** 2 + x * -4.0 + 5.0
f.backward()
print(f.data, x.grad)
