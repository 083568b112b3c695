"""The notebook widget's module and class (`app.widget`)."""

from __future__ import annotations

import base64
import re

import pytest

from backprop_animator.app import widget
from backprop_animator.app.paths import find_asset_dir


def test_the_widget_module_inlines_its_one_import_as_a_data_url() -> None:
    module = widget.widget_module()
    (encoded,) = re.findall(r'from "data:text/javascript;base64,([^"]+)"', module)

    assert widget.RELATIVE_IMPORT.search(module) is None
    frame_messages = find_asset_dir("static") / "js" / "hosts" / "frame-messages.js"
    assert base64.b64decode(encoded).decode() == frame_messages.read_text(encoding="utf-8")
    assert "export default { render }" in module


def test_without_anywidget_there_is_no_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    widget.widget_class.cache_clear()
    monkeypatch.setitem(__import__("sys").modules, "anywidget", None)
    try:
        assert (
            widget.player_widget(
                "<p>page</p>", title="t", frame=0, frame_count=1, height=100, still_id="s"
            )
            is None
        )
    finally:
        widget.widget_class.cache_clear()


def test_the_widget_syncs_frame_and_keeps_its_page_private_to_the_model() -> None:
    player = widget.player_widget(
        "<p>page</p>", title="t", frame=2, frame_count=4, height=300, still_id="s"
    )
    assert player is not None
    synced = set(player.keys)
    assert {"frame", "_html", "_still_id", "title", "height", "_esm"} <= synced
    assert "frame_count" not in synced
