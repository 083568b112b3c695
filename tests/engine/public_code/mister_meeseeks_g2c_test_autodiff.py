"""Scalar autodiff engine — Module 01.

A `Value` is a node in a computation graph. Each forward operation between
Values returns a new Value that records its parents and a local gradient rule
in `_backward`. Calling `.backward()` on the root populates `.grad` on every
node in the graph via reverse-mode autodifferentiation.

Boilerplate (`__init__`, `__repr__`, the unary/right-hand-side convenience
operators) is implemented for you. The actual autodiff logic — the forward
math and the local gradient rule for each primitive operation, plus the
topological-sort `backward()` driver — is left to you to implement.

Search for `# TODO` to find the spots that need work.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Union
import math

Number = Union[int, float]


class Value:
    """A scalar value in the autodiff graph."""

    data: float
    grad: float
    _prev: set["Value"]
    _op: str
    _backward: Callable[[], None]

    def __init__(
        self,
        data: Number,
        _children: Iterable["Value"] = (),
        _op: str = "",
    ) -> None:
        self.data = float(data)
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None  # default no-op; overridden by ops below

    def __repr__(self) -> str:
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

    # ------------------------------------------------------------------
    # Core primitive operations — STUDENT IMPLEMENTS
    #
    # Each method should:
    #   1. If `other` is a Number, wrap it in a Value.
    #   2. Compute the forward value.
    #   3. Construct `out = Value(<forward_value>, (<parents>,), "<op_name>")`.
    #   4. Define a `_backward` closure that ACCUMULATES (`+=`) gradient
    #      contributions from `out.grad` into each parent's `.grad`.
    #   5. Assign `out._backward = _backward`.
    #   6. Return `out`.
    # ------------------------------------------------------------------

    def __add__(self, other: Union["Value", Number]) -> "Value":
        """Forward: self + other.

        Local rule:
            d(out)/d(self)  = 1
            d(out)/d(other) = 1
        """
        if not isinstance(other, Value):
            other = Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad * 1.0
            other.grad += out.grad * 1.0
        out._backward = _backward
        return out

    def __mul__(self, other: Union["Value", Number]) -> "Value":
        """Forward: self * other.

        Local rule:
            d(out)/d(self)  = other.data
            d(out)/d(other) = self.data
        """
        if not isinstance(other, Value):
            other = Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += out.grad * other.data
            other.grad += out.grad * self.data
        out._backward = _backward
        return out

    def __pow__(self, exponent: Number) -> "Value":
        """Forward: self ** exponent. `exponent` is a numeric constant.

        Local rule:
            d(out)/d(self) = exponent * self.data ** (exponent - 1)
        """
        out = Value(self.data ** exponent, (self,), f"**{exponent}")

        def _backward() -> None:
            self.grad += out.grad * exponent * self.data ** (exponent - 1)
        out._backward = _backward
        return out  

    def exp(self) -> "Value":
        """Forward: e ** self.

        Local rule:
            d(out)/d(self) = e ** self.data    (which equals out.data)
        """
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward() -> None:
            self.grad += out.grad * out.data
        out._backward = _backward
        return out

    def log(self) -> "Value":
        """Forward: ln(self). Requires self.data > 0.

        Local rule:
            d(out)/d(self) = 1 / self.data
        """
        out = Value(math.log(self.data), (self,), "log")

        def _backward() -> None:
            self.grad += out.grad * (1 / self.data)
        out._backward = _backward
        return out

    def tanh(self) -> "Value":
        """Forward: tanh(self).

        Local rule:
            d(out)/d(self) = 1 - tanh(self.data) ** 2     (= 1 - out.data ** 2)
        """
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward() -> None:
            self.grad += out.grad * (1 - t ** 2)
        out._backward = _backward
        return out

    def relu(self) -> "Value":
        """Forward: max(0, self).

        Local rule:
            d(out)/d(self) = 1 if self.data > 0 else 0
        """
        out = Value(self.data if self.data > 0 else 0, (self,), "ReLU")

        def _backward() -> None:
            self.grad += out.grad * (1.0 if self.data > 0 else 0.0)
        out._backward = _backward
        return out

    # ------------------------------------------------------------------
    # The reverse pass — STUDENT IMPLEMENTS
    # ------------------------------------------------------------------

    def backward(self) -> None:
        """Run reverse-mode autodiff from this Value.

        Steps:
          1. Build the topological order of the computation graph rooted at `self`
             (each node appears after all its parents).
          2. Set `self.grad = 1.0` (the seed: d(self) / d(self) = 1).
          3. Walk the topological order in REVERSE, calling each node's
             `_backward()` to accumulate gradients into its parents' `.grad`.
        """
        topo_nodes = self.topological_sort()
        topo_nodes.reverse()

        self.grad = 1.0
        for node in topo_nodes:
            node._backward()

    def topological_sort(self) -> list[Value]:
        topo_nodes: list[Value] = []
        for node in self._prev:
            next_nodes = node.topological_sort()
            for next_node in next_nodes:
                if next_node not in topo_nodes:
                    topo_nodes.append(next_node)
        topo_nodes.append(self)
        return topo_nodes

    # ------------------------------------------------------------------
    # Convenience operators — already implemented in terms of the primitives.
    # No student work needed here; once the primitives above are implemented,
    # these auto-work.
    # ------------------------------------------------------------------

    def __neg__(self) -> "Value":
        return self * -1

    def __sub__(self, other: Union["Value", Number]) -> "Value":
        return self + (-other)

    def __truediv__(self, other: Union["Value", Number]) -> "Value":
        return self * (other ** -1)

    def __radd__(self, other: Number) -> "Value":
        return self + other

    def __rsub__(self, other: Number) -> "Value":
        return (-self) + other

    def __rmul__(self, other: Number) -> "Value":
        return self * other

    def __rtruediv__(self, other: Number) -> "Value":
        return (self ** -1) * other

"""Numerical gradient checking — the canonical sanity check for autodiff.

The idea: estimate df/dx by finite differences and compare against the
analytic gradient produced by `Value.backward()`. They should agree to
several digits for any correct autodiff engine.
"""

from collections.abc import Callable



def numerical_grad(f: Callable[[Value], Value], x: Value, h: float = 1e-5) -> float:
    """Estimate df/dx at `x` via central finite differences.

    Args:
        f: A single-argument function from Value to Value (the expression
           whose gradient at `x` we want to estimate).
        x: The Value at which to evaluate the gradient. Only `x.data` is used.
        h: Step size. 1e-5 is a reasonable default — small enough to be
           accurate, large enough to avoid float precision blowup.

    Returns:
        The estimated derivative df/dx at x.data, as a Python float.

    Implementation hint:
        plus  = f(Value(x.data + h)).data
        minus = f(Value(x.data - h)).data
        return (plus - minus) / (2 * h)
    """
    plus = f(Value(x.data + h)).data
    minus = f(Value(x.data - h)).data
    return (plus - minus) / (2 * h)

"""Tiny neural-network helpers built on scalar ``Value`` objects.

Module 01's core deliverable is the autodiff engine itself. These helpers are
small enough to understand directly, but they are real editor-backed code
rather than notebook-local functions. The notebook uses them to build the XOR
exercise once the scalar operations and ``backward`` are working.
"""

import random
from collections.abc import Sequence


XOR_DATA: tuple[tuple[tuple[float, float], float], ...] = (
    ((0.0, 0.0), -1.0),
    ((0.0, 1.0), 1.0),
    ((1.0, 0.0), 1.0),
    ((1.0, 1.0), -1.0),
)


def single_neuron_forward(
    x1: float,
    x2: float,
    w1: Value,
    w2: Value,
    b: Value,
) -> Value:
    """Return ``tanh(w1*x1 + w2*x2 + b)`` using only ``Value`` operations."""
    # TODO
    raise NotImplementedError


class ScalarNeuron:
    """One tanh neuron backed by scalar ``Value`` parameters."""

    def __init__(self, n_inputs: int, *, rng: random.Random) -> None:
        if n_inputs <= 0:
            raise ValueError("n_inputs must be positive")
        self.w = [Value(rng.uniform(-1.0, 1.0)) for _ in range(n_inputs)]
        self.b = Value(rng.uniform(-1.0, 1.0))

    def __call__(self, x: Sequence[float | Value]) -> Value:
        """Return ``tanh(w dot x + b)``."""
        # TODO
        raise NotImplementedError

    def parameters(self) -> list[Value]:
        return self.w + [self.b]


class ScalarMLP:
    """A fixed 2-2-1 MLP for the XOR exercise."""

    def __init__(self, *, rng: random.Random) -> None:
        self.hidden = [ScalarNeuron(2, rng=rng), ScalarNeuron(2, rng=rng)]
        self.out = ScalarNeuron(2, rng=rng)

    def __call__(self, x: tuple[float, float]) -> Value:
        """Run the 2-2-1 MLP on one XOR input."""
        # TODO
        raise NotImplementedError

    def parameters(self) -> list[Value]:
        params: list[Value] = []
        for neuron in self.hidden:
            params.extend(neuron.parameters())
        params.extend(self.out.parameters())
        return params


def zero_grad(params: Sequence[Value]) -> None:
    """Reset gradients on scalar parameters in place."""
    for param in params:
        param.grad = 0.0


def xor_loss(
    model: ScalarMLP,
    data: Sequence[tuple[tuple[float, float], float]] = XOR_DATA,
) -> Value:
    """Return average squared error across the XOR truth table."""
    # TODO
    raise NotImplementedError


def train_xor_step(model: ScalarMLP, lr: float) -> float:
    """Run one full-batch gradient-descent step and return pre-update loss."""
    # TODO
    raise NotImplementedError

"""Tests for Module 01: scalar autodiff.

These tests pin down the contract of `g2c.autodiff.Value` and `numerical_grad`.
Run with `pytest`. As you implement each primitive in `g2c/autodiff/value.py`,
the corresponding tests will start to pass.

Suggested order to implement & turn green:
  1. __add__  → test_add_*, test_radd*
  2. __mul__  → test_mul_*, test_rmul*, test_neg, test_sub_*, test_rsub
  3. __pow__  → test_pow_*, test_truediv_*, test_rtruediv
  4. exp      → test_exp_*
  5. log      → test_log_*
  6. tanh     → test_tanh_*
  7. relu     → test_relu_*
  8. backward → all backward / composition / accumulation tests
  9. numerical_grad → test_numerical_grad_*
"""

import math
import random

import pytest


# ----------------------------------------------------------------------
# Construction
# ----------------------------------------------------------------------

def test_value_construction():
    v = Value(3.14)
    assert v.data == pytest.approx(3.14)
    assert v.grad == 0.0


def test_value_repr_runs():
    repr(Value(1.0))  # should not raise


def test_scalar_neuron_construction_parameters():
    neuron = ScalarNeuron(3, rng=random.Random(0))
    params = neuron.parameters()
    assert len(params) == 4
    assert all(isinstance(param, Value) for param in params)


def test_scalar_neuron_rejects_nonpositive_inputs():
    with pytest.raises(ValueError):
        ScalarNeuron(0, rng=random.Random(0))


def test_scalar_mlp_construction_parameters():
    model = ScalarMLP(rng=random.Random(0))
    assert len(model.parameters()) == 9


def test_zero_grad_resets_scalar_parameters():
    params = [Value(1.0), Value(2.0)]
    params[0].grad = 0.5
    params[1].grad = -1.5
    zero_grad(params)
    assert [param.grad for param in params] == [0.0, 0.0]


# ----------------------------------------------------------------------
# Forward — primitive operations
# ----------------------------------------------------------------------

def test_add_forward():
    assert (Value(2.0) + Value(3.0)).data == pytest.approx(5.0)


def test_add_with_constant():
    assert (Value(2.0) + 3).data == pytest.approx(5.0)


def test_radd():
    assert (3 + Value(2.0)).data == pytest.approx(5.0)


def test_mul_forward():
    assert (Value(2.0) * Value(3.0)).data == pytest.approx(6.0)


def test_mul_with_constant():
    assert (Value(2.0) * 3).data == pytest.approx(6.0)


def test_rmul():
    assert (3 * Value(2.0)).data == pytest.approx(6.0)


def test_neg():
    assert (-Value(3.0)).data == pytest.approx(-3.0)


def test_sub_forward():
    assert (Value(5.0) - Value(2.0)).data == pytest.approx(3.0)


def test_sub_with_constant():
    assert (Value(5.0) - 2).data == pytest.approx(3.0)


def test_rsub():
    assert (10 - Value(3.0)).data == pytest.approx(7.0)


def test_pow_forward():
    assert (Value(2.0) ** 3).data == pytest.approx(8.0)


def test_pow_negative_exponent():
    assert (Value(2.0) ** -1).data == pytest.approx(0.5)


def test_truediv_forward():
    assert (Value(6.0) / Value(2.0)).data == pytest.approx(3.0)


def test_truediv_with_constant():
    assert (Value(6.0) / 2).data == pytest.approx(3.0)


def test_rtruediv():
    assert (10 / Value(2.0)).data == pytest.approx(5.0)


def test_exp_forward():
    assert Value(0.0).exp().data == pytest.approx(1.0)
    assert Value(1.0).exp().data == pytest.approx(math.e)


def test_log_forward():
    assert Value(1.0).log().data == pytest.approx(0.0)
    assert Value(math.e).log().data == pytest.approx(1.0)


def test_tanh_forward():
    assert Value(0.0).tanh().data == pytest.approx(0.0)
    assert Value(1.0).tanh().data == pytest.approx(math.tanh(1.0))


def test_relu_forward_positive():
    assert Value(2.5).relu().data == pytest.approx(2.5)


def test_relu_forward_negative():
    assert Value(-1.5).relu().data == pytest.approx(0.0)


def test_relu_forward_zero():
    assert Value(0.0).relu().data == pytest.approx(0.0)


# ----------------------------------------------------------------------
# Backward — primitive operations (one parent or two)
# ----------------------------------------------------------------------

def test_add_backward():
    a, b = Value(2.0), Value(3.0)
    c = a + b
    c.backward()
    assert a.grad == pytest.approx(1.0)
    assert b.grad == pytest.approx(1.0)


def test_mul_backward():
    a, b = Value(2.0), Value(3.0)
    c = a * b
    c.backward()
    assert a.grad == pytest.approx(3.0)  # b.data
    assert b.grad == pytest.approx(2.0)  # a.data


def test_pow_backward():
    a = Value(3.0)
    c = a ** 2
    c.backward()
    assert a.grad == pytest.approx(6.0)  # 2 * 3^1


def test_pow_backward_higher():
    a = Value(2.0)
    c = a ** 4
    c.backward()
    assert a.grad == pytest.approx(32.0)  # 4 * 2^3


def test_exp_backward():
    a = Value(1.0)
    c = a.exp()
    c.backward()
    assert a.grad == pytest.approx(math.e)


def test_log_backward():
    a = Value(2.0)
    c = a.log()
    c.backward()
    assert a.grad == pytest.approx(0.5)  # 1 / 2


def test_tanh_backward():
    a = Value(0.5)
    c = a.tanh()
    c.backward()
    expected = 1 - math.tanh(0.5) ** 2
    assert a.grad == pytest.approx(expected)


def test_relu_backward_positive():
    a = Value(2.0)
    c = a.relu()
    c.backward()
    assert a.grad == pytest.approx(1.0)


def test_relu_backward_negative():
    a = Value(-2.0)
    c = a.relu()
    c.backward()
    assert a.grad == pytest.approx(0.0)


def test_neg_backward():
    a = Value(3.0)
    c = -a
    c.backward()
    assert a.grad == pytest.approx(-1.0)


def test_sub_backward():
    a, b = Value(5.0), Value(2.0)
    c = a - b
    c.backward()
    assert a.grad == pytest.approx(1.0)
    assert b.grad == pytest.approx(-1.0)


def test_truediv_backward():
    a, b = Value(6.0), Value(2.0)
    c = a / b
    c.backward()
    # d(a/b)/da = 1/b = 0.5
    # d(a/b)/db = -a/b^2 = -6/4 = -1.5
    assert a.grad == pytest.approx(0.5)
    assert b.grad == pytest.approx(-1.5)


# ----------------------------------------------------------------------
# Composition — multi-op expressions
# ----------------------------------------------------------------------

def test_compose_mul_add():
    a, b = Value(2.0), Value(3.0)
    c = a * b + a  # value = 8; dc/da = b + 1 = 4; dc/db = a = 2
    c.backward()
    assert c.data == pytest.approx(8.0)
    assert a.grad == pytest.approx(4.0)
    assert b.grad == pytest.approx(2.0)


def test_long_chain():
    a, b, c = Value(1.0), Value(2.0), Value(0.5)
    f = (a * b + b ** 2) * c.tanh()
    f.backward()

    th = math.tanh(0.5)
    sech2 = 1 - th ** 2

    assert f.data == pytest.approx(6 * th)              # (1*2 + 4) * tanh(0.5)
    assert a.grad == pytest.approx(2 * th)              # b * tanh(c)
    assert b.grad == pytest.approx(5 * th)              # (a + 2b) * tanh(c)
    assert c.grad == pytest.approx(6 * sech2)           # (ab + b^2) * sech^2(c)


# ----------------------------------------------------------------------
# Gradient accumulation — Module 01 Exercise 5 ("topology stress test")
# ----------------------------------------------------------------------

def test_shared_node_simple():
    """f = a * a + a; df/da = 2a + 1. If gradient is not accumulated, this fails."""
    a = Value(3.0)
    f = a * a + a
    f.backward()
    assert a.grad == pytest.approx(7.0)


def test_shared_node_cube():
    """c = a^3 via repeated multiplication; dc/da = 3a^2."""
    a = Value(2.0)
    c = a * a * a
    c.backward()
    assert a.grad == pytest.approx(12.0)


def test_shared_node_diamond():
    """Diamond graph: f = (a+b) * (a-b); df/da = 2a, df/db = -2b."""
    a, b = Value(3.0), Value(2.0)
    f = (a + b) * (a - b)
    f.backward()
    assert f.data == pytest.approx(5.0)  # 9 - 4
    assert a.grad == pytest.approx(6.0)
    assert b.grad == pytest.approx(-4.0)


# ----------------------------------------------------------------------
# Numerical gradient checking — Module 01 Exercise 2
# ----------------------------------------------------------------------

def test_numerical_grad_quadratic():
    g = numerical_grad(lambda x: x ** 2, Value(3.0))
    assert g == pytest.approx(6.0, rel=1e-3)


def test_numerical_grad_cubic():
    g = numerical_grad(lambda x: x ** 3, Value(2.0))
    assert g == pytest.approx(12.0, rel=1e-3)


def test_numerical_grad_matches_analytic_simple():
    f = lambda x: x ** 3 + 2 * x  # noqa: E731

    x = Value(1.5)
    f(x).backward()
    analytic = x.grad

    numeric = numerical_grad(f, Value(1.5))
    assert analytic == pytest.approx(numeric, rel=1e-3)


def test_numerical_grad_matches_analytic_compound():
    f = lambda x: (x ** 3 + 2 * x).tanh()  # noqa: E731

    x = Value(0.7)
    f(x).backward()
    analytic = x.grad

    numeric = numerical_grad(f, Value(0.7))
    assert analytic == pytest.approx(numeric, rel=1e-3)


# ----------------------------------------------------------------------
# Module 01 notebook helpers — editor-backed scalar XOR pieces
# ----------------------------------------------------------------------

def test_single_neuron_forward_matches_formula():
    w1 = Value(0.2)
    w2 = Value(-0.3)
    b = Value(0.1)
    out = single_neuron_forward(0.75, 0.25, w1, w2, b)
    expected = math.tanh(0.2 * 0.75 - 0.3 * 0.25 + 0.1)
    assert out.data == pytest.approx(expected)


def test_scalar_neuron_forward_known_weights():
    neuron = ScalarNeuron(2, rng=random.Random(0))
    neuron.w[0].data = 0.5
    neuron.w[1].data = -0.25
    neuron.b.data = 0.1
    out = neuron((2.0, 4.0))
    assert out.data == pytest.approx(math.tanh(0.5 * 2.0 - 0.25 * 4.0 + 0.1))


def test_scalar_neuron_rejects_wrong_input_width():
    neuron = ScalarNeuron(2, rng=random.Random(0))
    with pytest.raises(ValueError):
        neuron((1.0,))


def test_scalar_mlp_forward_returns_value():
    model = ScalarMLP(rng=random.Random(0))
    assert isinstance(model((0.0, 1.0)), Value)


def test_xor_loss_returns_scalar_value():
    model = ScalarMLP(rng=random.Random(0))
    loss = xor_loss(model)
    assert isinstance(loss, Value)
    assert loss.data >= 0.0


def test_train_xor_step_reduces_loss_over_many_steps():
    model = ScalarMLP(rng=random.Random(0))
    start = xor_loss(model).data
    for _ in range(300):
        train_xor_step(model, lr=0.05)
    end = xor_loss(model).data
    assert end < start

test_value_construction()
test_value_repr_runs()
test_scalar_neuron_construction_parameters()
test_scalar_neuron_rejects_nonpositive_inputs()
test_scalar_mlp_construction_parameters()
test_zero_grad_resets_scalar_parameters()
test_add_forward()
test_add_with_constant()
test_radd()
test_mul_forward()
test_mul_with_constant()
test_rmul()
test_neg()
test_sub_forward()
test_sub_with_constant()
test_rsub()
test_pow_forward()
test_pow_negative_exponent()
test_truediv_forward()
test_truediv_with_constant()
test_rtruediv()
test_exp_forward()
test_log_forward()
test_tanh_forward()
test_relu_forward_positive()
test_relu_forward_negative()
test_relu_forward_zero()
test_add_backward()
test_mul_backward()
test_pow_backward()
test_pow_backward_higher()
test_exp_backward()
test_log_backward()
test_tanh_backward()
test_relu_backward_positive()
test_relu_backward_negative()
test_neg_backward()
test_sub_backward()
test_truediv_backward()
test_compose_mul_add()
test_long_chain()
test_shared_node_simple()
test_shared_node_cube()
test_shared_node_diamond()
test_numerical_grad_quadratic()
test_numerical_grad_cubic()
test_numerical_grad_matches_analytic_simple()
test_numerical_grad_matches_analytic_compound()
