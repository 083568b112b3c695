# No sort: backward() runs the node's rule, then calls itself on each child. A node two
# parents share runs its rule once per parent.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backprop(self):
        self._backward()
        for child in self._prev:
            child.backprop()


x = Value(2.0)
y = Value(5.0)
s = x * y
t = s + x
u = t * s
u.grad = 1.0
u.backprop()
print(x.grad, y.grad, s.grad, t.grad)
