# Reverse mode with a global tape: each op pushes its output and a closure that passes
# the output's gradient to its inputs, and backward() runs the tape in reverse.
# The bug: tanh's closure multiplies by (1 - t), not (1 - t**2).
import math

TAPE = []


class Var:
    def __init__(self, value, parents=(), name=""):
        self.value = value
        self.grad = 0.0
        self.parents = parents
        self.name = name

    def __add__(self, other):
        out = Var(self.value + other.value, (self, other))

        def back():
            self.grad += out.grad
            other.grad += out.grad

        TAPE.append((out, back))
        return out

    def __mul__(self, other):
        out = Var(self.value * other.value, (self, other))

        def back():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad

        TAPE.append((out, back))
        return out

    def __sub__(self, other):
        out = Var(self.value - other.value, (self, other))

        def back():
            self.grad += out.grad
            other.grad -= out.grad

        TAPE.append((out, back))
        return out

    def tanh(self):
        t = math.tanh(self.value)
        out = Var(t, (self,))

        def back():
            self.grad += (1 - t) * out.grad

        TAPE.append((out, back))
        return out


def backward(loss):
    loss.grad = 1.0
    for _, back in reversed(TAPE):
        back()
    TAPE.clear()


w1, w2, b = Var(0.3, name="w1"), Var(-0.6, name="w2"), Var(0.1, name="b")
samples = [((1.0, 2.0), 0.5), ((-1.0, 0.5), -0.25)]
for it in range(3):
    total = Var(0.0)
    for (x1, x2), target in samples:
        h = (w1 * Var(x1) + w2 * Var(x2) + b).tanh()
        err = h - Var(target)
        total = total + err * err
    for p in (w1, w2, b):
        p.grad = 0.0
    backward(total)
    print(it, round(total.value, 6), [round(p.grad, 6) for p in (w1, w2, b)])
    for p in (w1, w2, b):
        p.value -= 0.1 * p.grad
