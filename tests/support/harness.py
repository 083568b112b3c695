"""Run the app and Chromium on this machine, for benchmarks and the tests that need them.

`live_server()` starts the server on a free loopback port, waits until `/healthz`
answers and stops it afterwards; `CHROMIUM_ARGS` are the flags headless Debian
Chromium needs here (no sandbox as root, no background traffic on a closed network).

Example: `with live_server() as base: urllib.request.urlopen(f"{base}/healthz")`.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
STARTUP_SECONDS = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def live_server(
    command: Sequence[str | Path] = (sys.executable, "-m", "backprop_animator", "serve"),
    cwd: Path = ROOT,
    env: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """Run `command --port N` and yield its base URL once `/healthz` answers.

    `env`: variables set for the server besides this process's own.

    Raises RuntimeError, with what the server printed, if it exits or stays silent.
    """
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            cwd=cwd,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=None if env is None else {**os.environ, **env},
        )

        def failure(reason: str) -> RuntimeError:
            log.seek(0)
            return RuntimeError(f"{reason} ({base}):\n{log.read().decode(errors='replace')}")

        try:
            deadline = time.monotonic() + STARTUP_SECONDS
            while not _healthy(base):
                if process.poll() is not None:
                    raise failure(f"the server exited with status {process.returncode}")
                if time.monotonic() > deadline:
                    raise failure(f"the server did not answer within {STARTUP_SECONDS} s")
                time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False
