"""How big a program may be (engine/limits.py): defaults, the environment, and the
error for going over a limit, which names the variable that raises it."""

from __future__ import annotations

import dataclasses

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from backprop_animator.engine.limits import ENV_NAMES


def test_limits_read_from_the_environment() -> None:
    limits = Limits.from_env(
        {
            "BACKPROP_MAX_SOURCE_CHARS": "500",
            "BACKPROP_MAX_NODES": "40",
            "BACKPROP_MAX_DEPTH": "12",
            "BACKPROP_MAX_CALL_DEPTH": "50",
            "BACKPROP_MAX_RECURSION_LIMIT": "5000",
            "BACKPROP_MAX_STEPS": "1000",
            "BACKPROP_MAX_GRADCHECK_WORK": "123",
            "BACKPROP_TRACE_TIME_LIMIT": "0.75",
        }
    )
    assert limits == Limits(
        max_source_chars=500,
        max_nodes=40,
        max_depth=12,
        max_call_depth=50,
        max_recursion_limit=5_000,
        max_steps=1000,
        max_gradcheck_work=123,
        time_limit=0.75,
    )


def test_every_limit_has_an_environment_variable() -> None:
    # (`said_time_limit` is no limit: the time limit an error names, set by the server)
    fields = {field.name for field in dataclasses.fields(Limits)} - {"said_time_limit"}
    assert set(ENV_NAMES) == fields
    sizes = {name for field, name in ENV_NAMES.items() if field != "time_limit"}
    assert all(name.startswith("BACKPROP_MAX_") for name in sizes)
    assert ENV_NAMES["time_limit"] == "BACKPROP_TRACE_TIME_LIMIT"  # the server's name for it


def test_unset_or_blank_environment_keeps_the_defaults() -> None:
    assert Limits.from_env({}) == Limits()
    assert Limits.from_env({"BACKPROP_MAX_NODES": " "}) == Limits()
    assert Limits() == Limits(
        max_source_chars=100_000,
        max_nodes=20_000,
        max_depth=200,
        max_call_depth=1_000,
        max_recursion_limit=10_000,
        max_steps=1_000_000,
        max_gradcheck_work=500_000,
        time_limit=1.8,
    )


def test_other_environment_variables_are_ignored() -> None:
    assert Limits.from_env({"BACKPROP_MAX_NODE": "3", "PATH": "/usr/bin"}) == Limits()


def test_whitespace_around_a_number_is_allowed() -> None:
    assert Limits.from_env({"BACKPROP_MAX_DEPTH": " 12\n"}).max_depth == 12


@pytest.mark.parametrize("raw", ["many", "1.5", "0", "-3", "1e3"])
def test_a_bad_environment_value_names_its_variable_and_the_value(raw: str) -> None:
    with pytest.raises(ValueError, match="BACKPROP_MAX_NODES") as caught:
        Limits.from_env({"BACKPROP_MAX_NODES": raw})
    assert raw.strip() in str(caught.value)


@pytest.mark.parametrize("raw", ["soon", "0", "0.01", "-1", "inf", "nan"])
def test_a_bad_time_limit_names_its_variable(raw: str) -> None:
    with pytest.raises(ValueError, match="BACKPROP_TRACE_TIME_LIMIT"):
        Limits.from_env({"BACKPROP_TRACE_TIME_LIMIT": raw})


def test_exceeded_names_the_limit_and_its_variable_at_a_position() -> None:
    error = Limits(max_nodes=20_000).exceeded("max_nodes", "the graph is too big", 3, 7)

    assert isinstance(error, EngineError)
    assert error.message == (
        "the graph is too big (the limit is 20,000; set BACKPROP_MAX_NODES to change it)"
    )
    assert (error.line, error.column) == (3, 7)


def test_exceeded_without_a_position_has_none() -> None:
    error = Limits().exceeded("max_steps", "the program ran too long")
    assert (error.line, error.column) == (None, None)
    assert "BACKPROP_MAX_STEPS" in error.message


def test_a_limit_from_the_environment_is_named_when_hit() -> None:
    limits = Limits.from_env({"BACKPROP_MAX_NODES": "3"})
    with pytest.raises(EngineError, match=r"limit is 3; set BACKPROP_MAX_NODES"):
        trace_source("x = 1.0\ny = x * 2\nz = y * 2\n", limits=limits)


def test_limits_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Limits().max_nodes = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    "source",
    [
        "x = Value(1.0)\ny = " + " + ".join(["x"] * 250),
        "def f(x):\n    return " + " * ".join(["x"] * 250) + "\nf(Value(1.0))",
    ],
    ids=["straight-line", "real program"],
)
def test_a_long_flat_chain_of_operators_is_told_it_nests_one_level_per_operator(
    source: str,
) -> None:
    with pytest.raises(EngineError) as caught:
        trace_source(source)
    assert "a chain like `a + b + c + ...` nests one level per operator" in str(caught.value)
    assert "BACKPROP_MAX_DEPTH" in str(caught.value)
    assert caught.value.line == 2


def test_deep_calls_are_not_called_a_chain() -> None:
    source = "x = Value(1.0)\ny = " + "-" * 250 + "x"
    with pytest.raises(EngineError) as caught:
        trace_source(source)
    assert "nested too deeply here" in str(caught.value)
    assert "chain" not in str(caught.value)


def test_a_bound_met_inside_a_statement_is_said_in_its_own_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The deadline met by work of the engine's own inside a statement (a module an import
    # reads, under load: test_hand_pass's gradient check saw it) is an EngineError, which
    # was said as a host's: "this operation failed: line 2, column None: the program took
    # too long to read, before it ran … (EngineError)".
    from backprop_animator.engine.interpreter import library
    from backprop_animator.engine.limits import took_too_long

    def late(*args: object) -> bool:
        raise took_too_long(2)

    monkeypatch.setattr(library, "protocol_subclass", late)
    source = (
        "from typing import SupportsFloat\nclass C:\n    pass\n"
        "try:\n    issubclass(C, SupportsFloat)\nexcept Exception:\n    print('caught')\n"
    )
    with pytest.raises(EngineError) as caught:
        trace_source(source)
    assert caught.value.message.startswith("the program took too long to read")
    assert "this operation failed" not in caught.value.message
    assert caught.value.line == 5  # the statement's, and no handler of the program's caught it
