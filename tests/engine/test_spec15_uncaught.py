"""SPEC §15: an uncaught exception is a 400 with CPython's message, line and call chain.
An exception raised with no words (`raise ValueError`, `raise Exception()`) ends
CPython's traceback with its class name alone, never `ValueError: ValueError`."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source

RAISED = [
    ("raise Exception", "line 2, column 1: Exception"),
    ("raise ValueError()", "line 2, column 1: ValueError"),
    ("raise ValueError('')", "line 2, column 1: ValueError"),
    ("raise KeyError()", "line 2, column 1: KeyError"),
    ("class E(Exception):\n    pass\nraise E", "line 4, column 1: E"),
    ("def g():\n    raise NotImplementedError\ng()", "line 3, column 5: NotImplementedError"),
    ("raise ValueError('bad')", "line 2, column 1: ValueError: bad"),
]


@pytest.mark.parametrize(("statement", "message"), RAISED)
def test_an_exception_without_words_ends_with_its_class_alone(statement: str, message: str) -> None:
    with pytest.raises(EngineError) as raised:
        trace_source("def f(): pass\n" + statement)
    said = str(raised.value)
    assert said == message or said.startswith(message + " (in ")
