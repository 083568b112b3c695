#basic imports
import math
import random

# arbitrary mathematical function
def f(x):
    return 3*x**2 - 4*x + 5

f(3.0)

h = 0.000000001
x = 3
(f(x + h) - f(x)) / h

# let's get a bit more complex
a = 2.0
b = -3.0
c = 10.0
d = a*b + c
print(d)

h = 0.0000001

# inputs
a = 2.0
b = -3.0
c = 10.0

d1 = a*b + c
c += h
d2 = a*b + c

print('d1', d1)
print('d2', d2)
# difference through bump and normalized by h
print('slope', (d2 - d1)/h)


# creating a value wrapper to store values as python objects

class Value: 
    
    def __init__(self, data, _children=(), _op='', label='empty'):
        self.data = data
        # storing the children values if a new Value class object is created through __add__ or __mul_
        self._prev = set(_children)
        # storing which operation was used to create the new Value class object
        self._op = _op
        self.label = label
        # creating an attribute that holds the gradient of that Value object
        # it represents the derivative of the output L with respect to the Value object
        self.grad = 0.0
        # Of course doing the backprop manually is horribly inefficient, therefore lets automate the backward pass
        self._backward = lambda: None
    
    #printing out the value not the appointed memory space 
    def __repr__(self):
        return f"Value(data={self.data})"
    
    #using python dunder methods to make the Value object usable for arithmatic operations 
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        
        return out
    
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        
        return out
            
    def tanh(self):
        x = self.data
        t = (math.exp(2*x) -1) / (math.exp(2*x) +1 ) 
        out = Value(t, (self, ), 'tanh')
        
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        
        return out

    def backward(self):
        
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

a = Value(2)
b = Value(3)

a + b



# initial example asigning some values 
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = Value(10.0, label='c')
e = a*b; e.label = 'e'
a * b + c
#(a.__mul__(b)).__add__(c)

d = e + c; d.label='d'

f = Value(-2.0, label='f')
L = d * f; L.label='L'
L


print(d._prev)
print(d._op)

L.grad = 1.0

# the derivatives of L in respect to:
a.grad = -2.0*-3.0
b.grad = -2.0 * 2.0 

d.grad = -2.0
f.grad = 4.0

c.grad = -2.0 * 1.0
e.grad = -2.0 * 1.0


# staging area for local experiments
def lol():
    
    h = 0.0000001
    
    a = Value(2.0, label='a')
    b = Value(-3.0, label='b')
    c = Value(10.0, label='c')
    e = a*b; e.label = 'e'
    a * b + c
    #(a.__mul__(b)).__add__(c)

    d = e + c; d.label='d'

    f = Value(-2.0, label='f')
    L = d * f; L.label='L'
    L1 = L.data
    
    # measuring the derivative of L with respect to a
    a = Value(2.0, label='a')
    # a.data += h
    b = Value(-3.0, label='b')
    b.data += h
    c = Value(10.0, label='c')
    e = a*b; e.label = 'e'
    #e.data += h
    a * b + c
    #(a.__mul__(b)).__add__(c)

    d = e + c; d.label='d'
    #d.data += h
    f = Value(-2.0, label='f')
    L = d * f; L.label='L'
    L2 = L.data
    
    print((L2 - L1)/ h)
    
lol()

# lets try it and nudge our L to go up
a.data += 0.01 * a.grad
b.data += 0.01 * b.grad
c.data += 0.01 * c.grad 
f.data += 0.01 * f.grad 

# if we nudge in the direction of the gradient L should go up 
# doing the forward pass:
e = a * b
d = e + c
L = d * f

print(L.data)
# this is essentially one learning / optimazition step


# inputs x1, x2
x1 = Value(2.0, label='x1')
x2 = Value(0.0, label='x2')
# weights of the neuron
w1 = Value(-3.0, label='w1')
w2 = Value(1.0, label='w2')
# bias of the neuron 
b = Value(6.8813735870195432, label='b')
# x1*w1 + x2*w2 + b in small steps
x1w1 = x1*w1; x1w1.label = 'x1*w1'
x2w2 = x2*w2; x2w2.label = 'x2*w2'
x1w1x2w2 = x1w1 + x2w2; x1w1x2w2.label='x1*x2 + x2*w2'
n = x1w1x2w2 + b; n.label = 'n'
o = n.tanh(); o.label = 'out'


o.grad = 1.0

1- o.data**2

n.grad = 0.5
# according to our observation that the gradient just flows through + nodes, we can say that:
x1w1x2w2.grad = 0.5
b.grad = 0.5
# another layer of plus
x1w1.grad = 0.5
x2w2.grad = 0.5

#next we are looking for the grads of x2 and w2. Both are connected to x2w2 through a multiplication operation
#for x2 we recall that according to chain rule the gradient in this case will be the product of the derivative of o in respect to x2*w2 and the derivative of o in respect to x2, which is just w2, so 
x2.grad = w2.data * x2w2.grad
w2.grad = x2.data * x2w2.grad
# This particular with w2.grad == 0 is an interesting example. Since x2.data == 0 it does not matter how much we bump up w2. The multiplication with x2.data == 0 makes the derivative also 0
x1.grad = w1.data * x1w1.grad
w1.grad = x1.data * x1w1.grad

# have to be careful though, because self.grad was initialized as 0.0. So we need to manually intialize it at 1.0 for the output
o.grad = 1.0

o._backward()

n._backward()

x1w1x2w2._backward()

x1w1._backward()
x2w2._backward()

# calling all nodes in backwards order
o.grad = 1.0
topo = []
visited = set()
def build_topo(v):
    if v not in visited:
        visited.add(v)
        for child in v._prev:
            build_topo(child)
        topo.append(v)
build_topo(o)

for node in reversed(topo):
    node._backward()

#calling backprop with the class method
o.backward()

# before fixing this the a grad shows 1 instead of 2, which is of course incorrect.
a = Value(3.0, label='a')
b = a + a ; b.label='b'
b.backward()

# initializing an updated version of the Value class

class Value: 
    
    def __init__(self, data, _children=(), _op='', label='empty'):
        self.data = data
        # storing the children values if a new Value class object is created through __add__ or __mul_
        self._prev = set(_children)
        # storing which operation was used to create the new Value class object
        self._op = _op
        self.label = label
        # creating an attribute that holds the gradient of that Value object
        # it represents the derivative of the output L with respect to the Value object
        self.grad = 0.0
        # Of course doing the backprop manually is horribly inefficient, therefore lets automate the backward pass
        self._backward = lambda: None
    
    #printing out the value not the appointed memory space 
    def __repr__(self):
        return f"Value(data={self.data})"
    
    #using python dunder methods to make the Value object usable for arithmatic operations 
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
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self, ), f'**{other}')

        def _backward():
            self.grad += other * self.data**(other - 1) * out.grad
        out._backward = _backward

        return out
    
    def __radd__(self, other):
        return self + other

    def __rmul__(self, other): # other * self
        return self * other
    
    def __truediv__(self, other): # self / other
        return self * other**-1
    
    def __neg__(self): # -self
        return self * -1
    
    def __sub__(self, other): # self - other
        return self + (-other)

    def tanh(self):
        x = self.data
        t = (math.exp(2*x) -1) / (math.exp(2*x) +1 ) 
        out = Value(t, (self, ), 'tanh')
        
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        
        return out
    
    def exp(self):
        x = self.data
        out = Value(math.exp(x), (self, ), 'exp')

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward

        return out

    def backward(self):
        
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

# a + 1 currently not working since in the Value class __add__ calls other.data, and int object does not have a data attribute
# after adding a line 'other = other if isinstance(other, Value) else Value(other)' we can wrap an integer as Value object and use our __add__ method
a = Value(2.0)
a + 1
# same for __mul__:
a * 2
a.__mul__(2)
# 2 * a does not work since python will do 
# 2 * a
# which is the equivalent of 2.__mul__(a), which of course does not work
# for this reason we integrate __rmul__ in our class object. Now it should work
2 * a

# next we implement division -> but division a/b can be expressed as a * (1/b), which is the same as a * (b**-1). Therefore we can focus on implementing taking our self.data to a constant power.
a = Value(2.0)
b = Value(4.0)
a / b

# next substraction - straight forward negated addition
a - b

# inputs x1, x2
x1 = Value(2.0, label='x1')
x2 = Value(0.0, label='x2')
# weights of the neuron
w1 = Value(-3.0, label='w1')
w2 = Value(1.0, label='w2')
# bias of the neuron 
b = Value(6.8813735870195432, label='b')
# x1*w1 + x2*w2 + b in small steps
x1w1 = x1*w1; x1w1.label = 'x1*w1'
x2w2 = x2*w2; x2w2.label = 'x2*w2'
x1w1x2w2 = x1w1 + x2w2; x1w1x2w2.label='x1*x2 + x2*w2'
n = x1w1x2w2 + b; n.label = 'n'
# --- 
e = (2*n).exp()
o = (e - 1) / (e + 1)
# ---
o.label = 'out'
o.backward()

# creating a neuron class 
class Neuron:
    
    def __init__(self, nin): #number of input weights
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1,1))

    def __call__(self, x):
        # w * x + b 
        act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)
        out = act.tanh()
        return out
    
    def parameters(self): # creating a list of all the neurons params
        return self.w + [self.b] # self.w is a list -> list plus list just gives you a list
    
class Layer:
    def __init__(self, nin, nout): #nout is number of outputs -> how many neurons does the layer hold
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs)==1 else outs
    
    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]
    
class MLP:
    def __init__(self, nin, nouts): 
        sz = [nin] + nouts # size is n in plus n of outputs
        self.layers = [Layer(sz[i], sz[i+1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
    
    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

#creating an MLP with three dimensional input 2 hidden layers with four neurons each and one output neuron  
x = [2.0, 3.0, -1.0]
n = MLP(3, [4, 4, 1])
n(x)

# example dataset
xs = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0]
]

ys = [1.0, -1.0, -1.0, 1.0] # desired targets

ypred = [n(x) for x in xs] # getting the current predictions of the neural net
ypred

# calculating the loss as a single number by getting the mean squared error for each ypred
loss = sum([(yout - ygt)**2 for ygt, yout in zip(ys, ypred)])
loss

loss.backward()

# looking at the gradient for loss with respect to the first layer first neuron first weight -> since it is negative, bumping up the weight will bring down the loss
print(n.layers[1].neurons[1].w[1].grad)
# looking at its data
print(n.layers[1].neurons[1].w[1].data)

# four forward passes and their backward pass:

# getting all params from our network n
len(n.parameters())

# creating the mechanism for one epoch
for p in n.parameters():
    p.data += -0.01 * p.grad

# looking at value and gradient again:
print(n.layers[1].neurons[1].w[1].grad)
# looking at its data
print(n.layers[1].neurons[1].w[1].data)

# recalculating the (smaller) loss
ypred = [n(x) for x in xs] # getting the current predictions of the neural net
loss = sum([(yout - ygt)**2 for ygt, yout in zip(ys, ypred)])
loss

# zero gradients 
for p in n.parameters():
    p.grad = 0.0

# recalculating the (smaller) loss
ypred = [n(x) for x in xs] # getting the current predictions of the neural net
loss = sum([(yout - ygt)**2 for ygt, yout in zip(ys, ypred)])
loss

loss.backward()

# creating the mechanism for one epoch
for p in n.parameters():
    p.data += -0.01 * p.grad

ypred

# looking at value and gradient again:
print(n.layers[1].neurons[1].w[1].grad)
# looking at its data
print(n.layers[1].neurons[1].w[1].data)

#new net 
x = [2.0, 3.0, -1.0]
new_n = MLP(3, [4, 4, 1])

# training loop
for k in range(10):

    # forward pass
    ypred = [new_n(x) for x in xs]
    loss = sum([(yout - ygt)**2 for ygt, yout in zip(ys, ypred)])

    #zeroing gradients
    for p in new_n.parameters():
        p.grad = 0.0

    #backward pass 
    loss.backward()

    #update 
    for p in new_n.parameters():
        p.data += 0.05 * -p.grad

    print(k, loss.data)

print(ypred)
