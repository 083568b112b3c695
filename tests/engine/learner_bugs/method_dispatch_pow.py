# One _backward method that dispatches on the op, as a class Tensor on `value`; `**`
# differentiates as (k - 1) * x**k.
class Tensor:
    def __init__(self, value, children=(), op='', k=None):
        self.value = value
        self.grad = 0.0
        self._prev = children
        self._op = op
        self.k = k

    def __add__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        return Tensor(self.value + other.value, (self, other), '+')

    def __mul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        return Tensor(self.value * other.value, (self, other), '*')

    def __pow__(self, k):
        return Tensor(self.value ** k, (self,), f'**{k}', k)

    def __truediv__(self, other):
        return self * other ** -1

    def _backward(self):
        if self._op == '+':
            a, b = self._prev
            a.grad += self.grad
            b.grad += self.grad
        elif self._op == '*':
            a, b = self._prev
            a.grad += b.value * self.grad
            b.grad += a.value * self.grad
        elif self._op.startswith('**'):
            (a,) = self._prev
            a.grad += (self.k - 1) * a.value ** self.k * self.grad

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a = Tensor(3.0)
b = Tensor(2.0)
r = a / b + a ** 2
r.backward()
print(a.grad, b.grad)
