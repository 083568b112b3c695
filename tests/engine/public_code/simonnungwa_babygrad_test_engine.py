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
Tests for the BabyGrad automatic differentiation engine.
"""

import math


class TestValueBasics:
    """Test basic Value creation and representation"""
    
    def test_value_creation(self):
        """Test creating a Value object"""
        v = Value(3.0)
        assert v.data == 3.0
        assert v.grad == 0.0
    
    def test_value_from_int(self):
        """Test creating a Value from an integer"""
        v = Value(5)
        assert v.data == 5.0
        assert isinstance(v.data, float)
    
    def test_value_repr(self):
        """Test string representation of Value"""
        v = Value(2.5)
        assert "Value(data=2.5)" in repr(v)


class TestArithmeticOperations:
    """Test arithmetic operations"""
    
    def test_addition(self):
        """Test addition of two Values"""
        a = Value(2.0)
        b = Value(3.0)
        c = a + b
        assert c.data == 5.0
    
    def test_addition_with_scalar(self):
        """Test addition of Value and scalar"""
        a = Value(2.0)
        c = a + 3.0
        assert c.data == 5.0
        
        c = 3.0 + a
        assert c.data == 5.0
    
    def test_multiplication(self):
        """Test multiplication of two Values"""
        a = Value(2.0)
        b = Value(3.0)
        c = a * b
        assert c.data == 6.0
    
    def test_multiplication_with_scalar(self):
        """Test multiplication of Value and scalar"""
        a = Value(2.0)
        c = a * 3.0
        assert c.data == 6.0
        
        c = 3.0 * a
        assert c.data == 6.0
    
    def test_subtraction(self):
        """Test subtraction of two Values"""
        a = Value(5.0)
        b = Value(3.0)
        c = a - b
        assert c.data == 2.0
    
    def test_subtraction_with_scalar(self):
        """Test subtraction with scalar"""
        a = Value(5.0)
        c = a - 3.0
        assert c.data == 2.0
        
        c = 5.0 - a
        assert c.data == 0.0
    
    def test_division(self):
        """Test division of two Values"""
        a = Value(6.0)
        b = Value(3.0)
        c = a / b
        assert c.data == 2.0
    
    def test_division_with_scalar(self):
        """Test division with scalar"""
        a = Value(6.0)
        c = a / 3.0
        assert c.data == 2.0
        
        c = 6.0 / a
        assert c.data == 1.0
    
    def test_negation(self):
        """Test negation of a Value"""
        a = Value(3.0)
        b = -a
        assert b.data == -3.0
    
    def test_power(self):
        """Test power operation"""
        a = Value(2.0)
        c = a ** 3
        assert c.data == 8.0
    
    def test_power_fractional(self):
        """Test power with fractional exponent"""
        a = Value(4.0)
        c = a ** 0.5
        assert c.data == 2.0


class TestActivationFunctions:
    """Test activation functions"""
    
    def test_exp(self):
        """Test exponential function"""
        a = Value(1.0)
        b = a.exp()
        assert abs(b.data - math.e) < 1e-7
    
    def test_log(self):
        """Test natural logarithm"""
        a = Value(math.e)
        b = a.log()
        assert abs(b.data - 1.0) < 1e-7
    
    def test_tanh(self):
        """Test hyperbolic tangent"""
        a = Value(0.0)
        b = a.tanh()
        assert abs(b.data - 0.0) < 1e-7
        
        a = Value(1.0)
        b = a.tanh()
        expected = (math.exp(2) - 1) / (math.exp(2) + 1)
        assert abs(b.data - expected) < 1e-7
    
    def test_relu(self):
        """Test ReLU activation"""
        a = Value(-2.0)
        b = a.relu()
        assert b.data == 0.0
        
        a = Value(2.0)
        b = a.relu()
        assert b.data == 2.0
        
        a = Value(0.0)
        b = a.relu()
        assert b.data == 0.0
    
    def test_sigmoid(self):
        """Test sigmoid activation"""
        a = Value(0.0)
        b = a.sigmoid()
        assert abs(b.data - 0.5) < 1e-7
        
        a = Value(100.0)  # Should be close to 1
        b = a.sigmoid()
        assert b.data > 0.99


class TestGradients:
    """Test gradient computation"""
    
    def test_simple_gradient(self):
        """Test gradient of a simple operation"""
        a = Value(2.0)
        b = a * 3.0
        b.backward()
        assert a.grad == 3.0
    
    def test_addition_gradient(self):
        """Test gradient through addition"""
        a = Value(2.0)
        b = Value(3.0)
        c = a + b
        c.backward()
        assert a.grad == 1.0
        assert b.grad == 1.0
    
    def test_multiplication_gradient(self):
        """Test gradient through multiplication"""
        a = Value(2.0)
        b = Value(3.0)
        c = a * b
        c.backward()
        assert a.grad == 3.0
        assert b.grad == 2.0
    
    def test_power_gradient(self):
        """Test gradient through power operation"""
        a = Value(2.0)
        b = a ** 3
        b.backward()
        # d/dx(x^3) = 3x^2, at x=2: 3*4 = 12
        assert a.grad == 12.0
    
    def test_complex_expression(self):
        """Test gradient of a complex expression"""
        # f(x, y) = x^2 + 2*x*y + y^2
        x = Value(3.0)
        y = Value(4.0)
        z = x**2 + 2*x*y + y**2
        z.backward()
        # df/dx = 2x + 2y = 2*3 + 2*4 = 14
        # df/dy = 2x + 2y = 2*3 + 2*4 = 14
        assert x.grad == 14.0
        assert y.grad == 14.0
    
    def test_exp_gradient(self):
        """Test gradient through exponential"""
        a = Value(1.0)
        b = a.exp()
        b.backward()
        # d/dx(e^x) = e^x, at x=1: e
        assert abs(a.grad - math.e) < 1e-7
    
    def test_log_gradient(self):
        """Test gradient through logarithm"""
        a = Value(2.0)
        b = a.log()
        b.backward()
        # d/dx(ln(x)) = 1/x, at x=2: 0.5
        assert abs(a.grad - 0.5) < 1e-7
    
    def test_tanh_gradient(self):
        """Test gradient through tanh"""
        a = Value(0.5)
        b = a.tanh()
        b.backward()
        # d/dx(tanh(x)) = 1 - tanh(x)^2
        expected_grad = 1 - b.data**2
        assert abs(a.grad - expected_grad) < 1e-7
    
    def test_relu_gradient(self):
        """Test gradient through ReLU"""
        # Positive input
        a = Value(2.0)
        b = a.relu()
        b.backward()
        assert a.grad == 1.0
        
        # Negative input
        a = Value(-2.0)
        b = a.relu()
        b.backward()
        assert a.grad == 0.0
    
    def test_sigmoid_gradient(self):
        """Test gradient through sigmoid"""
        a = Value(0.0)
        b = a.sigmoid()
        b.backward()
        # d/dx(sigmoid(x)) = sigmoid(x) * (1 - sigmoid(x))
        # at x=0: 0.5 * 0.5 = 0.25
        assert abs(a.grad - 0.25) < 1e-7
    
    def test_zero_grad(self):
        """Test gradient reset"""
        a = Value(2.0)
        b = a * 3.0
        b.backward()
        assert a.grad == 3.0
        
        a.zero_grad()
        assert a.grad == 0.0
    
    def test_chain_rule(self):
        """Test chain rule with nested operations"""
        # f(x) = (x + 1)^2
        x = Value(2.0)
        y = x + 1
        z = y ** 2
        z.backward()
        # df/dx = 2(x + 1) = 2*3 = 6
        assert x.grad == 6.0


class TestComplexComputations:
    """Test more complex computations"""
    
    def test_neuron_like_computation(self):
        """Test a computation similar to a neuron"""
        # Simulate: y = tanh(w1*x1 + w2*x2 + b)
        x1 = Value(1.0)
        x2 = Value(2.0)
        w1 = Value(0.5)
        w2 = Value(-0.3)
        b = Value(0.1)
        
        n = w1*x1 + w2*x2 + b
        y = n.tanh()
        y.backward()
        
        # All gradients should be computed
        assert x1.grad != 0.0
        assert x2.grad != 0.0
        assert w1.grad != 0.0
        assert w2.grad != 0.0
        assert b.grad != 0.0
    
    def test_multi_layer_computation(self):
        """Test multi-layer computation"""
        # Layer 1
        x = Value(1.0)
        w1 = Value(2.0)
        h1 = (x * w1).tanh()
        
        # Layer 2
        w2 = Value(3.0)
        out = h1 * w2
        
        out.backward()
        
        # Check that gradients propagate through both layers
        assert x.grad != 0.0
        assert w1.grad != 0.0
        assert w2.grad != 0.0


class TestEdgeCases:
    """Test edge cases"""
    
    def test_zero_value(self):
        """Test operations with zero"""
        a = Value(0.0)
        b = Value(5.0)
        c = a + b
        assert c.data == 5.0
        
        c = a * b
        assert c.data == 0.0
    
    def test_negative_values(self):
        """Test operations with negative values"""
        a = Value(-2.0)
        b = Value(3.0)
        c = a + b
        assert c.data == 1.0
        
        c = a * b
        assert c.data == -6.0
    
    def test_division_by_small_number(self):
        """Test division doesn't cause overflow"""
        a = Value(1.0)
        b = Value(0.001)
        c = a / b
        assert c.data == 1000.0

TestValueBasics().test_value_creation()
TestValueBasics().test_value_from_int()
TestValueBasics().test_value_repr()
TestArithmeticOperations().test_addition()
TestArithmeticOperations().test_addition_with_scalar()
TestArithmeticOperations().test_multiplication()
TestArithmeticOperations().test_multiplication_with_scalar()
TestArithmeticOperations().test_subtraction()
TestArithmeticOperations().test_subtraction_with_scalar()
TestArithmeticOperations().test_division()
TestArithmeticOperations().test_division_with_scalar()
TestArithmeticOperations().test_negation()
TestArithmeticOperations().test_power()
TestArithmeticOperations().test_power_fractional()
TestActivationFunctions().test_exp()
TestActivationFunctions().test_log()
TestActivationFunctions().test_tanh()
TestActivationFunctions().test_relu()
TestActivationFunctions().test_sigmoid()
TestGradients().test_simple_gradient()
TestGradients().test_addition_gradient()
TestGradients().test_multiplication_gradient()
TestGradients().test_power_gradient()
TestGradients().test_complex_expression()
TestGradients().test_exp_gradient()
TestGradients().test_log_gradient()
TestGradients().test_tanh_gradient()
TestGradients().test_relu_gradient()
TestGradients().test_sigmoid_gradient()
TestGradients().test_zero_grad()
TestGradients().test_chain_rule()
TestComplexComputations().test_neuron_like_computation()
TestComplexComputations().test_multi_layer_computation()
TestEdgeCases().test_zero_value()
TestEdgeCases().test_negative_values()
TestEdgeCases().test_division_by_small_number()
