# A mean op over a list of nodes; its rule hands each input the whole gradient, without
# the 1/n.
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

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out


def mean(values):
    out = Value(sum(v.data for v in values) / len(values), values, 'mean')

    def _backward():
        for v in values:
            v.grad += out.grad
    out._backward = _backward
    return out


def backward(root):
    topo, visited = [], set()

    def build(v):
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build(child)
            topo.append(v)
    build(root)
    root.grad = 1.0
    for v in reversed(topo):
        v._backward()


w = Value(0.5)
xs = [1.0, 2.0, 4.0]
errs = []
for x in xs:
    e = w * x + -1.0
    errs.append(e * e)
loss = mean(errs)
backward(loss)
print(loss.data, w.grad)
