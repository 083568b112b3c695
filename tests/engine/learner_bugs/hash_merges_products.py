# Equality and hash by data: x = a*b and y = c*d are equal, so the set of x + y's
# operands keeps x alone; y's rule never runs, and c and d get nothing.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
    def __eq__(self, other):
        return isinstance(other, Value) and self.data == other.data
    def __hash__(self):
        return hash(self.data)
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
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
            v._backward()


a = Value(2.0)
b = Value(3.0)
c = Value(2.0)
d = Value(3.0)
x = a * b
y = c * d
z = x + y
z.backward()
print(a.grad, b.grad, c.grad, d.grad)
