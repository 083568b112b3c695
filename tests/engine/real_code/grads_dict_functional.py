"""backward() returns the gradients in a dict keyed by node: nodes hash by identity,
and the loop asks the dict, not the nodes, for each gradient."""
from collections import defaultdict
import math


class Var:
    __slots__ = ("value", "grad", "parents", "local_grads", "name")

    def __init__(self, value, parents=(), local_grads=(), name=None):
        self.value = value
        self.grad = 0.0
        self.parents = parents
        self.local_grads = local_grads
        self.name = name

    def __add__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.value + other.value, (self, other), (1.0, 1.0))

    def __mul__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.value * other.value, (self, other), (other.value, self.value))

    def __truediv__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.value / other.value, (self, other),
                   (1 / other.value, -self.value / other.value**2))

    __radd__ = __add__
    __rmul__ = __mul__

    def sin(self):
        return Var(math.sin(self.value), (self,), (math.cos(self.value),))

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for p in v.parents:
                    visit(p)
                order.append(v)

        visit(self)
        grads = defaultdict(float)
        grads[self] = 1.0
        for v in reversed(order):
            for p, local in zip(v.parents, v.local_grads):
                grads[p] += local * grads[v]
        for v, g in grads.items():
            v.grad = g
        return grads


x = Var(1.5, name="x")
y = Var(-0.5, name="y")
z = Var(2.0, name="z")
f = (x * y).sin() + x / z + 3 * x * x
g = f.backward()
print(round(f.value, 12))
named = {v.name: g[v] for v in g if v.name}
print(sorted(named.items()))
print(len(g), x.grad == g[x], max(g.values()))
print(sorted(round(v, 6) for v in g.values())[:3])
