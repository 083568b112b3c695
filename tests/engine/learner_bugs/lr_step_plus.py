# A right engine with a wrong step: `p.data += lr * p.grad` climbs the loss instead of
# descending it. The gradients are right (nothing in the engine to name); the loss grows.
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

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, (self,), f'**{k}')

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad
        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

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


w, b = Value(0.2), Value(0.0)
data = [(1.0, 3.0), (2.0, 5.0)]
lr = 0.05
for step in range(3):
    loss = Value(0.0)
    for x, y in data:
        loss = loss + (w * x + b - y) ** 2
    for p in (w, b):
        p.grad = 0.0
    loss.backward()
    for p in (w, b):
        p.data += lr * p.grad
    print(step, round(loss.data, 6), round(w.data, 6), round(b.data, 6))
