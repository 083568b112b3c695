# abs of exactly 0 (a prediction equal to its target), its rule's sign at 0 being
# 0 (sign(0) = 0, micrograd's convention): right.
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

    def __abs__(self):
        out = Value(abs(self.data), (self,), 'abs')

        def _backward():
            self.grad += (1 if self.data > 0 else (-1 if self.data < 0 else 0)) * out.grad
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


w = Value(0.5)
x = Value(2.0)
target = Value(1.0)
loss = abs(w * x + target * -1.0) * 3.0 + abs(w * -4.0)
loss.backward()
print(loss.data, w.grad, x.grad, target.grad)
