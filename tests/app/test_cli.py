"""The `backprop-animator` command, run as the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import NEURON

from app import __version__
from app.worker import encode_trace
from engine import Limits

SCRIPT = Path(sys.executable).parent / "backprop-animator"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    assert SCRIPT.exists(), f"{SCRIPT} is missing: install the project (pip install -e .)"
    return subprocess.run(
        [str(SCRIPT), *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_trace_prints_the_same_json_as_the_api() -> None:
    result = run("trace", NEURON)

    assert result.returncode == 0, result.stderr
    assert result.stdout.encode() == encode_trace(NEURON, "packed", Limits()).body + b"\n"
    assert len(json.loads(result.stdout)["frames"]) == 16


def test_trace_reads_the_program_from_stdin_given_a_dash() -> None:
    result = run("trace", "-", "--granularity", "expanded", stdin=NEURON)

    assert result.returncode == 0, result.stderr
    trace = json.loads(result.stdout)
    assert (trace["source"], trace["granularity"]) == (NEURON, "expanded")
    assert len(trace["frames"]) == 29


def test_trace_of_a_bad_program_exits_2_with_the_error_on_stderr() -> None:
    result = run("trace", "a = Value(1.0)\nb = a * w3\n")

    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 2, column 9" in result.stderr
    assert "w3" in result.stderr


def test_trace_names_the_limit_from_the_environment() -> None:
    result = subprocess.run(
        [str(SCRIPT), "trace", "-"],
        input="a = Value(1.0)\n" + "#" * 50,
        capture_output=True,
        text=True,
        timeout=60,
        env={"BACKPROP_MAX_SOURCE_CHARS": "20", "PATH": ""},
    )

    assert result.returncode == 2
    assert "BACKPROP_MAX_SOURCE_CHARS" in result.stderr


def test_version_prints_the_package_version() -> None:
    result = run("--version")

    assert result.returncode == 0
    assert result.stdout.strip() == f"backprop-animator {__version__}"


@pytest.mark.parametrize(
    "args",
    [(), ("fly",), ("serve", "--workers", "0"), ("trace",), ("trace", "x", "--granularity", "x")],
    ids=["no command", "unknown command", "zero workers", "no source", "bad granularity"],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    result = run(*args)

    assert result.returncode == 2
    assert "usage: backprop-animator" in result.stderr


@pytest.mark.parametrize("command", [("serve", "--port", "0"), ("trace", "a = Value(1.0)")])
def test_bad_settings_in_the_environment_exit_2_naming_the_variable(
    command: tuple[str, ...],
) -> None:
    result = subprocess.run(
        [str(SCRIPT), *command],
        capture_output=True,
        text=True,
        timeout=60,
        env={"BACKPROP_MAX_NODES": "many", "PATH": ""},
    )

    assert result.returncode == 2
    assert "BACKPROP_MAX_NODES" in result.stderr
