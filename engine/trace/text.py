"""Text that can leave the engine: every string in a trace or an error is valid UTF-8.

Python strings may hold lone surrogates (`'\\ud800'`, written as an escape in a
label, or what a non-UTF-8 command-line argument decodes to), which UTF-8 cannot
encode: JSON encoders, HTML files and terminals all fail on them. Rather than
refuse a program for an unusual label, such code units are replaced by U+FFFD (�),
the character Unicode reserves for "something was here that cannot be shown"; a
well-formed surrogate pair becomes the one character it stands for.

Example: `clean_text("a\\ud800b") == "a\\ufffdb"`; `clean_text("ok") == "ok"`.
"""

from __future__ import annotations

from typing import Any


def clean_text(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD; itself when already valid."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # UTF-16 pairs up valid surrogate pairs and marks the lone ones as errors.
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def clean_strings(value: Any) -> Any:
    """`value` (JSON-like: dicts, lists, strings, numbers) with every string cleaned.

    Example: `clean_strings({"label": "\\udcff", "n": 1.0}) == {"label": "\\ufffd", "n": 1.0}`.
    """
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(str(key)): clean_strings(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [clean_strings(item) for item in value]
    return value
