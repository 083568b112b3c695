"""Rewrite the golden traces in `tests/engine/golden/` from the current engine.

Run from the repository root after a deliberate change to the trace, then review
the diff by eye: `.venv/bin/python -m tests.engine.regenerate_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine import trace_source
from engine.examples import EXAMPLES

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_IDS = ("neuron", "neuron-expanded", "a-plus-a")


def golden_trace(example_id: str) -> dict[str, Any]:
    example = next(example for example in EXAMPLES if example.id == example_id)
    return trace_source(example.source, example.granularity)


def golden_text(trace: dict[str, Any]) -> str:
    """Pretty-printed, sorted keys, strict JSON, one newline at the end."""
    return json.dumps(trace, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for example_id in GOLDEN_IDS:
        path = GOLDEN / f"{example_id}.json"
        path.write_text(golden_text(golden_trace(example_id)), encoding="utf-8")
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    main()
