# Nodes numbered as they are made; backward() sorts them by number, which is a right
# order, but walks it from the first node made instead of the last.
import itertools

_ids = itertools.count()


class Node:
    def __init__(self, data, parents=(), op=''):
        self.id = next(_ids)
        self.data = data
        self.grad = 0.0
        self.parents = parents
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        nodes = {}
        stack = [self]
        while stack:
            n = stack.pop()
            if n.id not in nodes:
                nodes[n.id] = n
                stack.extend(n.parents)
        self.grad = 1.0
        for key in sorted(nodes):
            nodes[key]._backward()


a = Node(3.0)
b = Node(4.0)
c = a * b
d = c + a
d.backward()
print(a.grad, b.grad, c.grad)
