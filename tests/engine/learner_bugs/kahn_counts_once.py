# Kahn's algorithm, but each consumer is counted once per child (a set of children)
# while the queue takes one off per use: h, squared by h * h, runs before its other
# consumer's rule.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
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
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        nodes, stack = {self}, [self]
        while stack:
            v = stack.pop()
            for c in v._prev:
                if c not in nodes:
                    nodes.add(c)
                    stack.append(c)
        pending = {v: 0 for v in nodes}
        for v in nodes:
            for c in set(v._prev):
                pending[c] += 1
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for c in v._prev:
                pending[c] -= 1
                if pending[c] == 0:
                    ready.append(c)


x = Value(1.5)
h = x * Value(2.0)
sq = h * h
out = h * Value(-1.0) + sq
out.backward()
print(x.grad, h.grad)
