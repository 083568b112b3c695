# The lecture's neuron on a learner's Value whose `__mul__` forgets to hand its operands
# to the node it makes (`Value(self.data * other.data)`, no `(self, other)`): the
# products are leaves of the graph. Their rules still run (the sort reaches them) and
# write x1, w1, x2 and w2, but never anything below them: x1 is itself a sum, of a and
# c, which end with no gradient.
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
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data)

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t**2) * out.grad
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


a, c = Value(1.5), Value(0.5)
x1 = a + c
x2 = Value(0.0)
w1, w2 = Value(-3.0), Value(1.0)
b = Value(6.8813735870195432)
n = x1 * w1 + x2 * w2 + b
o = n.tanh()
o.backward()
print(round(o.data, 6))
for name, v in [('x1', x1), ('w1', w1), ('x2', x2), ('w2', w2), ('b', b), ('a', a), ('c', c)]:
    print(name, round(v.grad, 6))
