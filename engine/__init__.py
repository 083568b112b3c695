"""backprop-animator's engine: a scalar autograd `Value`, a safe interpreter, a tracer.

Standard library only. `trace_source` is the whole pipeline (text -> graph -> frames);
`trace_value` traces a graph built in Python with `engine.Value`.
"""

from __future__ import annotations

import ast
import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.foreign import copy_grads_back, mirror_graph, too_many_nodes
from backprop_animator.engine.lab.engine_check import check_engine
from backprop_animator.engine.lab.gradcheck import gradcheck_source
from backprop_animator.engine.lab.mistakes import MISTAKES, check_mistake
from backprop_animator.engine.limits import Limits, deadline
from backprop_animator.engine.parse import (
    SourceLines,
    first_real_statement,
    parse_program,
)
from backprop_animator.engine.run import trace_graph, trace_program, trace_straight_line
from backprop_animator.engine.shared_setting import SharedSetting
from backprop_animator.engine.trace.columns import ENCODING, to_columns
from backprop_animator.engine.value import Value

__all__ = [
    "MISTAKES",
    "EngineError",
    "Limits",
    "Value",
    "enginecheck_source",
    "gradcheck_source",
    "trace_columns",
    "trace_source",
    "trace_value",
    "trace_with_check",
]


def trace_with_check(
    source: str,
    granularity: str = "packed",
    limits: Limits | None = None,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
    gradcheck: bool = False,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """`trace_source` of a program and, with `gradcheck`, its `gradcheck_source` under one
    deadline: the check's re-runs share the trace's time limit (SPEC §16), in every host
    that makes both (an export, `animate(gradcheck=True)`)."""
    limits = limits or Limits()
    with deadline(limits):
        trace = trace_source(source, granularity, limits, mistake=mistake, sort_steps=sort_steps)
        check = None
        if gradcheck:
            check = gradcheck_source(source, granularity, limits, mistake=mistake)
    return trace, check


def trace_source(
    source: str,
    granularity: str = "packed",
    limits: Limits | None = None,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
    tree: ast.Module | None = None,
) -> dict[str, Any]:
    """Trace a program of the input language (SPEC §2, §11) -> the trace dict (SPEC §3, §11).

    Straight-line programs keep SPEC §2's semantics and schema 1's trace; programs with
    functions, loops, classes or several passes run in `engine.interpreter`.

    Raises `EngineError` with a line and column for anything that is not a valid
    program within `limits` (default: `Limits()`; the server passes `Limits.from_env()`).
    `mistake` (`assign`, `append-first`, `no-sort`) runs a mistaken engine (SPEC §8);
    `sort_steps` shows the sort call by call (SPEC §9). `tree`: the program already
    parsed by the caller (`ast.parse(source)`), so it is not parsed twice.
    """
    check_mistake(mistake)
    limits = limits or Limits()
    with deadline(limits):
        return _trace_source(source, granularity, limits, mistake, sort_steps, tree)


def trace_columns(
    source: str,
    granularity: str = "packed",
    limits: Limits | None = None,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
    tree: ast.Module | None = None,
) -> dict[str, Any]:
    """`trace_source`'s trace in the columns encoding the page reads
    (`engine.trace.columns`, docs/TRACE.md), the same arguments and errors.

    The build, sort and rule frames that the built-in engine's sentences say (all of a
    straight-line program's, nearly all of a real program's) are not narrated here at
    all: the page writes their texts when it shows them, so a trace costs what is read,
    not what could be.
    """
    check_mistake(mistake)
    limits = limits or Limits()
    with deadline(limits):
        trace = _trace_source(source, granularity, limits, mistake, sort_steps, tree, True)
    if trace.get("encoding") == ENCODING:
        # A real program's: the recorder wrote it in this encoding from its own tables
        # (`Recorder.columns`), with no trace's dicts made first.
        return trace
    with _collector_paused():  # tens of thousands of lists and dicts, none in a cycle
        columns = to_columns(trace)
        # Freed while the collector is paused: the trace's dicts leave its count as they
        # are freed, so the collection its end starts does not walk them all for nothing
        # (the columns are a few long lists).
        del trace
        return columns


def _trace_source(
    source: str,
    granularity: str,
    limits: Limits,
    mistake: str | None,
    sort_steps: bool,
    tree: ast.Module | None = None,
    said_later: bool = False,
) -> dict[str, Any]:
    with _collector_paused():
        # Parsing makes only a tree (no cycles): the collector would walk it for nothing.
        tree = parse_program(source, granularity, limits, tree)
        if first_real_statement(tree) is None:
            return trace_straight_line(
                tree,
                source,
                granularity,
                limits,
                mistake=mistake,
                sort_steps=sort_steps,
                said_later=said_later,
            )
    own = _own_value_class(tree)
    if mistake is not None and own is not None:
        raise EngineError(
            f"this program defines its own Value class ({own.name}), so it runs its own "
            "rules and sort: the bug lab's mistakes change the built-in engine's. Write the "
            "bug into your class instead; Check your engine shows where it parts from a "
            "right one",
            *SourceLines(source).position(own),
        )
    # The collector stays on: a real program can make reference cycles (closures in
    # loops) far faster than it makes nodes, and only the collector frees them. It
    # runs less often, though (`_collector_relaxed`).
    with _collector_relaxed():
        traced = trace_program(
            tree,
            source,
            granularity,
            limits,
            mistake=mistake,
            sort_steps=sort_steps,
            said_later=said_later,
        )
    assert traced is not None  # only a gradient check's re-run stops early
    return traced


def enginecheck_source(
    source: str,
    granularity: str = "packed",
    limits: Limits | None = None,
    *,
    tree: ast.Module | None = None,
) -> dict[str, Any]:
    """Check a program's own Value class against a right engine (SPEC §14): `{"rules",
    "sort", "accumulation"}` (`engine.lab.engine_check`). A program that runs the built-in
    engine is answered for it: every op right (but a walk of its Values by hand, judged
    as a learner's class's: `v._backward()` called in a wrong order is the sort's wrong).

    Example: a class whose `__mul__` writes `=` on `d = a * b + a` answers
    `accumulation == {"verdict": "wrong", "first": {...}}`.
    """
    trace = trace_source(source, granularity, limits, tree=tree)
    check = trace.get("engine_check")
    return check if check is not None else check_engine(trace)


def _own_value_class(tree: ast.Module) -> ast.ClassDef | None:
    """The program's own Value-like class, as far as its text tells: a top-level class
    with a `backward` method."""
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef) and any(
            isinstance(item, ast.FunctionDef) and item.name == "backward" for item in statement.body
        ):
            return statement
    return None


def trace_value(
    output: Any,
    source: str = "",
    granularity: str = "packed",
    limits: Limits | None = None,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
) -> dict[str, Any]:
    """Trace a graph built in Python; its gradients are reset and recomputed.

    `output` is an `engine.Value`, or a node of another micrograd-compatible engine
    (see `engine.foreign` for what can and cannot be seen of its rules).

    Example: `a = Value(3.0); trace_value(a + a)["nodes"][0]["grad"] == 2.0`.
    """
    check_mistake(mistake)
    options: dict[str, Any] = {"mistake": mistake, "sort_steps": sort_steps}
    limits = limits or Limits()
    with _collector_paused():
        if isinstance(output, Value):
            _check_graph_size(output, limits.max_nodes)
            return trace_graph(output, source=source, granularity=granularity, **options)
        try:
            mirror, originals = mirror_graph(output, limits.max_nodes)
            trace = trace_graph(mirror, source=source, granularity=granularity, **options)
            copy_grads_back(originals)
        except EngineError:
            raise
        except Exception as error:
            # Foreign objects run their own code (properties, rules): whatever it raises
            # is the graph's problem, said as one.
            raise EngineError(
                f"the graph could not be traced: {type(error).__name__}: {str(error)[:200]}"
            ) from None
        return trace


def _check_graph_size(output: Value, max_nodes: int) -> None:
    """Refuse a graph of engine Values of more than `max_nodes` nodes, as a foreign
    one is (`mirror_graph`), before its trace takes time and memory: a graph built in
    Python is under the node limit as a program's is (SPEC §16).

    A walk of its own, though the trace walks the graph again: the count could be taken
    in `topological_order`'s walk (-1.9 % of a 20,001-node trace, measured), but that
    function's source is what the page shows a learner for the sort (`rules.py`), and a
    bound in it would be shown too."""
    seen = {id(output)}
    stack = [output]
    while stack:
        for child in stack.pop()._prev:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
        if len(seen) > max_nodes:
            raise too_many_nodes(max_nodes)


# The youngest generation's threshold while a real program is traced (Python's default
# is 700 allocations). A trace keeps almost everything it allocates alive until it is
# done, so each young collection walks objects that survive anyway: for a 2,000-node
# nn.py program the default threshold costs ~5% of the trace more than this one
# (measured at 5,000-20,000 alike; 40,000 and more were slower again). Cycles the
# program drops are still freed, after at most this many allocations.
RELAXED_THRESHOLD = 10_000
# And the older generations' (Python's default is 10 each): with 10, the 20-step course
# loop of a learner's own engine spent 0.22 s of 1.8 s in gen-1 collections of objects
# that live until the trace is written; with 50, 0.07 s (tests/engine/real_code).
RELAXED_OLDER = 50


def _relaxed(host: tuple[int, ...], wants: list[None]) -> tuple[int, ...]:
    first, *rest = host
    if not first:
        return host  # the collector is off, and stays off
    return (max(first, RELAXED_THRESHOLD), *(max(threshold, RELAXED_OLDER) for threshold in rest))


def _set_threshold(thresholds: tuple[int, ...]) -> None:
    gc.set_threshold(*thresholds)


_thresholds: SharedSetting[tuple[int, ...], None] = SharedSetting(
    gc.get_threshold, _set_threshold, _relaxed
)


def _collector_relaxed() -> AbstractContextManager[None]:
    """Raise the collector's thresholds while a real program is traced.

    The threshold is the whole process's: the first of concurrent traces raises it and
    the last puts back what it found (`SharedSetting`). A threshold of 0 (collector off)
    stays 0.
    """
    return _thresholds.held(None)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a trace is built.

    A trace creates tens of thousands of objects that all stay alive until it is done,
    so every collection in between walks them for nothing: pausing it takes a
    20,000-node trace from ~590 ms to ~330 ms. The graph's cycles (closures that refer
    to their node) are collected as usual afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
