"""Writing a file all at once or not at all (app/atomic_file.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from backprop_animator.app.atomic_file import write_text_atomically


def test_a_new_file_holds_the_text_as_utf8(tmp_path: Path) -> None:
    path = write_text_atomically(tmp_path / "page.html", "x → y")

    assert path == tmp_path / "page.html"
    assert path.read_bytes() == "x → y".encode()
    assert list(tmp_path.iterdir()) == [path]


def test_an_existing_file_is_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("a much longer page from yesterday", encoding="utf-8")

    write_text_atomically(str(target), "today")

    assert target.read_text(encoding="utf-8") == "today"


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("the page from yesterday", encoding="utf-8")

    with pytest.raises(UnicodeEncodeError):
        write_text_atomically(target, "<p>" + "x" * 10_000 + "\ud800")

    assert target.read_text(encoding="utf-8") == "the page from yesterday"
    assert list(tmp_path.iterdir()) == [target]


def test_a_missing_folder_is_an_error_not_a_new_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_text_atomically(tmp_path / "nowhere" / "page.html", "text")
    assert list(tmp_path.iterdir()) == []
