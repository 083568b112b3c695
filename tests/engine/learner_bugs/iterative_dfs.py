# A depth-first sort with an explicit stack in place of the recursion (right): a node is
# appended once all its children are, children taken from the top of the stack (the
# last operand first).
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._backward = lambda: None

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
        topo, visited = [], set()
        stack = [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
                continue
            if v in visited:
                continue
            visited.add(v)
            stack.append((v, True))
            for child in v._prev:
                stack.append((child, False))
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a = Value(1.5)
b = Value(-0.5)
c = Value(2.0)
p = a * b
q = b * c
s = p + q
out = s * s
out.backward()
print(a.grad, b.grad, c.grad, s.grad)
