# A right engine with no depth-first sort: every Value takes a number from a counter
# when it is made, and backward() runs the rules of the nodes it reaches newest first
# (a node is always made after its operands).
import math


class Value:
    made = 0

    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op
        Value.made += 1
        self.number = Value.made

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

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t ** 2) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        reached = {}
        stack = [self]
        while stack:
            v = stack.pop()
            if v.number not in reached:
                reached[v.number] = v
                stack.extend(v._prev)
        self.grad = 1.0
        for number in sorted(reached, reverse=True):
            reached[number]._backward()


x, w1, w2 = Value(0.6), Value(-0.4), Value(1.3)
h = (x * w1).tanh()
y = h * w2 + h * h + x
y.backward()
print(x.grad, w1.grad, w2.grad)
