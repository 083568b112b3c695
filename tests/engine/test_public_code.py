"""Programs copied from public repositories, tutorials and courses (SPEC §15), stored
byte for byte in tests/engine/public_code/ (SOURCES.md says where each comes from and
what, if anything, was dropped), run at the default limits and compared with CPython:
what they print, every pass's output number and every leaf's gradient.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine import cpython
from tests.engine.cpython import (
    assert_leaves_among,
    assert_same_output,
    leaves_of,
    printed_lines,
    run_in_cpython_with_passes,
    run_in_cpython_with_stderr,
)
from tests.engine.test_unittest_module import run_tests_in_cpython
from tests.support.traces import ROOMY, same_program, traced

LOG_TIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}")  # `%(asctime)s`
PROGRAMS = sorted((Path(__file__).parent / "public_code").glob("*.py"))


@pytest.mark.parametrize(
    "path", [pytest.param(path, marks=same_program(path), id=path.stem) for path in PROGRAMS]
)
def test_a_public_program_runs_as_cpython_runs_it(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = path.read_text(encoding="utf-8")
    if "unittest.main(" in source:
        # A test file: CPython's `unittest.main()` runs the `TestCase`s of `__main__` and
        # writes its report to stderr, which the interpreter prints.
        monkeypatch.setattr(cpython, "run_in_cpython", run_tests_in_cpython)
    lines, numbers, outputs = run_in_cpython_with_passes(source)
    # The default limits, as the acceptance tests run them, but for the clock: this machine
    # is shared, and the numbers are what is compared (test_bounds.py times the limits).
    # The trace test_columns.py makes of it too (tests/support/traces.py).
    trace = traced(trace_source, source, "packed", ROOMY)
    printed = printed_lines(trace)
    if "import logging" in source:
        # Its log lines are printed, where CPython writes them to stderr; their time is the
        # program's clock here (docs/LANGUAGE.md), the wall clock there.
        printed = [LOG_TIME.sub("<time>", line) for line in printed]
        lines = [LOG_TIME.sub("<time>", line) for line in run_in_cpython_with_stderr(source)]
    assert_same_output(printed, lines)
    # A `set` of operands is ordered by address in CPython, so three or more `+=` into one
    # gradient may round differently in the last bits, and the next pass inherits that.
    assert len(trace["passes"]) == len(numbers)
    for one, number in zip(trace["passes"], numbers, strict=True):
        assert math.isclose(one["data"], number, rel_tol=1e-9, abs_tol=1e-12)
    ours = sorted(
        (float(node["data"]), float(node["grad"]))
        for node in trace["nodes"]
        if node["kind"] == "leaf"
    )
    # Every leaf we draw is one of CPython's, with its gradient; micrograd's own `Value`
    # folds its constants (`2 * x`) into the operation, so CPython may have more leaves.
    theirs = leaves_of(outputs)
    assert bool(ours) == bool(theirs)
    assert_leaves_among(ours, theirs)


def test_a_printed_set_of_nodes_may_come_in_any_order_and_nothing_else_may() -> None:
    # CPython hashes a `Value` by its address, so `print(d._prev)` orders the set as that
    # run's allocator placed the operands (Cedrickopp's notebook, stop 57's CI).
    assert_same_output(
        ["{Value(data=-6.0), Value(data=10.0)} x"], ["{Value(data=10.0), Value(data=-6.0)} x"]
    )
    nested = "{V(d=1, p={V(d=3), V(d=2)}), V(d=0)}"
    assert_same_output([nested], ["{V(d=0), V(d=1, p={V(d=2), V(d=3)})}"])
    mine = "{Value(data=-6.0), Value(data=10.0)} x"
    for theirs in (
        "{Value(data=11.0), Value(data=-6.0)} x",  # another number
        "{Value(data=10.0), Value(data=-6.0)} y",  # another word
        "{Value(data=10.0), Value(data=-6.0), Value(data=-6.0)} x",  # another item
    ):
        with pytest.raises(AssertionError):
            assert_same_output([mine], [theirs])
    for mine, theirs in (
        ("[Value(data=-6.0), Value(data=10.0)]", "[Value(data=10.0), Value(data=-6.0)]"),
        (
            "{1: Value(data=-6.0), 2: Value(data=10.0)}",
            "{2: Value(data=10.0), 1: Value(data=-6.0)}",
        ),
        ("{'b', 'a'}", "{'a', 'b'}"),  # a set of strings: ours hashes them as CPython
    ):
        with pytest.raises(AssertionError):  # a list, a dict, strings keep their order
            assert_same_output([mine], [theirs])


def test_micrograd_s_modules_import_as_modules_and_nothing_else() -> None:
    source = (
        "import random\nfrom micrograd import nn, engine\nrandom.seed(4)\n"
        "n = nn.Neuron(2)\ny = n([engine.Value(1.0), engine.Value(-2.0)])\ny.backward()\n"
        "print(y.data, [float(p.grad) for p in n.parameters()])\n"
    )
    assert printed_lines(trace_source(source)) == run_in_cpython_with_passes(source)[0]
    with pytest.raises(EngineError, match="from micrograd import os` is not available"):
        trace_source("from micrograd import os\n")
    with pytest.raises(EngineError):  # a module of ours has no dunder to walk
        trace_source("from micrograd import nn\nprint(nn.__dict__)\n")


MICROGRAD_PACKAGE = """
import random
import micrograd as mg
try:
    mg.engine
except AttributeError as e:
    print("before:", e)
from micrograd.engine import Value
print(mg.engine.Value is Value, hasattr(mg, "nn"))
from micrograd.nn import Neuron
print(hasattr(mg, "nn"), mg.nn.Neuron is Neuron)
import micrograd.engine as me
import micrograd
print(me is mg.engine, micrograd is mg)
random.seed(3)
n = mg.nn.MLP(2, [2, 1])
y = n([Value(1.0), Value(-1.0)])
y.backward()
print(y.data, [p.grad for p in n.parameters()])
"""


def test_micrograds_package_gains_its_modules_as_they_are_imported_as_in_a_fresh_cpython() -> None:
    # `import micrograd as mg` (unused in a notebook, beside `from micrograd.engine import
    # Value`) is CPython's empty package, which each import of a module of it fills. A
    # fresh CPython (this process has imported micrograd.engine already) says the same.
    fresh = subprocess.run(
        [sys.executable, "-c", MICROGRAD_PACKAGE], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert printed_lines(trace_source(MICROGRAD_PACKAGE)) == fresh
    assert fresh[0] == "before: module 'micrograd' has no attribute 'engine'"
    with pytest.raises(EngineError):  # nothing of ours behind the package either
        trace_source("import micrograd\nprint(micrograd.__path__)\nv = Value(1.0)\nv.backward()\n")


def test_time_is_a_clock_of_the_programs_own_work_and_a_sleep_that_does_not_wait() -> None:
    # Deterministic (the same on every run), moving (a rate never divides by zero).
    source = (
        "import time\nstart = time.time()\ntime.sleep(10**9)\n"
        "total = sum(range(1000))\nspent = time.time() - start\n"
        "print(spent > 0, spent < 0.01, f'{1 / spent:.0f} it/s')\n"
    )
    first = run(source)
    assert first == run(source)
    assert first[0].startswith("True True ")
    with pytest.raises(EngineError, match="sleep length must be non-negative"):
        run("import time\ntime.sleep(-1)\n")
    with pytest.raises(EngineError, match="sleep"):
        run("import time\ntime.sleep('a while')\n")
    with pytest.raises(EngineError):  # nothing of Python's own module is reachable
        run("import time\nprint(time.__dict__)\n")
    with pytest.raises(EngineError, match="time has no 'localtime' here"):
        run("from time import localtime\n")


def run(body: str) -> list[str]:
    return printed_lines(trace_source(body + "\nv = Value(1.0)\nv.backward()\n"))


def test_a_node_class_with_its_gradient_behind_a_property_is_drawn_as_a_graph() -> None:
    source = (Path(__file__).parent / "real_code" / "property_engine.py").read_text()
    trace = trace_source(source)
    assert {node["kind"] for node in trace["nodes"]} == {"leaf", "op"}
    assert len(trace["edges"]) == 5  # a * b, (a * b) + a, log(...)
    leaves = {node["data"]: node["grad"] for node in trace["nodes"] if node["kind"] == "leaf"}
    assert leaves == {2.0: 0.5, 3.0: 0.25}  # d/da log(ab + a) = (b + 1) / (ab + a)
    # The setter runs for every write, as in CPython: one that refuses is obeyed.
    refusing = source.replace("        self._grad = g\n", "        raise AutogradError('no')\n")
    with pytest.raises(EngineError, match="AutogradError: no"):
        trace_source(refusing)
