from __future__ import annotations

import math
from typing import Callable, Iterable, List, Optional, Sequence, Tuple, Union

Number = Union[int, float]


class Value:
    """A scalar in a computation graph."""

    def __init__(
        self,
        data: Number,
        children: Tuple[Value, ...] = (),
        op: str = "",
        label: Optional[str] = None,
    ) -> None:
        self.data: float = float(data)
        self.grad: float = 0.0
        self._prev: Tuple[Value, ...] = children
        self._op: str = op
        self.label: Optional[str] = label
        self._backward: Callable[[], None] = lambda: None

    @staticmethod
    def lift(x: Union[Value, Number]) -> Value:
        return x if isinstance(x, Value) else Value(x)

    def __add__(self, other: Union[Value, Number]) -> Value:
        o = Value.lift(other)
        out = Value(self.data + o.data, (self, o), "+")

        def _backward() -> None:
            self.grad += out.grad
            o.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Union[Value, Number]) -> Value:
        o = Value.lift(other)
        out = Value(self.data * o.data, (self, o), "*")

        def _backward() -> None:
            self.grad += o.data * out.grad
            o.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other: Number) -> Value:
        return self + other

    def __rmul__(self, other: Number) -> Value:
        return self * other

    def __sub__(self, other: Union[Value, Number]) -> Value:
        return self + Value.lift(other) * -1

    def exp(self) -> Value:
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward() -> None:
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def softplus(self) -> Value:
        out = Value(math.log1p(math.exp(self.data)), (self,), "softplus")

        def _backward() -> None:
            self.grad += 1.0 / (1.0 + math.exp(-self.data)) * out.grad

        out._backward = _backward
        return out

    def topo(self) -> List[Value]:
        order: List[Value] = []
        seen: set[Value] = set()

        def visit(v: Value) -> None:
            if v in seen:
                return
            seen.add(v)
            for child in v._prev:
                visit(child)
            order.append(v)

        visit(self)
        return order

    def backward(self) -> None:
        self.grad = 1.0
        for v in reversed(self.topo()):
            v._backward()


Activation = Callable[[Value], Value]


def dense(xs: Sequence[Value], ws: Sequence[Sequence[Value]], bs: Sequence[Value],
          act: Optional[Activation] = None) -> List[Value]:
    outs: List[Value] = []
    for row, b in zip(ws, bs):
        z: Value = b
        for w, x in zip(row, xs):
            z = z + w * x
        outs.append(act(z) if act is not None else z)
    return outs


def mse(preds: Iterable[Value], targets: Iterable[float]) -> Value:
    total: Value = Value(0.0)
    n = 0
    for p, t in zip(preds, targets):
        total = total + (p - t) * (p - t)
        n += 1
    return total * (1.0 / n)


def main(steps: int = 6, lr: float = 0.05) -> Optional[float]:
    w1: List[List[Value]] = [[Value(0.1 * (i + j) - 0.2) for j in range(2)] for i in range(3)]
    b1: List[Value] = [Value(0.0) for _ in range(3)]
    w2: List[List[Value]] = [[Value(0.3), Value(-0.2), Value(0.1)]]
    b2: List[Value] = [Value(0.05)]
    params: List[Value] = [p for row in w1 for p in row] + b1 + w2[0] + b2
    data: List[Tuple[Tuple[float, float], float]] = [((0.5, 1.0), 1.5), ((1.0, -0.5), 0.2),
                                                     ((-1.0, 0.3), -0.4), ((0.2, 0.2), 0.6)]
    last: Optional[float] = None
    for step in range(steps):
        preds = [dense(dense([Value(a), Value(b)], w1, b1, Value.softplus), w2, b2)[0]
                 for (a, b), _ in data]
        loss = mse(preds, [t for _, t in data])
        for p in params:
            p.grad = 0.0
        loss.backward()
        for p in params:
            p.data -= lr * p.grad
        last = loss.data
        print(f"{step}: {last:.8f}")
    return last


if __name__ == "__main__":
    result = main()
    print("final", result)
