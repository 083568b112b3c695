"""The engine's one error type (engine/errors.py): a sentence and where it is."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from backprop_animator.engine.errors import (
    NO_REAL_RESULT,
    arithmetic_reason,
    operation_failed,
    rule_failure,
)


def test_an_error_with_a_position_says_it_first() -> None:
    error = EngineError("name 'w3' is not defined", line=2, column=9)

    assert (error.message, error.line, error.column) == ("name 'w3' is not defined", 2, 9)
    assert str(error) == "line 2, column 9: name 'w3' is not defined"


def test_an_error_without_a_position_is_just_its_sentence() -> None:
    error = EngineError("granularity must be 'packed' or 'expanded'")

    assert (error.line, error.column) == (None, None)
    assert str(error) == error.message == "granularity must be 'packed' or 'expanded'"


def test_a_lone_surrogate_in_the_message_is_replaced() -> None:
    error = EngineError("name 'x\ud800' is not defined", 1, 1)

    assert error.message == "name 'x\ufffd' is not defined"
    str(error).encode("utf-8")


def test_arithmetic_trouble_is_said_in_one_set_of_words() -> None:
    overflow, zero = OverflowError(34, "Result too large"), ZeroDivisionError("float division")
    domain, wrong_type = ValueError("math domain error"), TypeError("bad operand")

    assert arithmetic_reason(overflow) == "the result is too large for a float"
    assert arithmetic_reason(overflow, number="the number") == "the number is too large for a float"
    assert arithmetic_reason(zero, domain=NO_REAL_RESULT) == "division by zero"
    assert arithmetic_reason(domain) == "math domain error"
    assert arithmetic_reason(domain, domain=NO_REAL_RESULT) == "math domain error (no real result)"
    assert arithmetic_reason(wrong_type, domain=NO_REAL_RESULT) == "bad operand"


def test_a_failing_rule_and_an_unworded_failure_have_their_sentences() -> None:
    assert rule_failure("a", "log", ValueError("math domain error")) == (
        "the local derivative of a (log) cannot be computed here (math domain error); "
        "differentiation is exact, floating point is not"
    )
    assert operation_failed(KeyError("k")) == "this operation failed: 'k' (KeyError)"


def test_a_straight_line_program_meets_its_errors_in_its_own_order() -> None:
    # Each statement is compiled once the one before it has run: a later statement's
    # refusal (too deep, an unsupported operator) never hides an earlier one's error.
    deep = "-" * 300 + "a"
    for later in (f"c = {deep}", "c = a // 2", "c = (2.0).tanh()"):
        source = f"a = Value(2.0)\nb = a * nowhere\n{later}\n"
        with pytest.raises(EngineError) as caught:
            trace_source(source)
        assert (caught.value.line, caught.value.column) == (2, 9)
        assert caught.value.message == "name 'nowhere' is not defined"
    # Within a statement, the left operand is met before the right one.
    with pytest.raises(EngineError) as caught:
        trace_source(f"a = Value(2.0)\nb = nowhere + {deep}\n")
    assert caught.value.message == "name 'nowhere' is not defined"
