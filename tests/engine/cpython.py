"""Run a program under CPython itself, with micrograd's own `Value`, to compare numbers.

Only for tests: the programs are the tests' own, never a user's. `printed_lines` gives
what our interpreter printed, frame by frame, so both sides are compared as text.
"""

from __future__ import annotations

import contextlib
import io
import math
import random
from typing import Any

from micrograd.engine import Value as MicrogradValue


def run_in_cpython(source: str) -> list[str]:
    """The lines the program prints when CPython runs it (random seeded with 0 first)."""
    random.seed(0)
    out = io.StringIO()
    namespace: dict[str, Any] = {"Value": MicrogradValue, "__name__": "__main__"}
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<program>", "exec"), namespace)  # the tests' own programs
    return out.getvalue().splitlines()


def printed_lines(trace: dict[str, Any]) -> list[str]:
    return [line for frame in trace["frames"] for line in frame.get("prints", [])]


def assert_same_output(ours: list[str], theirs: list[str], rel: float = 1e-9) -> None:
    """Line by line and word by word; numbers may differ only in the last bits, because
    CPython's `set` orders a node's parents by address, which changes the order (and so
    the rounding) of three or more `+=` into one gradient."""
    assert len(ours) == len(theirs), (ours, theirs)
    for mine, reference in zip(ours, theirs, strict=True):
        my_words, their_words = mine.split(), reference.split()
        assert len(my_words) == len(their_words), (mine, reference)
        for a, b in zip(my_words, their_words, strict=True):
            try:
                x, y = float(a.strip("[](),")), float(b.strip("[](),"))
            except ValueError:
                assert a == b, (mine, reference)
                continue
            assert math.isclose(x, y, rel_tol=rel, abs_tol=1e-12), (mine, reference)
