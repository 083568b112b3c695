"""A throwaway PostgreSQL server for the tests: Debian's `postgresql`, on a Unix socket
in a temporary directory, with no TCP port and trust authentication.

scripts/test installs the package where it is missing. PostgreSQL will not run as
root, so as root the cluster belongs to `nobody` (`runuser`).

Example: `with postgres_server() as url: database(url)` ->
`postgresql+psycopg://postgres@/postgres?host=/tmp/pg-xyz`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def postgres_bin() -> Path | None:
    """The newest installed server's bin directory (Debian keeps it out of PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
    return Path(found[-1]).parent if found else None


def _major(path: str) -> int:
    version = Path(path).parents[1].name
    return int(version) if version.isdigit() else 0


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start a cluster, yield a SQLAlchemy URL to its `postgres` database, stop it."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError(
            "PostgreSQL is not installed (bash scripts/test installs Debian's postgresql)"
        )
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "nobody", "--"]
    root = Path(tempfile.mkdtemp(prefix="backprop-pg-"))
    data = root / "data"
    try:
        if as_user:
            shutil.chown(root, "nobody")
        os.chmod(root, 0o700)
        run = [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres"]
        subprocess.run(
            [*run, "-A", "trust", "--no-sync", "-E", "UTF8"],
            check=True,
            capture_output=True,
            cwd=root,
        )
        options = f"-k {root} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data)]
        subprocess.run(
            [*ctl, "-l", str(root / "log"), "-o", options, "-w", "-t", "30", "start"],
            check=True,
            capture_output=True,
            cwd=root,
        )
        try:
            yield f"postgresql+psycopg://postgres@/postgres?host={root}"
        finally:
            subprocess.run(
                [*ctl, "-m", "immediate", "-w", "stop"], capture_output=True, cwd=root, check=False
            )
    except subprocess.CalledProcessError as error:
        log = root / "log"
        detail = log.read_text(errors="replace") if log.exists() else ""
        raise RuntimeError(
            f"PostgreSQL did not start: {error.stderr.decode(errors='replace')}{detail}"
        ) from None
    finally:
        shutil.rmtree(root, ignore_errors=True)
