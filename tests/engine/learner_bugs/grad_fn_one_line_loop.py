# A right engine in PyTorch's shape: each op keeps grad_fn, which returns its parents'
# shares of the gradient it is given, and backward() adds them in a loop written on one
# line, walking the nodes in reverse topological order.
import math


class Value:
    def __init__(self, data, parents=(), grad_fn=None):
        self.data = data
        self.grad = 0.0
        self.parents = parents
        self.grad_fn = grad_fn

    def __add__(self, other):
        return Value(self.data + other.data, (self, other), lambda g: (g, g))

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other),
                     lambda g: (other.data * g, self.data * g))

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, (self,), lambda g: ((1 - t * t) * g,))


def backward(out):
    order, seen = [], set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            for p in node.parents:
                visit(p)
            order.append(node)
    visit(out)
    out.grad = 1.0
    for node in reversed(order):
        if node.grad_fn:
            for p, g in zip(node.parents, node.grad_fn(node.grad)): p.grad += g


x = Value(0.5)
w = Value(-1.5)
b = Value(0.25)
y = (x * w + b).tanh()
backward(y)
print(y.data, x.grad, w.grad, b.grad)
