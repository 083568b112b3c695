"""The straight-line corpus (tests/engine/straight_line_corpus.py) answers as recorded:
every trace, check and error of a thousand programs in eleven modes, and of three
hundred graphs built in Python in four, byte for byte. The digests were recorded by the
engine before straight-line programs ran in the interpreter's straight-line mode."""

from __future__ import annotations

import json

from tests.engine.straight_line_corpus import (
    DIGESTS,
    GRAPH_MODES,
    GRAPHS,
    MODES,
    PROGRAMS,
    digest,
    graph_answer,
    hashed,
    program,
    without_passes,
)


def test_every_program_of_the_corpus_answers_byte_for_byte_as_recorded() -> None:
    recorded = json.loads(DIGESTS.read_text())
    assert tuple(recorded["modes"]) == MODES
    assert len(recorded["digests"]) == PROGRAMS
    changed = [
        (index, mode)
        for index, row in enumerate(recorded["digests"])
        for mode, expected in zip(MODES, row, strict=True)
        if digest(program(index), mode) != expected
    ]
    assert not changed, f"{len(changed)} answers changed, first {changed[:5]}"


def test_every_graph_of_the_corpus_answers_as_recorded_and_carries_its_one_pass() -> None:
    recorded = json.loads(DIGESTS.read_text())
    assert tuple(recorded["graph_modes"]) == GRAPH_MODES
    assert len(recorded["graph_digests"]) == GRAPHS
    changed = []
    for index, row in enumerate(recorded["graph_digests"]):
        for mode, expected in zip(GRAPH_MODES, row, strict=True):
            found = graph_answer(index, mode)
            if "error" not in found:
                assert [entry["output"] for entry in found["passes"]] == [found["output"]]
            if hashed(without_passes(found)) != expected:
                changed.append((index, mode))
    assert not changed, f"{len(changed)} answers changed, first {changed[:5]}"
