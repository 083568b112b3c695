"""Spot the places where floating point rounded a nonzero number to (nearly) zero.

Differentiation is exact; floats are not. The article's composite `tanh` shows it:
expanded, `tanh(x)` is `num * den**-1`, and the `**-1` rule's local derivative
`-1 * den**-2` is smaller than the smallest float once x is past about 186, so it
becomes 0 and the half of the gradient that should cancel the other half is lost:
x.grad comes out 2.0 where the packed `tanh` (one fused rule, `1 - t**2`) gives 0.
The trace keeps those numbers, since they are what the engine computes, and marks
where they went wrong, so the player can say so.

A number has underflowed when it is below the smallest normal float (about
2.2e-308) in size, zero included, although the exact result cannot be zero:

- a contribution's `delta = local * upstream` with both factors nonzero;
- the local derivative of `**k` (k·x^(k−1), k ≠ 0, x ≠ 0), or of an op whose registry
  entry says it is never 0 (`engine.ops`: `exp`'s eˣ, `log`'s 1/x);
- a node's data from `*` (both operands nonzero), `**k` (x ≠ 0) or an op whose entry
  says its result is never 0 (`exp`).

`tanh` and `sigmoid` saturate (1 − t² rounds to 0 when t rounds to ±1): that is
rounding, not underflow, and is not marked.

Example: `tiny(1e-320) is True`, `tiny(0.0) is True`, `tiny(1e-300) is False`.
"""

from __future__ import annotations

import sys

from backprop_animator.engine.ops import lookup
from backprop_animator.engine.value import Value

SMALLEST_NORMAL = sys.float_info.min


def tiny(x: float) -> bool:
    """Zero, or so small that the float has lost precision (a subnormal)."""
    return abs(x) < SMALLEST_NORMAL


def contribution_underflowed(
    node: Value, child: Value, local: float, upstream: float, delta: float
) -> bool:
    """Did this `+=` lose a number that is not really zero? (See the module's list.)"""
    if tiny(delta) and not tiny(local) and not tiny(upstream):
        return True
    return tiny(local) and _local_is_never_zero(node, child)


def data_underflowed(node: Value) -> bool:
    """Is this op node's data a nonzero result rounded to (nearly) zero?"""
    if not node._prev or not tiny(node.data):
        return False
    op = node._op
    if op == "*":
        return all(not tiny(child.data) for child in node._prev)
    if op.startswith("**"):
        return node._prev[0].data != 0
    entry = lookup(op)
    return entry is not None and entry.data_never_zero


def _local_is_never_zero(node: Value, child: Value) -> bool:
    op = node._op
    if op.startswith("**"):
        exponent = _exponent(op)
        return exponent is not None and exponent != 0 and child.data != 0
    entry = lookup(op)
    return entry is not None and entry.local_never_zero


def _exponent(op: str) -> float | None:
    """`"**-1"` -> -1.0; None for an op from another engine that is not a number."""
    try:
        return float(op[2:])
    except ValueError:
        return None
