# An elementwise max of two Values whose rule passes out.grad to both operands, where
# only the larger one decides the output.
class Node:
    def __init__(self, value, inputs=(), op=''):
        self.value = value
        self.grad = 0.0
        self.inputs = inputs
        self.op = op
        self.backward_fn = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.value + other.value, (self, other), '+')

        def backward_fn():
            self.grad += out.grad
            other.grad += out.grad
        out.backward_fn = backward_fn
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.value * other.value, (self, other), '*')

        def backward_fn():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad
        out.backward_fn = backward_fn
        return out

    def maximum(self, other):
        out = Node(max(self.value, other.value), (self, other), 'max')

        def backward_fn():
            self.grad += out.grad
            other.grad += out.grad
        out.backward_fn = backward_fn
        return out

    def backward(self):
        order = []
        seen = set()

        def visit(n):
            if n not in seen:
                seen.add(n)
                for i in n.inputs:
                    visit(i)
                order.append(n)
        visit(self)
        self.grad = 1.0
        for n in reversed(order):
            n.backward_fn()


a = Node(1.5)
b = Node(-0.5)
c = Node(2.0)
y = (a * c).maximum(b * c) * 0.5 + b
y.backward()
print("a", a.grad, "b", b.grad, "c", c.grad)
