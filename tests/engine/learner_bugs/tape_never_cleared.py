# A tape (every op appends its output and its rule; backward() calls them from the
# last made to the first) that nothing clears: the training loop's second backward()
# runs its own step's rules, then the first step's again, whose nodes still hold
# their gradients, so w.grad and b.grad get the first step's shares once more.
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


w = Value(0.5)
b = Value(1.0)
x = Value(2.0)
for step in range(2):
    w.grad = 0.0
    b.grad = 0.0
    y = w * x + b
    loss = y * y
    backward(loss)
    print(step, loss.data, w.grad, b.grad)
    w.data -= 0.05 * w.grad
    b.data -= 0.05 * b.grad
