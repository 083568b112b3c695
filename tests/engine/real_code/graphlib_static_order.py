from graphlib import TopologicalSorter
import math


class Scalar:
    def __init__(self, data, parents=(), op="", name=""):
        self.data = data
        self.grad = 0.0
        self.parents = parents
        self.op = op
        self.name = name
        self._backward = lambda: None

    def __repr__(self):
        return f"Scalar({self.name or self.op}: {self.data:.4f})"

    def __add__(self, other):
        out = Scalar(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Scalar(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def exp(self):
        e = math.exp(self.data)
        out = Scalar(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def reciprocal(self):
        out = Scalar(1.0 / self.data, (self,), "1/x")

        def _backward():
            self.grad += -1.0 / self.data**2 * out.grad

        out._backward = _backward
        return out

    def backward(self):
        ts = TopologicalSorter()
        stack, seen = [self], set()
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            ts.add(v, *v.parents)
            stack.extend(v.parents)
        order = list(ts.static_order())
        self.grad = 1.0
        for v in reversed(order):
            v._backward()
        return order


x = Scalar(0.8, name="x")
w = Scalar(-1.3, name="w")
b = Scalar(0.4, name="b")
one = Scalar(1.0, name="one")
z = x * w + b
sig = (one + (z * Scalar(-1.0, name="-1")).exp()).reciprocal()
out = sig * x + sig
order = out.backward()
print(order[:4])
print(len(order), order[-1] is out)
print(f"x.grad={x.grad:.10f} w.grad={w.grad:.10f} b.grad={b.grad:.10f}")

ts = TopologicalSorter({"c": {"a", "b"}, "d": {"c"}})
ts.prepare()
ready = []
while ts.is_active():
    nodes = sorted(ts.get_ready())
    ready.append(nodes)
    ts.done(*nodes)
print(ready)
