"""A scalar engine after early tinygrad: the Function instance is the context, made by
`apply` with the op's inputs as its parents; forward and backward are its methods,
save_for_backward keeps what backward needs; the output's `_ctx` is that Function, and
backward() walks the parents depth first, gradients starting as None."""

import math


class Function:
    def __init__(self, *tensors):
        self.parents = tensors
        self.saved_tensors = []

    def save_for_backward(self, *xs):
        self.saved_tensors.extend(xs)

    @classmethod
    def apply(cls, *args):
        ctx = cls(*[a for a in args if isinstance(a, Tensor)])
        ret = Tensor(ctx.forward(*[a.data if isinstance(a, Tensor) else a for a in args]))
        ret._ctx = ctx
        return ret


class Add(Function):
    def forward(self, x, y):
        return x + y

    def backward(self, grad_output):
        return grad_output, grad_output


class Mul(Function):
    def forward(self, x, y):
        self.save_for_backward(x, y)
        return x * y

    def backward(self, grad_output):
        x, y = self.saved_tensors
        return y * grad_output, x * grad_output


class Exp(Function):
    def forward(self, x):
        ret = math.exp(x)
        self.save_for_backward(ret)
        return ret

    def backward(self, grad_output):
        (ret,) = self.saved_tensors
        return ret * grad_output


class Pow(Function):
    def forward(self, x, k):
        self.save_for_backward(x, k)
        return x**k

    def backward(self, grad_output):
        x, k = self.saved_tensors
        return k * x ** (k - 1) * grad_output


class Tensor:
    def __init__(self, data):
        self.data = data
        self.grad = None
        self._ctx = None

    def __repr__(self):
        return f"<Tensor {self.data:.6f} grad={self.grad}>"

    def __add__(self, other):
        return Add.apply(self, other if isinstance(other, Tensor) else Tensor(other))

    def __mul__(self, other):
        return Mul.apply(self, other if isinstance(other, Tensor) else Tensor(other))

    def __pow__(self, k):
        return Pow.apply(self, k)

    def __truediv__(self, other):
        return self * other**-1.0

    def exp(self):
        return Exp.apply(self)

    def deepwalk(self, visited, nodes):
        visited.add(self)
        if self._ctx:
            for i in self._ctx.parents:
                if i not in visited:
                    i.deepwalk(visited, nodes)
            nodes.append(self)
        return nodes

    def backward(self):
        self.grad = 1.0
        for t0 in reversed(self.deepwalk(set(), [])):
            grads = t0._ctx.backward(t0.grad)
            if len(t0._ctx.parents) == 1:
                grads = [grads]
            for t, g in zip(t0._ctx.parents, grads):
                t.grad = g if t.grad is None else t.grad + g


def sigmoid(x):
    return Tensor(1.0) / ((x * -1.0).exp() + 1.0)


w = Tensor(0.5)
b = Tensor(-0.25)
for step in range(3):
    xs = [Tensor(1.0), Tensor(2.0), Tensor(-1.0)]
    ys = [1.0, 1.0, 0.0]
    loss = Tensor(0.0)
    for x, y in zip(xs, ys):
        p = sigmoid(x * w + b)
        d = p + (-y)
        loss = loss + d * d
    w.grad = None
    b.grad = None
    loss.backward()
    print(step, f"loss={loss.data:.6f}", f"w.grad={w.grad:.6f}", f"b.grad={b.grad:.6f}")
    w = Tensor(w.data - 0.5 * w.grad)
    b = Tensor(b.data - 0.5 * b.grad)
print(w, b)
