# A tiny fit of y = w * x with a squared error, three steps, and no zero_grad: each
# step's gradient adds to the last one's (the engine itself is right).
import random


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
        out = Value(self.data ** other, (self,), f'**{other}')

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad
        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

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


random.seed(1)
w = Value(random.uniform(-1, 1))
xs = [1.0, 2.0, 3.0]
ys = [2.0, 4.0, 6.0]
for step in range(3):
    loss = Value(0.0)
    for x, y in zip(xs, ys):
        loss = loss + (w * x - y) ** 2
    loss.backward()
    w.data -= 0.01 * w.grad
    print(step, round(loss.data, 6), round(w.grad, 6), round(w.data, 6))
