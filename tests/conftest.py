"""Checks for the whole suite: under scripts/test-wheel, the code tested is the wheel's."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

import backprop_animator
from tests.support.checkout import WHEEL


def pytest_configure() -> None:
    if not WHEEL:
        return
    where = Path(backprop_animator.__file__).resolve()
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    if not where.is_relative_to(site):
        raise pytest.UsageError(
            f"BACKPROP_TEST_WHEEL=1 but backprop_animator comes from {where}, "
            f"not from the installed wheel in {site}"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Under `--dist loadgroup` a test marked `xdist_group` must carry its group.

    pytest-xdist tells its scheduler a test's group by the test's id (`id@group`); on
    pytest 9.2 that id no longer changes (pytest-xdist#1386), and the groups are lost
    without a word: a module's JupyterLab or LTI stack then starts once per worker and
    its tests run at once on both. pyproject.toml keeps pytest under 9.2; this fails the
    grouped tests, saying why, should the groups be lost again."""
    if not getattr(item.config.option, "loadgroup", False):
        return  # not an xdist worker, or another way of sharing out the tests
    grouped = item.nodeid.rfind("@") > item.nodeid.rfind("]")  # xdist's own reading
    if item.get_closest_marker("xdist_group") and not grouped:
        pytest.fail(
            f"{item.nodeid} lost its xdist_group under --dist loadgroup "
            f"(pytest-xdist#1386; pytest {pytest.__version__})",
            pytrace=False,
        )
