"""Nodes that keep their local gradients (`_children`, `_local_grads`) and no rule: the
backward loop multiplies them in, as small GPT-style engines do; `__slots__`, a softmax."""

import math
import random
random.seed(42)

class Value:
    __slots__ = ('data', 'grad', '_children', '_local_grads')

    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other): return Value(self.data**other, (self,), (other * self.data**(other-1),))
    def log(self): return Value(math.log(self.data), (self,), (1/self.data,))
    def exp(self): return Value(math.exp(self.data), (self,), (math.exp(self.data),))
    def relu(self): return Value(max(0, self.data), (self,), (float(self.data > 0),))
    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other**-1
    def __rtruediv__(self, other): return other * self**-1

    def backward(self):
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad

def softmax(logits):
    max_val = max(val.data for val in logits)
    exps = [(val - max_val).exp() for val in logits]
    total = sum(exps)
    return [e / total for e in exps]

params = [Value(random.gauss(0, 0.08)) for _ in range(12)]
for step in range(5):
    xs = [[random.random() for _ in range(3)] for _ in range(4)]
    losses = []
    for x in xs:
        logits = [sum((params[i * 3 + j] * x[j] for j in range(3)), Value(0.0)) for i in range(4)]
        probs = softmax(logits)
        losses.append(-probs[step % 4].log())
    loss = (1 / len(losses)) * sum(losses)
    loss.backward()
    for p in params:
        p.data -= 0.5 * p.grad
        p.grad = 0
    print(f"step {step+1:4d} | loss {loss.data:.4f}")
