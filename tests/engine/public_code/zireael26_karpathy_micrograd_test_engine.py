"""
Core autograd engine for micrograd.

This module implements the Value class which represents a scalar value
and its gradient in a computational graph.
"""

import math

class Value:
    """
    Stores a single scalar value and its gradient.
    
    This class supports basic mathematical operations and builds a computational
    graph for automatic differentiation (backpropagation).
    """
    
    def __init__(self, data: float, _children: tuple = (), _op: str = '', label: str = ''):
        """
        Initialize a Value object.
        
        Args:
            data: The scalar value
            _children: Child nodes in the computational graph (internal use)
            _op: Operation that created this value (internal use)  
            label: Optional label for visualization
        """
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label
    
    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"
    
    def __add__(self, other):
        """Addition operation."""
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')
        
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        
        return out
    
    def __radd__(self, other):
        """Reverse add (for other + self)."""
        return self + other
    
    def __sub__(self, other):
        """Subtraction operation."""
        return self + (-other)
    
    def __rsub__(self, other):
        """Reverse subtract (for other - self)."""
        return other + (-self)
    
    def __mul__(self, other):
        """Multiplication operation."""
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')
        
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        
        return out
    
    def __rmul__(self, other):
        """Reverse multiply (for other * self)."""
        return self * other
    
    def __truediv__(self, other):
        """Division operation."""
        return self * other**-1
    
    def __rtruediv__(self, other):
        """Reverse divide (for other / self)."""
        return other * self**-1
    
    def __pow__(self, other):
        """Power operation."""
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'**{other}')
        
        def _backward():
            self.grad += other * (self.data**(other-1)) * out.grad
        out._backward = _backward
        
        return out
    
    def __neg__(self):
        """Negation operation."""
        return self * -1
    
    def exp(self):
        """Exponential function."""
        out = Value(math.exp(self.data), (self,), 'exp')
        
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        
        return out
    
    def log(self):
        """Natural logarithm."""
        out = Value(math.log(self.data), (self,), 'log')
        
        def _backward():
            self.grad += (1.0 / self.data) * out.grad
        out._backward = _backward
        
        return out
    
    def tanh(self):
        """Hyperbolic tangent activation function."""
        x = self.data
        t = (math.exp(2*x) - 1) / (math.exp(2*x) + 1)
        out = Value(t, (self,), 'tanh')
        
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        
        return out
    
    def relu(self):
        """ReLU activation function."""
        out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')
        
        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        
        return out
    
    def sigmoid(self):
        """Sigmoid activation function."""
        out = Value(1 / (1 + math.exp(-self.data)), (self,), 'sigmoid')
        
        def _backward():
            self.grad += out.data * (1 - out.data) * out.grad
        out._backward = _backward
        
        return out
    
    def backward(self):
        """
        Compute gradients for all values in the computational graph.
        
        This method performs backpropagation starting from this Value.
        """
        # Build topological order of all children in the graph
        topo = []
        visited = set()
        
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        
        build_topo(self)
        
        # Go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()


# Convenience functions
def exp(x):
    """Exponential function for Value objects."""
    return x.exp()

def log(x):
    """Natural logarithm for Value objects."""
    return x.log()

def tanh(x):
    """Hyperbolic tangent for Value objects."""
    return x.tanh()

def relu(x):
    """ReLU activation for Value objects."""
    return x.relu()

def sigmoid(x):
    """Sigmoid activation for Value objects."""
    return x.sigmoid()

"""Test the engine module."""

import math
import pytest


class TestValue:
    """Test cases for the Value class."""
    
    def test_basic_operations(self):
        """Test basic arithmetic operations."""
        a = Value(2.0)
        b = Value(3.0)
        
        # Addition
        c = a + b
        assert c.data == 5.0
        
        # Multiplication
        d = a * b
        assert d.data == 6.0
        
        # Subtraction
        e = a - b
        assert e.data == -1.0
        
        # Division
        f = a / b
        assert abs(f.data - 2.0/3.0) < 1e-6
        
        # Power
        g = a ** 2
        assert g.data == 4.0
    
    def test_backpropagation(self):
        """Test basic backpropagation."""
        a = Value(2.0)
        b = Value(3.0)
        c = a * b + b**2
        c.backward()
        
        # dc/da = b = 3.0
        assert abs(a.grad - 3.0) < 1e-6
        # dc/db = a + 2*b = 2 + 6 = 8.0
        assert abs(b.grad - 8.0) < 1e-6
    
    def test_chain_rule(self):
        """Test chain rule with more complex expressions."""
        x = Value(2.0)
        y = x**2 + 2*x + 1  # (x+1)^2
        y.backward()
        
        # dy/dx = 2*x + 2 = 6.0
        assert abs(x.grad - 6.0) < 1e-6
    
    def test_activation_functions(self):
        """Test activation functions."""
        x = Value(0.5)
        
        # Tanh
        y = x.tanh()
        expected = math.tanh(0.5)
        assert abs(y.data - expected) < 1e-6
        
        # ReLU
        x_neg = Value(-1.0)
        x_pos = Value(1.0)
        assert x_neg.relu().data == 0.0
        assert x_pos.relu().data == 1.0
        
        # Sigmoid
        s = x.sigmoid()
        expected_sigmoid = 1 / (1 + math.exp(-0.5))
        assert abs(s.data - expected_sigmoid) < 1e-6
    
    def test_exp_and_log(self):
        """Test exponential and logarithm functions."""
        x = Value(1.0)
        
        # Exponential
        y = x.exp()
        assert abs(y.data - math.e) < 1e-6
        
        # Logarithm
        z = Value(math.e)
        w = z.log()
        assert abs(w.data - 1.0) < 1e-6
    
    def test_gradient_accumulation(self):
        """Test that gradients accumulate correctly."""
        a = Value(2.0)
        b = a + a  # Use 'a' twice
        b.backward()
        
        # da/db should be 2.0 (used twice)
        assert abs(a.grad - 2.0) < 1e-6
    
    def test_zero_gradient(self):
        """Test that gradients start at zero."""
        x = Value(5.0)
        assert x.grad == 0.0
    
    def test_complex_expression(self):
        """Test a more complex expression."""
        # f(x,y) = x*y + sin(x) (approximated with tanh for simplicity)
        x = Value(1.0)
        y = Value(2.0)
        
        z = x * y + x.tanh()
        z.backward()
        
        # Check that gradients are computed (exact values depend on implementation)
        assert x.grad != 0.0
        assert y.grad != 0.0

TestValue().test_basic_operations()
TestValue().test_backpropagation()
TestValue().test_chain_rule()
TestValue().test_activation_functions()
TestValue().test_exp_and_log()
TestValue().test_gradient_accumulation()
TestValue().test_zero_gradient()
TestValue().test_complex_expression()
