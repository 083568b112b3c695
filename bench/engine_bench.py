"""How much tracing costs: the full pipeline against a bare engine, on the same network.

For MLP-like programs of about 2,000 and 20,000 nodes (`tests.support.programs.mlp_program`)
it times `engine.trace_source` plus compact strict JSON (what an API client gets), the
columns encoding the page asks for (`engine.trace_columns`, its frames narrated by the
page), and the bare reference engine (`bench.reference`) doing forward and backward of
the same program, in the same run; then prints the ratios, the growth from the small to
the large program, and the JSON size per node, each against its target.

Run from the repository root: `.venv/bin/python -m bench.engine_bench`.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass

import orjson

from backprop_animator.app.worker import encode_trace
from backprop_animator.engine import Limits, trace_source
from bench.reference import compile_program
from tests.support.programs import mlp_program

SIZES = {"~2k": 2_000, "~20k": 20_000}  # label -> target nodes for `mlp_program`
MAX_RATIO = 10.0
MAX_GROWTH = 12.0
MAX_BYTES_PER_NODE = 800
MAX_PAGE_RATIO_AT_20K = 5.0  # issue 24: the page's trace of 20,000 nodes


@dataclass
class Row:
    label: str
    nodes: int
    trace_seconds: float
    reference_seconds: float
    json_seconds: float
    json_bytes: int
    columns_seconds: float
    columns_bytes: int

    @property
    def ratio(self) -> float:
        return self.trace_seconds / self.reference_seconds

    @property
    def page_ratio(self) -> float:
        return self.columns_seconds / self.reference_seconds

    @property
    def bytes_per_node(self) -> float:
        return self.json_bytes / self.nodes


def best_of(repeats: int, run: Callable[[], object]) -> float:
    """The fastest of `repeats` runs, in seconds: the least disturbed measurement.

    The garbage collector stays on, as in the server, but each run starts from a clean
    heap so that neither engine pays for collecting the other's cycles.
    """
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(label: str, target_nodes: int, repeats: int) -> Row:
    source = mlp_program(target_nodes)
    build_reference = compile_program(source)

    def trace_to_json() -> bytes:
        # What the server does for a request: the engine, then the JSON encoding.
        return encode_trace(source, "packed", Limits()).body

    def columns_to_json() -> bytes:
        # What the server does for the page's request.
        return encode_trace(source, "packed", Limits(), encoding="columns").body

    def reference_forward_backward() -> None:
        build_reference().backward()

    # The bare engine runs first, while no trace is alive for its collector to walk.
    reference_seconds = best_of(repeats, reference_forward_backward)
    trace_seconds = best_of(repeats, trace_to_json)
    columns_seconds = best_of(repeats, columns_to_json)
    trace = trace_source(source)
    json_seconds = best_of(repeats, lambda: orjson.dumps(trace))
    json_bytes = len(orjson.dumps(trace))
    columns_bytes = len(columns_to_json())
    return Row(
        label,
        len(trace["nodes"]),
        trace_seconds,
        reference_seconds,
        json_seconds,
        json_bytes,
        columns_seconds,
        columns_bytes,
    )


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER TARGET"


def main() -> None:
    rows = []
    for label, target in SIZES.items():
        rows.append(measure(label, target, repeats=5))
        gc.collect()
    print(
        f"{'program':<8} {'nodes':>7} {'trace+json':>11} {'json alone':>11} {'bare engine':>12}"
        f" {'ratio':>7} {'JSON bytes':>11} {'bytes/node':>11}"
        f" {'columns':>10} {'ratio':>7} {'bytes':>10}"
    )
    for row in rows:
        print(
            f"{row.label:<8} {row.nodes:>7,} {row.trace_seconds * 1000:>9.1f}ms"
            f" {row.json_seconds * 1000:>9.1f}ms {row.reference_seconds * 1000:>10.1f}ms"
            f" {row.ratio:>6.1f}x {row.json_bytes:>11,} {row.bytes_per_node:>11.0f}"
            f" {row.columns_seconds * 1000:>8.1f}ms {row.page_ratio:>6.1f}x"
            f" {row.columns_bytes:>10,}"
        )
    small, large = rows[0], rows[-1]
    node_growth = large.nodes / small.nodes
    # Scaled to exactly 10x the nodes, since the two programs are not exactly 10x apart.
    growth = large.trace_seconds / small.trace_seconds * 10 / node_growth
    reference_growth = large.reference_seconds / small.reference_seconds * 10 / node_growth
    worst_ratio = max(row.ratio for row in rows)
    worst_bytes = max(row.bytes_per_node for row in rows)
    print()
    print(f"nodes grew {node_growth:.1f}x; times below are scaled to 10x the nodes")
    checks = [
        (
            "ratio to the bare engine",
            f"{worst_ratio:.1f}x",
            f"<= {MAX_RATIO:.0f}x",
            worst_ratio <= MAX_RATIO,
        ),
        (
            "growth for 10x the nodes",
            f"{growth:.1f}x",
            f"<= {MAX_GROWTH:.0f}x (bare engine {reference_growth:.1f}x)",
            growth <= MAX_GROWTH,
        ),
        (
            "page's trace at ~20k",
            f"{large.page_ratio:.1f}x",
            f"<= {MAX_PAGE_RATIO_AT_20K:.0f}x the bare engine (columns)",
            large.page_ratio <= MAX_PAGE_RATIO_AT_20K,
        ),
        (
            "JSON bytes per node",
            f"{worst_bytes:.0f}",
            f"<= {MAX_BYTES_PER_NODE}",
            worst_bytes <= MAX_BYTES_PER_NODE,
        ),
    ]
    for what, value, target, ok in checks:
        print(f"{what:<26} {value:>7}   target {target:<34} {verdict(ok)}")


if __name__ == "__main__":
    main()
