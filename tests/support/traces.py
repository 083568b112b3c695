"""Traces of the same program kept for the tests of one process: the ~100 real and
public programs of tests/engine/ are traced by several test files with the same source,
granularity and limits (test_columns.py, test_public_code.py, test_real_code.py,
test_engine_check_real_code.py), and a trace is deterministic, so the second asks get
the first one's trace instead of the engine's work again.

`traced(trace_source, source, "packed", ROOMY)` is `trace_source(source, "packed",
ROOMY)`: the engine's own trace the first time, then a fresh copy of it each time after
(a test may change what it gets; the next one still gets the trace as the engine made
it). A refusal (`EngineError`) is not kept: it is raised again by the engine each time.

The copy is the trace's JSON (orjson), kept compressed: a trace is JSON by its contract
(docs/TRACE.md), and `traced` checks that its JSON reads back equal to it before it keeps
it (no tuple, no NaN, no key that is not a string), so a copy is the trace.

Tests that share programs through here carry `same_program(path)` (an `xdist_group` of
the program's name, with `--dist loadgroup`), so that under pytest-xdist a program's
tests run in one worker and find its trace there (on pytest 9.2 through
tests/support/xdist_groups.py, which gives xdist its groups back). `-n 0` finds every one.
"""

from __future__ import annotations

import inspect
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from backprop_animator.engine import Limits

# The default limits with a roomy clock: what these tests compare are the traces, and the
# public programs (up to 18,000 nodes) meet the 1.8 s default on a busy 2-core machine
# (test_bounds.py times the limits). One value for every test that shares a program, so
# they share its trace.
ROOMY = Limits(time_limit=30.0)

_KEPT: dict[tuple[Any, ...], bytes] = {}


def traced(
    function: Callable[..., dict[str, Any]],
    source: str,
    granularity: str = "packed",
    limits: Limits = ROOMY,
    **options: Any,
) -> dict[str, Any]:
    """`function(source, granularity, limits, **options)`, done once a process for each
    function, source, granularity, limits and options: a new copy of it every call."""
    defaults = inspect.signature(function).parameters
    # `mistake=None` is the same trace as no `mistake`: one key for both.
    asked = sorted(
        (name, value) for name, value in options.items() if value != defaults[name].default
    )
    key = (function, source, granularity, limits, tuple(asked))
    kept = _KEPT.get(key)
    if kept is not None:
        copy: dict[str, Any] = orjson.loads(zlib.decompress(kept))
        return copy
    trace = function(source, granularity, limits, **options)
    written = orjson.dumps(trace)
    assert orjson.loads(written) == trace, "a trace that is not its own JSON is not kept"
    _KEPT[key] = zlib.compress(written, 1)
    return trace


def same_program(path: Path) -> pytest.MarkDecorator:
    """The mark that sends every test of this program to one xdist worker."""
    return pytest.mark.xdist_group(f"program-{path.parent.name}-{path.stem}")
