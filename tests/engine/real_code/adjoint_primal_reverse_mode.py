"""Reverse mode as the autodiff texts write it: each node keeps its primal value, its
parents with the local partial derivative towards each, and an adjoint that the sweep
accumulates."""
import math


class Node:
    __slots__ = ("primal", "adjoint", "parents")

    def __init__(self, primal, parents=()):
        self.primal = float(primal)
        self.parents = tuple(parents)  # (node, d self / d node) pairs
        self.adjoint = 0.0

    def __add__(self, other):
        other = lift(other)
        return Node(self.primal + other.primal, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = lift(other)
        return Node(self.primal * other.primal, ((self, other.primal), (other, self.primal)))

    __radd__ = __add__
    __rmul__ = __mul__

    def __repr__(self):
        return f"Node(primal={self.primal:.6f}, adjoint={self.adjoint:.6f})"


def lift(x):
    return x if isinstance(x, Node) else Node(x)


def sin(x):
    return Node(math.sin(x.primal), ((x, math.cos(x.primal)),))


def exp(x):
    e = math.exp(x.primal)
    return Node(e, ((x, e),))


def topological_order(root):
    order, seen = [], set()

    def visit(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        for parent, _ in node.parents:
            visit(parent)
        order.append(node)

    visit(root)
    return order


def backward(root):
    for node in topological_order(root):
        node.adjoint = 0.0
    root.adjoint = 1.0
    for node in reversed(topological_order(root)):
        for parent, partial in node.parents:
            parent.adjoint += partial * node.adjoint


x1 = Node(1.5)
x2 = Node(-0.5)
# f(x1, x2) = sin(x1 * x2) + exp(x2) * x1 + 3 * x1
f = sin(x1 * x2) + exp(x2) * x1 + 3 * x1
backward(f)
print(f)
print("df/dx1", x1.adjoint, "by hand", x2.primal * math.cos(x1.primal * x2.primal) + math.exp(x2.primal) + 3)
print("df/dx2", x2.adjoint, "by hand", x1.primal * math.cos(x1.primal * x2.primal) + math.exp(x2.primal) * x1.primal)

# Gradient descent on g(a) = (a * a - 2) * (a * a - 2), towards a = sqrt(2).
a = Node(1.0)
for step in range(5):
    r = a * a + (-2.0)
    g = r * r
    backward(g)
    a = Node(a.primal - 0.05 * a.adjoint)
    print(step, round(g.primal, 10), round(a.primal, 10))
