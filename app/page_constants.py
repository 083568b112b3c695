"""Facts the page's ES modules own and Python needs too, read from the modules.

The player's message types, a frame's default height and the title rule live once,
in `static/js/`; the notebook and the export read them here rather than keeping
copies that could drift. A constant is a line `export const NAME = <JSON>;`.

Example: `js_constant("hosts/frame-messages.js", "HEIGHT_MESSAGE") == "backprop-animator:height"`.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from backprop_animator.app.paths import find_asset_dir


@cache
def js_constant(module: str, name: str) -> Any:
    """The value of `export const NAME = …;` in static/js/MODULE, which must be JSON."""
    path = find_asset_dir("static") / "js" / module
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"^export const {re.escape(name)} = (.+?);\s*$", text, re.MULTILINE)
    if match is None:
        raise LookupError(f"{path} has no line `export const {name} = …;`")
    try:
        return json.loads(match[1])
    except json.JSONDecodeError as error:
        raise LookupError(f"{path}: {name} is not a plain JSON value: {match[1]}") from error


def height_listener() -> str:
    """static/height-listener.js: the parent page's side of the height messages."""
    return (find_asset_dir("static") / "height-listener.js").read_text(encoding="utf-8")
