# `__sub__` writes its rule but never attaches it (`out._backward = _backward` left
# out): the node keeps the do-nothing rule of a leaf, so nothing flows past the `-`.
class Value:
    def __init__(self, data, _children=[], _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._children = list(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, [self, other], '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, [self, other], '-')

        def _backward():
            self.grad += out.grad
            other.grad -= out.grad
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, [self, other], '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
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
            node._backward()


w, b = Value(0.5), Value(-0.25)
x, y = Value(2.0), Value(1.5)
err = w * x + b - y
loss = err * err
loss.backward()
print(f"loss={loss.data:.4f} w.grad={w.grad} b.grad={b.grad} y.grad={y.grad}")
