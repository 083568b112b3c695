from math import exp, log

class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self.label = label
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
    
    def __repr__(self):
        return f"Value(data={self.data})"
    
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward

        return out
    
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out
    
    def __pow__(self, other):
        assert isinstance(other, (int, float)) # ensures that the exponent is an integer or float
        out = Value(self.data**other, (self,), f'**{other}')

        def _backward():
            self.grad += other*self.data**(other - 1) * out.grad
        out._backward = _backward

        return out
    
    def exp(self):
        out = Value(exp((self.data)), (self,), 'exp')
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def log(self):
        out = Value(log((self.data)), (self,), 'log')
        def _backward():
            self.grad += (1 / self.data) * out.grad
        out._backward = _backward
        return out
    
    def backward(self): # exactly as in video  
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1
    
    def __radd__(self, other):
        return self + other
    
    def __sub__(self, other):
        return self + -other
    
    def __rsub__(self, other):
        return other + (-self)
    
    def __rmul__(self, other):
        return other * self

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1


    

import math

def relu(x: Value) -> Value:
    out = Value(x.data if x.data > 0 else 0, (x,), 'ReLU')
    
    def _backward():
        x.grad += (out.data > 0) * out.grad # gradient is either 0 or 1 depending on the input
    out._backward = _backward

    return out

def sigmoid(x: Value) -> Value:
    s = 1 / (1 + math.exp(-x.data))
    out = Value(s, (x,), 'sigmoid')

    def _backward():
        x.grad += s * (1 - s) * out.grad
    out._backward = _backward
    
    return out

def tanh(x: Value) -> Value:
    t = (math.exp(2*x.data) - 1)/(math.exp(2*x.data) + 1)
    out = Value(t, (x,), 'tanh')
    
    def _backward():
        x.grad += (1 - t**2) * out.grad
    out._backward = _backward
    
    return out

import random

class Module:

    def parameters(self):
        return[]
    
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

class Neuron(Module):

    def __init__(self, nin, nonlin=True, activation=None):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin
        self.activation = activation

    def __call__(self, x):
        act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)

        if self.nonlin:
            if self.activation == 'ReLU':
                return relu(act)
            elif self.activation == 'sigmoid':
                return sigmoid(act)
            elif self.activation == 'tanh':
                return tanh(act)
            elif self.activation == None:
                return act
        else:
            return act
    
    def parameters(self):
        return self.w + [self.b]
    
    def __repr__(self):
        return f"{self.activation if self.nonlin else 'Linear'}Neuron({len(self.w)})"
    
class Layer(Module):

    def __init__(self, nin, nout, nonlin=True, activation=None, **kwargs):
        self.neurons = [Neuron(nin, nonlin=nonlin, activation=activation, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out
    
    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]
    
    def __repr__(self):
        return f"Layer([{', '.join(str(n) for n in self.neurons)}])"
    
class MLP(Module):

    def __init__(self, nin, nouts, activation=None):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i+1], nonlin=i!=len(nouts)-1, activation=activation if i!=len(nouts)-1 else None) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
    
    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

import math

def mse_loss(preds, targets):
    return sum((ygt - yout)**2 for ygt, yout in zip(preds, targets)) / len(preds)

def softmax(logits):
    exps = [l.exp() for l in logits]
    Z = sum(exps)
    probs = [e / Z for e in exps]
    return probs

def ce_loss(logits_batch, labels):
    total_loss = Value(0.0)
    for logits, label in zip(logits_batch, labels):
        probs = softmax(logits)
        log_prob = probs[label].log()
        total_loss += -log_prob
    return total_loss / len(labels)

class SGD:

    def __init__(self, params, lr=0.001):
        self.params = params
        self.lr = lr

    def step(self):
        for p in self.params:
            p.data += -self.lr * p.grad

    def zero_grad(self):
        for p in self.params:
            p.grad = 0

import random

# Our task will be to train a neural net to fit a line to noisy data. Our fitted line will ideally learn slope = 2 and intercept = 3
SEED = 37
random.seed(SEED)

xs = [i for i in range(-5, 6)]
ys = [2*x + 3 + random.uniform(-1, 1) for x in xs]
for x, y in zip(xs, ys):
    print(x, y)

# Initialize random parameters and optimizer
random.seed(SEED)
w = Value(random.uniform(-1, 1))
b = Value(random.uniform(-1, 1))
params = [w, b]
lr = 0.01
optimizer = SGD(params, lr)

def predict(xs):
    return [w * x + b for x in xs]

# Training loop
for epoch in range(100):
    y_preds = predict(xs)
    loss = mse_loss(y_preds, ys)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    print(f"Epoch: {epoch} || Loss: {loss.data}")

print(f"Slope: {w.data}")
print(f"Intercept: {b.data}")
