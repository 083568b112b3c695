import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None

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

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __sub__(self, other):
        return self + (-1) * other

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def batches(data, size, rng):
    order = list(range(len(data)))
    rng.shuffle(order)
    for start in range(0, len(order), size):
        yield [data[i] for i in order[start:start + size]]


def epochs(n):
    yield from range(1, n + 1)


def parameters(*groups):
    for group in groups:
        if isinstance(group, list):
            yield from group
        else:
            yield group


rng = random.Random(5)
dataset = [((x / 4, (x * x) / 16), math.sin(x / 4)) for x in range(-6, 7)]
w = [Value(rng.uniform(-0.5, 0.5)) for _ in range(3)]
v = [Value(rng.uniform(-0.5, 0.5)) for _ in range(3)]
c = [Value(0.0) for _ in range(3)]
d = Value(0.0)

for epoch in epochs(6):
    total = 0.0
    for step, batch in enumerate(batches(dataset, 4, rng)):
        preds = [
            sum((vj * (wj * x0 + cj * x1).tanh() for vj, wj, cj in zip(v, w, c)), d)
            for (x0, x1), _ in batch
        ]
        loss = sum((p - y) * (p - y) for p, (_, y) in zip(preds, batch))
        for p in parameters(w, v, c, d):
            p.grad = 0.0
        loss.backward()
        for p in parameters(w, v, c, d):
            p.data -= 0.1 * p.grad
        total += loss.data
    print(f"epoch {epoch}: {step + 1} batches, loss {total:.6f}")
gen = batches(dataset, 5, random.Random(0))
print(len(next(gen)), len(next(gen)), len(next(gen)), next(gen, "done"))
print(sum(1 for _ in parameters(w, v, c, d)), [round(p.data, 6) for p in parameters(w, d)])
