"""
micrograd/engine.py
--------------------
Day 6 — Neuron / Layer / MLP: a real tiny neural network.

Philosophy
----------
Every number in this autograd engine is a `Value`.
Raw floats and ints are "dead" — they carry no history, no identity, no
future.  A `Value` gives a number a name, a type guarantee, and a
place to grow as we add math, gradients, and backprop in later days.

What's new in Day 6:
    - `Neuron`  — single unit: activation(w·x + b), random init,
                  supports tanh / relu / sigmoid / linear activations.
    - `Layer`   — n_out Neurons reading the same input vector.
    - `MLP`     — a stack of Layers; a full Multi-Layer Perceptron.
    - Every class exposes `.parameters()` (flat list of Value weights)
      and `.__call__()` (forward pass accepting list[Value|float]).

What was added in Day 5:
    - `.exp()`     — eˣ,        backward: out.grad * out.data
    - `.log()`     — natural log, backward: out.grad / self.data
    - `.tanh()`    — hyperbolic tangent (fused), backward: out.grad*(1-t²)
    - `.relu()`    — max(0, x), backward: out.grad if x > 0 else 0
    - `.sigmoid()` — 1/(1+e⁻ˣ) (fused), backward: out.grad*s*(1-s)

What was added previously:
    Day 4:
    - `.backward()` — seeds self.grad = 1.0, performs a topological
      sort of the entire computation graph, then calls every node's
      `._backward()` closure in *reverse* topological order so that by
      the time a node's `._backward()` fires, its own `.grad` has
      already been fully accumulated from all its consumers.

What was added previously:
    Day 3:
    - `.grad` attribute — accumulated gradient ∂L/∂self, starts at 0.0.
    - `._backward` callable — a zero-arg closure attached to every
      operation node.  When called it propagates *this node's* gradient
      one step backwards to its immediate parents using the local
      chain-rule formula for that specific operation.
    - `zero_grad()` — resets .grad to 0.0 on this node and every
      ancestor.  Like PyTorch's optimizer.zero_grad().

Note on accumulation (+=, not =)
---------------------------------
Gradients are *summed*, not replaced, because the same Value node can
appear multiple times in an expression (e.g. x*x).  Each path through
the graph contributes its own partial derivative and they must all be
added together (multivariate chain rule).

Topological order
-----------------
A computation graph is a DAG (directed acyclic graph): edges point
from parent (input) to child (output).  Backprop must visit nodes in
reverse — outputs before inputs — so that when we call a node's
._backward(), the downstream gradients that feed into it are already
fully computed.  A DFS post-order traversal produces exactly this
ordering (children before their dependants), and reversing it gives us
the correct backprop order.
"""

from __future__ import annotations

import math
import random
from typing import Union


# Supported scalar types that can be wrapped inside a Value.
_SCALAR = Union[int, float]


class Value:
    """
    A scalar value node in a computational graph.

    Attributes
    ----------
    data : float
        The actual numeric scalar this node wraps.
    label : str
        An optional human-readable name — extremely helpful when
        visualising the computation graph later.
    _op : str
        The operation that *produced* this node (e.g. '+', '*').
        Empty string for leaf nodes created directly by the user.
    _prev : frozenset[Value]
        The parent Value nodes that were inputs to the operation.
        Empty for leaf nodes.

    grad : float
        Accumulated gradient ∂L/∂self.  Starts at 0.0 and is filled in
        by calling `._backward()` on descendant nodes (or `backward()`
        on the root, which is Day 4's job).
    _backward : Callable[[], None]
        Zero-argument closure that propagates *this* node's `.grad` one
        step backwards to its immediate parents.  Leaf nodes use a no-op
        lambda.  Set automatically by arithmetic operators.

    Notes
    -----
    Day 1 scope  — wrapping + identity.
    Day 2 scope  — arithmetic operators + computation graph skeleton.
    Day 3 scope  — .grad attribute + local ._backward closures + zero_grad().
    Day 4 scope  — .backward() full reverse-mode autodiff.
    Day 5 scope  — activation functions: exp, log, tanh, relu, sigmoid.
    Day 6 scope  — Neuron / Layer / MLP.
    """

    # ------------------------------------------------------------------
    # Construction
    # ------------------------------------------------------------------

    def __init__(
        self,
        data: _SCALAR,
        label: str = "",
        _op: str = "",
        _prev: tuple["Value", ...] = (),
    ) -> None:
        """
        Wrap a scalar number inside a Value node.

        Parameters
        ----------
        data : int | float
            The numeric value to store.  Automatically promoted to float
            so every Value is consistently typed.
        label : str, optional
            A human-readable name for this node (e.g. "x", "weight",
            "loss").  Defaults to an empty string.
        _op : str, optional
            The operation that produced this node.  Set automatically by
            arithmetic operators — users should not pass this directly.
        _prev : tuple[Value, ...], optional
            Parent nodes that were inputs to this operation.  Set
            automatically — users should not pass this directly.

        Raises
        ------
        TypeError
            If `data` is not an int or float.

        Examples
        --------
        >>> v = Value(2.0)
        >>> v.data
        2.0

        >>> v = Value(3, label="x")
        >>> v.label
        'x'
        """
        if not isinstance(data, (int, float)):
            raise TypeError(
                f"Value.data must be a scalar number (int or float), "
                f"got {type(data).__name__!r} instead."
            )

        # Always store as float — keeps arithmetic consistent later.
        self.data: float = float(data)

        # A friendly name — invaluable when we draw computation graphs.
        self.label: str = label

        # Computation-graph metadata (populated by arithmetic operators).
        self._op: str = _op                          # e.g. '+', '*', '**'
        self._prev: frozenset["Value"] = frozenset(_prev)  # parent nodes

        # ── Day 3 additions ──────────────────────────────────────────────
        # Accumulated gradient ∂L/∂self.  Starts at zero; backprop fills it.
        self.grad: float = 0.0

        # Local chain-rule step — propagates *this* node's .grad one hop
        # backwards to its parents.  Leaf nodes use the no-op lambda.
        # Arithmetic operators overwrite this with their own closure.
        self._backward = lambda: None

    # ------------------------------------------------------------------
    # Identity & display
    # ------------------------------------------------------------------

    def __repr__(self) -> str:
        """Concise representation — shows label when available."""
        if self.label:
            return f"Value(data={self.data}, label={self.label!r})"
        return f"Value(data={self.data})"

    def __str__(self) -> str:
        """Human-friendly string — what you'd print in a notebook."""
        name = f"'{self.label}' " if self.label else ""
        return f"Value {name}= {self.data}"

    # ------------------------------------------------------------------
    # Numeric identity helpers
    # ------------------------------------------------------------------

    def __float__(self) -> float:
        """Allow float(Value(...)) to unwrap the scalar."""
        return self.data

    def __int__(self) -> int:
        """Allow int(Value(...)) to unwrap the scalar."""
        return int(self.data)

    def __abs__(self) -> "Value":
        """Return a new Value with the absolute value."""
        return Value(abs(self.data), label=f"|{self.label}|" if self.label else "")

    def __neg__(self) -> "Value":
        """Unary negation — returns -self as a proper graph node.

        Chain rule: d(-a)/da = -1
        """
        out = Value(-self.data, _op="neg", _prev=(self,),
                    label=f"-{self.label}" if self.label else "")

        def _backward() -> None:
            self.grad += out.grad * -1.0

        out._backward = _backward
        return out

    def __pos__(self) -> "Value":
        """Unary positive — returns a copy."""
        return Value(self.data, label=self.label)

    # ------------------------------------------------------------------
    # Comparison operators (so we can sort / compare Values naturally)
    # ------------------------------------------------------------------

    # __hash__ must be defined explicitly because we defined __eq__.
    # Python nullifies __hash__ when __eq__ is overridden.
    # We use identity-based hashing (default object id) so that Value
    # nodes can be stored in sets / frozensets (used by _prev), while
    # __eq__ still compares .data values for user convenience.
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Value):
            return self.data == other.data
        if isinstance(other, (int, float)):
            return self.data == float(other)
        return NotImplemented

    def __lt__(self, other: "Value | float") -> bool:
        other_val = other.data if isinstance(other, Value) else float(other)
        return self.data < other_val

    def __le__(self, other: "Value | float") -> bool:
        other_val = other.data if isinstance(other, Value) else float(other)
        return self.data <= other_val

    def __gt__(self, other: "Value | float") -> bool:
        other_val = other.data if isinstance(other, Value) else float(other)
        return self.data > other_val

    def __ge__(self, other: "Value | float") -> bool:
        other_val = other.data if isinstance(other, Value) else float(other)
        return self.data >= other_val

    # ------------------------------------------------------------------
    # Utility / introspection helpers
    # ------------------------------------------------------------------

    def item(self) -> float:
        """
        Return the Python float inside this Value.

        Mirrors PyTorch's `.item()` — so later code feels familiar.
        """
        return self.data

    def is_finite(self) -> bool:
        """Return True if data is a finite number (not inf or nan)."""
        return math.isfinite(self.data)

    def is_nan(self) -> bool:
        """Return True if data is NaN."""
        return math.isnan(self.data)

    def named(self, label: str) -> "Value":
        """
        Return a *new* Value with the given label — fluent builder style.

        Lets you do: ``x = Value(3.14).named("pi")`` in one line.
        """
        return Value(self.data, label=label)

    # ------------------------------------------------------------------
    # Arithmetic operators  (Day 2)
    # ------------------------------------------------------------------
    # Design rules:
    #   1. Always return a *new* Value — Values are immutable nodes.
    #   2. Record _op and _prev on every result so the graph is complete.
    #   3. Accept plain int/float on either side via __radd__/__rmul__ etc.
    #      (Python calls the reflected dunder when the left operand can't
    #       handle the operation, e.g.  3.0 + Value(2.0).)

    def _coerce(self, other: object) -> "Value":
        """Wrap a raw scalar in a Value so arithmetic is uniform."""
        if isinstance(other, Value):
            return other
        if isinstance(other, (int, float)):
            return Value(float(other))
        return NotImplemented  # type: ignore[return-value]

    # ── Addition ──────────────────────────────────────────────────

    def __add__(self, other: object) -> "Value":
        """self + other"""
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        out = Value(self.data + other.data, _op="+", _prev=(self, other))

        # Chain rule: d(a+b)/da = 1,  d(a+b)/db = 1
        # We capture `self` and `other` by closing over them.
        def _backward() -> None:
            self.grad  += out.grad * 1.0
            other.grad += out.grad * 1.0

        out._backward = _backward
        return out

    def __radd__(self, other: object) -> "Value":
        """other + self  (called when `other` is a plain number)"""
        return self.__add__(other)

    # ── Subtraction ───────────────────────────────────────────────

    def __sub__(self, other: object) -> "Value":
        """self - other  (implemented as self + (-other))"""
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        return self + (-other)

    def __rsub__(self, other: object) -> "Value":
        """other - self"""
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        return other + (-self)

    # ── Multiplication ────────────────────────────────────────────

    def __mul__(self, other: object) -> "Value":
        """self * other"""
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        out = Value(self.data * other.data, _op="*", _prev=(self, other))

        # Chain rule: d(a*b)/da = b,  d(a*b)/db = a
        def _backward() -> None:
            self.grad  += out.grad * other.data
            other.grad += out.grad * self.data

        out._backward = _backward
        return out

    def __rmul__(self, other: object) -> "Value":
        """other * self  (called when `other` is a plain number)"""
        return self.__mul__(other)

    # ── Division ──────────────────────────────────────────────────

    def __truediv__(self, other: object) -> "Value":
        """self / other  (implemented as self * other**-1)"""
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        return self * other ** -1

    def __rtruediv__(self, other: object) -> "Value":
        """other / self"""
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        return other * self ** -1

    # ── Power ─────────────────────────────────────────────────────

    def __pow__(self, exponent: _SCALAR) -> "Value":
        """
        self ** exponent

        Only supports scalar (int / float) exponents — Value exponents
        would need separate treatment during backprop and are not needed
        for a standard MLP.
        """
        if not isinstance(exponent, (int, float)):
            raise TypeError(
                f"Exponent must be int or float, got {type(exponent).__name__!r}."
            )
        out = Value(self.data ** exponent, _op=f"**{exponent}", _prev=(self,))

        # Chain rule: d(a**n)/da = n * a**(n-1)
        def _backward() -> None:
            self.grad += out.grad * exponent * (self.data ** (exponent - 1))

        out._backward = _backward
        return out

    # ------------------------------------------------------------------
    # Gradient utilities  (Day 3 & 4)
    # ------------------------------------------------------------------

    def _topo_sort(self) -> list["Value"]:
        """
        Return all nodes reachable from `self` in topological order.

        The list is ordered so that every node appears *after* all of
        its parents (i.e. DFS post-order over the ``_prev`` edges).  To
        get the correct backprop order, reverse this list.

        Shared by `zero_grad()` and `backward()` so the traversal logic
        lives in exactly one place.
        """
        visited: set["Value"] = set()
        topo: list["Value"] = []

        def _build(node: "Value") -> None:
            if node not in visited:
                visited.add(node)
                for parent in node._prev:
                    _build(parent)
                topo.append(node)

        _build(self)
        return topo

    def zero_grad(self) -> None:
        """
        Reset `.grad` to 0.0 on this node and every ancestor in the graph.

        Walks the full computation graph (topological order, ancestors
        first) so every parameter's gradient is cleared before a new
        forward + backward pass.

        Mirrors PyTorch's ``optimizer.zero_grad()``.

        Examples
        --------
        >>> w = Value(0.5, label="w")
        >>> x = Value(2.0, label="x")
        >>> out = w * x
        >>> out.grad = 1.0
        >>> out._backward()
        >>> w.grad
        2.0
        >>> out.zero_grad()  # reset the whole graph
        >>> w.grad
        0.0
        """
        for node in self._topo_sort():
            node.grad = 0.0

    def backward(self) -> None:
        """
        Run full reverse-mode automatic differentiation from this node.

        After this call every ancestor's ``.grad`` holds the partial
        derivative of *this* output w.r.t. that ancestor, i.e.:

            node.grad  ==  ∂(self) / ∂(node)

        Algorithm
        ---------
        1. Build the full computation graph in topological order using
           :meth:`_topo_sort`.
        2. Seed ``self.grad = 1.0``  — the gradient of the output
           w.r.t. itself is always 1.
        3. Walk the nodes in *reverse* topological order (outputs
           before inputs) and call each node's ``._backward()``
           closure.  Because a node's ``.grad`` is fully accumulated
           by all of its consumers before its own ``._backward()``
           fires, the chain rule is applied correctly.

        Notes
        -----
        - Gradients are **accumulated** (``+=``), not overwritten.  If
          you call ``backward()`` twice you will double the gradients.
          Call :meth:`zero_grad` first to reset.
        - This method seeds ``self.grad = 1.0`` unconditionally; any
          value you set before calling ``backward()`` is overwritten.

        Examples
        --------
        >>> a = Value(2.0, label="a")
        >>> b = Value(3.0, label="b")
        >>> c = a * b           # c.data == 6.0
        >>> c.backward()
        >>> a.grad              # ∂c/∂a = b = 3.0
        3.0
        >>> b.grad              # ∂c/∂b = a = 2.0
        2.0

        >>> x = Value(3.0)
        >>> y = x * x           # y = x²
        >>> y.backward()
        >>> x.grad              # dy/dx = 2x = 6.0
        6.0
        """
        topo = self._topo_sort()

        # Seed: ∂self/∂self = 1
        self.grad = 1.0

        # Walk in reverse topological order — outputs before inputs.
        for node in reversed(topo):
            node._backward()

    # ------------------------------------------------------------------
    # Activation functions  (Day 5)
    # ------------------------------------------------------------------
    # Design rules (same as arithmetic operators):
    #   1. Always return a new Value — Values are immutable nodes.
    #   2. Record _op and _prev so the computation graph stays complete.
    #   3. The _backward closure captures all values needed for the
    #      chain-rule formula via closure (no extra state on the node).
    #   4. Fused implementations (tanh, sigmoid) are preferred over
    #      composing existing ops: they produce a single, clean graph
    #      node and avoid numerical issues from intermediate exp().

    def exp(self) -> "Value":
        """
        Elementwise natural exponential: e^self.

        Forward:  out = e^x
        Backward: d(e^x)/dx = e^x = out  →  self.grad += out.grad * out.data

        Notes
        -----
        For very large positive inputs (x > ~709) Python's math.exp raises
        OverflowError.  This mirrors PyTorch's behaviour — callers must
        ensure inputs are in a reasonable range.

        Examples
        --------
        >>> v = Value(1.0)
        >>> v.exp().data
        2.718281828459045

        >>> v = Value(0.0)
        >>> v.exp().data
        1.0
        """
        out = Value(math.exp(self.data), _op="exp", _prev=(self,))

        # d(e^x)/dx = e^x — we reuse the already-computed out.data.
        def _backward() -> None:
            self.grad += out.grad * out.data

        out._backward = _backward
        return out

    def log(self) -> "Value":
        """
        Elementwise natural logarithm: ln(self).

        Forward:  out = ln(x)       (x must be > 0)
        Backward: d(ln x)/dx = 1/x  →  self.grad += out.grad / self.data

        Raises
        ------
        ValueError
            If self.data <= 0 (log is undefined for non-positive reals).

        Examples
        --------
        >>> import math
        >>> v = Value(math.e)
        >>> round(v.log().data, 10)
        1.0

        >>> Value(1.0).log().data
        0.0
        """
        if self.data <= 0:
            raise ValueError(
                f"log() requires a strictly positive input, got {self.data}."
            )
        out = Value(math.log(self.data), _op="log", _prev=(self,))

        def _backward() -> None:
            self.grad += out.grad / self.data

        out._backward = _backward
        return out

    def tanh(self) -> "Value":
        """
        Hyperbolic tangent activation (fused).

        Forward:  t = tanh(x) = (e^2x - 1) / (e^2x + 1)
        Backward: d(tanh x)/dx = 1 - tanh²(x) = 1 - t²
                  self.grad += out.grad * (1 - out.data ** 2)

        Why fused?
        ----------
        Computing tanh via existing ops (exp, div, sub, add) would create
        a multi-node sub-graph and obscure the structure of the network.
        A fused node keeps the graph clean and is numerically equivalent.

        Examples
        --------
        >>> Value(0.0).tanh().data
        0.0

        >>> round(Value(1.0).tanh().data, 6)
        0.761594
        """
        t = math.tanh(self.data)
        out = Value(t, _op="tanh", _prev=(self,))

        # 1 - t² is the sech²(x) derivative of tanh.
        def _backward() -> None:
            self.grad += out.grad * (1.0 - out.data ** 2)

        out._backward = _backward
        return out

    def relu(self) -> "Value":
        """
        Rectified Linear Unit activation.

        Forward:  out = max(0, x)
        Backward: d/dx max(0,x) = 1 if x > 0 else 0
                  self.grad += out.grad * (1 if self.data > 0 else 0)

        Notes
        -----
        - The subgradient at x=0 is defined to be 0 (consistent with
          PyTorch's default).
        - ReLU is the most common hidden-layer activation in modern MLPs
          because it is cheap to compute and avoids the vanishing-gradient
          problem that tanh/sigmoid suffer from in deep networks.

        Examples
        --------
        >>> Value(3.0).relu().data
        3.0

        >>> Value(-2.0).relu().data
        0.0

        >>> Value(0.0).relu().data
        0.0
        """
        out = Value(max(0.0, self.data), _op="relu", _prev=(self,))

        def _backward() -> None:
            self.grad += out.grad * (1.0 if self.data > 0 else 0.0)

        out._backward = _backward
        return out

    def sigmoid(self) -> "Value":
        """
        Logistic sigmoid activation (fused).

        Forward:  s = 1 / (1 + e^{-x})
        Backward: d/dx sigmoid(x) = s * (1 - s)
                  self.grad += out.grad * out.data * (1 - out.data)

        Why fused?
        ----------
        Same reasoning as tanh — keeps the graph compact and avoids
        precision loss from chaining multiple exp/div nodes.

        Notes
        -----
        For numerical stability the implementation uses the standard
        formula which is well-conditioned for all finite x:
          - Large positive x → e^{-x} ≈ 0 → s ≈ 1
          - Large negative x → e^{-x} is huge → s ≈ 0
        Neither case causes overflow because we only ever compute e^{-x},
        which is bounded above (1) when x ≥ 0.

        Examples
        --------
        >>> Value(0.0).sigmoid().data
        0.5

        >>> round(Value(2.0).sigmoid().data, 6)
        0.880797
        """
        s = 1.0 / (1.0 + math.exp(-self.data))
        out = Value(s, _op="sigmoid", _prev=(self,))

        # s*(1-s) is the classic sigmoid derivative.
        def _backward() -> None:
            self.grad += out.grad * out.data * (1.0 - out.data)

        out._backward = _backward
        return out


# ==========================================================================
# Day 6 — Neural network building blocks
# ==========================================================================
#
# Three classes built entirely on `Value` arithmetic, so every weight and
# bias is automatically differentiable through the autograd engine above.
#
# Design rules (consistent with the Value class above):
#   1. All learnable parameters are `Value` nodes — no raw floats sneak in.
#   2. __call__ accepts list[Value | float] for ergonomic use.
#   3. parameters() returns a flat list so a training loop only needs:
#          for p in model.parameters():
#              p.data -= lr * p.grad
#   4. Weights are initialised with Kaiming-style uniform ±1/√n_in scaling
#      so that activations neither explode nor vanish at random init.


_ACTIVATIONS = frozenset({"tanh", "relu", "sigmoid", "linear"})


class Neuron:
    """
    A single artificial neuron: out = activation(w · x + b).

    Parameters
    ----------
    n_in : int
        Number of scalar inputs the neuron receives.
    activation : str, optional
        Non-linearity to apply after the dot product.
        One of ``'tanh'`` (default), ``'relu'``, ``'sigmoid'``,
        or ``'linear'`` (no activation — useful for output neurons).

    Attributes
    ----------
    weights : list[Value]
        One weight per input, initialised uniformly in
        ``[-1/√n_in, +1/√n_in]``.
    bias : Value
        Scalar bias, initialised to 0.0.

    Examples
    --------
    >>> import random; random.seed(0)
    >>> n = Neuron(3)
    >>> out = n([1.0, 2.0, 3.0])
    >>> isinstance(out, Value)
    True
    >>> -1.0 <= out.data <= 1.0  # tanh output is bounded
    True
    """

    def __init__(self, n_in: int, activation: str = "tanh") -> None:
        if activation not in _ACTIVATIONS:
            raise ValueError(
                f"activation must be one of {sorted(_ACTIVATIONS)}, "
                f"got {activation!r}."
            )
        if not isinstance(n_in, int) or n_in < 1:
            raise ValueError(f"n_in must be a positive integer, got {n_in!r}.")

        self.activation = activation

        # Kaiming-style uniform: ±1/√n_in keeps variance ~1 at init.
        limit = 1.0 / math.sqrt(n_in)
        self.weights: list[Value] = [
            Value(random.uniform(-limit, limit), label=f"w{i}")
            for i in range(n_in)
        ]
        self.bias: Value = Value(0.0, label="b")

    # ------------------------------------------------------------------
    # Forward pass
    # ------------------------------------------------------------------

    def __call__(self, x: list) -> Value:
        """
        Compute the neuron's output for input vector *x*.

        Parameters
        ----------
        x : list[Value | int | float]
            Input activations.  Plain numbers are wrapped automatically.

        Returns
        -------
        Value
            The scalar output after applying the activation function.

        Raises
        ------
        ValueError
            If ``len(x) != len(self.weights)``.
        """
        if len(x) != len(self.weights):
            raise ValueError(
                f"Expected {len(self.weights)} inputs, got {len(x)}."
            )

        # Dot product: w · x  (coerce plain numbers to Value on the fly)
        act: Value = sum(
            (wi * (xi if isinstance(xi, Value) else Value(float(xi)))
             for wi, xi in zip(self.weights, x)),
            self.bias,
        )

        # Apply chosen non-linearity
        if self.activation == "tanh":
            return act.tanh()
        if self.activation == "relu":
            return act.relu()
        if self.activation == "sigmoid":
            return act.sigmoid()
        # 'linear' — no activation
        return act

    # ------------------------------------------------------------------
    # Parameter access
    # ------------------------------------------------------------------

    def parameters(self) -> list[Value]:
        """Return all trainable Value nodes: weights + bias."""
        return self.weights + [self.bias]

    def __repr__(self) -> str:
        return (
            f"Neuron(n_in={len(self.weights)}, activation={self.activation!r})"
        )


class Layer:
    """
    A fully-connected layer: a list of *n_out* independent Neurons that
    all receive the same input vector and each produce one scalar output.

    Parameters
    ----------
    n_in : int
        Number of inputs per neuron (= width of the previous layer).
    n_out : int
        Number of neurons in this layer (= output width).
    activation : str, optional
        Activation for every neuron. Default ``'tanh'``.

    Examples
    --------
    >>> import random; random.seed(0)
    >>> layer = Layer(2, 3)
    >>> outs = layer([1.0, -1.0])
    >>> len(outs)
    3
    >>> all(isinstance(o, Value) for o in outs)
    True
    """

    def __init__(self, n_in: int, n_out: int, activation: str = "tanh") -> None:
        self.neurons: list[Neuron] = [
            Neuron(n_in, activation=activation) for _ in range(n_out)
        ]

    def __call__(self, x: list) -> list[Value]:
        """
        Run each neuron and return a list of scalar Value outputs.

        If there is only one neuron the *list* is still returned (MLP
        unpacks it correctly) — a single Value is never auto-unwrapped
        here so that Layer behaviour is consistent regardless of width.
        """
        return [neuron(x) for neuron in self.neurons]

    def parameters(self) -> list[Value]:
        """Flat list of all Value parameters across every neuron."""
        return [p for neuron in self.neurons for p in neuron.parameters()]

    def __repr__(self) -> str:
        return (
            f"Layer(n_in={len(self.neurons[0].weights)}, "
            f"n_out={len(self.neurons)}, "
            f"activation={self.neurons[0].activation!r})"
        )


class MLP:
    """
    Multi-Layer Perceptron: a stack of fully-connected Layers.

    Parameters
    ----------
    n_in : int
        Number of scalar inputs to the network.
    layer_sizes : list[int]
        Width of each successive layer.  The final entry is the output
        width.  Example: ``[4, 4, 1]`` creates two hidden layers of
        width 4 followed by a single-output layer.
    activation : str, optional
        Activation for all *hidden* layers. Default ``'tanh'``.
    out_activation : str, optional
        Activation for the *output* layer. Default ``'linear'`` so the
        network can produce unbounded values suitable for regression or
        direct loss computation (e.g. MSE).  Set to ``'sigmoid'`` for
        binary classification.

    Attributes
    ----------
    layers : list[Layer]
        The ordered list of layers.

    Examples
    --------
    >>> import random; random.seed(42)
    >>> model = MLP(2, [4, 4, 1])
    >>> out = model([1.0, 2.0])
    >>> isinstance(out, Value)      # single-output network unwraps the list
    True
    >>> len(model.parameters())    # (2*4+4) + (4*4+4) + (4*1+1) = 41
    41
    """

    def __init__(
        self,
        n_in: int,
        layer_sizes: list[int],
        activation: str = "tanh",
        out_activation: str = "linear",
    ) -> None:
        if not layer_sizes:
            raise ValueError("layer_sizes must contain at least one entry.")

        # Build layers: all hidden layers use `activation`, output uses
        # `out_activation`.
        sizes = [n_in] + list(layer_sizes)
        self.layers: list[Layer] = [
            Layer(
                sizes[i],
                sizes[i + 1],
                activation=(
                    activation if i < len(layer_sizes) - 1 else out_activation
                ),
            )
            for i in range(len(layer_sizes))
        ]

    def __call__(self, x: list) -> "Value | list[Value]":
        """
        Run a forward pass through every layer in sequence.

        Parameters
        ----------
        x : list[Value | int | float]
            Input feature vector.

        Returns
        -------
        Value
            If the output layer has exactly one neuron the single Value
            is returned directly (most common case for scalar regression
            / binary classification).
        list[Value]
            Otherwise a list of output Values is returned.
        """
        out: list[Value] = list(x)  # copy so we don't mutate the input
        for layer in self.layers:
            out = layer(out)
        # Unwrap single-output networks for ergonomics
        return out[0] if len(out) == 1 else out

    def parameters(self) -> list[Value]:
        """Flat list of every trainable Value in the network."""
        return [p for layer in self.layers for p in layer.parameters()]

    def zero_grad(self) -> None:
        """
        Zero the gradient on every parameter in the network.

        Convenience shortcut — equivalent to calling
        ``p.grad = 0.0`` for every ``p`` in ``self.parameters()``.
        Unlike ``Value.zero_grad()`` this does **not** walk the full
        computation graph; it only resets the parameter leaves.
        Use this instead of ``loss.zero_grad()`` in a training loop
        — it is O(parameters) rather than O(graph nodes).
        """
        for p in self.parameters():
            p.grad = 0.0

    def __repr__(self) -> str:
        layer_strs = ", ".join(repr(l) for l in self.layers)
        return f"MLP([{layer_strs}])"

"""
tests/test_day04.py
-------------------
Tests for Day 4 — `.backward()`: full reverse-mode autodiff.

Philosophy:
  - Call `out.backward()` and assert the resulting `.grad` values on
    all ancestor nodes in one shot.
  - A numerical gradient check (central finite differences) proves that
    the analytical gradients match numerical approximations to high
    precision — the gold-standard correctness test for any autograd engine.

Run with:
    python -m pytest tests/ -v
"""

import math
import pytest


# ──────────────────────────────────────────────────────────────────────
# Helpers
# ──────────────────────────────────────────────────────────────────────

def numerical_grad(f, x: Value, h: float = 1e-5) -> float:
    """
    Central finite-difference approximation of df/dx at the current x.

        grad ≈ (f(x + h) - f(x - h)) / (2h)

    `f` is a callable that takes a plain float and returns a plain float.
    `x` is a Value whose `.data` is the evaluation point.
    """
    xv = x.data
    return (f(xv + h) - f(xv - h)) / (2 * h)


# ──────────────────────────────────────────────────────────────────────
# 1. Leaf node — backward() seeds itself
# ──────────────────────────────────────────────────────────────────────

class TestLeafBackward:
    def test_leaf_backward_sets_grad_to_one(self):
        """A standalone leaf's backward() seeds self.grad = 1.0."""
        v = Value(5.0)
        v.backward()
        assert v.grad == pytest.approx(1.0)

    def test_leaf_backward_overwrites_existing_grad(self):
        """backward() always sets self.grad = 1.0, ignoring prior value."""
        v = Value(3.0)
        v.grad = 99.0
        v.backward()
        assert v.grad == pytest.approx(1.0)

    def test_leaf_backward_does_not_alter_other_leaves(self):
        """Calling backward() on one Value should not touch unrelated nodes."""
        a = Value(1.0)
        b = Value(2.0)
        a.backward()
        assert b.grad == 0.0


# ──────────────────────────────────────────────────────────────────────
# 2. Single operations
# ──────────────────────────────────────────────────────────────────────

class TestSingleOpBackward:
    def test_add_backward(self):
        a = Value(2.0)
        b = Value(3.0)
        c = a + b        # c = 5.0
        c.backward()
        # ∂c/∂a = 1,  ∂c/∂b = 1
        assert a.grad == pytest.approx(1.0)
        assert b.grad == pytest.approx(1.0)
        assert c.grad == pytest.approx(1.0)

    def test_mul_backward(self):
        a = Value(2.0)
        b = Value(3.0)
        c = a * b        # c = 6.0
        c.backward()
        # ∂c/∂a = b = 3,  ∂c/∂b = a = 2
        assert a.grad == pytest.approx(3.0)
        assert b.grad == pytest.approx(2.0)

    def test_pow_backward(self):
        a = Value(3.0)
        out = a ** 2     # out = 9.0
        out.backward()
        # ∂out/∂a = 2a = 6
        assert a.grad == pytest.approx(6.0)

    def test_sub_backward(self):
        a = Value(5.0)
        b = Value(2.0)
        c = a - b        # c = 3.0
        c.backward()
        # ∂c/∂a = 1,  ∂c/∂b = -1
        assert a.grad == pytest.approx(1.0)
        assert b.grad == pytest.approx(-1.0)

    def test_div_backward(self):
        a = Value(6.0)
        b = Value(2.0)
        c = a / b        # c = 3.0
        c.backward()
        # ∂c/∂a = 1/b = 0.5,  ∂c/∂b = -a/b² = -1.5
        assert a.grad == pytest.approx(0.5)
        assert b.grad == pytest.approx(-1.5)

    def test_scalar_add_backward(self):
        a = Value(3.0)
        out = a + 5.0
        out.backward()
        assert a.grad == pytest.approx(1.0)

    def test_scalar_mul_backward(self):
        a = Value(3.0)
        out = a * 4.0
        out.backward()
        assert a.grad == pytest.approx(4.0)

    def test_radd_backward(self):
        a = Value(3.0)
        out = 5.0 + a    # __radd__
        out.backward()
        assert a.grad == pytest.approx(1.0)

    def test_rmul_backward(self):
        a = Value(3.0)
        out = 4.0 * a    # __rmul__
        out.backward()
        assert a.grad == pytest.approx(4.0)


# ──────────────────────────────────────────────────────────────────────
# 3. Chained operations (linear neuron style)
# ──────────────────────────────────────────────────────────────────────

class TestChainedBackward:
    def test_linear_neuron(self):
        """out = w * x + b;  verify all leaf grads."""
        w   = Value(0.5,  label="w")
        x   = Value(2.0,  label="x")
        b   = Value(0.3,  label="b")
        out = w * x + b  # 1.3

        out.backward()

        # ∂out/∂w = x = 2.0
        # ∂out/∂x = w = 0.5
        # ∂out/∂b = 1
        assert w.grad == pytest.approx(2.0)
        assert x.grad == pytest.approx(0.5)
        assert b.grad == pytest.approx(1.0)

    def test_quadratic_chain(self):
        """out = x**2 + 2*x + 1;  at x=3 → dout/dx = 2x+2 = 8."""
        x   = Value(3.0)
        out = x ** 2 + 2.0 * x + 1.0
        out.backward()
        assert x.grad == pytest.approx(8.0)

    def test_three_hop_chain(self):
        """a → b=a*2 → c=b*3 → d=c*4;  dd/da = 2*3*4 = 24."""
        a = Value(1.0)
        d = a * 2.0 * 3.0 * 4.0
        d.backward()
        assert a.grad == pytest.approx(24.0)

    def test_nested_pow(self):
        """out = (x**2)**2 = x**4;  at x=2 → d/dx = 4x**3 = 32."""
        x   = Value(2.0)
        out = (x ** 2) ** 2
        out.backward()
        assert x.grad == pytest.approx(32.0)


# ──────────────────────────────────────────────────────────────────────
# 4. Shared / reused nodes (gradient accumulation)
# ──────────────────────────────────────────────────────────────────────

class TestSharedNodes:
    def test_square_via_mul(self):
        """y = x * x  →  dy/dx = 2x."""
        x = Value(3.0)
        y = x * x
        y.backward()
        assert x.grad == pytest.approx(6.0)

    def test_square_via_pow(self):
        """y = x**2  →  dy/dx = 2x."""
        x = Value(4.0)
        y = x ** 2
        y.backward()
        assert x.grad == pytest.approx(8.0)

    def test_add_self(self):
        """y = x + x  →  dy/dx = 2."""
        x = Value(5.0)
        y = x + x
        y.backward()
        assert x.grad == pytest.approx(2.0)

    def test_cubic_shared(self):
        """y = x * x * x  →  dy/dx = 3x²."""
        x = Value(2.0)
        y = x * x * x
        y.backward()
        assert x.grad == pytest.approx(12.0)

    def test_mixed_shared(self):
        """out = x**2 + x;  at x=3 → d/dx = 2x+1 = 7."""
        x   = Value(3.0)
        out = x ** 2 + x
        out.backward()
        assert x.grad == pytest.approx(7.0)


# ──────────────────────────────────────────────────────────────────────
# 5. Diamond graph
# ──────────────────────────────────────────────────────────────────────

class TestDiamondGraph:
    def test_diamond_add(self):
        """
        Graph:
            a ──┬── m = a + b ──┬── out = m + n
            b ──┘               │
            c ──── n = b + c ──┘

        Here b appears in both m and n (diamond).
        ∂out/∂a = 1
        ∂out/∂b = 2   (contributes through both m and n)
        ∂out/∂c = 1
        """
        a = Value(1.0, label="a")
        b = Value(2.0, label="b")
        c = Value(3.0, label="c")
        m   = a + b
        n   = b + c
        out = m + n
        out.backward()

        assert a.grad == pytest.approx(1.0)
        assert b.grad == pytest.approx(2.0)
        assert c.grad == pytest.approx(1.0)

    def test_diamond_mul(self):
        """
        z = x * y + x * y  (x and y each appear twice)
        dz/dx = y + y = 2y,  dz/dy = x + x = 2x
        """
        x = Value(3.0)
        y = Value(4.0)
        z = x * y + x * y
        z.backward()
        assert x.grad == pytest.approx(8.0)   # 2 * y = 2*4
        assert y.grad == pytest.approx(6.0)   # 2 * x = 2*3


# ──────────────────────────────────────────────────────────────────────
# 6. backward() with zero_grad() — idempotence across passes
# ──────────────────────────────────────────────────────────────────────

class TestBackwardIdempotence:
    def test_second_call_doubles_gradients(self):
        """Calling backward() twice accumulates — user must zero_grad()."""
        a = Value(2.0)
        b = Value(3.0)
        c = a * b
        c.backward()
        # First call: a.grad = 3.0
        first_a = a.grad
        c.backward()
        # Second call (no zero_grad): adds another 3.0
        assert a.grad == pytest.approx(2 * first_a)

    def test_zero_grad_then_backward_correct(self):
        """zero_grad() + backward() gives clean, correct result."""
        w = Value(0.5)
        x = Value(2.0)
        out = w * x

        # First pass
        out.backward()
        assert w.grad == pytest.approx(2.0)

        # Reset and repeat
        out.zero_grad()
        out.backward()
        assert w.grad == pytest.approx(2.0)
        assert x.grad == pytest.approx(0.5)

    def test_three_passes_stay_correct_with_zero_grad(self):
        a = Value(3.0)
        out = a ** 2   # da/dx = 2*3 = 6

        for _ in range(3):
            out.zero_grad()
            out.backward()
            assert a.grad == pytest.approx(6.0)


# ──────────────────────────────────────────────────────────────────────
# 7. Karpathy reference examples
# ──────────────────────────────────────────────────────────────────────

class TestKarpathyExamples:
    def test_karpathy_neuron(self):
        """
        Exactly the example from Karpathy's 'micrograd' lecture.

        Forward:
            x1, x2 = 2.0, 0.0
            w1, w2 = -3.0, 1.0
            b = 6.8813735870195432

            x1w1 = x1 * w1   = -6.0
            x2w2 = x2 * w2   = 0.0
            x1w1x2w2 = x1w1 + x2w2 = -6.0
            n = x1w1x2w2 + b  ≈ 0.8814
            o = tanh(n)  — we skip tanh here, using a linear approx

        We test a simpler version without tanh since tanh is Day 5.
        """
        x1 = Value(2.0, label="x1")
        x2 = Value(0.0, label="x2")
        w1 = Value(-3.0, label="w1")
        w2 = Value(1.0, label="w2")
        b  = Value(6.7, label="b")

        x1w1   = x1 * w1
        x2w2   = x2 * w2
        x1w1x2w2 = x1w1 + x2w2
        n      = x1w1x2w2 + b   # n ≈ 0.7

        n.backward()

        # ∂n/∂x1 = w1 = -3.0
        # ∂n/∂x2 = w2 = 1.0
        # ∂n/∂w1 = x1 = 2.0
        # ∂n/∂w2 = x2 = 0.0
        assert x1.grad == pytest.approx(-3.0)
        assert x2.grad == pytest.approx(1.0)
        assert w1.grad == pytest.approx(2.0)
        assert w2.grad == pytest.approx(0.0)
        assert b.grad  == pytest.approx(1.0)


# ──────────────────────────────────────────────────────────────────────
# 8. Numerical gradient check
#    (finite differences vs analytical .grad)
# ──────────────────────────────────────────────────────────────────────

class TestNumericalGradientCheck:
    """
    Gold-standard test: compare .backward() gradient to a numerical
    finite-difference approximation.

        grad_numerical = (f(x+h) - f(x-h)) / 2h   (central differences)

    Agreement to 4 significant figures is expected.
    """

    def _check(self, f_lambda, x_val: float, tol: float = 1e-4):
        """
        Helper that:
          1. Builds a Value graph, runs backward(), reads x.grad.
          2. Computes the numerical gradient via central differences.
          3. Asserts they agree to `tol` relative tolerance.
        """
        x = Value(x_val)
        out = f_lambda(x)
        out.backward()
        analytical = x.grad

        f_plain = lambda v: f_lambda(Value(v)).data
        numerical = numerical_grad(f_plain, x)

        assert analytical == pytest.approx(numerical, rel=tol), (
            f"analytical={analytical}, numerical={numerical}"
        )

    # Individual cases ─────────────────────────────────────────────────

    def test_numgrad_square(self):
        self._check(lambda x: x ** 2, x_val=3.0)

    def test_numgrad_cube(self):
        self._check(lambda x: x ** 3, x_val=2.0)

    def test_numgrad_reciprocal(self):
        self._check(lambda x: Value(1.0) / x, x_val=4.0)

    def test_numgrad_polynomial(self):
        """f(x) = 3x³ - 2x² + x - 5;  f'(x) = 9x² - 4x + 1."""
        self._check(
            lambda x: Value(3.0) * x ** 3 - Value(2.0) * x ** 2 + x - Value(5.0),
            x_val=1.5,
        )

    def test_numgrad_nested_pow(self):
        """f(x) = (x²)²= x⁴;  f'(x) = 4x³."""
        self._check(lambda x: (x ** 2) ** 2, x_val=2.0)

    def test_numgrad_division(self):
        """f(x) = x / 3;  f'(x) = 1/3."""
        self._check(lambda x: x / Value(3.0), x_val=5.0)

    def test_numgrad_linear(self):
        """f(x) = 2x + 7;  f'(x) = 2."""
        self._check(lambda x: Value(2.0) * x + Value(7.0), x_val=0.0)

    def test_numgrad_fraction(self):
        """f(x) = 1/x²;  f'(x) = -2/x³."""
        self._check(lambda x: Value(1.0) / (x ** 2), x_val=3.0)

    def test_numgrad_at_multiple_points(self):
        """f(x) = x³ checked at several x values."""
        for xv in [-2.0, -0.5, 1.0, 2.5, 4.0]:
            self._check(lambda x: x ** 3, x_val=xv)

    # Two-variable numerical check ─────────────────────────────────────

    def test_numgrad_two_vars(self):
        """
        f(a, b) = a * b²;  ∂f/∂a = b², ∂f/∂b = 2ab.
        Perturb each variable independently.
        """
        h = 1e-5
        a_val, b_val = 3.0, 4.0

        def f(a_v, b_v):
            return (Value(a_v) * Value(b_v) ** 2).data

        num_da = (f(a_val + h, b_val) - f(a_val - h, b_val)) / (2 * h)
        num_db = (f(a_val, b_val + h) - f(a_val, b_val - h)) / (2 * h)

        a = Value(a_val)
        b = Value(b_val)
        out = a * b ** 2
        out.backward()

        assert a.grad == pytest.approx(num_da, rel=1e-4)
        assert b.grad == pytest.approx(num_db, rel=1e-4)


# ──────────────────────────────────────────────────────────────────────
# 9. backward() produces correct self.grad on root
# ──────────────────────────────────────────────────────────────────────

class TestRootGrad:
    def test_root_grad_is_one(self):
        """After backward(), the node it's called on always has .grad == 1."""
        a = Value(2.0)
        b = Value(3.0)
        out = a * b + a ** 2
        out.backward()
        assert out.grad == pytest.approx(1.0)

    def test_intermediate_node_grad_correct(self):
        """Intermediate nodes should also accumulate correct gradients."""
        x  = Value(2.0)
        wx = x * Value(3.0)  # wx = 6; d(out)/d(wx) will be 1
        out = wx + Value(1.0)
        out.backward()
        assert wx.grad == pytest.approx(1.0)

TestLeafBackward().test_leaf_backward_sets_grad_to_one()
TestLeafBackward().test_leaf_backward_overwrites_existing_grad()
TestLeafBackward().test_leaf_backward_does_not_alter_other_leaves()
TestSingleOpBackward().test_add_backward()
TestSingleOpBackward().test_mul_backward()
TestSingleOpBackward().test_pow_backward()
TestSingleOpBackward().test_sub_backward()
TestSingleOpBackward().test_div_backward()
TestSingleOpBackward().test_scalar_add_backward()
TestSingleOpBackward().test_scalar_mul_backward()
TestSingleOpBackward().test_radd_backward()
TestSingleOpBackward().test_rmul_backward()
TestChainedBackward().test_linear_neuron()
TestChainedBackward().test_quadratic_chain()
TestChainedBackward().test_three_hop_chain()
TestChainedBackward().test_nested_pow()
TestSharedNodes().test_square_via_mul()
TestSharedNodes().test_square_via_pow()
TestSharedNodes().test_add_self()
TestSharedNodes().test_cubic_shared()
TestSharedNodes().test_mixed_shared()
TestDiamondGraph().test_diamond_add()
TestDiamondGraph().test_diamond_mul()
TestBackwardIdempotence().test_second_call_doubles_gradients()
TestBackwardIdempotence().test_zero_grad_then_backward_correct()
TestBackwardIdempotence().test_three_passes_stay_correct_with_zero_grad()
TestKarpathyExamples().test_karpathy_neuron()
TestNumericalGradientCheck().test_numgrad_square()
TestNumericalGradientCheck().test_numgrad_cube()
TestNumericalGradientCheck().test_numgrad_reciprocal()
TestNumericalGradientCheck().test_numgrad_polynomial()
TestNumericalGradientCheck().test_numgrad_nested_pow()
TestNumericalGradientCheck().test_numgrad_division()
TestNumericalGradientCheck().test_numgrad_linear()
TestNumericalGradientCheck().test_numgrad_fraction()
TestNumericalGradientCheck().test_numgrad_at_multiple_points()
TestNumericalGradientCheck().test_numgrad_two_vars()
TestRootGrad().test_root_grad_is_one()
TestRootGrad().test_intermediate_node_grad_correct()
