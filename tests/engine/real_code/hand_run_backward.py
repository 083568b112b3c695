"""A learner's first steps before writing backward(): the engine's rules exist, and the
program seeds the output and calls each node's `_backward()` itself, in an order it
worked out on paper, then once more over a sort it wrote at the top level."""

import math


class Node:
    def __init__(self, data, parents=(), op="", name=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(parents)
        self._op = op
        self.name = name

    def __repr__(self):
        return f"Node({self.name}: data={self.data:.4f}, grad={self.grad:.4f})"

    def __add__(self, other):
        out = Node(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Node(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Node(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out


a = Node(1.5, name="a")
u = Node(-2.0, name="u")
c = Node(0.5, name="c")
v = Node(0.75, name="v")
k = Node(0.25, name="k")
au = a * u
au.name = "au"
cv = c * v
cv.name = "cv"
s = au + cv
s.name = "s"
z = s + k
z.name = "z"
y = z.tanh()
y.name = "y"

# By hand: seed, then each rule from the output down.
y.grad = 1.0
y._backward()
z._backward()
k._backward()
s._backward()
cv._backward()
au._backward()
for leaf in (a, u, c, v, k):
    print(leaf)

# Again, in the order of a sort written out at the top level, from zeroed gradients.
order, seen = [], set()
stack = [(y, False)]
while stack:
    node, done = stack.pop()
    if done:
        order.append(node)
    elif node not in seen:
        seen.add(node)
        stack.append((node, True))
        for parent in sorted(node._prev, key=lambda p: p.data):
            stack.append((parent, False))
for node in order:
    node.grad = 0.0
y.grad = 1.0
for node in reversed(order):
    node._backward()
print([node.name for node in order])
print(a.grad, u.grad, c.grad, v.grad, k.grad)
