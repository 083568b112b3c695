# `1 - x` as its own op (a hinge-style margin); the rule passes the subtrahend +out.grad,
# as for `+`, where a minus belongs.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __rsub__(self, other):  # other - self
        other = Value(other)
        out = Value(other.data - self.data, (other, self), '-')

        def _backward():
            other.grad += out.grad
            self.grad += out.grad
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


x = Value(0.5)
w = Value(1.5)
margin = 1 - x * w
loss = margin * margin
loss.backward()
print(f"loss {loss.data:.4f}")
print(f"x.grad {x.grad:.4f}  w.grad {w.grad:.4f}")
