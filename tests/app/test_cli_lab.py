"""`backprop-animator gradcheck`, `trace --mistake/--sort-steps` and the export's lab options.

Run as `python -m backprop_animator` from this checkout, so they test this code whichever
copy of the project the environment has installed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from service_helpers import NEURON

from backprop_animator.app.export import render_standalone
from backprop_animator.app.notebook import animate
from backprop_animator.engine import EngineError, Value, gradcheck_source, trace_source
from backprop_animator.engine.rules import rule_sources

REPO = Path(__file__).resolve().parents[2]
A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()\n"
PARABOLA = "x = Value(3.0)\nf = 3*x**2 - 4*x + 5\n"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backprop_animator", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )


def options_block(document: str) -> Any:
    match = re.search(r'id="backprop-options">(.*?)</script>', document, flags=re.DOTALL)
    assert match, "no options block"
    return json.loads(match.group(1))


def test_gradcheck_prints_the_article_numbers_as_json() -> None:
    result = run("gradcheck", PARABOLA, "--h", "0.001")

    assert result.returncode == 0, result.stderr
    (check,) = json.loads(result.stdout)["checks"]
    assert check["analytic"] == 14.0
    assert abs(check["rows"][0]["numeric"] - 14.003) < 1e-9


def test_gradcheck_takes_scheme_leaves_mistake_and_stdin() -> None:
    args = ["gradcheck", "-", "--scheme", "central", "--h", "1e-5", "1e-6", "--leaves", "w1"]
    result = run(*args, "--mistake", "append-first", stdin=NEURON)

    assert result.returncode == 0, result.stderr
    expected = gradcheck_source(
        NEURON, scheme="central", h=[1e-5, 1e-6], leaves=["w1"], mistake="append-first"
    )
    assert json.loads(result.stdout) == expected


def test_gradcheck_exits_2_with_the_line_and_column_of_a_bad_program() -> None:
    result = run("gradcheck", "x = Value(3.0)\nf = x * y\n")

    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 2, column 9" in result.stderr and "'y'" in result.stderr


def test_gradcheck_stops_re_runs_that_run_longer_than_the_first_at_its_work_bound() -> None:
    # The CLI has no worker to kill: with a roomy clock, re-runs that each looped 300,000
    # times once a leaf had moved ran 14 million steps until the clock; counted as they
    # run, they end at the work bound in a second.
    source = (
        "a = Value(2.0)\nb = Value(3.0)\nif a.data != 2.0 or b.data != 3.0:\n"
        "    for i in range(300000):\n        pass\nout = a * b\nout.backward()\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "backprop_animator", "gradcheck", "-"],
        input=source,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "BACKPROP_TRACE_TIME_LIMIT": "20"},
    )
    assert result.returncode == 2, result.stderr
    assert "BACKPROP_MAX_GRADCHECK_WORK" in result.stderr
    assert "Traceback" not in result.stderr  # (and not the 20 s clock's words: the bound's)


def test_gradcheck_exits_2_for_a_bad_h_or_an_unknown_leaf() -> None:
    for args in (["--h", "nan"], ["--h", "0"], ["--leaves", "nope"], ["--scheme", "back"]):
        result = run("gradcheck", PARABOLA, *args)
        assert result.returncode == 2, args
        assert result.stdout == ""


def test_trace_takes_mistake_and_sort_steps() -> None:
    result = run("trace", A_PLUS_A, "--mistake", "assign", "--sort-steps")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == trace_source(A_PLUS_A, mistake="assign", sort_steps=True)


def test_trace_refuses_an_unknown_mistake() -> None:
    result = run("trace", A_PLUS_A, "--mistake", "typo")

    assert result.returncode == 2
    assert "invalid choice: 'typo'" in result.stderr


def test_export_carries_the_lab_options_and_embeds_the_gradient_check() -> None:
    args = ["export", A_PLUS_A, "-o", "-", "--mistake", "no-sort", "--sort-steps", "--gradcheck"]
    result = run(*args)

    assert result.returncode == 0, result.stderr
    options = options_block(result.stdout)
    assert options["mistake"] == "no-sort"
    assert options["sort_steps"] is True
    assert options["gradcheck"] == gradcheck_source(A_PLUS_A, mistake="no-sort")


def test_an_export_without_lab_options_has_only_frame_and_theme() -> None:
    document = render_standalone(trace_source(NEURON), rule_sources(), title="Neuron")

    assert options_block(document) == {"frame": 0, "theme": "auto"}


def test_animate_runs_a_mistake_with_sort_steps_and_the_gradient_check() -> None:
    animation = animate(A_PLUS_A, mistake="assign", sort_steps=True, gradcheck=True)

    assert animation.trace == trace_source(A_PLUS_A, mistake="assign", sort_steps=True)
    options = options_block(animation.to_html())
    assert (options["mistake"], options["sort_steps"]) == ("assign", True)
    assert options["gradcheck"]["checks"][0]["analytic"] == 1.0


def test_animate_checks_a_graph_built_with_engine_values() -> None:
    x = Value(2.0, label="x")
    animation = animate(x * x, gradcheck=True)

    assert animation.gradcheck is not None
    (check,) = animation.gradcheck["checks"]
    assert (check["label"], check["analytic"]) == ("x", 4.0)


def test_animate_without_lab_options_shows_no_gradient_check() -> None:
    animation = animate(NEURON)

    assert animation.gradcheck is None
    assert set(options_block(animation.to_html())) == {"frame", "theme"}


def test_animate_refuses_a_gradient_check_of_another_engines_graph() -> None:
    class Foreign:
        def __init__(self, data: float, children: tuple[Foreign, ...] = ()) -> None:
            self.data, self.grad, self._prev, self._op = (
                data,
                0.0,
                children,
                "+" if children else "",
            )
            self._backward = lambda: None

    leaf = Foreign(1.0)
    with pytest.raises(TypeError, match=r"gradcheck=True needs a program or an engine\.Value"):
        animate(Foreign(2.0, (leaf, leaf)), gradcheck=True)


def test_animate_refuses_an_unknown_mistake() -> None:
    with pytest.raises(EngineError, match="mistake must be one of"):
        animate(A_PLUS_A, mistake="sometimes")


# SPEC §13: the lab on a real program in every host: a loop of two training passes.
TRAINING = (
    "w = Value(2.0, label='w')\nfor i in range(2):\n    y = w * w + w\n"
    "    w.grad = 0.0\n    y.backward()\n    w.data -= 0.1 * w.grad\n"
)


def test_the_cli_runs_the_lab_on_a_training_loop() -> None:
    traced = run("trace", "-", "--mistake", "assign", "--sort-steps", stdin=TRAINING)
    assert traced.returncode == 0, traced.stderr
    trace = json.loads(traced.stdout)
    assert trace == trace_source(TRAINING, mistake="assign", sort_steps=True)
    assert [p["correct_grads"]["n0"] for p in trace["passes"]] == [5.0, 4.6]

    checked = run(
        "gradcheck", "-", "--mistake", "assign", "--pass", "1", "--h", "1e-6", stdin=TRAINING
    )
    assert checked.returncode == 0, checked.stderr
    (check,) = json.loads(checked.stdout)["checks"]
    assert check["analytic"] == 1.8  # `=` kept w.data, the last of w's three writes
    assert abs(check["rows"][0]["numeric"] - 4.6) < 1e-4


def test_the_export_and_animate_carry_the_lab_on_a_training_loop() -> None:
    exported = run("export", "-", "-o", "-", "--mistake", "no-sort", "--gradcheck", stdin=TRAINING)
    assert exported.returncode == 0, exported.stderr
    options = options_block(exported.stdout)
    assert options["mistake"] == "no-sort"
    assert options["gradcheck"] == gradcheck_source(TRAINING, mistake="no-sort")

    animation = animate(TRAINING, mistake="append-first", sort_steps=True, gradcheck=True)
    assert animation.trace == trace_source(TRAINING, mistake="append-first", sort_steps=True)
    assert animation.trace["mistake"] == "append-first"
