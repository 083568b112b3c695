# backward() keeps its order in default arguments, `topo=[]` and `visited=set()`: Python
# makes them once, when the method is defined, so every call adds to the same list. The
# second step's backward() runs its own nodes' rules, then the first step's again.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self._op = _op

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self, topo=[], visited=set()):
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


w = Value(-0.5)
b = Value(0.25)
x = Value(3.0)
for step in range(2):
    w.grad = 0.0
    b.grad = 0.0
    y = w * x + b
    loss = y * y
    loss.backward()
    print(step, round(loss.data, 6), w.grad, b.grad)
    w.data -= 0.02 * w.grad
    b.data -= 0.02 * b.grad
