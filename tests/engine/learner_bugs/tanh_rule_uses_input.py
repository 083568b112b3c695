# tanh's rule squares its input, not its output: 1 - x**2 where 1 - tanh(x)**2 belongs.
import math


class Scalar:
    def __init__(self, val, parents=(), op=''):
        self.val = val
        self.grad = 0.0
        self.parents = parents
        self.op = op
        self.grad_fn = None

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.val + other.val, (self, other), '+')

        def grad_fn():
            self.grad += out.grad
            other.grad += out.grad
        out.grad_fn = grad_fn
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.val * other.val, (self, other), '*')

        def grad_fn():
            self.grad += other.val * out.grad
            other.grad += self.val * out.grad
        out.grad_fn = grad_fn
        return out

    def tanh(self):
        out = Scalar(math.tanh(self.val), (self,), 'tanh')

        def grad_fn():
            self.grad += (1 - self.val ** 2) * out.grad
        out.grad_fn = grad_fn
        return out

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for p in node.parents:
                    visit(p)
                order.append(node)
        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            if node.grad_fn:
                node.grad_fn()


x = Scalar(0.8)
w = Scalar(-0.5)
b = Scalar(0.1)
y = (x * w + b).tanh() * 3.0
y.backward()
print("y =", round(y.val, 6))
print("dy/dx =", round(x.grad, 6), "dy/dw =", round(w.grad, 6), "dy/db =", round(b.grad, 6))
