# A Scalar engine with its rules as methods and an iterative sort; tanh's derivative
# written as 1 - t.
import math


class Scalar:
    def __init__(self, data, children=(), op=''):
        self.data = data
        self.grad = 0
        self._children = list(children)
        self._op = op
        self._backward = self._noop

    def _noop(self):
        pass

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, [self, other], '+')
        out._backward = out._add_backward
        return out

    def _add_backward(self):
        a, b = self._children
        a.grad += self.grad
        b.grad += self.grad

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, [self, other], '*')
        out._backward = out._mul_backward
        return out

    def _mul_backward(self):
        a, b = self._children
        a.grad += b.data * self.grad
        b.grad += a.data * self.grad

    def tanh(self):
        out = Scalar(math.tanh(self.data), [self], 'tanh')
        out._backward = out._tanh_backward
        return out

    def _tanh_backward(self):
        (x,) = self._children
        x.grad += (1 - self.data) * self.grad

    def backward(self):
        order = []
        seen = set()
        stack = [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            for child in node._children:
                if child not in seen:
                    stack.append((child, False))
        self.grad = 1
        for node in reversed(order):
            node._backward()


x1 = Scalar(2.0)
x2 = Scalar(0.0)
w1 = Scalar(-3.0)
w2 = Scalar(1.0)
b = Scalar(6.8813735870195432)
n = x1 * w1 + x2 * w2 + b
o = n.tanh()
o.backward()
for name, v in [('x1', x1), ('w1', w1), ('x2', x2), ('w2', w2), ('b', b), ('n', n)]:
    print(name, v.grad)
