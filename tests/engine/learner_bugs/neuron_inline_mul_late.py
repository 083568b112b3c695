# A neuron that multiplies its weights and inputs inline, one rule per product made in
# the loop: each rule reads `wi`, `xi` and `prod` when it runs, after the loop, so
# every one of them writes the last product's weight and input.
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t * t) * out.grad
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


class Neuron:
    def __init__(self, weights, bias):
        self.w = [Value(w) for w in weights]
        self.b = Value(bias)

    def __call__(self, xs):
        act = self.b
        for wi, xi in zip(self.w, xs):
            prod = Value(wi.data * xi.data, (wi, xi), '*')

            def _backward():
                wi.grad += xi.data * prod.grad
                xi.grad += wi.data * prod.grad
            prod._backward = _backward
            act = act + prod
        return act.tanh()


n = Neuron([0.5, -1.0, 0.25], 0.1)
xs = [Value(1.0), Value(2.0), Value(-3.0)]
y = n(xs)
y.backward()
print(round(y.data, 6), [round(w.grad, 6) for w in n.w], round(n.b.grad, 6))
