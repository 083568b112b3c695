class Value:
    
    ## TODO Add data types (half, fp16, int8, etc.)
    
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0
        # Graphviz variables
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other): # self + other
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward

        return out
    
    def __mul__ (self, other): # self * other
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out
    
    def __pow__ (self, other): # self ** other
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data ** other.data, (self, other), '**')

        def _backward():
            self.grad += (other.data * self.data ** (other.data-1)) * out.grad
        out._backward = _backward

        return out
    
    def relu (self): # self.relu()
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')

        def _backward():
            self.grad += (out.data>0) * out.grad
        out._backward = _backward

        return out
    
    def backward(self):
        topo = []
        visited = set()
        def get_topo(node):
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    get_topo(child)
                topo.append(node)
        get_topo(self)

        self.grad = 1
        for node in reversed(topo):
            node._backward()
    
    def __neg__(self): # -self
        return self * -1
    
    def __radd__(self, other): # other + self
        return self + other
    
    def __sub__(self, other): # self - other
        return self + (-other)
    
    def __rsub__(self, other): # other - self
        return other + (-self)
    
    def __rmul__(self, other): # other * self
        return self * other
    
    def __truediv__(self, other): # self / other
        return self * other ** -1 
    
    def __rtruediv__(self, other): # other / self
        return other * self ** -1
    
    def __rpow__(self, other): # other ** self
        return Value(other) ** self

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

import random
from typing import List

class Module:
    def parameters(self):
        return []
    
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0


class Neuron(Module):
    def __init__(self, nin: int, nonlin: str='relu'):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        out = sum(wi*xi for wi, xi in zip(self.w,x)) + self.b
        return getattr(out, self.nonlin)() if hasattr(out, self.nonlin) else out

    def parameters(self):
        return self.w + [self.b]
    
    def __repr__(self):
        return f"{self.nonlin if hasattr(self.b, self.nonlin) else 'Linear'} Neuron({len(self.w)})"
    

class Layer(Module):
    def __init__(self, nin: int, nout: int, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"
    

class MLP(Module):
    def __init__(self, nin: int, nouts: List[int], **kwargs):
        size = [nin] + nouts
        self.layers = [Layer(size[i], size[i+1], nonlin='linear' if i==len(nouts)-1 else 'relu') for i in range(len(nouts))]

        # self.layers = [Layer(sz1, sz2, **kwargs) for sz1, sz2 in zip(size[:-1], size[1:])]
        # self.layers[-1].nonlin = 'linear'
    
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
    
    def parameters(self):
        return [p for l in self.layers for p in l.parameters()]
    
    def __repr__(self):
        return f"MLP of [{', '.join(str(l) for l in self.layers)}]"

import random

x = Value(1.0)
y = (x * 2 + 1).relu()
y.backward()

model = MLP(3, [4,4,1])
xs = [
    [2.0, 3.0, -1.0],
    [3.0, 3.0, -1.0],
    [2.0, 3.0, -1.0],
    [2.0, 3.0, -1.0],
    [2.0, 3.0, -1.0],
    [3.0, 3.0, -1.0],
    [2.0, 3.0, -1.0],
    [2.0, 3.0, -1.0],
]

ys = [1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0]
epochs = 10
lr = 0.001

# Training loop
for epoch in range(epochs):
    # Forward pass
    ypred = [model(x) for x in xs]
    loss = sum(yout-y for yout, y in zip(ypred, ys))
    
    # Backward pass
    model.zero_grad()
    loss.backward()
    
    # Update
    for p in model.parameters():
        p.data += -lr*p.grad

    print(f"train loss: {loss.data}")

random.seed(1337)

# initialize a model 
model = MLP(2, [16, 16, 1], nonlin='relu') # 2-layer neural network
print(model)
print("number of parameters", len(model.parameters()))

model.layers[-1]
