# `1 / x` as its own node (`__rtruediv__`); its rule gives x the numerator's derivative,
# 1 / x, where the denominator's, -1 / x**2, belongs.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __rtruediv__(self, other):  # other / self
        other = Value(other)
        out = Value(other.data / self.data, (other, self), '/')

        def _backward():
            other.grad += (1 / self.data) * out.grad
            self.grad += (1 / self.data) * out.grad
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
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


# the harmonic mean of two resistances in parallel
r1 = Value(2.0)
r2 = Value(4.0)
r = 1 / (1 / r1 + 1 / r2)
r.backward()
print(f"R = {r.data:.4f}")
print(f"dR/dr1 = {r1.grad:.4f}, dR/dr2 = {r2.grad:.4f}")
