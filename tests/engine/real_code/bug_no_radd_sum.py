# The learner's Value has __add__ but no __radd__: sum() starts from the int 0.
class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
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

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


ws = [Value(0.5), Value(-0.25), Value(2.0)]
xs = [1.0, 4.0, -0.5]
try:
    total = sum(w * x for w, x in zip(ws, xs))
except TypeError as e:
    print("sum failed:", e)
    total = sum((w * x for w, x in zip(ws, xs)), Value(0.0))
try:
    ws[0] + "1"
except (TypeError, AttributeError) as e:
    print(type(e).__name__, e)
total.backward()
print(total.data, [w.grad for w in ws])
try:
    print(2 * ws[0])
except TypeError as e:
    print(e)
print(sum(ws[1:], ws[0]).data)
