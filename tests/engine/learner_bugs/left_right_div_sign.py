# Operands kept one to an attribute (left, right) and handed out by a method named
# parents(), the rule in grad_fn, the op in `operation`, a sort that counts consumers
# (Kahn's), __rsub__ and __rtruediv__; the divisor's rule forgets its minus sign.
import math


class Scalar:
    def __init__(self, value, left=None, right=None, operation=None):
        self.value = value
        self.grad = 0.0
        self.left = left
        self.right = right
        self.operation = operation
        self.grad_fn = None

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value + other.value, self, other, "+")

        def grad_fn():
            self.grad += out.grad
            other.grad += out.grad
        out.grad_fn = grad_fn
        return out

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value - other.value, self, other, "-")

        def grad_fn():
            self.grad += out.grad
            other.grad -= out.grad
        out.grad_fn = grad_fn
        return out

    def __rsub__(self, other):
        return Scalar(other) - self

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value * other.value, self, other, "*")

        def grad_fn():
            self.grad += other.value * out.grad
            other.grad += self.value * out.grad
        out.grad_fn = grad_fn
        return out

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.value / other.value, self, other, "/")

        def grad_fn():
            self.grad += out.grad / other.value
            other.grad += out.grad * self.value / other.value ** 2
        out.grad_fn = grad_fn
        return out

    def __rtruediv__(self, other):
        return Scalar(other) / self

    def exp(self):
        out = Scalar(math.exp(self.value), self, None, "exp")

        def grad_fn():
            self.grad += out.value * out.grad
        out.grad_fn = grad_fn
        return out

    def parents(self):
        return [p for p in (self.left, self.right) if p is not None]

    def backward(self):
        count = {}
        stack, seen = [self], {id(self)}
        while stack:
            node = stack.pop()
            for p in node.parents():
                count[id(p)] = count.get(id(p), 0) + 1
                if id(p) not in seen:
                    seen.add(id(p))
                    stack.append(p)
        self.grad = 1.0
        ready = [self]
        while ready:
            node = ready.pop()
            if node.grad_fn is not None:
                node.grad_fn()
            for p in node.parents():
                count[id(p)] -= 1
                if count[id(p)] == 0:
                    ready.append(p)


x = Scalar(0.7)
w = Scalar(-1.3)
s = 1 / (1 + (0 - x * w).exp())
loss = (1 - s) * (1 - s) / 2
loss.backward()
print(loss.value, x.grad, w.grad)
