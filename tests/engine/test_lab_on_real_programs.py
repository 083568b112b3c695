"""The lab's instruments (SPEC §7-9) need a straight-line program; a real program (§11)
is refused with a sentence that says why, never traced with the option silently lost."""

from __future__ import annotations

import ast

import pytest

from backprop_animator.engine import EngineError, gradcheck_source, trace_source
from backprop_animator.engine.parse import first_real_statement, is_straight_line

LOOP = "a = Value(2.0)\nfor i in range(3):\n    a = a * 2\na.backward()\n"
TWO_PASSES = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + a\nc.backward()\nc.backward()\n"
# Where each program stops being a straight line: (line, column), 1-based, in characters.
FIRST_REAL = [
    (LOOP, (2, 1)),  # the loop
    (TWO_PASSES, (5, 1)),  # the second backward() call
    ("a = Value(2.0)\nb = a * a\ndef f(x):\n    return x\n", (3, 1)),  # a function
    ("a = Value(2.0)\nb = a * a; c = b.data * 2\n", (2, 12)),  # reading .data, after a ;
    ("é = Value(2.0); ö = é.data\n", (1, 17)),  # a character column, not a byte offset
]


@pytest.mark.parametrize("source", [LOOP, TWO_PASSES])
@pytest.mark.parametrize(
    "options", [{"mistake": "assign"}, {"mistake": "no-sort"}, {"sort_steps": True}]
)
def test_the_bug_lab_and_sort_steps_refuse_a_real_program(
    source: str, options: dict[str, object]
) -> None:
    with pytest.raises(EngineError, match="straight-line programs"):
        trace_source(source, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("source", [LOOP, TWO_PASSES])
def test_a_gradient_check_of_a_mistaken_engine_refuses_a_real_program(source: str) -> None:
    # The check itself takes real programs (tests/engine/test_program_gradcheck.py).
    with pytest.raises(EngineError, match="straight-line programs"):
        gradcheck_source(source, mistake="assign")
    assert gradcheck_source(source, h=[1e-3])["checks"]


@pytest.mark.parametrize(("source", "position"), FIRST_REAL)
@pytest.mark.parametrize("options", [{"mistake": "no-sort"}, {"sort_steps": True}])
def test_the_lab_s_refusal_points_at_the_statement_that_makes_the_program_real(
    source: str, position: tuple[int, int], options: dict[str, object]
) -> None:
    with pytest.raises(EngineError, match="straight-line programs") as caught:
        trace_source(source, **options)  # type: ignore[arg-type]
    assert (caught.value.line, caught.value.column) == position


@pytest.mark.parametrize(("source", "position"), FIRST_REAL)
def test_the_gradient_check_s_refusal_points_at_the_same_statement(
    source: str, position: tuple[int, int]
) -> None:
    with pytest.raises(EngineError, match="straight-line programs") as caught:
        gradcheck_source(source, mistake="no-sort")
    assert (caught.value.line, caught.value.column) == position


@pytest.mark.parametrize("source", ["a = Value(2.0)\nb = a * a\nb.backward()\n", "pass\n", ""])
def test_a_straight_line_program_has_no_first_real_statement(source: str) -> None:
    tree = ast.parse(source)
    assert first_real_statement(tree) is None
    assert is_straight_line(tree)


def test_a_real_program_without_lab_options_still_traces() -> None:
    trace = trace_source(TWO_PASSES)
    assert len(trace["passes"]) == 2
    a = next(node for node in trace["nodes"] if node["label"] == "a")
    assert a["grad"] == -7.0  # the article's warning: a second backward() accumulates
