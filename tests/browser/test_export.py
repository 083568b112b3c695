"""The standalone export and notebook output in Chromium, from file:// with no network."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from backprop_animator.app.export import render_standalone, standalone_title
from backprop_animator.app.notebook import animate
from backprop_animator.engine import trace_source
from backprop_animator.engine.rules import rule_sources
from tests.browser.conftest import NEURON, Problems

pytestmark = pytest.mark.browser

ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}
PAYLOAD = "</script><img src=x onerror=window.pwned=1>"
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


@pytest.fixture
def offline_page(chromium: Browser, problems: Problems) -> Iterator[tuple[Page, list[str]]]:
    """A page whose every request that would leave the machine is aborted and recorded."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    context.set_offline(True)
    blocked: list[str] = []

    def guard(route: Route) -> None:
        if route.request.url.startswith(LOCAL_SCHEMES):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.messages.append(m.text))
    page.on("pageerror", lambda error: problems.messages.append(str(error)))
    yield page, blocked
    context.close()
    assert problems.unexpected() == [], "the page logged errors"


def export_file(folder: Path, source: str, **options: Any) -> str:
    path = folder / "export.html"
    document = render_standalone(
        trace_source(source),
        rule_sources(),
        title=standalone_title(source),
        **options,
    )
    path.write_text(document, encoding="utf-8")
    return path.as_uri()


def test_export_plays_all_16_frames_of_the_neuron_from_file_offline(
    offline_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, blocked = offline_page
    page.goto(export_file(tmp_path, NEURON))
    page.wait_for_selector("#player[data-ready=true]")
    counter = page.get_by_test_id("frame-counter")
    expect(counter).to_have_text("1 / 16")

    for k in range(2, 17):
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_text(f"{k} / 16")

    expect(page.get_by_test_id("scrubber")).to_have_value("15")
    for label, grad in ARTICLE_LEAF_GRADS.items():
        node = page.locator(f"[data-testid=node][data-label={label}]")
        assert math.isclose(float(node.get_attribute("data-grad") or "nan"), grad, abs_tol=1e-9)
    expect(page.locator("[data-testid=node][data-label=o]")).to_have_attribute("data-grad", "1")
    expect(page.locator("[data-testid=code-panel]")).to_contain_text("reversed(topo)")
    assert blocked == []


def test_export_play_button_runs_to_the_end(
    offline_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, blocked = offline_page
    page.goto(export_file(tmp_path, NEURON, frame=10))
    page.wait_for_selector("#player[data-ready=true]")
    expect(page.get_by_test_id("frame-counter")).to_have_text("11 / 16")

    page.locator("[data-testid=speed]").select_option("4")
    page.get_by_role("button", name="Play").click()

    expect(page.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    assert blocked == []


def test_export_lays_out_a_graph_too_big_for_inline_dagre_without_a_worker(
    offline_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, _ = offline_page
    chain = "x = Value(0.5)\ny = x\n" + "".join(f"y = tanh(y * {1 + i / 10})\n" for i in range(12))
    page.goto(export_file(tmp_path, chain, frame=10_000))
    page.wait_for_selector("#player[data-ready=true]")

    nodes = len(trace_source(chain)["nodes"])
    assert nodes > 30  # past the size the page lays out inline, so it would use a worker
    expect(page.get_by_test_id("node")).to_have_count(nodes)


def test_export_shows_a_hostile_label_as_text_and_runs_nothing(
    offline_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, _ = offline_page
    source = f"a = Value(3.0, label='{PAYLOAD}')\nb = a * 2"
    page.goto(export_file(tmp_path, source))
    page.wait_for_selector("#player[data-ready=true]")

    node = page.locator("[data-testid=node]").first
    expect(node).to_have_attribute("data-label", PAYLOAD)
    assert page.title() == standalone_title(source)
    assert page.locator("img").count() == 0
    assert page.evaluate("() => window.pwned") is None


def test_two_notebook_outputs_on_one_page_play_independently(
    offline_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, blocked = offline_page
    outputs = (
        animate(NEURON, frame=15)._repr_html_() + animate("a = Value(3.0); a + a")._repr_html_()
    )
    notebook = tmp_path / "notebook.html"
    notebook.write_text(f"<!doctype html><title>Notebook</title><body>{outputs}</body>")
    page.goto(notebook.as_uri())

    first, second = page.frame_locator("iframe").nth(0), page.frame_locator("iframe").nth(1)
    expect(first.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    expect(second.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    second.get_by_role("button", name="Next frame").click()
    expect(second.get_by_test_id("frame-counter")).to_have_text("2 / 4")
    expect(first.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    page.wait_for_function(
        "() => [...document.querySelectorAll('iframe')].every(f => f.style.height !== '760px')"
    )
    assert blocked == []
