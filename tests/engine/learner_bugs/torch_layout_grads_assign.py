# Laid out as PyTorch's graph (each result's `grad_fn` a backward node, its inputs'
# nodes in `next_functions`), but backward() keeps each node's incoming gradient with
# `grads[id(nxt)] = share`: x1's AccumulateGrad, reached from two products, keeps only
# the last share.
import math


class Node:
    def __init__(self, *inputs):
        self.next_functions = tuple((Node.edge_of(t), 0) for t in inputs)
        self.saved = ()

    @staticmethod
    def edge_of(t):
        if t.grad_fn is not None:
            return t.grad_fn
        if t.requires_grad:
            if t._accumulator is None:
                t._accumulator = AccumulateGrad(t)
            return t._accumulator
        return None

    def name(self):
        return type(self).__name__

    def apply(self, grad):
        raise NotImplementedError(self.name())


class AccumulateGrad(Node):
    def __init__(self, variable):
        self.variable = variable
        self.next_functions = ()

    def apply(self, grad):
        if self.variable.grad is None:
            self.variable.grad = grad
        else:
            self.variable.grad = self.variable.grad + grad
        return ()


class AddBackward0(Node):
    def apply(self, grad):
        return grad, grad


class MulBackward0(Node):
    def apply(self, grad):
        a, b = self.saved
        return grad * b, grad * a


class TanhBackward0(Node):
    def apply(self, grad):
        (t,) = self.saved
        return (grad * (1 - t * t),)


class Tensor:
    def __init__(self, data, requires_grad=False, grad_fn=None):
        self.data = data
        self.requires_grad = requires_grad
        self.grad = None
        self.grad_fn = grad_fn
        self._accumulator = None

    def __repr__(self):
        fn = f", grad_fn=<{self.grad_fn.name()}>" if self.grad_fn is not None else ""
        return f"tensor({self.data:.4f}{fn})"

    @staticmethod
    def lift(x):
        return x if isinstance(x, Tensor) else Tensor(x)

    def __add__(self, other):
        other = Tensor.lift(other)
        needs = self.requires_grad or other.requires_grad
        fn = AddBackward0(self, other) if needs else None
        return Tensor(self.data + other.data, needs, fn)

    __radd__ = __add__

    def __mul__(self, other):
        other = Tensor.lift(other)
        needs = self.requires_grad or other.requires_grad
        fn = None
        if needs:
            fn = MulBackward0(self, other)
            fn.saved = (self.data, other.data)
        return Tensor(self.data * other.data, needs, fn)

    __rmul__ = __mul__

    def tanh(self):
        t = math.tanh(self.data)
        fn = None
        if self.requires_grad:
            fn = TanhBackward0(self)
            fn.saved = (t,)
        return Tensor(t, self.requires_grad, fn)

    def backward(self):
        order, seen = [], set()

        def visit(fn):
            if fn is None or id(fn) in seen:
                return
            seen.add(id(fn))
            for nxt, _ in fn.next_functions:
                visit(nxt)
            order.append(fn)

        visit(self.grad_fn)
        grads = {id(self.grad_fn): 1.0}
        for fn in reversed(order):
            g = grads.pop(id(fn), 0.0)
            for (nxt, _), share in zip(fn.next_functions, fn.apply(g)):
                if nxt is not None:
                    grads[id(nxt)] = share


x1 = Tensor(2.0, requires_grad=True)
x2 = Tensor(0.0, requires_grad=True)
w1 = Tensor(-0.3, requires_grad=True)
w2 = Tensor(1.0, requires_grad=True)
b = Tensor(0.5, requires_grad=True)
for step in range(2):
    for p in (x1, x2, w1, w2, b):
        p.grad = None
    n = x1 * w1 + x2 * w2 + b * x1
    o = n.tanh()
    o.backward()
    print(step, o, o.grad_fn.next_functions[0][0].name())
    print([round(p.grad, 6) for p in (x1, x2, w1, w2, b)])
    w1.data -= 0.1 * w1.grad
