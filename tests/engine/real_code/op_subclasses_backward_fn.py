"""Every op its own subclass of Node, whose gradient rule is a method `backward_fn`."""
import math


class Node:
    def __init__(self, val, children=()):
        self.val = val
        self.grad = 0.0
        self.children = list(children)

    def backward_fn(self):
        pass  # a leaf has no rule

    def __add__(self, other):
        return Add(self, lift(other))

    def __radd__(self, other):
        return Add(lift(other), self)

    def __mul__(self, other):
        return Mul(self, lift(other))

    def __rmul__(self, other):
        return Mul(lift(other), self)

    def __neg__(self):
        return Mul(self, Node(-1.0))

    def __sub__(self, other):
        return self + (-lift(other))

    def __pow__(self, n):
        return Pow(self, n)

    def sigmoid(self):
        return Sigmoid(self)

    def backward(self):
        order = []
        marked = set()

        def dfs(node):
            marked.add(node)
            for child in node.children:
                if child not in marked:
                    dfs(child)
            order.append(node)

        dfs(self)
        self.grad = 1.0
        for node in reversed(order):
            node.backward_fn()


def lift(x):
    return x if isinstance(x, Node) else Node(float(x))


class Add(Node):
    def __init__(self, a, b):
        super().__init__(a.val + b.val, (a, b))

    def backward_fn(self):
        a, b = self.children
        a.grad += self.grad
        b.grad += self.grad


class Mul(Node):
    def __init__(self, a, b):
        super().__init__(a.val * b.val, (a, b))

    def backward_fn(self):
        a, b = self.children
        a.grad += b.val * self.grad
        b.grad += a.val * self.grad


class Pow(Node):
    def __init__(self, a, n):
        super().__init__(a.val**n, (a,))
        self.n = n

    def backward_fn(self):
        (a,) = self.children
        a.grad += self.n * a.val ** (self.n - 1) * self.grad


class Sigmoid(Node):
    def __init__(self, a):
        super().__init__(1 / (1 + math.exp(-a.val)), (a,))

    def backward_fn(self):
        (a,) = self.children
        a.grad += self.val * (1 - self.val) * self.grad


w = [Node(0.3), Node(-0.2)]
bias = Node(0.1)
data = [((1.0, 2.0), 1.0), ((-1.5, 0.5), 0.0), ((0.5, -1.0), 1.0)]
for it in range(4):
    loss = sum((Sigmoid(w[0] * x0 + w[1] * x1 + bias) - t) ** 2 for (x0, x1), t in data)
    for p in (*w, bias):
        p.grad = 0.0
    loss.backward()
    print(f"it={it} loss={loss.val:.8f} dw=({w[0].grad:.6f}, {w[1].grad:.6f}) db={bias.grad:.6f}")
    for p in (*w, bias):
        p.val -= 0.5 * p.grad
print(type(loss).__name__, type(loss.children[0]).__name__, isinstance(loss, Node))
