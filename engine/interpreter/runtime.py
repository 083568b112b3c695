"""The interpreter's running state: its budgets (steps, depth, sizes) and its errors.

Every bound is checked before the work it guards: a step is charged before a statement,
a loop turn, a call or each item a built-in touches; a string, container or integer is
measured before it is made. Hitting a bound raises `ProgramError`, which the statement
or expression that was running gives a line and column, and each call it passes through
adds to its call chain ("in neuron(), called from line 12").
"""

from __future__ import annotations

import random
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.limits import Limits

MAX_INT = 2**63  # integers stay within ±2**63
MAX_STR = 10_000  # characters in one string
MAX_ITEMS = 1_000_000  # items in one list, tuple, dict or set
MAX_PRINTED = 200_000  # characters a program may print in all
STRING_CHARS_PER_STEP = 10  # making a string charges a step per ten characters
ITEMS_PER_STEP = 10  # a container made in one go (`[0] * n`, `a + b`) charges per ten items
MAX_CHAIN_SHOWN = 6  # calls an error's message names


class ProgramError(EngineError):
    """An `EngineError` that learns its position and call chain on its way out."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message, line, column)
        self.chain: list[tuple[str, int | None]] = []
        self.pending: str | None = None  # a function left, waiting for its call site's line

    def located(self, line: int | None, column: int | None) -> ProgramError:
        if self.line is None:
            self.line, self.column = line, column
        if self.pending is not None:
            self.chain.append((self.pending, line))
            self.pending = None
        return self

    def finished(self) -> EngineError:
        """The plain `EngineError` the API returns, its chain said in words."""
        message = self.message
        if self.chain:
            message = f"{message} ({describe_chain(self.chain)})"
        return EngineError(message, self.line, self.column)


def describe_chain(chain: list[tuple[str, int | None]]) -> str:
    """`in f(), called from line 3, in g(), called from line 9`; repeats are counted,
    and a deep chain keeps its innermost and outermost calls."""
    runs: list[tuple[str, int | None, int]] = []
    for name, line in chain:
        if runs and runs[-1][:2] == (name, line):
            runs[-1] = (name, line, runs[-1][2] + 1)
        else:
            runs.append((name, line, 1))
    parts = [
        f"in {name}(), called from line {line}" + (f" ({count} times)" if count > 1 else "")
        for name, line, count in runs
    ]
    if len(parts) > MAX_CHAIN_SHOWN:
        hidden = len(parts) - MAX_CHAIN_SHOWN + 1
        parts = [*parts[: MAX_CHAIN_SHOWN // 2], f"{hidden} more calls", *parts[-2:]]
    return ", ".join(parts)


class State:
    """What a running program has used, and what it may still use."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.steps = 0
        self.max_steps = limits.max_steps
        self.depth = 0
        self.printed = 0
        self.rng = random.Random(0)  # an unseeded program is seeded with 0
        self.position: tuple[int, int] = (1, 1)  # the statement running now
        self.owner: Any = None  # the instance or function call new nodes belong to

    def charge(self, steps: int) -> None:
        self.steps += steps
        if self.steps > self.max_steps:
            raise self.out_of_steps()

    def out_of_steps(self) -> ProgramError:
        error = self.limits.exceeded("max_steps", "the program ran too many steps")
        return ProgramError(error.message)

    def check_int(self, value: int) -> int:
        if -MAX_INT <= value <= MAX_INT:
            return value
        raise ProgramError(
            "this integer is too large: integers here stay within ±2**63 "
            "(use a float for larger numbers)"
        )

    def check_str(self, length: int) -> None:
        if length > MAX_STR:
            raise ProgramError(
                f"this string would be {length:,} characters long; "
                f"strings here stay within {MAX_STR:,}"
            )
        self.charge(length // STRING_CHARS_PER_STEP)

    def check_items(self, count: int) -> None:
        if count > MAX_ITEMS:
            raise ProgramError(
                f"this container would hold {count:,} items; containers here stay within "
                f"{MAX_ITEMS:,}"
            )
        self.charge(count // ITEMS_PER_STEP)
