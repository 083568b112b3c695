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
Neural network components for micrograd.

This module implements basic neural network layers using the Value class
from the engine module.
"""

import random
from typing import List, Union


class Neuron:
    """
    A single neuron with weights, bias, and activation function.
    """
    
    def __init__(self, nin: int, activation: str = 'tanh'):
        """
        Initialize a neuron.
        
        Args:
            nin: Number of input connections
            activation: Activation function ('tanh', 'relu', 'sigmoid', or 'linear')
        """
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))
        self.activation = activation
    
    def __call__(self, x: List[Union[Value, float]]):
        """
        Forward pass through the neuron.
        
        Args:
            x: Input values
            
        Returns:
            Output value after applying weights, bias, and activation
        """
        # Ensure inputs are Value objects
        x = [xi if isinstance(xi, Value) else Value(xi) for xi in x]
        
        # w * x + b
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        
        # Apply activation function
        if self.activation == 'tanh':
            out = act.tanh()
        elif self.activation == 'relu':
            out = act.relu()
        elif self.activation == 'sigmoid':
            out = act.sigmoid()
        elif self.activation == 'linear':
            out = act
        else:
            raise ValueError(f"Unsupported activation function: {self.activation}")
        
        return out
    
    def parameters(self):
        """Return all parameters (weights and bias) of this neuron."""
        return self.w + [self.b]


class Layer:
    """
    A layer of neurons.
    """
    
    def __init__(self, nin: int, nout: int, activation: str = 'tanh'):
        """
        Initialize a layer.
        
        Args:
            nin: Number of input connections per neuron
            nout: Number of neurons in this layer
            activation: Activation function for all neurons in this layer
        """
        self.neurons = [Neuron(nin, activation) for _ in range(nout)]
    
    def __call__(self, x: List[Union[Value, float]]):
        """
        Forward pass through the layer.
        
        Args:
            x: Input values
            
        Returns:
            List of output values from all neurons, or single value if only one neuron
        """
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs
    
    def parameters(self):
        """Return all parameters of all neurons in this layer."""
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP:
    """
    Multi-Layer Perceptron (feedforward neural network).
    """
    
    def __init__(self, nin: int, nouts: List[int], activations: Union[str, List[str]] = 'tanh'):
        """
        Initialize an MLP.
        
        Args:
            nin: Number of input features
            nouts: List of layer sizes (number of neurons in each layer)
            activations: Activation function(s). Can be a single string for all layers
                        or a list of strings for each layer
        """
        sz = [nin] + nouts
        
        # Handle activations
        if isinstance(activations, str):
            activations = [activations] * len(nouts)
        elif len(activations) != len(nouts):
            raise ValueError("Number of activations must match number of layers")
        
        self.layers = [Layer(sz[i], sz[i+1], activations[i]) for i in range(len(nouts))]
    
    def __call__(self, x: List[Union[Value, float]]):
        """
        Forward pass through the MLP.
        
        Args:
            x: Input values
            
        Returns:
            Output values from the final layer
        """
        for layer in self.layers:
            x = layer(x)
        return x
    
    def parameters(self):
        """Return all parameters of the MLP."""
        return [p for layer in self.layers for p in layer.parameters()]
    
    def zero_grad(self):
        """Zero out gradients of all parameters."""
        for p in self.parameters():
            p.grad = 0.0
    
    def get_loss(self, predictions: List[Value], targets: List[float], loss_type: str = 'mse'):
        """
        Compute loss between predictions and targets.
        
        Args:
            predictions: Model predictions
            targets: Target values
            loss_type: Type of loss ('mse' for mean squared error)
            
        Returns:
            Loss value
        """
        if loss_type == 'mse':
            losses = [(pred - target)**2 for pred, target in zip(predictions, targets)]
            return sum(losses) / len(losses)
        else:
            raise ValueError(f"Unsupported loss type: {loss_type}")
    
    def update_parameters(self, learning_rate: float = 0.01):
        """
        Update parameters using gradient descent.
        
        Args:
            learning_rate: Learning rate for parameter updates
        """
        for p in self.parameters():
            p.data -= learning_rate * p.grad

"""Test the neural network module."""

import pytest


class TestNeuron:
    """Test cases for the Neuron class."""
    
    def test_neuron_creation(self):
        """Test neuron creation with different parameters."""
        n = Neuron(3)  # 3 inputs
        assert len(n.w) == 3
        assert n.b is not None
        assert n.activation == 'tanh'
        
        # Test with different activation
        n_relu = Neuron(2, activation='relu')
        assert n_relu.activation == 'relu'
    
    def test_neuron_forward_pass(self):
        """Test forward pass through a neuron."""
        n = Neuron(2, activation='linear')
        
        # Set known weights and bias
        n.w[0].data = 1.0
        n.w[1].data = 2.0
        n.b.data = 0.5
        
        # Test forward pass
        x = [1.0, 2.0]
        out = n(x)
        
        # Expected: 1*1 + 2*2 + 0.5 = 5.5
        assert abs(out.data - 5.5) < 1e-6
    
    def test_neuron_parameters(self):
        """Test parameter retrieval."""
        n = Neuron(3)
        params = n.parameters()
        assert len(params) == 4  # 3 weights + 1 bias


class TestLayer:
    """Test cases for the Layer class."""
    
    def test_layer_creation(self):
        """Test layer creation."""
        layer = Layer(3, 2)  # 3 inputs, 2 neurons
        assert len(layer.neurons) == 2
        assert all(len(n.w) == 3 for n in layer.neurons)
    
    def test_layer_forward_pass(self):
        """Test forward pass through a layer."""
        layer = Layer(2, 3, activation='linear')
        
        # Set known weights and biases
        for i, neuron in enumerate(layer.neurons):
            neuron.w[0].data = 1.0
            neuron.w[1].data = 1.0
            neuron.b.data = i  # Different bias for each neuron
        
        x = [1.0, 1.0]
        out = layer(x)
        
        assert len(out) == 3
        # Expected outputs: [2.0, 3.0, 4.0] (since bias is 0, 1, 2)
        for i, o in enumerate(out):
            assert abs(o.data - (2.0 + i)) < 1e-6
    
    def test_single_neuron_layer(self):
        """Test layer with single neuron returns scalar."""
        layer = Layer(2, 1)
        x = [1.0, 2.0]
        out = layer(x)
        
        # Should return a single Value, not a list
        assert isinstance(out, Value)
    
    def test_layer_parameters(self):
        """Test parameter retrieval from layer."""
        layer = Layer(2, 3)
        params = layer.parameters()
        assert len(params) == 9  # 3 neurons * (2 weights + 1 bias)


class TestMLP:
    """Test cases for the MLP class."""
    
    def test_mlp_creation(self):
        """Test MLP creation."""
        mlp = MLP(3, [4, 2, 1])  # 3 inputs, hidden layers of 4,2, output of 1
        assert len(mlp.layers) == 3
        
        # Check layer sizes
        assert len(mlp.layers[0].neurons) == 4
        assert len(mlp.layers[1].neurons) == 2
        assert len(mlp.layers[2].neurons) == 1
    
    def test_mlp_forward_pass(self):
        """Test forward pass through MLP."""
        mlp = MLP(2, [2, 1], activations='linear')
        
        x = [1.0, 2.0]
        out = mlp(x)
        
        # Should return a single Value (since output layer has 1 neuron)
        assert isinstance(out, Value)
    
    def test_mlp_parameters(self):
        """Test parameter retrieval from MLP."""
        mlp = MLP(3, [4, 2, 1])
        params = mlp.parameters()
        
        # Layer 1: 4 neurons * (3 weights + 1 bias) = 16
        # Layer 2: 2 neurons * (4 weights + 1 bias) = 10  
        # Layer 3: 1 neuron * (2 weights + 1 bias) = 3
        # Total: 29 parameters
        assert len(params) == 29
    
    def test_mlp_zero_grad(self):
        """Test gradient zeroing."""
        mlp = MLP(2, [2, 1])
        
        # Set some gradients
        for p in mlp.parameters():
            p.grad = 1.0
        
        # Zero gradients
        mlp.zero_grad()
        
        # Check all gradients are zero
        for p in mlp.parameters():
            assert p.grad == 0.0
    
    def test_mlp_training_step(self):
        """Test a basic training step."""
        mlp = MLP(2, [2, 1])
        
        # Sample training data
        x = [1.0, 2.0]
        target = 3.0
        
        # Forward pass
        pred = mlp(x)
        
        # Compute loss (simple squared error)
        loss = (pred - target) ** 2
        
        # Backward pass
        mlp.zero_grad()
        loss.backward()
        
        # Check that gradients are computed
        for p in mlp.parameters():
            # Gradients should be non-zero after backprop
            assert p.grad != 0.0 or p.data == 0.0  # Handle case where parameter is exactly 0
    
    def test_mlp_different_activations(self):
        """Test MLP with different activation functions."""
        # Single activation for all layers
        mlp1 = MLP(2, [2, 1], activations='relu')
        
        # Different activations for each layer
        mlp2 = MLP(2, [2, 1], activations=['tanh', 'sigmoid'])
        
        x = [1.0, 2.0]
        
        # Both should work without errors
        out1 = mlp1(x)
        out2 = mlp2(x)
        
        assert isinstance(out1, Value)
        assert isinstance(out2, Value)
    
    def test_mlp_parameter_update(self):
        """Test parameter update mechanism."""
        mlp = MLP(2, [1], activations='linear')
        
        # Get initial parameter values
        initial_params = [p.data for p in mlp.parameters()]
        
        # Set some gradients
        for p in mlp.parameters():
            p.grad = 1.0
        
        # Update parameters
        learning_rate = 0.01
        mlp.update_parameters(learning_rate)
        
        # Check that parameters have been updated
        updated_params = [p.data for p in mlp.parameters()]
        
        for initial, updated in zip(initial_params, updated_params):
            expected = initial - learning_rate * 1.0  # grad was 1.0
            assert abs(updated - expected) < 1e-6

TestNeuron().test_neuron_creation()
TestNeuron().test_neuron_forward_pass()
TestNeuron().test_neuron_parameters()
TestLayer().test_layer_creation()
TestLayer().test_layer_forward_pass()
TestLayer().test_single_neuron_layer()
TestLayer().test_layer_parameters()
TestMLP().test_mlp_creation()
TestMLP().test_mlp_forward_pass()
TestMLP().test_mlp_parameters()
TestMLP().test_mlp_zero_grad()
TestMLP().test_mlp_training_step()
TestMLP().test_mlp_different_activations()
TestMLP().test_mlp_parameter_update()
