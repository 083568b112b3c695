# An n-ary sum whose rules are made in a loop; each closure reads the loop variable
# when it runs, so every rule writes the last operand's gradient.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._rules = []

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def rule():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._rules = [rule]
        return out

    @staticmethod
    def total(values):
        out = Value(sum(v.data for v in values), values, 'sum')
        for v in values:
            def rule():
                v.grad += out.grad
            out._rules.append(rule)
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
            for rule in v._rules:
                rule()


a = Value(2.0)
b = Value(-1.0)
c = Value(0.5)
s = Value.total([a * b, b * c, c * a])
s.backward()
print(s.data, a.grad, b.grad, c.grad)
