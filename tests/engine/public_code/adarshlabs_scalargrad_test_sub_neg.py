
from collections import defaultdict
import math
class Value:

    def __init__(self, data, _parent=(), _op=''):
        self.data = data
        self.grad = 0
        self._prev = set(_parent)
        self._op = _op
        self._backward = lambda : None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), _op='+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), _op='*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out
    
    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, (self, other), _op='-')

        def _backward():
            self.grad += out.grad
            other.grad += - out.grad

        out._backward = _backward
        return out
    
    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * (other.data**(-1)), (self, other), _op='/')

        def _backward():
            self.grad += (out.grad * (other.data**(-1)))
            other.grad += - (out.grad * self.data * (other.data**(-2)))

        out._backward = _backward
        return out
    
    def __div__(self, other):
        return self.__truediv__(other)
    
    
    
    def __pow__(self, other):
        assert isinstance(other, (int, float)), "Only scalar exponents supported"
        out = Value(self.data ** other, (self,), _op='**')
        
        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad
        
        out._backward = _backward
        return out
        
    def relu(self):
        out = Value(self.data if self.data > 0 else 0, (self,), _op='relu')

        def _backward():
            self.grad += (1 if self.data > 0 else 0) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        out = Value(math.tanh(self.data), (self,), _op='tanh')

        def _backward():
            self.grad += (1 - out.data**2) * out.grad

        out._backward = _backward
        return out

    def backward(self)-> None:
        nodes= []
        visited = set()
        self.grad = 1
        def dfs(curr):
            if curr in visited:
                return
            visited.add(curr)
            for parent in curr._prev:
                dfs(parent)
            nodes.append(curr)
        dfs(self)
        for node in reversed(nodes):
            node._backward()


    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
    
    def __radd__(self, other):
        return self + other
    
    def __rsub__(self, other):
        return Value(other) - self

    def __neg__(self):
        out = Value(-self.data, (self,), _op='-')

        def _backward():
            self.grad -= out.grad

        out._backward = _backward
        return out
        

    def __rtruediv__(self, other):
        """Handle scalar / Value (e.g., 6 / x)"""
        other = Value(other)
        return other.__truediv__(self)
        


    

import random

class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []
    

class Neuron(Module):
    def __init__(self, nin, nonlinear=True):
        self.weights = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.bias = Value(0)
        self.nl = nonlinear
    
    def __call__(self, inputs):
        out = sum((wi * xi for wi , xi in zip (self.weights, inputs)), self.bias)
        return out.relu() if self.nl else out
    
    def parameters(self):
        return self.weights + [self.bias]
    
    def __repr__(self):
        return f"{'ReLU' if self.nl else 'Linear'} Neuron({len(self.weights)})"
    
class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, inputs):
        out = [n(inputs) for n in self.neurons]
        return out[0] if len(out)==1 else out
    
    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]
    
    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"
    
class MLP(Module):
    def __init__(self, nin, nouts):
        all_layers = [nin] + nouts
        self.layers = [Layer(all_layers[i-1], all_layers[i], nonlinear=i!=len(all_layers)-1) for i in range(1, len(all_layers))]

    def __call__(self, inputs):
        out = inputs
        for layer in self.layers:
            out = layer(out)
        return out
    
    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
    
    def __repr__(self):
        return f"MLP of [{', '.join(str(l) for l in self.layers)}]"


print("Testing __sub__, __rsub__, __neg__")
print("=" * 60)

# Test 1: Subtraction
print("\n1. __sub__: f(x) = x - 2")
x = Value(5.0)
result = x - 2
result.backward()
print(f"   x = {x.data}, f(x) = {result.data}, df/dx = {x.grad}")
print(f"   Expected: df/dx = 1 (derivative of x - 2 is 1)")
assert x.grad == 1.0, "FAIL"
print("   ✓ PASS")

# Test 2: Reverse Subtraction
print("\n2. __rsub__: f(x) = 10 - x")
x = Value(3.0)
result = 10 - x  # Uses __rsub__
result.backward()
print(f"   x = {x.data}, f(x) = {result.data}, df/dx = {x.grad}")
print(f"   Expected: df/dx = -1 (derivative of 10 - x is -1)")
assert x.grad == -1.0, "FAIL"
print("   ✓ PASS")

# Test 3: Negation
print("\n3. __neg__: f(x) = -x")
x = Value(7.0)
result = -x
result.backward()
print(f"   x = {x.data}, f(x) = {result.data}, df/dx = {x.grad}")
print(f"   Expected: df/dx = -1 (derivative of -x is -1)")
assert x.grad == -1.0, "FAIL"
print("   ✓ PASS")

# Test 4: Complex with negation
print("\n4. Complex: f(x) = -(x ** 2)")
x = Value(3.0)
result = -(x ** 2)
result.backward()
print(f"   x = {x.data}, f(x) = {result.data}, df/dx = {x.grad}")
print(f"   Expected: df/dx = -2*3 = -6 (derivative of -x^2 is -2x)")
assert abs(x.grad - (-6.0)) < 1e-9, f"FAIL: got {x.grad}"
print("   ✓ PASS")

print("\n" + "=" * 60)
print("All tests PASS!")
