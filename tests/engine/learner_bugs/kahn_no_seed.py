# Kahn's algorithm for the order (right), but backward() never seeds the output.
from collections import deque


class Node:
    def __init__(self, data, parents=(), op=''):
        self.data = data
        self.grad = 0.0
        self.parents = list(parents)
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data + other.data, [self, other], '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data * other.data, [self, other], '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        # count each node's consumers, then peel off nodes none of whose consumers wait
        nodes, stack = [], [self]
        seen = {id(self)}
        while stack:
            n = stack.pop()
            nodes.append(n)
            for p in n.parents:
                if id(p) not in seen:
                    seen.add(id(p))
                    stack.append(p)
        waiting = {id(n): 0 for n in nodes}
        for n in nodes:
            for p in n.parents:
                waiting[id(p)] += 1
        ready = deque([self])
        while ready:
            n = ready.popleft()
            n._backward()
            for p in n.parents:
                waiting[id(p)] -= 1
                if waiting[id(p)] == 0:
                    ready.append(p)


a = Node(2.0)
b = Node(-1.0)
c = a * b
d = c + a
e = d * c
e.backward()
print(a.grad, b.grad, c.grad, d.grad, e.grad)
