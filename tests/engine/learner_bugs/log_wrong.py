# A log op whose rule divides by the output, not by the input.
import math


class Scalar:
    def __init__(self, data, prev=(), op=''):
        self.data = data
        self.grad = 0.0
        self.prev = prev
        self._op = op
        self._backward = lambda: None

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def log(self):
        out = Scalar(math.log(self.data), (self,), 'log')

        def _backward():
            self.grad += (1 / out.data) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        seen = set()

        def go(v):
            if v not in seen:
                seen.add(v)
                for p in v.prev:
                    go(p)
                topo.append(v)
        go(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


p = Scalar(0.25)
q = Scalar(4.0)
nll = (p * q + p).log() * Scalar(-1.0)
nll.backward()
print(p.grad, q.grad)
