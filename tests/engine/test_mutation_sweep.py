"""The mutation sweep (bench/mutation_sweep.py) on the engine of
test_engine_check_mutants.py: every one-bug mutant `ast` writes into it (a rule's `+=`
negated, a factor dropped, `=` for `+=`, `self` and `other` swapped, the visited check
removed, the append before the children, a seed of 2) that CPython runs and whose bug
shows in the leaves' gradients runs here as in CPython, and the engine check names
what was broken and nothing else. Its `_prev` is a tuple: a set's order is CPython's
addresses (docs/LANGUAGE.md), which a sweep over the public programs meets too."""

from __future__ import annotations

import pytest

from bench.mutation_sweep import judge, mutants_of
from tests.engine.test_engine_check_mutants import ENGINE

MUTANTS = mutants_of(ENGINE, per_kind=6)  # each rule of the six ops, each kind


def test_the_sweep_writes_every_kind_of_bug() -> None:
    assert {m.kind for m in MUTANTS} == set("abcdefg")


@pytest.mark.parametrize("index", range(len(MUTANTS)), ids=lambda i: MUTANTS[i].kind)
def test_each_mutant_is_judged_right(index: int) -> None:
    mutant = MUTANTS[index]
    result = judge(ENGINE, mutant)
    if result["status"] == "invisible":
        return  # (the bug changes no leaf's gradient: nothing to see)
    assert result["status"] == "ran", result
    assert "diverges" not in result, result
    assert result["verdict"] == "right", (mutant.what, result)
