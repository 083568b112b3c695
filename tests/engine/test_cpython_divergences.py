"""Programs where the interpreter once differed from CPython (SPEC §15, "real code as
people write it"): each runs under CPython itself and in the interpreter, and both must
print the same lines; a construct that grows gets a hostile test proving it is bounded."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.cpython import printed_lines
from tests.engine.test_cpython_errors import TAIL, assert_as_cpython, caught

IN_PLACE = [
    "x = [1]; x += 1", "x = [1]; x += None", "x = [1]; x += 2.5; print(x)",
    "x = [1]; x += 'ab'; print(x)", "x = [1]; x += range(3); print(x)",
    "x = [1]; x += {5: 1}; print(x)", "x = [1]; x += {5}; print(x)",
    "x = [1]; y = x; x += (i for i in range(3)); print(y)",
    "a = A(); a.grad = None; a.grad += 1", "a = A(); a.grad = None; a.grad -= 1",
    "a = A(); a.grad = None; a.grad *= 2.0", "a = A(); a.grad = 'g'; a.grad += 1",
]  # fmt: skip


@pytest.mark.parametrize("statement", IN_PLACE)
def test_an_in_place_operator_says_what_cpythons_says(statement: str) -> None:
    assert_as_cpython(caught(statement))


def test_a_list_plus_equals_an_object_asks_its_radd_first_then_iterates_it() -> None:
    source = """
class R:
    def __radd__(self, other):
        return 'radd'
class I:
    def __iter__(self):
        return iter([9, 8])
xs = [1]
xs += I()
print(xs)
xs += R()
print(xs)
"""
    assert_as_cpython(source)


def test_a_list_extended_by_a_huge_iterable_stops_at_the_container_bound() -> None:
    with pytest.raises(EngineError, match="1,000,000"):
        trace_source("def f():\n    pass\nxs = [1]\nxs += range(10**8)\n" + TAIL)


def test_a_logger_has_cpythons_level() -> None:
    """(No `basicConfig` or `logging.disable` here: CPython's run would change the test
    process's own logging.)"""
    source = """
import logging
logger = logging.getLogger('lib')
child = logging.getLogger('lib.sub.leaf')
print(hasattr(logger, 'level'), logger.level, logger.name, child.getEffectiveLevel())
logger.setLevel(logging.DEBUG)
print(logger.level, child.getEffectiveLevel(), child.isEnabledFor(logging.INFO))
print(child.isEnabledFor(5))
logger.setLevel('INFO')
print(logger.level, logger.getEffectiveLevel(), logging.getLogger().level)
for bad in ['NOPE', 1.5, None]:
    try:
        logger.setLevel(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
"""
    assert_as_cpython(source)


def test_basic_config_sets_the_roots_level_once() -> None:
    source = (
        "import logging\nlogging.basicConfig(level=logging.ERROR)\n"
        "logging.basicConfig(level=logging.DEBUG)\n"
        "print(logging.getLogger().getEffectiveLevel(), logging.getLogger('x').level)\n"
        "print(logging.getLogger('x').getEffectiveLevel())\n"
        "logging.disable(logging.CRITICAL)\nprint(logging.getLogger('x').isEnabledFor(50))\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == ["40 0", "40", "False"]
