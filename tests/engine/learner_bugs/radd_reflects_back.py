# __radd__ written as `return other + self`: for `0 + v` (sum() starts from 0) the int
# declines, Python asks v.__radd__ again, and it asks the int again, forever.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return other + self

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out


ws = [Value(0.3), Value(-0.7), Value(1.1)]
xs = [2.0, 1.0, -1.0]
out = sum(w * x for w, x in zip(ws, xs))
print(out.data)
