# Local derivatives kept as (child, local) pairs and one generic backward; division gives
# the divisor `other.data ** -1`, the numerator's derivative, instead of -a / b**2.
class Value:
    def __init__(self, data, parents=()):
        self.data = data
        self.grad = 0.0
        self.parents = parents  # (child, local derivative) pairs

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, ((self, other.data), (other, self.data)))

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data / other.data,
                     ((self, other.data ** -1), (other, other.data ** -1)))

    def backward(self):
        order = []
        seen = set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for child, _ in v.parents:
                    visit(child)
                order.append(v)
        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            for child, local in v.parents:
                child.grad += local * v.grad


a = Value(3.0)
b = Value(2.0)
c = a / b * a + b
c.backward()
print(round(c.data, 6), a.grad, b.grad)
