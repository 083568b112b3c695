"""A node keeps its inputs and the method that made it (`input_op = Value.__mul__`); the
backward pass looks that method up in a table of static backward rules, each of which
returns the inputs' shares, and adds them in."""


class Value:
    def __init__(self, x):
        self.value = x
        self.grad = 0
        self.inputs = []
        self.input_op = None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.value + other.value)
        out.inputs = [self, other]
        out.input_op = Value.__add__
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.value * other.value)
        out.inputs = [self, other]
        out.input_op = Value.__mul__
        return out

    def relu(self):
        out = Value(self.value * int(self.value > 0))
        out.inputs = [self]
        out.input_op = Value.relu
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    @staticmethod
    def _backward_add(grad, inputs):
        assert len(inputs) == 2, "__add__ must take 2 operands."
        return [grad, grad]

    @staticmethod
    def _backward_mul(grad, inputs):
        a, b = inputs
        return [grad * b.value, grad * a.value]

    @staticmethod
    def _backward_relu(grad, inputs):
        return [grad * (inputs[0].value > 0)]

    def backward(self):
        rules = {
            Value.__add__: Value._backward_add,
            Value.__mul__: Value._backward_mul,
            Value.relu: Value._backward_relu,
        }
        order, seen = [], set()

        def visit(v):
            if id(v) in seen:
                return
            seen.add(id(v))
            for i in v.inputs:
                visit(i)
            order.append(v)

        visit(self)
        self.grad = 1
        for v in reversed(order):
            if v.input_op is None:
                continue
            shares = rules[v.input_op](v.grad, v.inputs)
            for i, g in zip(v.inputs, shares):
                i.grad += g

    def __repr__(self):
        return f"Value({self.value}, grad={self.grad})"


w = [Value(0.5), Value(-1.5)]
b = Value(0.25)
x = [2.0, 1.0]
for step in range(3):
    y = (w[0] * x[0] + w[1] * x[1] + b).relu() + 0.5 * w[0] * w[0]
    for p in (*w, b):
        p.grad = 0
    y.backward()
    print(step, round(y.value, 6), [round(p.grad, 6) for p in (*w, b)])
    for p in (*w, b):
        p.value -= 0.1 * p.grad
print(w, b)
