"""Checks for the whole suite: under scripts/test-wheel, the code tested is the wheel's."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

import backprop_animator
from tests.support.checkout import WHEEL

# xdist's groups on pytest 9.2 (tests/support/xdist_groups.py)
pytest_plugins = ["tests.support.xdist_groups"]


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
