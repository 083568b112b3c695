import random


class Num:
    def __init__(self, val, prev=(), op=""):
        self.val = val
        self.grad = 0.0
        self.prev = prev
        self.op = op
        self._backward = lambda: None

    def __add__(self, o):
        o = o if isinstance(o, Num) else Num(o)
        out = Num(self.val + o.val, (self, o), "+")

        def _backward():
            self.grad += out.grad
            o.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, o):
        o = o if isinstance(o, Num) else Num(o)
        out = Num(self.val * o.val, (self, o), "*")

        def _backward():
            self.grad += o.val * out.grad
            o.grad += self.val * out.grad

        out._backward = _backward
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def relu(self):
        out = Num(self.val if self.val > 0 else 0.0, (self,), "relu")

        def _backward():
            self.grad += (self.val > 0) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for p in v.prev:
                    build(p)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


init_rng = random.Random(12345)
data_rng = random.Random("moons")
order_rng = random.Random(99)

weights = [Num(init_rng.gauss(0.0, 1.0)) for _ in range(2)]
bias = Num(init_rng.uniform(-0.1, 0.1))
points = []
for _ in range(10):
    x = (data_rng.uniform(-1, 1), data_rng.uniform(-1, 1))
    label = data_rng.choice([-1, 1])
    points.append((x, label))
print(points[0], data_rng.randint(1, 6), data_rng.sample(range(10), 3))

for epoch in range(4):
    order_rng.shuffle(points)
    loss = Num(0.0)
    for (x0, x1), y in points:
        score = weights[0] * x0 + weights[1] * x1 + bias
        loss = loss + (1 + (-y) * score).relu()  # hinge loss
    for p in (*weights, bias):
        p.grad = 0.0
    loss.backward()
    for p in (*weights, bias):
        p.val -= 0.05 * p.grad
    print(epoch, round(loss.val, 9), [round(p.grad, 9) for p in weights])

state = order_rng.getstate()
a = order_rng.random()
order_rng.setstate(state)
print(a == order_rng.random(), random.Random(3).choices("abc", k=4), init_rng.gauss(0, 1))
