# micrograd's engine with relu's rule written `>= 0`: at an input of exactly 0 (a bias
# of Value(0) fed [0, 0]) its local derivative is 1, micrograd's 0. relu has no
# derivative there, and any number from 0 to 1 is a right one: nothing is wrong.
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self._prev = set(_children)
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

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (self.data >= 0) * out.grad
        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()


class Neuron:
    def __init__(self, ws, nonlin=True):
        self.w = [Value(w) for w in ws]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


hidden = [Neuron([0.5, -0.3]), Neuron([-0.4, 0.8])]
output = Neuron([0.7, -0.6], nonlin=False)
params = [p for n in hidden for p in n.parameters()] + output.parameters()
xs = [[0.0, 0.0], [1.0, 0.5]]
ys = [0.0, 1.0]
for step in range(3):
    preds = [output([n(x) for n in hidden]) for x in xs]
    loss = sum((p - y) * (p - y) for p, y in zip(preds, ys))
    for p in params:
        p.grad = 0
    loss.backward()
    for p in params:
        p.data += -0.1 * p.grad
    print(step, loss.data)
print([p.data for p in params])
