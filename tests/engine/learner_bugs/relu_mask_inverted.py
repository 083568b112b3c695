# A Tensor engine with `value` and `parents`, rules as lambdas; relu passes the gradient
# where the input was negative.
class Tensor:
    def __init__(self, value, parents=(), op=''):
        self.value = value
        self.grad = 0.0
        self.parents = parents
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        out = Tensor(self.value + other.value, (self, other), '+')
        out._backward = lambda: (self._acc(out.grad), other._acc(out.grad))
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        out = Tensor(self.value * other.value, (self, other), '*')
        out._backward = lambda: (self._acc(other.value * out.grad), other._acc(self.value * out.grad))
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def relu(self):
        out = Tensor(self.value if self.value > 0 else 0.0, (self,), 'ReLU')
        out._backward = lambda: self._acc((out.value <= 0) * out.grad)
        return out

    def _acc(self, g):
        self.grad += g

    def backward(self):
        topo, seen = [], set()

        def visit(t):
            if t not in seen:
                seen.add(t)
                for p in t.parents:
                    visit(p)
                topo.append(t)
        visit(self)
        self.grad = 1.0
        for t in topo[::-1]:
            t._backward()


x = Tensor(1.5)
w1 = Tensor(-0.5)
w2 = Tensor(2.0)
h1 = (x * w1).relu()
h2 = (x * w2).relu()
y = h1 * 3.0 + h2 * -1.0 + 0.25
y.backward()
print(f"y={y.value:.4f} x.grad={x.grad:.4f} w1.grad={w1.grad:.4f} w2.grad={w2.grad:.4f}")
