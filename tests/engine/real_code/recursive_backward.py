"""An engine whose nodes keep (parent, local derivative) pairs and whose backward()
hands each parent its share by calling backward() on it again: no node has a rule of
its own, so the gradients are written by the recursion itself."""


class Var:
    def __init__(self, v, parents=()):
        self.v = v
        self.grad = 0.0
        self.parents = parents

    def __add__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.v + other.v, [(self, 1.0), (other, 1.0)])

    def __mul__(self, other):
        other = other if isinstance(other, Var) else Var(other)
        return Var(self.v * other.v, [(self, other.v), (other, self.v)])

    def backward(self, bp=1.0):
        self.grad += bp
        for parent, local in self.parents:
            parent.backward(bp * local)


x = Var(2.0)
y = Var(-3.0)
z = x * y + x * 4.0
z.backward()
print(x.grad, y.grad)
x.grad = y.grad = 0.0
w = z * z
w.backward()
print(x.grad, y.grad, z.grad)
