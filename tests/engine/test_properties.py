"""Properties of random programs: gradients match finite differences, granularity does
not change leaf gradients, and every trace keeps the invariants of SPEC §3.

Programs are generated as source text over three leaves with `+ - * / **` (constant
exponents), the five functions (as calls and as methods), augmented assignment and
`backward()`. The reference for each gradient is a central finite difference of the
program's output, evaluated through the engine itself at perturbed leaf values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from backprop_animator.engine import EngineError, trace_source
from tests.engine.helpers import HYPOTHESIS, assert_trace_invariants, leaf_grads, output_node

LEAF_NAMES = ("a", "b", "c")
NUMBERS = ("2", "0.5", "-1.5", "3e-1", "1")
EXPONENTS = ("2", "3", "-1", "0.5", "-2", "1.5")
FUNCTIONS = ("tanh", "exp", "relu", "log", "sigmoid")
STEP = 1e-6
TOLERANCE = 1e-4


@dataclass(frozen=True)
class Program:
    values: dict[str, float]
    body: tuple[str, ...]

    def source(self, values: dict[str, float] | None = None) -> str:
        values = self.values if values is None else values
        inputs = [f"{name} = {value!r}" for name, value in values.items()]
        return "\n".join([*inputs, *self.body]) + "\n"


def expressions(names: list[str]) -> st.SearchStrategy[str]:
    atoms = st.sampled_from(names) | st.sampled_from(NUMBERS)

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from("+-*/"), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            st.tuples(inner, st.sampled_from(EXPONENTS)).map(lambda t: f"({t[0]}) ** {t[1]}"),
            st.tuples(st.sampled_from(FUNCTIONS), inner).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(inner, st.sampled_from(FUNCTIONS)).map(lambda t: f"({t[0]}).{t[1]}()"),
            inner.map(lambda text: f"-{text}"),
        )

    return st.recursive(atoms, extend, max_leaves=6)


@st.composite
def programs(draw: st.DrawFn) -> Program:
    magnitudes = st.floats(min_value=0.25, max_value=2.0, allow_nan=False)
    values = {
        name: round(draw(magnitudes) * draw(st.sampled_from((1, -1))), 4) for name in LEAF_NAMES
    }
    names = list(LEAF_NAMES)
    body: list[str] = []
    for i in range(draw(st.integers(min_value=1, max_value=3))):
        expression = draw(expressions(names))
        if i > 0 and draw(st.booleans()):
            operator = draw(st.sampled_from(["+=", "-=", "*=", "/="]))
            body.append(f"{names[-1]} {operator} {expression}")
        else:
            body.append(f"t{i} = {expression}")
            names.append(f"t{i}")
    if draw(st.booleans()):
        body.append(f"{names[-1]}.backward()")
    return Program(values, tuple(body))


def traced(program: Program, granularity: str = "packed") -> dict[str, Any]:
    """The program's trace, or skip the example if the engine refuses it (domain errors,
    overflow, a plain-number result): those are tested in test_parse.py."""
    try:
        return trace_source(program.source(), granularity)
    except EngineError:
        assume(False)
        raise AssertionError("unreachable") from None


def well_conditioned(trace: dict[str, Any]) -> bool:
    """Finite differences are trustworthy: moderate numbers, away from kinks and poles."""
    nodes = {node["id"]: node for node in trace["nodes"]}
    child_of = {edge["target"]: nodes[edge["source"]] for edge in trace["edges"]}
    for node in trace["nodes"]:
        if abs(node["data"]) > 1e3 or abs(node["grad"]) > 1e4:
            return False
        op = node["op"]
        near_a_kink_or_pole = op in ("relu", "log") or (op.startswith("**") and float(op[2:]) < 1)
        if near_a_kink_or_pole and abs(child_of[node["id"]]["data"]) < 1e-2:
            return False
    return True


def output_at(program: Program, values: dict[str, float]) -> float:
    return float(output_node(trace_source(program.source(values)))["data"])


@settings(HYPOTHESIS, max_examples=150)
@given(programs())
def test_every_leaf_gradient_matches_a_central_finite_difference(program: Program) -> None:
    trace = traced(program)
    assume(well_conditioned(trace))
    grads = {name: grad for name, grad in leaf_grads(trace).items() if name in LEAF_NAMES}
    for name, grad in grads.items():
        above = {**program.values, name: program.values[name] + STEP}
        below = {**program.values, name: program.values[name] - STEP}
        difference = (output_at(program, above) - output_at(program, below)) / (2 * STEP)
        assert grad == pytest.approx(difference, rel=TOLERANCE, abs=TOLERANCE), (
            f"d output / d {name}: engine {grad}, finite difference {difference}"
        )


@settings(HYPOTHESIS, max_examples=150)
@given(programs())
def test_packed_and_expanded_agree_on_leaf_gradients(program: Program) -> None:
    packed = traced(program, "packed")
    expanded = traced(program, "expanded")
    assume(well_conditioned(packed))
    assert leaf_grads(expanded) == pytest.approx(leaf_grads(packed), rel=1e-7, abs=1e-9)
    assert output_node(expanded)["data"] == pytest.approx(
        output_node(packed)["data"], rel=1e-9, abs=1e-12
    )


@settings(HYPOTHESIS, max_examples=150)
@given(programs(), st.sampled_from(["packed", "expanded"]))
def test_every_trace_keeps_the_invariants_of_the_spec(program: Program, granularity: str) -> None:
    assert_trace_invariants(traced(program, granularity))


@settings(HYPOTHESIS, max_examples=100)
@given(programs(), st.sampled_from(["packed", "expanded"]))
def test_tracing_twice_gives_identical_json(program: Program, granularity: str) -> None:
    first = traced(program, granularity)
    second = trace_source(program.source(), granularity)
    assert json.dumps(first, allow_nan=False) == json.dumps(second, allow_nan=False)
