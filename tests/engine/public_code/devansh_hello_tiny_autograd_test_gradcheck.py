import math


class Value:
    """A single number that remembers how it was computed."""

    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
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

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only support int or float powers"
        out = Value(self.data ** other, (self,), f"**{other}")

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __radd__(self, other):
        return self + other

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __rtruediv__(self, other):
        return other * self ** -1

    def relu(self):
        out = Value(0.0 if self.data < 0 else self.data, (self,), "relu")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build(node):
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    build(child)
                topo.append(node)

        build(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"



def analytic_grads(f, inputs):
    values = [Value(x) for x in inputs]
    out = f(values)
    out.backward()
    return [v.grad for v in values]


def numeric_grads(f, inputs, eps=1e-6):
    grads = []
    for i in range(len(inputs)):
        up = [Value(x) for x in inputs]
        up[i] = Value(inputs[i] + eps)
        down = [Value(x) for x in inputs]
        down[i] = Value(inputs[i] - eps)
        grads.append((f(up).data - f(down).data) / (2 * eps))
    return grads


def gradcheck(f, inputs, tol=1e-5):
    a = analytic_grads(f, inputs)
    n = numeric_grads(f, inputs)
    ok = all(abs(x - y) <= tol for x, y in zip(a, n))
    return ok, a, n



def test_gradcheck_arithmetic():
    f = lambda v: v[0] * v[1] + v[0] / v[1] - v[1] ** 3
    ok, analytic, numeric = gradcheck(f, [2.0, -3.0])
    assert ok, (analytic, numeric)


def test_gradcheck_activations():
    f = lambda v: (v[0].tanh() + v[1].relu()) * v[2].exp()
    ok, analytic, numeric = gradcheck(f, [0.5, 1.2, -0.3])
    assert ok, (analytic, numeric)


def test_gradcheck_log_and_pow():
    f = lambda v: (v[0] ** 2 + 1.0).log() + v[1] ** 4
    ok, analytic, numeric = gradcheck(f, [1.5, 0.8])
    assert ok, (analytic, numeric)


def test_gradcheck_mixed():
    f = lambda v: ((v[0] * v[1]).tanh() + v[0]).relu() * (v[1] + 2.0)
    ok, analytic, numeric = gradcheck(f, [0.4, 0.9])
    assert ok, (analytic, numeric)

test_gradcheck_arithmetic()
test_gradcheck_activations()
test_gradcheck_log_and_pow()
test_gradcheck_mixed()
