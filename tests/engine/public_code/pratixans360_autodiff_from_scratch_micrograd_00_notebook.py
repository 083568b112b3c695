import math

class Value:

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(label={self.label}, data={self.data})"

    def __add__(self, other):
        return Value(self.data + other.data, (self, other), '+')

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), '*')

    def activation(self, _type='tanh'):
        x = self.data
        if _type == 'tanh':
            t = (math.exp(2*x) - 1) / (math.exp(2*x) + 1)
            out = Value(t, (self, ), 'tanh')
            return out
            
        if _type == 'relu':
            t = max(0, x)
            out = Value(t, (self, ), 'relu')
            return out
        

a = Value(2, label='a')
b = Value(0.5, label='b')
c = Value(4, label='c')
d = a + b; d.label = 'd'
e = d * c; e.label = 'e'
f = Value(-2, label='f')
L = e * f; L.label='L'
print(f"a = {a}\nb = {b}\nc = {c}")
print(f"a + b = {d}")
print(f"(a + b) * c = {e}")
print(f"L = {L}")

d._prev, d._op

e._prev, e._op

def lol():
    h = 0.0001
    a = Value(2, label='a')
    b = Value(0.5, label='b')
    c = Value(4, label='c')
    d = a + b; d.label = 'd'
    e = d * c; e.label = 'e'
    f = Value(-2, label='f')
    L = e * f; L.label='L'
    L1 = L.data

    a = Value(2, label='a')
    b = Value(0.5+h, label='b')
    c = Value(4, label='c')
    d = a + b; d.label = 'd'
    e = d * c; e.label = 'e'
    f = Value(-2, label='f')
    L = e * f; L.label='L'
    L2 = L.data
    
    print((L2 - L1)/h)

lol()

L.grad = 1
f.grad = e.data
e.grad = f.data
c.grad = e.grad * d.data
d.grad = e.grad * c.data
a.grad = d.grad
b.grad = d.grad

# Forward pass
a.data += 0.01*a.grad
b.data += 0.01*b.grad
c.data += 0.01*c.grad
f.data += 0.01*c.grad

d = a + b
e = d * c
L = e * f

print(L.data)

# Inputs
x1 = Value(-1.0, label='x1')
x2 = Value(2.0, label='x2')

# Weights
w1 = Value(0.5, label='w1')
w2 = Value(0.8, label='w2')

# Bias
b = Value(1.0, label='b')

# Forward pass
x1w1 = x1*w1; x1w1.label='x1*w1'
x2w2 = x2*w2; x2w2.label='x2*w2'
x1w1_x2w2 = x1w1 + x2w2; x1w1_x2w2.label='x1*w1 + x2*w2'
n = x1w1_x2w2 + b; n.label = 'n'
out = n.activation('tanh'); out.label='output'

out.grad = 1.0

# out = tanh(n)
# dout/dn = 1 - out**2
n.grad = 1 - out.data**2

b.grad = n.grad
x1w1_x2w2.grad = n.grad

x1w1.grad = x1w1_x2w2.grad
x2w2.grad = x1w1_x2w2.grad

x1.grad = x1w1.grad * w1.data
w1.grad = x1w1.grad * x1.data

x2.grad = x2w2.grad * w2.data
w2.grad = x2w2.grad * x2.data


# Inputs
x1 = Value(-1.0, label='x1')
x2 = Value(2.0, label='x2')

# Weights
w1 = Value(0.5, label='w1')
w2 = Value(0.8, label='w2')

# Bias
b = Value(1.0, label='b')

# Forward pass
x1w1 = x1*w1; x1w1.label='x1*w1'
x2w2 = x2*w2; x2w2.label='x2*w2'
x1w1_x2w2 = x1w1 + x2w2; x1w1_x2w2.label='x1*w1 + x2*w2'
n = x1w1_x2w2 + b; n.label = 'n'
out = n.activation('relu'); out.label='output'

out.grad = 1.0

# out = relu(n)
# dout/dn = 0 if out == 0, 1 if out > 0

if out.data == 0:
    n.grad = 0.0
elif out.data > 0:
    n.grad = 1.0

b.grad = n.grad
x1w1_x2w2.grad = n.grad

x1w1.grad = x1w1_x2w2.grad
x2w2.grad = x1w1_x2w2.grad

x1.grad = x1w1.grad * w1.data
w1.grad = x1w1.grad * x1.data

x2.grad = x2w2.grad * w2.data
w2.grad = x2w2.grad * x2.data

class Value:

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(label={self.label}, data={self.data})"

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += 1 * out.grad
            other.grad += 1 * out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
        
    def activation(self, _type='tanh'):
        x = self.data
        if _type == 'tanh':
            t = (math.exp(2*x) - 1) / (math.exp(2*x) + 1)
            out = Value(t, (self, ), 'tanh')
            def _backward():
                self.grad = 1 - out.data**2
            out._backward = _backward
            return out
            
        if _type == 'relu':
            t = max(0, x)
            out = Value(t, (self, ), 'relu')
            def _backward():
                if out.data == 0:
                    self.grad = 0
                else:
                    self.grad = 1
            out._backward = _backward
            return out
    
    def backward(self):
        topo = []
        visited = set()
        self.grad = 1
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        for n in reversed(topo):
            n._backward()

        return

# Inputs
x1 = Value(-1.0, label='x1')
x2 = Value(2.0, label='x2')

# Weights
w1 = Value(0.5, label='w1')
w2 = Value(0.8, label='w2')

# Bias
b = Value(1.0, label='b')

# Forward pass
x1w1 = x1*w1; x1w1.label='x1*w1'
x2w2 = x2*w2; x2w2.label='x2*w2'
x1w1_x2w2 = x1w1 + x2w2; x1w1_x2w2.label='x1*w1 + x2*w2'
n = x1w1_x2w2 + b; n.label = 'n'
out = n.activation('relu'); out.label='output'

out.backward()
