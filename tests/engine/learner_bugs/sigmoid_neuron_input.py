# A Neuron trained in a loop; the engine's sigmoid rule works from the input, not from
# the output: x * (1 - x) where it meant s * (1 - s).
import math
import random


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __sub__(self, other):
        return self + other * -1

    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, (self,), 'sigmoid')

        def _backward():
            self.grad += self.data * (1 - self.data) * out.grad
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


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)

    def __call__(self, x):
        return (sum(wi * xi for wi, xi in zip(self.w, x)) + self.b).sigmoid()

    def parameters(self):
        return self.w + [self.b]


random.seed(3)
n = Neuron(2)
xs = [[0.5, 1.0], [-1.0, 0.5]]
ys = [1.0, 0.0]
for step in range(2):
    loss = sum((n(x) - y) * (n(x) - y) for x, y in zip(xs, ys))
    for p in n.parameters():
        p.grad = 0.0
    loss.backward()
    for p in n.parameters():
        p.data -= 0.5 * p.grad
    print(step, round(loss.data, 8), [round(p.grad, 8) for p in n.parameters()])
