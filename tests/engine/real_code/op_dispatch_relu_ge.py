# One `_backward` method for every op, dispatching on `self._op` (no closures), and a
# two-layer ReLU network trained on a few points.
# The bug: relu's branch masks with `self.data >= 0`, the output's data, which a relu
# never makes negative: every relu passes its whole gradient down, as if it were absent.
import random


class Value:
    def __init__(self, data, children=(), op=""):
        self.data = data
        self.grad = 0.0
        self._children = list(children)
        self._op = op

    def __repr__(self):
        return f"Value({self.data:.4f})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), "+")

    __radd__ = __add__

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), "*")

    __rmul__ = __mul__

    def __sub__(self, other):
        return self + other * -1

    def relu(self):
        return Value(self.data if self.data > 0 else 0.0, (self,), "relu")

    def _backward(self):
        if self._op == "+":
            a, b = self._children
            a.grad += self.grad
            b.grad += self.grad
        elif self._op == "*":
            a, b = self._children
            a.grad += b.data * self.grad
            b.grad += a.data * self.grad
        elif self._op == "relu":
            (a,) = self._children
            a.grad += (self.data >= 0) * self.grad

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for c in v._children:
                    visit(c)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()


random.seed(3)
hidden = [[Value(random.uniform(-1, 1)) for _ in range(3)] for _ in range(3)]  # w1, w2, b
head = [Value(random.uniform(-1, 1)) for _ in range(4)]  # v1, v2, v3, c
params = [p for row in hidden for p in row] + head
data = [((1.0, 0.5), 1.0), ((-0.5, 1.0), -0.5), ((0.25, -1.0), 0.75)]


def predict(x1, x2):
    hs = [(w1 * x1 + w2 * x2 + b).relu() for w1, w2, b in hidden]
    return sum((v * h for v, h in zip(head, hs)), head[3])


for step in range(4):
    loss = sum(((predict(x1, x2) - y) * (predict(x1, x2) - y) for (x1, x2), y in data), Value(0.0))
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data -= 0.05 * p.grad
    print(step, round(loss.data, 6))
print([round(predict(x1, x2).data, 4) for (x1, x2), _ in data])
