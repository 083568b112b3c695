"""How fast real programs run: an nn.py-style MLP, traced end to end, against CPython.

The program (`mlp_batch_program`) defines Module/Neuron/Layer/MLP classes as micrograd's
`nn.py` does, runs a forward pass over a batch, a squared-error loss and one
`backward()`: about 2,000 nodes. It is timed twice in the same run:

- traced: `engine.trace_source` (parse, compile, interpret, record every frame) plus
  the compact strict JSON the server sends;
- CPython: the very same source executed by CPython itself, with a plain
  micrograd-style `Value` (`bench.reference`), forward and backward.

Target: the traced run within 10x of CPython. Run from the repository root:
`.venv/bin/python -m bench.interpreter_bench`.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import orjson

from backprop_animator.app.worker import encode_trace
from backprop_animator.engine import Limits, trace_source
from backprop_animator.engine.program_examples import MLP_TRAINING
from bench.reference import Value as PlainValue

MAX_RATIO = 10.0
IMPORT_LINE = "from micrograd.engine import Value\n"


def mlp_batch_program(batch: int = 8, sizes: tuple[int, ...] = (8, 8, 1)) -> str:
    """nn.py's classes (from the MLP example), one forward over `batch` samples, backward."""
    classes = MLP_TRAINING[: MLP_TRAINING.index("random.seed(0)")].replace(
        "act.tanh() if self.nonlin", "act.relu() if self.nonlin"
    )
    rows = [[((i * 7 + j * 3) % 11 - 5) / 5 for j in range(3)] for i in range(batch)]
    targets = [1.0 if i % 2 else -1.0 for i in range(batch)]
    return classes + (
        f"random.seed(1)\nmodel = MLP(3, {list(sizes)})\n"
        f"xs = {rows}\nys = {targets}\n"
        "preds = [model(x) for x in xs]\n"
        "loss = sum((p - y) ** 2 for p, y in zip(preds, ys))\n"
        "loss.backward()\n"
    )


def best_of(repeats: int, run: Callable[[], object], clock: Callable[[], float]) -> float:
    """The fastest of `repeats` runs by `clock`: wall time, or this process's CPU time,
    which a machine shared with other work disturbs less."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def main() -> None:
    source = mlp_batch_program()
    plain_source = compile(source.replace(IMPORT_LINE, ""), "<mlp>", "exec")

    def cpython() -> None:
        exec(plain_source, {"Value": PlainValue, "__name__": "bench"})  # our own program

    def traced() -> bytes:
        return encode_trace(source, "packed", Limits()).body

    trace = trace_source(source)
    size = len(orjson.dumps(trace))
    nodes = len(trace["nodes"])
    print(f"nn.py-style MLP, batch of 8: {nodes:,} nodes, JSON {size:,} bytes")
    print(f"{'clock':<10} {'traced+json':>12} {'CPython':>9} {'ratio':>7}")
    ratios = []
    for name, clock in (("wall", time.perf_counter), ("cpu", time.process_time)):
        reference = best_of(7, cpython, clock)
        seconds = best_of(7, traced, clock)
        ratios.append(seconds / reference)
        print(
            f"{name:<10} {seconds * 1000:>10.1f}ms {reference * 1000:>7.1f}ms"
            f" {seconds / reference:>6.1f}x"
        )
    verdict = "ok" if min(ratios) <= MAX_RATIO else "OVER TARGET"
    print(f"ratio to CPython {min(ratios):.1f}x   target <= {MAX_RATIO:.0f}x   {verdict}")


if __name__ == "__main__":
    main()
