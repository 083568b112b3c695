# "Deep Learning from Scratch 3" (DeZero), steps 8 and 9: backward() walks the creators
# with a list instead of a recursion, the seed is made when there is none, and the
# functions are called as Python functions. Plain floats where the book has numpy arrays.
import math


class Variable:
    def __init__(self, data):
        if data is not None:
            if not isinstance(data, (int, float)):
                raise TypeError('{} is not supported'.format(type(data)))

        self.data = data
        self.grad = None
        self.creator = None

    def set_creator(self, func):
        self.creator = func

    def backward(self):
        if self.grad is None:
            self.grad = 1.0

        funcs = [self.creator]
        while funcs:
            f = funcs.pop()  # 1. Get a function
            x, y = f.input, f.output  # 2. Get the function's input/output
            x.grad = f.backward(y.grad)  # 3. Call the function's backward

            if x.creator is not None:
                funcs.append(x.creator)


def as_float(x):
    if isinstance(x, int):
        return float(x)
    return x


class Function:
    def __call__(self, input):
        x = input.data
        y = self.forward(x)
        output = Variable(as_float(y))
        output.set_creator(self)
        self.input = input
        self.output = output
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


def square(x):
    return Square()(x)


def exp(x):
    return Exp()(x)


x = Variable(0.5)
y = square(exp(square(x)))
y.backward()
print(x.grad)

try:
    Variable("1.0")
except TypeError as e:
    print(e)

# numerical differentiation, as step 4 checks it
def numerical_diff(f, x, eps=1e-4):
    x0 = Variable(x.data - eps)
    x1 = Variable(x.data + eps)
    y0 = f(x0)
    y1 = f(x1)
    return (y1.data - y0.data) / (2 * eps)


def f(x):
    return square(exp(square(x)))


print(round(numerical_diff(f, Variable(0.5)), 6), round(x.grad, 6))
