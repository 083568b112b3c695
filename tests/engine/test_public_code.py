"""Programs copied from public repositories, tutorials and courses (SPEC §15), stored
byte for byte in tests/engine/public_code/ (SOURCES.md says where each comes from and
what, if anything, was dropped), run at the default limits and compared with CPython:
what they print, every pass's output number and every leaf's gradient.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import (
    assert_same_output,
    leaves_of,
    printed_lines,
    run_in_cpython_with_passes,
)

PROGRAMS = sorted((Path(__file__).parent / "public_code").glob("*.py"))


@pytest.mark.parametrize("path", PROGRAMS, ids=[path.stem for path in PROGRAMS])
def test_a_public_program_runs_as_cpython_runs_it(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    lines, numbers, outputs = run_in_cpython_with_passes(source)
    # The default limits, as the acceptance tests run them, but for the clock: this machine
    # is shared, and the numbers are what is compared (test_bounds.py times the limits).
    trace = trace_source(source, limits=Limits(time_limit=30.0))
    assert_same_output(printed_lines(trace), lines)
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
    for data, grad in ours:
        match = next((pair for pair in theirs if same(pair[0], data) and same(pair[1], grad)), None)
        assert match is not None, (data, grad, theirs)
        theirs.remove(match)


def same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


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
