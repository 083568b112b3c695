"""A scalar engine shaped like PyTorch's autograd graph: each result's `grad_fn` is a
backward-function object (MulBackward, AddBackward…) that keeps the op's inputs and what
it saved; backward() sorts the tensors through `grad_fn.inputs` and asks each grad_fn
for its inputs' shares. Leaves have no grad_fn, nor does a result of constants alone
(no input requires a gradient); gradients are None until the first share."""

import math


class Node:
    def __init__(self, *inputs):
        self.inputs = inputs
        self.saved = ()

    def name(self):
        return type(self).__name__

    def apply(self, grad):
        raise NotImplementedError(self.name())


class AddBackward(Node):
    def apply(self, grad):
        return grad, grad


class MulBackward(Node):
    def apply(self, grad):
        a, b = self.saved
        return grad * b, grad * a


class ReluBackward(Node):
    def apply(self, grad):
        (x,) = self.saved
        return (grad if x > 0 else 0.0,)


class LogBackward(Node):
    def apply(self, grad):
        (x,) = self.saved
        return (grad / x,)


class Tensor:
    def __init__(self, value, requires_grad=False):
        self.value = value
        self.requires_grad = requires_grad
        self.grad = None
        self.grad_fn = None

    def __repr__(self):
        fn = f", grad_fn=<{self.grad_fn.name()}>" if self.grad_fn else ""
        return f"tensor({self.value:.4f}{fn})"

    @staticmethod
    def make(value, fn, *inputs):
        out = Tensor(value, requires_grad=any(t.requires_grad for t in inputs))
        if out.requires_grad:
            out.grad_fn = fn(*inputs)
        return out

    def __add__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        return Tensor.make(self.value + other.value, AddBackward, self, other)

    __radd__ = __add__

    def __mul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        out = Tensor.make(self.value * other.value, MulBackward, self, other)
        if out.grad_fn is not None:
            out.grad_fn.saved = (self.value, other.value)
        return out

    __rmul__ = __mul__

    def relu(self):
        out = Tensor.make(max(self.value, 0.0), ReluBackward, self)
        if out.grad_fn is not None:
            out.grad_fn.saved = (self.value,)
        return out

    def log(self):
        out = Tensor.make(math.log(self.value), LogBackward, self)
        if out.grad_fn is not None:
            out.grad_fn.saved = (self.value,)
        return out

    def backward(self, grad=1.0):
        order, seen = [], set()

        def visit(t):
            if id(t) in seen:
                return
            seen.add(id(t))
            if t.grad_fn is not None:
                for i in t.grad_fn.inputs:
                    visit(i)
            order.append(t)

        visit(self)
        self.grad = grad
        for t in reversed(order):
            fn = t.grad_fn
            if fn is None:
                continue
            for inp, g in zip(fn.inputs, fn.apply(t.grad)):
                inp.grad = g if inp.grad is None else inp.grad + g


w = [Tensor(0.8, requires_grad=True), Tensor(-0.4, requires_grad=True)]
b = Tensor(0.1, requires_grad=True)
data = [([1.0, 2.0], 3.0), ([2.0, -1.0], 1.5), ([0.5, 0.5], 1.0)]
for epoch in range(2):
    for p in w + [b]:
        p.grad = None
    total = Tensor(0.0)
    for xs, target in data:
        h = (w[0] * xs[0] + w[1] * xs[1] + b).relu()
        err = h + (-target)
        total = total + err * err
    loss = (total + 1.0).log()
    loss.backward()
    print(epoch, loss, [round(p.grad, 6) for p in w + [b]])
    for p in w + [b]:
        p.value -= 0.05 * p.grad
print(w, b)
