# Leaky ReLU whose rule has the two slopes the wrong way round: 0.01 for a positive
# input, 1 for a negative one.
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

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def leaky_relu(self, alpha=0.01):
        out = Value(self.data if self.data > 0 else alpha * self.data, (self,), 'leaky_relu')

        def _backward():
            self.grad += (alpha if self.data > 0 else 1.0) * out.grad
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


x = Value(2.0)
w1, w2 = Value(0.5), Value(-0.75)
y = (x * w1).leaky_relu() + (x * w2).leaky_relu()
y.backward()
print(f"y = {y.data}")
print(f"w1.grad = {w1.grad}, w2.grad = {w2.grad}, x.grad = {x.grad}")
