# `__add__` hangs its rule on `other` instead of on `out`: each sum keeps the rule
# `__init__` gives every node, which passes nothing on, and its right operand's own rule
# (here a product's) is replaced by the sum's.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        other._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
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


a = Value(2.0)
b = Value(-3.0)
c = Value(0.5)
p = a * b
y = c + p
y.backward()
print(a.grad, b.grad, c.grad)
