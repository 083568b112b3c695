"""The straight-line corpus (tests/engine/straight_line_corpus.py) answers as recorded:
every trace, check and error of a thousand programs in seven modes, byte for byte."""

from __future__ import annotations

import json

from tests.engine.straight_line_corpus import DIGESTS, MODES, PROGRAMS, digest, program


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
