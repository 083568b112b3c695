"""
Tensor is scalar
"""
import math


class Scalar:
    def __init__(self, data, _children={}, _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Scalar(data={self.data})"

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward

        return out

    def __truediv__(self, other):
        return self * other ** -1

    def __rtruediv__(self, other):
        return other * self ** -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __neg__(self):
        return self * -1

    def __rmul__(self, other):
        return self * other

    def __radd__(self, other):
        return self + other

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float"
        out = Scalar(self.data ** other, (self,), f'**{other}')

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad

        out._backward = _backward

        return out

    def tanh(self):
        x = self.data
        th = (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)
        out = Scalar(th, (self,), 'tanh')

        def _backward():
            self.grad += (1 - th ** 2) * out.grad

        out._backward = _backward

        return out

    def relu(self):
        out = Scalar(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward

        return out

    def backward(self):
        nodes = []
        visited = set()

        # Create a list of all nodes in order to make backward operation
        def topological_sort(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    topological_sort(child)
                nodes.append(v)

        topological_sort(self)

        self.grad = 1.0  # the last node
        for node in reversed(nodes):
            node._backward()

import random

class Module:
    """Parent class @ as pytorch's nn.Module """

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0

    def parameters(self):
        raise NotImplementedError


class Neuron(Module):
    def __init__(self, n_input):
        self.w = [Scalar(random.uniform(-1, 1)) for _ in range(n_input)]
        self.b = Scalar(0.0)
        self.activation = "relu"

    def __call__(self, x):
        # performs w*x + b
        a = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        if self.activation == "relu":
            out = a.relu()
        else:
            out = a.tanh()  # make this dynamical
        return out

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    def __init__(self, n_input, n_output):
        self.neurons = [Neuron(n_input) for _ in range(n_output)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP(Module):
    def __init__(self, n_input, n_output):
        net_size = [n_input] + n_output
        self.layers = [Layer(net_size[i], net_size[i + 1]) for i in range(len(n_output))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


net = MLP(4, [4, 3, 1])  # A MLP of 4-dim inputs and a total of
# 4 layers of 4,4,3,1 neurons

X = [
    [2.0, 3.0, 5.0, -2.0],
    [-3.0, 1.0, 4.0, -2.0],
    [2.0, 4.0, 5.0, -5.0],
    [1.0, 3.0, 2.0, -1.0]
]
y = [1.0, -1.0, 1.0, -1.0]

# learning loop
lr = 0.05
for e in range(50):
    # forward pass
    yhat = [net(x) for x in X]
    loss = sum((yout - ytrue) ** 2 for yout, ytrue in zip(yhat, y))

    # backward pass
    # zero grad
    net.zero_grad()
    loss.backward()

    # update parameters
    for p in net.parameters():
        p.data += - lr * p.grad

    if e % 5 == 0: print("Epoch ", e, loss.data)
