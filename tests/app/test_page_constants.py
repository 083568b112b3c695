"""Facts Python reads from the page's modules (`app.page_constants`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from backprop_animator.app import page_constants


def test_the_constants_python_needs_are_read_from_the_modules() -> None:
    assert page_constants.js_constant("hosts/frame-messages.js", "HEIGHT_MESSAGE") == (
        "backprop-animator:height"
    )
    height = page_constants.js_constant("hosts/frame-messages.js", "DEFAULT_FRAME_HEIGHT")
    assert isinstance(height, int)
    assert page_constants.js_constant("hosts/program-title.js", "TITLE_MAX_CHARS") > 20


def test_a_missing_constant_is_named_with_its_file() -> None:
    with pytest.raises(LookupError, match=r"frame-messages\.js has no line `export const NOPE"):
        page_constants.js_constant("hosts/frame-messages.js", "NOPE")


def test_a_constant_that_is_not_json_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "m.js").write_text("export const A = compute();\n", encoding="utf-8")
    monkeypatch.setattr(page_constants, "find_asset_dir", lambda name: tmp_path)
    page_constants.js_constant.cache_clear()
    try:
        with pytest.raises(LookupError, match="not a plain JSON value"):
            page_constants.js_constant("m.js", "A")
    finally:
        page_constants.js_constant.cache_clear()


def test_the_height_listener_reads_the_message_type_the_player_posts() -> None:
    message = page_constants.js_constant("hosts/frame-messages.js", "HEIGHT_MESSAGE")
    assert f'"{message}"' in page_constants.height_listener()
