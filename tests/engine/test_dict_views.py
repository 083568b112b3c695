"""A dict's `keys()`, `values()` and `items()` are CPython's own views (SPEC §15): live
(they see the dict change), `k in d.keys()` a hash lookup (a learner's
`if v not in visited.keys()` sort stays linear), the keys and items views set-like (`==`
with a set, `<=`, `&`, `|`, `-`, `^`, `isdisjoint`), `reversed`, CPython's repr, type
names and errors (not subscriptable, unhashable, not JSON, not copyable, a dict changed
while its view is walked). They were lists copied at each call."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.test_cpython_errors import TAIL, assert_as_cpython, caught

PRELUDE = """
import copy, json
d = {'a': 1, 'b': 2}
k = d.keys(); v = d.values(); it = d.items()
"""

STATEMENTS = [
    (
        "print(k, v, it, len(k), bool({}.keys()), 'a' in k, 1 in v, ('a', 1) in it, "
        "('a', 2) in it, [1] in it)"
    ),
    "d['c'] = 3; print(k, list(v), sorted(it))",
    (
        "print(k == {'a', 'b', 'c'}, k == ['a', 'b', 'c'], v == v, v == d.values(), "
        "it == {('a', 1), ('b', 2), ('c', 3)}, k != {'a'})"
    ),
    (
        "print(k & {'a', 'z'}, sorted(k | {'z'}), k - {'a'}, sorted(k ^ {'a', 'q'}), "
        "{'a'} & k, ['b'] & k, it & {('a', 1)})"
    ),
    (
        "print(type(k).__name__, type(v).__name__, type(it).__name__, isinstance(k, "
        "list), list(reversed(k)), list(reversed(it)))"
    ),
    (
        "print(max(v), sum(v), sorted(k, reverse=True), tuple(it), set(k) == {'a', 'b', "
        "'c'}, dict(it))"
    ),
    ("print({x: y for x, y in d.items()}, [x for x in d.values() if x > 1], k.isdisjoint({'q'}))"),
    "hash(k)",
    "k[0]",
    "json.dumps(d.keys())",
    "copy.copy(d.keys())",
    "{[1]: 2}.keys()",
    "{1: [2]}.items() & {1}",
    "d.keys().append(1)",
    "e = {}; e['x'] = e; print(e.values(), e.items())",
    'print(f"{k}", str(v), repr(it), [k], {1: it})',
    "print(k < {'a', 'b', 'c', 'd'}, k <= {'a', 'b', 'c'}, k > {'a'})",
    "print(len(d.items()), next(iter(d.items())), list(zip(d.keys(), d.values())))",
    (
        "print(k < {'a', 'b', 'c', 'd'}, k <= {'a', 'b'}, k > {'a'}, k >= k, "
        "it <= {('a', 1), ('b', 2)})"
    ),
    "print(list(reversed(k)), list(reversed(v)), list(reversed(it)))",
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_a_dicts_view_does_what_cpythons_does(statement: str) -> None:
    assert_as_cpython(caught(statement, PRELUDE))


def test_membership_in_a_keys_view_is_a_hash_lookup() -> None:
    """A sort that asks `v not in visited.keys()` of 3,000 nodes runs within the default
    step limit: each question is one step, not one per key (as when a view was a list)."""
    source = """
visited = {}
order = []
for v in range(3000):
    if v not in visited.keys():
        visited[v] = True
        order.append(v)
    for w in (v - 1, v - 2):
        if w >= 0 and w not in visited.keys():
            order.append(w)
print(len(order), len(visited.keys()))
"""
    assert_as_cpython(source)


def test_a_view_walked_while_its_dict_grows_is_cpythons_runtime_error() -> None:
    with pytest.raises(EngineError, match="dictionary changed size during iteration"):
        trace_source("d = {1: 1}\nfor key in d.keys():\n    d[key + 1] = 0\n" + TAIL)
