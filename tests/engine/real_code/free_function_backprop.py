"""A node class with no backward method: a free function `backprop(root)` sorts the
graph and runs each node's `grad_fn`, as some tutorials write it."""

class Node:
    def __init__(self, val, parents=()):
        self.val = val
        self.grad = 0.0
        self.parents = parents
        self.grad_fn = None

    def __mul__(self, other):
        out = Node(self.val * other.val, (self, other))
        def grad_fn():
            self.grad += other.val * out.grad
            other.grad += self.val * out.grad
        out.grad_fn = grad_fn
        return out

    def __add__(self, other):
        out = Node(self.val + other.val, (self, other))
        def grad_fn():
            self.grad += out.grad
            other.grad += out.grad
        out.grad_fn = grad_fn
        return out


def backprop(root):
    order, seen = [], set()
    def dfs(n):
        if n not in seen:
            seen.add(n)
            for p in n.parents:
                dfs(p)
            order.append(n)
    dfs(root)
    root.grad = 1.0
    for n in reversed(order):
        if n.grad_fn:
            n.grad_fn()


a, b = Node(2.0), Node(-3.0)
c = a * b + a
backprop(c)
print(a.grad, b.grad)
