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

"""
Basic operations example for micrograd.

This example demonstrates the core functionality of the Value class
and automatic differentiation.
"""

import math


def basic_arithmetic():
    """Demonstrate basic arithmetic operations."""
    print("=== Basic Arithmetic Operations ===")
    
    a = Value(2.0, label='a')
    b = Value(3.0, label='b')
    
    # Addition
    c = a + b
    c.label = 'c=a+b'
    print(f"a + b = {c.data}")
    
    # Multiplication
    d = a * b
    d.label = 'd=a*b'
    print(f"a * b = {d.data}")
    
    # More complex expression
    e = a * b + b**2
    e.label = 'e=a*b+b^2'
    print(f"a * b + b^2 = {e.data}")
    
    # Compute gradients
    e.backward()
    print(f"de/da = {a.grad}")
    print(f"de/db = {b.grad}")
    print()


def activation_functions():
    """Demonstrate activation functions."""
    print("=== Activation Functions ===")
    
    x = Value(0.5, label='x')
    
    # Tanh
    y_tanh = x.tanh()
    y_tanh.label = 'tanh(x)'
    print(f"tanh({x.data}) = {y_tanh.data:.4f}")
    
    # ReLU
    x_neg = Value(-1.0, label='x_neg')
    x_pos = Value(1.0, label='x_pos')
    
    relu_neg = x_neg.relu()
    relu_pos = x_pos.relu()
    print(f"relu({x_neg.data}) = {relu_neg.data}")
    print(f"relu({x_pos.data}) = {relu_pos.data}")
    
    # Sigmoid
    sigmoid_out = x.sigmoid()
    sigmoid_out.label = 'sigmoid(x)'
    print(f"sigmoid({x.data}) = {sigmoid_out.data:.4f}")
    
    # Compute gradients for sigmoid
    sigmoid_out.backward()
    print(f"d(sigmoid)/dx = {x.grad:.4f}")
    print()


def chain_rule_example():
    """Demonstrate chain rule with a complex expression."""
    print("=== Chain Rule Example ===")
    
    # f(x) = sin(x^2) approximated as tanh(x^2)
    x = Value(1.5, label='x')
    
    x_squared = x**2
    x_squared.label = 'x^2'
    
    f = x_squared.tanh()
    f.label = 'tanh(x^2)'
    
    print(f"x = {x.data}")
    print(f"x^2 = {x_squared.data}")
    print(f"tanh(x^2) = {f.data:.4f}")
    
    # Compute gradient
    f.backward()
    print(f"df/dx = {x.grad:.4f}")
    
    # Compare with analytical solution
    # d/dx[tanh(x^2)] = sech^2(x^2) * 2x = (1 - tanh^2(x^2)) * 2x
    analytical = (1 - f.data**2) * 2 * x.data
    print(f"Analytical df/dx = {analytical:.4f}")
    print(f"Difference = {abs(x.grad - analytical):.6f}")
    print()


def gradient_accumulation():
    """Demonstrate gradient accumulation."""
    print("=== Gradient Accumulation ===")
    
    # Use the same variable multiple times
    a = Value(2.0, label='a')
    
    # Expression where 'a' appears multiple times
    b = a + a  # 2*a
    c = a * a  # a^2
    d = b + c  # 2*a + a^2
    d.label = '2*a + a^2'
    
    print(f"a = {a.data}")
    print(f"2*a + a^2 = {d.data}")
    
    # Compute gradient
    d.backward()
    print(f"d(2*a + a^2)/da = {a.grad}")
    
    # Analytical: d/da[2*a + a^2] = 2 + 2*a = 2 + 2*2 = 6
    analytical = 2 + 2 * a.data
    print(f"Analytical gradient = {analytical}")
    print(f"Match: {abs(a.grad - analytical) < 1e-6}")
    print()


def exponential_and_log():
    """Demonstrate exponential and logarithm functions."""
    print("=== Exponential and Logarithm ===")
    
    x = Value(1.0, label='x')
    
    # Exponential
    exp_x = x.exp()
    exp_x.label = 'exp(x)'
    print(f"exp({x.data}) = {exp_x.data:.4f}")
    print(f"Expected: {math.e:.4f}")
    
    # Logarithm
    y = Value(math.e, label='y')
    log_y = y.log()
    log_y.label = 'log(y)'
    print(f"log({y.data:.4f}) = {log_y.data:.4f}")
    print(f"Expected: 1.0")
    
    # Gradient of exp
    exp_x.backward()
    print(f"d(exp(x))/dx = {x.grad:.4f}")
    print(f"Expected (exp(x)): {math.e:.4f}")
    print()


if __name__ == "__main__":
    basic_arithmetic()
    activation_functions()
    chain_rule_example()
    gradient_accumulation()
    exponential_and_log()
    
    print("=== Summary ===")
    print("This example demonstrated:")
    print("1. Basic arithmetic operations (+, -, *, /, **)")
    print("2. Activation functions (tanh, relu, sigmoid)")
    print("3. Chain rule application")
    print("4. Gradient accumulation when variables are reused")
    print("5. Exponential and logarithm functions")
    print("6. Automatic differentiation (backpropagation)")
