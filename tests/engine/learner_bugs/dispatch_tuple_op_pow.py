# One backward() for every op, dispatching on the node's op, kept as a tuple of a word
# and, for a power, its exponent (`("pow", 2)`). The learner's power rule forgot the
# `- 1`: k * x**k where k * x**(k - 1) belongs.


class Var:
    def __init__(self, value, children=(), op=None):
        self.value = value
        self.children = children
        self.op = op
        self.grad = 0.0

    def __add__(self, other):
        return Var(self.value + other.value, (self, other), ("add",))

    def __mul__(self, other):
        return Var(self.value * other.value, (self, other), ("mul",))

    def __pow__(self, k):
        return Var(self.value**k, (self,), ("pow", k))

    def local_grads(self):
        if self.op is None:
            return []
        kind = self.op[0]
        if kind == "add":
            return [1.0, 1.0]
        if kind == "mul":
            a, b = self.children
            return [b.value, a.value]
        k = self.op[1]
        return [k * self.children[0].value ** k]

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for c in v.children:
                    visit(c)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            for c, g in zip(v.children, v.local_grads()):
                c.grad += g * v.grad


w = Var(0.5)
x = Var(3.0)
b = Var(-1.0)
err = w * x + b
loss = err**2
loss.backward()
print(loss.value, w.grad, x.grad, b.grad)
