# A class per op with forward() and backward(); Sigmoid's backward gives s * s instead of
# s * (1 - s).
import math


class Value:
    def __init__(self, data, op=None, inputs=()):
        self.data = data
        self.grad = 0.0
        self.op = op
        self.inputs = inputs

    def __add__(self, other):
        return Add()(self, other if isinstance(other, Value) else Value(other))

    def __mul__(self, other):
        return Mul()(self, other if isinstance(other, Value) else Value(other))

    def sigmoid(self):
        return Sigmoid()(self)

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for i in v.inputs:
                    build(i)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            if v.op is not None:
                v.op.backward(v)


class Op:
    def __call__(self, *inputs):
        out = Value(self.forward(*[i.data for i in inputs]), self, inputs)
        return out


class Add(Op):
    def forward(self, a, b):
        return a + b

    def backward(self, out):
        a, b = out.inputs
        a.grad += out.grad
        b.grad += out.grad


class Mul(Op):
    def forward(self, a, b):
        return a * b

    def backward(self, out):
        a, b = out.inputs
        a.grad += b.data * out.grad
        b.grad += a.data * out.grad


class Sigmoid(Op):
    def forward(self, x):
        return 1 / (1 + math.exp(-x))

    def backward(self, out):
        (x,) = out.inputs
        s = out.data
        x.grad += s * s * out.grad


x = Value(0.5)
w = Value(-1.2)
b = Value(0.3)
p = (x * w + b).sigmoid()
p.backward()
print(f"{p.data:.6f} {x.grad:.6f} {w.grad:.6f} {b.grad:.6f}")
