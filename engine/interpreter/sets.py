"""Set algebra on the interpreter's sets (`a | b`, `a & b`, `a - b`, `a ^ b` and the
methods `union`, `intersection`, `difference`, `symmetric_difference`, `issubset`,
`issuperset`, `isdisjoint`), charged by the items walked and bounded in size before the
new set is made. Items keep the order they were first added in (objects.PSet says why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import PSet

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.runtime import State

SET_OPERATORS = {"|": "union", "&": "intersection", "-": "difference", "^": "symmetric_difference"}


def combine(state: State, name: str, left: PSet, right: PSet) -> PSet:
    """`left.name(right)` for one of SET_OPERATORS' names, as a new set."""
    state.charge(len(left) + len(right))
    if name == "union":
        state.check_items(len(left) + len(right))
        return PSet([*left.items, *right.items])
    if name == "intersection":
        return PSet([item for item in left.items if item in right.items])
    if name == "difference":
        return PSet([item for item in left.items if item not in right.items])
    state.check_items(len(left) + len(right))
    return PSet(
        [
            *(item for item in left.items if item not in right.items),
            *(item for item in right.items if item not in left.items),
        ]
    )


def compare(state: State, name: str, left: PSet, right: PSet) -> bool:
    """`issubset`, `issuperset` or `isdisjoint`."""
    state.charge(len(left) + len(right))
    if name == "issubset":
        return all(item in right.items for item in left.items)
    if name == "issuperset":
        return all(item in left.items for item in right.items)
    return not any(item in right.items for item in left.items)


def operator_result(state: State, op: str, left: Any, right: Any) -> PSet | None:
    """`a | b` and the like when both are sets, else None (the caller refuses)."""
    if type(left) is PSet and type(right) is PSet and op in SET_OPERATORS:
        return combine(state, SET_OPERATORS[op], left, right)
    return None
