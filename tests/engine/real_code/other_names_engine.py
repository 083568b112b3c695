"""An engine not shaped like micrograd: `value`, `children`, `grad_fn`, `operation`,
and operands set after the node is made."""


class Tensor:
    def __init__(self, value, operation="leaf"):
        self.value = value
        self.grad = 0.0
        self.children = []
        self.operation = operation
        self.grad_fn = None

    def __add__(self, other):
        out = Tensor(self.value + other.value, "add")
        out.children = [self, other]

        def grad_fn():
            self.grad += out.grad
            other.grad += out.grad

        out.grad_fn = grad_fn
        return out

    def __mul__(self, other):
        out = Tensor(self.value * other.value, "mul")
        out.children = [self, other]

        def grad_fn():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad

        out.grad_fn = grad_fn
        return out

    def backward(self):
        order, seen = [], set()

        def dfs(t):
            if t in seen:
                return
            seen.add(t)
            for c in t.children:
                dfs(c)
            order.append(t)

        dfs(self)
        self.grad = 1.0
        for t in reversed(order):
            if t.grad_fn is not None:
                t.grad_fn()


x, y, z = Tensor(2.0), Tensor(-3.0), Tensor(10.0)
q = x * y + z
w = q * x
w.backward()
print(x.grad, y.grad, z.grad, q.grad, w.value)
