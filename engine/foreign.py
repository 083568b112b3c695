"""Trace graphs from other micrograd-compatible engines by watching their own rules.

A foreign node is any object with `data`, `grad`, `_prev`, `_op`, `_backward` (and
optionally `label`), like micrograd's `Value`. We mirror the graph with engine
`Value`s whose `_backward` calls the foreign rule and reports what it changed, then
trace the mirror as usual; at the end the foreign nodes hold the final gradients.

What it cannot see: a foreign rule's individual `+=`s. Each rule is run once with
the upstream gradient set to 1, and the change in each distinct child's gradient is
its local derivative; so `a + a` shows one contribution of 2, not two of 1, and
`_prev` being a set means one edge. Sibling order follows the set's iteration order,
which Python does not fix between runs; but the two operands of another engine's own
`a - b`, `a / b` or `a ** b` are put in the order that makes the node's number.

Ops we do not have (micrograd's `ReLU`, a learner's `sin`) are narrated as rules that
were watched; an op node whose `_op` is empty or None is shown as `?`. Anything the
foreign code does wrong (a rule that raises, data that is not a float, a `_prev`
that is not iterable) becomes an `EngineError`, and a failed rule leaves the
foreign gradients as they were.

Example: for micrograd's `c = a * b` with a=2, b=-3, the mirror's rule reports
locals -3 (into a) and 2 (into b), exactly the numbers `c._backward` adds in.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.trace.text import clean_text
from backprop_animator.engine.value import Value

REQUIRED = ("data", "grad", "_prev", "_op", "_backward")
# Foreign ops and labels are cut to this many characters (SPEC §11 cuts labels at 100).
MAX_TEXT = 100
UNNAMED_OP = "?"


def mirror_graph(output: Any, max_nodes: int) -> tuple[Value, dict[Value, Any]]:
    """Build engine Values mirroring the foreign graph below `output`.

    Returns the mirrored output and a map from each mirror to its foreign node.
    Mirrors are created children first, so ids follow a topological order. The nodes
    found, not only those mirrored, are what `max_nodes` bounds: a graph with no bottom
    (a `_prev` that makes new nodes each time it is read) is refused, not walked forever.
    """
    mirrors: dict[int, Value] = {}
    originals: dict[Value, Any] = {}
    visiting: set[int] = set()
    stack: list[tuple[Any, bool]] = [(output, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in mirrors:
            continue
        children = _children(node, max_nodes)
        if not children_done:
            if id(node) in visiting:
                raise EngineError("the graph has a cycle: a node is its own descendant")
            visiting.add(id(node))
            if len(visiting) > max_nodes:
                raise too_many_nodes(max_nodes)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children))
            continue
        mirror = Value(
            _data(node),
            tuple(mirrors[id(child)] for child in children),
            _op_text(node) if children else "",
            _label_text(node),
        )
        if children:
            mirror._backward = _watch(node, mirror, children, [mirrors[id(c)] for c in children])
        mirrors[id(node)] = mirror
        originals[mirror] = node
    return mirrors[id(output)], originals


def too_many_nodes(max_nodes: int) -> EngineError:
    return EngineError(
        f"the graph has more than {max_nodes:,} nodes (set BACKPROP_MAX_NODES to change it)"
    )


def _watch(node: Any, mirror: Value, children: list[Any], child_mirrors: list[Value]) -> Any:
    """A `_backward` for `mirror` that measures the foreign rule's local derivatives."""

    def _backward() -> None:
        saved = [child.grad for child in children]
        saved_own = node.grad
        try:
            node.grad = 1.0
            node._backward()
            locals_ = [
                _number(child.grad) - _number(before)
                for child, before in zip(children, saved, strict=True)
            ]
        except EngineError as error:
            raise EngineError(
                f"after the {_op_text(node)} node's own _backward, a child's grad {error.message}"
            ) from None
        except Exception as error:
            raise EngineError(
                f"the {_op_text(node)} node's own _backward failed: "
                f"{type(error).__name__}: {_cut(str(error))}"
            ) from None
        finally:
            node.grad = saved_own
            for child, before in zip(children, saved, strict=True):
                child.grad = before
        for child_mirror, local in zip(child_mirrors, locals_, strict=True):
            child_mirror._accumulate(local, mirror)

    return _backward


def copy_grads_back(originals: dict[Value, Any]) -> None:
    """Leave the foreign graph with the gradients one clean backward pass gives."""
    for mirror, node in originals.items():
        node.grad = mirror.grad


def _children(node: Any, max_nodes: int) -> list[Any]:
    """A node's children, each once, read from its `_prev` up to `max_nodes` of them."""
    missing = [name for name in REQUIRED if not hasattr(node, name)]
    if missing:
        raise EngineError(
            f"{type(node).__name__} is not a micrograd-style node: it has no " + ", ".join(missing)
        )
    unique: dict[int, Any] = {}
    try:
        for child in node._prev:
            unique.setdefault(id(child), child)
            if len(unique) > max_nodes:
                break
    except Exception as error:
        raise EngineError(
            f"a node's _prev is not a collection of nodes ({type(error).__name__}: "
            f"{_cut(str(error))})"
        ) from None
    children = list(unique.values())
    if len(children) > max_nodes:
        raise too_many_nodes(max_nodes)
    if len(children) == 2 and type(node._prev) in (set, frozenset):
        return _in_written_order(node, children)
    return children


# Another engine's own ops written between two operands (`ops.INFIX`), by what they make.
_INFIX_VALUES: dict[str, Callable[[float, float], float]] = {
    "-": lambda a, b: a - b,
    "/": lambda a, b: a / b,
    "**": lambda a, b: a**b,
}


def _in_written_order(node: Any, children: list[Any]) -> list[Any]:
    """The two operands of `a - b`, `a / b` or `a ** b` kept in a set, which does not
    keep their order (it is the objects' addresses'): the order that makes the node's
    own number, when only the other one does not. Any other op's, as the set gives them."""
    make = _INFIX_VALUES.get(_op_text(node))
    if make is None:
        return children
    try:
        first, second = (_number(child.data) for child in children)
        forward = make(first, second) == _number(node.data)
        backward = make(second, first) == _number(node.data)
    except (ArithmeticError, ValueError, TypeError, EngineError):
        return children
    return children[::-1] if backward and not forward else children


def _data(node: Any) -> float:
    try:
        value = _number(node.data)
    except EngineError as error:
        raise EngineError(f"a node's data {error.message}") from None
    if not math.isfinite(value):
        raise EngineError(f"a node's data is not a finite number: {value}")
    return value


def _number(value: Any) -> float:
    """`value` as a float, or an EngineError saying why not (`10**400` is too large)."""
    try:
        return float(value)
    except OverflowError:
        raise EngineError(f"is too large for a float: {_cut(repr(value))}") from None
    except Exception:
        raise EngineError(f"is not a number: {_cut(_safe_repr(value))}") from None


def _op_text(node: Any) -> str:
    """The op as the trace shows it: a string of at most 100 characters, `?` if none."""
    op = node._op
    if op is None or op == "":
        return UNNAMED_OP
    return _cut(op if isinstance(op, str) else _safe_repr(op))


def _label_text(node: Any) -> str:
    label = getattr(node, "label", "")
    if not label:
        return ""
    return _cut(label if isinstance(label, str) else _safe_repr(label))


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:
        return f"<a {type(value).__name__}>"


def _cut(text: str) -> str:
    text = clean_text(text)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
