"""A learner's engine written the way typed Python is written today."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from typing import Callable, Iterable, List, Optional, Tuple, Union

Number = Union[int, float]


class Scalar:
    __slots__ = ("data", "grad", "_backward", "_prev", "_op")

    def __init__(self, data: Number, children: Tuple[Scalar, ...] = (), op: str = "") -> None:
        if not isinstance(data, (int, float)):
            raise TypeError(f"Scalar needs a number, got {type(data).__name__}")
        self.data = float(data)
        self.grad = 0.0
        self._backward: Callable[[], None] = lambda: None
        self._prev = set(children)
        self._op = op

    @staticmethod
    def lift(x: Union[Scalar, Number]) -> Scalar:
        return x if isinstance(x, Scalar) else Scalar(x)

    def __add__(self, other: Union[Scalar, Number]) -> Scalar:
        other = Scalar.lift(other)
        out = Scalar(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Union[Scalar, Number]) -> Scalar:
        other = Scalar.lift(other)
        out = Scalar(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def __neg__(self) -> Scalar:
        return self * -1

    def __sub__(self, other: Union[Scalar, Number]) -> Scalar:
        return self + (-Scalar.lift(other))

    def __pow__(self, k: Number) -> Scalar:
        if not isinstance(k, (int, float)):
            raise NotImplementedError("only numeric powers")
        out = Scalar(self.data**k, (self,), f"**{k}")

        def _backward() -> None:
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> Scalar:
        t = math.tanh(self.data)
        out = Scalar(t, (self,), "tanh")

        def _backward() -> None:
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def backward(self) -> None:
        order: List[Scalar] = []
        seen = set()

        def visit(v: Scalar) -> None:
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    visit(child)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()

    def __repr__(self) -> str:
        return f"Scalar({self.data:.4f}, grad={self.grad:.4f})"


class Module(ABC):
    @abstractmethod
    def parameters(self) -> List[Scalar]: ...

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = 0.0


class Linear(Module):
    def __init__(self, n_in: int, rng: random.Random, act: Optional[str] = "tanh") -> None:
        self.w = [Scalar(rng.uniform(-1, 1)) for _ in range(n_in)]
        self.b = Scalar(0.0)
        self.act = act

    def __call__(self, xs: Iterable[Number]) -> Scalar:
        total = sum((w * x for w, x in zip(self.w, xs)), self.b)
        return total.tanh() if self.act == "tanh" else total

    def parameters(self) -> List[Scalar]:
        return [*self.w, self.b]


def train(steps: int = 5) -> None:
    rng = random.Random(2024)
    unit = Linear(3, rng)
    data = [([1.0, -2.0, 0.5], 1.0), ([0.0, 1.0, 1.0], -1.0), ([2.0, 0.5, -1.0], 1.0)]
    for step in range(steps):
        loss = sum((unit(x) - y) ** 2 for x, y in data)
        unit.zero_grad()
        loss.backward()
        for p in unit.parameters():
            p.data -= 0.1 * p.grad
        print(f"step {step}: loss {loss.data:.12f}")
    print(unit.parameters())
    try:
        Scalar("two")
    except TypeError as error:
        print("refused:", error)
    try:
        Module()
    except TypeError:
        print("Module is abstract")


if __name__ == "__main__":
    train()
    a = Value(2.0)
    (a * a).backward()
