"""A pytest plugin giving pytest-xdist's `--dist loadgroup` its groups back on pytest 9.2.

xdist 3.8 names a test's `xdist_group` by writing `item._nodeid` (the test's id with
`@group`), which pytest 9.2 no longer reads: its `nodeid` is made from the structured
`item._id` (pytest-xdist#1386; the fix, #1388, is not released). Without this plugin every
group's tests are shared out one by one: a module's JupyterLab or LTI stack starts on both
workers, and a program's traces are made in both. After xdist's own hook on a worker, the
structured id is made from the string xdist wrote. It does nothing where xdist is not
grouping, on a pytest before 9.2, and once xdist sets the id itself (then `nodeid`
already ends in the group). tests/app/test_suite_groups.py runs it."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # pytest before 9.2: xdist's own write is read
        return
    for item in items:
        grouped = item.__dict__.get("_nodeid")
        if isinstance(grouped, str) and "@" in grouped and grouped != item.nodeid:
            item._id = NodeId.parse(grouped)  # type: ignore[attr-defined]
