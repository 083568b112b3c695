"""How big a program may be: source length, graph size, nesting depth and steps run, and
how much work a gradient check may do.

The defaults keep every request under two seconds on a 2-core machine; each can be
changed from the environment (`BACKPROP_MAX_SOURCE_CHARS`, `BACKPROP_MAX_NODES`,
`BACKPROP_MAX_DEPTH`, `BACKPROP_MAX_STEPS`, `BACKPROP_MAX_GRADCHECK_WORK`), and every
error that hits one names its variable.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from dataclasses import dataclass

from backprop_animator.engine.errors import EngineError

ENV_NAMES = {
    "max_source_chars": "BACKPROP_MAX_SOURCE_CHARS",
    "max_nodes": "BACKPROP_MAX_NODES",
    "max_depth": "BACKPROP_MAX_DEPTH",
    "max_steps": "BACKPROP_MAX_STEPS",
    "max_gradcheck_work": "BACKPROP_MAX_GRADCHECK_WORK",
}


@dataclass(frozen=True)
class Limits:
    max_source_chars: int = 100_000
    max_nodes: int = 20_000
    max_depth: int = 200
    max_steps: int = 1_000_000  # statements, loop turns, calls and built-ins' items
    # Leaves checked × h values × nodes re-evaluated by engine.gradcheck.
    max_gradcheck_work: int = 500_000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Read the limits from the environment; unset variables keep their defaults.

        Example: `{"BACKPROP_MAX_NODES": "500"}` -> `Limits(max_nodes=500)`.
        """
        environ = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for field, name in ENV_NAMES.items():
            raw = environ.get(name)
            if raw is None or raw.strip() == "":
                continue
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
            if value < 1:
                raise ValueError(f"{name} must be at least 1, not {value}")
            values[field] = value
        return cls(**values)

    def exceeded(
        self, field: str, what: str, line: int | None = None, col: int | None = None
    ) -> EngineError:
        """The error for going over one limit, naming the variable that raises it."""
        limit = getattr(self, field)
        return EngineError(
            f"{what} (the limit is {limit:,}; set {ENV_NAMES[field]} to change it)", line, col
        )


def too_deep(node: ast.expr) -> str:
    """What to say where an expression passes the depth limit. A long chain of binary
    operators is nested too, one level per operator (`a + b + c` is `(a + b) + c`),
    which a learner who wrote it flat would not guess.

    Example: `too_deep(ast.parse("a + b", mode="eval").body)` mentions the chain.
    """
    if type(node) is ast.BinOp:
        return (
            "expressions are nested too deeply here: a chain like `a + b + c + ...` nests "
            "one level per operator; split it into several statements"
        )
    return "expressions are nested too deeply here"
