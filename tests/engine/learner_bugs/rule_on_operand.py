# `__mul__` sets its rule on `self`, not on `out`: the product keeps no rule of its own,
# and a, used in two products, keeps only the last one's: b gets nothing.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self.backward_fn = None
        self._prev = set(_children)
        self._op = _op
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        def fn():
            self.grad += out.grad
            other.grad += out.grad
        out.backward_fn = fn
        return out
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def fn():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        self.backward_fn = fn   # bug: set on self, not out
        return out
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            if v.backward_fn:
                v.backward_fn()
a = Value(2.0); b = Value(-3.0); c = Value(10.0)


a = Value(2.0)
b = Value(-3.0)
c = Value(10.0)
d = a * b + a * c
d.backward()
print(a.grad, b.grad, c.grad)
