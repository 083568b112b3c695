"""Core autograd engine: a scalar Value that tracks its computation graph.

This is the heart of picograd. A `Value` wraps a single number and remembers the
operation that produced it, so gradients can flow backward through the graph via
the chain rule.

Start with the minimal working core below (+ and *), then implement the TODOs to
match micrograd's full feature set.
"""
import math 

class Value:
    """A scalar value node in the autograd computation graph."""
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
        self._backward = lambda: None
        self._op = _op
        self.label = label 
        
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
        assert isinstance(other, (float, int)), "Only supporting int/float powers for now"
        out = Value(self.data**other, (self, ), f"**{other}")
        
        def _backward():
            self.grad += other * self.data**(other - 1) * out.grad
        out._backward = _backward
        
        return out 
    
    def exp(self):
        out = Value(math.exp(self.data), (self, ), 'exp')
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out 
        
    def tanh(self):
        n = self.data
        t = (math.exp(2*n) - 1) / (math.exp(2*n) + 1)
        out = Value(t, (self, ), 'tanh')
        
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward    
                
        return out 
    
    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self, ), 'ReLU')
        
        def _backward():
            self.grad += (out.data>0) * out.grad
        out._backward = _backward
        
        return out 
    
    def backward(self):
        topo = []
        visited = set()
        
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for children in v._prev:
                    build_topo(children)
                topo.append(v)
        
        build_topo(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()
    
    def __neg__(self):
        return self * -1.0
    
    def __sub__(self, other):
        return self + (-other)
        
    def __radd__(self, other): # other + self
        return self + other 
    
    def __rmul__(self, other):
        return self * other 

    def __rsub__(self, other): # other - self
        return other + (-self)
    
    def __truediv__(self, other): # self / other
        return self * other**-1
    
    def __rtruediv__(self, other): # other / self
        return other * self**-1      
            
    def __repr__(self):
        return f"Value(data={self.data})"

"""Gradient checks for the autograd engine.

Run from the project root:
    python -m pytest tests/test_engine.py -v
"""

import math


# ------------------------------------------------------------------
# Forward pass
# ------------------------------------------------------------------
def test_add_forward():
    a = Value(2.0)
    b = Value(3.0)
    assert (a + b).data == 5.0


def test_mul_forward():
    a = Value(2.0)
    b = Value(-4.0)
    assert (a * b).data == -8.0


def test_ops_forward():
    a = Value(2.0)
    b = Value(-3.0)
    assert (a - b).data == 5.0
    assert (a ** 2).data == 4.0
    assert (a / b).data == 2.0 / -3.0
    assert (2 * a).data == 4.0          # __rmul__
    assert (2 + a).data == 4.0          # __radd__
    assert (2 - a).data == 0.0          # __rsub__
    assert (2 / a).data == 1.0          # __rtruediv__
    assert abs(a.exp().data - math.exp(2.0)) < 1e-9
    assert Value(-5.0).relu().data == 0.0
    assert Value(5.0).relu().data == 5.0
    assert abs(Value(0.5).tanh().data - math.tanh(0.5)) < 1e-9


# ------------------------------------------------------------------
# Backward pass
# ------------------------------------------------------------------
def test_simple_backward():
    a = Value(2.0)
    b = Value(-3.0)
    c = Value(10.0)
    d = a * b + c
    d.backward()
    assert a.grad == -3.0  # d(d)/d(a) = b
    assert b.grad == 2.0   # d(d)/d(b) = a
    assert c.grad == 1.0   # d(d)/d(c) = 1


def test_tanh_backward():
    x = Value(0.0)
    y = x.tanh()
    y.backward()
    # d(tanh)/dx at 0 == 1
    assert abs(x.grad - 1.0) < 1e-6


def test_grad_accumulates():
    # A node reused in the graph must accumulate (+=), not overwrite (=).
    x = Value(3.0)
    (x + x).backward()          # dy/dx = 2
    assert x.grad == 2.0

    x = Value(4.0)
    (x * x).backward()          # dy/dx = 2x = 8
    assert x.grad == 8.0


# ------------------------------------------------------------------
# Numerical gradient check: analytic backward vs. central difference.
# Catches an unattached _backward or a wrong derivative formula.
# ------------------------------------------------------------------
def _grad_check(build_fn, inputs, h=1e-6, tol=1e-4):
    vals = [Value(x) for x in inputs]
    build_fn(vals).backward()
    analytic = [v.grad for v in vals]

    for i in range(len(inputs)):
        xp = list(inputs); xp[i] += h
        xm = list(inputs); xm[i] -= h
        fp = build_fn([Value(x) for x in xp]).data
        fm = build_fn([Value(x) for x in xm]).data
        numeric = (fp - fm) / (2 * h)
        assert abs(analytic[i] - numeric) < tol, (
            f"input {i}: analytic={analytic[i]:+.6f} numeric={numeric:+.6f}"
        )


def test_gradcheck_mixed():
    # f = tanh(x0*x1 + x2**2) * exp(x0) - x1/x2 + relu(x0)
    _grad_check(
        lambda v: (v[0] * v[1] + v[2] ** 2).tanh() * v[0].exp() - v[1] / v[2] + v[0].relu(),
        [1.5, -2.0, 3.0],
    )

test_add_forward()
test_mul_forward()
test_ops_forward()
test_simple_backward()
test_tanh_backward()
test_grad_accumulates()
test_gradcheck_mixed()
