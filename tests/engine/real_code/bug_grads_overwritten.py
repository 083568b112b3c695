# Gradients written with `=` instead of `+=`: a node used twice keeps only the last share.
class Value:
    def __init__(self, data, children=(), op=""):
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._op = op
        self._backward = lambda: None

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad = other.data * out.grad
            other.grad = self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


# f(x, y) = (x*y + 3) * x: x feeds the outer product and, through g, the inner one.
# The outer rule runs first (the sort puts a node's consumers first), then the inner
# one overwrites what it gave x. df/dx = 2xy + 3 = -5, df/dy = x*x = 4.
x = Value(2.0)
y = Value(-2.0)
g = x * y + 3
f = g * x
f.backward()
print(f)
print("x.grad", x.grad, "should be", 2 * x.data * y.data + 3)
print("y.grad", y.grad, "should be", x.data * x.data)

# y*y: both writes of one rule are the same number, y.data, where 2y is right.
s = y * y
y.grad = 0.0
s.backward()
print("y.grad", y.grad, "should be", 2 * y.data)
