"""The quiz (SPEC §10) as the server side turns it on: the export option, the
`export --quiz` command, `GET /export?quiz=…` and `animate(..., quiz=True)`. The quiz
itself runs in the page (tests/js, tests/browser/test_quiz.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_helpers import NEURON, assert_error_shape

from backprop_animator.app.cli import main
from backprop_animator.app.export import export_options, render_standalone
from backprop_animator.app.notebook import animate
from backprop_animator.engine import trace_source
from backprop_animator.engine.rules import rule_sources


def options_in(document: str) -> Any:
    match = re.search(
        r'<script type="application/json" id="backprop-options">(.*?)</script>', document
    )
    assert match, "no options block"
    return json.loads(match.group(1))


def test_export_options_carry_the_quiz_only_when_it_is_on() -> None:
    assert export_options(3, "dark", True) == {"frame": 3, "theme": "dark", "quiz": True}
    assert export_options(0, "auto", False) == {"frame": 0, "theme": "auto"}


def test_standalone_page_with_the_quiz_tells_the_player_so() -> None:
    document = render_standalone(trace_source(NEURON), rule_sources(), title="Neuron", quiz=True)

    assert options_in(document) == {"frame": 0, "theme": "auto", "quiz": True}
    assert ".quiz-prompt" in document, "the quiz's styles travel with the file"
    assert "backprop-animator/js/quiz/quiz.js" in document, "and so does its module"


def test_export_command_takes_quiz(tmp_path: Path) -> None:
    target = tmp_path / "quiz.html"

    status = main(["export", NEURON, "-o", str(target), "--quiz", "--frame", "6"])

    assert status == 0
    assert options_in(target.read_text(encoding="utf-8")) == {
        "frame": 6,
        "theme": "auto",
        "quiz": True,
    }


def test_export_command_without_quiz_writes_no_quiz_option(tmp_path: Path) -> None:
    target = tmp_path / "plain.html"

    assert main(["export", NEURON, "-o", str(target)]) == 0
    assert "quiz" not in options_in(target.read_text(encoding="utf-8"))


@pytest.mark.anyio
@pytest.mark.parametrize(("value", "expected"), [("1", True), ("true", True), ("0", False)])
async def test_export_route_takes_quiz(
    client: httpx.AsyncClient, value: str, expected: bool
) -> None:
    response = await client.get("/export", params={"source": NEURON, "quiz": value})

    assert response.status_code == 200
    assert options_in(response.text).get("quiz", False) is expected


@pytest.mark.anyio
@pytest.mark.parametrize("value", ["maybe", "<script>", "1e3", ""])
async def test_export_route_refuses_a_quiz_value_that_is_not_a_yes_or_no(
    client: httpx.AsyncClient, value: str
) -> None:
    response = await client.get("/export", params={"source": NEURON, "quiz": value})

    error = assert_error_shape(response, 422)
    assert "quiz" in error["message"]


def test_animate_with_quiz_shows_the_quiz_in_the_notebook_and_the_file() -> None:
    animation = animate(NEURON, quiz=True)

    assert options_in(animation.to_html())["quiz"] is True
    inner = html.unescape(
        re.sub(r"^.*srcdoc=\"|\" style=.*$", "", animation._repr_html_(), flags=re.S)
    )
    assert options_in(inner)["quiz"] is True
    assert "quiz" not in options_in(animate(NEURON).to_html())


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_animate_refuses_a_quiz_that_is_not_a_bool(value: Any) -> None:
    with pytest.raises(TypeError, match="quiz must be True or False"):
        animate(NEURON, quiz=value)
