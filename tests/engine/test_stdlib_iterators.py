"""More of `itertools` and `math` as CPython's (SPEC §15: "itertools (the finite
ones)"): `groupby` with its shared iterator (a group read after the next one was asked
for is empty), `chain.from_iterable`, `takewhile`, `dropwhile`, `filterfalse`,
`compress`, `cycle`; `math.comb`, `perm`, `lcm`, `dist`, `nextafter`, `ulp`. Each
statement runs under CPython and here, and both must print the same; the hostile ones
stop at their bounds, before the work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import printed_lines
from tests.engine.test_cpython_errors import TAIL, assert_as_cpython, caught

PRELUDE = """
import itertools, math
from itertools import groupby, chain, takewhile, dropwhile, filterfalse, compress, cycle, islice
"""

STATEMENTS = [
    'print([(k, list(g)) for k, g in groupby("aabbbca")])',
    'print([(k, list(g)) for k, g in list(groupby("aabbbc"))])',
    (
        "print([(k, len(list(g))) for k, g in groupby(sorted([3, 1, 4, 1, 5, 9, 2, 6]), "
        "key=lambda v: v % 2)])"
    ),
    (
        "it = groupby([1, 1, 2]); k, g = next(it); print(k, next(g)); k2, g2 = next(it); "
        "print(k2, list(g), list(g2))"
    ),
    'print(list(chain.from_iterable(["ab", [1, 2], (3,)])), list(chain([1], "xy")))',
    (
        "print(list(takewhile(lambda v: v < 3, [1, 2, 3, 1])), "
        "list(dropwhile(lambda v: v < 3, [1, 2, 3, 1])))"
    ),
    ("print(list(filterfalse(None, [0, 1, 2, 0])), list(filterfalse(lambda v: v % 2, range(6))))"),
    'print(list(compress("abcdef", [1, 0, 1, 0, 1, 1])), list(islice(cycle("ab"), 5)))',
    "list(groupby(5))",
    "list(chain.from_iterable([1]))",
    "chain.from_iterable()",
    "list(takewhile(None, [1]))",
    (
        "print(math.comb(5, 2), math.comb(10, 0), math.comb(3, 5), math.perm(5, 2), "
        "math.perm(5), math.perm(3, 5), math.lcm(4, 6), math.lcm(), math.lcm(0, 5))"
    ),
    (
        "print(math.dist([0, 0], [3, 4]), math.dist((1.5,), (0.5,)), math.nextafter(1.0, "
        "2.0), math.ulp(1.0))"
    ),
    "print(math.comb(100, 50), math.comb(1000, 500).bit_length())",
    "math.comb(-1, 2)",
    "math.comb(5, -1)",
    "math.comb(5.0, 2)",
    "math.comb(5)",
    "math.perm(5, None)",
    "math.dist([1], [1, 2])",
    "math.dist(1, 2)",
    "math.comb(True, True)",
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_an_iterator_or_math_function_does_what_cpythons_does(statement: str) -> None:
    assert_as_cpython(caught(statement, PRELUDE))


def test_groupby_calls_the_programs_key_and_eq_as_cpython_does() -> None:
    source = """
from itertools import groupby
class K:
    calls = 0
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        K.calls += 1
        return self.v // 2 == other.v // 2
    __hash__ = None
rows = [K(v) for v in [0, 1, 2, 3, 3, 6]]
print([(k.v, [r.v for r in g]) for k, g in groupby(rows)], K.calls)
keys = []
print([k for k, _ in groupby(range(7), key=lambda v: keys.append(v) or v // 3)], keys)
"""
    assert_as_cpython(source)


HOSTILE = [
    # an endless cycle taken in a loop: the step bound
    "import itertools\nfor x in itertools.cycle([1, 2]):\n    pass\n",
    # an endless cycle listed: the container bound
    "import itertools\nxs = list(itertools.cycle(range(10)))\n",
    # groupby over an endless count: a step per item
    "import itertools\nfor k, g in itertools.groupby(itertools.count()):\n    pass\n",
    # from_iterable of endless iterables
    "import itertools\nfor x in itertools.chain.from_iterable(itertools.repeat(range(9), 10**9)):\n"
    "    pass\n",
    # binomials and permutations far past the integer bound: refused before the work
    "import math\nx = math.comb(10**9, 10**8)\n",
    "import math\nx = math.perm(10**7)\n",
]


@pytest.mark.parametrize("program", HOSTILE)
def test_an_iterator_or_math_function_stays_within_its_bounds(program: str) -> None:
    # A roomy clock: the bound these meet is the step or size bound (groupby over an
    # endless count takes 0.7 s to its millionth step on a quiet machine, near the default
    # 1.8 s on a loaded one); the time limit has tests of its own.
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|1,000,000|4,096 bits"):
        trace_source(program + TAIL, limits=Limits(time_limit=60))


@pytest.mark.parametrize("root", ["__lt__", "__le__", "__gt__", "__ge__"])
def test_total_ordering_makes_the_other_orderings_as_cpythons(root: str) -> None:
    op = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}[root]
    source = f"""
import functools
calls = []
@functools.total_ordering
class V:
    def __init__(self, d):
        self.d = d
    def __eq__(self, o):
        calls.append('eq')
        return self.d == o.d
    def {root}(self, o):
        calls.append('{root}')
        return self.d {op} o.d
    def __round__(self, n=None):
        return V(round(self.d, n))
    def __repr__(self):
        return f'V({{self.d}})'
class W:
    pass
a, b, c = V(1), V(2), V(1)
print(a < b, a <= c, a > b, a >= c, b > a, c <= a, sorted([b, a, c]), max(a, b), calls)
print(round(V(2.567), 2), round(V(2.5)), round(V(3.5), None))
try:
    functools.total_ordering(W)
except ValueError as e:
    print(e)
"""
    assert_as_cpython(source)


def test_warnings_as_a_notebook_uses_it() -> None:
    """(Every filter inside `catch_warnings`: CPython's run is in the test process.)"""
    source = """
import sys, warnings
with warnings.catch_warnings():
    warnings.filterwarnings("ignore")
    warnings.simplefilter("always", DeprecationWarning)
    warnings.resetwarnings()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("old api", DeprecationWarning)
    warnings.warn("plain")
    warnings.warn(RuntimeWarning("made"))
    print(len(w), [str(x.message) for x in w], [x.category.__name__ for x in w])
for bad in ["loud", 3]:
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings(bad)
    except AssertionError as e:
        print('AssertionError', e)
try:
    warnings.warn("x", int)
except TypeError as e:
    print(e)
print(issubclass(UserWarning, Exception), isinstance(FutureWarning("x"), Warning))
print(sys.float_info.epsilon, sys.float_info.max, sys.float_info.dig, sys.version_info >= (3, 8))
"""
    assert_as_cpython(source)


@pytest.mark.parametrize("call", ['filterwarnings("error")', 'simplefilter("error")'])
def test_warnings_error_filter_is_refused_not_ignored(call: str) -> None:
    """CPython raises a warning as an exception under the 'error' filter; it is not made
    here, so it is refused (never silently ignored, which would give another output)."""
    source = f"import warnings\nwarnings.{call}\nwarnings.warn('boom')\nprint('went on')\n"
    with pytest.raises(EngineError, match="'error' is not available here"):
        trace_source(source)


WARNING_PROGRAM = """
import warnings
def old(x):
    warnings.warn("old() is deprecated", DeprecationWarning)
    return x
for i in range(3):
    old(i)
warnings.warn("plain")
print('between')
warnings.warn(RuntimeWarning("made"))
for i in range(2):
    warnings.warn("loop %d" % i, FutureWarning)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    warnings.warn("hidden")
old(5)
with warnings.catch_warnings(record=True) as log:
    warnings.simplefilter("default")
    old(5)
    old(5)
    warnings.warn("kept")
print(len(log), [str(w.message) for w in log], [w.lineno for w in log])
warnings.simplefilter("always")
old(6)
old(7)
warnings.filterwarnings("ignore", message="OLD.*depre")
old(8)
warnings.filterwarnings("ignore", category=UserWarning)
warnings.warn("user")
warnings.resetwarnings()
warnings.warn("after reset", DeprecationWarning)
warnings.simplefilter("once")
warnings.warn("one")
warnings.warn("one")
warnings.simplefilter("module")
for i in range(2):
    warnings.warn("mod")
warnings.warn("mod")
print('done')
"""


STACKLEVEL_PROGRAM = """
import warnings
def old(x):
    warnings.warn("old() is deprecated", DeprecationWarning, stacklevel=2)
    return x
def deeper():
    warnings.warn("three up", stacklevel=3)
def middle():
    deeper()
class Engine:
    def step(self):
        warnings.warn("step", FutureWarning, stacklevel=2)
e = Engine()
old(1)
old(2)
middle()
e.step()
warnings.warn("too far", stacklevel=2)
warnings.warn("far dep", DeprecationWarning, stacklevel=5)
def loop():
    for i in range(30):
        e.step()
        old(i)
loop()
print('done')
"""


# Methods called often enough to run their generated `enter` (`codegen._enter`), which
# keeps no `making_` where the method makes no op: their call sites count as calls too.
HOT_STACKLEVEL_PROGRAM = """
import warnings
warnings.simplefilter("always")
class Model:
    def inner(self, x):
        if x >= 298:
            warnings.warn("deep", UserWarning, stacklevel=3)
        return x
    def middle(self, x):
        y = self.inner(x)
        return y
    def outer(self, x):
        z = self.middle(x) + 1
        return z
m = Model()
for i in range(300):
    m.outer(i)
print('done')
"""


@pytest.mark.parametrize(
    "program",
    [WARNING_PROGRAM, STACKLEVEL_PROGRAM, HOT_STACKLEVEL_PROGRAM],
    ids=["filters", "stack", "hot"],
)
def test_a_warning_is_shown_as_cpython_writes_it_to_stderr(tmp_path: Path, program: str) -> None:
    """CPython writes `file:line: Category: message` and the line's source under it to
    stderr, through its filters (each shown once per line by default), at the line of the
    call `stacklevel` names (`sys:1` past the outermost); there is no stderr here, so the
    lines are printed, in the order the program made them."""
    script = tmp_path / "main.py"
    script.write_text(program)
    run = subprocess.run(
        [sys.executable, "-u", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        check=True,
        env={"PATH": os.environ.get("PATH", "")},
    )
    theirs = run.stdout.replace(str(script), "/program/main.py").splitlines()
    assert printed_lines(trace_source(program + TAIL)) == theirs


@pytest.mark.parametrize("pattern", ["[a-z]+", "(x)", "a|b", "x+"])
def test_a_warnings_filter_pattern_beyond_plain_text_is_refused(pattern: str) -> None:
    source = f"import warnings\nwarnings.filterwarnings('ignore', message={pattern!r})\n"
    with pytest.raises(EngineError, match="is not available here"):
        trace_source(source + TAIL)


def test_a_warning_made_in_a_loop_is_bounded() -> None:
    """Hostile: `always` in an endless loop prints two lines a turn: the output bound
    stops it (or the steps), never a hang; a long message stays within the string bound."""
    source = (
        "import warnings\nwarnings.simplefilter('always')\n"
        "while True:\n    warnings.warn('x' * 9000)\n"
    )
    with pytest.raises(EngineError, match="printed more than 200,000 characters"):
        trace_source(source + TAIL)
