# softplus, log(1 + e^x), whose rule lost a minus sign: 1 / (1 + e^x) where the
# derivative is 1 / (1 + e^-x), the sigmoid.
import math


class Node:
    def __init__(self, val, inputs=(), op=''):
        self.val = val
        self.grad = 0.0
        self.inputs = inputs
        self.op = op
        self.backward_fn = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.val + other.val, (self, other), '+')

        def backward_fn():
            self.grad += out.grad
            other.grad += out.grad
        out.backward_fn = backward_fn
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.val * other.val, (self, other), '*')

        def backward_fn():
            self.grad += other.val * out.grad
            other.grad += self.val * out.grad
        out.backward_fn = backward_fn
        return out

    def softplus(self):
        out = Node(math.log(1 + math.exp(self.val)), (self,), 'softplus')

        def backward_fn():
            self.grad += 1 / (1 + math.exp(self.val)) * out.grad
        out.backward_fn = backward_fn
        return out

    def backward(self):
        order = []
        seen = set()

        def visit(n):
            if n not in seen:
                seen.add(n)
                for i in n.inputs:
                    visit(i)
                order.append(n)
        visit(self)
        self.grad = 1.0
        for n in reversed(order):
            n.backward_fn()


w = Node(0.8)
x = Node(1.5)
b = Node(-0.2)
y = (w * x + b).softplus() * 2.0
y.backward()
print("w", round(w.grad, 6), "x", round(x.grad, 6), "b", round(b.grad, 6))
