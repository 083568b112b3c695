import math


class Parameter:
    _count = 0

    def __init__(self, value, name=None, _parents=(), _op="leaf"):
        Parameter._count += 1
        self._value = float(value)
        self._grad = 0.0
        self.name = name or f"p{Parameter._count}"
        self._parents = _parents
        self._op = _op
        self._backward = lambda: None

    @property
    def data(self):
        return self._value

    @data.setter
    def data(self, v):
        if math.isnan(v):
            raise ValueError(f"{self.name}: NaN")
        self._value = v

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, g):
        self._grad = g

    @property
    def is_leaf(self):
        return not self._parents

    def __repr__(self):
        return f"Parameter(name={self.name!r}, data={self.data!r}, grad={self.grad!r})"

    def __str__(self):
        return f"{self.name}={self.data:.4f}"

    def __add__(self, other):
        other = other if isinstance(other, Parameter) else Parameter(other, name=repr(other))
        out = Parameter(self.data + other.data, f"({self.name}+{other.name})", (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Parameter) else Parameter(other, name=repr(other))
        out = Parameter(self.data * other.data, f"{self.name}*{other.name}", (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def sin(self):
        out = Parameter(math.sin(self.data), f"sin({self.name})", (self,), "sin")

        def _backward():
            self.grad += math.cos(self.data) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for p in v._parents:
                    build(p)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


x = Parameter(0.7, "x")
y = Parameter(-1.1, "y")
f = (x * y).sin() + x * x * 3.0
f.backward()
print(repr(x))
print(str(y), f"{f!s}", f"{f!r}"[:40])
print([p.is_leaf for p in (x, y, f)], f.name)
x.data = x.data - 0.1 * x.grad
print(x)
try:
    y.data = float("nan")
except ValueError as e:
    print("refused:", e)
print(type(Parameter.data).__name__, Parameter._count, vars(x)["_op"])
