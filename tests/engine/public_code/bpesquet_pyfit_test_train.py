"""
Autograd engine implementing reverse-mode autodifferentiation, aka backpropagation.

Heavily inspired by https://github.com/karpathy/micrograd/blob/master/micrograd/engine.py
"""

# https://stackoverflow.com/questions/35701624/pylint-w0212-protected-access
# pylint: disable=protected-access

from typing import Union, Tuple, List, Set, Callable


class Scalar:
    """Stores a single scalar value and its gradient"""

    def __init__(
        self, data: float, children: Tuple["Scalar", ...] = (), op: str = ""
    ) -> None:
        self.data: float = data
        self.grad: float = 0

        # Internal variables used for autograd graph construction
        self._backward: Callable = lambda: None
        self._prev: Set[Scalar] = set(children)
        self._op = (
            op  # The operation that produced this node, for graphviz / debugging / etc
        )

    def __add__(self, other: Union["Scalar", float]) -> "Scalar":
        _other: Scalar = other if isinstance(other, Scalar) else Scalar(other)
        out: Scalar = Scalar(self.data + _other.data, (self, _other), "+")

        def _backward() -> None:
            self.grad += out.grad  # d(out)/d(self) = 1
            _other.grad += out.grad  # d(out)/d(other) = 1

        out._backward = _backward

        return out

    def __sub__(self, other: Union["Scalar", float]) -> "Scalar":
        _other: Scalar = other if isinstance(other, Scalar) else Scalar(other)
        out: Scalar = Scalar(self.data - _other.data, (self, _other), "-")

        def _backward() -> None:
            self.grad += out.grad  # d(out)/d(self) = 1
            _other.grad -= out.grad  # d(out)/d(other) = -1

        out._backward = _backward

        return out

    def __mul__(self, other: Union["Scalar", float]) -> "Scalar":
        _other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * _other.data, (self, _other), "*")

        def _backward() -> None:
            self.grad += out.grad * _other.data  # d(out)/d(self) = other
            _other.grad += out.grad * self.data  # d(out)/d(other) = self

        out._backward = _backward

        return out

    def __truediv__(self, other: Union["Scalar", float]) -> "Scalar":
        _other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data / _other.data, (self, _other), "/")

        def _backward() -> None:
            self.grad += out.grad / _other.data  # d(out)/d(self) = 1/other
            # d(out)/d(other) = -self/(other*other)
            _other.grad += out.grad * (-self.data / (_other.data * _other.data))

        out._backward = _backward

        return out

    def relu(self) -> "Scalar":
        """Compute ReLU"""

        out = Scalar(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward() -> None:
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward

        return out

    def backward(self) -> None:
        """Compute gradients through backpropagation"""

        # Topological order all of the children in the graph
        topo: Vector = []
        visited: Set[Scalar] = set()

        def build_topo(node: Scalar) -> None:
            if node not in visited:
                visited.add(node)
                for child in node._prev:
                    build_topo(child)
                topo.append(node)

        build_topo(self)

        # Go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1
        for node in reversed(topo):
            node._backward()

    def __radd__(self, other: Union["Scalar", float]) -> "Scalar":
        return self.__add__(other)

    def __rsub__(self, other: Union["Scalar", float]) -> "Scalar":
        _other = other if isinstance(other, Scalar) else Scalar(other)
        return _other.__sub__(self)

    def __rmul__(self, other: Union["Scalar", float]) -> "Scalar":
        return self.__mul__(other)

    def __rtruediv__(self, other: Union["Scalar", float]) -> "Scalar":
        _other = other if isinstance(other, Scalar) else Scalar(other)
        return _other.__truediv__(self)

    def __repr__(self) -> str:
        return f"Scalar(data={self.data}, grad={self.grad})"


Vector = List[Scalar]

"""
Data utilities

Heavily inspired by https://github.com/joelgrus/joelnet/blob/master/joelnet/data.py
"""

# pylint: disable=too-few-public-methods

import random
from typing import NamedTuple, Iterator, List

Batch = NamedTuple("Batch", [("inputs", List[Vector]), ("targets", Vector)])


class BatchIterator:
    """Iterates on data by batches"""

    def __init__(
        self,
        inputs: List[Vector],
        targets: Vector,
        batch_size: int = 32,
        shuffle: bool = True,
    ) -> None:
        self.inputs: List[Vector] = inputs
        self.targets: Vector = targets
        self.batch_size = batch_size
        self.shuffle = shuffle

    def __call__(self) -> Iterator[Batch]:
        starts = list(range(0, len(self.inputs), self.batch_size))
        if self.shuffle:
            random.shuffle(starts)

        for start in starts:
            end = start + self.batch_size
            batch_inputs = self.inputs[start:end]
            batch_targets = self.targets[start:end]
            yield Batch(batch_inputs, batch_targets)

"""
Metrics functions
"""



def mean_squared_error(y_true: Vector, y_pred: Vector) -> Scalar:
    """MSE loss"""

    total_squared_error: Scalar = sum(
        (
            (y_true_i - y_pred_i) * (y_true_i - y_pred_i)
            for (y_true_i, y_pred_i) in zip(y_true, y_pred)
        ),
        Scalar(0),
    )
    n_total: int = max(len(y_true), 1)
    return total_squared_error / n_total


def binary_accuracy(y_true: Vector, y_pred: Vector) -> float:
    """Binary accuracy"""

    n_exact: int = sum(
        (
            y_true_i.data == round(y_pred_i.data)
            for (y_true_i, y_pred_i) in zip(y_true, y_pred)
        )
    )
    n_total: int = max(len(y_true), 1)
    return n_exact / n_total

"""
Neural network providing a PyTorch-like API.

Heavily inspired by https://github.com/karpathy/micrograd/blob/master/micrograd/nn.py
"""

import random
from typing import List


class Module:
    """A differentiable computation"""

    def zero_grad(self) -> None:
        """Reset gradients for all parameters"""

        for p in self.parameters():
            p.grad = 0

    def parameters(self) -> Vector:
        """Return parameters"""

        raise NotImplementedError


class Neuron(Module):
    """A single neuron"""

    def __init__(self, in_features: int, nonlin: bool = True):
        self.w: Vector = [Scalar(random.uniform(-1, 1)) for _ in range(in_features)]
        self.b: Scalar = Scalar(0)
        self.nonlin = nonlin

    def __call__(self, x: Vector) -> Scalar:
        act: Scalar = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self) -> Vector:
        return self.w + [self.b]

    def __repr__(self) -> str:
        return f"{'ReLU' if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    """A layer of neurons"""

    def __init__(self, in_features: int, out_features: int, nonlin: bool = True):
        self.neurons = [Neuron(in_features, nonlin) for _ in range(out_features)]

    def __call__(self, x: Vector) -> Vector:
        return [n(x) for n in self.neurons]

    def parameters(self) -> Vector:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    """A Multi-Layer Perceptron, aka shallow neural network"""

    def __init__(self, input_features: int, layers: List[int]):
        sizes: List[int] = [input_features] + layers
        # Only last layer is linear
        self.layers = [
            Layer(sizes[i], sizes[i + 1], nonlin=i != len(layers) - 1)
            for i in range(len(layers))
        ]

    def __call__(self, x: Vector) -> Vector:
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self) -> Vector:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

"""
Optimization algorithms for gradient descent
"""



class Optimizer:
    """Base class for optimizers"""

    def __init__(self, parameters: Vector):
        self.parameters: Vector = parameters

    def zero_grad(self) -> None:
        """Reset gradients for all parameters"""

        for p in self.parameters:
            p.grad = 0

    def step(self) -> None:
        """Take a step of gradient descent"""

        raise NotImplementedError


class SGD(Optimizer):
    """Stochastic Gradient Descent optimizer"""

    def __init__(self, parameters: Vector, learning_rate: float = 0.01):
        super().__init__(parameters)
        self.learning_rate = learning_rate

    def step(self) -> None:
        """Update model parameters in the opposite direction of their gradient"""

        for p in self.parameters:
            p.data -= self.learning_rate * p.grad

"""
Training API
"""

# pylint: disable=too-few-public-methods

from typing import Callable, Dict, List

# Used to record training history for metrics
History = Dict[str, List[float]]


class Trainer:
    """Encapsulates the model training loop"""

    def __init__(self, model: Module, optimizer: Optimizer, loss: Callable):
        self.model = model
        self.optimizer = optimizer
        self.loss = loss

    def fit(
        self, data_iterator: BatchIterator, num_epochs: int = 500, verbose: bool = False
    ) -> History:
        """Fits the model to the data"""

        history: History = {"loss": [], "acc": []}
        epoch_loss: float = 0
        epoch_acc: float = 0
        epoch_y_true: List[Scalar] = []
        epoch_y_pred: List[Scalar] = []
        for epoch in range(num_epochs):
            # Reset the gradients of model parameters
            self.optimizer.zero_grad()
            # Reset epoch data
            epoch_loss = 0
            epoch_y_true = []
            epoch_y_pred = []

            for batch in data_iterator():
                # Forward pass
                # TODO fix mypy error when mapping model to inputs
                outputs = list(map(self.model, batch.inputs))  # type: ignore

                # Loss computation
                batch_y_pred: Vector = [item for sublist in outputs for item in sublist]
                batch_loss = self.loss(batch.targets, batch_y_pred)
                epoch_loss += batch_loss.data

                # Store batch predictions and ground truth for computing epoch metrics
                epoch_y_pred.extend(batch_y_pred)
                epoch_y_true.extend(batch.targets)

                # Backprop and gradient descent
                batch_loss.backward()
                self.optimizer.step()

            # Accuracy computation for epoch
            epoch_acc = binary_accuracy(epoch_y_true, epoch_y_pred)

            # Record training history
            history["loss"].append(epoch_loss)
            history["acc"].append(epoch_acc)

            if verbose:
                print(
                    f"Epoch [{epoch+1}/{num_epochs}], "
                    f"loss: {epoch_loss:.6f}, "
                    f"accuracy: {epoch_acc*100:.2f}%"
                )

        return history

"""
Unit tests for training API
"""

# pylint: disable=missing-docstring

from typing import List


def test_trainer() -> None:
    # dataset for AND logical function
    x_train: List[Vector] = [
        list(map(Scalar, x)) for x in [[0, 0], [0, 1], [1, 0], [1, 1]]
    ]
    y_train: Vector = [Scalar(0), Scalar(0), Scalar(0), Scalar(1)]

    model = MLP(2, [1])  # Logistic regression
    optimizer = SGD(model.parameters(), learning_rate=0.1)
    data_iterator = BatchIterator(x_train, y_train)

    num_epochs = 50
    trainer = Trainer(model, optimizer, loss=mean_squared_error)
    history: History = trainer.fit(data_iterator, num_epochs=num_epochs, verbose=False)

    # Training metrics are recorded for each epoch
    assert len(history["loss"]) == len(history["acc"]) == num_epochs

    # Access final values for metrics
    loss = history["loss"][-1]
    acc = history["acc"][-1]
    assert loss < 0.1
    assert acc == 1.0  # 100%

test_trainer()
