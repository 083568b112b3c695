"""The frames' text (engine.narrate): short sentences, whatever the labels."""

from __future__ import annotations

import json

from backprop_animator.engine import trace_source
from backprop_animator.engine.narrate import MAX_LABEL_IN_TEXT


def test_a_long_label_is_cut_in_the_text_and_to_100_characters_on_its_node() -> None:
    label = "L" * 5_000
    source = f"a = Value(1.0, label='{label}')\nc = a\n" + "c = c + a\n" * 50

    trace = trace_source(source)

    assert any(node["label"] == "L" * 99 + "…" for node in trace["nodes"])  # SPEC §11
    assert all(len(frame["text"]) < 20 * MAX_LABEL_IN_TEXT for frame in trace["frames"])
    assert "L" * (MAX_LABEL_IN_TEXT - 1) + "…" in trace["frames"][-1]["text"]
    # One copy in nodes[] and the source echo, not one per frame that mentions it.
    assert len(json.dumps(trace)) < 3 * len(label) + 100_000


def test_ordinals_past_twenty_read_21st_22nd_23rd_and_the_teens_th() -> None:
    from backprop_animator.engine.narrate import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
        "101st", "111th", "112th",
    ]  # fmt: skip


def test_the_22nd_contribution_into_a_node_is_called_22nd() -> None:
    source = "a = Value(1.0)\nc = a\n" + "c = c + a\n" * 22
    texts = " ".join(frame["text"] for frame in trace_source(source)["frames"])
    assert "22nd +=" in texts and "21st +=" in texts and "23rd +=" in texts
    assert "22th" not in texts


def test_a_label_beginning_with_the_still_lets_parents_be_named_after_it() -> None:
    trace = trace_source("a = Value(2.0, label='the input')\nb = a * 3")
    assert trace["frames"][0]["text"].startswith("b = the input*3 = 2 × 3 = 6")
