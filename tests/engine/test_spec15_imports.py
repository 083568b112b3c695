"""SPEC §15's import list, name by name where the audit found it short: `operator`'s
arithmetic, bitwise and comparison functions (the whole family, not only `add` …
`ge`), and `random.Random` instances with the generator's own `getrandbits`. Each
statement runs under CPython and here, and both must print the same (errors
included, in CPython's class and words); the hostile ones stop at their bounds."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.cpython import printed_lines
from tests.engine.test_cpython_errors import TAIL, assert_as_cpython, caught

PRELUDE = """
import operator, random
class A:
    def __init__(self, v):
        self.v = v
    def __and__(self, other):
        return A(self.v + 100)
    def __invert__(self):
        return 'inverted'
    def __index__(self):
        return 7
    def __contains__(self, item):
        return item == 3
    def __repr__(self):
        return f'A({self.v})'
"""

OPERATOR_STATEMENTS = [
    "print(operator.abs(-3.5), operator.abs(-2), operator.abs(True))",
    "print(operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3))",
    "print(operator.lshift(1, 3), operator.rshift(8, 2), operator.rshift(-9, 1))",
    "print(operator.invert(5), operator.inv(-1), operator.invert(True))",
    "print(operator.not_(1), operator.not_([]), operator.truth([]), operator.truth('a'))",
    "print(operator.is_(None, None), operator.is_not(1, None), operator.is_([], []))",
    "print(operator.contains([1], 1), operator.contains('abc', 'b'), operator.contains({1: 0}, 1))",
    "print(operator.concat([1], [2]), operator.concat('a', 'b'), operator.concat((1,), (2,)))",
    "print(operator.index(7), operator.index(True), operator.index(A(0)))",
    "print(operator.and_(A(1), 2), operator.invert(A(1)), operator.contains(A(1), 3))",
    "import functools; print(functools.reduce(operator.xor, [1, 2, 4, 8]))",
    "xs = [1]; ys = operator.iadd(xs, [2]); print(xs, ys is xs, operator.iadd(1, 2))",
    "print(operator.isub(5, 2), operator.imul('ab', 2), operator.itruediv(1, 4))",
    "print(operator.ifloordiv(7, 2), operator.imod(7, 3), operator.ipow(2, 5))",
    "print(operator.iand(6, 3), operator.ior(6, 3), operator.ixor(6, 3))",
    "print(operator.ilshift(1, 4), operator.irshift(16, 2), operator.iconcat([1], (2,)))",
    "d = {1: 'a'}; operator.setitem(d, 2, 'b'); operator.delitem(d, 1); print(d)",
    "print(operator.getitem([5, 6], 1), operator.getitem({'k': 2}, 'k'))",
    "print(operator.countOf([1, 2, 1, 1.0], 1), operator.indexOf('abc', 'c'))",
    "print(operator.call(max, 3, 9, key=lambda v: -v), operator.matmul.__name__, operator.add)",
    "operator.indexOf([1], 2)",
    "operator.iconcat(1, [2])",
    "operator.getitem([1], 5)",
    "operator.matmul(1, 2)",
    "operator.imatmul(1, 2)",
    "operator.call()",
    # CPython's errors, caught by the program
    "operator.concat(1, 2)",
    "operator.concat([1], (2,))",
    "operator.index(1.5)",
    "class B:\n        def __index__(self):\n            return 'x'\n    operator.index(B())",
    "operator.invert(1.5)",
    "operator.abs('a')",
    "operator.and_(1.0, 1)",
    "operator.lshift(1, -1)",
    # the program's own shifts raise the same ValueError, which `except` catches
    "x = 1 << -1",
    "x = 8; x >>= -2",
    "operator.not_()",
    "operator.truth(1, 2)",
    "operator.contains(1, 2)",
    "operator.is_(1)",
]


@pytest.mark.parametrize("statement", OPERATOR_STATEMENTS)
def test_operators_functions_do_what_cpythons_do(statement: str) -> None:
    assert_as_cpython(caught(statement, PRELUDE))


RANDOM_STATEMENTS = [
    "random.seed(7); print(random.getrandbits(64), random.getrandbits(1), random.getrandbits(0))",
    "r = random.Random(42); print(r.getrandbits(32), r.getrandbits(200), r.random())",
    "r = random.Random(3); r.getrandbits(8); print(r.randint(1, 100))",
    "random.getrandbits(-1)",
    "random.getrandbits(1.5)",
    "random.getrandbits()",
]


@pytest.mark.parametrize("statement", RANDOM_STATEMENTS)
def test_getrandbits_draws_cpythons_numbers(statement: str) -> None:
    assert_as_cpython(caught(statement, PRELUDE))


def test_getrandbits_past_the_integer_bound_is_refused_before_the_work() -> None:
    program = "import random\nx = random.getrandbits(10**9)\n"
    with pytest.raises(EngineError, match="4,096 bits"):
        trace_source(program + TAIL)


HOSTILE = [
    ("import operator\nx = operator.lshift(1, 10**6)\n", "4,096 bits"),
    ("import operator\nx = operator.concat('a' * 10000, 'b')\n", "10,000"),
    ("import operator\nx = operator.concat([0] * 1000000, [1])\n", "1,000,000"),
    (
        "import operator\nx = [[0]]\nfor i in range(10**9):\n    x = operator.concat(x, x)\n",
        "1,000,000",
    ),
    ("import operator\nx = operator.index(Value(1.0))\n", "cannot be interpreted as an integer"),
    ("import operator\nx = operator.invert(Value(1.0))\n", "unary ~"),
    ("import operator\nx = [0]\nfor i in range(40):\n    x = operator.iadd(x, x)\n", "1,000,000"),
    ("import operator\nx = operator.imul([0], 10**7)\n", "1,000,000"),
    ("import operator\nx = operator.imul('ab', 10**5)\n", "10,000"),
    ("import operator\nx = operator.countOf(range(10**9), 5)\n", "BACKPROP_MAX_STEPS"),
    ("import operator\ndef f(n):\n    return operator.call(f, n + 1)\nf(0)\n", "1,000"),
    ("import operator\nx = operator.ilshift(1, 10**6)\n", "4,096 bits"),
]


@pytest.mark.parametrize(("program", "bound"), HOSTILE)
def test_operators_functions_stay_within_the_bounds(program: str, bound: str) -> None:
    with pytest.raises(EngineError, match=bound):
        trace_source(program + TAIL)


def test_a_random_instance_without_a_seed_is_seeded_with_0_so_traces_repeat() -> None:
    # SPEC §3: the same source gives the same trace, byte for byte; §11: an unseeded
    # program is seeded with 0. CPython seeds `Random()` from the system's entropy.
    program = (
        "import random\nr = random.Random()\nq = random.Random(None)\nz = random.Random(0)\n"
        "print(r.random(), q.random(), z.random())\nr.seed()\nprint(r.random())\n"
    )
    first = trace_source(program + TAIL)
    assert first == trace_source(program + TAIL)
    drawn = printed_lines(first)
    same = "0.8444218515250481"  # random.Random(0).random()
    assert drawn == [f"{same} {same} {same}", same]


VALUE_EXPONENTS = [
    "Value(2.0) ** Value(3.0)",
    "2 ** Value(3.0)",
    "2.5 ** Value(3.0)",
    "pow(Value(1.0), Value(2.0))",
    "x = Value(1.0); x **= Value(2.0)",
]


@pytest.mark.parametrize("statement", VALUE_EXPONENTS)
def test_a_value_exponent_is_micrograds_catchable_error(statement: str) -> None:
    # SPEC §15: `from micrograd.engine import Value` gives micrograd 0.1.0's behaviour:
    # its `__pow__` asserts a number exponent, and it has no `__rpow__`.
    assert_as_cpython(caught(statement, "from micrograd.engine import Value"))


def test_a_deque_repeated_is_a_deque_as_cpythons() -> None:
    assert_as_cpython(
        "from collections import deque\n"
        "d = deque([1, 2]); print(d * 3, 2 * d, d * 0, d * True)\n"
        "e = deque([1, 2], maxlen=3); print(e * 2, 2 * e)\n"
        "f = deque([5]); f *= 3; print(f)\n"
        "g = deque([1, 2], maxlen=3); g *= 2; print(g)\n"
        "h = deque([1]); k = h * 2; k.append(9); print(h, k, type(k).__name__)\n"
        "k.appendleft(0); print(k)\n"
        "try:\n    deque([1]) * 1.5\nexcept TypeError as e:\n    print(e)\n"
    )


def test_a_random_instance_is_named_as_an_object_not_a_module() -> None:
    # (`binomialvariate` came in CPython 3.12: 3.11's Random has none)
    program = "import random\nr = random.Random(1)\nx = r.binomialvariate(5)\n"
    with pytest.raises(EngineError, match="'Random' object has no attribute 'binomialvariate'"):
        trace_source(program + TAIL)


TYPE_NAMES = [
    "AbstractSet",
    "ByteString",
    "ContextManager",
    "ItemsView",
    "KeysView",
    "MappingView",
    "MutableSet",
    "ValuesView",
    "AsyncIterator",
    "AsyncIterable",
    "Coroutine",
    "AsyncGenerator",
    "AsyncContextManager",
    "SupportsAbs",
    "SupportsBytes",
    "SupportsComplex",
    "SupportsIndex",
    "SupportsRound",
    "ChainMap",
    "BinaryIO",
    "IO",
    "Match",
    "Pattern",
    "TextIO",
    "LiteralString",
    "NotRequired",
    "Required",
    "TypeGuard",
    "Unpack",
    "Concatenate",
    "Text",
    "ParamSpec",
    "TypeVarTuple",
    "assert_type",
    "no_type_check",
    "no_type_check_decorator",
    "dataclass_transform",
]


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_typing_name_of_a_type_imports_for_annotations(name: str) -> None:
    # SPEC §15: `typing` (every name usable in annotations)
    assert_as_cpython(f"from typing import {name}\nimport typing\nprint(typing.{name} is {name})")


def test_typing_names_work_in_annotations_as_at_cpythons_run_time() -> None:
    assert_as_cpython(
        "from typing import Text, SupportsIndex, TextIO, AbstractSet, Callable, Concatenate\n"
        "from typing import ParamSpec, TypeVarTuple, TypeGuard, assert_type, no_type_check\n"
        "from typing import dataclass_transform\n"
        "P = ParamSpec('P')\nTs = TypeVarTuple('Ts')\n"
        "def f(x: SupportsIndex, s: Text, out: TextIO = None, a: AbstractSet[int] = frozenset()"
        ") -> Text:\n    return Text(x) + s\n"
        "print(f(3, 'a'), Text('q'), isinstance('a', Text), Text is str, assert_type(5, int))\n"
        "@no_type_check\ndef g():\n    return 1\nprint(g())\n"
        "@dataclass_transform()\ndef h(cls):\n    return cls\n@h\nclass K:\n    pass\n"
        "print(K.__name__)\n"
        "def is_s(v) -> TypeGuard[str]:\n    return isinstance(v, str)\nprint(is_s(1))\n"
        "def deco(fn: Callable[P, int]) -> Callable[Concatenate[int, P], int]:\n    return fn\n"
        "print(deco(len)('ab'))\n"
    )


def test_cmp_to_key_sorts_as_cpythons_calling_the_comparison_as_often() -> None:
    assert_as_cpython(
        "from functools import cmp_to_key\nimport functools\n"
        "def by_len_then_rev(a, b):\n    if len(a) != len(b):\n        return len(a) - len(b)\n"
        "    return (a < b) - (a > b)\n"
        "words = ['bb', 'a', 'ccc', 'aa', 'c']\n"
        "print(sorted(words, key=cmp_to_key(by_len_then_rev)))\n"
        "print(sorted(words, key=functools.cmp_to_key(by_len_then_rev), reverse=True))\n"
        "print(min(words, key=cmp_to_key(by_len_then_rev)))\n"
        "K = cmp_to_key(lambda a, b: a - b)\nk = K(5)\n"
        "print(k.obj, K(1) < K(2), K(2) == K(2), K(3) >= K(4), K(3) > K(1), K(1) <= K(1))\n"
        "calls = []\ndef c(a, b):\n    calls.append((a, b))\n    return a - b\n"
        "xs = [5, 2, 8, 1, 9, 3]\nxs.sort(key=cmp_to_key(c))\nprint(xs, calls)\n"
        "try:\n    hash(k)\nexcept TypeError:\n    print('unhashable')\n"
    )


def test_cmp_to_key_is_bounded_by_the_steps_its_comparisons_take() -> None:
    program = (
        "from functools import cmp_to_key\n"
        "def slow(a, b):\n    for i in range(1000):\n        pass\n    return a - b\n"
        "xs = sorted(range(5000), key=cmp_to_key(slow))\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        trace_source(program + TAIL)


def test_update_wrapper_does_what_wraps_does() -> None:
    assert_as_cpython(
        "import functools\n"
        "def deco(fn):\n    def wrapper(*a, **k):\n        return fn(*a, **k) * 2\n"
        "    return functools.update_wrapper(wrapper, fn)\n"
        "@deco\ndef double_me(x):\n    return x + 1\n"
        "print(double_me(3), double_me.__name__, double_me.__qualname__)\n"
        "class A:\n    @deco\n    def m(self):\n        return 1\n"
        "print(A().m(), A.m.__name__, A.m.__qualname__)\n"
        "try:\n    functools.update_wrapper(deco)\nexcept TypeError:\n    print('TypeError')\n"
    )
