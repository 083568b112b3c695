"""Generators as engines use them: parameters yielded, a graph walked with yield from."""


class Node:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(children)
        self._backward = lambda: None

    def __mul__(self, other):
        out = Node(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def walk(self, seen=None):
        seen = set() if seen is None else seen
        if self in seen:
            return
        seen.add(self)
        for child in self._prev:
            yield from child.walk(seen)
        yield self

    def backward(self):
        order = list(self.walk())
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


class Layer:
    def __init__(self, n):
        self.w = [Node(0.5 * (i + 1)) for i in range(n)]

    def parameters(self):
        for w in self.w:
            yield w

    def __iter__(self):
        yield from self.w


def countdown(n):
    while n > 0:
        if n % 2:
            yield n
        n -= 1
    return "done"


layer = Layer(3)
a, b, c = layer.w
out = a * b * c * a
out.backward()
print([p.grad for p in layer.parameters()], sum(p.data for p in layer))
print(list(countdown(7)), next(iter(layer)).data)
g = countdown(3)
print(next(g), next(g), next(g, "end"))
v = Value(1.0)
v.backward()
