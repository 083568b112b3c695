"""The frames' text (engine.narrate): short sentences, whatever the labels."""

from __future__ import annotations

import json

from engine import trace_source
from engine.narrate import MAX_LABEL_IN_TEXT


def test_a_long_label_is_cut_in_the_text_and_to_100_characters_on_its_node() -> None:
    label = "L" * 5_000
    source = f"a = Value(1.0, label='{label}')\nc = a\n" + "c = c + a\n" * 50

    trace = trace_source(source)

    assert any(node["label"] == "L" * 99 + "…" for node in trace["nodes"])  # SPEC §11
    assert all(len(frame["text"]) < 20 * MAX_LABEL_IN_TEXT for frame in trace["frames"])
    assert "L" * (MAX_LABEL_IN_TEXT - 1) + "…" in trace["frames"][-1]["text"]
    # One copy in nodes[] and the source echo, not one per frame that mentions it.
    assert len(json.dumps(trace)) < 3 * len(label) + 100_000
