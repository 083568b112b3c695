# A learner prints the gradients after one backward(), then calls backward() again in
# the training step without zeroing them. The loss's gradient is set back to 1, but the
# nodes below it still hold the first call's gradients and pass them on again with the
# new ones: w's step is six times the right one, not twice.
import math


class Value:
    def __init__(self, data, children=(), op=""):
        self.data = data
        self.grad = 0.0
        self.children = children
        self.op = op
        self.backward_fn = None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def backward_fn():
            self.grad += out.grad
            other.grad += out.grad

        out.backward_fn = backward_fn
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def backward_fn():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out.backward_fn = backward_fn
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def backward_fn():
            self.grad += (1 - t * t) * out.grad

        out.backward_fn = backward_fn
        return out

    def backward(self):
        order, seen = [], set()

        def dfs(v):
            if id(v) not in seen:
                seen.add(id(v))
                for c in v.children:
                    dfs(c)
                order.append(v)

        dfs(self)
        self.grad = 1.0
        for v in reversed(order):
            if v.backward_fn is not None:
                v.backward_fn()


w = Value(-0.5)
b = Value(0.2)
for step in range(3):
    w.grad = b.grad = 0.0
    out = (w * 1.5 + b).tanh()
    loss = (out + -0.8) * (out + -0.8)
    loss.backward()
    print("grads", round(w.grad, 6), round(b.grad, 6))
    loss.backward()
    w.data -= 0.1 * w.grad
    b.data -= 0.1 * b.grad
    print(step, round(loss.data, 6), round(w.data, 6), round(b.data, 6))
