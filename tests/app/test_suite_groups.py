"""The suite's `xdist_group` marks hold under `--dist loadgroup` (scripts/test-wheel):
the tests of one group run on one worker (tests/support/xdist_groups.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

GROUPED = """
import os
import pytest

@pytest.mark.xdist_group("{group}")
@pytest.mark.parametrize("i", range(6))
def test_turn(i):
    with open(os.environ["GROUPS_RAN"], "a") as f:
        f.write("{group} " + os.environ["PYTEST_XDIST_WORKER"] + "\\n")
"""


@pytest.mark.timeout(120)
def test_each_group_runs_on_one_worker(tmp_path: Path) -> None:
    for group in ("alpha", "beta"):
        (tmp_path / f"test_{group}.py").write_text(GROUPED.format(group=group))
    path = f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    env = {**os.environ, "PYTHONPATH": path, "GROUPS_RAN": str(tmp_path / "ran")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.support.xdist_groups",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-q",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers: dict[str, set[str]] = defaultdict(set)
    lines = (tmp_path / "ran").read_text().split()
    for group, worker in zip(lines[::2], lines[1::2], strict=True):
        workers[group].add(worker)
    assert sorted(workers) == ["alpha", "beta"]
    assert len(lines) == 24
    assert all(len(ran_on) == 1 for ran_on in workers.values()), dict(workers)
