"""Graph -> frames: the build, the sort and every `_backward` call, as a JSON-ready dict.

A pure function of the graph (SPEC §3). It runs the real backward pass, watching each
`+=` through the nodes' tapes, so the numbers in the frames are the numbers the engine
computed, not a re-derivation. It draws nothing; JSON and SVG come after.

Ids are `n0, n1, ...` in creation order, so the same program gives the same trace,
byte for byte. Tracing resets the graph's gradients to zero first and leaves them
final, as one clean `backward()` would.

Example: for `a = Value(3.0); b = a + a` the trace has 2 nodes, 2 edges (a -> b twice),
frames build(b), sort, backward(b) with two contributions to a (0 -> 1 -> 2), backward(a).
"""

from __future__ import annotations

import math
from typing import Any

from engine import narrate, underflow
from engine.errors import EngineError
from engine.text import clean_text
from engine.value import Value, topological_order

SCHEMA = 1


def trace_graph(
    output: Value,
    *,
    source: str = "",
    granularity: str = "packed",
    positions: dict[Value, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """Trace the backward pass from `output`; `positions` maps op nodes to (line, column)."""
    positions = positions or {}
    topo = topological_order(output)
    by_creation = sorted(topo, key=lambda node: node._seq)
    ids = {node: f"n{i}" for i, node in enumerate(by_creation)}
    name = narrate.Names()
    for node in topo:
        if not math.isfinite(node.data):
            # Programs are checked as they run; a graph built in Python may not have been.
            raise _error(
                node,
                positions,
                f"{name(node)} is not a finite number ({node.data}); strict JSON has no inf or nan",
            )
        node.grad = 0.0

    frames: list[dict[str, Any]] = []
    for node in by_creation:
        if node._prev:
            frame: dict[str, Any] = {
                "phase": "build",
                "node": ids[node],
                "text": narrate.build_text(node, name),
            }
            if node in positions:
                frame["line"] = positions[node][0]
            frames.append(frame)

    output.grad = 1.0
    frames.append({"phase": "sort", "text": narrate.sort_text(output, len(topo), name)})

    received: dict[Value, int] = {}
    underflowed = {
        node
        for node in topo
        if abs(node.data) < underflow.SMALLEST_NORMAL and underflow.data_underflowed(node)
    }
    for node in reversed(topo):
        tape = _run_rule(node, positions, name)
        contributions = []
        lost: list[Value] = []
        for child, local, delta, before in tape:
            after = before + delta
            if not (math.isfinite(local) and math.isfinite(after)):  # delta is then finite too
                raise _error(
                    node,
                    positions,
                    f"the gradient flowing from {name(node)} into {name(child)} is not a "
                    "finite number; differentiation is exact, floating point is not",
                )
            contribution: dict[str, Any] = {
                "to": ids[child],
                "local": float(local),
                "upstream": float(node.grad),
                "delta": float(delta),
                "before": float(before),
                "after": float(after),
            }
            if (
                abs(delta) < underflow.SMALLEST_NORMAL or abs(local) < underflow.SMALLEST_NORMAL
            ) and underflow.contribution_underflowed(node, child, local, node.grad, delta):
                contribution["underflow"] = True
                lost.append(child)
            contributions.append(contribution)
        text = narrate.backward_text(node, name, tape, received)
        if lost:
            underflowed.add(node)
            text += narrate.underflow_text(lost, name)
        frames.append(
            {"phase": "backward", "node": ids[node], "text": text, "contributions": contributions}
        )

    return {
        "schema": SCHEMA,
        "source": clean_text(source),
        "granularity": granularity,
        "nodes": [_node_dict(node, ids[node], node in underflowed) for node in by_creation],
        "edges": [
            {"source": ids[child], "target": ids[node]}
            for node in by_creation
            for child in node._prev
        ],
        "topo": [ids[node] for node in topo],
        "output": ids[output],
        "frames": frames,
    }


def _run_rule(
    node: Value, positions: dict[Value, tuple[int, int]], name: narrate.Names
) -> list[tuple[Value, float, float, float]]:
    """Call the node's own `_backward`, collecting each `+=` it makes."""
    node._tape = []
    try:
        node._backward()
    except (ArithmeticError, ValueError, TypeError) as error:
        raise _error(
            node,
            positions,
            f"the local derivative of {name(node)} ({node._op}) cannot be computed here "
            f"({_reason(error)}); differentiation is exact, floating point is not",
        ) from None
    finally:
        tape, node._tape = node._tape, None
    return tape


def _reason(error: Exception) -> str:
    """Why a rule failed, in words: `OverflowError(34, '...')` -> 'too large for a float'."""
    if isinstance(error, OverflowError):
        return "the number is too large for a float"
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    return str(error)


def _error(node: Value, positions: dict[Value, tuple[int, int]], message: str) -> EngineError:
    line, column = positions.get(node, (None, None))
    return EngineError(message, line, column)


def _node_dict(node: Value, node_id: str, underflowed: bool = False) -> dict[str, Any]:
    kind = "op" if node._prev else ("const" if node._const else "leaf")
    fields: dict[str, Any] = {
        "id": node_id,
        "label": clean_text(node.label),
        "op": node._op,
        "kind": kind,
        "data": float(node.data),
        "grad": float(node.grad),
    }
    if underflowed:  # only then, so traces without underflow keep SPEC §3's fields
        fields["underflow"] = True
    return fields
