# Kahn's algorithm (right) over `_children`; add's rule writes with `=`, and `b = a + a`
# uses a twice.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._children = tuple(_children)
        self._op = _op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad = out.grad
            other.grad = out.grad
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
        indegree = {}
        stack = [self]
        while stack:
            v = stack.pop()
            for c in v._children:
                if c not in indegree:
                    indegree[c] = 0
                    stack.append(c)
                indegree[c] += 1
        self.grad = 1.0
        queue = [self]
        while queue:
            v = queue.pop(0)
            v._backward()
            for c in v._children:
                indegree[c] -= 1
                if indegree[c] == 0:
                    queue.append(c)


a = Value(-4.0)
b = a + a
c = b * Value(3.0)
c.backward()
print(a.grad, b.grad)
