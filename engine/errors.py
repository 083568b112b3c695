"""The one error type the engine raises for anything wrong with a user's program."""

from __future__ import annotations

from backprop_animator.engine.trace.text import clean_text


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


# What a math domain error (the ValueError of `math.log(-1)`) is called in an operation's error.
NO_REAL_RESULT = "math domain error (no real result)"
# What a program that leaves nothing to trace is told, in either mode of the interpreter.
NO_RESULT = (
    "the program has no result: end it with an expression, or call .backward() on the output"
)


def not_finite_reason(what: str, data: object) -> str:
    """What an operation whose result overflowed or is not a number is told:
    `not_finite_reason("exp", inf)` -> "exp: the result is not a finite number (inf); ..."."""
    return (
        f"{what}: the result is not a finite number ({data}); the maths is exact, "
        "but floating point has a range"
    )


def arithmetic_reason(
    error: BaseException, *, number: str = "the result", domain: str | None = None
) -> str:
    """Why arithmetic failed, in words rather than the C library's: the one place that says
    it, for the straight-line language, the interpreter, the trace and the gradient check.

    An `OverflowError` is '`number` is too large for a float', a `ZeroDivisionError`
    'division by zero'; any other error but a `TypeError` is `domain` when given (a
    ValueError or another ArithmeticError: no real result), else in its own words.

    Example: `arithmetic_reason(OverflowError(34, "Result too large"))` ->
    'the result is too large for a float'.
    """
    if isinstance(error, OverflowError):
        return f"{number} is too large for a float"
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    if domain is not None and not isinstance(error, TypeError):
        return domain
    return str(error)


def rule_failure(name: str, op: str, error: BaseException) -> str:
    """A node's `_backward` failing (`name` is what the texts call the node)."""
    return (
        f"the local derivative of {name} ({op}) cannot be computed here "
        f"({arithmetic_reason(error, number='the number')}); "
        "differentiation is exact, floating point is not"
    )


def operation_failed(error: BaseException) -> str:
    """Any other exception an operation lets through, which no sentence of ours words:
    `OverflowError('...')` -> 'this operation failed: ... (OverflowError)'."""
    return f"this operation failed: {str(error)[:200]} ({type(error).__name__})"
