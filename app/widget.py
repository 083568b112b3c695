"""The notebook widget behind `animate()`: an anywidget running static/js/widget.js.

anywidget (`pip install backprop-animator[notebook]`) makes one ES module work in
JupyterLab, Notebook 7, VS Code, Colab and marimo, and syncs traits with Python:
`frame` both ways, so Python can move the player and read where the learner is.
Without anywidget, `player_widget` answers None and `animate()` shows the plain
HTML player instead (app/notebook.py).

The module is handed to anywidget as text, so its one relative import
(`./hosts/frame-messages.js`, which imports nothing) is inlined as a `data:` URL.
"""

from __future__ import annotations

import base64
import re
from functools import cache
from typing import Any

from backprop_animator.app.paths import find_asset_dir

WIDGET_MODULE = "widget.js"
RELATIVE_IMPORT = re.compile(r"""from\s*(["'])\./((?:[\w-]+/)*[\w.-]+\.js)\1""")


@cache
def widget_module() -> str:
    """static/js/widget.js with its relative imports inlined as data: URLs.

    Example: `from "./hosts/frame-messages.js"` -> `from "data:text/javascript;base64,…"`.
    """
    folder = find_asset_dir("static") / "js"

    def inline(match: re.Match[str]) -> str:
        text = (folder / match[2]).read_text(encoding="utf-8")
        if RELATIVE_IMPORT.search(text):
            raise ValueError(f"{match[2]} imports other modules; the widget inlines one level")
        encoded = base64.b64encode(text.encode()).decode()
        return f'from "data:text/javascript;base64,{encoded}"'

    return RELATIVE_IMPORT.sub(inline, (folder / WIDGET_MODULE).read_text(encoding="utf-8"))


@cache
def widget_class() -> type[Any] | None:
    """The widget class, or None when anywidget is not installed."""
    try:
        import anywidget
        import traitlets
    except ImportError:
        return None

    class PlayerWidget(anywidget.AnyWidget):
        """The player in a notebook; `frame` follows the learner and moves the player."""

        _esm = widget_module()
        _html = traitlets.Unicode("").tag(sync=True)
        _still_id = traitlets.Unicode("").tag(sync=True)
        title = traitlets.Unicode("").tag(sync=True)
        height = traitlets.Int(0).tag(sync=True)
        frame = traitlets.Int(0).tag(sync=True)
        frame_count = traitlets.Int(0, read_only=True)

        def __repr__(self) -> str:
            return f"<PlayerWidget {self.title!r} at frame {self.frame} of {self.frame_count}>"

    return PlayerWidget


def player_widget(
    page: str, *, title: str, frame: int, frame_count: int, height: int, still_id: str
) -> Any | None:
    """A widget showing `page` (a standalone export), or None without anywidget."""
    cls = widget_class()
    if cls is None:
        return None
    widget = cls(_html=page, _still_id=still_id, title=title, height=height, frame=max(0, frame))
    widget.set_trait("frame_count", frame_count)
    return widget
