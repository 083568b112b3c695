# Kahn's algorithm (right): count each node's consumers, then run the rules from the
# output, a node's as soon as none of its consumers waits. Its order is a right one but
# no depth-first sort's: out, s, p, q, a, b, c.
from collections import deque


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._backward = lambda: None

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
        in_degree = {self: 0}
        queue = deque([self])
        while queue:
            v = queue.popleft()
            for child in v._prev:
                if child not in in_degree:
                    in_degree[child] = 0
                    queue.append(child)
                in_degree[child] += 1
        self.grad = 1.0
        ready = deque([self])
        while ready:
            v = ready.popleft()
            v._backward()
            for child in v._prev:
                in_degree[child] -= 1
                if in_degree[child] == 0:
                    ready.append(child)


a = Value(1.5)
b = Value(-0.5)
c = Value(2.0)
p = a * b
q = b * c
s = p + q
out = s * s
out.backward()
print(a.grad, b.grad, c.grad, s.grad)
