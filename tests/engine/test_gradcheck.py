"""The gradient check (SPEC §7): the article's numbers, the h sweep, limits and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from backprop_animator.app.page_constants import js_constant
from backprop_animator.app.schemas import Gradcheck
from backprop_animator.engine import EngineError, Limits, gradcheck_source, trace_source
from backprop_animator.engine.lab.gradcheck import DEFAULT_H, MAX_H_VALUES
from tests.engine.helpers import HYPOTHESIS, NEURON
from tests.engine.test_properties import Program, programs, traced, well_conditioned

# The article's opening example, as a program.
PARABOLA = "x = Value(3.0)\nf = 3*x**2 - 4*x + 5\n"


def errors(check: dict[str, Any]) -> list[float]:
    return [row["error"] for row in check["rows"]]


def test_the_article_parabola_at_h_0_001_gives_14_003_against_14() -> None:
    (check,) = gradcheck_source(PARABOLA, h=[0.001])["checks"]

    assert check["label"] == "x"
    assert check["analytic"] == 14.0
    (row,) = check["rows"]
    assert row["h"] == 0.001
    assert row["numeric"] == pytest.approx(14.003, abs=1e-9)
    assert row["error"] == pytest.approx(0.003, abs=1e-9)


def test_the_default_sweep_runs_from_0_1_to_1e_14() -> None:
    (check,) = gradcheck_source(PARABOLA)["checks"]

    assert [row["h"] for row in check["rows"]] == list(DEFAULT_H)
    assert DEFAULT_H[0] == 0.1 and DEFAULT_H[-1] == pytest.approx(1e-14, rel=1e-12)
    assert len(DEFAULT_H) == 14


def test_the_page_cuts_down_the_servers_own_sweep() -> None:
    # The page's gradient check panel fits a check over the work bound to fewer h values
    # of the default sweep (static/js/lab/gradcheck-fit.js): the same floats as the server's.
    assert js_constant("lab/gradcheck-fit.js", "DEFAULT_H") == list(DEFAULT_H)


def test_the_sweep_shows_the_error_falling_then_rising_again() -> None:
    (check,) = gradcheck_source(PARABOLA)["checks"]
    sweep = errors(check)
    best = sweep.index(min(sweep))

    assert 0 < best < len(sweep) - 1
    assert sweep[:4] == sorted(sweep[:4], reverse=True), "truncation error falls with h"
    assert sweep[-1] > 100 * sweep[best], "rounding error grows again as h shrinks"


def test_the_central_difference_is_exact_for_a_parabola_up_to_rounding() -> None:
    (check,) = gradcheck_source(PARABOLA, h=[0.1, 0.001], scheme="central")["checks"]

    assert all(error < 1e-9 for error in errors(check))


def test_checks_come_one_per_leaf_in_node_id_order_with_the_traces_ids() -> None:
    result = gradcheck_source(NEURON, h=[1e-6])
    trace = trace_source(NEURON)
    leaves = [node for node in trace["nodes"] if node["kind"] == "leaf"]

    assert result["output"] == trace["output"]
    assert [(c["node"], c["label"]) for c in result["checks"]] == [
        (node["id"], node["label"]) for node in leaves
    ]
    assert [c["analytic"] for c in result["checks"]] == [node["grad"] for node in leaves]
    Gradcheck.model_validate(result)


def test_constants_are_not_checked() -> None:
    result = gradcheck_source("x = 2.0\ny = 3 * x + 1\n", h=[1e-3])

    assert [check["label"] for check in result["checks"]] == ["x"]


def test_leaves_restricts_the_check_to_the_named_ones() -> None:
    result = gradcheck_source(NEURON, h=[1e-6], leaves=["w1", "x1"])

    assert [check["label"] for check in result["checks"]] == ["x1", "w1"]


def test_an_unknown_leaf_is_refused_by_name() -> None:
    with pytest.raises(EngineError, match=r"no leaf is labelled 'w9'.*'x1'"):
        gradcheck_source(NEURON, leaves=["w9"])


def test_a_node_that_is_not_a_leaf_cannot_be_checked() -> None:
    with pytest.raises(EngineError, match="no leaf is labelled 'o'"):
        gradcheck_source(NEURON, leaves=["o"])


@pytest.mark.parametrize(
    ("h", "message"),
    [
        ([0.0], "positive finite"),
        ([-1e-3], "positive finite"),
        ([float("inf")], "positive finite"),
        ([float("nan")], "positive finite"),
        ([], "at least one"),
        ([1e-3] * (MAX_H_VALUES + 1), f"at most {MAX_H_VALUES}"),
        ([True], "must be a number"),
        (["0.1"], "must be a number"),
    ],
    ids=["zero", "negative", "inf", "nan", "empty", "too-many", "bool", "string"],
)
def test_a_bad_h_is_refused_with_a_reason(h: list[Any], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        gradcheck_source(PARABOLA, h=h)


def test_an_unknown_scheme_is_refused() -> None:
    with pytest.raises(EngineError, match="scheme must be 'forward' or 'central'"):
        gradcheck_source(PARABOLA, scheme="backward")


def test_work_over_the_limit_is_refused_naming_its_variable() -> None:
    limits = Limits(max_gradcheck_work=5 * 14 * 10 - 1)  # the neuron: 5 leaves, 10 nodes

    with pytest.raises(EngineError, match="BACKPROP_MAX_GRADCHECK_WORK") as caught:
        gradcheck_source(NEURON, limits=limits)
    assert "5 leaves × 14 h values × 10 nodes" in caught.value.message
    assert gradcheck_source(NEURON, limits=limits, leaves=["x1"])["checks"]


def test_a_quotient_that_overflows_is_an_error_not_infinity() -> None:
    with pytest.raises(EngineError, match="too large for a float") as caught:
        gradcheck_source("x = 700.0\ny = exp(x)\n", h=[100.0])
    assert caught.value.line == 2


def test_moving_a_leaf_out_of_a_functions_domain_says_which_leaf_and_node() -> None:
    with pytest.raises(
        EngineError, match=r"moving 'x' by −0\.1 makes y \(log\) fail \(the number is outside"
    ) as caught:
        gradcheck_source("x = 0.05\ny = log(x)\n", h=[0.1], scheme="central")
    assert (caught.value.line, caught.value.column) == (2, 5)


def test_a_huge_h_whose_quotient_is_not_finite_is_an_error_that_says_so() -> None:
    with pytest.raises(EngineError, match=r"not a finite number.*try smaller h values"):
        gradcheck_source("x = 3.0\ny = x * x\n", h=[1e308], scheme="central")


def test_a_negative_base_to_a_fractional_power_is_an_error_not_a_complex_number() -> None:
    with pytest.raises(EngineError, match="complex"):
        gradcheck_source("x = 0.05\ny = x ** 0.5\n", h=[0.1], scheme="central")


def test_a_check_of_the_assign_mistake_shows_the_disagreement() -> None:
    (check,) = gradcheck_source(
        "a = Value(3.0)\nb = a + a\n", h=[1e-3], mistake="assign", scheme="central"
    )["checks"]

    assert check["analytic"] == 1.0
    assert check["rows"][0]["numeric"] == pytest.approx(2.0)
    assert check["rows"][0]["error"] == pytest.approx(1.0)


def test_a_check_of_the_append_first_neuron_shows_every_leaf_off() -> None:
    result = gradcheck_source(NEURON, h=[1e-6], mistake="append-first", scheme="central")

    for check in result["checks"]:
        assert check["analytic"] == 0.0
        expected = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}[check["label"]]
        assert check["rows"][0]["numeric"] == pytest.approx(expected, abs=1e-6)


def test_the_expanded_granularity_gives_the_same_leaf_checks() -> None:
    packed = gradcheck_source(NEURON, h=[1e-5], scheme="central")
    expanded = gradcheck_source(NEURON, "expanded", h=[1e-5], scheme="central")

    assert [c["label"] for c in packed["checks"]] == [c["label"] for c in expanded["checks"]]
    for a, b in zip(packed["checks"], expanded["checks"], strict=True):
        assert a["analytic"] == pytest.approx(b["analytic"], abs=1e-12)
        assert a["rows"][0]["numeric"] == pytest.approx(b["rows"][0]["numeric"], abs=1e-8)


def test_the_answer_is_strict_json() -> None:
    text = json.dumps(gradcheck_source(NEURON), allow_nan=False)

    assert "NaN" not in text and "Infinity" not in text


@settings(HYPOTHESIS, max_examples=120)
@given(programs())
def test_the_right_engine_agrees_with_the_central_difference_on_random_programs(
    program: Program,
) -> None:
    assume(well_conditioned(traced(program)))
    try:
        result = gradcheck_source(program.source(), h=[1e-6], scheme="central")
    except EngineError:
        assume(False)  # h moved a leaf across a pole or out of a domain
        return

    for check in result["checks"]:
        numeric = check["rows"][0]["numeric"]
        assert check["analytic"] == pytest.approx(numeric, rel=1e-4, abs=1e-4), check["label"]


@settings(HYPOTHESIS, max_examples=60)
@given(programs(), st.sampled_from([None, "assign", "append-first", "no-sort"]))
def test_the_analytic_gradients_are_the_traces_own(program: Program, mistake: str | None) -> None:
    traced(program)
    try:
        trace = trace_source(program.source(), mistake=mistake)
    except EngineError:
        return  # a mistaken pass may overflow where the right one does not
    try:
        result = gradcheck_source(program.source(), h=[1e-9], mistake=mistake)
    except EngineError as error:
        # Only moving a leaf may fail here; the gradients themselves are the trace's.
        assert error.message.startswith(("moving", "at h = ")), error.message
        return

    leaves = {node["id"]: node for node in trace["nodes"] if node["kind"] == "leaf"}
    assert result["output"] == trace["output"]
    assert [check["node"] for check in result["checks"]] == list(leaves)
    for check in result["checks"]:
        node = leaves[check["node"]]
        assert (check["label"], check["analytic"]) == (node["label"], node["grad"])
