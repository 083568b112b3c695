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
from operator import attrgetter
from typing import Any

from backprop_animator.engine import mistake_text, mistakes, narrate, ops, underflow
from backprop_animator.engine.errors import EngineError, rule_failure
from backprop_animator.engine.sort_steps import sort_steps as sort_steps_of
from backprop_animator.engine.sort_steps import step_frames
from backprop_animator.engine.text import clean_text
from backprop_animator.engine.value import Value, no_rule, topological_order

SCHEMA = 1
_SEQ = attrgetter("_seq")  # creation order


def trace_graph(
    output: Value,
    *,
    source: str = "",
    granularity: str = "packed",
    positions: dict[Value, tuple[int, int]] | None = None,
    mistake: str | None = None,
    sort_steps: bool = False,
) -> dict[str, Any]:
    """Trace the backward pass from `output`; `positions` maps op nodes to (line, column).

    `mistake` runs one of the bug lab's mistaken engines instead (`engine.mistakes`);
    `sort_steps` replaces the sort frame by the recursive sort's calls (`engine.sort_steps`).
    """
    positions = positions or {}
    topo, order = mistakes.backward_order(output, mistake)
    by_creation = sorted(topo, key=_SEQ)
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
    correct = None
    if mistake is not None:
        right_order = topo if mistake == "assign" else topological_order(output)
        correct = mistakes.correct_grads(
            output, right_order, lambda node: call_rule(node, positions, name)
        )
        for node, grad in correct.items():
            if not math.isfinite(grad):
                raise _error(
                    node,
                    positions,
                    f"the right engine's gradient of {name(node)} is not a finite number; "
                    "differentiation is exact, floating point is not",
                )

    frames: list[dict[str, Any]] = []
    build_text = narrate.build_text
    position_of = positions.get
    for node in by_creation:
        if node._prev:
            frame: dict[str, Any] = {
                "phase": "build",
                "node": ids[node],
                "text": build_text(node, name),
            }
            position = position_of(node)
            if position is not None:
                frame["line"] = position[0]
            frames.append(frame)

    output.grad = 1.0
    if mistake is None:
        sort_text = narrate.sort_text(output, len(topo), name)
    else:
        sort_text = mistake_text.sort_text(output, len(topo), name, mistake)
    if not sort_steps:
        frames.append({"phase": "sort", "text": sort_text})
    else:
        if mistake != "no-sort":
            steps = sort_steps_of(output, append_first=mistake == "append-first")
            frames += step_frames(steps, ids, name, append_first=mistake == "append-first")
        frames.append({"phase": "sort", "step": "seed", "text": sort_text})

    received: dict[Value, int] = {}
    smallest = underflow.SMALLEST_NORMAL
    data_underflowed = underflow.data_underflowed
    # `-smallest < x < smallest` is `abs(x) < smallest` without a call, for every node.
    underflowed = {
        node for node in topo if -smallest < node.data < smallest and data_underflowed(node)
    }
    runs: list[mistake_text.Run] = []
    isfinite = math.isfinite
    leaf_rule = no_rule
    for node in order:
        upstream = node.grad
        if mistake is None and not node._prev and node._backward is leaf_rule:
            # A leaf of this engine: its rule does nothing, so there is nothing to watch.
            frames.append(
                {
                    "phase": "backward",
                    "node": ids[node],
                    "text": narrate.leaf_text(node, name),
                    "contributions": [],
                }
            )
            continue
        # `run_rule`, written out: this runs once per op node of every trace.
        tape = node._tape = []
        try:
            node._backward()
        except (ArithmeticError, ValueError, TypeError) as error:
            raise _rule_error(node, positions, name, error) from None
        finally:
            node._tape = None
        if mistake == "assign":
            tape = mistakes.overwrite(tape)
        if mistake is not None:
            runs.append(mistake_text.Run(node, upstream, tape))
        contributions = []
        lost: list[Value] = []
        upstream_float = float(upstream) if tape else 0.0
        for child, local, delta, before in tape:
            after = delta if mistake == "assign" else before + delta
            if not (isfinite(local) and isfinite(after)):  # delta is then finite too
                raise _error(
                    node,
                    positions,
                    f"the gradient flowing from {name(node)} into {name(child)} is not a "
                    "finite number; differentiation is exact, floating point is not",
                )
            contribution: dict[str, Any] = {
                "to": ids[child],
                "local": float(local),
                "upstream": upstream_float,
                "delta": float(delta),
                "before": float(before),
                "after": float(after),
            }
            if (-smallest < delta < smallest or -smallest < local < smallest) and (
                underflow.contribution_underflowed(node, child, local, upstream, delta)
            ):
                contribution["underflow"] = True
                lost.append(child)
            contributions.append(contribution)
        # A mistaken engine's words come from its story, once the whole pass is known.
        text = "" if mistake else narrate.backward_text(node, name, tape, received)
        if lost:
            underflowed.add(node)
            text += narrate.underflow_text(lost, name)
        frames.append(
            {"phase": "backward", "node": ids[node], "text": text, "contributions": contributions}
        )
    if mistake is not None and correct is not None:
        story = mistake_text.Story(mistake, runs, correct, name, output)
        backward_frames = frames[len(frames) - len(runs) :]
        for frame, text in zip(backward_frames, story.texts(), strict=True):
            frame["text"] = text + frame["text"]  # the underflow note, if any

    trace: dict[str, Any] = {
        "schema": SCHEMA,
        "source": clean_text(source),
        "granularity": granularity,
        "nodes": _node_dicts(by_creation, ids, underflowed, correct, name),
        "edges": [
            {"source": ids[child], "target": ids[node]}
            for node in by_creation
            for child in node._prev
        ],
        "topo": [ids[node] for node in topo],
        "output": ids[output],
        "frames": frames,
        "ops": ops.page_facts({node._op for node in by_creation if node._prev}),
    }
    if mistake is not None:
        trace["mistake"] = mistake
    return trace


def run_rule(
    node: Value, positions: dict[Value, tuple[int, int]], name: narrate.Names
) -> list[tuple[Value, float, float, float]]:
    """Call the node's own `_backward`, collecting each `+=` it makes."""
    node._tape = []
    try:
        call_rule(node, positions, name)
    finally:
        tape, node._tape = node._tape, None
    return tape


def call_rule(node: Value, positions: dict[Value, tuple[int, int]], name: narrate.Names) -> None:
    """Call the node's own `_backward`; a failure is the user's error, with its place."""
    try:
        node._backward()
    except (ArithmeticError, ValueError, TypeError) as error:
        raise _rule_error(node, positions, name, error) from None


def _rule_error(
    node: Value, positions: dict[Value, tuple[int, int]], name: narrate.Names, error: Exception
) -> EngineError:
    return _error(node, positions, rule_failure(name(node), node._op, error))


def _error(node: Value, positions: dict[Value, tuple[int, int]], message: str) -> EngineError:
    line, column = positions.get(node, (None, None))
    return EngineError(message, line, column)


def _node_dicts(
    by_creation: list[Value],
    ids: dict[Value, str],
    underflowed: set[Value],
    correct: dict[Value, float] | None,
    name: narrate.Names,
) -> list[dict[str, Any]]:
    """`node_dict` of every node, with what it calls each node; one loop, as this runs
    once per node of every trace."""
    if correct is not None or underflowed:
        return [
            node_dict(node, ids[node], node in underflowed, correct, name=name(node))
            for node in by_creation
        ]
    names = name._names
    return [
        {
            "id": ids[node],
            "label": clean_text(node.label) if node.label else node.label,
            "name": names.get(node) or name(node),
            "op": node._op,
            "kind": "op" if node._prev else ("const" if node._const else "leaf"),
            "data": float(node.data),
            "grad": float(node.grad),
        }
        for node in by_creation
    ]


def node_dict(
    node: Value,
    node_id: str,
    underflowed: bool = False,
    correct: dict[Value, float] | None = None,
    *,
    name: str | None = None,
) -> dict[str, Any]:
    """A node as the trace lists it; `name` (what the texts call it) when given."""
    kind = "op" if node._prev else ("const" if node._const else "leaf")
    label = node.label
    fields: dict[str, Any] = {
        "id": node_id,
        "label": clean_text(label) if label else label,
        "name": name,
        "op": node._op,
        "kind": kind,
        "data": float(node.data),
        "grad": float(node.grad),
    }
    if name is None:
        del fields["name"]
    if underflowed:  # only then, so traces without underflow keep SPEC §3's fields
        fields["underflow"] = True
    if correct is not None:
        # A mistaken engine's trace: the gradient the right engine gives, to compare.
        fields["correct_grad"] = float(correct[node])
    return fields
