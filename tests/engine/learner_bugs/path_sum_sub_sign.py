# No sort and no rule per node: backward(grad) adds the share that arrives and hands
# each operand its own, down every path, by the op's name. `-` hands the subtrahend +g
# where it should hand -g: only that op's share is wrong, every other one is right.
import math


class Scalar:
    def __init__(self, value, op=None, inputs=()):
        self.value = value
        self.op = op
        self.inputs = inputs
        self.grad = 0.0

    def __add__(self, other):
        return Scalar(self.value + other.value, "add", (self, other))

    def __sub__(self, other):
        return Scalar(self.value - other.value, "sub", (self, other))

    def __mul__(self, other):
        return Scalar(self.value * other.value, "mul", (self, other))

    def tanh(self):
        return Scalar(math.tanh(self.value), "tanh", (self,))

    def backward(self, grad=1.0):
        self.grad += grad
        if self.op == "add":
            self.inputs[0].backward(grad)
            self.inputs[1].backward(grad)
        elif self.op == "sub":
            self.inputs[0].backward(grad)
            self.inputs[1].backward(grad)
        elif self.op == "mul":
            a, b = self.inputs
            a.backward(grad * b.value)
            b.backward(grad * a.value)
        elif self.op == "tanh":
            self.inputs[0].backward(grad * (1 - self.value ** 2))


w, x, b, t = Scalar(0.8), Scalar(1.5), Scalar(-0.2), Scalar(0.3)
h = (w * x + b).tanh()
err = h - t
loss = err * err + w * w
loss.backward()
print(loss.value, w.grad, x.grad, b.grad, t.grad)
