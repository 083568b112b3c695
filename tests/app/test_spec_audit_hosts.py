"""Every host answers the learner's engine whose right gradient overflows (SPEC §3, §14,
§16): the API with a number or no `correct_grad`, never `null`; the export and the CLI's
export with a page, never a 500 or a traceback."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.app.test_cli import run
from tests.engine.test_spec14_right_overflow import OVERFLOWING_RIGHT

pytestmark = pytest.mark.anyio


async def test_the_api_and_the_export_carry_a_right_gradient_that_overflows(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/api/trace", json={"source": OVERFLOWING_RIGHT})
    assert response.status_code == 200, response.text
    nodes = {node["label"]: node for node in response.json()["nodes"]}
    assert "correct_grad" not in nodes["b"]  # left out, not `null`
    assert all(type(node.get("correct_grad", 0.0)) is float for node in nodes.values())
    exported = await client.get("/export", params={"source": OVERFLOWING_RIGHT})
    assert exported.status_code == 200, exported.text[:500]


def test_the_cli_exports_it(tmp_path: Path) -> None:
    page = tmp_path / "own.html"
    result = run("export", "-", "-o", str(page), stdin=OVERFLOWING_RIGHT)
    assert result.returncode == 0, result.stderr
    assert page.read_text(encoding="utf-8").startswith("<!doctype html>")
