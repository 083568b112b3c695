"""Gates as the "Hacker's guide to Neural Networks" builds them, in the Python its ports
write: a unit holds a value and a gradient and nothing else; each gate object keeps the
units it was given and the unit it made, and its backward() pushes the made unit's
gradient into the given ones. No unit knows its operands and there is no backward() of
the whole: the program seeds the top unit and calls each gate's backward() itself, from
the top gate down."""

import math


class Unit:
    def __init__(self, value, grad):
        self.value = value  # the number computed in the forward pass
        self.grad = grad  # the derivative of the circuit's output with respect to this unit

    def __repr__(self):
        return f"Unit(value={self.value:.4f}, grad={self.grad:.4f})"


class MultiplyGate:
    def forward(self, u0, u1):
        self.u0 = u0
        self.u1 = u1
        self.utop = Unit(u0.value * u1.value, 0.0)
        return self.utop

    def backward(self):
        # chain rule: the local derivative of u0 * u1 with respect to u0 is u1, and back
        self.u0.grad += self.u1.value * self.utop.grad
        self.u1.grad += self.u0.value * self.utop.grad


class AddGate:
    def forward(self, u0, u1):
        self.u0 = u0
        self.u1 = u1
        self.utop = Unit(u0.value + u1.value, 0.0)
        return self.utop

    def backward(self):
        # the local derivative of a sum with respect to either input is 1
        self.u0.grad += 1 * self.utop.grad
        self.u1.grad += 1 * self.utop.grad


def sig(x):
    return 1 / (1 + math.exp(-x))


class SigmoidGate:
    def forward(self, u0):
        self.u0 = u0
        self.utop = Unit(sig(self.u0.value), 0.0)
        return self.utop

    def backward(self):
        s = sig(self.u0.value)
        self.u0.grad += (s * (1 - s)) * self.utop.grad


# A single neuron: f(x, y) = sig(a*x + b*y + c), one gate object per operation.
a = Unit(1.0, 0.0)
b = Unit(2.0, 0.0)
c = Unit(-3.0, 0.0)
x = Unit(-1.0, 0.0)
y = Unit(3.0, 0.0)

mulg0 = MultiplyGate()
mulg1 = MultiplyGate()
addg0 = AddGate()
addg1 = AddGate()
sg = SigmoidGate()


def forward_neuron():
    ax = mulg0.forward(a, x)  # a*x = -1
    by = mulg1.forward(b, y)  # b*y = 6
    axpby = addg0.forward(ax, by)  # a*x + b*y = 5
    axpbypc = addg1.forward(axpby, c)  # a*x + b*y + c = 2
    return sg.forward(axpbypc)  # sig(a*x + b*y + c) = 0.8808


s = forward_neuron()
print("circuit output:", s.value)

# The backward pass, gate by gate, in the reverse of the forward order.
s.grad = 1.0
sg.backward()  # writes axpbypc.grad
addg1.backward()  # writes axpby.grad and c.grad
addg0.backward()  # writes ax.grad and by.grad
mulg1.backward()  # writes b.grad and y.grad
mulg0.backward()  # writes a.grad and x.grad
print("gradients:", a.grad, b.grad, c.grad, x.grad, y.grad)

# Nudge every input along its gradient: the output goes up.
step_size = 0.01
for unit in (a, b, c, x, y):
    unit.value += step_size * unit.grad
s = forward_neuron()
print("circuit output after one step:", s.value)

# Now train a, b, c (x and y are data) so that the neuron's output matches a label for
# each of four points, the squared error's gradient seeding the top unit by hand.
data = [(1.2, 0.7, 1.0), (-0.3, -0.5, 0.0), (3.0, 0.1, 1.0), (-0.1, -1.0, 0.0)]
a.value, b.value, c.value = 0.5, -0.5, 0.0
for step in range(3):
    total = 0.0
    for px, py, label in data:
        x = Unit(px, 0.0)
        y = Unit(py, 0.0)
        for unit in (a, b, c):
            unit.grad = 0.0
        s = forward_neuron()
        error = s.value - label
        total += error * error
        s.grad = 2 * error  # d(error**2)/ds: the gradient the circuit pulls on s with
        sg.backward()
        addg1.backward()
        addg0.backward()
        mulg1.backward()
        mulg0.backward()
        for unit in (a, b, c):
            unit.value -= 0.5 * unit.grad
    print(f"step {step}: loss {total:.6f}, a={a.value:.4f} b={b.value:.4f} c={c.value:.4f}")
