# An n-ary sum op whose rule loops over its operands with `=`: a term that appears twice
# in the sum keeps one share.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = list(_children)
        self._op = _op

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    @staticmethod
    def total(terms):
        out = Value(sum(t.data for t in terms), terms, 'sum')

        def _backward():
            for t in terms:
                t.grad = out.grad
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


x = Value(1.5)
y = Value(-0.5)
xy = x * y
s = Value.total([xy, x, xy])
f = s * Value(2.0)
f.backward()
print(x.grad, y.grad, xy.grad)
