# A tape of rules, run in the order the ops were made (the loop forgot `reversed`):
# each rule passes on its node's gradient before the ops that use the node add theirs.
import math

TAPE = []


class Var:
    def __init__(self, val, parents=()):
        self.val = val
        self.grad = 0.0
        self.parents = parents

    def __add__(self, other):
        out = Var(self.val + other.val, (self, other))

        def rule():
            self.grad += out.grad
            other.grad += out.grad
        TAPE.append(rule)
        return out

    def __mul__(self, other):
        out = Var(self.val * other.val, (self, other))

        def rule():
            self.grad += other.val * out.grad
            other.grad += self.val * out.grad
        TAPE.append(rule)
        return out

    def exp(self):
        out = Var(math.exp(self.val), (self,))

        def rule():
            self.grad += out.val * out.grad
        TAPE.append(rule)
        return out


def backward(out):
    out.grad = 1.0
    for rule in TAPE:
        rule()


x, w = Var(0.5), Var(-1.2)
h = (x * w).exp()
y = h * x + h
backward(y)
print(y.val, x.grad, w.grad)
