"""Real code, side by side with CPython (SPEC §15): every program of
`tests/engine/real_code/` (written the way public courses and repositories write them:
own engines with classes and a recursive sort, comprehensions, training loops,
dataclasses, generators, collections, `micrograd.nn`), every program of
`tests/engine/public_code/` (copied from public repositories as they are, the micrograd
lecture's training loop among them) and a learner's recursive sort over a long chain,
each timed in the same run

- traced: `encode_trace` as the server does it (parse, compile, interpret, record every
  frame, compact JSON), in schema 1 as API clients get it; page: the same in the columns
  encoding the page asks for (`engine.trace_columns`);
- CPython: the same source executed by CPython itself, micrograd 0.1.0's `Value`
  standing in for the engine's where the program uses it.

Best of `REPEATS` runs each, wall time, the collector emptied before each run; and "in a
row": the mean of `IN_A_ROW` traces run one after the other as a server runs them, the
collector left to itself and one full collection after them, so that the collection of
earlier traces' reference cycles is counted (its baseline, a full collection of the bench's
own objects, is in it too, shared by the `IN_A_ROW` traces). The goal is at most `GOAL`x
CPython on every program of `LARGE` nodes or more. Run from the repository root:
`.venv/bin/python -m bench.real_code_bench`.
"""

from __future__ import annotations

import contextlib
import gc
import io
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from micrograd.engine import Value as MicrogradValue

from backprop_animator.app.worker import encode_trace
from backprop_animator.engine import Limits, trace_source

REPEATS = 3
IN_A_ROW = 6
GOAL = 10.0
LARGE = 2_000
TESTS = Path(__file__).resolve().parents[1] / "tests" / "engine"
PROGRAMS = TESTS / "real_code"
PUBLIC = TESTS / "public_code"  # copied verbatim from public repositories (SOURCES.md)
LIMITS = Limits(max_steps=10**8, max_nodes=200_000, time_limit=120.0)


def chain_sort(chains: int = 30, length: int = 40) -> str:
    """A learner's engine: `chains` chains of `length` products summed (about 2,500
    nodes, nested less deep than CPython's recursion limit), sorted by a recursive
    `build_topo` with a `visited` set, then backward."""
    return f"""
class V:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._backward = lambda: None

    def __mul__(self, other):
        out = V(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __add__(self, other):
        out = V(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()


x = V(1.0001)
total = V(0.0)
for j in range({chains}):
    y = x
    for i in range({length}):
        y = y * V(1.0)
    total = total + y
total.backward()
print(x.grad)
"""


def best(run: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def in_a_row(run: Callable[[], Any]) -> float:
    """The mean time of `IN_A_ROW` runs one after the other, and a full collection after
    them: what `best` leaves out (it collects before each run) is counted here."""
    gc.collect()
    start = time.perf_counter()
    for _ in range(IN_A_ROW):
        run()
    gc.collect()
    return (time.perf_counter() - start) / IN_A_ROW


def in_cpython(source: str) -> Callable[[], None]:
    code = compile(source, "<program>", "exec")

    def run() -> None:
        random.seed(0)
        namespace = {"Value": MicrogradValue, "__name__": "__main__"}
        # (stderr too: a program that logs writes its lines there, as it is printed here)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                exec(code, namespace)  # the bench's own programs, never a user's
            except SystemExit as end:  # a script's `sys.exit(main(sys.argv))`, its end
                if end.code not in (None, 0):
                    raise

    return run


def main() -> None:
    programs = {
        path.stem: path.read_text(encoding="utf-8") for path in sorted(PROGRAMS.glob("*.py"))
    }
    programs |= {
        f"public: {path.stem}": path.read_text(encoding="utf-8")
        for path in sorted(PUBLIC.glob("*.py"))
    }
    programs["learner's recursive sort (chains)"] = chain_sort()
    print(
        f"{'program':56} {'nodes':>7} {'traced ms':>10} {'in a row ms':>12} {'page ms':>8} "
        f"{'CPython ms':>11} {'ratio':>7} {'page':>7}"
    )
    worst = worst_page = 0.0
    for name, source in programs.items():
        nodes = len(trace_source(source, limits=LIMITS)["nodes"])
        traced = best(lambda source=source: encode_trace(source, "packed", LIMITS))
        row = in_a_row(lambda source=source: encode_trace(source, "packed", LIMITS))
        page = best(
            lambda source=source: encode_trace(source, "packed", LIMITS, encoding="columns")
        )
        reference = best(in_cpython(source))
        ratio, page_ratio = traced / reference, page / reference
        if nodes >= LARGE:
            worst, worst_page = max(worst, ratio), max(worst_page, page_ratio)
        mark = " *" if nodes >= LARGE else ""
        print(
            f"{name:56} {nodes:7,} {traced * 1000:10.1f} {row * 1000:12.1f} {page * 1000:8.1f} "
            f"{reference * 1000:11.1f} {ratio:6.1f}x {page_ratio:6.1f}x{mark}"
        )
    verdict = "meets" if max(worst, worst_page) <= GOAL else "misses"
    print(
        f"* {LARGE:,} nodes or more: worst {worst:.1f}x CPython (the page's encoding "
        f"{worst_page:.1f}x), {verdict} the {GOAL:g}x goal"
    )


if __name__ == "__main__":
    main()
