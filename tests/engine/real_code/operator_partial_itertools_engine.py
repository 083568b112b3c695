import itertools
import math
import operator
from functools import partial, lru_cache, total_ordering


@total_ordering
class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__

    def __lt__(self, other):
        return self.data < other.data

    def _binary(self, other, fn, dself, dother, op):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(fn(self.data, other.data), (self, other), op)

        def _backward():
            self.grad += dself(self.data, other.data) * out.grad
            other.grad += dother(self.data, other.data) * out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        return self._binary(other, operator.mul, lambda a, b: b, lambda a, b: a, "*")

    def __sub__(self, other):
        return self._binary(other, operator.sub, lambda a, b: 1.0, lambda a, b: -1.0, "-")

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def _unary(self, fn, dfn, op):
        out = Value(fn(self.data), (self,), op)

        def _backward():
            self.grad += dfn(self.data) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def _add(self, other):
    return self._binary(other, operator.add, lambda a, b: 1.0, lambda a, b: 1.0, "+")


Value.__add__ = _add
Value.exp = lambda self: self._unary(math.exp, math.exp, "exp")
Value.sin = partial(Value._unary, fn=math.sin, dfn=math.cos, op="sin")


@lru_cache(maxsize=None)
def binom(n, k):
    return 1 if k in (0, n) else binom(n - 1, k - 1) + binom(n - 1, k)


x = Value(0.3)
y = Value(-0.8)
terms = [binom(4, k) * x * y for k in range(5)]
pairs = list(itertools.combinations(terms, 2))
acc = list(itertools.accumulate(terms, operator.add))
prod = math.prod([x, y, Value(2.0)])
out = acc[-1] + prod + x.exp() - Value.sin(y)
out.backward()
print(len(pairs), binom.cache_info())
print(f"{out.data:.10f} {x.grad:.10f} {y.grad:.10f}")
print(max(terms).data, min(x, y) is y, sorted([x, y], key=operator.attrgetter("data"))[0] is y)
print(list(itertools.starmap(operator.mul, [(2, 3), (4, 5)])), list(itertools.islice(itertools.count(1), 3)))
