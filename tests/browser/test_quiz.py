"""The quiz (SPEC §10) in Chromium: the neuron's nine questions, wrong answers and
what they are told, blocking, "Show me", reload, permalinks, the iframe's messages
to a parent on another origin, the script tag, the export, axe-core and a phone."""

from __future__ import annotations

import functools
import inspect
import re
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from backprop_animator.app.export import render_standalone
from backprop_animator.engine import trace_source
from backprop_animator.engine.rules import rule_sources
from tests.browser.conftest import NEURON, Problems, open_page, open_player
from tests.browser.test_accessibility import serious_violations

pytestmark = pytest.mark.browser

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()"
ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}
TRACE = trace_source(NEURON)
# (frame, child) of every += in the neuron's backward pass, in order.
QUESTIONS = [
    (k, c["to"])
    for k, frame in enumerate(TRACE["frames"])
    if frame["phase"] == "backward"
    for c in frame["contributions"]
]


def quiz_url(server: str, source: str = NEURON, path: str = "/", **options: str) -> str:
    return f"{server}{path}?{urllib.parse.urlencode({'source': source, 'quiz': '1', **options})}"


def contribution(frame: int, child: str) -> dict[str, Any]:
    frame_data = TRACE["frames"][frame]
    return next(c for c in frame_data["contributions"] if c["to"] == child)


def shown_frame(page: Page) -> int:
    return int(page.get_by_test_id("frame-counter").inner_text().split("/")[0]) - 1


def go_to_next_question(page: Page) -> None:
    """Press End until the quiz stops the player at a question."""
    prompt = page.get_by_test_id("quiz-prompt")
    if not prompt.is_visible():
        page.locator("[data-testid=graph-frame]").focus()
        page.keyboard.press("End")
    expect(prompt).to_be_visible()


def answer(page: Page, text: str) -> None:
    page.get_by_test_id("quiz-answer").fill(text)
    page.get_by_test_id("quiz-submit").click()


def test_the_neuron_quiz_asks_nine_questions_one_child_at_a_time(
    player_page: Page, server: str
) -> None:
    assert len(QUESTIONS) == 9
    open_player(player_page, quiz_url(server))
    prompt = player_page.get_by_test_id("quiz-prompt")
    score = player_page.get_by_test_id("quiz-score")
    expect(prompt).to_be_hidden()
    expect(score).to_have_text("0 / 0")

    asked = []
    for number, _ in enumerate(QUESTIONS, start=1):
        go_to_next_question(player_page)
        frame = shown_frame(player_page)
        child = prompt.get_attribute("data-node-id")
        assert child is not None
        asked.append((frame, child))
        step = contribution(frame, child)
        # Nothing on screen gives the answer away: the child still shows its grad from
        # before the +=, the narration is not the frame's, and no += has numbers.
        node = player_page.locator(f"[data-testid=node][data-node-id={child}]")
        assert float(node.get_attribute("data-grad") or "nan") == step["before"]
        narration = player_page.get_by_test_id("narration").inner_text()
        assert narration != TRACE["frames"][frame]["text"]
        assert (
            player_page.locator("[data-testid=code-panel] [data-testid=substitution]").count()
            == len([q for q in asked if q[0] == frame]) - 1
        )
        expect(player_page.get_by_test_id("quiz-answer")).to_be_focused()

        player_page.keyboard.type(str(step["after"]))
        player_page.keyboard.press("Enter")

        feedback = player_page.get_by_test_id("quiz-feedback")
        expect(feedback).to_have_attribute("data-correct", "true")
        expect(feedback).to_contain_text("Right")
        expect(score).to_have_text(f"{number} / {number}")
        assert float(node.get_attribute("data-grad") or "nan") == step["after"]

    assert asked == QUESTIONS
    expect(prompt).to_be_hidden()
    summary = player_page.get_by_test_id("quiz-summary")
    expect(summary).to_contain_text("You got 9 of 9 right.")
    expect(summary.locator("a")).to_have_count(0)
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("16 / 16")
    for label, grad in ARTICLE_LEAF_GRADS.items():
        node = player_page.locator(f"[data-testid=node][data-label={label}]")
        assert float(node.get_attribute("data-grad") or "nan") == pytest.approx(grad)


def test_between_questions_the_quiz_says_where_the_next_one_is(
    player_page: Page, server: str
) -> None:
    # All the build long the quiz was an empty box the height of its summary.
    open_player(player_page, quiz_url(server))
    up_next = player_page.get_by_test_id("quiz-next")
    first, second = QUESTIONS[0][0], QUESTIONS[1][0]
    assert second > first
    expect(up_next).to_have_text(
        f"The first question is at frame {first + 1}: press \u2192 or Play to go on."
    )
    go_to_next_question(player_page)
    expect(up_next).to_be_hidden()
    answer(player_page, "0.5")
    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")
    expect(up_next).to_have_text(
        f"The next question is at frame {second + 1}: press \u2192 or Play to go on."
    )
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("ArrowRight")
    expect(player_page.get_by_test_id("quiz-prompt")).to_be_visible()
    expect(up_next).to_be_hidden()


def test_a_wrong_answer_is_told_which_term_was_off_and_shows_the_truth(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server))
    go_to_next_question(player_page)

    # n's += is 0.5 × 1; answering 1 passes o.grad on without the local derivative.
    answer(player_page, "1")

    feedback = player_page.get_by_test_id("quiz-feedback")
    expect(feedback).to_have_attribute("data-correct", "false")
    expect(feedback).to_contain_text("becomes 0.5 × 1 = 0.5")
    expect(feedback).to_contain_text("local derivative 0.5")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("0 / 1")
    expect(player_page.get_by_test_id("quiz-prompt")).to_be_hidden()
    n = player_page.locator("[data-testid=node][data-node-id=n8]")
    expect(n).to_have_attribute("data-grad", "0.4999999999999998")


def test_a_second_contribution_answered_alone_is_told_to_add_the_first(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server, A_PLUS_A))
    go_to_next_question(player_page)
    prompt = player_page.get_by_test_id("quiz-prompt")
    expect(prompt).to_have_attribute("data-node-id", "n0")

    answer(player_page, "1")
    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")
    expect(prompt).to_be_visible()
    expect(prompt).to_have_attribute("data-node-id", "n0")
    a = player_page.locator("[data-testid=node][data-node-id=n0]")
    expect(a).to_have_attribute("data-grad", "1")

    answer(player_page, "1")

    feedback = player_page.get_by_test_id("quiz-feedback")
    expect(feedback).to_have_attribute("data-correct", "false")
    expect(feedback).to_contain_text("already held 1, and += adds to it")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("1 / 2")
    expect(a).to_have_attribute("data-grad", "2")


def test_an_answer_that_is_not_a_number_is_refused_and_not_counted(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server))
    go_to_next_question(player_page)
    answer_box = player_page.get_by_test_id("quiz-answer")

    for text in ("abc", "1/0", "", "alert(1)"):
        answer(player_page, text)
        expect(answer_box).to_have_attribute("aria-invalid", "true")

    expect(player_page.locator("[data-testid=quiz-input-error]")).to_contain_text("not a number")
    expect(player_page.get_by_test_id("quiz-prompt")).to_be_visible()
    expect(player_page.get_by_test_id("quiz-feedback")).to_be_hidden()
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("0 / 0")
    answer(player_page, "\u2212 1 / -2")
    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")


def test_fractions_unicode_minus_and_tolerance_count_as_right(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server, frame="13"))
    go_to_next_question(player_page)
    expect(player_page.get_by_test_id("quiz-prompt")).to_have_attribute("data-node-id", "n0")

    answer(player_page, "\u22123/2")
    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")
    answer(player_page, ".995")
    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("2 / 2")


def test_the_player_does_not_move_past_an_open_question(player_page: Page, server: str) -> None:
    open_player(player_page, quiz_url(server))
    go_to_next_question(player_page)
    counter = player_page.get_by_test_id("frame-counter")
    prompt = player_page.get_by_test_id("quiz-prompt")
    expect(counter).to_have_text("7 / 16")

    player_page.locator("[data-testid=graph-frame]").focus()
    for key in ("ArrowRight", "End", " "):
        player_page.keyboard.press(key)
        expect(counter).to_have_text("7 / 16")
    player_page.get_by_test_id("scrubber").fill("15")
    expect(counter).to_have_text("7 / 16")
    expect(player_page.get_by_test_id("scrubber")).to_have_value("6")
    player_page.get_by_role("button", name="Next frame").click()
    player_page.get_by_role("button", name="Play").click()
    expect(counter).to_have_text("7 / 16")
    expect(player_page.get_by_role("button", name="Play")).to_be_visible()
    expect(prompt).to_be_visible()
    expect(prompt).to_have_attribute("data-node-id", "n8")

    # Going back is allowed; coming forward again finds the same question.
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("6 / 16")
    expect(prompt).to_be_hidden()
    player_page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("7 / 16")
    expect(prompt).to_have_attribute("data-node-id", "n8")
    expect(player_page.get_by_test_id("quiz-answer")).to_be_focused()


def test_playing_stops_at_the_next_question(player_page: Page, server: str) -> None:
    open_player(player_page, quiz_url(server, frame="4"))
    player_page.get_by_role("button", name="Play").click()

    expect(player_page.get_by_test_id("quiz-prompt")).to_be_visible()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("7 / 16")
    expect(player_page.get_by_role("button", name="Play")).to_be_visible()


def test_show_me_reveals_the_step_counts_it_not_right_and_lets_the_player_on(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server))
    go_to_next_question(player_page)
    hint = player_page.locator("[data-testid=quiz-hint]")
    expect(hint).to_be_hidden()
    player_page.get_by_role("button", name="Hint").click()
    expect(hint).to_contain_text("Local derivative: 0.5. Upstream gradient o.grad: 1.")

    player_page.get_by_test_id("quiz-reveal").click()

    feedback = player_page.get_by_test_id("quiz-feedback")
    expect(feedback).to_have_attribute("data-correct", "false")
    expect(feedback).to_contain_text("Shown")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("0 / 1")
    expect(player_page.locator("[data-testid=node][data-node-id=n8]")).to_have_attribute(
        "data-grad", "0.4999999999999998"
    )
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("ArrowRight")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("8 / 16")
    expect(player_page.get_by_test_id("quiz-prompt")).to_have_attribute("data-node-id", "n7")


def test_a_reload_resumes_the_quiz_and_an_answered_frame_shows_the_answer_given(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server))
    go_to_next_question(player_page)
    answer(player_page, "0.5")
    go_to_next_question(player_page)
    answer(player_page, "7")
    # The address follows the frame a moment later (it is throttled); reload after that.
    expect(player_page).to_have_url(re.compile(r"quiz=1.*frame=7|frame=7.*quiz=1"))

    player_page.reload()
    player_page.wait_for_selector("#player[data-ready=true]")

    expect(player_page.get_by_test_id("quiz-score")).to_have_text("1 / 2")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("8 / 16")
    expect(player_page.get_by_test_id("quiz-prompt")).to_have_attribute("data-node-id", "n4")
    review = player_page.locator("[data-testid=quiz-review]")
    expect(review).to_contain_text("you said 7; it is 0.5")
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("ArrowLeft")
    player_page.keyboard.press("ArrowLeft")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("6 / 16")
    player_page.keyboard.press("ArrowRight")
    expect(review).to_contain_text("you said 0.5; it is 0.5 (right)")


def test_a_permalink_opens_the_quiz_at_its_frame_and_the_summary_links_back(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server, frame="10"))
    counter = player_page.get_by_test_id("frame-counter")
    expect(counter).to_have_text("11 / 16")
    expect(player_page.get_by_test_id("quiz-prompt")).to_have_attribute("data-node-id", "n1")
    # Frames before the one the quiz opened at are free to visit.
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("Home")
    expect(counter).to_have_text("1 / 16")
    expect(player_page.get_by_test_id("quiz-prompt")).to_be_hidden()

    for _ in range(4):
        go_to_next_question(player_page)
        player_page.get_by_test_id("quiz-reveal").click()

    summary = player_page.get_by_test_id("quiz-summary")
    expect(summary).to_contain_text("You got 0 of 4 right.")
    expect(summary).to_contain_text("The 5 questions before frame 11")
    links = summary.locator("a")
    expect(links).to_have_count(4)
    href = links.nth(2).get_attribute("href") or ""
    params = urllib.parse.parse_qs(urllib.parse.urlparse(href).query)
    assert params["frame"] == ["13"] and params["quiz"] == ["1"]
    links.nth(2).click()
    expect(counter).to_have_text("14 / 16")


def test_hostile_labels_and_answers_stay_text_in_the_quiz(player_page: Page, server: str) -> None:
    payload = "<img src=x onerror=window.pwned=1>"
    source = f"a = Value(3.0, label='{payload}')\nb = a * 2\nb.backward()"
    open_player(player_page, quiz_url(server, source))
    go_to_next_question(player_page)
    expect(player_page.get_by_test_id("quiz-prompt")).to_contain_text(payload)

    answer(player_page, payload)
    expect(player_page.locator("[data-testid=quiz-input-error]")).to_contain_text(payload)
    player_page.get_by_test_id("quiz-reveal").click()  # a
    player_page.get_by_test_id("quiz-reveal").click()  # the constant 2

    expect(player_page.get_by_test_id("quiz-summary")).to_contain_text(payload)
    assert player_page.locator("[data-testid=quiz] img").count() == 0
    assert player_page.evaluate("() => window.pwned") is None


def test_a_program_with_nothing_to_add_says_so_and_never_stops_the_player(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server, "x = Value(2.0)"))

    expect(player_page.get_by_test_id("quiz-summary")).to_contain_text("Nothing to predict")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("0 / 0")
    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("2 / 2")
    expect(player_page.get_by_test_id("quiz-prompt")).to_be_hidden()


@pytest.mark.skipif(
    "mistake" not in inspect.signature(trace_source).parameters,
    reason="needs the bug lab (SPEC §8) in the engine and the page",
)
def test_a_quiz_on_a_mistaken_engine_asks_for_what_that_engine_computes(
    player_page: Page, server: str
) -> None:
    open_player(player_page, quiz_url(server, A_PLUS_A, mistake="assign"))
    go_to_next_question(player_page)
    # This engine writes with =, and the question and its hint say so.
    expect(player_page.get_by_test_id("quiz-prompt")).to_contain_text("after its =?")
    player_page.get_by_role("button", name="Hint").click()
    expect(player_page.get_by_test_id("quiz-prompt")).to_contain_text("a.grad = 1")
    expect(player_page.get_by_test_id("quiz-prompt")).not_to_contain_text("+=")
    answer(player_page, "1")

    # With `assign`, the second += overwrites: a.grad stays 1 instead of becoming 2.
    answer(player_page, "2")

    feedback = player_page.get_by_test_id("quiz-feedback")
    expect(feedback).to_have_attribute("data-correct", "false")
    expect(feedback).to_contain_text("writes = instead of +=")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("1 / 2")
    link = player_page.get_by_test_id("quiz-summary").locator("a")
    expect(link).to_have_attribute("href", re.compile(r"mistake=assign"))


@pytest.fixture(scope="module")
def parent_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A course page on another origin: `localhost` on a port of its own, while the app
    is on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("lms")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}", folder
    finally:
        httpd.shutdown()
        httpd.server_close()


def parent_page(site: tuple[str, Path], name: str, body: str) -> str:
    base, folder = site
    (folder / name).write_text(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Course</title>"
        '<link rel="icon" href="data:,"></head><body>'
        "<script>window.quizMessages = [];"
        "addEventListener('message', (event) => {"
        " if (event.data?.type === 'backprop-animator:quiz')"
        " window.quizMessages.push({origin: event.origin, data: event.data});});"
        "document.addEventListener('backprop-animator:quiz', (event) =>"
        " window.quizMessages.push({origin: 'event', data: event.detail}));"
        f"</script>{body}</body></html>",
        encoding="utf-8",
    )
    return f"{base}/{name}"


def test_each_answer_is_posted_to_a_parent_page_on_another_origin(
    player_page: Page, server: str, parent_site: tuple[str, Path]
) -> None:
    src = quiz_url(server, path="/embed")
    frame = f'<iframe src="{src}" title="Quiz" width="900" height="900"></iframe>'
    player_page.goto(parent_page(parent_site, "lms.html", frame))
    assert urllib.parse.urlparse(player_page.url).hostname == "localhost"
    embed = player_page.frame_locator("iframe")
    expect(embed.get_by_test_id("frame-counter")).to_have_text("1 / 16")

    embed.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("End")
    embed.get_by_test_id("quiz-answer").fill("0.5")
    player_page.keyboard.press("Enter")
    embed.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("End")
    embed.get_by_test_id("quiz-reveal").click()

    player_page.wait_for_function("() => window.quizMessages.length === 2")
    messages = player_page.evaluate("() => window.quizMessages")
    assert messages == [
        {
            "origin": server,
            "data": {
                "type": "backprop-animator:quiz",
                "right": 1,
                "asked": 1,
                "total": 9,
                "question": 0,
                "answer": 0.5,
                "revealed": False,
            },
        },
        {
            "origin": server,
            "data": {
                "type": "backprop-animator:quiz",
                "right": 1,
                "asked": 2,
                "total": 9,
                "question": 1,
                "answer": None,
                "revealed": True,
            },
        },
    ]
    expect(embed.locator("#open-full")).to_have_attribute("href", re.compile(r"quiz=1"))


def test_the_script_tag_embed_runs_a_quiz_and_tells_its_page(
    player_page: Page, server: str, parent_site: tuple[str, Path]
) -> None:
    neuron = NEURON.replace("\n", "&#10;")
    body = (
        f'<div data-backprop-source="{neuron}" data-backprop-quiz="1"></div>'
        f'<script src="{server}/static/embed.js" async></script>'
    )
    player_page.goto(parent_page(parent_site, "script.html", body))
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 16")

    player_page.locator("[data-testid=graph-frame]").focus()
    player_page.keyboard.press("End")
    expect(player_page.get_by_test_id("quiz-prompt")).to_have_attribute("data-node-id", "n8")
    player_page.get_by_test_id("quiz-answer").fill("1/2")
    player_page.keyboard.press("Enter")

    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")
    player_page.wait_for_function("() => window.quizMessages.length === 1")
    assert player_page.evaluate("() => window.quizMessages") == [
        {
            "origin": "event",
            "data": {
                "type": "backprop-animator:quiz",
                "right": 1,
                "asked": 1,
                "total": 9,
                "question": 0,
                "answer": 0.5,
                "revealed": False,
            },
        }
    ]


def test_an_exported_quiz_plays_from_a_file(
    player_page: Page, tmp_path: Path, problems: Problems
) -> None:
    page_file = tmp_path / "quiz.html"
    page_file.write_text(
        render_standalone(TRACE, rule_sources(), title="Quiz", quiz=True), encoding="utf-8"
    )
    player_page.goto(page_file.as_uri())
    player_page.wait_for_selector("#player[data-ready=true]")

    go_to_next_question(player_page)
    answer(player_page, "0.5")

    expect(player_page.get_by_test_id("quiz-feedback")).to_have_attribute("data-correct", "true")
    expect(player_page.get_by_test_id("quiz-score")).to_have_text("1 / 1")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_serious_violations_in_quiz_mode(
    axe_page: Page, server: str, theme: str
) -> None:
    axe_page.emulate_media(color_scheme=theme)
    open_player(axe_page, quiz_url(server))
    go_to_next_question(axe_page)
    axe_page.get_by_role("button", name="Hint").click()
    answer(axe_page, "abc")
    assert serious_violations(axe_page) == []

    answer(axe_page, "1")
    go_to_next_question(axe_page)
    assert serious_violations(axe_page) == []

    for _ in range(8):
        go_to_next_question(axe_page)
        axe_page.get_by_test_id("quiz-reveal").click()
    expect(axe_page.get_by_test_id("quiz-summary")).to_be_visible()
    assert serious_violations(axe_page) == []


def test_the_quiz_fits_a_phone(chromium: Browser, problems: Problems, server: str) -> None:
    for page in open_page(chromium, problems, bypass_csp=False):
        page.set_viewport_size({"width": 375, "height": 740})
        open_player(page, quiz_url(server, path="/embed"))
        go_to_next_question(page)
        for test_id in ("quiz-answer", "quiz-submit", "quiz-reveal"):
            box = page.get_by_test_id(test_id).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, test_id
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        # The answer box is wide enough for its whole placeholder ("e.g. -1.5, .5 or 1/2"),
        # also at 390 px, where it used to squeeze in beside the label, 128 px wide.
        page.set_viewport_size({"width": 390, "height": 740})
        placeholder_fits = page.get_by_test_id("quiz-answer").evaluate(
            """(input) => {
              const style = getComputedStyle(input);
              const context = document.createElement("canvas").getContext("2d");
              context.font = `${style.fontSize} ${style.fontFamily}`;
              const room = input.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
              return context.measureText(input.placeholder).width <= room;
            }"""
        )
        assert placeholder_fits
        answer(page, "0.5")
        expect(page.get_by_test_id("quiz-feedback")).to_be_visible()


def test_the_feedback_goes_with_its_rule_and_the_summary_does_not_grow_the_page(
    player_page: Page, server: str
) -> None:
    # Issue 23, 10: the last rule's "Right: …" does not sit above the next rule's
    # question, and the quiz keeps its height when the summary comes.
    open_player(player_page, quiz_url(server))
    quiz = player_page.get_by_test_id("quiz")
    feedback = player_page.get_by_test_id("quiz-feedback")
    summary = player_page.get_by_test_id("quiz-summary")
    expect(summary).to_be_hidden()
    heights = []
    frames_seen = []
    for frame, child in QUESTIONS:
        go_to_next_question(player_page)
        if frames_seen and frames_seen[-1] != frame:
            expect(feedback).to_be_hidden()  # a new rule: the old feedback went
        heights.append(quiz.bounding_box()["height"])  # type: ignore[index]
        answer(player_page, "0")  # wrong: the summary lists every missed step
        expect(feedback).to_be_visible()
        frames_seen.append(frame)
        assert child
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Steps to revisit")
    done = quiz.bounding_box()["height"]  # type: ignore[index]
    assert done <= max(heights) + 1, (done, heights)


def test_a_phone_keeps_no_screenful_of_blank_under_the_question(
    player_page: Page, server: str
) -> None:
    # The card keeps the room of its end summary all along, so the page does not grow
    # when the quiz ends; the summary listed up to 8 missed steps in full, and on a phone
    # that room was some 650 px of blank under every question, the narration and code a
    # screen further down. The list scrolls in a box of its own now.
    player_page.set_viewport_size({"width": 390, "height": 844})
    open_player(player_page, quiz_url(server))
    go_to_next_question(player_page)
    quiz = player_page.get_by_test_id("quiz").bounding_box()
    prompt = player_page.get_by_test_id("quiz-prompt").bounding_box()
    assert quiz is not None and prompt is not None
    blank = quiz["y"] + quiz["height"] - (prompt["y"] + prompt["height"])
    assert blank < 160, blank

    for _ in range(9):
        answer(player_page, "0")  # wrong: every step is listed to revisit
        if player_page.get_by_test_id("quiz-summary").is_visible():
            break
        go_to_next_question(player_page)
    summary = player_page.get_by_test_id("quiz-summary")
    expect(summary).to_contain_text("Steps to revisit")
    last = summary.locator("a").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_visible()
