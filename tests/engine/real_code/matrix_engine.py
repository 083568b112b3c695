"""A scalar engine with the shapes round five found in public repositories: a matrix of
Values multiplied with `@` (a graph network's `A @ X @ W`), a logging config in a
dataclass, `copy.deepcopy` of the best model, a `__format__` for its numbers, nested
lists flattened with `isinstance(item, Iterable)`, a grad_fn's type name that is
`NoneType` for a leaf, weights drawn with `random.normalvariate`, and `__getattr__`."""

from __future__ import annotations

import copy
import logging
import math
import random
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, List, Optional


class LogLevel(Enum):
    DEBUG = logging.DEBUG
    INFO = logging.INFO


@dataclass
class Config:
    log_level: LogLevel = LogLevel.INFO
    seed: Optional[int] = None

    def __post_init__(self):
        logging.basicConfig(level=self.log_level.value, format="%(levelname)s %(message)s")
        if self.seed is not None:
            random.seed(self.seed)


config = Config(seed=7)
logger = logging.getLogger(__name__)


class Scalar:
    def __init__(self, data: float, _prev: tuple = (), grad_fn: Optional[str] = None):
        self.data = float(data)
        self.grad = 0.0
        self._prev = _prev
        self._backward = lambda: None
        self.grad_fn = grad_fn
        logger.debug(f"made {self!r}")

    def __repr__(self) -> str:
        return f"Scalar({self.data:.4f})"

    def __format__(self, spec: str) -> str:
        if not spec:
            return repr(self)
        return f"Scalar(data={self.data:{spec}}, grad={self.grad:{spec}})"

    def __add__(self, other: Scalar | float) -> Scalar:
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, (self, other), "Add")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    __radd__ = __add__

    def __mul__(self, other: Scalar | float) -> Scalar:
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, (self, other), "Mul")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __rmul__ = __mul__

    def __neg__(self) -> Scalar:
        return self * -1.0

    def __sub__(self, other: Scalar | float) -> Scalar:
        return self + (-other)

    def tanh(self) -> Scalar:
        t = math.tanh(self.data)
        out = Scalar(t, (self,), "Tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def backward(self) -> None:
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
        logger.info("backward over %d nodes", len(topo))


class Matrix:
    def __init__(self, rows: List[List[Scalar]]):
        self.rows = rows
        self.shape = (len(rows), len(rows[0]))

    def __matmul__(self, other: Matrix) -> Matrix:
        if self.shape[1] != other.shape[0]:
            return NotImplemented
        return Matrix(
            [
                [sum((a * b for a, b in zip(row, col)), Scalar(0.0)) for col in zip(*other.rows)]
                for row in self.rows
            ]
        )

    def __rmatmul__(self, other: float) -> Matrix:
        return Matrix([[other * v for v in row] for row in self.rows])

    def tanh(self) -> Matrix:
        return Matrix([[v.tanh() for v in row] for row in self.rows])

    def __getattr__(self, name: str):
        if name == "T":
            return Matrix([list(col) for col in zip(*self.rows)])
        raise AttributeError(f"'Matrix' object has no attribute '{name}'")


def flatten(items: Iterable) -> list:
    out = []
    for item in items:
        if isinstance(item, Iterable):
            out.extend(flatten(item))
        else:
            out.append(item)
    return out


def random_matrix(n: int, m: int) -> Matrix:
    sigma = (2 / (n + m)) ** 0.5
    return Matrix([[Scalar(random.normalvariate(0, sigma)) for _ in range(m)] for _ in range(n)])


A = Matrix([[Scalar(1.0), Scalar(1.0), Scalar(0.0)],
            [Scalar(1.0), Scalar(1.0), Scalar(1.0)],
            [Scalar(0.0), Scalar(1.0), Scalar(1.0)]])  # fmt: skip
X = Matrix([[Scalar(0.5), Scalar(-1.0)], [Scalar(0.25), Scalar(0.75)], [Scalar(-0.5), Scalar(2.0)]])
W = random_matrix(2, 2)
targets = [0.5, -0.5, 0.25]

best, best_loss = None, math.inf
for step in range(4):
    H = (A @ X @ W).tanh()
    loss = sum(((h - t) * (h - t) for h, t in zip((row[0] for row in H.rows), targets)), 0.0)
    for p in flatten(W.rows):
        p.grad = 0.0
    loss.backward()
    if loss.data < best_loss:
        best, best_loss = copy.deepcopy(W), loss.data
    for p in flatten(W.rows):
        p.data -= 0.1 * p.grad
    print(f"step {step}: loss {loss:.5f}")

print(best.shape, best is W, flatten(best.rows)[0] is flatten(W.rows)[0], f"{best_loss:.6f}")
print(type(W.rows[0][0].grad_fn).__name__, type(loss.grad_fn).__name__, W.T.shape)
print((2.0 @ X).rows[0], [f"{v:.3f}" for v in flatten(W.rows)])
try:
    X @ X
except TypeError as error:
    print("TypeError:", error)
