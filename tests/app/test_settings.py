"""Settings from the environment: defaults, overrides, and loud errors for bad values."""

from __future__ import annotations

import pytest

from backprop_animator.app.settings import Settings
from backprop_animator.engine import Limits


def test_defaults_follow_the_spec() -> None:
    settings = Settings.from_env({})

    assert settings.limits == Limits()
    assert settings.limits.max_source_chars == 100_000
    assert settings.trace_time_limit < 2
    assert settings.trace_workers >= 1


def test_environment_overrides_limits_and_tracing() -> None:
    settings = Settings.from_env(
        {
            "BACKPROP_MAX_NODES": "500",
            "BACKPROP_TRACE_WORKERS": "3",
            "BACKPROP_TRACE_TIME_LIMIT": "0.75",
            "BACKPROP_MAX_EXPORT_BYTES": "250000",
        }
    )

    assert settings.limits.max_nodes == 500
    assert settings.trace_workers == 3
    assert settings.trace_time_limit == 0.75
    assert settings.max_export_trace_bytes == 250_000


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BACKPROP_TRACE_WORKERS", "two"),
        ("BACKPROP_TRACE_WORKERS", "0"),
        ("BACKPROP_TRACE_WORKERS", "1.5"),
        ("BACKPROP_TRACE_TIME_LIMIT", "-1"),
        ("BACKPROP_TRACE_TIME_LIMIT", "nan"),
        ("BACKPROP_MAX_EXPORT_BYTES", "0"),
        ("BACKPROP_MAX_EXPORT_BYTES", "ten"),
    ],
)
def test_bad_values_are_errors_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_body_limit_fits_any_source_the_engine_accepts() -> None:
    settings = Settings(limits=Limits(max_source_chars=1_000))

    # Every character escaped as \uXXXX, plus the JSON around it.
    assert settings.max_body_bytes >= 6 * 1_000 + len('{"source": "", "granularity": "expanded"}')


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", False), ("1", True), ("true", True), ("Yes", True), ("0", False), ("off", False)],
)
def test_the_access_log_is_off_unless_the_environment_turns_it_on(
    value: str, expected: bool
) -> None:
    assert Settings.from_env({"BACKPROP_ACCESS_LOG": value}).access_log is expected
    assert Settings.from_env({}).access_log is False


def test_a_bad_access_log_switch_is_an_error_naming_the_variable() -> None:
    with pytest.raises(ValueError, match="BACKPROP_ACCESS_LOG"):
        Settings.from_env({"BACKPROP_ACCESS_LOG": "maybe"})
