"""Rewrite the golden files in `tests/engine/golden/` from the current engine.

They are the traces of the article's examples, the rule sources the code panel shows
and the facts the trace's `ops` gives about every op (`engine.ops.page_facts`); the
engine tests (`test_golden.py`) and the page's unit tests (`tests/js/`) read the same
files, so there is one copy to review.

Run from the repository root after a deliberate change to the trace, then review
the diff by eye: `.venv/bin/python -m tests.engine.regenerate_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from backprop_animator.engine import trace_source
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.ops import OPS, page_facts
from backprop_animator.engine.rules import rule_sources

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_IDS = ("neuron", "neuron-expanded", "a-plus-a")
RULES_FILE = GOLDEN / "rules.json"
# What the trace's `ops` says about every op, for the page's tests of every op.
OPS_FILE = GOLDEN / "ops.json"


def registry_facts() -> dict[str, Any]:
    """`page_facts` of every op in the registry. A power is asked for by one of its ops
    (`**2`): the bare key `**` would be another engine's two-operand power, which is not
    ours and has no facts."""
    return page_facts("**2" if key == "**" else key for key in OPS)


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
        print(f"wrote {path}")
    RULES_FILE.write_text(golden_text(rule_sources()), encoding="utf-8")
    print(f"wrote {RULES_FILE}")
    OPS_FILE.write_text(golden_text(registry_facts()), encoding="utf-8")
    print(f"wrote {OPS_FILE}")


if __name__ == "__main__":
    main()
