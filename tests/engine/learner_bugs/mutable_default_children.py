# `_children=[]` as a default, kept as it is, and each op appends its operands to the
# new node's list: every node made without operands shares that one list, so each
# leaf "has" every operand appended so far, and the sort walks them all.
class Value:
    def __init__(self, data, _children=[], _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __add__(self, other):
        out = Value(self.data + other.data, _op='+')
        out._prev.append(self)
        out._prev.append(other)

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, _op='*')
        out._prev.append(self)
        out._prev.append(other)

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a, b, c = Value(2.0), Value(-3.0), Value(0.5)
d = a * b
e = d + c
f = e * a
f.backward()
print(f.data, a.grad, b.grad, c.grad, len(a._prev))
