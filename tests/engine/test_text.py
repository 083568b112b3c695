"""Text that leaves the engine is valid UTF-8 (engine/trace/text.py): lone surrogates become
U+FFFD, surrogate pairs the character they stand for, everything else is untouched."""

from __future__ import annotations

import pytest

from backprop_animator.engine.trace.text import clean_strings, clean_text


@pytest.mark.parametrize("text", ["", "ok", "x → y", "é", "😀", "\x00\n"])
def test_valid_text_is_returned_as_it_is(text: str) -> None:
    assert clean_text(text) is text


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("a\ud800b", "a\ufffdb"),
        ("\udcff", "\ufffd"),
        ("\udc00\ud800", "\ufffd\ufffd"),  # a low then a high surrogate is no pair
        ("\ud83d\ude00", "😀"),  # a well-formed pair is one character
        ("\ud83d\ude00\ud800", "😀\ufffd"),
    ],
)
def test_lone_surrogates_become_the_replacement_character(text: str, clean: str) -> None:
    assert clean_text(text) == clean
    clean.encode("utf-8")


def test_every_string_in_a_json_like_value_is_cleaned_keys_included() -> None:
    value = {"label": "\udcff", "n": 1.0, "items": ("a\ud800", ["ok", None]), "\ud800": True}

    assert clean_strings(value) == {
        "label": "\ufffd",
        "n": 1.0,
        "items": ["a\ufffd", ["ok", None]],
        "\ufffd": True,
    }
