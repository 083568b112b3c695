# Gradients start as None, as PyTorch's do, but every rule adds with `+=`: the first
# write adds a float to None.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = None
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
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


w = Value(0.5)
x = Value(3.0)
y = w * x
y.backward()
print(w.grad, x.grad)
