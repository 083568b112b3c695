# A right engine that keeps numbers out of the graph: `x * 3` and `x + 1` have x as
# their only operand, and their rules write only x's gradient.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        if not isinstance(other, Value):
            out = Value(self.data + other, (self,), '+')

            def _backward():
                self.grad += out.grad
        else:
            out = Value(self.data + other.data, (self, other), '+')

            def _backward():
                self.grad += out.grad
                other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        if not isinstance(other, Value):
            out = Value(self.data * other, (self,), '*')

            def _backward():
                self.grad += other * out.grad
        else:
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


x, w = Value(1.5), Value(-2.0)
y = (x * w + 1) * (x * 3) + w * 0.5
y.backward()
print(y.data, x.grad, w.grad)
