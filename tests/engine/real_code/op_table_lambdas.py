import math

# Each op: (forward, local derivatives given the inputs and the output).
OPS = {
    "add": (lambda a, b: a + b, lambda a, b, out: (1.0, 1.0)),
    "mul": (lambda a, b: a * b, lambda a, b, out: (b, a)),
    "sub": (lambda a, b: a - b, lambda a, b, out: (1.0, -1.0)),
    "div": (lambda a, b: a / b, lambda a, b, out: (1.0 / b, -a / (b * b))),
    "exp": (lambda a: math.exp(a), lambda a, out: (out,)),
    "log": (lambda a: math.log(a), lambda a, out: (1.0 / a,)),
    "tanh": (lambda a: math.tanh(a), lambda a, out: (1.0 - out**2,)),
}


class Node:
    def __init__(self, value, parents=(), op=None):
        self.value = value
        self.grad = 0.0
        self.parents = parents
        self.op = op

    @classmethod
    def apply(cls, op, *inputs):
        inputs = tuple(i if isinstance(i, Node) else Node(float(i)) for i in inputs)
        forward, _ = OPS[op]
        return cls(forward(*(i.value for i in inputs)), inputs, op)

    def __add__(self, o): return Node.apply("add", self, o)
    def __radd__(self, o): return Node.apply("add", o, self)
    def __mul__(self, o): return Node.apply("mul", self, o)
    def __rmul__(self, o): return Node.apply("mul", o, self)
    def __sub__(self, o): return Node.apply("sub", self, o)
    def __rsub__(self, o): return Node.apply("sub", o, self)
    def __truediv__(self, o): return Node.apply("div", self, o)
    def __rtruediv__(self, o): return Node.apply("div", o, self)

    def exp(self): return Node.apply("exp", self)
    def log(self): return Node.apply("log", self)
    def tanh(self): return Node.apply("tanh", self)

    def _backward(self):
        if self.op is None:
            return
        _, local = OPS[self.op]
        grads = local(*(p.value for p in self.parents), self.value)
        for p, g in zip(self.parents, grads):
            p.grad += g * self.grad

    def backward(self):
        order, done = [], set()

        def visit(n):
            if id(n) in done:
                return
            done.add(id(n))
            for p in n.parents:
                visit(p)
            order.append(n)

        visit(self)
        self.grad = 1.0
        for n in order[::-1]:
            n._backward()

    def __repr__(self):
        return f"Node({self.value:.5f}, grad={self.grad:.5f}, op={self.op!r})"


a = Node(1.2)
b = Node(-0.7)
c = Node(3.0)
h = (a * b + c).tanh()
soft = (a.exp() / (a.exp() + b.exp() + 1)).log()
y = h * soft - b / c + 2 * a
y.backward()
for name, n in {"a": a, "b": b, "c": c, "h": h, "y": y}.items():
    print(name, n)
print(sorted(OPS))
