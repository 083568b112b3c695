# PyTorch's layout: each result's grad_fn keeps the op's inputs and works out their
# shares; gradients are None until the first share, then summed by a choice on one line.
# MulBackward hands each input its own value, not the other's.


class MulBackward:
    def __init__(self, a, b):
        self.inputs = (a, b)

    def apply(self, grad):
        a, b = self.inputs
        return grad * a.value, grad * b.value


class AddBackward:
    def __init__(self, a, b):
        self.inputs = (a, b)

    def apply(self, grad):
        return grad, grad


class Tensor:
    def __init__(self, value):
        self.value = value
        self.grad = None
        self.grad_fn = None

    def __add__(self, other):
        out = Tensor(self.value + other.value)
        out.grad_fn = AddBackward(self, other)
        return out

    def __mul__(self, other):
        out = Tensor(self.value * other.value)
        out.grad_fn = MulBackward(self, other)
        return out

    def backward(self):
        order, seen = [], set()

        def visit(t):
            if t not in seen:
                seen.add(t)
                if t.grad_fn is not None:
                    for i in t.grad_fn.inputs:
                        visit(i)
                order.append(t)

        visit(self)
        self.grad = 1.0
        for t in reversed(order):
            fn = t.grad_fn
            if fn is None:
                continue
            for inp, g in zip(fn.inputs, fn.apply(t.grad)):
                inp.grad = g if inp.grad is None else inp.grad + g


w = Tensor(2.0)
x = Tensor(-3.0)
b = Tensor(0.5)
y = w * x + w * b
y.backward()
print(w.grad, x.grad, b.grad)
