import math


class AutogradError(Exception):
    """Something the engine will not differentiate."""


class DomainError(AutogradError):
    def __init__(self, op, value):
        super().__init__(f"{op} is undefined at {value}")
        self.op = op
        self.value = value


class Value:
    def __init__(self, data, children=(), op=""):
        if not isinstance(data, (int, float)):
            raise TypeError(f"Value needs a number, got {type(data).__name__}")
        self.data = float(data)
        self.grad = 0.0
        self._prev = set(children)
        self._op = op
        self._backward = lambda: None

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

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        if other.data == 0:
            raise ZeroDivisionError("division of a Value by zero")
        out = Value(self.data / other.data, (self, other), "/")

        def _backward():
            self.grad += out.grad / other.data
            other.grad += -self.data / other.data**2 * out.grad

        out._backward = _backward
        return out

    def log(self):
        if self.data <= 0:
            raise DomainError("log", self.data)
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += out.grad / self.data

        out._backward = _backward
        return out

    def sqrt(self):
        if self.data < 0:
            raise DomainError("sqrt", self.data)
        r = math.sqrt(self.data)
        out = Value(r, (self,), "sqrt")

        def _backward():
            if r == 0:
                raise AutogradError("sqrt has no derivative at 0")
            self.grad += out.grad / (2 * r)

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def safe_log(v, eps=1e-12):
    try:
        return v.log()
    except DomainError as e:
        print(f"clamped: {e} (op={e.op!r}, value={e.value})")
        return Value(eps).log()


a = Value(2.0)
b = Value(-3.0)
c = Value(0.0)
terms = []
for num, den in [(a, b), (b, c), (a, a)]:
    try:
        terms.append(num / den)
    except ZeroDivisionError as err:
        print("skipped:", err)
    else:
        print("ok:", round(terms[-1].data, 6))
    finally:
        print("pair done")
loss = safe_log(terms[0]) + safe_log(terms[1]) + (a * a).sqrt()
loss.backward()
print(f"loss={loss.data:.6f} a.grad={a.grad:.6f} b.grad={b.grad:.6f}")

try:
    Value("3")
except TypeError as e:
    print(type(e).__name__, e)

z = c.sqrt()
try:
    z.backward()
except AutogradError as e:
    print("backward failed:", e, isinstance(e, Exception), e.args)

try:
    raise DomainError("log", -1.0) from ValueError("negative")
except AutogradError as e:
    print(repr(e.__cause__), str(e), [k for k in ("op", "value") if hasattr(e, k)])
