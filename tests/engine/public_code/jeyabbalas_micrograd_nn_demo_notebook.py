import math
# import sys


def trace(root):
    """
    Trace all the nodes and edges in the graph starting at root

    :param root: root node of the compute graph
    :return:
    """
    nodes, edges = set(), set()

    def build(node):
        if node not in nodes:
            nodes.add(node)
            for child in node._children:
                edges.add((child, node))
                build(child)
    build(root)

    return nodes, edges


class Value:

    def __init__(self, data, children=(), op='', label=''):
        self.data = data
        self.grad = 0.0
        self.label = label

        # internal states for compute graph construction
        self._children = set(children)
        self._op = op
        self._backward = lambda: None

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward

        return out

    def __radd__(self, other):  # called when the left operand (other) does not support addition e.g. 3 + Value(2)
        return self + other

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):  # called when the left operand (other) does not support subtraction e.g. 3 - Value(2)
        return other + (-self)

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __rmul__(self, other):  # called when the left operand (other) does not support multiplication e.g. 3 * Value(2)
        return self * other

    def __truediv__(self, other):
        return self * other ** -1

    def __rtruediv__(self, other):  # called when the left operand (other) does not support division e.g. 3 / Value(2)
        return other * self ** -1

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            self.grad += math.exp(self.data) * out.grad
        out._backward = _backward

        return out

    def __pow__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data ** other.data, (self, other), f'**{other.data}')

        def _backward():
            self.grad += other.data * self.data ** (other.data - 1) * out.grad
            # other.grad += math.log(self.data + sys.float_info.epsilon) * self.data ** other.data * out.grad
        out._backward = _backward

        return out

    def __rpow__(self, other):  # called when the left operand (other) does not support power e.g. 3 ** Value(2)
        other = other if isinstance(other, Value) else Value(other)
        return other ** self

    def tanh(self):
        x = self.data
        tanh_x = (math.exp(2*x) - 1) / (math.exp(2*x) + 1)
        out = Value(tanh_x, (self, ), 'tanh')

        def _backward():
            self.grad += (1 - tanh_x**2) * out.grad
        out._backward = _backward

        return out

    def relu(self):
        x = self.data
        relu_x = max(0, x)
        out = Value(relu_x, (self, ), 'relu')

        def _backward():
            self.grad += (x > 0) * out.grad
        out._backward = _backward

        return out

    def sigmoid(self):
        x = self.data
        sigmoid_x = 1 / (1 + math.exp(-x))
        out = Value(sigmoid_x, (self, ), 'sigmoid')

        def _backward():
            self.grad += sigmoid_x * (1 - sigmoid_x) * out.grad
        out._backward = _backward

        return out

    def backward(self):
        # topological order of all nodes in the graph
        topo = []
        visited = set()

        def build_topo(node):
            if node not in visited:
                visited.add(node)
                for child in node._children:  # process parent only after all its children have been processed
                    build_topo(child)
                topo.append(node)
        build_topo(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1.0  # initialize gradient to 1.0 for the last node
        for node in reversed(topo):
            node._backward()

    def plot(self):
        """
        Plot the compute graph.

        :return: graph object
        """
        from graphviz import Digraph

        dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'})
        nodes, edges = trace(self)

        for node in nodes:
            uid = str(id(node))

            # for values in the compute graph, draw a rectangular ('record') node
            dot.node(name=uid,
                     label=f"{{ {node.label} | data: {node.data:.4f} | grad: {node.grad:.4f} }}", shape='record')

            if node._op:
                # for operations in the compute graph, additionally draw an elliptical node
                dot.node(name=uid + node._op, label=node._op)
                # draw an edge from the operation (elliptical node) to the value (rectangular node)
                dot.edge(uid + node._op, uid)

        for node_from, node_to in edges:
            # draw edges in the compute graph
            dot.edge(str(id(node_from)), str(id(node_to)) + node_to._op)

        return dot

import random



class Module:

    def zero_grad(self):
        for w in self.parameters():
            w.grad = 0.0

    def parameters(self):
        return []


class Neuron(Module):

    def __init__(self, in_features, bias=True, label_prefix=''):
        self.label_prefix = label_prefix if len(label_prefix) == 0 else f",{label_prefix}"
        self.w = [Value(random.uniform(-1, 1), label=f"w{i + 1}{self.label_prefix}")
                  for i, _ in enumerate(range(in_features))]
        self.b = Value(random.uniform(-1, 1), label=f"w0{self.label_prefix}") if bias else None

    def __call__(self, x):
        a = self.w[0] * x[0] if self.b is None else self.b + self.w[0] * x[0]
        for i in range(1, len(self.w)):
            a += self.w[i] * x[i]
        a.label = f"a{self.label_prefix[1:] if self.label_prefix.startswith(',') else self.label_prefix}"
        return a

    def parameters(self):
        return self.w + ([self.b] if self.b is not None else [])


class Linear(Module):

    def __init__(self, in_features, out_features, bias=True, label_prefix=''):
        self.neurons = [Neuron(in_features, bias=bias, label_prefix=f"{i + 1}_{label_prefix}")
                        for i, _ in enumerate(range(out_features))]

    def __call__(self, x):
        return [neuron(x) for neuron in self.neurons]

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP(Module):

    def __init__(self, in_features, out_features_list, bias=True):
        num_neurons = [in_features] + out_features_list
        self.layers = [Linear(num_neurons[i], num_neurons[i + 1], bias=bias, label_prefix=f"{i + 1}")
                       for i, _ in enumerate(range(len(num_neurons) - 1))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

x = [2.0, 3.0, -1.0]
model = MLP(len(x), [4, 4, 1], bias=False)
model(x)

# data
xs = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0],
]

# labels
ys = [1.0, -1.0, -1.0, 1.0]

def mse(ytrues, ypreds):
    return sum((ytrue - ypred) ** 2 for ytrue, ypred in zip(ytrues, ypreds)) / len(ytrues)

# gradient descent
learning_rate = 0.05 # step size

for i in range(50):
    # forward pass
    ypreds = [model(x)[0] for x in xs]
    loss = mse(ys, ypreds)
    print(i, loss.data)

    # backward pass
    model.zero_grad()
    loss.backward()

    # gradient descent
    for w in model.parameters():
        w.data -= learning_rate * w.grad

ypreds = [model(x)[0] for x in xs]
ypreds


