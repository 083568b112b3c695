"""The page `/` as a learner moves around it: examples, Back and Forward, refused programs."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from backprop_animator.engine.examples import EXAMPLES
from tests.browser.conftest import NEURON, Problems, open_player, player_url

pytestmark = pytest.mark.browser

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()"


def examples_menu(page: Page) -> str:
    return page.eval_on_selector(
        "select[name=example]", "menu => menu.selectedOptions[0]?.textContent ?? ''"
    )


def test_the_examples_menu_lets_go_of_an_example_once_the_learner_types(
    player_page: Page, server: str
) -> None:
    open_player(player_page, f"{server}/")
    second = EXAMPLES[1]
    player_page.select_option("select[name=example]", second.id)
    expect(player_page.get_by_test_id("source")).to_have_value(second.source)
    assert examples_menu(player_page) == second.title

    player_page.get_by_test_id("source").fill(A_PLUS_A)
    assert examples_menu(player_page) == "Choose an example…"
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    assert examples_menu(player_page) == "Choose an example…"


def test_a_permalink_to_an_example_names_it_in_the_menu(player_page: Page, server: str) -> None:
    example = EXAMPLES[1]
    open_player(player_page, player_url(server, example.source, granularity=example.granularity))
    expect(player_page.locator("select[name=example] option")).to_have_count(len(EXAMPLES) + 1)
    assert examples_menu(player_page) == example.title


def test_back_returns_to_the_program_before_and_forward_comes_back(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, NEURON, frame=4))
    player_page.get_by_test_id("source").fill(A_PLUS_A)
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    player_page.select_option("select[name=example]", EXAMPLES[1].id)
    expect(player_page.get_by_test_id("source")).to_have_value(EXAMPLES[1].source)

    player_page.go_back()  # while the example may still be tracing: Back wins
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    expect(player_page.get_by_test_id("source")).to_have_value(A_PLUS_A)
    player_page.go_back()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("5 / 16")
    expect(player_page.get_by_test_id("source")).to_have_value(NEURON)
    assert player_page.url.startswith(server)
    player_page.go_forward()
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("1 / 4")
    expect(player_page).to_have_url(re.compile(r"source=a\+%3D\+Value"))


def test_scrubbing_adds_no_history_entries(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, NEURON))
    length = player_page.evaluate("() => history.length")
    for _ in range(5):
        player_page.keyboard.press("ArrowRight")
    expect(player_page.get_by_test_id("frame-counter")).to_have_text("6 / 16")
    assert player_page.evaluate("() => history.length") == length


def test_a_refused_program_logs_nothing_in_the_console(
    player_page: Page, server: str, problems: Problems
) -> None:
    open_player(player_page, f"{server}/")
    player_page.get_by_test_id("source").fill("a = Value(1.0)\nb = a * w3")
    player_page.get_by_test_id("run").click()
    expect(player_page.get_by_test_id("error")).to_contain_text("Line 2, column 9")
    expect(player_page.get_by_test_id("error")).to_contain_text("w3")
    assert problems.messages == []
