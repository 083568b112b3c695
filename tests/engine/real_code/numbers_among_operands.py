# An engine that keeps the plain number of `x * 3` among the node's operands, as it was
# given, and skips it when it sorts and when it passes gradients on.
class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = list(_children)
        self._op = _op

    def __add__(self, other):
        theirs = other.data if isinstance(other, Value) else other
        out = Value(self.data + theirs, (self, other), "+")

        def _backward():
            self.grad += out.grad
            if isinstance(other, Value):
                other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        theirs = other.data if isinstance(other, Value) else other
        out = Value(self.data * theirs, (self, other), "*")

        def _backward():
            self.grad += theirs * out.grad
            if isinstance(other, Value):
                other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __sub__(self, other):
        return self + other * -1

    def __pow__(self, k):
        out = Value(self.data ** k, (self, k), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        order, done = [], set()

        def walk(v):
            if id(v) in done:
                return
            done.add(id(v))
            for c in v._prev:
                if isinstance(c, Value):
                    walk(c)
            order.append(v)

        walk(self)
        self.grad = 1.0
        for v in order[::-1]:
            v._backward()


xs = [0.0, 1.0, 2.0, 3.0, 4.0]
ys = [1.1, 2.9, 5.2, 7.1, 8.8]
w, b = Value(0.0), Value(0.0)
for step in range(40):
    loss = sum(((w * x + b) - y) ** 2 for x, y in zip(xs, ys)) * (1 / len(xs))
    w.grad = b.grad = 0.0
    loss.backward()
    w.data -= 0.05 * w.grad
    b.data -= 0.05 * b.grad
    if step % 10 == 0:
        print(step, round(loss.data, 6), [type(c).__name__ for c in loss._prev])
print(f"w={w.data:.4f} b={b.data:.4f}")
