from __future__ import annotations
from typing import List, Optional, Union, Tuple, Callable
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
import functools
import operator
import itertools
import math
import random

Number = Union[int, float]

class Op(ABC):
    @abstractmethod
    def apply(self, a: float) -> float: ...

class Double(Op):
    def apply(self, a):
        return 2 * a

try:
    Op()
except TypeError as e:
    print("abstract:", e)

def logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        print("call", fn.__name__)
        return fn(*args, **kwargs)
    return inner

@logged
def square(x):
    return x * x

print(square(3))

@dataclass
class Point:
    x: float
    y: float = 0.0
    tags: List[str] = field(default_factory=list)

p = Point(1.5)
print(p, p == Point(1.5), p == Point(2.0))
p.tags.append("a")
print(p.tags, Point(1, 2).tags)

class Temp:
    def __init__(self, c):
        self._c = c
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, value):
        self._c = value * 1.0
    @staticmethod
    def unit():
        return "C"
    @classmethod
    def zero(cls):
        return cls(0)

t = Temp.zero()
t.c = 5
print(t.c, Temp.unit(), t.unit(), type(t).__name__, type(1.0).__name__, type(t) is Temp)
print(getattr(t, "c"), hasattr(t, "nope"), getattr(t, "nope", 7))
setattr(t, "extra", 3)
print(t.extra)
print(functools.reduce(operator.add, [1, 2, 3]), math.prod([2, 3, 4]))
print(list(itertools.product([1, 2], "ab")), list(itertools.accumulate([1, 2, 3])))
print(list(itertools.combinations(range(4), 2)), list(itertools.chain([1], (2, 3))))
print(pow(2, 10), pow(3, 4, 5), divmod(17, 5), divmod(-7.5, 2))
rng = random.Random(3)
print(rng.random(), rng.randint(1, 6))

@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30))
it = iter([1, 2])
print(next(it), next(it), next(it, "end"))
print(callable(square), callable(3))
class Node:
    def __init__(self, d):
        self.data = d
        self.grad = 0.0
        self._prev = ()
        self._backward = lambda: None

if __name__ == "__main__":
    a = Value(2.0)
    b = a * a
    b.backward()
    print(a.grad)
