"""Notebooks as files: executed by nbconvert, saved, converted to HTML for readers
without a kernel. Marked slow: each test starts a Jupyter kernel."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from backprop_animator.app.notebook import STILL_CAPTION, WIDGET_HINT

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
NEURON_CELL = (
    "from backprop_animator import animate\n"
    "animate('x1 = 2.0; x2 = 0.0; w1 = -3.0; w2 = 1.0; b = 6.8813735870195432\\n"
    "o = tanh(x1*w1 + x2*w2 + b)', frame=4)"
)
WITHOUT_ANYWIDGET = (
    "import backprop_animator.app.notebook as notebook\n"
    "notebook.player_widget = lambda *args, **kw: None"
)


def execute(folder: Path, *cells: str, to: str) -> Path:
    """Run `jupyter nbconvert --execute` on a notebook of these cells, with this checkout's
    code first on the kernel's path; returns the converted file."""
    notebook = folder / "lesson.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell(cell) for cell in cells]), notebook)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "jupyter", "nbconvert", "--to", to, "--execute"]
    done = subprocess.run(
        [*command, "--output", f"out-{to}", str(notebook)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr
    return folder / f"out-{to}.{'ipynb' if to == 'notebook' else 'html'}"


def still_texts(document: str) -> str:
    match = re.search(
        r'class="backprop-animator-still"[^>]*src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"',
        document,
    )
    assert match, "no still picture"
    return base64.b64decode(match.group(1)).decode()


def test_an_executed_notebook_keeps_a_still_and_a_hint_for_readers_without_a_kernel(
    tmp_path: Path,
) -> None:
    saved = execute(tmp_path, NEURON_CELL, to="notebook")
    outputs = json.loads(saved.read_text(encoding="utf-8"))["cells"][0]["outputs"]

    still, widget = outputs
    assert WIDGET_HINT in "".join(still["data"]["text/html"])
    assert "grad \u22121.5" in still_texts("".join(still["data"]["text/html"]))
    assert "application/vnd.jupyter.widget-view+json" in widget["data"]
    # What the file carries per player: the still, not the player's code.
    assert len(json.dumps(outputs)) < 12_000


def test_nbconvert_html_shows_the_still_and_the_hint(tmp_path: Path) -> None:
    document = execute(tmp_path, NEURON_CELL, to="html").read_text(encoding="utf-8")

    assert WIDGET_HINT in document
    assert "grad \u22121.5" in still_texts(document)


def test_without_anywidget_nbconvert_html_holds_the_player_the_hint_and_the_still(
    tmp_path: Path,
) -> None:
    cells = (WITHOUT_ANYWIDGET, NEURON_CELL)
    document = execute(tmp_path, *cells, to="html").read_text(encoding="utf-8")

    assert re.search(r"<iframe [^>]*srcdoc=", document)
    inside = re.search(r"<iframe\b[^>]*>(.*?)</iframe>", document, re.S)
    assert inside and "trust the notebook or run its cells" in inside.group(1)
    assert STILL_CAPTION in document
    assert "grad \u22121.5" in still_texts(document)
