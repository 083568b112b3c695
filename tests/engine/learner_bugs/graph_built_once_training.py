# The loss is built once, before the training loop: each step zeroes the parameters'
# gradients and calls backward() on the same graph, whose inner nodes keep (and add
# to) the gradients of the earlier steps; its data is never recomputed either. The
# engine is right: it does what any right engine does with that program.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
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

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


w, b = Value(0.5), Value(0.0)
x, y = 2.0, 3.0
err = w * x + b + (-y)
loss = err * err
for step in range(3):
    w.grad = 0.0
    b.grad = 0.0
    loss.backward()
    w.data -= 0.05 * w.grad
    b.data -= 0.05 * b.grad
    print(step, loss.data, w.grad, b.grad, round(w.data, 6))
