# A tape (every op appends its output and its rule; backward() calls them from the
# last made to the first) whose log rule divides by its own output, log(x), where the
# right local derivative is 1/x.
import math

TAPE = []


class Value:
    def __init__(self, data, inputs=()):
        self.data = data
        self.grad = 0.0
        self.inputs = inputs

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def run():
            self.grad += out.grad
            other.grad += out.grad
        TAPE.append((out, run))
        return out

    def __sub__(self, other):
        out = Value(self.data - other.data, (self, other))

        def run():
            self.grad += out.grad
            other.grad -= out.grad
        TAPE.append((out, run))
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def run():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        TAPE.append((out, run))
        return out

    def log(self):
        out = Value(math.log(self.data), (self,))

        def run():
            self.grad += out.grad / out.data
        TAPE.append((out, run))
        return out


def backward(loss):
    loss.grad = 1.0
    for _, run in reversed(TAPE):
        run()


x = Value(2.0)
y = Value(0.5)
p = x * y
loss = (p + x).log() - p * x
backward(loss)
print(loss.data, x.grad, y.grad)
