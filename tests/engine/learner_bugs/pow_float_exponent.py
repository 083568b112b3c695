# `__pow__` handles an int exponent and a float one in two branches; the float branch
# (sqrt's 0.5) forgets to take 1 off the exponent.
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

    def __pow__(self, other):
        if isinstance(other, int):
            out = Value(self.data ** other, (self,), f'**{other}')

            def _backward():
                self.grad += other * self.data ** (other - 1) * out.grad
        else:
            out = Value(self.data ** other, (self,), f'**{other}')

            def _backward():
                self.grad += other * self.data ** other * out.grad
        out._backward = _backward
        return out

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


a, b = Value(3.0), Value(4.0)
dist = (a ** 2 + b ** 2) ** 0.5
dist.backward()
print(dist.data, a.grad, b.grad)
