# A right engine with no sort: each node keeps its local derivatives, and backward()
# hands each operand its share of the gradient that just arrived, down every path. A
# node two parents share is reached twice, each time with that path's share only.
import math


class Value:
    def __init__(self, data, local_gradients=()):
        self.data = data
        self.grad = 0.0
        self.local_gradients = local_gradients

    def __add__(self, other):
        return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        return Value(self.data * other.data, ((self, other.data), (other, self.data)))

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, ((self, 1 - t * t),))

    def backward(self, upstream=1.0):
        self.grad += upstream
        for child, local in self.local_gradients:
            child.backward(local * upstream)


x, w, b = Value(0.5), Value(-2.0), Value(0.3)
h = (x * w + b).tanh()
y = h * h + h * x
y.backward()
print(y.data, x.grad, w.grad, b.grad)
