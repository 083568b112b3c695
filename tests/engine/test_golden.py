"""The article's examples trace exactly as the reviewed files in `golden/` say.

After a deliberate change to the trace, regenerate them with
`.venv/bin/python -m tests.engine.regenerate_golden` and review the diff.
"""

from __future__ import annotations

import json

import pytest

from backprop_animator.engine.rules import rule_sources
from tests.engine.regenerate_golden import (
    GOLDEN,
    GOLDEN_IDS,
    OPS_FILE,
    RULES_FILE,
    golden_text,
    golden_trace,
    registry_facts,
)


@pytest.mark.parametrize("example_id", GOLDEN_IDS)
def test_trace_equals_the_golden_file(example_id: str) -> None:
    path = GOLDEN / f"{example_id}.json"
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert golden_trace(example_id) == expected, (
        f"the trace of {example_id!r} changed; if that is intended, run "
        "`python -m tests.engine.regenerate_golden` and review the diff"
    )


@pytest.mark.parametrize("example_id", GOLDEN_IDS)
def test_golden_file_is_in_its_canonical_form(example_id: str) -> None:
    path = GOLDEN / f"{example_id}.json"
    text = path.read_text(encoding="utf-8")
    assert text == golden_text(json.loads(text))


def test_rules_file_matches_the_engine_source() -> None:
    assert json.loads(RULES_FILE.read_text(encoding="utf-8")) == rule_sources(), (
        "the engine's rule sources changed; run `python -m tests.engine.regenerate_golden`"
    )


def test_ops_file_matches_the_registry() -> None:
    assert json.loads(OPS_FILE.read_text(encoding="utf-8")) == registry_facts(), (
        "the op registry changed; run `python -m tests.engine.regenerate_golden`"
    )
