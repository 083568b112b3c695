
class Value:
    '''Class for Value data and its operations.'''

    def __init__(self, data, _children=(), _op='', label=''): # constructor
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self): # print fucntion
        return f"Value(data={self.data}, grad={self.grad})"

'''Example'''
a = Value(3, label='a')


def __add__(self, other): # self + other
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data + other.data, (self, other), '+')
    def _backward():
        self.grad += out.grad
        other.grad += out.grad
    out._backward = _backward
    return out

def __radd__(self, other): # other + self
    return self + other

Value.__add__ = __add__
Value.__radd__ = __radd__

'''Example'''
a = Value(3, label='a')
b = Value(4, label='b')
c = a + b; c.label = 'c'


def __mul__(self, other): # self * other
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data * other.data, (self, other), '*')
    def _backward():
        self.grad += other.data * out.grad
        other.grad += self.data * out.grad
    out._backward = _backward
    return out

def __rmul__(self, other): # other * self
    return self * other

Value.__mul__ = __mul__
Value.__rmul__ = __rmul__

'''Example'''
a = Value(3, label='a')
b = Value(4, label='b') 
c = a * b; c.label = 'c'


def __pow__(self, other): # self ** other
    assert isinstance(other, (int, float)), "only supporting int/float powers"
    out = Value(self.data**other, (self,), f'**{other}')
    def _backward():
        self.grad += (other * self.data**(other-1)) * out.grad
    out._backward = _backward
    return out

Value.__pow__ = __pow__

'''Example'''
a = Value(3, label='a')
b = 4
c = a ** b; c.label = 'c'


def relu(self): # ReLU function
    out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')
    def _backward():
        self.grad += (out.data > 0) * out.grad
    out._backward = _backward
    return out

Value.relu = relu

'''Example'''
#if the output is negative, returns 0
a = Value(-3, label='a')
b = 3
c = a ** b; c.label = 'c'
d = c.relu(); d.label = 'd' # returns 0


#if the output is positive, returns the output
e = Value(3, label='e')
f = 3
g = e ** f; g.label = 'g'
h = g.relu(); h.label = 'h' # returns 81


def backward(self): # backpropagation
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

Value.backward = backward

'''Example'''
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = Value(10.0, label='c')
d = e + c; d.label = 'd'
e = a*b; e.label = 'e'
g = Value(-2.0, label='g')
L = d * g; L.label = 'L'
L.backward()


def __neg__(self): # -self
    return self * -1

Value.__neg__ = __neg__

'''Example'''
a = Value(3, label='a')
c = -a; c.label = 'c'


def __sub__(self, other): # self - other
    return self + (-other)

def __rsub__(self, other): # other - self
    return other + (-self)

Value.__sub__ = __sub__
Value.__rsub__ = __rsub__

'''Example'''
a = Value(8, label='a')
b = Value(4, label='b')
c = a - b; c.label = 'c'


def __truediv__(self, other): # self / other
    return self * other**-1

def __rtruediv__(self, other):
    return other * self**-1

Value.__truediv__ = __truediv__
Value.__rtruediv__ = __rtruediv__

'''Example'''
a = Value(8, label='a')
b = Value(4, label='b')
c = a / b; c.label = 'c'


'''Example'''
a = Value(3, label='a')
b = Value(7, label='b')
c = a + b; c.label = 'c'

c._prev # returns the children of c, in this case a and b

'''Example'''
a = Value(5, label='a')
b = Value(2, label='b')
c = a / b; c.label = 'c'

c._op # returns the operator that was used to create the value, in this case multiplication '*'

import random

class Neuron():

    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __repr__(self):
        return f"{'ReLU' if self.nonlin else 'Linear'}Neuron({len(self.w)})"
    
'''Example'''
n = Neuron(3)
n

def __call__(self, x):
    act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b)
    return act.relu() if self.nonlin else act

Neuron.__call__ = __call__

'''Example'''
x = [3.0, 2.0]
n = Neuron(2)
n(x)

def parameters(self):
    return self.w + [self.b]

Neuron.parameters = parameters

'''Example'''
n = Neuron(3)
n.parameters()

class Layer():

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]
    
    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"
    
'''Example'''
l = Layer(2, 3)
l

def __call__(self, x):
    out = [n(x) for n in self.neurons]
    return out[0] if len(out) == 1 else out

Layer.__call__ = __call__

'''Example'''
x = [3.0, 2.0]
l = Layer(2, 3)
l(x)

def parameters(self):
    return [p for n in self.neurons for p in n.parameters()]

Layer.parameters = parameters

'''Example'''
l = Layer(2, 3)
l.parameters()

class MLP():

    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i+1], nonlin=i!=len(nouts)-1) for i in range(len(nouts))]
    
    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
    
'''Example'''
x = [3.0, 2.0, -1.0]
m = MLP(3, [4, 4, 1])
m

def __call__(self, x):
    for layer in self.layers:
        x = layer(x)
    return x

MLP.__call__ = __call__

'''Example'''
x = [3.0, 2.0, -1.0]
m = MLP(3, [4, 4, 1])
m(x)

def parameters(self):
    return [p for layer in self.layers for p in layer.parameters()]

MLP.parameters = parameters

'''Example'''
m = MLP(3, [4, 4, 1])
m.parameters()

#network creation
x = [2.0, 3.0, -1.0]
n = MLP(3, [4, 4, 1])
n(x)

#data
xs = [
  [2.0, 3.0, -1.0],
  [3.0, -1.0, 0.5],
  [0.5, 1.0, 1.0],
  [1.0, 1.0, -1.0],
]
#desired targets
ys = [1.0, -1.0, -1.0, 1.0]

#iteration
for k in range(20):
  
  # forward pass
  ypred = [n(x) for x in xs]
  loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
  
  # backward pass
  for p in n.parameters():
    p.grad = 0.0
  loss.backward()
  
  # update
  for p in n.parameters():
    p.data += -0.05 * p.grad
  
  print(f"Iteration {k}, Loss: {loss.data})")

ypred
