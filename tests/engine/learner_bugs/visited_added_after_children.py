# A right engine: build() marks a node visited only after its children are done. In a
# graph with no cycles nothing reaches a node again while its children are being
# visited, so every node is still listed once, after its children.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._children = list(_children)
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

    def backward(self):
        topo = []
        done = set()

        def build(v):
            if v in done:
                return
            for child in v._children:
                build(child)
            done.add(v)
            topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a, b = Value(1.5), Value(-2.0)
c = a * b
d = c + a
e = d * c + d * b
e.backward()
print(e.data, a.grad, b.grad)
