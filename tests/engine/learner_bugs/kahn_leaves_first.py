# Kahn's algorithm counted the wrong way round: each node's count is its number of
# operands, and the queue starts from the leaves, so the rules run inputs first.
from collections import deque


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        nodes, stack = [], [self]
        while stack:
            v = stack.pop()
            if v not in nodes:
                nodes.append(v)
                stack.extend(v._prev)
        waiting = {v: len(v._prev) for v in nodes}
        users = {v: [] for v in nodes}
        for v in nodes:
            for child in v._prev:
                users[child].append(v)
        ready = deque(v for v in nodes if waiting[v] == 0)
        self.grad = 1.0
        while ready:
            v = ready.popleft()
            v._backward()
            for user in users[v]:
                waiting[user] -= 1
                if waiting[user] == 0:
                    ready.append(user)


a = Value(2.0)
b = Value(-1.0)
c = a * b
d = c + a
d.backward()
print(d.grad, c.grad, a.grad, b.grad)
