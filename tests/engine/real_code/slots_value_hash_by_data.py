# A learner's Value with __slots__ that compares and hashes by its number, so two
# nodes holding the same number are "the same" to every set of nodes in the engine.
import math


class Value:
    __slots__ = ("data", "grad", "_prev", "_op", "_backward", "label")

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None
        self.label = label

    def __eq__(self, other):
        return isinstance(other, Value) and self.data == other.data

    def __hash__(self):
        return hash(self.data)

    def __repr__(self):
        return f"Value({self.label or '?'}={self.data:.4g})"

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
        for node in reversed(topo):
            node._backward()


# Two weights that happen to start at the same number: the set of visited nodes
# thinks the second is the first, and so does the product's set of operands.
w1 = Value(0.5, label="w1")
w2 = Value(0.5, label="w2")
x1 = Value(2.0, label="x1")
x2 = Value(-1.0, label="x2")
b = Value(0.25, label="b")
n = w1 * x1 + w2 * x2 + b
n.label = "n"
o = n.tanh()
o.label = "o"
o.backward()
print(o)
print(len({w1, w2, x1, x2, b}), w1 == w2, w1 is w2)
for v in (w1, w2, x1, x2, b, n):
    print(f"{v.label:>2}: data={v.data:+.3f} grad={v.grad:.6f}")
sq = w1 * w2
print(len(sq._prev), sorted(c.label for c in sq._prev))

# Two products that come out equal: the sort's visited set takes v for u, so v's rule
# never runs and p and q miss its share.
p = Value(1.5, label="p")
q = Value(2.0, label="q")
r = Value(-0.5, label="r")
u = p * q
u.label = "u"
v = q * p
v.label = "v"
loss = u * r + v
loss.label = "loss"
loss.backward()
print(loss, u == v, len({u, v}))
print(f"p.grad={p.grad} q.grad={q.grad} r.grad={r.grad} u.grad={u.grad} v.grad={v.grad}")
