# backward() seeds the output with 0 instead of 1 (it meant to reset it first).
class Scalar:
    def __init__(self, data, children=(), op=''):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(children)
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def dfs(n):
            if n in seen:
                return
            seen.add(n)
            for p in n._prev:
                dfs(p)
            order.append(n)
        dfs(self)
        for n in order:
            n.grad = 0.0
        for n in reversed(order):
            n._backward()


a = Scalar(1.5)
b = Scalar(-2.0)
loss = a * b + a * 3.0
loss.backward()
print(a.grad, b.grad, loss.grad)
