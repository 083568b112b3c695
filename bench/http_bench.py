"""Small requests over HTTP: what the server adds to a cheap answer (issue 24).

Starts the real server (`python -m backprop_animator serve`, as `backprop-animator serve`
runs it) and, in the same run, references: a bare ASGI app that answers every request
with a constant, on the same uvicorn (once with h11, once with httptools when it is
installed), with `--baseline DIR` the server of another checkout (e.g. a `git worktree`
of the commit before a change), and with `--access-log` this build logging each
request. Each server gets one keep-alive connection per client, and the targets are
asked in turn, `--block` requests back to back each, so that the machine's load
(shared, here) falls on all alike. Two clients:
`httpx.Client`, and a minimal HTTP/1.1 client on a plain socket whose own cost is a
small part of httpx's, so its figures show the server's part. The engine's time for
the neuron (`encode_trace`: parse, trace, JSON, ETag) is timed in this process in the
same turns.

Prints p50 and p95 of `GET /healthz` and `POST /api/trace` of the article's neuron for
each, the load average before and after, and the verdicts against issue 24's targets
(the neuron at most 1.5 ms p50, `/healthz` at most 0.5 ms p50) with the ratios to the
bare app.

Run from the repository root: `.venv/bin/python -m bench.http_bench [--requests 1000]
[--block 20] [--baseline /tmp/base] [--access-log] [--markdown]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from backprop_animator.app.worker import encode_trace
from backprop_animator.engine import Limits
from backprop_animator.engine.examples import NEURON
from tests.support.harness import live_server

TRACE_TARGET = 1.5e-3
HEALTH_TARGET = 0.5e-3
CONSTANT = b'{"status":"ok","version":"0.1.0"}'
TRACE_BODY = json.dumps({"source": NEURON, "granularity": "packed"}).encode()
# As a browser asks: gzip accepted (the neuron's trace, 4.9 kB, is sent gzipped).
HEADERS = {"Content-Type": "application/json", "Accept-Encoding": "gzip"}
SERVE = (sys.executable, "-m", "backprop_animator", "serve")

# The reference server, run as `python -c REFERENCE_SERVER HTTP --port N`: a bare ASGI
# app that reads the request and answers a constant, on uvicorn with the given parser.
REFERENCE_SERVER = f"""
import sys, uvicorn
BODY = {CONSTANT!r}
HEADERS = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]
async def app(scope, receive, send):
    more = True
    while more:
        more = (await receive()).get("more_body", False)
    await send({{"type": "http.response.start", "status": 200, "headers": HEADERS}})
    await send({{"type": "http.response.body", "body": BODY}})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[3]), http=sys.argv[1],
            lifespan="off", access_log=False, log_level="warning")
"""


class RawClient:
    """One keep-alive HTTP/1.1 connection on a plain socket: a request in one send, the
    response read whole (Content-Length or chunked), nothing decoded."""

    def __init__(self, base: str) -> None:
        self.port = int(base.rsplit(":", 1)[1])
        self.connect()

    def connect(self) -> None:
        self.socket = socket.create_connection(("127.0.0.1", self.port))
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = self.socket.makefile("rb")

    def request(self, method: str, path: str, body: bytes = b"") -> int:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        self.socket.sendall(head.encode("ascii") + body)
        status_line = self.reader.readline()
        if not status_line:  # the server closed the idle connection (keep-alive timeout)
            self.close()
            self.connect()
            return self.request(method, path, body)
        status = int(status_line.split()[1])
        length, chunked = 0, False
        while (line := self.reader.readline()) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "transfer-encoding":
                chunked = "chunked" in value.lower()
        if not chunked:
            self.reader.read(length)
            return status
        while size := int(self.reader.readline(), 16):
            self.reader.read(size + 2)
        self.reader.readline()
        return status

    def close(self) -> None:
        self.reader.close()
        self.socket.close()


@dataclass
class Target:
    """One request to time again and again, and its latencies."""

    name: str
    client: str
    send: Callable[[], int]
    samples: list[float] = field(default_factory=list)

    def once(self) -> float:
        start = time.perf_counter()
        status = self.send()
        seconds = time.perf_counter() - start
        if status != 200:
            raise RuntimeError(f"{self.name} ({self.client}) answered {status}")
        return seconds

    @property
    def p50(self) -> float:
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def httpx_send(
    client: httpx.Client, method: str, path: str, body: bytes | None
) -> Callable[[], int]:
    def send() -> int:
        return client.request(method, path, content=body, headers=HEADERS).status_code

    return send


def raw_send(client: RawClient, method: str, path: str, body: bytes = b"") -> Callable[[], int]:
    return lambda: client.request(method, path, body)


def targets_for(stack: ExitStack, name: str, base: str, bare: bool) -> list[Target]:
    """`GET /healthz` and `POST /api/trace` (the neuron) on `base`, with both clients; a
    bare app answers them alike, so its targets are named by method only."""
    requests: list[tuple[str, str, str, bytes]] = [
        ("GET" if bare else "GET /healthz", "GET", "/healthz", b""),
        ("POST" if bare else "POST /api/trace", "POST", "/api/trace", TRACE_BODY),
    ]
    http = stack.enter_context(httpx.Client(base_url=base))
    raw = RawClient(base)
    stack.callback(raw.close)
    targets = []
    for label, method, path, body in requests:
        content = body or None
        targets.append(Target(f"{name} {label}", "httpx", httpx_send(http, method, path, content)))
        targets.append(Target(f"{name} {label}", "socket", raw_send(raw, method, path, body)))
    return targets


def baseline_command(checkout: Path) -> Sequence[str]:
    """`serve` from another checkout: its package first on the path, its directory as cwd."""
    return ("env", f"PYTHONPATH={checkout}", *SERVE)


def measure(
    requests: int, block: int, baseline: Path | None, access_log: bool
) -> tuple[list[Target], Target]:
    """Every target's latencies: `block` requests back to back on each in turn, until
    each has answered `requests`."""
    with ExitStack() as stack:
        servers = [("this build", stack.enter_context(live_server(SERVE)), False)]
        if access_log:
            logged = live_server(("env", "BACKPROP_ACCESS_LOG=1", *SERVE))
            servers.append(("+ access log", stack.enter_context(logged), False))
        if baseline is not None:
            base = stack.enter_context(live_server(baseline_command(baseline), cwd=baseline))
            servers.append(("baseline", base, False))
        for http in ("h11", "httptools"):
            if http == "h11" or importlib.util.find_spec("httptools") is not None:
                command = (sys.executable, "-c", REFERENCE_SERVER, http)
                servers.append(
                    (f"bare ASGI ({http})", stack.enter_context(live_server(command)), True)
                )
        targets = [t for name, url, bare in servers for t in targets_for(stack, name, url, bare)]
        limits = Limits()
        engine = Target("engine in-process (encode_trace)", "-", lambda: _encode(limits))
        everything = [*targets, engine]
        for target in everything:  # warm up: imports, caches, the workers' first trace
            for _ in range(50):
                target.once()
        for _ in range(max(1, requests // block)):
            for target in everything:
                target.send()  # untimed: the connection may have idled out meanwhile
                target.samples.extend(target.once() for _ in range(block))
    return targets, engine


def _encode(limits: Limits) -> int:
    encode_trace(NEURON, "packed", limits)
    return 200


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def find(targets: list[Target], name: str, client: str) -> Target | None:
    return next((t for t in targets if t.name == name and t.client == client), None)


def verdicts(targets: list[Target], engine: Target) -> Iterator[str]:
    for client in ("httpx", "socket"):
        health = find(targets, "this build GET /healthz", client)
        trace = find(targets, "this build POST /api/trace", client)
        bare_get = find(targets, "bare ASGI (httptools) GET", client) or find(
            targets, "bare ASGI (h11) GET", client
        )
        bare_post = find(targets, "bare ASGI (httptools) POST", client) or find(
            targets, "bare ASGI (h11) POST", client
        )
        assert health and trace and bare_get and bare_post
        floor = bare_post.p50 + engine.p50
        for what, row, target, against in (
            ("/healthz", health, HEALTH_TARGET, f"{health.p50 / bare_get.p50:.1f}× the bare GET"),
            (
                "neuron",
                trace,
                TRACE_TARGET,
                f"{trace.p50 / floor:.1f}× bare POST + engine ({ms(floor)})",
            ),
        ):
            verdict = "ok" if row.p50 <= target else "OVER TARGET"
            yield (
                f"{client:>6} {what}: p50 {ms(row.p50)} (target <= {ms(target)}), "
                f"{against}  {verdict}"
            )
        baseline = find(targets, "baseline POST /api/trace", client)
        baseline_health = find(targets, "baseline GET /healthz", client)
        if baseline and baseline_health:
            faster = baseline_health.p50 / health.p50, baseline.p50 / trace.p50
            yield (
                f"{client:>6} against the baseline: /healthz {faster[0]:.1f}× faster, "
                f"neuron {faster[1]:.1f}× faster"
            )


def table(targets: list[Target], engine: Target, load: tuple[float, float]) -> Iterator[str]:
    yield f"load average (1 min) {load[0]:.2f} before, {load[1]:.2f} after; {os.cpu_count()} cores"
    yield f"{'what':<36} {'client':>7} {'p50':>10} {'p95':>10}"
    for row in [*targets, engine]:
        yield f"{row.name:<36} {row.client:>7} {ms(row.p50):>10} {ms(row.p95):>10}"


def markdown(targets: list[Target], engine: Target) -> Iterator[str]:
    clients = ("httpx", "socket")
    yield "| what | " + " | ".join(f"{c} p50 / p95" for c in clients) + " |"
    yield "|---|" + "---:|" * len(clients)
    names = list(dict.fromkeys(t.name for t in targets))
    for name in names:
        cells = []
        for client in clients:
            row = find(targets, name, client)
            cells.append(f"{ms(row.p50)} / {ms(row.p95)}" if row else "")
        yield f"| {name} | " + " | ".join(cells) + " |"
    yield f"| {engine.name} | {ms(engine.p50)} / {ms(engine.p95)} | |"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="requests per target")
    parser.add_argument(
        "--block", type=int, default=20, help="requests back to back before the next target"
    )
    parser.add_argument("--baseline", type=Path, help="another checkout's server, timed alongside")
    parser.add_argument(
        "--access-log", action="store_true", help="also time this build with its access log on"
    )
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    args = parser.parse_args()
    before = os.getloadavg()[0]
    targets, engine = measure(args.requests, args.block, args.baseline, args.access_log)
    load = (before, os.getloadavg()[0])
    print(
        f"{args.requests} requests per target, {args.block} at a time in turn; "
        "one keep-alive connection per server and client"
    )
    for line in [*table(targets, engine, load), *verdicts(targets, engine)]:
        print(line)
    if args.markdown:
        print()
        print("\n".join(markdown(targets, engine)))


if __name__ == "__main__":
    main()
