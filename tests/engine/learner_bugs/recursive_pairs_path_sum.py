# A right engine: each op keeps `(operand, local)` pairs, backward() recurses down every
# path handing each operand the path's product (judged whole, as a walk of no rule).


class Var:
    def __init__(self, value, local_gradients=()):
        self.value = value
        self.local_gradients = local_gradients
        self.grad = 0.0

    def __add__(self, other):
        return Var(self.value + other.value, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        return Var(self.value * other.value, ((self, other.value), (other, self.value)))

    def backward(self):
        def walk(variable, path_value):
            for child, local in variable.local_gradients:
                child.grad += path_value * local
                walk(child, path_value * local)

        walk(self, 1.0)


a = Var(2.0)
b = Var(3.0)
c = a * b
d = c * a + c
d.backward()
print(a.grad, b.grad, c.grad)
