# `__rtruediv__` returns `self / other`: `1 / x` computes x / 1. Every rule is right for
# the graph it built; the forward pass is wrong, and its numbers show it.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data / other.data, (self, other), '/')

        def _backward():
            self.grad += 1 / other.data * out.grad
            other.grad += -self.data / other.data ** 2 * out.grad
        out._backward = _backward
        return out

    def __rtruediv__(self, other):
        return self / other

    def backward(self):
        topo = []
        visited = set()

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


r1, r2 = Value(4.0), Value(2.0)
total = 1 / (1 / r1 + 1 / r2)
total.backward()
print(total.data, r1.grad, r2.grad)
