# Every node starts with a gradient of 1 (the output's seed, put in __init__ by mistake):
# each rule is right and runs once in order, yet every gradient has 1 too many below it.
class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 1.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    visit(child)
                topo.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a = Value(2.0)
b = Value(-3.0)
c = a * b + a
c.backward()
print(a.grad, b.grad)
