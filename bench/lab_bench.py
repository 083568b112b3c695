"""How long the lab's options take at the edges of the default limits (SPEC §4, §7, §8, §9).

Prints, for the ~20k-node MLP program (`tests/support/programs.py`): the trace as the server
encodes it, with `sort_steps` and with each mistake; and gradient checks whose work
(leaves × h values × nodes) is just under `BACKPROP_MAX_GRADCHECK_WORK`, forward and
central, on a deep graph (one leaf checked, every node recomputed) and a wide one
(many leaves). Every figure should stay well under 2 s on the 2-core machine.

Run: `python -m bench.lab_bench`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from backprop_animator.app.worker import Job, run_job
from backprop_animator.engine import Limits
from tests.support.programs import mlp_program

REPEATS = 3


def best_of(action: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def wide_program(leaves: int) -> str:
    """`leaves` leaves multiplied in a chain: 2 × leaves − 1 nodes."""
    names = [f"x{i}" for i in range(leaves)]
    return "".join(f"{name} = 1.0\n" for name in names) + "y = " + " * ".join(names) + "\n"


def main() -> None:
    limits = Limits()
    large = mlp_program(20_000)
    print(f"default BACKPROP_MAX_GRADCHECK_WORK = {limits.max_gradcheck_work:,}")
    print("trace of the ~20k-node program (encoded JSON):")
    for label, mistake, sort_steps in [
        ("plain", None, False),
        ("sort_steps", None, True),
        ("assign", "assign", False),
        ("append-first", "append-first", False),
        ("no-sort + sort_steps", "no-sort", True),
        ("append-first + sort_steps", "append-first", True),
    ]:
        job = Job("trace", large, "packed", (("mistake", mistake), ("sort_steps", sort_steps)))
        size = len(run_job(job, limits).body)
        seconds = best_of(lambda job=job: run_job(job, limits))
        print(f"  {label:28} {seconds * 1000:7.0f} ms  {size / 1e6:5.1f} MB")

    deep_steps = limits.max_gradcheck_work // 19_242  # h values for one leaf of 19,242 nodes
    wide_leaves = int((limits.max_gradcheck_work / 28) ** 0.5)  # ~ leaves × 14 × 2·leaves
    cases = [
        ("deep: 1 leaf of the ~20k program", large, deep_steps, ("x0",)),
        (f"wide: {wide_leaves} leaves, 14 h", wide_program(wide_leaves), 14, None),
    ]
    print("gradient checks just under the work limit:")
    for label, source, steps, leaves in cases:
        h = tuple(10.0 ** -(1 + i % 14) for i in range(steps))
        for scheme in ("forward", "central"):
            options = (("scheme", scheme), ("h", h), ("leaves", leaves))
            job = Job("gradcheck", source, "packed", options)
            seconds = best_of(lambda job=job: run_job(job, limits))
            print(f"  {label:34} {scheme:8} {len(h):3} h  {seconds * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
