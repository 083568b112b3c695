"""
Core Scalar class and automatic differentiation engine.
"""

from __future__ import annotations
import math
from typing import List, Tuple, Set, Callable, Union



class Scalar:
    """
    Represents a scalar value in the computational graph with automatic differentiation.
    
    This class implements reverse-mode automatic differentiation (backpropagation)
    for scalar operations. Each Scalar maintains its value, gradient, and connections
    to parent nodes in the computation graph.
    
    Attributes:
        data: The scalar value
        grad: The gradient of this scalar with respect to some output
        _backward: Function to compute gradients for parent nodes
        _prev: Set of parent Scalar objects
        _op: String representation of the operation that created this Scalar
        label: Optional label for visualization
    """
    
    def __init__(
        self,
        data: float,
        _children: Tuple[Scalar, ...] = (),
        _op: str = '',
        label: str = ''
    ):
        """
        Initialize a Scalar value.
        
        Args:
            data: The numerical value
            _children: Tuple of parent Scalars in the computation graph
            _op: Operation that produced this Scalar
            label: Optional label for identification and visualization
        """
        self.data = float(data)
        self.grad = 0.0
        self._backward: Callable[[], None] = lambda: None
        self._prev: Set[Scalar] = set(_children)
        self._op = _op
        self.label = label
        
        logger.debug(f"Created Scalar: {self}")
    
    def __repr__(self) -> str:
        """String representation of the Scalar."""
        label_str = f"'{self.label}'" if self.label else "unlabeled"
        return f"Scalar({label_str}, data={self.data:.4f}, grad={self.grad:.4f})"
    
    def __add__(self, other: Union[Scalar, float]) -> Scalar:
        """Addition operation."""
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, (self, other), '+')
        
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        
        return out
    
    def __mul__(self, other: Union[Scalar, float]) -> Scalar:
        """Multiplication operation."""
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, (self, other), '*')
        
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        
        return out
    
    def __pow__(self, other: Union[int, float]) -> Scalar:
        """Power operation."""
        assert isinstance(other, (int, float)), "Power must be int or float"
        out = Scalar(self.data ** other, (self,), f'**{other}')
        
        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad
        out._backward = _backward
        
        return out
    
    def __neg__(self) -> Scalar:
        """Negation operation."""
        return self * -1
    
    def __radd__(self, other: Union[Scalar, float]) -> Scalar:
        """Reverse addition."""
        return self + other
    
    def __sub__(self, other: Union[Scalar, float]) -> Scalar:
        """Subtraction operation."""
        return self + (-other)
    
    def __rsub__(self, other: Union[Scalar, float]) -> Scalar:
        """Reverse subtraction."""
        return other + (-self)
    
    def __rmul__(self, other: Union[Scalar, float]) -> Scalar:
        """Reverse multiplication."""
        return self * other
    
    def __truediv__(self, other: Union[Scalar, float]) -> Scalar:
        """Division operation."""
        return self * (other ** -1)
    
    def __rtruediv__(self, other: Union[Scalar, float]) -> Scalar:
        """Reverse division."""
        return other * (self ** -1)
    
    def relu(self) -> Scalar:
        """
        Rectified Linear Unit activation function.
        
        Returns:
            Scalar with ReLU applied: max(0, x)
        """
        out = Scalar(max(0, self.data), (self,), 'ReLU')
        
        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        
        return out
    
    def tanh(self) -> Scalar:
        """
        Hyperbolic tangent activation function.
        
        Returns:
            Scalar with tanh applied
        """
        t = math.tanh(self.data)
        out = Scalar(t, (self,), 'tanh')
        
        def _backward():
            self.grad += (1 - t ** 2) * out.grad
        out._backward = _backward
        
        return out
    
    def sigmoid(self) -> Scalar:
        """
        Sigmoid activation function.
        
        Returns:
            Scalar with sigmoid applied: 1 / (1 + exp(-x))
        """
        s = 1 / (1 + math.exp(-self.data))
        out = Scalar(s, (self,), 'sigmoid')
        
        def _backward():
            self.grad += s * (1 - s) * out.grad
        out._backward = _backward
        
        return out
    
    def exp(self) -> Scalar:
        """
        Exponential function.
        
        Returns:
            Scalar with exp applied
        """
        out = Scalar(math.exp(self.data), (self,), 'exp')
        
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        
        return out
    
    def log(self) -> Scalar:
        """
        Natural logarithm function.
        
        Returns:
            Scalar with log applied
        """
        assert self.data > 0, "log requires positive input"
        out = Scalar(math.log(self.data), (self,), 'log')
        
        def _backward():
            self.grad += (1 / self.data) * out.grad
        out._backward = _backward
        
        return out
    
    def backward(self) -> None:
        """
        Compute gradients for all Scalars in the computation graph.
        
        Uses topological sort to ensure gradients are computed in the correct order.
        Implements reverse-mode automatic differentiation (backpropagation).
        """
        # Build topological order
        topo: List[Scalar] = []
        visited: Set[Scalar] = set()
        
        def build_topo(v: Scalar) -> None:
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        
        build_topo(self)
        
        # Initialize gradient of output to 1
        self.grad = 1.0
        
        # Backpropagate gradients
        for node in reversed(topo):
            node._backward()
            
            # Apply gradient clipping if configured
            if config.gradient_clip is not None:
                node.grad = max(min(node.grad, config.gradient_clip), -config.gradient_clip)
        
        logger.info(f"Backward pass completed for {len(topo)} nodes")
    
    def zero_grad(self) -> None:
        """Reset gradient to zero."""
        self.grad = 0.0

"""
Configuration and logging setup for ScalarGrad.
"""

import logging
import random
from dataclasses import dataclass
from enum import Enum
from typing import Optional


class LogLevel(Enum):
    """Enumeration for logging levels."""
    DEBUG = logging.DEBUG
    INFO = logging.INFO
    WARNING = logging.WARNING
    ERROR = logging.ERROR


@dataclass
class Config:
    """Global configuration for ScalarGrad."""
    log_level: LogLevel = LogLevel.INFO
    seed: Optional[int] = None
    gradient_clip: Optional[float] = None
    numerical_stability_epsilon: float = 1e-8
    
    def __post_init__(self):
        """Initialize logging and random seed."""
        logging.basicConfig(
            level=self.log_level.value,
            format='%(asctime)s - %(name)s - %(levelname)s - %(message)s'
        )
        if self.seed is not None:
            random.seed(self.seed)


# Global configuration instance
config = Config()
logger = logging.getLogger(__name__)

"""
Loss functions for ScalarGrad.
"""

from abc import ABC, abstractmethod
from typing import List



class Loss(ABC):
    """Abstract base class for loss functions."""
    
    @abstractmethod
    def __call__(self, predictions: List[Scalar], targets: List[float]) -> Scalar:
        """Compute loss."""
        pass


class MSELoss(Loss):
    """Mean Squared Error loss."""
    
    def __call__(self, predictions: List[Scalar], targets: List[float]) -> Scalar:
        """
        Compute MSE loss.
        
        Args:
            predictions: List of predicted Scalars
            targets: List of target values
            
        Returns:
            MSE loss as Scalar
        """
        losses = [(pred - target) ** 2 for pred, target in zip(predictions, targets)]
        return sum(losses, Scalar(0)) * (1.0 / len(losses))


class SVMLoss(Loss):
    """SVM max-margin loss."""
    
    def __call__(self, predictions: List[Scalar], targets: List[float]) -> Scalar:
        """
        Compute SVM hinge loss.
        
        Args:
            predictions: List of predicted Scalars
            targets: List of target values (-1 or 1)
            
        Returns:
            SVM loss as Scalar
        """
        losses = [(Scalar(1) + (-target * pred)).relu() 
                  for pred, target in zip(predictions, targets)]
        return sum(losses, Scalar(0)) * (1.0 / len(losses))

"""
Base Module class for neural network components.
"""

from abc import ABC, abstractmethod
from typing import List



class Module(ABC):
    """
    Abstract base class for all neural network modules.
    
    Provides common interface for parameters, gradient zeroing, and training mode.
    """
    
    def __init__(self):
        """Initialize module."""
        self.training = True
    
    @abstractmethod
    def parameters(self) -> List[Scalar]:
        """
        Return list of all trainable parameters.
        
        Returns:
            List of Scalar parameters
        """
        pass
    
    def zero_grad(self) -> None:
        """Zero out gradients of all parameters."""
        for p in self.parameters():
            p.grad = 0.0
    
    def train(self) -> None:
        """Set module to training mode."""
        self.training = True
    
    def eval(self) -> None:
        """Set module to evaluation mode."""
        self.training = False
    
    def num_parameters(self) -> int:
        """Return total number of parameters."""
        return len(self.parameters())

import random
from typing import List, Optional, Union



class Neuron(Module):
    """
    Single neuron with weighted inputs and optional activation.
    
    Implements: output = activation(w·x + b)
    
    Attributes:
        w: Weight parameters
        b: Bias parameter
        activation: Activation function to apply
    """
    
    def __init__(
        self,
        nin: int,
        activation: str = 'relu',
        init_scale: float = 1.0
    ):
        """
        Initialize neuron.
        
        Args:
            nin: Number of input features
            activation: Activation function ('relu', 'tanh', 'sigmoid', 'linear')
            init_scale: Scale for weight initialization
        """
        super().__init__()
        self.w = [Scalar(random.uniform(-1, 1) * init_scale) for _ in range(nin)]
        self.b = Scalar(0)
        
        # Set activation function
        activations = {
            'relu': lambda x: x.relu(),
            'tanh': lambda x: x.tanh(),
            'sigmoid': lambda x: x.sigmoid(),
            'linear': lambda x: x
        }
        
        if activation not in activations:
            raise ValueError(f"Unknown activation: {activation}")
        
        self.activation_fn = activations[activation]
        self.activation = activation
    
    def __call__(self, x: List[Scalar]) -> Scalar:
        """
        Forward pass through neuron.
        
        Args:
            x: List of input Scalars
            
        Returns:
            Output Scalar
        """
        # Compute weighted sum: w·x + b
        activation = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        
        # Apply activation function
        return self.activation_fn(activation)
    
    def parameters(self) -> List[Scalar]:
        """Return neuron parameters."""
        return self.w + [self.b]
    
    def __repr__(self) -> str:
        """String representation."""
        return f"Neuron(in={len(self.w)}, activation={self.activation})"

import random
from typing import List, Optional, Union



class Layer(Module):
    """
    Layer of neurons with parallel computation.
    
    Attributes:
        neurons: List of Neuron objects
    """
    
    def __init__(
        self,
        nin: int,
        nout: int,
        activation: str = 'relu',
        init_scale: float = 1.0
    ):
        """
        Initialize layer.
        
        Args:
            nin: Number of input features
            nout: Number of output neurons
            activation: Activation function for neurons
            init_scale: Scale for weight initialization
        """
        super().__init__()
        self.neurons = [
            Neuron(nin, activation=activation, init_scale=init_scale)
            for _ in range(nout)
        ]
    
    def __call__(self, x: List[Scalar]) -> Union[Scalar, List[Scalar]]:
        """
        Forward pass through layer.
        
        Args:
            x: List of input Scalars
            
        Returns:
            Single Scalar if nout=1, else List of Scalars
        """
        outputs = [neuron(x) for neuron in self.neurons]
        return outputs[0] if len(outputs) == 1 else outputs
    
    def parameters(self) -> List[Scalar]:
        """Return all layer parameters."""
        return [p for neuron in self.neurons for p in neuron.parameters()]
    
    def __repr__(self) -> str:
        """String representation."""
        return f"Layer(neurons={len(self.neurons)}, {self.neurons[0]})"

import random
from typing import List, Optional, Union


class MLP(Module):
    """
    Multi-Layer Perceptron (feedforward neural network).
    
    Attributes:
        layers: List of Layer objects
    """
    
    def __init__(
        self,
        nin: int,
        layer_sizes: List[int],
        activations: Optional[List[str]] = None,
        init_scale: float = 1.0
    ):
        """
        Initialize MLP.
        
        Args:
            nin: Number of input features
            layer_sizes: List of layer output sizes
            activations: List of activation functions (default: ReLU for hidden, linear for output)
            init_scale: Scale for weight initialization
        """
        super().__init__()
        
        # Default activations: ReLU for hidden layers, linear for output
        if activations is None:
            activations = ['relu'] * (len(layer_sizes) - 1) + ['linear']
        
        assert len(activations) == len(layer_sizes), \
            "Number of activations must match number of layers"
        
        # Build layers
        sizes = [nin] + layer_sizes
        self.layers = [
            Layer(sizes[i], sizes[i + 1], activation=activations[i], init_scale=init_scale)
            for i in range(len(layer_sizes))
        ]
    
    def __call__(self, x: List[Scalar]) -> Union[Scalar, List[Scalar]]:
        """
        Forward pass through network.
        
        Args:
            x: List of input Scalars
            
        Returns:
            Network output
        """
        for layer in self.layers:
            x = layer(x)
        return x
    
    def parameters(self) -> List[Scalar]:
        """Return all network parameters."""
        return [p for layer in self.layers for p in layer.parameters()]
    
    def __repr__(self) -> str:
        """String representation."""
        return f"MLP(layers={len(self.layers)}, params={self.num_parameters()})"

"""
Base optimizer class.
"""

from abc import ABC, abstractmethod
from typing import List



class Optimizer(ABC):
    """Abstract base class for optimizers."""
    
    def __init__(self, parameters: List[Scalar]):
        """
        Initialize optimizer.
        
        Args:
            parameters: List of Scalar parameters to optimize
        """
        self.parameters = parameters
    
    @abstractmethod
    def step(self) -> None:
        """Perform one optimization step."""
        pass
    
    def zero_grad(self) -> None:
        """Zero out gradients of all parameters."""
        for p in self.parameters:
            p.grad = 0.0

"""
SGD Optimizer implementations for ScalarGrad.
"""

import math
from typing import List


class SGD(Optimizer):
    """Stochastic Gradient Descent optimizer."""
    
    def __init__(
        self,
        parameters: List[Scalar],
        lr: float = 0.01,
        momentum: float = 0.0
    ):
        """
        Initialize SGD optimizer.
        
        Args:
            parameters: Parameters to optimize
            lr: Learning rate
            momentum: Momentum coefficient
        """
        super().__init__(parameters)
        self.lr = lr
        self.momentum = momentum
        self.velocities = [0.0] * len(parameters)
    
    def step(self) -> None:
        """Update parameters using SGD with momentum."""
        for i, p in enumerate(self.parameters):
            self.velocities[i] = self.momentum * self.velocities[i] - self.lr * p.grad
            p.data += self.velocities[i]

"""
Adam Optimizer implementations for ScalarGrad.
"""

import math
from typing import List


class Adam(Optimizer):
    """Adam optimizer."""
    
    def __init__(
        self,
        parameters: List[Scalar],
        lr: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-8
    ):
        """
        Initialize Adam optimizer.
        
        Args:
            parameters: Parameters to optimize
            lr: Learning rate
            beta1: First moment decay rate
            beta2: Second moment decay rate
            eps: Numerical stability constant
        """
        super().__init__(parameters)
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.m = [0.0] * len(parameters)  # First moment
        self.v = [0.0] * len(parameters)  # Second moment
        self.t = 0  # Time step
    
    def step(self) -> None:
        """Update parameters using Adam."""
        self.t += 1
        
        for i, p in enumerate(self.parameters):
            # Update biased first moment estimate
            self.m[i] = self.beta1 * self.m[i] + (1 - self.beta1) * p.grad
            
            # Update biased second moment estimate
            self.v[i] = self.beta2 * self.v[i] + (1 - self.beta2) * (p.grad ** 2)
            
            # Compute bias-corrected moments
            m_hat = self.m[i] / (1 - self.beta1 ** self.t)
            v_hat = self.v[i] / (1 - self.beta2 ** self.t)
            
            # Update parameters
            p.data -= self.lr * m_hat / (math.sqrt(v_hat) + self.eps)

"""
Tests for core Scalar class and autograd functionality.
"""

import pytest


class TestScalarBasicOps:
    """Test basic scalar operations."""
    
    def test_addition(self):
        """Test addition operation."""
        a = Scalar(2.0)
        b = Scalar(3.0)
        c = a + b
        assert c.data == 5.0
    
    def test_multiplication(self):
        """Test multiplication operation."""
        a = Scalar(2.0)
        b = Scalar(3.0)
        c = a * b
        assert c.data == 6.0
    
    def test_power(self):
        """Test power operation."""
        a = Scalar(2.0)
        b = a ** 3
        assert b.data == 8.0
    
    def test_negation(self):
        """Test negation operation."""
        a = Scalar(5.0)
        b = -a
        assert b.data == -5.0
    
    def test_subtraction(self):
        """Test subtraction operation."""
        a = Scalar(5.0)
        b = Scalar(3.0)
        c = a - b
        assert c.data == 2.0
    
    def test_division(self):
        """Test division operation."""
        a = Scalar(6.0)
        b = Scalar(2.0)
        c = a / b
        assert c.data == 3.0


class TestScalarGradients:
    """Test gradient computation."""
    
    def test_simple_gradient(self):
        """Test gradient for simple operation."""
        a = Scalar(2.0)
        b = a * 3.0
        b.backward()
        assert a.grad == 3.0
    
    def test_chain_rule(self):
        """Test chain rule application."""
        a = Scalar(2.0)
        b = a ** 2
        c = b * 3.0
        c.backward()
        # dc/da = dc/db * db/da = 3 * 2*a = 3 * 4 = 12
        assert a.grad == 12.0
    
    def test_addition_gradient(self):
        """Test gradient for addition."""
        a = Scalar(2.0)
        b = Scalar(3.0)
        c = a + b
        c.backward()
        assert a.grad == 1.0
        assert b.grad == 1.0
    
    def test_complex_graph(self):
        """Test gradient for complex computation graph."""
        a = Scalar(-4.0)
        b = Scalar(2.0)
        c = a + b
        d = a * b + b ** 3
        e = c - d
        f = e ** 2
        f.backward()
        assert a.grad != 0  # Should have non-zero gradient


class TestScalarActivations:
    """Test activation functions."""
    
    def test_relu_positive(self):
        """Test ReLU with positive input."""
        a = Scalar(5.0)
        b = a.relu()
        assert b.data == 5.0
    
    def test_relu_negative(self):
        """Test ReLU with negative input."""
        a = Scalar(-5.0)
        b = a.relu()
        assert b.data == 0.0
    
    def test_tanh(self):
        """Test tanh activation."""
        a = Scalar(0.0)
        b = a.tanh()
        assert abs(b.data - 0.0) < 1e-6
    
    def test_sigmoid(self):
        """Test sigmoid activation."""
        a = Scalar(0.0)
        b = a.sigmoid()
        assert abs(b.data - 0.5) < 1e-6
    
    def test_exp(self):
        """Test exponential function."""
        a = Scalar(0.0)
        b = a.exp()
        assert abs(b.data - 1.0) < 1e-6
    
    def test_log(self):
        """Test logarithm function."""
        a = Scalar(1.0)
        b = a.log()
        assert abs(b.data - 0.0) < 1e-6


class TestScalarZeroGrad:
    """Test gradient zeroing."""
    
    def test_zero_grad(self):
        """Test gradient reset."""
        a = Scalar(2.0)
        b = a * 3.0
        b.backward()
        assert a.grad != 0
        a.zero_grad()
        assert a.grad == 0.0

TestScalarBasicOps().test_addition()
TestScalarBasicOps().test_multiplication()
TestScalarBasicOps().test_power()
TestScalarBasicOps().test_negation()
TestScalarBasicOps().test_subtraction()
TestScalarBasicOps().test_division()
TestScalarGradients().test_simple_gradient()
TestScalarGradients().test_chain_rule()
TestScalarGradients().test_addition_gradient()
TestScalarGradients().test_complex_graph()
TestScalarActivations().test_relu_positive()
TestScalarActivations().test_relu_negative()
TestScalarActivations().test_tanh()
TestScalarActivations().test_sigmoid()
TestScalarActivations().test_exp()
TestScalarActivations().test_log()
TestScalarZeroGrad().test_zero_grad()
