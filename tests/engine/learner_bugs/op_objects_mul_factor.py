# A class per op, as a course writes them: the op's object makes the node and hands it
# its own bound method as the node's rule. The learner's `MulOp` forgot the other
# operand's number in the first share.


class Num:
    def __init__(self, val, children=()):
        self.val = val
        self.children = list(children)
        self.grad = 0.0
        self.compute_derivatives = lambda: None

    def __add__(self, other):
        return AddOp(self, other).forward()

    def __mul__(self, other):
        return MulOp(self, other).forward()

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node.children:
                    visit(child)
                order.append(node)

        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            node.compute_derivatives()


class AddOp:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def forward(self):
        self.out = Num(self.a.val + self.b.val, (self.a, self.b))
        self.out.compute_derivatives = self.compute_derivatives
        return self.out

    def compute_derivatives(self):
        self.a.grad += self.out.grad
        self.b.grad += self.out.grad


class MulOp:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def forward(self):
        self.out = Num(self.a.val * self.b.val, (self.a, self.b))
        self.out.compute_derivatives = self.compute_derivatives
        return self.out

    def compute_derivatives(self):
        self.a.grad += self.out.grad  # the factor self.b.val left out
        self.b.grad += self.a.val * self.out.grad


x = Num(3.0)
y = Num(-2.0)
z = x * y + x * x
z.backward()
print(z.val, x.grad, y.grad)
