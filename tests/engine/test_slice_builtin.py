"""`slice` (SPEC §15, real code as people write it): a class's `__getitem__` that takes
`xs[1:3]` is given a slice and asks `isinstance(k, slice)`, reads `k.start`, `k.stop`,
`k.step`, `k.indices(n)`; `slice(a, b)` indexes as `[a:b]`. A step of 0 and an extended
slice given the wrong number of items are CPython's catchable ValueErrors."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.test_cpython_errors import TAIL, assert_as_cpython, caught

PROGRAMS = [
    "class S:\n    def __getitem__(self, k):\n        if isinstance(k, slice):\n"
    "            return (k.start, k.stop, k.step, k.indices(10))\n        return k\n"
    "print(S()[1:5], S()[::2], S()[3], repr(slice(1, 2)))",
    "s = slice(1, 10, 2)\n"
    "print(type(s).__name__, type(s) is slice, isinstance(s, slice), s.indices(5))\n"
    "print(str(s), [s], slice(None), slice(2), s == slice(1, 10, 2))\n"
    "d = list(range(10))\nd[slice(0, 3)] = ['a']\ndel d[slice(0, 2)]\n"
    "print(d, 'abcd'[slice(None, None, -1)])",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_slice_objects_as_cpythons(program: str) -> None:
    assert_as_cpython(program)


ERRORS = [
    "hash(slice(1))",
    "{slice(1): 2}",
    "slice(1).indices(-1)",
    "slice(1).indices(1.5)",
    "[1, 2][slice(None, None, 0)]",
    "[1, 2][::0]",
    "x = [1, 2, 3, 4]; x[::2] = [1, 2, 3]",
    "x = [1, 2]; del x[::0]",
    "x = [1, 2]; x[::0] = []",
    "slice()",
    "slice(1, 2, 3, 4)",
]


@pytest.mark.parametrize("statement", ERRORS)
def test_slice_errors_are_cpythons_and_catchable(statement: str) -> None:
    assert_as_cpython(caught(statement, ""))


def test_a_slice_of_anything_but_integers_is_refused_and_a_huge_one_is_bounded() -> None:
    with pytest.raises(EngineError, match="integers or None"):
        trace_source("s = slice('a', 2)\n" + TAIL)
    with pytest.raises(EngineError, match="1,000,000"):
        trace_source("x = list(range(10**6))\ny = x[slice(0, 10**30)] + x\n" + TAIL)
