"""/embed's options, the share dialog, and the script-tag embed on another site's page."""

from __future__ import annotations

import functools
import math
import re
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import NEURON, Problems, open_player, player_url
from tests.support.programs import MLP_TRAINED_THREE_STEPS

pytestmark = pytest.mark.browser

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()"
PAYLOAD = "</script><img src=x onerror=window.pwned=1>"
HOSTILE_CSS = """
html { font-size: 3px; }
* { color: red !important; letter-spacing: 4px; font-family: serif; }
div { font-size: 3px; line-height: 0.4; text-transform: uppercase; }
.player, .graph-frame, .graph-svg, .transport, .node, .narration, .code-panel, svg, button,
input, [data-testid], [class*=player], [class*=bpa] { display: none !important; }
"""


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def course_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Another origin (a second loopback port) serving the files of a folder: a course page."""
    folder = tmp_path_factory.mktemp("course")
    handler = functools.partial(QuietHandler, directory=str(folder))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", folder
    finally:
        httpd.shutdown()
        httpd.server_close()


def course_page(site: tuple[str, Path], name: str, body: str, style: str = "") -> str:
    base, folder = site
    (folder / name).write_text(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Lesson</title>"
        f'<link rel="icon" href="data:,"><style>{style}</style></head>'
        f"<body><h1>Lesson 3</h1>{body}</body></html>",
        encoding="utf-8",
    )
    return f"{base}/{name}"


def embed_url(server: str, source: str = NEURON, **options: str) -> str:
    return f"{server}/embed?{urllib.parse.urlencode({'source': source, **options})}"


@pytest.mark.parametrize(
    ("part", "selector"),
    [("code", "[data-testid=code-panel]"), ("narration", "[data-testid=narration]")],
)
def test_embed_controls_hide_each_part(
    player_page: Page, server: str, part: str, selector: str
) -> None:
    open_player(player_page, embed_url(server, frame="8"))
    expect(player_page.locator(selector)).to_be_visible()

    open_player(player_page, embed_url(server, frame="8", controls=f"-{part}"))

    expect(player_page.locator(selector)).to_be_hidden()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("9 / 16")


def test_embed_controls_can_add_an_editor_that_runs_programs(
    player_page: Page, server: str
) -> None:
    open_player(player_page, embed_url(server))
    expect(player_page.get_by_test_id("source")).to_have_count(0)

    open_player(player_page, embed_url(server, A_PLUS_A, controls="editor,-code"))
    editor = player_page.get_by_test_id("source")
    expect(editor).to_have_value(A_PLUS_A)
    expect(player_page.locator("[data-testid=code-panel]")).to_be_hidden()
    editor.fill("x = Value(2.0)\ny = x * x * x")
    player_page.get_by_test_id("run").click()

    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 6")
    expect(player_page).to_have_url(re.compile(r"source=x\+%3D.*controls=editor%2C-code"))


def test_embed_hide_takes_a_list_and_keeps_it_in_its_address(
    player_page: Page, server: str
) -> None:
    open_player(player_page, embed_url(server, hide="code,narration"))
    for selector in ("[data-testid=source]", "[data-testid=code-panel]", "[data-testid=narration]"):
        expect(player_page.locator(selector)).to_be_hidden()

    player_page.get_by_test_id("scrubber").focus()
    player_page.keyboard.press("End")

    expect(player_page).to_have_url(re.compile(r"frame=15.*hide=code%2Cnarration"))


def test_embed_opens_at_the_frame_and_granularity_asked_for(player_page: Page, server: str) -> None:
    open_player(player_page, embed_url(server, frame="28", granularity="expanded"))

    expect(player_page.get_by_test_id("frame-counter")).to_have_text("29 / 29")
    grad = player_page.locator("[data-testid=node][data-label=x1]").get_attribute("data-grad")
    assert math.isclose(float(grad or "nan"), -1.5, abs_tol=1e-9)


def test_embed_autoplay_plays_at_the_speed_asked_for(player_page: Page, server: str) -> None:
    open_player(player_page, embed_url(server, autoplay="1", speed="4"))

    expect(player_page.locator("[data-testid=speed]")).to_have_value("4")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("16 / 16")


def test_embed_without_autoplay_stays_on_its_frame(player_page: Page, server: str) -> None:
    open_player(player_page, embed_url(server, speed="0.5"))

    expect(player_page.locator("[data-testid=speed]")).to_have_value("0.5")
    player_page.wait_for_timeout(1200)
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 16")


@pytest.mark.parametrize(
    ("theme", "system", "dark"),
    [("dark", "light", True), ("light", "dark", False), ("auto", "dark", True)],
)
def test_embed_theme_overrides_or_follows_the_system(
    player_page: Page, server: str, theme: str, system: str, dark: bool
) -> None:
    player_page.emulate_media(color_scheme=system)
    open_player(player_page, embed_url(server, theme=theme))

    background = player_page.evaluate(
        "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number)"
    )
    assert (sum(background[:3]) < 150) is dark, background


def test_embed_shows_a_hostile_program_as_text_and_runs_nothing(
    player_page: Page, server: str, problems: Problems
) -> None:
    source = f"a = Value(1.0, label='{PAYLOAD}')\nb = a * 2 {PAYLOAD}"
    dialogs: list[str] = []
    player_page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    player_page.goto(embed_url(server, source, controls="editor"))

    expect(player_page.get_by_test_id("error")).to_be_visible()
    expect(player_page.get_by_test_id("source")).to_have_value(source)
    assert player_page.locator("img").count() == 0
    assert player_page.evaluate("() => window.pwned") is None
    assert dialogs == []


@pytest.mark.parametrize("frames", ["short", "long"])
def test_embed_in_a_320_px_column_keeps_its_controls_inside(
    player_page: Page, server: str, frames: str
) -> None:
    # A course page's narrow column: the transport's first row (step buttons, the
    # "k / N" counter, the speed) overflowed its border by 26 px, the speed half hidden.
    source = (
        NEURON
        if frames == "short"
        else "x = Value(0.5)\nfor i in range(200):\n    x = x * 1.001\nx.backward()\n"
    )
    player_page.set_viewport_size({"width": 320, "height": 800})
    open_player(player_page, embed_url(server, source, frame="300"))
    assert player_page.evaluate("document.documentElement.scrollWidth") <= 320
    inside = player_page.evaluate(
        "() => { const bar = document.querySelector('.transport').getBoundingClientRect();"
        " return [...document.querySelectorAll('.transport button, .transport select,"
        " .transport input, .transport output')].map(e => { const r = e.getBoundingClientRect();"
        " return [e.getAttribute('aria-label'), r.left >= bar.left && r.right <= bar.right]; }); }"
    )
    assert len(inside) == 6 and all(fits for _, fits in inside), inside


def test_embed_tells_the_framing_page_its_height(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    listener = (
        "<script>addEventListener('message', (event) => {"
        " if (event.data?.type !== 'backprop-animator:height') return;"
        " for (const frame of document.querySelectorAll('iframe'))"
        " if (frame.contentWindow === event.source) frame.style.height = event.data.height + 'px';"
        "});</script>"
    )
    frame = (
        f'<iframe src="{embed_url(server, frame="15")}" title="Neuron" width="800"'
        ' height="300" style="border:0"></iframe>'
    )
    player_page.goto(course_page(course_site, "framed.html", frame + listener))
    embed = player_page.frame_locator("iframe")
    expect(embed.get_by_test_id("frame-counter")).to_have_text("16 / 16")

    player_page.wait_for_function(
        "() => document.querySelector('iframe').getBoundingClientRect().height > 500"
    )
    inner = next(f for f in player_page.frames if "/embed" in f.url)
    inner.wait_for_function("() => document.documentElement.scrollHeight <= innerHeight + 1")


def test_a_network_s_graph_in_a_sized_iframe_is_never_taller_than_the_screen(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    """The height listener sizes the iframe to its player, so the iframe's own window
    grows with the graph frame: below the fold, then scrolled to on a phone, an MLP's
    frame took 62% of the grown iframe, 871 px on an 844 px screen. It takes 62% of the
    screen at most."""
    player_page.set_viewport_size({"width": 390, "height": 844})
    frame = (
        '<div style="height: 1400px">The lesson\'s text, above the player.</div>'
        f'<iframe src="{embed_url(server, MLP_TRAINED_THREE_STEPS)}" title="MLP"'
        ' width="100%" height="640" style="border:0"></iframe>'
        f'<script src="{server}/static/height-listener.js" async></script>'
    )
    player_page.goto(course_page(course_site, "network.html", frame))
    embed = player_page.frame_locator("iframe")
    expect(embed.get_by_test_id("frame-counter")).to_have_text(re.compile(r"^1 / "))
    player_page.wait_for_function(
        "() => document.querySelector('iframe').getBoundingClientRect().height > 1500"
    )
    player_page.evaluate("document.querySelector('iframe').scrollIntoView()")
    player_page.wait_for_timeout(800)  # the player frames its graph once it is seen
    box = embed.get_by_test_id("graph-frame").bounding_box()
    assert box is not None and box["height"] <= 0.62 * 844 + 1, box


def test_script_tag_embed_renders_two_working_players_despite_hostile_css(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    neuron = NEURON.replace("\n", "&#10;")
    body = (
        f'<div data-backprop-source="{neuron}" data-backprop-frame="15"></div>'
        "<p>Between the players.</p>"
        '<div data-backprop-source="a = Value(3.0)&#10;b = a + a&#10;b.backward()"'
        ' data-backprop-theme="dark" data-backprop-controls="-code"></div>'
        f'<script src="{server}/static/embed.js" async></script>'
        f'<script src="{server}/static/embed.js" async></script>'
    )
    player_page.goto(course_page(course_site, "script.html", body, HOSTILE_CSS))

    counters = player_page.get_by_test_id("frame-counter")
    expect(counters).to_have_count(2)
    expect(counters.nth(0)).to_have_text("16 / 16")
    expect(counters.nth(1)).to_have_text("1 / 4")
    first, second = player_page.locator("[data-backprop-source]").all()
    expect(first.locator("[data-testid=node]")).to_have_count(10)
    expect(first.locator("[data-testid=node][data-label=x1]")).to_be_visible()
    expect(first.locator("[data-testid=node][data-label=x1]")).to_have_attribute(
        "data-grad", "-1.4999999999999993"
    )
    expect(second.locator("[data-testid=code-panel]")).to_be_hidden()
    narration = first.get_by_test_id("narration")
    style = narration.evaluate(
        "n => ({size: parseFloat(getComputedStyle(n).fontSize), color: getComputedStyle(n).color})"
    )
    assert style["size"] >= 14 and style["color"] != "rgb(255, 0, 0)", style

    first.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("ArrowLeft")
    second.get_by_test_id("scrubber").focus()
    player_page.keyboard.press("End")

    expect(counters.nth(0)).to_have_text("15 / 16")
    expect(counters.nth(1)).to_have_text("4 / 4")
    expect(second.locator("[data-testid=node][data-label=a]")).to_have_attribute("data-grad", "2")


def test_script_tag_embed_shows_a_bad_program_error_inside_its_own_player(
    player_page: Page, server: str, course_site: tuple[str, Path], problems: Problems
) -> None:
    body = (
        f'<div data-backprop-source="b = w * 2  # {PAYLOAD.replace("<", "&lt;")}"></div>'
        f'<script src="{server}/static/embed.js" async></script>'
    )
    player_page.goto(course_page(course_site, "bad.html", body))

    error = player_page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Line 1, column 5")
    assert player_page.evaluate("() => window.pwned") is None


@pytest.fixture
def clipboard_context(player_page: Page, server: str) -> BrowserContext:
    context = player_page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    return context


def test_share_dialog_gives_a_permalink_and_snippets_that_work(
    player_page: Page,
    server: str,
    course_site: tuple[str, Path],
    clipboard_context: BrowserContext,
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=8))
    player_page.get_by_test_id("share").click()
    dialog = player_page.get_by_role("dialog", name="Share this player")
    expect(dialog).to_be_visible()

    link = player_page.get_by_test_id("share-link").input_value()
    assert link == player_page.url
    dialog.get_by_label("the code panel").uncheck()
    iframe = player_page.get_by_test_id("share-iframe").input_value()
    script = player_page.get_by_test_id("share-script").input_value()
    assert 'title="backprop-animator: x1 = 2.0"' in iframe
    assert 'loading="lazy"' in iframe and "controls=-code" in iframe
    assert f'<script src="{server}/static/height-listener.js" async></script>' in iframe
    assert f'src="{server}/static/embed.js"' in script
    assert 'data-backprop-controls="-code"' in script

    dialog.get_by_role("button", name="Copy").nth(1).click()
    expect(dialog.locator("[data-testid=share-status]")).to_have_text("Copied to the clipboard.")
    assert player_page.evaluate("() => navigator.clipboard.readText()") == iframe
    player_page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    player_page.goto(course_page(course_site, "snippets.html", iframe + script))
    expect(player_page.frame_locator("iframe").get_by_test_id("frame-counter")).to_have_text(
        "9 / 16"
    )
    expect(player_page.frame_locator("iframe").locator("[data-testid=code-panel]")).to_be_hidden()
    scripted = player_page.locator("[data-backprop-source]")
    expect(scripted.get_by_test_id("frame-counter")).to_have_text("9 / 16")
    # The dialog's options reach the script-tag player too.
    expect(scripted.locator("[data-testid=code-panel]")).to_be_hidden()
    expect(scripted.get_by_test_id("narration")).to_be_visible()
    # The iframe snippet sized its frame: no longer the height it was written with.
    player_page.wait_for_function("() => document.querySelector('iframe').style.height !== ''")


def test_share_copy_selects_the_text_when_the_clipboard_is_refused(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, A_PLUS_A))
    player_page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }"
    )
    player_page.get_by_test_id("share").click()

    player_page.get_by_role("dialog").get_by_role("button", name="Copy").first.click()

    expect(player_page.locator("[data-testid=share-status]")).to_contain_text("press Ctrl+C")
    selected = player_page.evaluate("() => document.activeElement.dataset.shareField")
    assert selected == "link"


def test_share_on_the_quiz_keeps_the_quiz_and_the_script_embed_runs_the_lab(
    player_page: Page, server: str, course_site: tuple[str, Path]
) -> None:
    # Issue 23, 6: share on /?quiz=1 with a mistake; every snippet keeps both.
    url = player_url(server, "a = Value(3.0, label='a')\nb = a + a\n")
    open_player(player_page, f"{url}&quiz=1&mistake=assign&sort_steps=1")
    player_page.get_by_test_id("share").click()
    quiz = player_page.get_by_test_id("share-quiz")
    expect(quiz).to_be_checked()
    fields = ("share-link", "share-iframe", "share-script")
    for field in fields:
        text = player_page.get_by_test_id(field).input_value()
        assert "quiz=1" in text or 'data-backprop-quiz="1"' in text, (field, text)
        assert "mistake=assign" in text or 'data-backprop-mistake="assign"' in text
    script = player_page.get_by_test_id("share-script").input_value()
    quiz.uncheck()
    for field in fields:
        assert "quiz" not in player_page.get_by_test_id(field).input_value(), field

    # The script-tag embed made from the snippet runs the mistaken engine, as a quiz.
    player_page.goto(course_page(course_site, "lab-script.html", script))
    expect(player_page.get_by_test_id("bug-lab")).to_have_attribute("data-mistake", "assign")
    expect(player_page.get_by_test_id("quiz")).to_be_visible()


# The view's framing: the texts of the records (labels, numbers, captions) its edge cuts,
# partly inside and partly outside, and how far the records go past its edges.
EDGE_CUTS = """() => {
  const view = document.querySelector('.graph-svg').getBoundingClientRect();
  const cut = [];
  for (const text of document.querySelectorAll('[data-testid=node] text')) {
    const r = text.getBoundingClientRect();
    if (!r.width) continue;
    const inside = r.left >= view.left && r.right <= view.right;
    const outside = r.right <= view.left || r.left >= view.right;
    if (!inside && !outside) cut.push(text.textContent);
  }
  const boxes = [...document.querySelectorAll('[data-testid=node] .node-box')]
    .map((box) => box.getBoundingClientRect());
  const past = Math.max(...boxes.map((r) => Math.max(view.left - r.left, r.right - view.right)));
  return {cut, past};
}"""


@pytest.mark.parametrize("frame", [0, 4, 6])
def test_an_embed_a_little_narrower_than_the_neuron_cuts_no_name_or_number(
    player_page: Page, server: str, frame: int
) -> None:
    # In an 800 px iframe the neuron is some 20 px wider than the view at a readable size.
    # Centred whole, its edges cut the `x` off `x2` (which read as a constant `2`) and the
    # `✓` off o's gradient: a graph shown whole may lose a record's border, never its
    # text; one that is not follows the step, and the records it leaves go well past.
    player_page.set_viewport_size({"width": 800, "height": 700})
    open_player(player_page, player_url(server, NEURON, frame=frame, path="/embed"))
    framing = player_page.evaluate(EDGE_CUTS)
    assert framing["cut"] == [] or framing["past"] > 30, framing
