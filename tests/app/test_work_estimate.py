"""The work estimate never counts fewer nodes than a program really builds, so a
program it calls cheap is cheap."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backprop_animator.app.work_estimate import estimate_nodes
from backprop_animator.engine import EngineError, trace_source
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.parse import is_straight_line
from tests.support.programs import dense_program, mlp_program

STRAIGHT_EXAMPLES = [e.source for e in EXAMPLES if is_straight_line(ast.parse(e.source))]
REAL_EXAMPLES = [e.source for e in EXAMPLES if not is_straight_line(ast.parse(e.source))]
PROGRAMS = [
    *STRAIGHT_EXAMPLES,
    dense_program(20),
    mlp_program(300),
    "x = Value(2.0)\ny = 1 - x / 3 + (-x) ** 2\nz = sigmoid(y) * tanh(x).exp()\nz.backward()",
    "a = Value(1.0); b = a; b += a; b -= 2; b *= a; b /= 3; b",
]


@pytest.mark.parametrize("source", PROGRAMS)
@pytest.mark.parametrize("granularity", ["packed", "expanded"])
def test_the_estimate_bounds_the_nodes_built(source: str, granularity: str) -> None:
    estimate = estimate_nodes(source, granularity)

    assert estimate is not None
    assert estimate >= len(trace_source(source, granularity)["nodes"])


@pytest.mark.parametrize("source", REAL_EXAMPLES)
def test_real_programs_are_never_called_cheap(source: str) -> None:
    # Loops, functions and classes can do unbounded work in few characters.
    assert estimate_nodes(source, "packed") is None


OPERANDS = st.sampled_from(["x", "y", "2.0", "-1", "0.5"])
FUNCTIONS = st.sampled_from(["tanh", "sigmoid", "exp", "relu"])


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 4 or draw(st.booleans()):
        return draw(OPERANDS)
    kind = draw(st.sampled_from(["binary", "unary", "call", "method", "power"]))
    inner = draw(expressions(depth + 1))
    if kind == "binary":
        operator = draw(st.sampled_from(["+", "-", "*", "/"]))
        return f"({inner} {operator} {draw(expressions(depth + 1))})"
    if kind == "unary":
        return f"(-{inner})"
    if kind == "call":
        return f"{draw(FUNCTIONS)}({inner})"
    if kind == "method":
        return f"({inner}).{draw(FUNCTIONS)}()" if inner in ("x", "y") else f"tanh({inner})"
    return f"({inner}) ** {draw(st.sampled_from(['2', '-1', '0.5']))}"


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.lists(expressions(), min_size=1, max_size=5), st.sampled_from(["packed", "expanded"]))
def test_random_straight_line_programs_are_never_underestimated(
    lines: list[str], granularity: str
) -> None:
    source = "x = Value(0.7)\ny = Value(-1.3)\n" + "".join(f"y = {line}\n" for line in lines)
    try:
        nodes = len(trace_source(source, granularity)["nodes"])
    except EngineError:
        return
    estimate = estimate_nodes(source, granularity)
    # None ("cannot bound it", e.g. `2.0 ** 2`) sends the program to a worker: also safe.
    assert estimate is None or estimate >= nodes
