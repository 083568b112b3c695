"""What a class tells of itself (`get_type_hints(C)`, `C.__annotations__`) reads the
class's own names as CPython's does, never an entry the interpreter keeps in it."""

from __future__ import annotations

import time

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import printed_lines, run_in_cpython_with_stderr

END = "\nv = Value(1.0)\nv.backward()\n"
FROZEN = (
    "from dataclasses import dataclass\nfrom typing import get_type_hints\n"
    "@dataclass(frozen=True)\nclass C:\n    x: int\n    y: {hint}\n"
    "try:\n    print({read})\nexcept NameError as e:\n    print(e)\n"
)
MISSING = "name '__dataclass_frozen__' is not defined"


@pytest.mark.parametrize(
    ("hint", "read"),
    [
        ("'__dataclass_frozen__'", "get_type_hints(C)"),
        ("__dataclass_frozen__", "C.__annotations__"),
    ],
)
def test_an_annotation_never_reads_the_interpreters_own_entries_of_a_class(
    hint: str, read: str
) -> None:
    # `@dataclass(frozen=True)` keeps `__dataclass_frozen__` in the class's names here
    # (it was read as True); CPython's class has no such name: a NameError, which CPython
    # raises when the class body runs (its annotation is evaluated then), as here (a
    # name's lookup), and a string's when it is read.
    source = FROZEN.format(hint=hint, read=read) + END
    if hint.startswith("'"):
        assert printed_lines(trace_source(source)) == [MISSING]
    else:
        with pytest.raises(EngineError, match=f"line 6, column 8: NameError: {MISSING}"):
            trace_source(source)
    assert run_in_cpython_with_stderr(source)[-1].endswith(MISSING)


LAZY_CLASSES = """
def gen():
    yield 1
lazy = [type(gen()), map, filter, zip, enumerate, reversed, type(iter([])), type(iter({}))]
print([[issubclass(one, other) for other in lazy] for one in lazy])
print([issubclass(one, (object, int)) for one in lazy])
"""


def test_the_classes_of_lazy_objects_are_subclasses_of_themselves_only() -> None:
    # A generator, a map object and a zip object are Python generators here: their
    # classes were each other's subclasses (`issubclass(type(gen()), map)` was True).
    source = LAZY_CLASSES + END
    assert printed_lines(trace_source(source)) == run_in_cpython_with_stderr(source)


def test_reading_annotations_under_many_future_imports_ends_at_the_time_limit() -> None:
    # Whether the module has `from __future__ import annotations` was looked up again, a
    # walk of every future import before the code, for each annotation read: 2,900 of
    # them made each read cost ~3,000 uncharged checks, and the run overshot its limit.
    source = (
        "from __future__ import division\n" * 2_900
        + "class C:\n    x: int\n    y: int\n    z: int\nwhile True:\n    C.__annotations__\n"
    )
    started = time.monotonic()
    with pytest.raises(EngineError, match=r"BACKPROP_TRACE_TIME_LIMIT|BACKPROP_MAX_STEPS"):
        trace_source(source, limits=Limits(time_limit=0.3))
    assert time.monotonic() - started < 1.0


ANNOTATIONS_KEPT = """
def f():
    print('evaluated')
    return int
class C:
    x: f()
print(C.__annotations__)
print(C.__annotations__ is C.__annotations__, vars(C)['__annotations__'] is C.__annotations__)
C.__annotations__['y'] = str
print(C.__annotations__, C().__annotations__ is C.__annotations__)
class D(C):
    pass
print(D.__annotations__ is D.__annotations__)
"""


def test_a_classs_annotations_are_one_dict_the_class_keeps() -> None:
    # They were evaluated at each read: a new dict each time (`is` was False, a write to
    # it was lost), and an annotation's call ran again at each read.
    source = ANNOTATIONS_KEPT + END
    assert printed_lines(trace_source(source)) == run_in_cpython_with_stderr(source)
