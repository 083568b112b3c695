# "Deep Learning from Scratch 3" (DeZero), step 7: each Variable remembers the Function
# that made it, each Function its input and its output, and backward() recurses through
# the creators. Plain floats where the book has numpy arrays.
import math


class Variable:
    def __init__(self, data):
        self.data = data
        self.grad = None
        self.creator = None

    def set_creator(self, func):
        self.creator = func

    def backward(self):
        f = self.creator  # 1. Get a function
        if f is not None:
            x = f.input  # 2. Get the function's input
            x.grad = f.backward(self.grad)  # 3. Call the function's backward
            x.backward()  # 4. Call the backward method of the previous variable


class Function:
    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(y)
        output.set_creator(self)  # Set parent(function)
        self.input = input
        self.output = output  # Also set output
        return output

    def forward(self, x):
        raise NotImplementedError()

    def backward(self, gy):
        raise NotImplementedError()


class Square(Function):
    def forward(self, x):
        y = x ** 2
        return y

    def backward(self, gy):
        x = self.input.data
        gx = 2 * x * gy
        return gx


class Exp(Function):
    def forward(self, x):
        y = math.exp(x)
        return y

    def backward(self, gy):
        x = self.input.data
        gx = math.exp(x) * gy
        return gx


A = Square()
B = Exp()
C = Square()

x = Variable(0.5)
a = A(x)
b = B(a)
y = C(b)

# backward
assert y.creator == C
assert y.creator.input == b
assert y.creator.input.creator == B
assert y.creator.input.creator.input == a
assert y.creator.input.creator.input.creator == A
assert y.creator.input.creator.input.creator.input == x

y.grad = 1.0
y.backward()
print(x.grad)
