import math

# Definition of container for autodifferentiation and compute graph storage

class Value:
    def __init__(self, data, _children=(), _op="", label=""):
        self._prev = set(_children)
        self.data = data
        self._op = _op
        self.label = label
        self._grad = 0
        self._backward = lambda: None
        
    def __repr__(self):
        return f"Value(data={self.data})"
    
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, _children=(self, other), _op="+", label=f"{self.label} + {other.label}")
        
        def _backward():
            self._grad += out._grad * 1.0
            other._grad += out._grad * 1.0
            
        out._backward = _backward
        
        return out
    
    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        
        out = self + (-1 * other)
        
        return out
    
    def __rsub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = other + (-1 * self)
        
        return out
    
    def __rmul__(self, other):
        return self * other
    
    def __radd__(self, other):
        return self + other
    
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, _children=(self, other), _op="*", label=f"{self.label} * {other.label}")

        def _backward():
            self._grad += out._grad * other.data
            other._grad += out._grad * self.data
            
        out._backward = _backward
            
        return out
    
    def tanh(self):
        x = self.data
        e_x = math.exp(2*x)
        t = (e_x - 1) / (e_x + 1)
        out = Value(t, _children=(self,), _op="tanh", label=f"tanh({self.label})")
        
        def _backward():
            self._grad += out._grad * (1 - t**2)
            
        out._backward = _backward
        
        return out
    
    def relu(self):
        x = self.data
        if x < 0:
            out = Value(0, _op="relu", _children=(self, ))
        else:
            out = Value(x, _op="relu", _children=(self, ))
        
        def _backward():
            if x > 0:
                self._grad += out._grad
            
        out._backward = _backward
        
        return out
    
    def prelu(self, p): # parametric relu
        x = self.data
        if x < 0:
            out = p * self
        else:
            out = Value(x, _op="prelu", _children=(self, p))
        
        def _backward():
            if x > 0:
                self._grad += out._grad
            else:
                self._grad += p.data * out._grad
                p._grad += self.data * out._grad
            
        out._backward = _backward
        
        return out
    
    def exp(self):
        e_x = math.exp(self.data)
        out = Value(e_x, _op="exp", label=f"e^{self.label}", _children=(self,))
        
        def _backward():
            self._grad += out._grad * e_x
            
        out._backward = _backward
        
        return out
        
    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = self * other**-1
        
        return out
    
    def __rtruediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = other * self**-1
        
        return out
    
    def __pow__(self, other):
        assert isinstance(other, (int, float))
        other = other if isinstance(other, Value) else Value(other)
        
        out = Value(self.data ** other.data, _children=(self, other), _op="pow", label=f"{self.label} ^ {other.label}")
        
        def _backward():
            self._grad += other.data * (self.data ** (other.data - 1)) * out._grad
            other._grad += out._grad
            
        out._backward = _backward
        
        return out
    
    def backward(self):
        topo = []
        visited = set()

        def build_top(node):
            if node not in visited:
                visited.add(node)
                for c in node._prev:
                    build_top(c)
                topo.append(node)

        build_top(self) # build the sorted graph
        
        self._grad = 1
        
        for n in reversed(topo):
            n._backward()
        

# make sure that the end node is at the end of the list to call backprop on it first

def topsort(graph):
    topo = []
    visited = set()

    def build_top(node):
        if node not in visited:
            visited.add(node)
            for c in node._prev:
                build_top(c)
            topo.append(node)
        
    build_top(graph)
    
    return topo

x1 = Value(2.0, label="x1")
x2 = Value(0, label="x2")
w1 = Value(-3.0, label="w1")
w2 = Value(1, label="w2")
b = Value(6.8813735, label="b")

x1w1 = x1 * w1
x2w2 = x2 * w2

summ = x1w1 + x2w2
neur = summ + b
act = neur.tanh()

print(act)

act.backward()

x1 = Value(2.0, label="x1")
x2 = Value(0, label="x2")
w1 = Value(-3.0, label="w1")
w2 = Value(1, label="w2")
b = Value(6.8813735, label="b")

x1w1 = x1 * w1
x2w2 = x2 * w2

summ = x1w1 + x2w2
neur = summ + b
act = ((2 * neur).exp() - 1) / ((2 * neur).exp() + 1)

print(act)

act.backward()

class SGD:
    def __init__(self, parameters=[], lr=0.01):
        self.parameters = parameters
        self.lr = lr
        
    def step(self):
        for p in self.parameters:
            p.data = p.data - self.lr * p._grad
            
    def zero_grad(self):
        for p in self.parameters:
            p._grad = 0

# Definition of the loss function

def mse(pred, gt):
    return (pred - gt)**2
