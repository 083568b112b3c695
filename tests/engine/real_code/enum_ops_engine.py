"""A `Scalar` whose ops are members of an Enum, whose gradient is `_grad` and whose rule
is `_backward_fn`, with `_backward` a float that masks the nodes that need no gradient
(`requires_grad_`), a `__str__` of f-string format specs, as an index's engine has it."""

from enum import Enum
from typing import Union


class Operation(Enum):
    NONE = ""
    ADDITION = "+"
    MULTIPLICATION = "*"
    NEGATION = "neg"
    TANH = "tanh"


class Scalar:
    def __init__(self, data: int | float, label: str | None = None, requires_grad: bool = False,
                 _prev: set['Scalar'] = None, _op: Operation = Operation.NONE) -> None:
        self.data = data
        self.label = label
        self.requires_grad = requires_grad
        self._grad = 0.0
        self._prev = set() if _prev is None else _prev
        self._op = _op
        self._backward_fn = lambda: None
        self._backward = 0.0
        self.requires_grad_(requires_grad)

    @staticmethod
    def as_scalar(x, label=None, requires_grad=False) -> 'Scalar':
        if isinstance(x, Scalar):
            return x
        return Scalar(x, label=label, requires_grad=requires_grad)

    def requires_grad_(self, requires_grad: bool) -> None:
        self.requires_grad = requires_grad
        self._backward = 1.0 if requires_grad else 0.0

    def __add__(self, other: Union[int, float, 'Scalar']) -> 'Scalar':
        other = Scalar.as_scalar(other)
        out = Scalar(self.data + other.data, requires_grad=True, _prev={self, other}, _op=Operation.ADDITION)
        def _backward_fn() -> None:
            self._grad += self._backward * 1.0 * out._grad
            other._grad += other._backward * 1.0 * out._grad
        out._backward_fn = _backward_fn
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = Scalar.as_scalar(other)
        out = Scalar(self.data * other.data, requires_grad=True, _prev={self, other}, _op=Operation.MULTIPLICATION)
        def _backward_fn() -> None:
            self._grad += self._backward * other.data * out._grad
            other._grad += other._backward * self.data * out._grad
        out._backward_fn = _backward_fn
        return out

    def __rmul__(self, other):
        return self * other

    def __neg__(self):
        out = Scalar(-self.data, requires_grad=True, _prev={self}, _op=Operation.NEGATION)
        def _backward_fn() -> None:
            self._grad += self._backward * (-1.0) * out._grad
        out._backward_fn = _backward_fn
        return out

    def tanh(self):
        import math
        t = math.tanh(self.data)
        out = Scalar(t, requires_grad=True, _prev={self}, _op=Operation.TANH)
        def _backward_fn() -> None:
            self._grad += self._backward * (1 - t ** 2) * out._grad
        out._backward_fn = _backward_fn
        return out

    def backward(self) -> None:
        order, seen = [], set()
        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._prev:
                    visit(child)
                order.append(node)
        visit(self)
        self._grad = 1.0
        for node in reversed(order):
            node._backward_fn()

    def __str__(self) -> str:
        label_str = "" if self.label is None else f"label={self.label}, "
        grad_str = "" if not self.requires_grad else f", grad={self._grad:.6f}"
        op_str = "" if self._op is Operation.NONE else f", op={self._op.value}"
        return f"Scalar({label_str}data={self.data:.6f}{grad_str}{op_str})"



def mse(preds, targets):
    return sum(((p + -t) * (p + -t) for p, t in zip(preds, targets)), Scalar(0.0))


w = Scalar(0.8, label="w", requires_grad=True)
b = Scalar(-0.1, label="b", requires_grad=True)
xs = [Scalar(v) for v in (0.5, -1.0, 1.5, 2.0)]
ys = [0.2, -0.6, 0.7, 0.9]
for epoch in range(4):
    preds = [(w * x + b).tanh() for x in xs]
    loss = mse(preds, ys)
    w._grad, b._grad = 0.0, 0.0
    loss.backward()
    print(f"epoch {epoch}: loss={loss.data:.6f}", w, b, sep=" | ")
    w.data -= 0.3 * w._grad
    b.data -= 0.3 * b._grad

x = Scalar(2.0, label="x", requires_grad=True)
v = Scalar(-0.5, label="v", requires_grad=True)
c = Scalar(3.0, label="c")
y = (x * v + c * x).tanh() + -v
y.backward()
for s in (x, v, c, y):
    print(s)
print(Operation.TANH, repr(Operation.ADDITION), Operation("*").name, list(Operation)[1:3])
