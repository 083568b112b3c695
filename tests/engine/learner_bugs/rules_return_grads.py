# Each op keeps a function that returns its operands' shares, and backward() adds them
# in a loop of its own; mul's function hands each operand its own data.
class Value:
    def __init__(self, data, children=(), op='', grad_fn=None):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._op = op
        self.grad_fn = grad_fn

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), '+', lambda g: (g, g))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), '*',
                     lambda g: (self.data * g, other.data * g))

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            if v.grad_fn is not None:
                for child, g in zip(v._prev, v.grad_fn(v.grad)):
                    child.grad += g


a = Value(3.0)
b = Value(-2.0)
c = a * b + b
c.backward()
print(a.grad, b.grad)
