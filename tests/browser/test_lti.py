"""The LTI 1.3 flow in Chromium, as a teacher and a learner live it (SPEC §17).

The test platform (tests/lti/platform.py, on lti1p3platform) frames the tool as an LMS
does. The teacher adds an activity through Deep Linking, choosing the neuron as a quiz
in the picker. The learner opens it in the course and answers every question, one of
them wrong, and the platform's line item ends up holding the score.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, FrameLocator, Page, expect

from backprop_animator.engine import trace_source
from backprop_animator.engine.examples import NEURON
from tests.browser.conftest import Problems, open_page
from tests.lti.stack import Stack, add_activity, lti_stack

# One LTI stack (platform, tool, database) for the module: its tests on one worker.
pytestmark = pytest.mark.xdist_group("lti-browser")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with lti_stack(tmp_path_factory.mktemp("lti-browser")) as running:
        yield running


@pytest.fixture
def lms_page(chromium: Browser, problems: Problems) -> Iterator[Page]:
    yield from open_page(chromium, problems, bypass_csp=False)


def platform_state(stack: Stack) -> dict[str, Any]:
    state: dict[str, Any] = httpx.get(f"{stack.platform}/state", timeout=10).json()
    return state


def tool_frame(page: Page) -> FrameLocator:
    return page.frame_locator("[data-testid=tool-frame]")


def answers() -> list[float]:
    trace = trace_source(NEURON)
    return [
        c["after"]
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        for c in frame.get("contributions") or ()
    ]


def test_a_teacher_deep_links_a_quiz_and_the_learners_score_reaches_the_gradebook(
    stack: Stack, lms_page: Page
) -> None:
    page = lms_page
    page.goto(f"{stack.platform}/")
    page.get_by_test_id("add-activity").click()
    picker = tool_frame(page)
    expect(picker.locator("form[data-ready=true]")).to_be_attached(timeout=15_000)
    picker.get_by_test_id("picker-example").select_option(label="A tanh neuron")
    expect(picker.get_by_test_id("picker-source")).to_have_value(NEURON)
    picker.get_by_test_id("picker-title").fill("Backprop through a neuron")
    expect(picker.get_by_test_id("picker-quiz")).to_be_checked()
    picker.get_by_test_id("picker-submit").click()
    expect(picker.get_by_test_id("activity-added")).to_contain_text(
        "Backprop through a neuron", timeout=15_000
    )
    (link,) = platform_state(stack)["resource_links"]
    assert link["lineitem"]

    page.goto(f"{stack.platform}/")
    page.get_by_test_id("activity-link").first.click()
    player = tool_frame(page)
    status = player.get_by_test_id("lti-grade-status")
    expected = answers()
    for index, value in enumerate(expected):
        prompt = player.get_by_test_id("quiz-prompt")
        if not prompt.is_visible():
            player.locator("[data-testid=graph-frame]").focus()
            player.locator("[data-testid=graph-frame]").press("End")
        expect(prompt).to_be_visible(timeout=15_000)
        given = "123" if index == 4 else repr(value)
        player.get_by_test_id("quiz-answer").fill(given)
        player.get_by_test_id("quiz-submit").click()
        expect(status).to_contain_text(f"/ {len(expected)}", timeout=15_000)
    expect(status).to_contain_text(f"Score sent to the course: 8 / {len(expected)}")
    expect(player.get_by_test_id("quiz-score")).to_have_text(f"8 / {len(expected)}")

    score = platform_state(stack)["scores"][link["lineitem"]]["learner"]
    assert score["scoreGiven"] == 8
    assert score["scoreMaximum"] == len(expected) == 9
    assert score["activityProgress"] == "Completed"
    assert score["gradingProgress"] == "FullyGraded"
    page.goto(f"{stack.platform}/")
    expect(page.get_by_test_id("scores")).to_contain_text("8")


def test_the_player_of_a_launch_is_framed_by_its_platform_and_refused_elsewhere(
    stack: Stack, lms_page: Page, problems: Problems
) -> None:
    """The launch page names only its platform in frame-ancestors."""
    with httpx.Client(timeout=30, follow_redirects=False) as client:
        link = add_activity(stack, client, {"source": NEURON, "title": "Framed", "quiz": "1"})
    page = lms_page
    page.goto(f"{stack.platform}/frame?kind=resource&user=learner&resource={link['id']}")
    expect(tool_frame(page).locator("#player[data-ready=true]")).to_be_attached(timeout=15_000)
    play_url = next(frame.url for frame in page.frames if "/lti/play/" in frame.url)

    problems.allowed.append("frame-ancestors")
    elsewhere = page.context.new_page()
    with elsewhere.expect_console_message(
        lambda message: "frame-ancestors" in message.text, timeout=15_000
    ):
        elsewhere.set_content(f'<iframe src="{play_url}"></iframe>')
    elsewhere.close()
