"""A real program's own Value class may give its nodes any `_op` (docs/TRACE.md): the page
looks such an op up in the trace's `ops` and the engine's rule sources as data, never as
an Object property, and shows no engine source for an op the engine does not have."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import open_player, player_url
from tests.support.programs import own_value_program

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("op", ["constructor", "__proto__", "backward"])
def test_an_op_named_like_an_object_property_or_an_engine_function_plays(
    player_page: Page, server: str, op: str
) -> None:
    # Frames: the one build, the sort, then the backward frame of the op node.
    open_player(player_page, player_url(server, own_value_program(repr(op)), frame=2))

    expect(player_page.get_by_test_id("error")).to_be_hidden()
    expect(player_page.get_by_test_id("node")).to_have_count(3)
    expect(player_page.get_by_test_id("narration")).to_contain_text("a rule of its own engine")
    code = player_page.get_by_test_id("code-panel")
    expect(code).to_contain_text("node._backward()")
    # No engine method is shown as this op's rule: it is the program's own.
    expect(code).not_to_contain_text("engine/value.py")
    expect(code.get_by_test_id("substitution").first).to_contain_text("local")
