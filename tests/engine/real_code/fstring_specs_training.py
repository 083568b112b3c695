import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:+.2e})"

    def __format__(self, spec):
        return format(self.data, spec)

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1


random.seed(3)
hidden = [[Value(random.uniform(-1, 1)) for _ in range(2)] for _ in range(5)]
hb = [Value(0.0) for _ in range(5)]
out_w = [Value(random.uniform(-1, 1)) for _ in range(5)]
params = [w for row in hidden for w in row] + hb + out_w


def model(x):
    h = [(row[0] * x[0] + row[1] * x[1] + b).relu() for row, b in zip(hidden, hb)]
    return sum(w * hi for w, hi in zip(out_w, h))


X = [(random.uniform(-1, 1), random.uniform(-1, 1)) for _ in range(8)]
Y = [x0 - 2 * x1 for x0, x1 in X]
history = []
for i in range(15):
    preds = [model(x) for x in X]
    loss = sum((p - y) ** 2 for p, y in zip(preds, Y)) / len(X)
    for p in params:
        p.grad = 0.0
    loss.backward()
    gnorm = math.sqrt(sum(p.grad**2 for p in params))
    for p in params:
        p.data -= 0.1 * p.grad
    history.append(loss.data)
    print(f"step {i:>3} | loss {loss.data:.4f} | loss {loss:>10.3e} | |g| {gnorm:8.4f} | {i / 14:6.1%}")
print(f"{'first':<8}{history[0]:.6f}\n{'last':<8}{history[-1]:.6f}")
print(f"{len(params):,} params, {sum(1 for p in params if p.grad == 0):03d} with zero grad")
print(f"{params[0]!r:>60}")
print(f"{params[0]!s:^70}|")
print(f"{loss.data:#.3g} {loss.data:_>12.5f} {int(loss.data * 1e6):_d} {1234567.891:,.2f}")
