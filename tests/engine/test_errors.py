"""The engine's one error type (engine/errors.py): a sentence and where it is."""

from __future__ import annotations

from backprop_animator.engine import EngineError


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
