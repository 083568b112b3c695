# Softmax and cross-entropy on Values. The `+` rule assigns (`=`) where it should add:
# the true class's exp is used twice, in its probability and in the sum, and the sum's
# share overwrites the one the division gave it.
import math


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
            self.grad = out.grad
            other.grad = out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __truediv__(self, other):
        out = Value(self.data / other.data, (self, other), '/')

        def _backward():
            self.grad += 1 / other.data * out.grad
            other.grad += -self.data / other.data ** 2 * out.grad
        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), 'log')

        def _backward():
            self.grad += 1 / self.data * out.grad
        out._backward = _backward
        return out

    def __neg__(self):
        out = Value(-self.data, (self,), 'neg')

        def _backward():
            self.grad += -out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def softmax(logits):
    exps = [z.exp() for z in logits]
    total = sum(exps)
    return [e / total for e in exps]


logits = [Value(1.0), Value(2.0), Value(0.5)]
target = 1
probs = softmax(logits)
loss = -probs[target].log()
loss.backward()
print("loss", round(loss.data, 6))
print("grads", [round(z.grad, 6) for z in logits])
print("expected", [round(p.data - (i == target), 6) for i, p in enumerate(probs)])
