"""The lab's instruments (SPEC §7-9) need a straight-line program; a real program (§11)
is refused with a sentence that says why, never traced with the option silently lost."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, gradcheck_source, trace_source

LOOP = "a = Value(2.0)\nfor i in range(3):\n    a = a * 2\na.backward()\n"
TWO_PASSES = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + a\nc.backward()\nc.backward()\n"


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
def test_the_gradient_check_refuses_a_real_program(source: str) -> None:
    with pytest.raises(EngineError, match="straight-line programs"):
        gradcheck_source(source)


def test_a_real_program_without_lab_options_still_traces() -> None:
    trace = trace_source(TWO_PASSES)
    assert len(trace["passes"]) == 2
    a = next(node for node in trace["nodes"] if node["label"] == "a")
    assert a["grad"] == -7.0  # the article's warning: a second backward() accumulates
