"""A course page with several players: heights that hold still and follow the player,
off-screen frames included; the notebook widget's module driven with a stand-in model."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Frame, Page, expect

from tests.browser.conftest import NEURON, open_player, player_url
from tests.browser.test_embed import course_page, course_site, embed_url

pytestmark = pytest.mark.browser

__all__ = ["course_site"]  # a fixture, shared with test_embed.py

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()"


def listener(server: str) -> str:
    return f'<script src="{server}/static/height-listener.js"></script>'


def frame_tag(url: str, title: str) -> str:
    size = 'width="100%" height="300" style="border:0"'
    return f'<iframe src="{url}" title="{title}" {size}></iframe>'


@pytest.mark.parametrize("width", [1000, 390])
def test_the_player_keeps_one_height_at_every_frame(
    player_page: Page, server: str, width: int
) -> None:
    player_page.set_viewport_size({"width": width, "height": 900})
    open_player(player_page, player_url(server, NEURON, path="/embed"))
    heights = set()
    for _ in range(16):
        heights.add(player_page.evaluate("() => document.querySelector('main').offsetHeight"))
        player_page.keyboard.press("ArrowRight")
    assert len(heights) == 1, f"the player's height changed while stepping: {sorted(heights)}"


def test_course_text_below_a_player_does_not_move_while_the_learner_scrubs(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    body = frame_tag(embed_url(server), "Neuron") + '<p id="after">Next.</p>' + listener(server)
    player_page.goto(course_page(course_site, "steady.html", body))
    embed = player_page.frame_locator("iframe")
    expect(embed.get_by_test_id("frame-counter")).to_have_text("1 / 16")
    inner = next(f for f in player_page.frames if "/embed" in f.url)
    tops = set()
    for frame in range(16):
        embed.get_by_test_id("scrubber").fill(str(frame))
        expect(embed.get_by_test_id("frame-counter")).to_have_text(f"{frame + 1} / 16")
        height = inner.evaluate("() => Math.ceil(document.querySelector('main').offsetHeight)")
        player_page.wait_for_function(
            f"() => Math.abs(document.querySelector('iframe').offsetHeight - {height}) <= 1"
        )
        tops.add(player_page.evaluate("() => document.getElementById('after').offsetTop"))
    assert len(tops) == 1, f"the text below moved: {sorted(tops)}"


def frame_fits(page: Page, index: int, inner: Frame) -> None:
    """Wait until iframe number `index` is as tall as the player page inside it."""
    height = inner.evaluate("() => Math.ceil(document.querySelector('main').offsetHeight)")
    page.wait_for_function(
        "([index, height]) =>"
        " Math.abs(document.querySelectorAll('iframe')[index].offsetHeight - height) <= 1",
        arg=[index, height],
    )


def test_a_player_off_screen_reports_its_real_height_and_follows_a_resize(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    body = (
        frame_tag(embed_url(server), "First")
        + '<div style="height: 3000px"></div>'
        + frame_tag(embed_url(server, A_PLUS_A), "Second")
        + listener(server)
    )
    player_page.goto(course_page(course_site, "offscreen.html", body))
    second = player_page.frame_locator("iframe").nth(1)
    expect(second.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    first_inner = next(f for f in player_page.frames if "/embed" in f.url and "x1" in f.url)
    second_inner = next(f for f in player_page.frames if "a+%2B+a" in f.url)
    # Never scrolled to, throttled by Chromium: still its player's height, not the empty page's.
    frame_fits(player_page, 1, second_inner)
    assert player_page.evaluate("() => document.querySelectorAll('iframe')[1].offsetHeight") > 400

    # Scrolled away from the first, then the window narrows: the first frame follows anyway.
    player_page.locator("iframe").nth(1).scroll_into_view_if_needed()
    frame_fits(player_page, 0, first_inner)
    wide = player_page.evaluate("() => document.querySelector('iframe').offsetHeight")
    player_page.set_viewport_size({"width": 500, "height": 900})
    player_page.wait_for_function(f"() => document.querySelector('iframe').offsetHeight > {wide}")
    frame_fits(player_page, 0, first_inner)
