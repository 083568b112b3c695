"""Trace graphs from other micrograd-compatible engines by watching their own rules.

A foreign node is any object with `data`, `grad`, `_prev`, `_op`, `_backward` (and
optionally `label`), like micrograd's `Value`. We mirror the graph with engine
`Value`s whose `_backward` calls the foreign rule and reports what it changed, then
trace the mirror as usual; at the end the foreign nodes hold the final gradients.

What it cannot see: a foreign rule's individual `+=`s. Each rule is run once with
the upstream gradient set to 1, and the change in each distinct child's gradient is
its local derivative; so `a + a` shows one contribution of 2, not two of 1, and
`_prev` being a set means one edge. Sibling order follows the set's iteration order,
which Python does not fix between runs.

Example: for micrograd's `c = a * b` with a=2, b=-3, the mirror's rule reports
locals -3 (into a) and 2 (into b), exactly the numbers `c._backward` adds in.
"""

from __future__ import annotations

import math
from typing import Any

from engine.errors import EngineError
from engine.value import Value

REQUIRED = ("data", "grad", "_prev", "_op", "_backward")


def mirror_graph(output: Any, max_nodes: int) -> tuple[Value, dict[Value, Any]]:
    """Build engine Values mirroring the foreign graph below `output`.

    Returns the mirrored output and a map from each mirror to its foreign node.
    Mirrors are created children first, so ids follow a topological order.
    """
    mirrors: dict[int, Value] = {}
    originals: dict[Value, Any] = {}
    visiting: set[int] = set()
    stack: list[tuple[Any, bool]] = [(output, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in mirrors:
            continue
        children = _children(node)
        if not children_done:
            if id(node) in visiting:
                raise EngineError("the graph has a cycle: a node is its own descendant")
            visiting.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children))
            continue
        mirror = Value(
            _data(node),
            tuple(mirrors[id(child)] for child in children),
            str(node._op),
            str(getattr(node, "label", "") or ""),
        )
        if children:
            mirror._backward = _watch(node, mirror, children, [mirrors[id(c)] for c in children])
        mirrors[id(node)] = mirror
        originals[mirror] = node
        if len(mirrors) > max_nodes:
            raise EngineError(f"the graph has more than {max_nodes:,} nodes")
    return mirrors[id(output)], originals


def _watch(node: Any, mirror: Value, children: list[Any], child_mirrors: list[Value]) -> Any:
    """A `_backward` for `mirror` that measures the foreign rule's local derivatives."""

    def _backward() -> None:
        saved = [child.grad for child in children]
        node.grad = 1.0
        node._backward()
        locals_ = [child.grad - before for child, before in zip(children, saved, strict=True)]
        for child, before in zip(children, saved, strict=True):
            child.grad = before
        for child_mirror, local in zip(child_mirrors, locals_, strict=True):
            child_mirror._accumulate(local, mirror)

    return _backward


def copy_grads_back(originals: dict[Value, Any]) -> None:
    """Leave the foreign graph with the gradients one clean backward pass gives."""
    for mirror, node in originals.items():
        node.grad = mirror.grad


def _children(node: Any) -> list[Any]:
    missing = [name for name in REQUIRED if not hasattr(node, name)]
    if missing:
        raise EngineError(
            f"{type(node).__name__} is not a micrograd-style node: it has no " + ", ".join(missing)
        )
    unique: dict[int, Any] = {}
    for child in node._prev:
        unique.setdefault(id(child), child)
    return list(unique.values())


def _data(node: Any) -> float:
    try:
        value = float(node.data)
    except (TypeError, ValueError):
        raise EngineError(f"a node's data is not a number: {node.data!r}") from None
    if not math.isfinite(value):
        raise EngineError(f"a node's data is not a finite number: {value}")
    return value
