"""How big a program may be: source length, graph size, nesting depth, steps run, how
much work a gradient check may do, and how long it may all take.

The defaults keep every request under two seconds on a 2-core machine; each can be
changed from the environment (`BACKPROP_MAX_SOURCE_CHARS`, `BACKPROP_MAX_NODES`,
`BACKPROP_MAX_DEPTH`, `BACKPROP_MAX_CALL_DEPTH`, `BACKPROP_MAX_RECURSION_LIMIT`,
`BACKPROP_MAX_STEPS`, `BACKPROP_MAX_GRADCHECK_WORK`, `BACKPROP_TRACE_TIME_LIMIT`), and
every error that hits one names its variable.

The call depth is CPython's: a program's calls nest `max_call_depth` deep (CPython's
default recursion limit, 1,000) until it sets its own with `sys.setrecursionlimit(n)`,
then `n` deep, as CPython's, up to `max_recursion_limit` (10,000): what a program may
raise its limit to (the C stack its run is given is sized for that, `engine.run`).

The time limit holds in every host (SPEC §16): `deadline(limits)` starts the clock for
one call of the engine's API (a trace, a gradient check with all its re-runs), and the
interpreter looks at it every few thousand steps (and the checks and compiling before
its first step, every few thousand nodes: `tick`), so the CLI and a notebook kernel,
which have no worker process to kill, stop on their own like the server does.
"""

from __future__ import annotations

import ast
import os
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.shared_setting import SharedSetting

ENV_NAMES = {
    "max_source_chars": "BACKPROP_MAX_SOURCE_CHARS",
    "max_nodes": "BACKPROP_MAX_NODES",
    "max_depth": "BACKPROP_MAX_DEPTH",
    "max_call_depth": "BACKPROP_MAX_CALL_DEPTH",
    "max_recursion_limit": "BACKPROP_MAX_RECURSION_LIMIT",
    "max_steps": "BACKPROP_MAX_STEPS",
    "max_gradcheck_work": "BACKPROP_MAX_GRADCHECK_WORK",
    "time_limit": "BACKPROP_TRACE_TIME_LIMIT",
}


@dataclass(frozen=True)
class Limits:
    max_source_chars: int = 100_000
    max_nodes: int = 20_000
    max_depth: int = 200  # expressions, statements and containers nested in each other
    max_call_depth: int = 1_000  # calls of the program's functions, as CPython's default
    # The most a program's `sys.setrecursionlimit(n)` raises its call depth to.
    max_recursion_limit: int = 10_000
    max_steps: int = 1_000_000  # statements, loop turns, calls and built-ins' items
    # Leaves checked × h values × nodes re-evaluated by engine.lab.gradcheck.
    max_gradcheck_work: int = 500_000
    # Seconds one call of the engine may run (a trace, or a gradient check's re-runs).
    time_limit: float = 1.8
    # The time limit an error names, where the engine is given less than the limit set
    # (a server's request that waited for a worker runs on what is left of its limit,
    # less a margin: the learner is told the limit the server was set to, not that);
    # None: `time_limit`.
    said_time_limit: float | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Read the limits from the environment; unset variables keep their defaults.

        Example: `{"BACKPROP_MAX_NODES": "500"}` -> `Limits(max_nodes=500)`.
        """
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for field, name in ENV_NAMES.items():
            raw = environ.get(name)
            if raw is None or raw.strip() == "":
                continue
            if field == "time_limit":
                values[field] = read_seconds(name, raw)
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
        if field == "time_limit" and self.said_time_limit is not None:
            limit = self.said_time_limit
        amount = f"{limit:g} s" if field == "time_limit" else f"{limit:,}"
        return EngineError(
            f"{what} (the limit is {amount}; set {ENV_NAMES[field]} to change it)", line, col
        )


MIN_TIME_LIMIT = 0.1


def read_seconds(name: str, raw: str) -> float:
    """A time limit from the environment: a number of seconds, at least 0.1."""
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not value >= MIN_TIME_LIMIT or value == float("inf"):
        raise ValueError(f"{name} must be a finite number of seconds, at least {MIN_TIME_LIMIT}")
    return value


# When the current call of the engine must stop (time.monotonic()), or None outside one.
_deadline: ContextVar[float | None] = ContextVar("backprop_deadline", default=None)
# The limits that deadline was set from, to word the error of the work that reads it.
_deadline_limits: ContextVar[Limits | None] = ContextVar("backprop_deadline_limits", default=None)


@contextmanager
def deadline(limits: Limits) -> Iterator[None]:
    """Start the clock for one call of the engine, unless a call around it already did
    (a gradient check's re-runs share their check's deadline)."""
    if _deadline.get() is not None:
        yield
        return
    token = _deadline.set(time.monotonic() + limits.time_limit)
    limits_token = _deadline_limits.set(limits)
    try:
        with _cpython_int_digits():
            yield
    finally:
        _deadline_limits.reset(limits_token)
        _deadline.reset(token)


# CPython's default bound on converting an integer to or from decimal text (4,300 digits).
# A host may lower its own (`sys.set_int_max_str_digits`, `PYTHONINTMAXSTRDIGITS`, down
# to 640): in a kernel or a CLI run so set, a program that CPython runs (a 4,096-bit
# integer printed, a 1,000-digit literal) failed with the host's words. The bound is the
# whole process's, and the engine's calls overlap in the server's threads: while calls
# run it is at least CPython's default (0, no bound, stays 0: the interpreter bounds
# integers by their bits), and the last one out puts back what the first found
# (`SharedSetting`).
CPYTHON_INT_DIGITS = sys.int_info.default_max_str_digits


def _at_least_cpythons(host: int, wants: list[None]) -> int:
    return CPYTHON_INT_DIGITS if 0 < host < CPYTHON_INT_DIGITS else host


_int_digits: SharedSetting[int, None] = SharedSetting(
    sys.get_int_max_str_digits, sys.set_int_max_str_digits, _at_least_cpythons
)


def _cpython_int_digits() -> AbstractContextManager[None]:
    return _int_digits.held(None)


def current_deadline() -> float | None:
    return _deadline.get()


# Work that charges no interpreter steps reads the clock once per this many nodes.
NODES_PER_TIME_CHECK = 2_048


def past_deadline() -> bool:
    """Whether the current call of the engine is past its deadline: for work that charges
    no interpreter steps (a straight-line program, the engine's own backward pass), read
    every so many nodes."""
    end = _deadline.get()
    return end is not None and time.monotonic() > end


# Work done before the program runs (the checks of its text, compiling it) counts the
# nodes it visits, for every thread at once (a count a race misses only moves the next
# reading of the clock), and reads the clock once per `NODES_PER_TIME_CHECK` of them.
_visits = [0]


def tick() -> bool:
    """Count one node visited before the program runs; every so many, whether the
    current call of the engine is past its deadline (then raise `took_too_long`). A
    100,000-character program takes a second or more to compile, all before the
    interpreter's first step: this clock is what bounds that time (SPEC §16).
    """
    _visits[0] += 1
    return not _visits[0] % NODES_PER_TIME_CHECK and past_deadline()


def took_too_long(line: int | None = None, column: int | None = None) -> EngineError:
    """The error of work before the program runs (`tick`) that met the deadline."""
    limits = _deadline_limits.get() or Limits()
    return limits.exceeded(
        "time_limit",
        "the program took too long to read, before it ran (is it very long, or nested very deep?)",
        line,
        column,
    )


def visited(node: ast.AST) -> None:
    """`tick` for a node a walk of the tree reaches, raising `took_too_long` at its line.
    Nodes with no place of their own (`ast.Load`, `ast.Add`...) are not counted: the
    error is always at a line, and they cost next to nothing."""
    if "lineno" in node._attributes and tick():
        raise took_too_long(node.lineno)  # type: ignore[attr-defined]


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` as a list, without its two generators: the walks of
    every tree before it runs (scopes, imports, patches) visit every node."""
    children: list[ast.AST] = []
    AST = ast.AST
    for field in node._fields:
        child = getattr(node, field, None)
        if isinstance(child, AST):
            children.append(child)
        elif type(child) is list:
            children.extend([item for item in child if isinstance(item, AST)])
    return children


# Where a module's walk is kept on its tree (`walk`): the checks and facts worked out
# before a program runs walk its whole tree five times, and nothing changes the tree.
_WALKED = "_backprop_walked"


def walk(node: ast.AST) -> list[ast.AST]:
    """`ast.walk(node)` as a list, in its order (breadth first), without its generators,
    reading the clock as `tick` does for each node it reaches (`visited`). A module's
    list is kept on it and handed out again (its callers only read it): a walk of the
    tree after the first counts its nodes at once and reads the clock once."""
    if type(node) is ast.Module:
        kept: list[ast.AST] | None = node.__dict__.get(_WALKED)
        if kept is None:
            kept = _walk(node)
            setattr(node, _WALKED, kept)
        else:
            _visits[0] += len(kept)
            if past_deadline():
                raise took_too_long(node.body[0].lineno if node.body else None)
        return kept
    return _walk(node)


def _walk(node: ast.AST) -> list[ast.AST]:
    nodes = [node]
    AST = ast.AST
    for current in nodes:  # (the list grows as it is read: the next level after this one)
        visited(current)
        for field in current._fields:
            child = getattr(current, field, None)
            if isinstance(child, AST):
                nodes.append(child)
            elif type(child) is list:
                nodes.extend([item for item in child if isinstance(item, AST)])
    return nodes


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
