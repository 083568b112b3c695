"""A scalar engine in old tinygrad's style: each op a Function subclass with static
forward and backward over a context, registered on the class with partialmethod, the
operators set with setattr, a deepwalk sort and `del t0._ctx` once a node is done."""

import math
import random
from functools import partialmethod


class Function:
    def __init__(self, *tensors):
        self.parents = tensors
        self.saved_tensors = []

    def save_for_backward(self, *x):
        self.saved_tensors.extend(x)

    def apply(self, arg, *x):
        # `self` is the Scalar the method was read off; `arg` the Function subclass
        x = [self] + [t if isinstance(t, Scalar) else Scalar(t) for t in x]
        ctx = arg(*x)
        ret = Scalar(arg.forward(ctx, *[t.data for t in x]))
        ret._ctx = ctx
        return ret


class Scalar:
    def __init__(self, data):
        self.data = float(data)
        self.grad = None
        self._ctx = None

    def __repr__(self):
        grad = "None" if self.grad is None else f"{self.grad:.4f}"
        return f"Scalar({self.data:.4f}, grad={grad})"

    def deepwalk(self):
        def _deepwalk(node, visited, nodes):
            visited.add(node)
            if node._ctx:
                for parent in node._ctx.parents:
                    if parent not in visited:
                        _deepwalk(parent, visited, nodes)
                nodes.append(node)
            return nodes

        return _deepwalk(self, set(), [])

    def backward(self):
        self.grad = 1.0
        for t0 in reversed(self.deepwalk()):
            grads = t0._ctx.backward(t0._ctx, t0.grad)
            if len(t0._ctx.parents) == 1:
                grads = [grads]
            for t, g in zip(t0._ctx.parents, grads):
                t.grad = g if t.grad is None else t.grad + g
            del t0._ctx


def register(name, fxn):
    setattr(Scalar, name, partialmethod(fxn.apply, fxn))


class Add(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


register("add", Add)


class Mul(Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return y * grad_output, x * grad_output


register("mul", Mul)


class Sub(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x - y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, -grad_output


register("sub", Sub)


class Pow(Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x**y

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return y * x ** (y - 1) * grad_output, 0.0


register("pow", Pow)


class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        t = math.tanh(x)
        ctx.save_for_backward(t)
        return t

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return (1 - t * t) * grad_output


register("tanh", Tanh)

for name in ["add", "mul", "sub", "pow"]:
    setattr(Scalar, f"__{name}__", getattr(Scalar, name))


class Linear:
    def __init__(self, nin, nout):
        self.w = [[Scalar(random.uniform(-1, 1)) for _ in range(nin)] for _ in range(nout)]
        self.b = [Scalar(0.0) for _ in range(nout)]

    def __call__(self, x):
        outs = []
        for row, b in zip(self.w, self.b):
            act = b
            for wi, xi in zip(row, x):
                act = act + wi * xi
            outs.append(act)
        return outs

    def parameters(self):
        return [w for row in self.w for w in row] + self.b


random.seed(7)
l1, l2 = Linear(2, 3), Linear(3, 1)
params = l1.parameters() + l2.parameters()
data = [((0.0, 1.0), 1.0), ((1.0, 0.0), 1.0), ((1.0, 1.0), -1.0), ((0.0, 0.0), -1.0)]

for step in range(4):
    loss = Scalar(0.0)
    for x, y in data:
        hidden = [h.tanh() for h in l1(x)]
        out = l2(hidden)[0].tanh()
        loss = loss + (out - y) ** 2
    for p in params:
        p.grad = None
    loss.backward()
    for p in params:
        p.data -= 0.2 * p.grad
    print(f"step {step}: loss {loss.data:.6f}")

print(l2.w[0], hasattr(loss, "_ctx"), len(params))
