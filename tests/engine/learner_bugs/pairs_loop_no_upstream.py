# Each node keeps its operands with their local derivatives, `(node, d self / d node)`,
# and backward() applies the chain rule in one loop for every op; the loop adds the
# local derivative alone, forgetting `* node.grad`.
import math


class Var:
    def __init__(self, value, parents=()):
        self.value = value
        self.parents = parents
        self.grad = 0.0

    def __add__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.value + other.value, [(self, 1.0), (other, 1.0)])

    def __mul__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.value * other.value, [(self, other.value), (other, self.value)])

    def exp(self):
        e = math.exp(self.value)
        return Var(e, [(self, e)])

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for parent, _ in node.parents:
                    visit(parent)
                order.append(node)

        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            for parent, local in node.parents:
                parent.grad += local


x = Var(0.5)
y = Var(-1.5)
z = (x * y).exp() * 2.0 + x
z.backward()
print(round(x.grad, 10), round(y.grad, 10))
