"""The one error type the engine raises for anything wrong with a user's program."""

from __future__ import annotations

from backprop_animator.engine.text import clean_text


class EngineError(Exception):
    """A problem with the program, said as a sentence, with where it is (1-based).

    Example: `EngineError("name 'w3' is not defined", line=2, column=9)`.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        # Messages quote labels and names, which may hold lone surrogates.
        message = clean_text(message)
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return f"line {self.line}, column {self.column}: {self.message}"
