# A Value with __slots__ and division as its own op; the numerator's rule multiplies by
# the divisor instead of dividing by it.
class Value:
    __slots__ = ('data', 'grad', '_prev', '_op', '_backward')

    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._prev = _children
        self._op = _op
        self._backward = lambda: None

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
            self.grad += other.data * out.grad
            other.grad += -self.data / other.data ** 2 * out.grad
        out._backward = _backward
        return out

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


total = Value(6.0)
count = Value(4.0)
avg = total / count + 1.0
avg.backward()
print(avg.data, total.grad, count.grad)
