"""The `backprop-animator` command, run as the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import NEURON

from backprop_animator.app import __version__
from backprop_animator.app.cli import main
from backprop_animator.app.worker import encode_trace
from backprop_animator.engine import Limits

SCRIPT = Path(sys.executable).parent / "backprop-animator"
# `python -m backprop_animator` from the checkout: this tree's code, whichever one is installed.
MODULE = [sys.executable, "-m", "backprop_animator"]
ROOT = Path(__file__).resolve().parents[2]


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


def test_a_byte_order_mark_before_the_program_on_stdin_is_skipped_as_cpython_skips_it() -> None:
    result = run("trace", "-", stdin="\ufeff" + NEURON)

    assert result.returncode == 0, result.stderr
    trace = json.loads(result.stdout)
    assert (trace["source"], len(trace["frames"])) == (NEURON, 16)


def test_trace_of_a_bad_program_exits_2_with_the_error_on_stderr() -> None:
    result = run("trace", "a = Value(1.0)\nb = a * w3\n")

    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 2, column 9" in result.stderr
    assert "w3" in result.stderr


def test_a_file_name_given_as_source_is_told_how_to_pass_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "model.py"
    program.write_text("a = Value(1.0)\nb = a * a\n", encoding="utf-8")

    status = main(["trace", str(program)])

    assert status == 2
    err = capsys.readouterr().err
    assert "syntax error" in err or "line 1" in err
    assert f"backprop-animator ... - < {program}" in err
    # The file itself, through `-`, traces; a bad program that names no file gets no hint.
    assert run("trace", "-", stdin=program.read_text(encoding="utf-8")).returncode == 0
    assert main(["trace", "a = Value(1.0)\nb = a * w3\n"]) == 2
    assert "redirect" not in capsys.readouterr().err


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


def test_trace_of_a_label_with_a_lone_surrogate_prints_it_replaced_and_exits_0() -> None:
    result = subprocess.run(
        [*MODULE, "trace", "x = Value(1.0, label='\\ud800')\nx * 2"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["nodes"][0]["label"] == "\ufffd"


def test_a_program_argument_that_is_not_utf8_exits_2_with_a_sentence() -> None:
    result = subprocess.run(
        [*MODULE, "trace", b"x = \xff"], capture_output=True, timeout=60, cwd=ROOT
    )

    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    assert b"cannot be read" in result.stderr


def test_trace_with_standard_output_closed_exits_2_saying_so() -> None:
    result = subprocess.run(
        ["bash", "-c", '"$0" -m backprop_animator trace "$1" >&-', sys.executable, NEURON],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )

    assert result.returncode == 2
    assert "standard output" in result.stderr
    assert "Traceback" not in result.stderr


class EndlessInput:
    """A standard input that never ends; reading all of it fails the test."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def read(self, size: int = -1) -> str:
        assert size >= 0, "the whole of standard input was read"
        self.asked.append(size)
        return "#" * size


def test_stdin_is_read_only_one_character_past_the_source_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    endless = EndlessInput()
    monkeypatch.setattr(sys, "stdin", endless)
    monkeypatch.setenv("BACKPROP_MAX_SOURCE_CHARS", "50")

    status = main(["trace", "-"])

    assert status == 2
    assert endless.asked == [51]
    assert "longer than 50 characters" in capsys.readouterr().err


def test_a_failed_export_leaves_the_existing_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "page.html"
    target.write_text("the page from yesterday", encoding="utf-8")
    # A document UTF-8 cannot encode fails half-way through writing it.
    monkeypatch.setattr(
        "backprop_animator.app.export.render_standalone", lambda *args, **kwargs: "<p>\ud800"
    )

    status = main(["export", NEURON, "-o", str(target)])

    assert status == 2
    assert target.read_text(encoding="utf-8") == "the page from yesterday"
    assert list(tmp_path.iterdir()) == [target]
    assert "surrogates not allowed" in capsys.readouterr().err
