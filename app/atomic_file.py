"""Write a file all at once or not at all: a failed write leaves the old file whole.

`open(path, "w")` empties the file before the first byte is written, so an export
that fails half-way (a character the encoding cannot write, a full disk) would
destroy the page that was there. Here the text goes to a new file beside it, which
replaces the old one only once it is complete (`os.replace` is atomic on POSIX and
Windows within one file system).

Example: `write_text_atomically(Path("page.html"), "<!doctype html>...")`.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_text_atomically(path: str | os.PathLike[str], text: str) -> Path:
    """Write `text` as UTF-8 to `path`, replacing it only when the whole text is written."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    # 0o666 less the umask: the permissions `open(path, "w")` would have given.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target
