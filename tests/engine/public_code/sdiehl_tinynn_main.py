import math


class Value:
    def __init__(self, data, _children=(), _op="", label=""):
        self.data = data
        self.grad = 0.0
        self.label = label
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op  # the op that produced this node, for graphviz / debugging / etc

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward

        return out

    def __pow__(self, other):
        assert isinstance(
            other, (int, float)
        ), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad

        out._backward = _backward

        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward

        return out

    def tanh(self):

        x = self.data
        t = math.tanh(x)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward

        return out

    def exp(self):
        x = self.data
        out = Value(math.exp(x), (self,), "exp")

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward

        return out

    def sigmoid(self):
        x = self.data
        sig = 1 / (1 + math.exp(-x))
        out = Value(sig, (self,), "sigmoid")

        def _backward():
            self.grad += sig * (1 - sig) * out.grad

        out._backward = _backward

        return out

    def backward(self):
        # topological order all of the children in the graph
        topo = []
        visited = set()

        def topo_sort(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    topo_sort(child)
                topo.append(v)

        topo_sort(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):  # -self
        return self * -1

    def __radd__(self, other):  # other + self
        return self + other

    def __sub__(self, other):  # self - other
        return self + (-other)

    def __rsub__(self, other):  # other - self
        return other + (-self)

    def __rmul__(self, other):  # other * self
        return self * other

    def __truediv__(self, other):  # self / other
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

import random


class Module:
    """Base class for all neural network modules."""

    def zero_grad(self):
        """Sets gradients of all parameters to zero."""
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        """Returns a list of all parameters in the module."""
        return []


class Neuron(Module):
    """
    A single neuron with multiple inputs and one output.
    """

    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{'ReLU' if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    """
    A layer of neurons, where each neuron has the same number of inputs.
    """

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    """
    Multi-layer perceptron (fully connected feed-forward neural network).
    """

    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [
            Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1)
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"



def demo_basic_operations():
    """Demonstrate basic autograd operations"""
    print("=== Basic Operations Demo ===")

    # Create some values
    a = Value(2.0, label="a")
    b = Value(-3.0, label="b")
    c = Value(10.0, label="c")

    # Perform operations
    d = a * b
    d.label = "d"
    e = d + c
    e.label = "e"
    f = e.relu()
    f.label = "f"

    print(f"a = {a.data}, b = {b.data}, c = {c.data}")
    print(f"d = a * b = {d.data}")
    print(f"e = d + c = {e.data}")
    print(f"f = e.relu() = {f.data}")

    # Compute gradients
    f.backward()

    print("\nGradients after backward pass:")
    print(f"a.grad = {a.grad}")
    print(f"b.grad = {b.grad}")
    print(f"c.grad = {c.grad}")
    print(f"d.grad = {d.grad}")
    print(f"e.grad = {e.grad}")
    print(f"f.grad = {f.grad}")

    # Visualize the computation graph
    print("\nGenerating computation graph visualization...")


def demo_simple_neural_network():
    """Demonstrate a very simple neural network without external data"""
    print("\n=== Simple Neural Network Demo ===")

    # Create a small multilayer perceptron
    x = [Value(1.0), Value(2.0), Value(3.0)]

    # Neural network with 3 inputs, hidden layer of 4 neurons, and 1 output
    model = MLP(3, [4, 1])

    # Forward pass
    # Since the output layer has only one neuron, the result will be a single Value
    y_pred = model(x)

    # Handle both single output and list output cases
    y_pred_value = y_pred[0] if isinstance(y_pred, list) else y_pred

    print(f"Input: [{', '.join(str(i.data) for i in x)}]")
    print(f"Prediction: {y_pred_value.data}")

    # Define a target and compute loss
    y_true = 0.5
    loss = (y_pred_value - y_true) ** 2

    print(f"Target: {y_true}")
    print(f"Loss: {loss.data}")

    # Backward pass
    loss.backward()

    # Update weights using gradient descent (manually)
    learning_rate = 0.1
    for p in model.parameters():
        p.data -= learning_rate * p.grad

    # Second forward pass after weight update
    y_pred = model(x)
    y_pred_value = y_pred[0] if isinstance(y_pred, list) else y_pred
    loss = (y_pred_value - y_true) ** 2

    print("\nAfter one gradient descent step:")
    print(f"New prediction: {y_pred_value.data}")
    print(f"New loss: {loss.data}")

    # Visualize the computation graph
    print("\nGenerating computation graph visualization...")


def main():
    # Run the basic operations demo
    demo_basic_operations()

    # Run the simple neural network demo
    demo_simple_neural_network()



if __name__ == "__main__":
    main()
