# A Neuron/MLP training loop whose zero_grad resets the weights only: each bias keeps
# adding the steps' gradients (the engine itself is right).
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

    def __rmul__(self, other):
        return self * other

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data > 0) * out.grad
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
    def __init__(self, nin, relu=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.relu = relu

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.relu else act

    def parameters(self):
        return self.w + [self.b]


class MLP:
    def __init__(self):
        self.hidden = [Neuron(2) for _ in range(3)]
        self.out = Neuron(3, relu=False)

    def __call__(self, x):
        return self.out([n(x) for n in self.hidden])

    def parameters(self):
        return [p for n in self.hidden + [self.out] for p in n.parameters()]

    def zero_grad(self):
        for n in self.hidden + [self.out]:
            for w in n.w:
                w.grad = 0.0


random.seed(1)
model = MLP()
xs = [[1.0, -0.5], [0.5, 1.5], [-1.0, 0.25]]
ys = [1.0, -1.0, 0.5]
for step in range(3):
    loss = sum((model(x) - y) * (model(x) - y) for x, y in zip(xs, ys))
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad
    print(step, round(loss.data, 6), round(model.out.b.grad, 6))
