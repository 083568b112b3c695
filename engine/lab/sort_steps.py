"""The depth-first sort as the calls of a recursive `build(v)`: visit, skip, append (SPEC §9).

The article teaches the sort as a recursive function; the engine runs the same walk
with an explicit stack (`engine.value.topological_order`) so that deep chains do not
hit Python's recursion limit. `sort_steps` replays that walk as the recursive
function would make its calls, with their depth, so a learner can watch the call
stack grow and shrink, `visited` fill and `topo` grow. `RECURSIVE_SORT` is the
recursive form the frames follow, shown by the page's code panel.

`append_first=True` is the bug lab's mistake (SPEC §8): the append moves before the
loop over the children, so each node lands in `topo` before its children.

Example: for `a = Value(3.0); b = a + a` ->
`[("visit", b, 0), ("visit", a, 1), ("append", a, 1), ("skip", a, 1), ("append", b, 0)]`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from backprop_animator.engine.trace.narrate import Names
from backprop_animator.engine.value import Value

Step = tuple[Literal["visit", "skip", "append"], Value, int]

# The recursive sort the frames follow, line by line: `visit` is the `visited.add`,
# `skip` the early return, `append` the last line.
RECURSIVE_SORT = """\
def build(v):
    if v in visited:
        return              # skip: already placed, or on its way
    visited.add(v)          # visit
    for child in v._prev:   # children in operand order
        build(child)
    topo.append(v)          # append: every child is already in topo
"""

# The `append-first` mistake: the same function with the append moved up.
RECURSIVE_SORT_APPEND_FIRST = """\
def build(v):
    if v in visited:
        return
    visited.add(v)
    topo.append(v)          # MISTAKE: appended before its children
    for child in v._prev:
        build(child)
"""


def sort_steps(
    root: Value, *, append_first: bool = False, order: Callable[[Value], int] | None = None
) -> list[Step]:
    """Every call `build(root)` makes, in order, as (step, node, depth); the root is depth 0.

    Children are visited in operand order (`_prev`), or sorted by `order` when given (a
    learner's own sort that takes them otherwise), so there are `len(nodes)` visits
    and appends and `1 + len(edges) - len(nodes)` skips. Without `append_first` and
    `order` the appends are exactly `topological_order(root)`.
    """
    if order is not None:
        children = {node: sorted(node._prev, key=order) for node in _reached(root)}
        return _walk(root, append_first, children.__getitem__)
    return _walk(root, append_first, _operands)


def _operands(node: Value) -> Sequence[Value]:
    return node._prev


def _reached(root: Value) -> list[Value]:
    """Every node `root` reaches, itself first."""
    seen = {root}
    todo = [root]
    for node in todo:
        for child in node._prev:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return todo


def _walk(
    root: Value, append_first: bool, children: Callable[[Value], Sequence[Value]]
) -> list[Step]:
    steps: list[Step] = [("visit", root, 0)]
    if append_first:
        steps.append(("append", root, 0))
    visited = {root}
    # One entry per open call: the node and the index of its next child.
    stack: list[tuple[Value, int]] = [(root, 0)]
    while stack:
        node, i = stack[-1]
        operands = children(node)
        if i < len(operands):
            stack[-1] = (node, i + 1)
            child = operands[i]
            depth = len(stack)
            if child in visited:
                steps.append(("skip", child, depth))
                continue
            visited.add(child)
            steps.append(("visit", child, depth))
            if append_first:
                steps.append(("append", child, depth))
            stack.append((child, 0))
        else:
            stack.pop()
            if not append_first:
                steps.append(("append", node, len(stack)))
    return steps


def appended(steps: list[Step]) -> list[Value]:
    """The `topo` list the steps build: the nodes of the append steps, in order."""
    return [node for step, node, _ in steps if step == "append"]


def step_frames(
    steps: list[Step], ids: Mapping[Value, Any], name: Names, *, append_first: bool = False
) -> list[dict[str, Any]]:
    """The frames of the steps (without the seed): `{"phase": "sort", "step", "node",
    "depth", "text"}`, in order; `node` is `ids[node]`."""
    total = sum(1 for step, _, _ in steps if step == "append")
    placed = 0
    frames: list[dict[str, Any]] = []
    for step, node, depth in steps:
        if step == "visit":
            count = len(node._prev)
            then = (
                "it has no children to build"
                if count == 0
                else f"then build its {count} {'child' if count == 1 else 'children'} in order"
            )
            text = f"build({name(node)}) at depth {depth}: not visited yet. Mark it; {then}."
        elif step == "skip":
            text = f"build({name(node)}) at depth {depth}: already visited, so it returns at once."
        else:
            placed += 1
            where = f"it is number {placed} of {total}"
            if append_first:
                text = f"topo.append({name(node)}) before its children are built: {where}."
            else:
                text = f"topo.append({name(node)}): its children are all in topo; {where}."
        frames.append(
            {"phase": "sort", "step": step, "node": ids[node], "depth": depth, "text": text}
        )
    return frames
