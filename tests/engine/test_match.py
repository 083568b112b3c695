"""`match` statements (SPEC §15): every kind of pattern against CPython, and bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import printed_lines, run_in_cpython

PASS = "\nv = Value(1.0)\nw = v * 2\nw.backward()\n"
PROGRAM = (Path(__file__).parent / "real_code" / "match_patterns.py").read_text()


def test_every_kind_of_pattern_matches_as_in_cpython() -> None:
    ours = printed_lines(trace_source(PROGRAM, limits=Limits(time_limit=30.0)))
    assert ours == run_in_cpython(PROGRAM)
    assert len(ours) == 27


def test_a_pattern_binds_in_the_enclosing_scope_and_a_guard_sees_it() -> None:
    source = (
        "def f(x):\n    match x:\n        case [a, b] if a < b:\n            return a\n"
        "        case [a, *_]:\n            return -a\n    return None\n"
        "print(f([1, 2]), f([3, 2]), f([]))\n"
    )
    assert printed_lines(trace_source(source + PASS)) == run_in_cpython(source)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        # A guard that never ends is a program that never ends.
        (
            "def spin():\n    while True:\n        pass\n"
            "match 1:\n    case n if spin():\n        pass\n",
            "BACKPROP",
        ),
        # A sequence pattern against a big list is charged by its length.
        (
            "x = [0] * 500_000\nfor i in range(1000):\n    match x:\n"
            "        case [*rest]:\n            pass\n",
            "BACKPROP_MAX_STEPS",
        ),
        # CPython's TypeError, with CPython's words.
        ("match 5:\n    case int(a, b):\n        pass\n", "accepts 1 positional sub-pattern"),
    ],
    ids=["endless-guard", "huge-sequence", "too-many-sub-patterns"],
)
def test_hostile_matches_end_cleanly(body: str, message: str) -> None:
    with pytest.raises(EngineError, match=message) as caught:
        trace_source(body + PASS, limits=Limits(time_limit=1.0, max_steps=200_000))
    assert caught.value.line is not None


def test_a_mapping_rest_is_charged_by_the_dict_it_copies() -> None:
    body = (
        "d = dict(zip(range(100_000), range(100_000)))\nfor i in range(1000):\n"
        "    match d:\n        case {0: 0, **rest}:\n            pass\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        trace_source(body + PASS, limits=Limits(time_limit=30.0, max_steps=500_000))
