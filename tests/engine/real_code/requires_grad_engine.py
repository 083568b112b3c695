"""A small autograd in PyTorch's manner: a tensor says whether it needs a gradient
(`requires_grad`, off unless asked for), a number met on the way is wrapped as one that
does not, a result needs one when an input does, and each op's backward fills only the
gradients of the inputs that need one."""

import math


class Tensor:
    def __init__(self, data, requires_grad=False, _children=(), _op=""):
        self.data = float(data)
        self.requires_grad = requires_grad
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._backward = lambda: None

    def __repr__(self):
        return f"tensor({self.data:.4f}, requires_grad={self.requires_grad})"

    @staticmethod
    def _wrap(x):
        return x if isinstance(x, Tensor) else Tensor(x)

    def _result(self, data, inputs, op):
        return Tensor(data, any(t.requires_grad for t in inputs), inputs, op)

    def __add__(self, other):
        other = Tensor._wrap(other)
        out = self._result(self.data + other.data, (self, other), "+")

        def _backward():
            if self.requires_grad:
                self.grad += out.grad
            if other.requires_grad:
                other.grad += out.grad

        out._backward = _backward
        return out

    __radd__ = __add__

    def __mul__(self, other):
        other = Tensor._wrap(other)
        out = self._result(self.data * other.data, (self, other), "*")

        def _backward():
            if self.requires_grad:
                self.grad += other.data * out.grad
            if other.requires_grad:
                other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + (-Tensor._wrap(other))

    def tanh(self):
        t = math.tanh(self.data)
        out = self._result(t, (self,), "tanh")

        def _backward():
            if self.requires_grad:
                self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def visit(t):
            if t not in seen:
                seen.add(t)
                for child in t._prev:
                    visit(child)
                topo.append(t)

        visit(self)
        self.grad = 1.0
        for t in reversed(topo):
            t._backward()


w = Tensor(0.5, requires_grad=True)
b = Tensor(-0.2, requires_grad=True)
samples = [(1.0, 0.6), (-2.0, -0.9), (0.5, 0.1)]
for step in range(2):
    w.grad = 0.0
    b.grad = 0.0
    loss = Tensor(0.0)
    for x, y in samples:
        err = (w * x + b).tanh() - y
        loss = loss + err * err
    loss.backward()
    print(step, loss, round(w.grad, 6), round(b.grad, 6))
    w.data -= 0.1 * w.grad
    b.data -= 0.1 * b.grad
print(w, b)
