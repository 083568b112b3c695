"""How the API's trace time grows with the program: `POST /api/trace` on a live server.

`bench.engine_bench` times the engine and the JSON encoding in this process; this
times what a client waits for: the request to the real app (uvicorn, routing, a
worker process for big programs, gzip, the pipe back and the response), for
programs of about 2,000 and 20,000 nodes, with the bare reference engine
(`bench.reference`, forward and backward of the same network) timed in the same run
for comparison. Prints each time, best of `--repeats`, and the growth for 10x the
nodes against SPEC §12's target (at most 12x).

Run from the repository root: `.venv/bin/python -m bench.api_bench [--program mlp|fanout]
[--repeats 5]`.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import time
import urllib.request
from collections.abc import Callable

from bench.reference import compile_program
from tests.support.harness import live_server
from tests.support.programs import fanout_program, mlp_program

SIZES = {"~2k": 2_000, "~20k": 20_000}
MAX_GROWTH = 12.0
PROGRAMS: dict[str, Callable[[int], str]] = {"mlp": mlp_program, "fanout": fanout_program}


def post_trace(base: str, source: str) -> tuple[float, int, int]:
    """Seconds until the whole answer arrived, its bytes on the wire, and its nodes."""
    body = json.dumps({"source": source, "granularity": "packed"}).encode()
    request = urllib.request.Request(
        f"{base}/api/trace",
        data=body,
        headers={"Content-Type": "application/json", "Accept-Encoding": "gzip"},
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        payload = response.read()
        seconds = time.perf_counter() - start
        encoding = response.headers.get("Content-Encoding")
    text = gzip.decompress(payload) if encoding == "gzip" else payload
    return seconds, len(payload), len(json.loads(text)["nodes"])


def best_of(repeats: int, run: Callable[[], float]) -> float:
    return min(run() for _ in range(repeats))


def timed(run: Callable[[], object]) -> Callable[[], float]:
    def once() -> float:
        gc.collect()
        start = time.perf_counter()
        run()
        return time.perf_counter() - start

    return once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", choices=sorted(PROGRAMS), default="mlp")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    # A loaded machine should measure a slow trace, not have it refused with 503.
    os.environ.setdefault("BACKPROP_TRACE_TIME_LIMIT", "60")
    rows = []
    with live_server() as base:
        for label, target in SIZES.items():
            source = PROGRAMS[args.program](target)
            build = compile_program(source)
            post_trace(base, source)  # warm the worker that will answer
            api = []
            for _ in range(args.repeats):
                seconds, wire, nodes = post_trace(base, source)
                api.append(seconds)
            reference = best_of(args.repeats, timed(lambda build=build: build().backward()))
            rows.append((label, nodes, min(api), max(api), wire, reference))
    print(f"program: {args.program}; best of {args.repeats}; load average {os.getloadavg()[0]:.2f}")
    print(
        f"{'program':<8} {'nodes':>7} {'API best':>10} {'API worst':>10} {'gzip bytes':>11} "
        f"{'bare engine':>12}"
    )
    for label, nodes, best, worst, wire, reference in rows:
        print(
            f"{label:<8} {nodes:>7,} {best * 1000:>8.0f}ms {worst * 1000:>8.0f}ms "
            f"{wire:>11,} {reference * 1000:>10.1f}ms"
        )
    (_, small_nodes, small, _, _, small_ref), (_, large_nodes, large, _, _, large_ref) = rows
    scale = 10 / (large_nodes / small_nodes)
    growth = large / small * scale
    reference_growth = large_ref / small_ref * scale
    verdict = "ok" if growth <= MAX_GROWTH else "OVER TARGET"
    print(
        f"growth for 10x the nodes: API {growth:.1f}x (target <= {MAX_GROWTH:.0f}x), "
        f"bare engine {reference_growth:.1f}x  {verdict}"
    )


if __name__ == "__main__":
    main()
