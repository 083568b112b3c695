"""Digests of every trace the repository's own programs give, to show that a change
meant to be faster changed no answer: every program of `tests/engine/real_code/`, every
example of `engine/examples.py` and `engine/program_examples.py` and the benches'
own-engine programs, in packed and expanded granularity, plain, with `mistake="assign"`
and `sort_steps=True`, with `sort_steps=True` alone, in the page's columns encoding, and
the engine check; every program of `tests/engine/public_code/` (copied from public
repositories) plain and in columns; then each
real-code program under a ladder of small step limits (where a run stops, and with
which sentence, shows that every step is still charged where it was).

Write the digests before the change and after it, and compare:

    .venv/bin/python -m bench.trace_digests /tmp/before.json
    ... change ...
    .venv/bin/python -m bench.trace_digests /tmp/after.json
    diff /tmp/before.json /tmp/after.json && echo same

An error is digested too (its class, words and line), so a refusal must stay the same.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from backprop_animator.engine import (
    Limits,
    enginecheck_source,
    examples,
    program_examples,
    trace_columns,
)
from backprop_animator.engine import trace_source as trace
from bench.interpreter_bench import mlp_batch_program
from bench.real_code_bench import chain_sort

REAL_CODE = Path(__file__).resolve().parents[1] / "tests" / "engine" / "real_code"
PUBLIC_CODE = REAL_CODE.parent / "public_code"
LIMITS = Limits(max_steps=10**8, max_nodes=200_000, time_limit=300.0)
MODES: tuple[tuple[str | None, bool], ...] = ((None, False), ("assign", True), (None, True))
STEP_LIMITS = (50, 137, 200, 500, 777, 1_000, 2_000, 3_333, 5_000, 10_000, 20_000, 50_000)


def programs() -> Iterator[tuple[str, str]]:
    for path in sorted(REAL_CODE.glob("*.py")):
        yield path.name, path.read_text()
    for example in examples.EXAMPLES:
        yield f"example:{example.id}", example.source
    for name in sorted(dir(program_examples)):
        value = getattr(program_examples, name)
        if name.isupper() and isinstance(value, str):
            yield f"program_examples.{name}", value
    yield "chain_sort", chain_sort()
    yield "chain_sort_small", chain_sort(3, 5)
    yield "mlp_batch", mlp_batch_program()


def digest(answer: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """`answer(*args, **kwargs)` digested: its JSON, or its error's class, words and line."""
    try:
        found = answer(*args, **kwargs)
    except Exception as error:  # the refusal is part of the answer
        words = f"{type(error).__name__} {getattr(error, 'line', None)} {error}"
        return "error " + hashlib.sha256(words.encode()).hexdigest()[:16] + " " + words[:80]
    text = json.dumps(found, allow_nan=True, default=repr)  # dict order kept: it is the output
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests() -> dict[str, str]:
    out: dict[str, str] = {}
    for name, source in programs():
        for granularity in ("packed", "expanded"):
            for mistake, sort_steps in MODES:
                out[f"{name}|{granularity}|{mistake}|{sort_steps}"] = digest(
                    trace, source, granularity, LIMITS, mistake=mistake, sort_steps=sort_steps
                )
            out[f"{name}|{granularity}|enginecheck"] = digest(
                enginecheck_source, source, granularity, LIMITS
            )
        out[f"{name}|packed|columns"] = digest(trace_columns, source, "packed", LIMITS)
    for path in sorted(PUBLIC_CODE.glob("*.py")):
        source = path.read_text()
        out[f"public:{path.name}|packed"] = digest(trace, source, "packed", LIMITS)
        out[f"public:{path.name}|packed|columns"] = digest(trace_columns, source, "packed", LIMITS)
    for path in sorted(REAL_CODE.glob("*.py")):
        source = path.read_text()
        for steps in STEP_LIMITS:
            limits = Limits(max_steps=steps, max_nodes=200_000, time_limit=300.0)
            out[f"{path.name}|max_steps={steps}"] = digest(trace, source, limits=limits)
    return out


if __name__ == "__main__":
    found = digests()
    Path(sys.argv[1]).write_text(json.dumps(found, indent=0, sort_keys=True))
    print(f"{len(found)} digests written to {sys.argv[1]}")
