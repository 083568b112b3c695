"""The recording side's shortcuts for speed (docs/PERFORMANCE.md, the nineteenth
session): each skips work only where the work it skips would have found nothing, and
the answer is the same as the long way's, on programs where the long way finds
something and on ones where it finds nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import trace_columns
from backprop_animator.engine.lab import engine_check
from tests.support.traces import ROOMY

HERE = Path(__file__).resolve().parent
# Writes over what a pass's rules gave, between its rules (`v.grad = 1.0` before each
# rule, `v.grad = 0.0` after each), a rule's `=`, a zeroing inside backward(), and
# training loops whose writes between rules are none (the zeroing, the step).
OVERWRITING = [
    HERE / "learner_bugs" / "seed_in_the_loop.py",
    HERE / "learner_bugs" / "zero_after_rule.py",
    HERE / "learner_bugs" / "zero_inside_backward.py",
    HERE / "learner_bugs" / "path_sum_assign.py",
    HERE / "real_code" / "bug_grads_overwritten.py",
    HERE / "real_code" / "recursive_backward.py",
    HERE / "real_code" / "course_training_loop.py",
    HERE / "real_code" / "hand_run_backward.py",
]


def test_the_overwrite_walk_is_left_out_only_where_it_finds_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walk = engine_check._overwritten
    calls: list[tuple[list[dict[str, Any]], dict[Any, str], Any, bool]] = []

    def watched(frames: list[dict[str, Any]], ids: dict[Any, str], phases: Any = None) -> Any:
        found = walk(frames, ids, phases)
        phases = [frame["phase"] for frame in frames]
        calls.append((frames, ids, found, engine_check._written_between_rules(frames, phases)))
        return found

    monkeypatch.setattr(engine_check, "_overwritten", watched)
    for path in OVERWRITING:
        trace_columns(path.read_text(encoding="utf-8"), limits=ROOMY)
    # The long way: every frame walked, whatever the update frames are.
    monkeypatch.setattr(engine_check, "_written_between_rules", lambda frames, phases: True)
    for frames, ids, found, _ in calls:
        assert walk(frames, ids) == found
    assert any(found is not None for _, _, found, _ in calls)  # an overwrite found
    assert any(not walked for _, _, _, walked in calls)  # and the walk left out
