# backward()'s loop calls `self._backward()` where it meant `node._backward()`: the
# output's rule runs once per node in the order, and no other rule runs at all.
class Scalar:
    def __init__(self, value, children=(), op=''):
        self.value = value
        self.grad = 0.0
        self._backward = lambda: None
        self._children = list(children)
        self._op = op

    def __repr__(self):
        return f"Scalar({self.value:.4f}, grad={self.grad:.4f})"

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value + other.value, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value * other.value, (self, other), '*')

        def _backward():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad
        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def relu(self):
        out = Scalar(self.value if self.value > 0 else 0.0, (self,), 'relu')

        def _backward():
            self.grad += (out.value > 0) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        order = []
        seen = set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._children:
                    visit(child)
                order.append(node)
        visit(self)
        self.grad = 1.0
        for node in reversed(order):
            self._backward()


w = [Scalar(0.5), Scalar(-0.25)]
b = Scalar(0.1)
x = [1.5, 2.0]
h = (w[0] * x[0] + w[1] * x[1] + b).relu()
y = 3 * h + h * h
y.backward()
print(y)
print(h, b)
print(w)
