"""The scalar autograd engine the product teaches: a `Value` graph with local rules.

Every primitive has the same short shape: wrap a plain-number operand, make `out`
with its children and op, define the `_backward` closure that `+=`s into the
children, attach it, return `out`. Composites (`-`, `/`, negation, the reflected
operators) build only primitives, so they need no `_backward` of their own.

Differences from the smallest possible engine, each for a reason:

- `_prev` is a tuple in operand order, not a set, so the topological order (and so
  the whole trace) is the same on every run and machine.
- every `+=` goes through `_accumulate`, which lets a tracer watch each one
  (`engine.trace.recorder`) without changing what the rule computes.
- `backward` sorts with an explicit stack, so a 100,000-deep chain works.
- `tanh` uses `math.tanh`, which cannot overflow for large inputs.

Example: `a = Value(3.0); b = a + a; b.backward()` leaves `a.grad == 2.0`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator

Number = int | float

# Every Value made takes the next number: its `_seq`, the order of the trace's ids; the
# nodes an operation made are those after a number taken just before it.
creation_order = itertools.count()


def no_rule() -> None:
    """A leaf's `_backward`: nothing below it to pass a gradient to."""


class Value:
    """One scalar in the graph: its data, its gradient, and how it was made."""

    __slots__ = ("_backward", "_const", "_op", "_prev", "_seq", "_tape", "data", "grad", "label")

    def __init__(
        self, data: Number, _children: tuple[Value, ...] = (), _op: str = "", label: str = ""
    ) -> None:
        self.data = data
        self.grad = 0.0
        self.label = label
        self._prev = _children
        self._op = _op
        self._backward: Callable[[], None] = no_rule
        # True for a plain number wrapped where it met a Value; WRITTEN_LEFT when the
        # program wrote that number left of the Value (`2*n`, made as `n*2` by __rmul__),
        # NEGATION for the -1 of `-a` (made as `a*-1`).
        self._const: bool | int = False
        self._seq = next(creation_order)
        self._tape: list[tuple[Value, float, float, float]] | None = None

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    def _accumulate(self, local: float, out: Value) -> None:
        """The chain rule's one move: `self.grad += local * out.grad`.

        `+` passes the int 1 and `relu` micrograd's bool `out.data > 0`, so that a
        gradient micrograd keeps as an int stays one (a program prints CPython's
        `grad=1`, not `grad=1.0`); a float gradient is the same either way. (A real
        program's relu below zero is micrograd's int 0 too: `Recorder.adopt`.)"""
        delta = local * out.grad
        if out._tape is not None:
            out._tape.append((self, local, delta, self.grad))
        self.grad += delta

    # Primitives: each creates one node and stores its own rule.

    def __add__(self, other: Value | Number) -> Value:
        other = other if isinstance(other, Value) else constant(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self._accumulate(1, out)
            other._accumulate(1, out)

        out._backward = _backward
        return out

    def __mul__(self, other: Value | Number) -> Value:
        other = other if isinstance(other, Value) else constant(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self._accumulate(other.data, out)
            other._accumulate(self.data, out)

        out._backward = _backward
        return out

    def __pow__(self, k: Number) -> Value:
        if isinstance(k, Value) or not isinstance(k, int | float):
            raise TypeError("the exponent must be a plain number")
        out = Value(self.data**k, (self,), f"**{exponent_text(k)}")

        def _backward() -> None:
            # x**0 is constant: its derivative is 0, even at x = 0 where 0**-1 has no value.
            self._accumulate(k * self.data ** (k - 1) if k != 0 else 0.0, out)

        out._backward = _backward
        return out

    def tanh(self) -> Value:
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward() -> None:
            self._accumulate(1 - t**2, out)

        out._backward = _backward
        return out

    def exp(self) -> Value:
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward() -> None:
            self._accumulate(out.data, out)

        out._backward = _backward
        return out

    def relu(self) -> Value:
        out = Value(self.data if self.data > 0 else 0.0, (self,), "relu")

        def _backward() -> None:
            self._accumulate(out.data > 0, out)

        out._backward = _backward
        return out

    def log(self) -> Value:
        out = Value(math.log(self.data), (self,), "log")

        def _backward() -> None:
            self._accumulate(1 / self.data, out)

        out._backward = _backward
        return out

    def sigmoid(self) -> Value:
        s = _sigmoid(self.data)
        out = Value(s, (self,), "sigmoid")

        def _backward() -> None:
            self._accumulate(s * (1 - s), out)

        out._backward = _backward
        return out

    # Composites: they only build primitives.

    def __neg__(self) -> Value:
        out = self * -1
        out._prev[1]._const = NEGATION  # named `-a`, as written, not `a*-1`
        return out

    def __sub__(self, other: Value | Number) -> Value:
        return self + (-other)

    def __truediv__(self, other: Value | Number) -> Value:
        return self * other**-1

    def __radd__(self, other: Number) -> Value:
        return self + other

    def __rmul__(self, other: Number) -> Value:
        return self * other

    def __rsub__(self, other: Number) -> Value:
        return (-self) + other

    def __rtruediv__(self, other: Number) -> Value:
        return self**-1 * other

    def backward(self) -> None:
        """Seed this node's gradient with 1 and run every rule, outputs first."""
        topo = topological_order(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()


def as_micrograds_zero(node: Value) -> None:
    """A real program's relu below zero is micrograd's int 0 (`0 if self.data < 0 else
    self.data`), so that it prints as CPython prints it; a straight-line program's stays
    the float 0.0 (`-relu(x)` is then -0.0, as it always was)."""
    if node._op == "relu" and node._prev[0].data < 0:
        node.data = 0


# `_const` values that are true and say how the program wrote the constant.
WRITTEN_LEFT = 2
NEGATION = 3


def mark_written_left(product: object) -> None:
    """`k*v` for a plain number k comes back from `v.__rmul__(k)` as `v*k`; mark its
    constant so that the product is named as written (`2*n`), its graph unchanged."""
    if type(product) is Value and product._op == "*" and len(product._prev) == 2:
        number = product._prev[1]
        if number._const is True:
            number._const = WRITTEN_LEFT


def constant(x: Number) -> Value:
    """Wrap a plain number that met a Value; it becomes a `const` leaf."""
    out = Value(x)
    out._const = True
    return out


def topological_order(root: Value) -> list[Value]:
    """Children before parents, exactly as a recursive depth-first `build` appends them.

    The recursive version appends a node after all its children, visiting children in
    `_prev` order; an explicit stack of (node, its children's iterator, which goes on
    where it stopped) gives the same list without Python's recursion limit.

    Example: for `c = a * b; d = c + a` -> [a, b, c, d].
    """
    topo: list[Value] = []
    visited = {root}
    add = visited.add
    # Each entry's iterator goes on where it stopped: one tuple per node, not per edge
    # (every pass of a traced program sorts its whole graph).
    stack: list[tuple[Value, Iterator[Value]]] = [(root, iter(root._prev))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if child not in visited:
                add(child)
                stack.append((child, iter(child._prev)))
                break
        else:
            stack.pop()
            topo.append(node)
    return topo


def tanh_from_primitives(n: Value) -> Value:
    """tanh assembled from primitives: e = exp(2n); (e - 1) / (e + 1).

    Same value and gradient as `n.tanh()`, but the graph has the fork at `e`.
    """
    e = (2 * n).exp()
    mark_written_left(e._prev[0])
    e.label = "e"
    num = e - 1
    num.label = "num"
    den = e + 1
    den.label = "den"
    return num / den


def sigmoid_from_primitives(x: Value) -> Value:
    """sigmoid assembled from primitives: 1 / (1 + exp(-x))."""
    return 1 / (1 + (-x).exp())


def plain_sigmoid(x: float) -> float:
    """The sigmoid of a plain number, 1 / (1 + exp(-x)): `Value.sigmoid`'s data and the
    number function of `engine.ops`."""
    # Both branches avoid exp of a large positive number, so no overflow.
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


# The name `Value.sigmoid` calls it by: that method's source is what the page shows of
# the rule (`engine.rules`, tests/engine/golden/rules.json), so it stays as it was.
_sigmoid = plain_sigmoid


def exponent_text(k: Number) -> str:
    """`**2`, `**-1`, `**0.5`: integral floats print without the `.0`."""
    if isinstance(k, float) and k.is_integer() and abs(k) < 1e16:
        return str(int(k))
    return repr(k)
