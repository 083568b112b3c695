"""A scalar engine in the style of PyTorch's autograd.Function: each op is a Function
subclass with static forward/backward, `apply` makes the output and hangs a context on
it; the operands live only in that context (`ctx.parents`), with `save_for_backward`."""

import math


class Context:
    def __init__(self, fn, parents):
        self.fn = fn
        self.parents = parents
        self.saved_tensors = ()

    def save_for_backward(self, *values):
        self.saved_tensors = values


class Function:
    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad_output):
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs):
        inputs = [x if isinstance(x, Scalar) else Scalar(x) for x in inputs]
        ctx = Context(cls, inputs)
        out = Scalar(cls.forward(ctx, *[x.data for x in inputs]))
        out._ctx = ctx
        return out


class Add(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


class Mul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return b * grad_output, a * grad_output


class Tanh(Function):
    @staticmethod
    def forward(ctx, a):
        t = math.tanh(a)
        ctx.save_for_backward(t)
        return t

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return ((1 - t * t) * grad_output,)


class Scalar:
    def __init__(self, data):
        self.data = data
        self.grad = 0.0
        self._ctx = None

    def __repr__(self):
        return f"Scalar(data={self.data:.4f}, grad={self.grad:.4f})"

    def __add__(self, other):
        return Add.apply(self, other)

    def __radd__(self, other):
        return Add.apply(other, self)

    def __mul__(self, other):
        return Mul.apply(self, other)

    def __rmul__(self, other):
        return Mul.apply(other, self)

    def tanh(self):
        return Tanh.apply(self)

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                if v._ctx is not None:
                    for p in v._ctx.parents:
                        build(p)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            if v._ctx is None:
                continue
            grads = v._ctx.fn.backward(v._ctx, v.grad)
            for p, g in zip(v._ctx.parents, grads):
                p.grad += g


x1 = Scalar(2.0)
x2 = Scalar(0.0)
w1 = Scalar(-3.0)
w2 = Scalar(1.0)
b = Scalar(6.8813735870195432)
n = x1 * w1 + x2 * w2 + b
o = n.tanh()
o.backward()
for name, v in [("x1", x1), ("x2", x2), ("w1", w1), ("w2", w2), ("b", b)]:
    print(name, v)
print("o", o)
