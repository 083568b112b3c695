"""axe-core in the page: no serious or critical violations at a build, sort and backward
frame, in the embed, with the share dialog open, and on a big graph with its minimap and
the table of values open."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import AXE, NEURON, open_player, player_url
from tests.support.programs import fanout_program

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("frame", "phase"), [(2, "build"), (5, "sort"), (9, "backward")])
def test_axe_finds_no_serious_violations(
    axe_page: Page, server: str, frame: int, phase: str, theme: str
) -> None:
    axe_page.emulate_media(color_scheme=theme)
    open_player(axe_page, player_url(server, NEURON, frame=frame))
    assert axe_page.locator("[data-testid=player]").get_attribute("data-phase") == phase
    assert serious_violations(axe_page) == []


def test_axe_finds_no_serious_violations_in_the_embed(axe_page: Page, server: str) -> None:
    open_player(axe_page, player_url(server, NEURON, frame=9, path="/embed"))
    assert serious_violations(axe_page) == []


def test_axe_finds_no_serious_violations_in_the_open_share_dialog(
    axe_page: Page, server: str
) -> None:
    open_player(axe_page, player_url(server, NEURON, frame=9))
    axe_page.locator("[data-testid=share]").click()
    axe_page.get_by_role("dialog", name="Share this player").wait_for()
    assert serious_violations(axe_page) == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_serious_violations_on_a_big_graph_with_minimap_and_table(
    axe_page: Page, server: str, theme: str
) -> None:
    axe_page.emulate_media(color_scheme=theme)
    open_player(axe_page, player_url(server, fanout_program(600), frame=900))
    axe_page.get_by_test_id("minimap").wait_for()
    axe_page.locator("[data-testid=node-table] summary").click()
    axe_page.locator("[data-testid=node-table] tbody tr").first.wait_for()
    assert serious_violations(axe_page) == []


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} -> {[n['target'] for n in v['nodes']][:5]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
