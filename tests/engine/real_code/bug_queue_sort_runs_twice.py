# A learner's "sort": walk the graph breadth-first from the output and run each
# node's rule as it comes off the queue. No visited set: a node reached by two
# paths is queued (and run) twice.
from collections import deque
import math


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._prev = list(_children)
        self._op = _op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        self.grad = 1.0
        queue = deque([self])
        while queue:
            node = queue.popleft()
            node._backward()
            queue.extend(node._prev)


x = Value(0.5)
w = Value(-1.5)
h = (x * w).tanh()
y = h * h + h * x
y.backward()
print(f"y={y.data:.6f} x.grad={x.grad:.6f} w.grad={w.grad:.6f} h.grad={h.grad:.6f}")
