"""docs/COURSES.md's recipes, taken from the file as a reader would copy them, work on
a course page of another origin: each player plays, and each iframe fits its player."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_course_pages import widget_page
from tests.browser.test_embed import course_page, course_site
from tests.support.checkout import CHECKOUT

pytestmark = pytest.mark.browser

__all__ = ["course_site"]  # a fixture, shared with test_embed.py

COURSES = CHECKOUT / "docs" / "COURSES.md"  # docs are not in the wheel
PLACEHOLDER = "https://backprop.example.org"
RECIPE = re.compile(r"<!-- recipe: ([\w-]+) -->\n(`{3,4})\w*\n(.*?)\n\2\n", re.S)


def recipes() -> dict[str, str]:
    found = {name: body for name, _, body in RECIPE.findall(COURSES.read_text(encoding="utf-8"))}
    assert set(found) == {"html", "script-tag", "myst", "sphinx", "mkdocs", "quarto"}
    return found


def as_html(name: str, body: str) -> str:
    """The HTML a platform makes of a recipe: its raw block, as the page gets it."""
    if name == "sphinx":
        body = body.split("\n", 1)[1]  # after `.. raw:: html`
    if name == "quarto":
        body = "\n".join(body.split("\n")[1:-1])  # inside ```{=html}
    return textwrap.dedent(body)


@pytest.mark.parametrize(
    ("name", "frames"), [("html", "1 / 4"), ("sphinx", "1 / 7"), ("mkdocs", "1 / 4")]
)
def test_an_iframe_recipe_plays_and_fits_its_frame(
    player_page: Page, server: str, course_site: tuple[str, Path], name: str, frames: str
) -> None:
    snippet = as_html(name, recipes()[name]).replace(PLACEHOLDER, server)
    assert 'loading="lazy"' in snippet and "title=" in snippet and "height-listener.js" in snippet
    player_page.goto(course_page(course_site, f"{name}.html", snippet))
    player = player_page.frame_locator("iframe")
    expect(player.get_by_test_id("frame-counter")).to_have_text(frames)
    inner = next(f for f in player_page.frames if "/embed" in f.url)
    height = inner.evaluate("() => Math.ceil(document.querySelector('main').offsetHeight)")
    player_page.wait_for_function(
        f"() => Math.abs(document.querySelector('iframe').offsetHeight - {height}) <= 1"
    )


@pytest.mark.parametrize(("name", "frames"), [("script-tag", "3 / 7"), ("quarto", "1 / 10")])
def test_a_script_tag_recipe_plays(
    player_page: Page, server: str, course_site: tuple[str, Path], name: str, frames: str
) -> None:
    snippet = as_html(name, recipes()[name]).replace(PLACEHOLDER, server)
    player_page.goto(course_page(course_site, f"{name}.html", snippet))
    player = player_page.locator("[data-backprop-source]")
    expect(player.get_by_test_id("frame-counter")).to_have_text(frames)
    expect(player.get_by_test_id("node").first).to_be_visible()


def test_the_myst_recipe_renders_the_widget_module_with_its_model(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    head, body, _ = recipes()["myst"].replace(PLACEHOLDER, server).split("\n")
    assert head == f":::{{anywidget}} {server}/static/js/widget.js"
    player_page.goto(widget_page(course_site, server, "myst.html", json.loads(body)))
    player = player_page.frame_locator("iframe[data-testid=player-frame]")
    expect(player.get_by_test_id("frame-counter")).to_have_text("2 / 4")
    expect(player.locator("[data-testid=code-panel]")).to_be_hidden()
