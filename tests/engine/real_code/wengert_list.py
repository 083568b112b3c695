"""Reverse mode the way autodiff notes first write it: a Wengert list. Every operation
appends a record to one global tape, the variable it made and, for each input, that
input and the local derivative of the output with respect to it. A variable knows its
value and its gradient and nothing else; the graph is the tape. backward() seeds the
output and walks the tape from its end, adding local * upstream into each input."""

import math

TAPE = []


class Var:
    def __init__(self, value):
        self.value = value
        self.grad = 0.0

    def __repr__(self):
        return f"Var({self.value:.4f}, grad={self.grad:.4f})"

    def __add__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        out = Var(self.value + other.value)
        TAPE.append((out, [(self, 1.0), (other, 1.0)]))
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        out = Var(self.value * other.value)
        TAPE.append((out, [(self, other.value), (other, self.value)]))
        return out

    def __sub__(self, other):
        return self + other * -1.0

    def sin(self):
        out = Var(math.sin(self.value))
        TAPE.append((out, [(self, math.cos(self.value))]))
        return out

    def exp(self):
        e = math.exp(self.value)
        out = Var(e)
        TAPE.append((out, [(self, e)]))
        return out


def backward(out):
    out.grad = 1.0
    for node, inputs in reversed(TAPE):
        for inp, local in inputs:
            inp.grad += local * node.grad


# f(x, y) = x * y + sin(x), the textbook example
x = Var(0.5)
y = Var(4.2)
f = x * y + x.sin()
backward(f)
print("f =", f.value)
print("df/dx =", x.grad, "expected", y.value + math.cos(x.value))
print("df/dy =", y.grad, "expected", x.value)

# A second function on a fresh tape: gradient descent on g(w) = (exp(w) - 2)**2 / 2,
# whose minimum is at w = log(2).
w = Var(0.0)
for step in range(4):
    TAPE.clear()
    w.grad = 0.0
    d = w.exp() - 2.0
    g = d * d * 0.5
    backward(g)
    print(f"step {step}: g={g.value:.6f} w={w.value:.6f} dg/dw={w.grad:.6f}")
    w.value -= 0.3 * w.grad
print("w =", round(w.value, 4), "log(2) =", round(math.log(2), 4))
