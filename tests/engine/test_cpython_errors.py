"""The errors a program catches say what CPython says (SPEC §15): each snippet runs
under CPython itself and in the interpreter, catching what it raises and printing its
class and words, and both outputs must be the same lines."""

from __future__ import annotations

import pytest

from backprop_animator.engine import trace_source
from tests.engine.cpython import printed_lines, run_in_cpython

TAIL = "\nv = Value(1.0)\nv.backward()\n"  # every trace needs a Value to end with

PRELUDE = """
import math
class A:
    pass
def g():
    yield 1
"""


def caught(statement: str, prelude: str = PRELUDE) -> str:
    """The program that runs `statement` (one line, `;` allowed) and prints the class and
    the words of what it raises."""
    return (
        f"{prelude}\ntry:\n    {statement}\n    print('no error')\n"
        "except Exception as e:\n    print(type(e).__name__ + ':', e)\n"
    )


def assert_as_cpython(source: str) -> None:
    ours = printed_lines(trace_source(source + TAIL))
    assert ours == run_in_cpython(source)


OPERATORS = [
    "None + 1", "1 + None", "1 + 'a'", "'a' + 1", "[1] + 2.0", "(1,) + [1]", "{} + ()",
    "set() + True", "len + 1", "(lambda: 1) + 1", "[].append + 1", "A + 1", "int + 1",
    "A() - 1", "1 - A()", "A() * A()", "None * 2", "[1] * 2.0", "2.0 * [1]", "'a' * 'b'",
    "None * 'a'", "[1] * A()", "2 ** None", "1 % None", "1 / 'a'", "1 // None",
    "1 & 1.0", "1 << None", "zip() + 1", "g() + 1", "math + 1", "range(1) + 1",
    "-None", "~1.0", "+'a'", "-A()", "-[1]",
    "None < 1", "1 < 'a'", "[1] < (1,)", "None <= None", "A() < A()", "A < 1", "len > 1",
    "{} < {}", "1 >= None",
    "x = None; x += 1", "x = 2; x **= None", "x = 1; x -= 'a'", "x = 'a'; x += 1",
    "x = (1,); x += [1]", "x = [1]; x *= 1.0", "x = {1}; x |= [1]", "x = 1; x //= None",
    "x = {1: None}; x[1] += 1", "a = A(); a.v = None; a.v *= 2",
]  # fmt: skip


@pytest.mark.parametrize("statement", OPERATORS)
def test_an_operator_no_operand_answers_is_cpythons_type_error(statement: str) -> None:
    assert_as_cpython(caught(statement))


def test_an_in_place_operator_keeps_the_words_of_an_error_inside_a_method_it_runs() -> None:
    source = """
class B:
    def __add__(self, other):
        return None + other
b = B()
try:
    b += 1
except TypeError as e:
    print(e)
try:
    x = 1
    x += B()
except TypeError as e:
    print(e)
"""
    assert_as_cpython(source)
