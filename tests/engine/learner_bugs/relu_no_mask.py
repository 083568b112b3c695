# A Node engine on `val` and `inputs`; relu passes the gradient through everywhere.
class Node:
    def __init__(self, val, inputs=(), op=''):
        self.val = val
        self.grad = 0.0
        self.inputs = inputs
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.val + other.val, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.val * other.val, (self, other), '*')

        def _backward():
            self.grad += other.val * out.grad
            other.grad += self.val * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Node(max(0.0, self.val), (self,), 'relu')

        def _backward():
            self.grad += out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(n):
            if n not in seen:
                seen.add(n)
                for i in n.inputs:
                    build(i)
                topo.append(n)
        build(self)
        self.grad = 1.0
        for n in reversed(topo):
            n._backward()


x = Node(2.0)
h1 = (x * -1.0).relu()
h2 = (x * 0.5).relu()
y = h1 * 4.0 + h2 * 2.0
y.backward()
print(x.grad)
