"""Finding static/ and templates/ in an installed wheel or a source checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from backprop_animator.app.paths import find_asset_dir


def test_installed_package_copy_wins(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "app"
    (package / "static").mkdir(parents=True)
    (tmp_path / "site-packages" / "static").mkdir()

    assert find_asset_dir("static", package) == package / "static"


def test_source_checkout_uses_the_repo_root(tmp_path: Path) -> None:
    package = tmp_path / "app"
    package.mkdir()
    (tmp_path / "templates").mkdir()

    assert find_asset_dir("templates", package) == tmp_path / "templates"


def test_missing_folder_is_an_error_naming_it(tmp_path: Path) -> None:
    package = tmp_path / "app"
    package.mkdir()

    with pytest.raises(FileNotFoundError, match="templates/"):
        find_asset_dir("templates", package)
