# A dataclass Value; the power rule is written k * x**k, the exponent not lowered.
from dataclasses import dataclass, field


@dataclass(eq=False)
class Value:
    data: float
    grad: float = 0.0
    _prev: tuple = ()
    _op: str = ''
    _backward: object = field(default=lambda: None, repr=False)

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, 0.0, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, 0.0, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, 0.0, (self,), f'**{k}')

        def _backward():
            self.grad += k * self.data ** k * out.grad
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


x = Value(2.0)
y = x ** 3 + x * 5.0
y.backward()
print(y.data, x.grad)
print(x)
