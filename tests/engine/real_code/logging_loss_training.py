import logging
import math
import random

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0
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

    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1 - s) * out.grad

        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += out.grad / self.data

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for node in reversed(topo):
            node._backward()


random.seed(8)
w = [Value(random.uniform(-1, 1)) for _ in range(2)]
b = Value(0.0)
xs = [(random.gauss(0, 1), random.gauss(0, 1)) for _ in range(6)]
ys = [1 if x0 + x1 > 0 else 0 for x0, x1 in xs]
log.debug("not shown: %d points", len(xs))
log.info("training on %d points", len(xs))
for step in range(6):
    loss = Value(0.0)
    for (x0, x1), y in zip(xs, ys):
        p = (w[0] * x0 + w[1] * x1 + b).sigmoid()
        loss = loss - (y * p.log() + (1 - y) * (1 - p).log())
    loss = loss * (1 / len(xs))
    for q in w + [b]:
        q.grad = 0
    loss.backward()
    for q in w + [b]:
        q.data -= 1.0 * q.grad
    log.info("step %d loss %.5f", step, loss.data)
    if loss.data > 10:
        log.warning("loss diverging: %s", loss.data)
logging.getLogger("train.eval").warning("final weights %s", [round(q.data, 4) for q in w])
print("done", round(loss.data, 8))
