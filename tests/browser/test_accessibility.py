"""axe-core in the page: no serious or critical violations at a build, sort and backward frame."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import AXE, NEURON, open_player, player_url

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("frame", "phase"), [(2, "build"), (5, "sort"), (9, "backward")])
def test_axe_finds_no_serious_violations(
    axe_page: Page, server: str, frame: int, phase: str, theme: str
) -> None:
    axe_page.emulate_media(color_scheme=theme)
    open_player(axe_page, player_url(server, NEURON, frame=frame))
    assert axe_page.locator(".player").get_attribute("data-phase") == phase
    axe_page.add_script_tag(path=str(AXE))
    result = axe_page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} -> {[n['target'] for n in v['nodes']][:5]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
