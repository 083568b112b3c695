# A dot-product op over n weights and n inputs; its rule gives every weight the first
# input as its factor (`xs[0].data` where it meant `xs[i].data`).
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


def dot(ws, xs):
    total = 0.0
    for w, x in zip(ws, xs):
        total += w.data * x.data
    out = Value(total, ws + xs, 'dot')

    def _backward():
        for i in range(len(ws)):
            ws[i].grad += xs[0].data * out.grad
            xs[i].grad += ws[i].data * out.grad
    out._backward = _backward
    return out


ws = [Value(0.5), Value(-1.0), Value(2.0)]
xs = [Value(1.0), Value(3.0), Value(-2.0)]
y = dot(ws, xs) + 1.0
loss = y * y
loss.backward()
print(loss.data, [w.grad for w in ws], [x.grad for x in xs])
