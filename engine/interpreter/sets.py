"""Set algebra on the interpreter's sets (`a | b`, `a & b`, `a - b`, `a ^ b` and the
methods `union`, `intersection`, `difference`, `symmetric_difference`, `issubset`,
`issuperset`, `isdisjoint`), charged by the items walked and bounded in size before the
new set is made. Items keep the order they were first added in (objects.PSet says why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import PSet, ordered_by_hash
from backprop_animator.engine.interpreter.runtime import MAX_ITEMS

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.runtime import State

SET_OPERATORS = {"|": "union", "&": "intersection", "-": "difference", "^": "symmetric_difference"}


def combine(state: State, name: str, left: PSet, right: PSet) -> PSet:
    """`left.name(right)` for one of SET_OPERATORS' names, as a new set."""
    state.charge(len(left) + len(right))
    if name == "union":
        state.check_items(len(left) + len(right))
        result = PSet([*left.items, *right.items])
    elif name == "intersection":
        result = PSet([item for item in left.items if item in right.items])
    elif name == "difference":
        result = PSet([item for item in left.items if item not in right.items])
    else:
        state.check_items(len(left) + len(right))
        result = PSet(
            [
                *(item for item in left.items if item not in right.items),
                *(item for item in right.items if item not in left.items),
            ]
        )
    result.frozen = left.frozen  # `fs | s` is a frozenset, `s | fs` a set, as CPython's
    other = _other(left, name, right)
    if other is not None and left.mirror is not None and not left.entries:
        result.mirror = getattr(left.mirror, name)(other)  # CPython's order
    else:
        result.mirror = result.entries = None  # insertion order
    return result


IN_PLACE = {
    "union": "update",
    "intersection": "intersection_update",
    "difference": "difference_update",
    "symmetric_difference": "symmetric_difference_update",
}


def combine_in_place(state: State, name: str, left: PSet, right: PSet) -> None:
    """`left |= right` and the like: the same set changed, as CPython changes its table.
    `|=`, `-=` and `^=` walk only `right`, as CPython's do (`visited |= {v}` in a loop is
    linear, not quadratic), and leave the items in the order `combine` would give."""
    mirror, other = left.mirror, _other(left, name, right)
    items = left.items
    if name == "intersection":
        left.items = combine(state, name, left, right).items
    else:
        state.charge(len(right))
        given = tuple(right.items) if right is left else right.items
        # (the bound on the size, not `check_items`' charge for the whole of it)
        bounded = len(items) + len(given) <= MAX_ITEMS or name == "difference"
        if not bounded:
            state.check_items(len(items) + len(given))
        if name == "union":
            items.update(dict.fromkeys(given))
        elif name == "difference":
            for item in given:
                items.pop(item, None)
        else:  # symmetric_difference: CPython's own order of walking `right`
            for item in given:
                if item in items:
                    del items[item]
                else:
                    items[item] = None
    if mirror is not None and other is not None and not left.entries:
        getattr(mirror, IN_PLACE[name])(other)
        left.mirror = mirror
    else:
        left.mirror = left.entries = None


def _other(left: PSet, name: str, right: PSet) -> Any:
    """What `left`'s mirror is combined with: `right`'s, or (taking items away only)
    `right`'s items; None when the result is not ordered as CPython's."""
    if right.entries:
        return None
    if right.mirror is not None:
        return right.mirror
    return right.items if name in ("intersection", "difference") else None


def copy(original: PSet) -> PSet:
    """`s.copy()`, `set(s)`: the same items, in CPython's order for a copy."""
    result = PSet(original.items)
    if original.mirror is not None:
        result.mirror = original.mirror.copy()
        if original.entries is not None:
            result.entries = {value: list(same) for value, same in original.entries.items()}
    return result


def orderable(source: Any) -> bool:
    """Whether `source` (a set's mirror, or a list of items) is ordered as CPython's."""
    if source is None:
        return False
    return type(source) is set or all(map(ordered_by_hash, source))


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
