import math


class Var:
    def __init__(self, data, prev=(), op=""):
        self.data = data
        self.grad = 0.0
        self._prev = prev
        self._op = op
        self._backward = lambda: None

    def _wrap(self, other):
        return other if isinstance(other, Var) else Var(other)

    def __add__(self, other):
        other = self._wrap(other)
        out = Var(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __iadd__(self, other):
        # a new node, as `x = x + y`: the graph keeps the old one
        return self + other

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = self._wrap(other)
        out = Var(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __rmul__ = __mul__

    def __pow__(self, k):
        out = Var(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def __rpow__(self, base):
        # base ** self, base a plain number
        out = Var(base**self.data, (self,), f"{base}**")

        def _backward():
            self.grad += math.log(base) * out.data * out.grad

        out._backward = _backward
        return out

    def __abs__(self):
        out = Var(abs(self.data), (self,), "abs")

        def _backward():
            self.grad += (1.0 if self.data >= 0 else -1.0) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-self._wrap(other))

    def __lt__(self, other):
        return self.data < (other.data if isinstance(other, Var) else other)

    def __gt__(self, other):
        return self.data > (other.data if isinstance(other, Var) else other)

    def __repr__(self):
        return f"Var({self.data!r})"

    def backward(self):
        topo, visited = [], set()

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


xs = [Var(0.5), Var(-1.25), Var(2.0), Var(-0.75)]
total = Var(0.0)
for x in xs:
    total += abs(x) * 2 ** x
print(total)
big = max(xs)
small = min(xs, key=lambda v: abs(v.data))
ranked = sorted(xs)
print(big, small, ranked)
penalty = (big - small) ** 2 + 3 ** ranked[0]
loss = total + penalty
loss.backward()
print([round(x.grad, 12) for x in xs])
print(loss.data, total.grad, penalty.grad)
print(Var(1.0) < 2, Var(3.0) > Var(1.0), sorted(xs, reverse=True)[0])
