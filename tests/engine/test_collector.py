"""The garbage collector's settings are the process's: a trace leaves them as it found them."""

from __future__ import annotations

import gc
import threading

import pytest

from backprop_animator.engine import (
    RELAXED_THRESHOLD,
    EngineError,
    _collector_relaxed,
    trace_source,
)

REAL_PROGRAM = """\
from micrograd.engine import Value
xs = [Value(float(i)) for i in range(5)]
out = sum(x * x for x in xs)
out.backward()
"""


def test_a_real_program_runs_with_a_relaxed_threshold_and_puts_it_back() -> None:
    before = gc.get_threshold()
    with _collector_relaxed():
        assert gc.get_threshold()[0] == max(before[0], RELAXED_THRESHOLD)
        with _collector_relaxed():  # a second trace at the same time
            assert gc.get_threshold()[0] == max(before[0], RELAXED_THRESHOLD)
        assert gc.get_threshold()[0] == max(before[0], RELAXED_THRESHOLD)
    assert gc.get_threshold() == before
    trace_source(REAL_PROGRAM)
    assert gc.get_threshold() == before
    assert gc.isenabled()


def test_an_error_puts_the_threshold_back() -> None:
    before = gc.get_threshold()
    with pytest.raises(EngineError):
        trace_source("xs = [Value(1.0)]\nfor x in xs:\n    y = x / 0\n")
    assert gc.get_threshold() == before


def test_concurrent_traces_put_the_threshold_back() -> None:
    before = gc.get_threshold()
    threads = [threading.Thread(target=trace_source, args=(REAL_PROGRAM,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert gc.get_threshold() == before


def test_a_disabled_threshold_stays_disabled() -> None:
    before = gc.get_threshold()
    gc.set_threshold(0)
    try:
        trace_source(REAL_PROGRAM)
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def test_a_generator_expression_over_a_generator_its_object_holds_leaves_nothing_behind() -> None:
    # The table of what a generator expression reads (generators.GENEXP_SOURCES) held
    # its source strongly: an object keeping both kept the run's whole heap in the worker.
    from backprop_animator.engine.interpreter.generators import GENEXP_SOURCES

    source = (
        "class Loader:\n    def __init__(self, d):\n        self.data = d\n"
        "        self.it = (x * 2 for x in self.gen())\n"
        "    def gen(self):\n        for x in self.data:\n            yield x\n"
        "loader = Loader([0.5] * 2000)\nprint(next(loader.it))\n"
        "a = Value(1.0)\nb = a * a\nb.backward()\n"
    )
    for _ in range(3):
        trace_source(source)
    gc.collect()
    assert len(GENEXP_SOURCES) == 0
