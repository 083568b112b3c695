"""The editor puts the caret on the character an error is about, whatever comes
before it: emoji (two UTF-16 units, one column) and lone `\\r` line breaks."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Problems, open_player, player_url

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "source",
    [
        "x = Value(1.0, label='😀😀') * w3",
        "a = Value(1.0)\rb = a * w3",
        "a = Value(1.0, label='😀')\r\n\rb = a * w3",
    ],
    ids=["emoji-before", "lone-cr", "emoji-crlf-and-cr"],
)
def test_the_error_caret_selects_the_name_that_is_not_defined(
    player_page: Page, server: str, problems: Problems, source: str
) -> None:
    problems.allowed.append("status of 4")
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    editor = player_page.get_by_test_id("source")
    editor.fill(source)
    player_page.get_by_test_id("run").click()

    expect(player_page.get_by_test_id("error")).to_contain_text("w3")
    selected = editor.evaluate("(area) => area.value.slice(area.selectionStart, area.selectionEnd)")
    assert selected == "w"


def test_the_excerpt_caret_sits_under_its_character_after_a_tab(
    player_page: Page, server: str, problems: Problems
) -> None:
    """The `^` under the excerpt's line is padded with the line's own tabs, so it is drawn
    under the character however wide the `<pre>` draws a tab."""
    problems.allowed.append("status of 4")
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    player_page.get_by_test_id("source").fill("def f(x):\n\treturn x * w3\ny = f(2.0)\n")
    player_page.get_by_test_id("run").click()
    excerpt = player_page.get_by_test_id("error").locator(".error-excerpt")
    expect(excerpt).to_contain_text("^")
    # The left edges of the `w` in the line and of the `^` below it, in pixels.
    lefts = excerpt.evaluate(
        """(pre) => {
          const text = pre.firstChild;
          const at = (index) => {
            const range = document.createRange();
            range.setStart(text, index);
            range.setEnd(text, index + 1);
            return range.getBoundingClientRect().left;
          };
          return [at(text.data.indexOf("w3")), at(text.data.lastIndexOf("^"))];
        }"""
    )
    assert abs(lefts[0] - lefts[1]) < 1, lefts


def test_a_long_error_line_stays_inside_a_phone_screen(
    player_page: Page, server: str, problems: Problems
) -> None:
    """A long name in the message breaks, and the excerpt's long line scrolls inside the
    excerpt: neither widens the editor (and the page) past a 390 px screen."""
    problems.allowed.append("status of 4")
    player_page.set_viewport_size({"width": 390, "height": 844})
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    long_name = "an_undefined_name_far_too_long_for_a_phone"
    player_page.get_by_test_id("source").fill(f"x = Value(2.0)\ny = x * {long_name} + x * x * x\n")
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("error")).to_contain_text(long_name)
    widths = player_page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths


def test_an_error_says_the_graph_is_the_last_program_and_goes_when_the_next_run_starts(
    player_page: Page, server: str, problems: Problems
) -> None:
    # Issue 23, 9: the graph left on screen is said to be the last program that ran, and
    # the old error does not stay while the next program is traced.
    problems.allowed.append("status of 4")
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    editor = player_page.get_by_test_id("source")
    editor.fill("a = Value(1.0)\nb = a * w3")
    player_page.get_by_test_id("run").click()
    error = player_page.get_by_test_id("error")
    expect(error).to_be_visible()
    host = player_page.locator("#player")
    expect(host).to_have_class("player-host is-stale")
    note = host.evaluate("h => getComputedStyle(h, '::before').content")
    assert "last program that ran" in note

    # The next run is held in flight: the old error is gone meanwhile.
    player_page.route("**/api/trace", lambda route: None)
    editor.fill("a = Value(2.0)\na * a")
    player_page.get_by_test_id("run").click()
    expect(error).to_be_hidden()
    expect(host).not_to_have_class("player-host is-stale")


def test_the_last_program_note_leaves_the_zoom_buttons_clear_on_a_phone(
    player_page: Page, server: str, problems: Problems
) -> None:
    # Centred on a 390 px phone, the note covered + and - of the graph.
    problems.allowed.append("status of 4")
    player_page.set_viewport_size({"width": 390, "height": 844})
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    player_page.get_by_test_id("source").fill("y = (a * 3")
    player_page.get_by_test_id("run").click()
    host = player_page.locator("#player")
    expect(host).to_have_class("player-host is-stale")
    note = host.evaluate(
        """h => {
          const box = h.getBoundingClientRect();
          const note = getComputedStyle(h, '::before');
          const left = box.left + parseFloat(note.left);
          return {right: left + parseFloat(note.width),
                  bottom: box.top + parseFloat(note.top) + parseFloat(note.height)};
        }"""
    )
    for button in player_page.locator(".graph-tools button").all():
        tool = button.bounding_box()
        assert tool is not None
        apart = note["right"] <= tool["x"] or note["bottom"] <= tool["y"]
        assert apart, (note, tool)


def test_a_first_program_with_an_error_is_not_called_the_last_program_that_ran(
    player_page: Page, server: str, problems: Problems
) -> None:
    problems.allowed.append("status of 4")
    player_page.goto(player_url(server, "a = Value(1.0)\nb = a * w3"))
    expect(player_page.get_by_test_id("error")).to_be_visible()
    host = player_page.locator("#player")
    note = host.evaluate("h => getComputedStyle(h, '::before').content")
    assert "last program" not in note  # nothing ran before it, so no graph is left


def test_a_limit_is_said_as_the_server_s_not_a_setting_to_change(
    player_page: Page, server: str, problems: Problems
) -> None:
    problems.allowed.append("status of 4")
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    editor = player_page.get_by_test_id("source")
    editor.fill("x = Value(1.0)\nfor i in range(10**9):\n    x = x * 1.0\n")
    player_page.get_by_test_id("run").click()
    error = player_page.get_by_test_id("error")
    expect(error).to_contain_text("set by this server")
    expect(error).not_to_contain_text("BACKPROP_")


def test_an_endless_loop_is_said_to_never_end(
    player_page: Page, server: str, problems: Problems
) -> None:
    problems.allowed.append("status of 4")
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    player_page.get_by_test_id("source").fill("x = Value(1.0)\nwhile True:\n    x = x + 1\n")
    player_page.get_by_test_id("run").click()
    error = player_page.get_by_test_id("error")
    expect(error).to_contain_text("the while True: loop at line 2 has no break, so it never ends")
    expect(error).not_to_contain_text("BACKPROP_")


def test_the_editor_marks_and_scrolls_to_the_error_s_line_until_the_program_changes(
    player_page: Page, server: str, problems: Problems
) -> None:
    """Run was clicked, so the editor has no focus and its selection neither shows nor
    scrolls: the line an error is about is marked (`error-line`) and scrolled into the
    editor's view, wherever typing had left it, and the mark goes once the text changes."""
    problems.allowed.append("status of 4")
    open_player(player_page, player_url(server, "a = Value(1.0)\na + a"))
    editor = player_page.get_by_test_id("source")
    # `fill` leaves the caret, and the editor's view, at the end of 80 lines.
    lines = [f"x{i} = Value({i}.0)" for i in range(80)]
    lines[9] = "y = x1 * w3"
    editor.fill("\n".join(lines))
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("error")).to_contain_text("w3")
    mark = player_page.get_by_test_id("error-line")
    expect(mark).to_be_visible()
    expect(mark).to_have_attribute("data-line", "10")
    inside = editor.evaluate(
        """(area) => {
          const box = area.getBoundingClientRect();
          const band = document.querySelector('[data-testid=error-line]').getBoundingClientRect();
          return band.top >= box.top && band.bottom <= box.bottom;
        }"""
    )
    assert inside
    expect(player_page.get_by_test_id("source-line")).to_be_hidden()  # no frame of this text
    editor.press("End")
    editor.type("  # edited")
    expect(mark).to_be_hidden()
