"""A course page with several players: heights that hold still and follow the player,
off-screen frames included; the notebook widget's module driven with a stand-in model."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Frame, Page, expect

from backprop_animator.app.notebook import animate
from tests.browser.conftest import NEURON, open_player, player_url
from tests.browser.test_embed import course_page, course_site, embed_url

pytestmark = pytest.mark.browser

__all__ = ["course_site"]  # a fixture, shared with test_embed.py

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()"
# `BACKPROP_SCREENSHOTS=docs/screenshots pytest …` refreshes the README's pictures.
SCREENSHOTS = os.environ.get("BACKPROP_SCREENSHOTS")


def shoot(page: Page, name: str, **options: Any) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / name), **options)


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


def widget_page(site: tuple[str, Path], server: str, name: str, values: dict[str, object]) -> str:
    """A page that renders static/js/widget.js with a stand-in for anywidget's model."""
    model = json.dumps(values).replace("</", "<\\/")
    script = f"""<script type="module">
import widget from "{server}/static/js/widget.js";
const values = {model};
const handlers = {{}};
window.saved = 0;
window.model = {{
  get: (name) => values[name],
  set: (name, value) => {{
    values[name] = value;
    for (const f of handlers["change:" + name] ?? []) f();
  }},
  save_changes: () => {{ window.saved += 1; }},
  on: (event, callback) => (handlers[event] ??= []).push(callback),
  off: () => {{}},
}};
widget.render({{ model: window.model, el: document.getElementById("widget") }});
</script>"""
    still = f'<div data-backprop-still="{values.get("_still_id", "")}">still picture</div>'
    return course_page(site, name, f'{still}<div id="widget"></div>{script}')


def test_the_widget_plays_the_page_from_python_with_frame_synced_both_ways(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    animation = animate(NEURON, frame=3)
    values = {"_html": animation.to_html(), "frame": 3, "title": "Neuron", "_still_id": "s-1"}
    player_page.goto(widget_page(course_site, server, "widget.html", values))
    player = player_page.frame_locator("iframe[data-testid=player-frame]")
    expect(player.get_by_test_id("frame-counter")).to_have_text("4 / 16")
    expect(player_page.get_by_text("still picture")).to_be_hidden()

    player_page.evaluate("() => window.model.set('frame', 9)")  # Python moves the player
    expect(player.get_by_test_id("frame-counter")).to_have_text("10 / 16")
    player.get_by_role("button", name="Next frame").click()  # the learner moves it
    player_page.wait_for_function("() => window.model.get('frame') === 10 && window.saved > 0")
    player_page.wait_for_function(
        "() => document.querySelector('iframe[data-testid=player-frame]').offsetHeight > 600"
    )


def test_the_widget_moves_to_a_frame_python_set_while_the_player_was_loading(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    values = {"_html": animate(NEURON, frame=0).to_html(), "frame": 12}
    player_page.goto(widget_page(course_site, server, "widget-late.html", values))
    player = player_page.frame_locator("iframe[data-testid=player-frame]")
    expect(player.get_by_test_id("frame-counter")).to_have_text("13 / 16")


def test_the_widget_in_a_course_book_frames_the_servers_embed_with_its_options(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    values = {
        "server": server,
        "source": A_PLUS_A,
        "frame": 2,
        "embed": {"controls": "-code", "theme": "dark"},
    }
    player_page.goto(widget_page(course_site, server, "book.html", values))
    player = player_page.frame_locator("iframe[data-testid=player-frame]")
    expect(player.get_by_test_id("frame-counter")).to_have_text("3 / 4")
    expect(player.locator("html[data-theme=dark]")).to_have_count(1)
    player.get_by_role("button", name="Next frame").click()
    player_page.wait_for_function("() => window.model.get('frame') === 3")


@pytest.mark.parametrize("bad_server", ["javascript:alert(1)", "data:text/html,x", ""])
def test_the_widget_refuses_a_server_that_is_not_http(
    player_page: Page, server: str, course_site: tuple[str, Path], bad_server: str
) -> None:
    values = {"server": bad_server, "source": A_PLUS_A}
    player_page.goto(widget_page(course_site, server, "bad-book.html", values))
    expect(player_page.locator("#widget")).to_contain_text("needs a `server`")
    assert player_page.locator("iframe").count() == 0


def test_a_course_page_holds_several_players_each_fitted_and_independent(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    lesson = (
        "<p>The neuron from the lesson, stopped where the sort seeds the output:</p>"
        + frame_tag(embed_url(server, frame="5"), "The neuron")
        + "<p>Why gradients add up when a value is used twice:</p>"
        + frame_tag(embed_url(server, A_PLUS_A, controls="-code"), "a + a")
        + "<p>And without an iframe:</p>"
        + '<div data-backprop-source="x = Value(2.0)&#10;y = tanh(x * 3)" data-backprop-frame="6"'
        ' data-backprop-controls="-code"></div>'
        + f'<script src="{server}/static/embed.js" async></script>'
        + listener(server)
    )
    style = "body { max-width: 860px; margin: 0 auto; font: 17px/1.5 Georgia, serif; }"
    player_page.goto(course_page(course_site, "lesson.html", lesson, style))
    first, second = (player_page.frame_locator("iframe").nth(i) for i in (0, 1))
    expect(first.get_by_test_id("frame-counter")).to_have_text("6 / 16")
    expect(second.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    scripted = player_page.locator("[data-backprop-source]")
    expect(scripted.get_by_test_id("frame-counter")).to_have_text("7 / 7")
    second.get_by_role("button", name="Next frame").click()
    expect(second.get_by_test_id("frame-counter")).to_have_text("2 / 4")
    expect(first.get_by_test_id("frame-counter")).to_have_text("6 / 16")
    for index, source in enumerate(["x1", "a+%2B+a"]):
        inner = next(f for f in player_page.frames if "/embed" in f.url and source in f.url)
        frame_fits(player_page, index, inner)
    shoot(player_page, "course-page.png", full_page=True)
