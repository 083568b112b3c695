# A softplus activation, log(1 + e^x), whose rule passes e^x: the derivative of the
# inside of the log, where the chain rule wants e^x / (1 + e^x), the sigmoid.
import math
import random


class Node:
    def __init__(self, val, parents=(), op=''):
        self.val = val
        self.grad = 0.0
        self.parents = parents
        self.op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.val + other.val, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.val * other.val, (self, other), '*')

        def _backward():
            self.grad += other.val * out.grad
            other.grad += self.val * out.grad
        out._backward = _backward
        return out

    def __sub__(self, other):
        return self + other * -1

    def __pow__(self, k):
        out = Node(self.val ** k, (self,), f'**{k}')

        def _backward():
            self.grad += k * self.val ** (k - 1) * out.grad
        out._backward = _backward
        return out

    def softplus(self):
        out = Node(math.log(1 + math.exp(self.val)), (self,), 'softplus')

        def _backward():
            self.grad += math.exp(self.val) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def walk(n):
            if n not in seen:
                seen.add(n)
                for p in n.parents:
                    walk(p)
                order.append(n)
        walk(self)
        self.grad = 1.0
        for n in reversed(order):
            n._backward()


random.seed(3)
w = Node(random.uniform(-1, 1))
b = Node(0.0)
data = [(0.5, 1.2), (-1.0, 0.3), (2.0, 2.1)]
for step in range(3):
    loss = Node(0.0)
    for x, y in data:
        pred = (w * x + b).softplus()
        loss = loss + (pred - y) ** 2
    w.grad = 0.0
    b.grad = 0.0
    loss.backward()
    print(f"step {step}: loss {loss.val:.5f} dw {w.grad:.5f} db {b.grad:.5f}")
    w.val -= 0.1 * w.grad
    b.val -= 0.1 * b.grad
