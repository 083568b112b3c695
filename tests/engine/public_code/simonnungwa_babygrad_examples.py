"""
Core automatic differentiation engine for BabyGrad.

This module implements the Value class which tracks operations and computes gradients
using reverse-mode automatic differentiation (backpropagation).
"""

import math


class Value:
    """
    A Value wraps a scalar and tracks the operations performed on it to enable
    automatic differentiation via backpropagation.
    
    Attributes:
        data: The scalar value (float)
        grad: The gradient of this value with respect to some output
        _backward: Function to propagate gradients to inputs
        _prev: Set of Value objects that created this Value
        _op: String describing the operation that created this Value
    """
    
    def __init__(self, data, _children=(), _op='', label=''):
        """
        Initialize a Value.
        
        Args:
            data: The scalar value (will be converted to float)
            _children: Tuple of parent Value objects
            _op: String describing the operation
            label: Optional label for debugging/visualization
        """
        self.data = float(data)
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label
    
    def __repr__(self):
        return f"Value(data={self.data})"
    
    def __add__(self, other):
        """Addition: self + other"""
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')
        
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        
        return out
    
    def __mul__(self, other):
        """Multiplication: self * other"""
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')
        
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        
        return out
    
    def __pow__(self, other):
        """Power: self ** other (other must be int or float)"""
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data ** other, (self,), f'**{other}')
        
        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad
        out._backward = _backward
        
        return out
    
    def __rpow__(self, other):
        """Reverse power: other ** self"""
        return Value(other) ** self
    
    def __neg__(self):
        """Negation: -self"""
        return self * -1
    
    def __sub__(self, other):
        """Subtraction: self - other"""
        return self + (-other)
    
    def __rsub__(self, other):
        """Reverse subtraction: other - self"""
        return other + (-self)
    
    def __truediv__(self, other):
        """Division: self / other"""
        return self * other**-1
    
    def __rtruediv__(self, other):
        """Reverse division: other / self"""
        return other * self**-1
    
    def __radd__(self, other):
        """Reverse addition: other + self"""
        return self + other
    
    def __rmul__(self, other):
        """Reverse multiplication: other * self"""
        return self * other
    
    def exp(self):
        """Exponential function: e^self"""
        x = self.data
        out = Value(math.exp(x), (self,), 'exp')
        
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        
        return out
    
    def log(self):
        """Natural logarithm: ln(self)"""
        x = self.data
        out = Value(math.log(x), (self,), 'log')
        
        def _backward():
            self.grad += (1.0 / self.data) * out.grad
        out._backward = _backward
        
        return out
    
    def tanh(self):
        """Hyperbolic tangent activation function"""
        x = self.data
        t = (math.exp(2*x) - 1) / (math.exp(2*x) + 1)
        out = Value(t, (self,), 'tanh')
        
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        
        return out
    
    def relu(self):
        """ReLU activation function: max(0, self)"""
        out = Value(max(0, self.data), (self,), 'ReLU')
        
        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        
        return out
    
    def sigmoid(self):
        """Sigmoid activation function: 1 / (1 + e^(-self))"""
        x = self.data
        s = 1 / (1 + math.exp(-x))
        out = Value(s, (self,), 'sigmoid')
        
        def _backward():
            self.grad += s * (1 - s) * out.grad
        out._backward = _backward
        
        return out
    
    def backward(self):
        """
        Compute gradients using reverse-mode automatic differentiation.
        
        This method performs a topological sort of the computation graph and
        calls _backward on each node in reverse topological order to accumulate
        gradients.
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
        
        # Initialize gradient of output to 1.0
        self.grad = 1.0
        
        # Apply chain rule going backwards through the graph
        for node in reversed(topo):
            node._backward()
    
    def zero_grad(self):
        """Reset the gradient to zero"""
        self.grad = 0.0


# Utility functions
def exp(x):
    """Exponential function"""
    return x.exp() if isinstance(x, Value) else Value(x).exp()


def log(x):
    """Natural logarithm"""
    return x.log() if isinstance(x, Value) else Value(x).log()


def tanh(x):
    """Hyperbolic tangent"""
    return x.tanh() if isinstance(x, Value) else Value(x).tanh()


def relu(x):
    """ReLU activation"""
    return x.relu() if isinstance(x, Value) else Value(x).relu()


def sigmoid(x):
    """Sigmoid activation"""
    return x.sigmoid() if isinstance(x, Value) else Value(x).sigmoid()

"""
Example usage of BabyGrad - demonstrating the autograd engine
"""



def example_basic_operations():
    """Basic arithmetic operations with automatic differentiation"""
    print("=" * 50)
    print("Example 1: Basic Operations")
    print("=" * 50)
    
    a = Value(2.0, label='a')
    b = Value(3.0, label='b')
    
    # Perform operations
    c = a * b + a**2
    print(f"a = {a.data}")
    print(f"b = {b.data}")
    print(f"c = a * b + a^2 = {c.data}")
    
    # Compute gradients
    c.backward()
    print(f"\nGradients:")
    print(f"dc/da = {a.grad} (expected: b + 2*a = 3 + 4 = 7)")
    print(f"dc/db = {b.grad} (expected: a = 2)")
    print()


def example_neuron():
    """Simulate a simple neuron with tanh activation"""
    print("=" * 50)
    print("Example 2: Simulating a Neuron")
    print("=" * 50)
    
    # Inputs
    x1 = Value(1.0, label='x1')
    x2 = Value(2.0, label='x2')
    
    # Weights
    w1 = Value(0.5, label='w1')
    w2 = Value(-0.3, label='w2')
    
    # Bias
    b = Value(0.1, label='b')
    
    # Neuron computation: output = tanh(w1*x1 + w2*x2 + b)
    n = w1*x1 + w2*x2 + b
    output = n.tanh()
    
    print(f"Inputs: x1={x1.data}, x2={x2.data}")
    print(f"Weights: w1={w1.data}, w2={w2.data}")
    print(f"Bias: b={b.data}")
    print(f"Output: {output.data:.4f}")
    
    # Compute gradients
    output.backward()
    
    print(f"\nGradients (for backpropagation/training):")
    print(f"∂output/∂w1 = {w1.grad:.4f}")
    print(f"∂output/∂w2 = {w2.grad:.4f}")
    print(f"∂output/∂b  = {b.grad:.4f}")
    print()


def example_complex_function():
    """Complex mathematical function"""
    print("=" * 50)
    print("Example 3: Complex Function")
    print("=" * 50)
    
    # f(x, y) = (x^2 + y)^2 / (x + 1)
    x = Value(2.0, label='x')
    y = Value(3.0, label='y')
    
    numerator = (x**2 + y)**2
    denominator = x + 1
    f = numerator / denominator
    
    print(f"f(x, y) = (x^2 + y)^2 / (x + 1)")
    print(f"x = {x.data}, y = {y.data}")
    print(f"f({x.data}, {y.data}) = {f.data:.4f}")
    
    # Compute gradients
    f.backward()
    
    print(f"\nGradients:")
    print(f"∂f/∂x = {x.grad:.4f}")
    print(f"∂f/∂y = {y.grad:.4f}")
    print()


def example_activation_functions():
    """Demonstrate various activation functions"""
    print("=" * 50)
    print("Example 4: Activation Functions")
    print("=" * 50)
    
    x_values = [-2.0, -1.0, 0.0, 1.0, 2.0]
    
    print("x\t\tReLU\t\ttanh\t\tsigmoid")
    print("-" * 60)
    
    for x_val in x_values:
        x = Value(x_val)
        relu_val = x.relu().data
        tanh_val = x.tanh().data
        sigmoid_val = x.sigmoid().data
        print(f"{x_val:.1f}\t\t{relu_val:.4f}\t\t{tanh_val:.4f}\t\t{sigmoid_val:.4f}")
    print()


def example_gradient_descent():
    """Simple gradient descent optimization"""
    print("=" * 50)
    print("Example 5: Gradient Descent")
    print("=" * 50)
    
    # Minimize f(x) = (x - 3)^2
    # The minimum is at x = 3
    
    x = Value(0.0, label='x')
    learning_rate = 0.1
    
    print("Minimizing f(x) = (x - 3)^2")
    print("Starting at x = 0.0\n")
    
    for i in range(20):
        # Forward pass
        target = Value(3.0)
        loss = (x - target) ** 2
        
        # Backward pass
        loss.backward()
        
        # Update (gradient descent)
        x.data -= learning_rate * x.grad
        
        # Reset gradient for next iteration
        x.zero_grad()
        
        if i % 5 == 0:
            print(f"Iteration {i:2d}: x = {x.data:.4f}, loss = {loss.data:.4f}")
    
    print(f"\nFinal: x = {x.data:.4f} (target: 3.0)")
    print()


if __name__ == "__main__":
    print("\n" + "=" * 50)
    print("BabyGrad - Automatic Differentiation Examples")
    print("=" * 50 + "\n")
    
    example_basic_operations()
    example_neuron()
    example_complex_function()
    example_activation_functions()
    example_gradient_descent()
    
    print("=" * 50)
    print("All examples completed!")
    print("=" * 50)
