"""Where the page's files are: inside the installed package, or at the repo root.

A wheel carries `static/` and `templates/` as `app/static` and `app/templates`
(see pyproject's force-include); a source checkout has them next to `app/`.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def find_asset_dir(name: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """`static` -> `<site-packages>/app/static` when installed, else `<repo>/static`."""
    for candidate in (package_dir / name, package_dir.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"cannot find the {name}/ directory in {package_dir} or {package_dir.parent}"
    )
