"""Gradient check: the engine's gradients against difference quotients over a sweep of h.

SPEC §7, after the article's opening: for f(x) = 3x² − 4x + 5 at x = 3 the forward
difference with h = 0.001 gives 14.003 against the analytic 14, and as h shrinks from
0.1 to 1e-14 the error first falls (the truncation error of the formula) and then
rises again (floating point loses the digits of f(x + h) − f(x)).

For each leaf (`kind: leaf`, in node-id order) only that leaf's data is moved by ±h,
and the forward pass is recomputed by evaluating every node in topological order with
its primitive's plain-number function (`engine.ops.NUMBER_FUNCTIONS`, the same
arithmetic as the `Value` methods). The analytic gradient is the engine's own, or a
mistaken engine's (`mistake`), so a check of a bug-lab engine shows where it disagrees.
The work (leaves × h values × nodes) is bounded by `Limits.max_gradcheck_work`.

Example: `gradcheck_source("x = Value(3.0); f = 3*x**2 - 4*x + 5", h=[0.001])` ->
`{"output": "n10", "checks": [{"node": "n0", "label": "x", "analytic": 14.0,
"rows": [{"h": 0.001, "numeric": 14.00300000000243, "error": 0.00300000000243017}]}]}`.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence
from typing import Any

from backprop_animator.engine.errors import EngineError, arithmetic_reason, rule_failure
from backprop_animator.engine.lab.mistakes import backward_order, check_mistake, overwrite
from backprop_animator.engine.lab.program_gradcheck import gradcheck_program, no_such_pass
from backprop_animator.engine.limits import Limits, deadline
from backprop_animator.engine.ops import NUMBER_FUNCTIONS
from backprop_animator.engine.parse import first_real_statement, parse_program
from backprop_animator.engine.run import build_straight_line
from backprop_animator.engine.trace.narrate import Names, fmt
from backprop_animator.engine.trace.text import clean_text
from backprop_animator.engine.value import Value, topological_order

SCHEMES = ("forward", "central")
DEFAULT_H = tuple(10.0**-k for k in range(1, 15))  # 0.1, 0.01, ..., 1e-14
MAX_H_VALUES = 64
COMPLEX = "a negative number to a fractional power is complex"


def gradcheck_source(
    source: str,
    granularity: str = "packed",
    limits: Limits | None = None,
    *,
    scheme: str = "forward",
    h: Sequence[float] | None = None,
    leaves: Sequence[str] | None = None,
    mistake: str | None = None,
    pass_index: int = 0,
    tree: ast.Module | None = None,
) -> dict[str, Any]:
    """Check a program's leaf gradients against difference quotients (SPEC §7, §13).

    `scheme` is `forward` ((f(x+h) − f(x))/h) or `central` ((f(x+h) − f(x−h))/2h);
    `h` defaults to `DEFAULT_H`; `leaves` restricts the check to leaves with these
    labels (or ids). A real program (functions, loops, classes, several passes, a
    learner's own engine) is checked at its backward pass `pass_index` by running it
    again with each leaf moved (`engine.lab.program_gradcheck`). Raises `EngineError` for a
    bad program, bad options, work over the limit, or a difference quotient that is not
    a finite number.
    """
    limits = limits or Limits()
    steps = _check_options(scheme, h, mistake)
    if isinstance(pass_index, bool) or not isinstance(pass_index, int) or pass_index < 0:
        raise EngineError(f"pass must be a backward pass's index (0, 1, …), not {pass_index!r}")
    with deadline(limits):
        tree = parse_program(source, granularity, limits, tree)
        real = first_real_statement(tree)
        if real is None:  # a straight-line program has one pass
            if pass_index != 0:
                raise no_such_pass(1, pass_index)
            return _gradcheck_source(tree, source, granularity, limits, scheme, h, leaves, mistake)
        return gradcheck_program(
            tree,
            source,
            granularity,
            limits,
            scheme=scheme,
            steps=steps,
            leaves=leaves,
            pass_index=pass_index,
            mistake=mistake,
        )


def _gradcheck_source(
    tree: ast.Module,
    source: str,
    granularity: str,
    limits: Limits,
    scheme: str,
    h: Sequence[float] | None,
    leaves: Sequence[str] | None,
    mistake: str | None,
) -> dict[str, Any]:
    output, positions = build_straight_line(tree, source, granularity, limits)
    return gradcheck_graph(
        output,
        limits,
        positions=positions,
        scheme=scheme,
        h=h,
        leaves=leaves,
        mistake=mistake,
    )


def gradcheck_graph(
    output: Value,
    limits: Limits | None = None,
    *,
    positions: dict[Value, tuple[int, int]] | None = None,
    scheme: str = "forward",
    h: Sequence[float] | None = None,
    leaves: Sequence[str] | None = None,
    mistake: str | None = None,
) -> dict[str, Any]:
    """The same check for a graph built in Python with `engine.Value` (its gradients are
    reset and recomputed, as `trace_value` does); `positions`: where each op node was
    made (`engine.run.build_straight_line`)."""
    limits = limits or Limits()
    positions = positions or {}
    steps = _check_options(scheme, h, mistake)
    topo, order = backward_order(output, mistake)
    by_creation = sorted(topo, key=lambda node: node._seq)
    # The trace's ids, labels and kinds (its gradients are filled in below).
    nodes = [_node_entry(node, f"n{i}") for i, node in enumerate(by_creation)]
    checked = _leaves_to_check(nodes, leaves)
    work = len(checked) * len(steps) * len(by_creation)
    if work > limits.max_gradcheck_work:
        raise limits.exceeded(
            "max_gradcheck_work",
            f"this check would evaluate {work:,} nodes ({len(checked):,} leaves × "
            f"{len(steps)} h values × {len(by_creation):,} nodes); check fewer leaves "
            "or h values",
        )
    _run_backward(output, topo, order, positions, mistake)
    forward = _Forward(output, positions)
    checks = []
    for index in checked:
        node, leaf = nodes[index], by_creation[index]
        analytic = float(leaf.grad)
        rows = []
        for step in steps:
            numeric = forward.difference(leaf, step, scheme)
            error = abs(numeric - analytic)
            if not math.isfinite(error):
                raise EngineError(
                    f"at h = {step!r} the error of {_name(node)} is not a finite number"
                )
            rows.append({"h": step, "numeric": numeric, "error": error})
        checks.append(
            {"node": node["id"], "label": node["label"], "analytic": analytic, "rows": rows}
        )
    return {"output": nodes[by_creation.index(output)]["id"], "checks": checks}


def _run_backward(
    output: Value,
    topo: list[Value],
    order: list[Value],
    positions: dict[Value, tuple[int, int]],
    mistake: str | None,
) -> None:
    """The backward pass of the right engine or a mistaken one, as the recorder runs it
    but without its frames and words: the check needs only the gradients.

    Refuses what the trace refuses: data or a gradient that is not a finite number.
    """
    names = Names()
    for node in topo:
        if not math.isfinite(node.data):
            raise EngineError(f"{names(node)} is not a finite number ({node.data})")
        node.grad = 0.0
    output.grad = 1.0
    for node in order:
        if mistake == "assign":
            for child, _, delta, _ in overwrite(_run_rule(node, positions, names)):
                if not math.isfinite(delta):
                    raise _not_finite(names(node), names(child), positions.get(node))
        else:
            _call_rule(node, positions, names)
    for node in topo:
        if not math.isfinite(node.grad):
            raise _not_finite(None, names(node), positions.get(node))


def _node_entry(node: Value, node_id: str) -> dict[str, Any]:
    """What the check says of a node: its id, label and kind, as the trace gives them."""
    label = node.label
    return {
        "id": node_id,
        "label": clean_text(label) if label else label,
        "kind": "op" if node._prev else ("const" if node._const else "leaf"),
    }


def _run_rule(
    node: Value, positions: dict[Value, tuple[int, int]], name: Names
) -> list[tuple[Value, float, float, float]]:
    """Call the node's own `_backward`, collecting each `+=` it makes."""
    node._tape = []
    try:
        _call_rule(node, positions, name)
    finally:
        tape, node._tape = node._tape, None
    return tape


def _call_rule(node: Value, positions: dict[Value, tuple[int, int]], name: Names) -> None:
    """Call the node's own `_backward`; a failure is the user's error, with its place."""
    try:
        node._backward()
    except (ArithmeticError, ValueError, TypeError) as error:
        line, column = positions.get(node, (None, None))
        raise EngineError(rule_failure(name(node), node._op, error), line, column) from None


def _not_finite(parent: str | None, child: str, position: tuple[int, int] | None) -> EngineError:
    line, column = position or (None, None)
    where = f"flowing from {parent} into {child}" if parent else f"of {child}"
    return EngineError(
        f"the gradient {where} is not a finite number; differentiation is exact, "
        "floating point is not",
        line,
        column,
    )


def _check_options(
    scheme: str, h: Sequence[float] | None, mistake: str | None
) -> tuple[float, ...]:
    if scheme not in SCHEMES:
        raise EngineError(f"scheme must be 'forward' or 'central', not {scheme!r}")
    check_mistake(mistake)
    steps = DEFAULT_H if h is None else tuple(h)
    if not steps:
        raise EngineError("h must list at least one step size")
    if len(steps) > MAX_H_VALUES:
        raise EngineError(f"h lists {len(steps):,} step sizes; at most {MAX_H_VALUES} are allowed")
    for step in steps:
        if isinstance(step, bool) or not isinstance(step, int | float):
            raise EngineError(f"every h must be a number, not {step!r}")
        if not (math.isfinite(step) and step > 0):
            raise EngineError(f"every h must be a positive finite number, not {step!r}")
    return tuple(float(step) for step in steps)


def _leaves_to_check(nodes: list[dict[str, Any]], wanted: Sequence[str] | None) -> list[int]:
    """Indices (in node-id order) of the leaves to check: all, or those named by label/id."""
    leaves = [i for i, node in enumerate(nodes) if node["kind"] == "leaf"]
    if wanted is None:
        return leaves
    names = set()
    for name in wanted:
        if not isinstance(name, str):
            raise EngineError(f"leaves must be labels, not {name!r}")
        names.add(name)
    known = {nodes[i]["label"] for i in leaves} | {nodes[i]["id"] for i in leaves}
    unknown = sorted(names - known)
    if unknown:
        listed = ", ".join(repr(name) for name in unknown[:5])
        raise EngineError(
            f"no leaf is labelled {listed}; the leaves are "
            + (", ".join(repr(nodes[i]["label"] or nodes[i]["id"]) for i in leaves) or "none")
        )
    return [i for i in leaves if nodes[i]["label"] in names or nodes[i]["id"] in names]


def _name(node: dict[str, Any]) -> str:
    return repr(node["label"]) if node["label"] else f"leaf {node['id']}"


class _Forward:
    """The forward pass as plain numbers, re-run with one leaf moved.

    Nodes are evaluated in topological order from a flat list of (index, function,
    operand indices), so one evaluation is a single loop over the graph; the unmoved
    output f(x), which every forward difference needs, is computed once.
    """

    def __init__(self, output: Value, positions: dict[Value, tuple[int, int]]) -> None:
        self.topo = topological_order(output)
        self.positions = positions
        self.index = {node: i for i, node in enumerate(self.topo)}
        self.base = [float(node.data) for node in self.topo]
        self.program: list[tuple[int, Callable[..., float], int, int]] = []
        for i, node in enumerate(self.topo):
            if node._prev:
                operands = [self.index[child] for child in node._prev]
                second = operands[1] if len(operands) > 1 else -1
                self.program.append((i, _plain_function(node), operands[0], second))
        self.names = Names()
        self._unmoved: float | None = None

    def difference(self, leaf: Value, h: float, scheme: str) -> float:
        x = float(leaf.data)
        if scheme == "central":
            numeric = (self.value(leaf, x + h, h) - self.value(leaf, x - h, -h)) / (2 * h)
        else:
            if self._unmoved is None:
                self._unmoved = self.value(leaf, x, 0.0)
            numeric = (self.value(leaf, x + h, h) - self._unmoved) / h
        if not math.isfinite(numeric):
            advice = "smaller" if h >= 1 else "larger"
            raise EngineError(
                f"at h = {h!r} the difference quotient for {self._leaf_name(leaf)} is not a "
                f"finite number; floating point cannot hold it (try {advice} h values)"
            )
        return numeric

    def value(self, leaf: Value, data: float, moved_by: float) -> float:
        """The output's data when `leaf` holds `data` and everything is recomputed."""
        values = self.base.copy()
        values[self.index[leaf]] = data
        i = 0
        try:
            for i, function, a, b in self.program:
                values[i] = function(values[a]) if b < 0 else function(values[a], values[b])
        except (ArithmeticError, ValueError) as error:
            raise self._failure(leaf, moved_by, self.topo[i], error) from None
        return values[-1]

    def _failure(self, leaf: Value, moved_by: float, node: Value, error: Exception) -> EngineError:
        line, column = self.positions.get(node, (None, None))
        reason = _reason(error)
        how = f"moving {self._leaf_name(leaf)} by {fmt(moved_by)}"
        return EngineError(
            f"{how} makes {self.names(node)} ({node._op}) fail ({reason}); "
            "try smaller h values or check fewer leaves",
            line,
            column,
        )

    def _leaf_name(self, leaf: Value) -> str:
        return repr(leaf.label) if leaf.label else "an unnamed leaf"


def _reason(error: Exception) -> str:
    """Why a plain-number function failed, in words rather than the C library's."""
    if isinstance(error, ValueError) and str(error) == COMPLEX:
        return COMPLEX
    return arithmetic_reason(
        error, number="the number", domain="the number is outside the function's domain"
    )


def _plain_function(node: Value) -> Callable[..., float]:
    if node._op.startswith("**"):
        k = float(node._op[2:])

        def power(x: float) -> float:
            result = x**k
            if isinstance(result, complex):  # a negative base to a fractional power
                raise ValueError(COMPLEX)
            return float(result)

        return power
    function = NUMBER_FUNCTIONS.get(node._op)  # `**k` is made per node
    if function is None:
        raise EngineError(f"the gradient check cannot recompute a {node._op!r} node")
    return function
