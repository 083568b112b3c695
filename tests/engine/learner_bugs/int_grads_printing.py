# Integers everywhere (data, grad = 0, a seed of 1) and a rule that forgets `* out.grad`
# in add; the program prints the nodes in several ways.
class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value({self.label}: data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += 1
            other.grad += 1
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

    def __lt__(self, other):
        return self.data < other.data

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
        self.grad = 1
        for v in reversed(topo):
            v._backward()


a = Value(2, label='a')
b = Value(-3, label='b')
c = Value(4, label='c')
d = (a * b + c) * a
d.backward()
params = [a, b, c]
print(a, b, c)
print([p.grad for p in params], sum(p.grad for p in params))
print(sorted(params), max(params).label, min(params, key=lambda p: p.grad).label)
print(f"{a.grad:+.3e} {b.grad / 3:.4f} {round(c.grad / 7, 3)} {a.grad ** 0.5:.6g}")
print(type(a.grad).__name__, isinstance(a.grad, int), a.grad == 2.0, str(d.data))
