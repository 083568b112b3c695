# backward() sorts with an explicit stack: a node is listed when all its children are
# done, but a node two parents push is popped, and listed, twice; its rule runs twice.
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
        topo = []
        done = set()
        stack = [self]
        while stack:
            node = stack[-1]
            pending = [c for c in node._prev if c not in done]
            if pending:
                stack.extend(pending)
            else:
                stack.pop()
                done.add(node)
                topo.append(node)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()


x, w, c = Value(2.0), Value(-0.5), Value(3.0)
p = x * w
q = p * c
s = p + q
s.backward()
print(s.data, x.grad, w.grad, c.grad)
