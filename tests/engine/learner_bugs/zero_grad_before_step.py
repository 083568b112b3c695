# A training loop over a Kahn's-algorithm engine (right) that zeroes the gradients after
# backward() and before the update: the parameters never move.
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
        users = {}
        stack, seen = [self], {self}
        while stack:
            v = stack.pop()
            for child in v._prev:
                users[child] = users.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        self.grad = 1.0
        ready = deque([self])
        while ready:
            v = ready.popleft()
            v._backward()
            for child in v._prev:
                users[child] -= 1
                if users[child] == 0:
                    ready.append(child)


w = Value(0.5)
b = Value(0.0)
data = [(1.0, 3.0), (2.0, 5.0)]
for step in range(3):
    loss = Value(0.0)
    for x, y in data:
        err = w * x + b + -y
        loss = loss + err * err
    loss.backward()
    for p in (w, b):
        p.grad = 0.0
    for p in (w, b):
        p.data -= 0.01 * p.grad
    print(step, loss.data, w.data, b.data)
