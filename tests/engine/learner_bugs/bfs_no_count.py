# A breadth-first walk from the output in place of Kahn's algorithm: each node once, in
# the order the walk finds it, with no count of the consumers still to run. x is found
# from out before x*3 and x*2, which use it, have run: its rule runs too soon.
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
        self.grad = 1.0
        seen = {self}
        queue = deque([self])
        while queue:
            v = queue.popleft()
            v._backward()
            for child in v._prev:
                if child not in seen:
                    seen.add(child)
                    queue.append(child)


w = Value(0.5)
x = w * 4.0
p2 = x * 3.0
p1 = x * 2.0
out = x + (p1 + p2)
out.backward()
print(w.grad, x.grad)
