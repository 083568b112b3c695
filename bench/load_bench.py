"""Load on loopback: do small traces stay fast while heavy traces run?

Starts `python -m backprop_animator serve` on a free port, then for a few seconds 32 clients keep
posting the article's neuron while heavy clients keep posting too: one a ~19,200-node
network, four a short but dense program (`tanh` nested 160 deep, twice, expanded:
under 2,000 characters, ~2,900 nodes). Prints the request and error counts, the
neuron's latency percentiles and the heavy traces' latencies. The clients speak
minimal HTTP/1.1 over asyncio streams: on the same two cores, a full client library's
own CPU time would dominate the figures. The reference, in the same run: the neuron
posted alone, one request at a time, on the same server before the load starts; and
the load average before and after.

Run from the repo root: `python -m bench.load_bench [--seconds 5]`. The target on a
2-core machine: a neuron p99 of at most 300 ms and no errors, except that heavy
clients may be shed with 503 and `Retry-After` (counted apart as "shed").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics

from backprop_animator.engine.examples import NEURON
from tests.support.harness import live_server
from tests.support.programs import dense_program, mlp_program

NEURON_CLIENTS = 32
DENSE_CLIENTS = 4
# About 19,200 nodes and 98,000 characters: just under both default limits.
BIG_PROGRAM_NODES = 19_900


class Connection:
    """One keep-alive HTTP/1.1 connection that posts JSON and reads whole responses."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def post_json(self, path: str, payload: object) -> tuple[int, bytes, dict[str, str]]:
        body = json.dumps(payload).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        status_line, *header_lines = (
            (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        )
        headers = dict(line.lower().split(": ", 1) for line in header_lines if line)
        content = await self.reader.readexactly(int(headers["content-length"]))
        return int(status_line.split()[1]), content, headers

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def keep_posting(
    port: int,
    payload: dict[str, str],
    until: float,
    latencies: list[float],
    errors: list[str],
    shed: list[str] | None = None,
) -> None:
    """Post `payload` until `until`; a 503 with Retry-After goes to `shed` if given."""
    loop = asyncio.get_running_loop()
    connection = await Connection.open(port)
    try:
        while loop.time() < until:
            started = loop.time()
            try:
                status, content, headers = await connection.post_json("/api/trace", payload)
            except (OSError, asyncio.IncompleteReadError) as error:
                errors.append(repr(error))
                connection = await Connection.open(port)
                continue
            if status == 503 and "retry-after" in headers and shed is not None:
                shed.append(content[:200].decode("utf-8", "replace"))
                await asyncio.sleep(float(headers["retry-after"]))
                continue
            if status != 200:
                errors.append(f"{status} {content[:200]!r}")
                continue
            latencies.append(loop.time() - started)
    finally:
        await connection.close()


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def time_alone(port: int, payload: dict[str, str], repeats: int = 3) -> list[float]:
    """Latencies of `payload` posted on its own, one request at a time."""
    loop = asyncio.get_running_loop()
    connection = await Connection.open(port)
    latencies: list[float] = []
    try:
        for _ in range(repeats):
            started = loop.time()
            status, content, _ = await connection.post_json("/api/trace", payload)
            if status == 200:
                latencies.append(loop.time() - started)
            else:
                print(f"a heavy program alone was refused: {status} {content[:120]!r}")
    finally:
        await connection.close()
    return latencies


async def run_load(port: int, seconds: float) -> None:
    big = {"source": mlp_program(BIG_PROGRAM_NODES)}
    dense = {"source": dense_program(), "granularity": "expanded"}
    load_before = os.getloadavg()[0]
    neuron_alone = await time_alone(port, {"source": NEURON}, repeats=200)
    big_alone = await time_alone(port, big)
    dense_alone = await time_alone(port, dense)
    neuron_latencies: list[float] = []
    big_latencies: list[float] = []
    dense_latencies: list[float] = []
    errors: list[str] = []
    shed: list[str] = []
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(
        keep_posting(port, big, until, big_latencies, errors, shed),
        *(
            keep_posting(port, dense, until, dense_latencies, errors, shed)
            for _ in range(DENSE_CLIENTS)
        ),
        *(
            keep_posting(port, {"source": NEURON}, until, neuron_latencies, errors)
            for _ in range(NEURON_CLIENTS)
        ),
    )
    served = len(neuron_latencies) + len(big_latencies) + len(dense_latencies)
    print(
        f"seconds: {seconds:g}, neuron clients: {NEURON_CLIENTS}, "
        f"heavy clients: 1 large + {DENSE_CLIENTS} dense"
    )
    print(
        f"large program: {len(big['source']):,} characters; "
        f"dense program: {len(dense['source']):,} characters, expanded"
    )
    print(f"load average (1 min): {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"requests: {served + len(errors) + len(shed)}, errors: {len(errors)}, shed: {len(shed)}")
    for error in errors[:5]:
        print(f"  error: {error}")
    if neuron_latencies:
        p50, p95, p99 = (percentile(neuron_latencies, f) * 1000 for f in (0.5, 0.95, 0.99))
        print(
            f"neuron: {len(neuron_latencies)} traces, "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms"
            f"{'  ok' if p99 <= 300 else '  OVER TARGET (p99 <= 300 ms)'}"
        )
    if neuron_alone:
        print(
            f"neuron alone (reference): p50 {statistics.median(neuron_alone) * 1000:.1f} ms, "
            f"p99 {percentile(neuron_alone, 0.99) * 1000:.1f} ms"
        )
    for name, alone, under_load in (
        ("large", big_alone, big_latencies),
        ("dense", dense_alone, dense_latencies),
    ):
        line = f"{name} trace alone: " + (
            f"median {statistics.median(alone) * 1000:.0f} ms" if alone else "always refused"
        )
        if under_load:
            line += (
                f"; under load: {len(under_load)} traces, "
                f"mean {statistics.mean(under_load) * 1000:.0f} ms, "
                f"max {max(under_load) * 1000:.0f} ms"
            )
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    with live_server() as base:
        asyncio.run(run_load(int(base.rsplit(":", 1)[1]), args.seconds))


if __name__ == "__main__":
    main()
