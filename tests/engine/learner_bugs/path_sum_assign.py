# The same shape, right in every op, but the share that arrives is written over the
# gradient already there (`=` where `+=` is right): a node reached down two paths keeps
# only the second path's share.
class Scalar:
    def __init__(self, value, op=None, inputs=()):
        self.value = value
        self.op = op
        self.inputs = inputs
        self.grad = 0.0

    def __add__(self, other):
        return Scalar(self.value + other.value, "add", (self, other))

    def __mul__(self, other):
        return Scalar(self.value * other.value, "mul", (self, other))

    def backward(self, grad=1.0):
        self.grad = grad
        if self.op == "add":
            for node in self.inputs:
                node.backward(grad)
        elif self.op == "mul":
            a, b = self.inputs
            a.backward(grad * b.value)
            b.backward(grad * a.value)


x, y = Scalar(2.0), Scalar(-3.0)
z = x * y + x * x
z.backward()
print(z.value, x.grad, y.grad)
