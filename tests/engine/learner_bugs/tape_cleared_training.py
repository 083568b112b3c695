# The same tape, cleared once backward() has run it, in a training loop: each step runs
# only its own rules. The loop also prints y + y, a value the loss does not use, whose
# rule is on the tape too (with a gradient of 0, it passes on nothing).
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

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def run():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        TAPE.append((out, run))
        return out


def backward(loss):
    loss.grad = 1.0
    for _, run in reversed(TAPE):
        run()
    TAPE.clear()


w = Value(0.5)
b = Value(1.0)
x = Value(2.0)
for step in range(3):
    w.grad = 0.0
    b.grad = 0.0
    y = w * x + b
    twice = y + y
    loss = y * y
    backward(loss)
    print(step, loss.data, twice.data, w.grad, b.grad)
    w.data -= 0.05 * w.grad
    b.data -= 0.05 * b.grad
