# A right engine: relu's rule masks with `out.data > 0`, the output's sign, which is
# the input's wherever the input is not 0 (nothing to name).
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

    def __rmul__(self, other):
        return self * other

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,), 'ReLU')

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
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


x1, x2 = Value(1.5), Value(-0.5)
w1, w2, w3 = Value(0.8), Value(-1.2), Value(2.0)
h1 = (w1 * x1 + w2 * x2).relu()
h2 = (w3 * x2).relu()
y = 3 * h1 + 2 * h2 + h1 * h1
y.backward()
for name, v in [("x1", x1), ("x2", x2), ("w1", w1), ("w2", w2), ("w3", w3)]:
    print(name, v.grad)
