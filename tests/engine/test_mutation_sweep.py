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


# The mutants whose bug changes no leaf's gradient (each node's rule runs once, so `=`
# for `+=` loses nothing; relu's dropped factor is its own 1): named, so that a `judge`
# calling every mutant invisible fails here rather than passing each test.
INVISIBLE = {
    "line 72: self.grad += (out.data > 0) * out.grad": "bc",
    "line 17: self.grad += out.grad": "c",
    "line 44: self.grad += k * self.data ** (k - 1) * out.grad": "c",
}


@pytest.mark.parametrize("index", range(len(MUTANTS)), ids=lambda i: MUTANTS[i].kind)
def test_each_mutant_is_judged_right(index: int) -> None:
    mutant = MUTANTS[index]
    result = judge(ENGINE, mutant)
    if mutant.kind in INVISIBLE.get(mutant.what, ""):
        assert result == {"status": "invisible"}, (mutant.what, result)
        return
    assert result["status"] == "ran", result
    assert "diverges" not in result, result
    assert result["verdict"] == "right", (mutant.what, result)
