"""Where a float underflowed, the page says so and explains it one click away."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import NEURON, open_player, player_url

pytestmark = pytest.mark.browser

# Expanded tanh of 200: den**-2 underflows, and x.grad comes out 2 instead of 0.
LARGE_TANH = "x = Value(200.0, label='x')\no = tanh(x)\no.backward()"
UNDERFLOW_FRAME = 8


def test_the_underflow_step_marks_its_node_and_offers_the_lesson(
    player_page: Page, server: str
) -> None:
    open_player(player_page, player_url(server, LARGE_TANH, UNDERFLOW_FRAME, "expanded"))

    expect(player_page.get_by_test_id("narration")).to_contain_text("Underflow")
    note = player_page.get_by_test_id("underflow-note")
    expect(note).to_be_visible()
    note.locator("summary").click()
    expect(note).to_contain_text("fused rule")
    expect(player_page.locator("[data-testid=node][data-underflow=true]")).to_have_count(1)


def test_steps_without_underflow_show_no_note(player_page: Page, server: str) -> None:
    open_player(player_page, player_url(server, LARGE_TANH, UNDERFLOW_FRAME + 1, "expanded"))
    expect(player_page.get_by_test_id("underflow-note")).to_be_hidden()

    open_player(player_page, player_url(server, NEURON, 15, "expanded"))
    expect(player_page.get_by_test_id("underflow-note")).to_be_hidden()
    expect(player_page.locator("[data-underflow]")).to_have_count(0)
