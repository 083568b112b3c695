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
    "t = (1, 2); t[0] += 1", "t = (1,); t[0] = 2", "x = 1.0; x[0] = 2", "s = 'ab'; s[0] = 'c'",
    "d = {0: 0}; e = d; d |= [(1, 2)]; print(d, e is d)", "d = {}; d |= [1]",
    "d = {}; d |= ['ab', range(2)]; print(d)", "d = {}; d |= [(1, 2, 3)]", "d = {}; d |= None",
    "print(dict(['ab', 'cd']))", "dict([[1, 2, 3]])", "dict([1])", "{}.update([(1,)])",
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
print(logger, [child], logging.getLogger())
logger.setLevel(15)
print(logger)
"""
    assert_as_cpython(source)
    # The walk up a long dotted name is charged a step per ancestor and per character
    # cut: a loop asking it again stops at the step limit, not past every limit.
    walk = "import logging\nlg = logging.getLogger('a.' * 4999 + 'a')\n"
    walk += "for i in range(2000):\n    lg.isEnabledFor(10)\n"
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        trace_source(walk + TAIL)


def test_basic_config_sets_the_roots_level_once() -> None:
    source = (
        "import logging\nlogging.basicConfig(level=logging.ERROR)\n"
        "logging.basicConfig(level=logging.DEBUG)\n"
        "print(logging.getLogger().getEffectiveLevel(), logging.getLogger('x').level)\n"
        "print(logging.getLogger('x').getEffectiveLevel())\n"
        "logging.disable(logging.CRITICAL)\nprint(logging.getLogger('x').isEnabledFor(50))\n"
    )
    assert printed_lines(trace_source(source + TAIL)) == ["40 0", "40", "False"]


def test_a_huge_float_in_fixed_point_is_cpythons_text() -> None:
    source = """
for v in [1e300, -1e300, 1.7976931348623157e308, 1e22, 12345678901234567890.0]:
    print(f'{v:.2f}', '%.2f' % v, format(v, 'f'), f'{v:,.3f}', f'{v:%}', '%.0f' % v)
    print(f'{v:=+400.1f}', '%-+320.1F' % v, '%d' % v)
print(f'{-1.7e306:,.100%}')
"""
    assert_as_cpython(source)


def test_fixed_point_text_stays_within_the_string_bound() -> None:
    """Hostile: the longest fixed-point text of a float is about 520 characters; made
    again and again it stops at the string bound."""
    source = "s = ''\nwhile True:\n    s += f'{-1.7e306:,.100%}'\n"
    with pytest.raises(EngineError, match="strings here stay within 10,000"):
        trace_source(source + TAIL)
    with pytest.raises(EngineError, match="precision"):
        trace_source("s = '%.1000000f' % 1e300\n" + TAIL)


def test_copies_of_enum_members_collections_loggers_and_modules_are_cpythons() -> None:
    source = """
import copy, enum, math, logging, random
from collections import defaultdict, deque, Counter, OrderedDict
class C(enum.Enum):
    A = 1
    B = 2
print(copy.copy(C.A) is C.A, copy.deepcopy(C.A) is C.A, copy.deepcopy([C.A, C.B]))
d = defaultdict(list)
d[1].append(2)
e = copy.copy(d)
print(e, e[5], e[1] is d[1])
e = copy.deepcopy(d)
print(e, e[5], e[1] is d[1])
dq = deque([1, [2]])
print(copy.copy(dq), copy.deepcopy(dq), copy.copy(dq)[1] is dq[1])
c2, c3 = copy.copy(Counter('aab')), copy.deepcopy(Counter('aab'))
print(c2, c3, c2.most_common(1), c3['zz'])
print(copy.deepcopy(OrderedDict(a=1)))
dq2 = copy.copy(dq)
dq2.appendleft(0)
print(dq2, dq)
nested = copy.deepcopy({'k': defaultdict(int)})
nested['k']['q'] += 1
print(nested)
lg = logging.getLogger('w')
print(copy.copy(lg) is lg, copy.deepcopy(lg) is lg)
for module in [math, random, copy]:
    for function in [copy.copy, copy.deepcopy]:
        try:
            function(module)
        except TypeError as e:
            print(e)
try:
    copy.deepcopy([math])
except TypeError as e:
    print(e)
try:
    copy.copy({1: 2}.keys())
except TypeError as e:
    print(e)
"""
    assert_as_cpython(source)


def test_a_deep_copy_of_nested_defaultdicts_stops_at_the_depth_bound() -> None:
    source = (
        "import copy\nfrom collections import defaultdict\nd = defaultdict(int)\n"
        "for i in range(1000):\n    d = defaultdict(int, {0: d})\ncopy.deepcopy(d)\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_MAX_DEPTH"):
        trace_source(source + TAIL)


def test_recursion_past_the_call_depth_is_a_recursion_error_a_program_catches() -> None:
    # `str(e)[:32]`: CPython may add ' while calling a Python object', by where the
    # limit is met (how deep the test runner's own stack is).
    source = """
class G:
    def __getattr__(self, name):
        return self.missing
try:
    G().q
except RecursionError as e:
    print('caught', str(e)[:32], isinstance(e, RuntimeError))
def down(n):
    return down(n + 1)
try:
    down(0)
except Exception as e:
    print(type(e).__name__, str(e)[:32])
def walk(n):
    yield from walk(n + 1)
try:
    list(walk(0))
except RuntimeError as e:
    print(type(e).__name__, str(e)[:32])
done = []
def again(n):
    try:
        again(n + 1)
    finally:
        done.append(n)
try:
    again(0)
except RecursionError:
    print('finally ran', len(done) > 100)
print(down.__name__)
"""
    assert_as_cpython(source)


def test_an_uncaught_recursion_error_names_the_bound() -> None:
    with pytest.raises(EngineError) as caught_error:
        trace_source("def down(n):\n    return down(n + 1)\ndown(0)\n" + TAIL)
    message = caught_error.value.message
    assert message.startswith("RecursionError: maximum recursion depth exceeded")
    assert "BACKPROP_MAX_CALL_DEPTH" in message


def test_recursing_again_after_catching_the_recursion_error_still_ends() -> None:
    """Hostile: each level catches the error and recurses again (2**1000 calls in
    CPython); the steps or time bound stops it, and no handler catches that."""
    source = (
        "def f():\n    try:\n        f()\n    except RecursionError:\n        f()\n"
        "try:\n    f()\nexcept BaseException:\n    print('caught a bound')\n"
    )
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        trace_source(source + TAIL)


def test_a_complex_result_is_cpythons_complex_number() -> None:
    source = """
c = (-8) ** 0.5
print(c, (-2.0) ** 1.5, [c], {'k': c}, repr(c), str(c))
print(c.real, c.imag, c.conjugate(), abs(3+4j), (1+2j) * (3-1j), 1j ** 2, -c, +c)
print(c == c, c != 1, complex(1, 2), complex('1+2j'), complex(), complex(2.5))
print(complex(real=1, imag=3), 2 - 1j, 1 / (1 + 1j), f'{c:.3f}', format(1+2j, '>20'))
print(f'{1j}', f'{c!r}', (2+0j) ** 0.5, 0j ** 0, bool(0j), bool(1j), not 0j)
print(type(1j).__name__, isinstance(1j, complex), hash(1j) == hash(1j))
print((3).real, (3).imag, (2.5).real, (2.5).conjugate(), True.real, (7).conjugate())
z = 1j
z += 1
z *= z
print(z, sorted([2j]), [1j] == [1j], (1j, 2) < (1j, 3))
"""
    assert_as_cpython(source)


COMPLEX_EXPRESSIONS = [
    '1j < 2', '1j // 2', '1j % 2', '~1j', 'int(1j)', 'float(1j)', 'round(1j)',
    "complex('abc')", 'complex(None)', "complex('1', 2)", 'complex(1, None)', '1j / 0',
    'abs(1e308+1e308j)', "f'{1j:%}'", "f'{1j:=10}'", "'%f' % 1j", "'%d' % 1j",
    'math.sqrt(-1+0j)', 'max(1j, 2j)', '(1j).foo', '[1j] < [2j]', '(1e200+1e200j) ** 1000',
    'divmod(1j, 1)', 'sum([1j, 2, 3.5])', '{1j: 1}[1j]', 'sorted([1j, 2j])',
    '{1j, 2j, 1j} == {2j, 1j}', 'sum([1j], 1j)', '1j ** (10**100)', 'pow(-8, 0.5)',
    'pow(1j, 2)', '2 ** 1j', "'%s' % 1j", '1j * [1]', '[1] * 1j', "'a' + 1j",
    "hasattr(1j, 'real')", "getattr(2, 'imag')", 'min([1, 1j])', 'round(1j, 2)',
    'complex(1j, 1j)', 'complex(imag=2)', '1j == 1j + 0', '(2).conjugate()', 'True.imag',
    '(-2.0) ** 1.5', '(-8) ** (1 / 3)',
]  # fmt: skip


@pytest.mark.parametrize("expression", COMPLEX_EXPRESSIONS)
def test_a_complex_number_meets_what_cpython_answers(expression: str) -> None:
    assert_as_cpython(caught(f"print({expression})"))


def test_list_comparisons_name_the_items_cpython_compares() -> None:
    source = """
class A:
    def __init__(self, v):
        self.v = v
    def __lt__(self, other):
        return self.v < other.v
pairs = [([1, 'a'], [1, 2]), (['a'], [1]), ([1, [2, 'x']], [1, [2, 3]]), ((1, None), (1, 2)),
         ([A(1)], [A(2)]), ([1, 2], [1, 2, 'x']), ([[1], 'a'], [[1], 'b'])]
for left, right in pairs:
    for compare in [lambda: left < right, lambda: left <= right, lambda: left > right]:
        try:
            print(compare())
        except TypeError as e:
            print(e)
try:
    sorted([[1, 'a'], [1, 2]])
except TypeError as e:
    print(e)
"""
    assert_as_cpython(source)


def test_complex_arithmetic_stays_bounded() -> None:
    """Hostile: a complex number is two floats; squaring it forever overflows to inf and
    nan (as in CPython) and stops at the steps (or time) bound; its widest text is bounded."""
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        trace_source("c = 1 + 1j\nwhile True:\n    c = c * c + 1\n" + TAIL)
    with pytest.raises(EngineError, match="format width"):
        trace_source("s = f'{1j:>1000000000}'\n" + TAIL)
    source = "s = ''\nwhile True:\n    s += f'{1.7e306 + 1.7e306j:,.100f}'\n"
    with pytest.raises(EngineError, match="strings here stay within 10,000"):
        trace_source(source + TAIL)


BYTES_EXPRESSIONS = [
    "'abc'.encode()", "len('é'.encode())", "'é'.encode('utf-8')", "'é'.encode('latin-1')",
    "'é'.encode('ascii')", "'é'.encode('ascii', 'ignore')",
    "'é'.encode('ascii', errors='replace')", "'é'.encode(encoding='utf_16')",
    "b'abc'.decode()", "b'\\xff'.decode()", "b'\\xff'.decode('utf-8', 'replace')",
    "'héllo'.encode().decode('latin-1')", "b'ab' + b'cd'", "b'ab' * 3", "3 * b'ab'",
    "b'abc'[0]", "b'abc'[1:]", "b'abc'[5]", "list(b'hi')", "b'a' in b'abc'", "97 in b'abc'",
    "'a' in b'abc'", "300 in b'abc'", "b'a' == b'a'", "b'a' < b'b'", "b'a' == 'a'",
    "b'a' + 'a'", "{b'k': 1}[b'k']", 'bytes(3)', 'bytes([104, 105])',
    "bytes('hi', 'utf-8')", "bytes('hi')", 'bytes([300])', "bytes(['a'])", 'bytes(-1)',
    "b'hi'.hex()", "str(b'x')", 'f\'{b"x"}\'', "repr(b'\\x00\\n')", "type(b'').__name__",
    "isinstance(b'', bytes)", "bool(b'')", "sorted([b'b', b'a'])", "'%s' % b'a'",
    'f\'{b"a":>5}\'', "'x'.encode(1)", "'x'.encode('utf-8', 'strict', 3)",
    "b'x'.decode(None)", "sum(b'ab')", "max(b'az')", "{b'a', b'a'}", "b'a' * 2.0",
    "'x'.encode(foo=1)",
]  # fmt: skip


@pytest.mark.parametrize("expression", BYTES_EXPRESSIONS)
def test_bytes_are_cpythons(expression: str) -> None:
    assert_as_cpython(caught(f"print({expression})"))


def test_a_unicode_error_is_caught_as_cpythons_class() -> None:
    source = """
for attempt in [lambda: 'é'.encode('ascii'), lambda: b'\\xff'.decode()]:
    try:
        attempt()
    except UnicodeError as e:
        print(type(e).__name__, isinstance(e, ValueError), e)
"""
    assert_as_cpython(source)


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ("b = b'ab' * 10**8", "strings here stay within 10,000"),
        ("b = bytes(10**9)", "strings here stay within 10,000"),
        ("b = bytes(range(256)) * 100", "strings here stay within 10,000"),
        ("b = b''\nwhile True:\n    b = b + 'é'.encode() * 1000", "strings here stay within"),
        ("b = 'x'.encode('rot13')", "not available here"),
        ("b = 'x'.encode('utf-8', 'namereplace')", "not available here"),
        ("b = bytes(x for x in range(10**8))", "BACKPROP_MAX_STEPS|1,000,000"),
    ],
)
def test_bytes_stay_within_the_string_bound_and_the_codecs_listed(
    statement: str, words: str
) -> None:
    with pytest.raises(EngineError, match=words):
        trace_source("def f():\n    pass\n" + statement + "\n" + TAIL)


def test_a_set_of_objects_hashed_by_their_own_hash_is_in_cpythons_order() -> None:
    source = """
class H:
    def __init__(self, k):
        self.k = k
    def __hash__(self):
        return self.k
    def __eq__(self, other):
        return isinstance(other, H) and self.k == other.k
    def __repr__(self):
        return f'H{self.k}'
print({H(3), H(1), H(2)})
s = set()
for k in [40, 8, 3, 16, 24, 100, 7, 1000, -1, 2**70]:
    s.add(H(k))
print(s)
s.discard(H(8))
s.remove(H(40))
print(s)
for k in range(50, 70):
    s.add(H(k))
for k in range(50, 65):
    s.discard(H(k))
print(s, len(s))
print(s.pop(), s)
print(set([H(9), H(1), H(9)]), [x for x in {H(5), H(2)}], {H(4), H(2)}.copy())
print({H(5), 3, H(1), 2.5})
class V:
    def __init__(self, data):
        self.data = data
    def __hash__(self):
        return hash(self.data)
    def __repr__(self):
        return f'V({self.data})'
nodes = {V(0.5), V(3.25), V(-1.0), V(2)}
print(nodes, [v for v in nodes])
class T(V):
    def __hash__(self):
        return hash((self.data, 1))  # a 64-bit hash, used as it is (not folded again)
print({T(33), T(-15), T(13), T(45), T(42), T(31), T(18)})
calls = []
class P:
    def __init__(self, k):
        self.k = k
    def __hash__(self):
        calls.append(self.k)
        return self.k
print(len({P(2), P(1)}), calls)
eqs = []
class C:
    def __init__(self, k):
        self.k = k
    def __hash__(self):
        return hash(self.k * 0.5)  # -4 and -2 both hash to -2, as hash(-1.0) is -2
    def __eq__(self, other):
        eqs.append((self.k, other.k))
        return self.k == other.k
    def __repr__(self):
        return f'C{self.k}'
cs = {C(26), C(-4), C(-8), C(-12), C(22), C(13), C(-2), C(14)}
cs.discard(C(-4))
cs.add(C(9))
print(cs, ('C', -4) in [('C', a) for a, b in eqs])
"""
    assert_as_cpython(source)


def test_a_hash_that_differs_between_cpython_runs_keeps_insertion_order() -> None:
    """A `__hash__` of a string or of an identity is different in every CPython run (and
    in every run of the interpreter's own process): such a set keeps insertion order,
    so a trace is the same on every run."""
    source = """
class S:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        return hash(self.n)
    def __repr__(self):
        return 'S' + self.n
class I:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        return id(self)
    def __repr__(self):
        return 'I' + str(self.n)
class T:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        return hash((self.n, 'tag'))
    def __repr__(self):
        return 'T' + str(self.n)
print({S('c'), S('a'), S('b')}, {I(3), I(1), I(2)}, {T(3), T(1), T(2)})
"""
    assert printed_lines(trace_source(source + TAIL)) == ["{Sc, Sa, Sb} {I3, I1, I2} {T3, T1, T2}"]


def test_a_big_set_of_hashed_objects_stays_bounded() -> None:
    source = (
        "class H:\n    def __init__(self, k):\n        self.k = k\n"
        "    def __hash__(self):\n        return self.k\n"
        "s = {H(i) for i in range(10**7)}\n"
    )
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        trace_source(source + TAIL)


def test_a_hash_or_eq_recursing_inside_a_set_is_a_recursion_error_a_program_catches() -> None:
    source = """
class H:
    def __hash__(self):
        return hash(self)
try:
    {H()}
except RecursionError as e:  # CPython may add ' while calling a Python object'
    print('hash', str(e).startswith('maximum recursion depth exceeded'))
class Q:
    def __hash__(self):
        return 1
    def __eq__(self, other):
        return {self: 1} == {other: 1} and False
try:
    print({Q(), Q()})
except RecursionError as e:
    print('eq', type(e).__name__)
"""
    assert_as_cpython(source)


def test_hashing_again_after_catching_the_recursion_error_still_ends() -> None:
    source = (
        "class H:\n    def __hash__(self):\n        try:\n            return hash(self)\n"
        "        except RecursionError:\n            return hash(self)\n"
        "try:\n    {H()}\nexcept BaseException:\n    print('caught a bound')\n"
    )
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        trace_source(source + TAIL)


def test_a_property_is_found_before_the_instances_own_attribute_of_its_name() -> None:
    """A property is a data descriptor: `self.__dict__['x'] = 5` does not hide it, while
    a plain class attribute, a method or a `cached_property` is hidden."""
    source = """
import functools
class C:
    def __init__(self):
        self.__dict__['x'] = 5
        self.y = 1
    @property
    def x(self):
        return 'prop'
    @x.setter
    def x(self, v):
        self.__dict__['z'] = v
o = C()
print(o.x, vars(o))
vars(o)['x'] = 7
print(o.x, o.y, getattr(o, 'x'), vars(o))
o.x = 3
print(o.x, vars(o))
class D(C):
    x = 9
print(D().x)
class E:
    @functools.cached_property
    def c(self):
        return 42
    @property
    def p(self):
        return 1
e = E()
print(e.c, e.p)
vars(e)['c'] = 3
print(e.c)
class F:
    def g(self):
        return 'g'
    @property
    def h(self):
        return lambda: 'h-prop'
f = F()
vars(f)['g'] = lambda: 'own-g'
vars(f)['h'] = lambda: 'own-h'
print(f.g(), f.h())
class G:
    pass
G.x = property(lambda self: 'late')
g = G()
vars(g)['x'] = 1
print(g.x)
"""
    assert_as_cpython(source)


POW_WITH_A_MODULUS = [
    "pow(1+1j, 5, 3)", "pow(2, 3, 1j)", "pow(1j, 2.0, 3)", "pow(True, False, 1j)",
    "pow(1.0, 2, 3)", "pow(2, 3, 1.5)", "pow(1.5, 1j, 2)", "pow(2, 'a', 1.5)",
    "pow('a', 2, 3)", "pow(None, 2, 3)", "pow(1j, 'a', 3)", "pow(2, 'a', 1j)",
    "print(pow(2, 3, None), pow(1j, 2, None), pow(True, 2, 3), pow(2, -1, 5))",
    "pow(2, -1, 4)", "pow(2, 2, 0)",
]  # fmt: skip


@pytest.mark.parametrize("statement", POW_WITH_A_MODULUS)
def test_pow_with_a_modulus_says_what_cpythons_says(statement: str) -> None:
    assert_as_cpython(caught(statement))


def test_bytes_percent_formatting_is_cpythons() -> None:
    source = """
print(b'%d' % 5, b'%5.2f%%' % 2.5, b'%x|%X|%o|%e|%g|%c|%c' % (255, 255, 8, 1.5, 0.1, 65, b'z'))
print(b'%s and %b' % (b'ab', b'cd'), b'%r %a' % ('x\\u00e9', 1.5))
print(b'%(k)d-%(j)s' % {b'k': 1, b'j': b'v'})
print(b'%-6d|%+d|% d|%06.1f|%#x|%.3s' % (3, 4, 5, 2.25, 255, b'abcdef'))
print(b'no conversions' % (), b'%d' % True, b'%i' % 3.9, b'%r' % None)
for t, v in [(b'%s', 'x'), (b'%s', None), (b'%d', 'x'), (b'%c', 300), (b'%x', 2.5), (b'%d %d', 1),
             (b'%d', (1, 2)), (b'%z', 1), (b'%(a)s', 1), (b'%d', {}), (b'%s', 3), (b'%s', [1]),
             (b'%s', {1: 2}), (b'%r|%a', ([1, 'é', b'x', None, 2.5], {1: 'a'}))]:
    try:
        print(t % v)
    except Exception as e:
        print(type(e).__name__, e)
class A:
    def __rmod__(self, other):
        return 'rmod'
    def __repr__(self):
        return 'A!'
print('%s' % A(), '%r and %s' % (A(), [1]))  # a string's own % first: no __rmod__
"""
    assert_as_cpython(source)


def test_bytes_of_a_number_and_reversed_bytes_are_cpythons() -> None:
    source = """
import math
class A:
    pass
class B:
    def __iter__(self):
        return iter([65, 66])
def f():
    pass
for t in [lambda: bytes(A()), lambda: bytes(B()), lambda: bytes(f), lambda: bytes(len),
          lambda: bytes(A), lambda: bytes(math), lambda: bytes(int)]:
    try:
        print(t())
    except Exception as e:
        print(type(e).__name__, e)
tries = [lambda: bytes(2.5), lambda: list(reversed(b'ab')), lambda: bytes(None), lambda: bytes(1j),
         lambda: bytes('ab'), lambda: bytes([1, 2]), lambda: bytes(3), lambda: bytes(-1),
         lambda: bytes([300]), lambda: bytes(['a']), lambda: bytes(True), lambda: bytes(range(3)),
         lambda: bytes(2.5, 'x'), lambda: [b for b in reversed(b'xyz')],
         lambda: list(reversed(b''))]
for t in tries:
    try:
        print(t())
    except Exception as e:
        print(type(e).__name__, e)
s = 'ab' * 1000
print(len(s.encode('utf-16')), len(s.encode('utf-32')), len(str(bytes(2000))))
print(str(b'\\x00\\x01'), repr(b"it's"), len(bytes(s, 'utf-32')), len(('\\u00e9' * 3000).encode()))
"""
    assert_as_cpython(source)


def test_a_logger_has_cpythons_parent() -> None:
    """The nearest dotted ancestor that is a logger, the root at the top; a logger made
    later between the two becomes the parent, as CPython's `_fixupChildren` does."""
    source = """
import logging
ab = logging.getLogger('a.b')
print(ab.parent, ab.parent.parent, ab.name, ab.level)
abcd = logging.getLogger('a.b.c.d')
print(abcd.parent)
a = logging.getLogger('a')
print(ab.parent, abcd.parent, a.parent, a.parent.parent)
abc = logging.getLogger('a.b.c')
print(abcd.parent, abc.parent, logging.getLogger().parent, logging.getLogger('root').parent)
print(logging.getLogger('a.bb').parent, logging.getLogger('x..y').parent)
"""
    assert_as_cpython(source)
    many = "import logging\nfor i in range(10**6):\n    logging.getLogger('n' + str(i))\n"
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        trace_source(many + TAIL)


def test_a_numbers_own_dunders_are_called_anywhere_as_in_cpython() -> None:
    source = """
class A:
    def __floor__(self):
        return 'floor'
class B:
    pass
class V:
    def __init__(self, d):
        self.data = d
x = V(2.5)
print((2).__round__(), (3.5).__floor__(), x.data.__add__(1), (7).__mod__(3), (2.0).__radd__(1))
tries = [lambda: (3.5).__ceil__(), lambda: (-3.5).__trunc__(), lambda: (7).__divmod__(2),
         lambda: (7.5).__rdivmod__(2), lambda: (6).__and__(3), lambda: (6).__rxor__(3),
         lambda: (6).__lshift__(2), lambda: (5).__invert__(), lambda: (5).__index__(),
         lambda: True.__and__(1), lambda: (2.5).__and__(1), lambda: (1).__rshift__(1.5),
         lambda: A().__floor__(), lambda: B().__floor__(), lambda: 'a'.__round__(),
         lambda: [1].__index__, lambda: (2.5).__round__(1), lambda: (25).__round__(-1),
         lambda: (1.0).__index__(), lambda: float('inf').__floor__(), lambda: (2).__round__(1, 2),
         lambda: (2).__pow__(3, 5), lambda: (2).__rpow__(3), lambda: int.__round__(3),
         lambda: float.__floor__(2.5), lambda: (2.5).__round__(None), lambda: (2).__round__(None),
         lambda: (2.5).__round__(ndigits=1), lambda: True.__round__(ndigits=1)]
for t in tries:
    try:
        print(t())
    except Exception as e:
        print(type(e).__name__, e)
"""
    assert_as_cpython(source)


def test_a_class_dict_is_a_read_only_view_of_its_own_attributes() -> None:
    """`type(x).__dict__` of a program's class, in CPython's order (its printing names
    function addresses, so only its keys, lookups and length are compared)."""
    source = """
class A:
    def __init__(self):
        self.v = 1
    def f(self):
        return 'f'
    @property
    def p(self):
        return 2
    n = 3
class B(A):
    \"\"\"B's doc.\"\"\"
    def g(self):
        return 'g'
class E(Exception):
    pass
x = A()
d = type(x).__dict__
print(list(d), len(d), 'f' in d, 'v' in d, d['n'], d['__module__'], d['__doc__'])
print(list(B.__dict__.keys()), B.__dict__['__doc__'], 'f' in B.__dict__, list(E.__dict__))
print(d['f'](x), d.get('n'), d.get('zz', 'no'), [k for k, v in B.__dict__.items()])
print(type(d).__name__)
print(sorted(k for k in d if not k.startswith('__')), bool(d), list(d.values())[-1])
print(dict(d) == {**d}, (d | {'q': 1})['q'], d['f'] is A.f, type(B()).__dict__['g'](B()))
for bad in [lambda: d['zz'], lambda: d.update({}), lambda: hash(d)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
try:
    d['q'] = 1
except TypeError as e:
    print(e)
A.late = 5
print('late' in type(x).__dict__, x.__dict__, vars(x) is x.__dict__)
class C:
    @staticmethod
    def s():
        return 's'
    @classmethod
    def c(cls):
        return cls.__name__
print(C.__dict__['s'](), [type(v).__name__ for v in A.__dict__.values()][1:4])
print(type(C.__dict__['c']).__name__)
print(list(vars(A)) == list(A.__dict__), vars(A) == A.__dict__, vars(A)['f'] is A.f)
"""
    assert_as_cpython(source)


def test_a_class_dict_of_a_dataclass_and_of_two_views() -> None:
    """A dataclass's view holds its built-in methods, the same each time (two views
    compare equal) and callable on its objects; two views join with `|`; a view reverses."""
    source = """
import dataclasses
@dataclasses.dataclass
class D:
    a: int = 1
print(D.__dict__ == D.__dict__, vars(D) == D.__dict__, D.__dict__['__repr__'](D(2)))
print((D.__dict__ | D.__dict__) == dict(D.__dict__), list(reversed(D.__dict__))[-1])
"""
    assert_as_cpython(source)


def test_a_function_holding_a_generator_function_is_no_generator_itself() -> None:
    """A `yield` belongs to the function it is written in: `f` defining a generator `g`
    (or a class with one) is a plain function (it was taken for a generator and refused)."""
    source = """
def f():
    def g():
        yield 5
    class C:
        def h(self):
            yield 6
    return list(g()) + list(C().h()) + [(lambda: 7)()]
class T:
    def m(self):
        def walk(n):
            for i in range(n):
                yield i
        return sum(walk(4))
print(f(), T().m())
"""
    assert_as_cpython(source)


def test_string_percent_formatting_takes_a_mapping_as_cpython() -> None:
    """`'%(a)s' % {'a': 1}`: a key names a value of anything with `__getitem__` (a
    defaultdict makes it; a list says its index words); a key without a mapping, a
    missing key, a plain conversion after a keyed one: CPython's errors."""
    source = """
class M:
    def __getitem__(self, k):
        return k * 2
from collections import defaultdict
dd = defaultdict(int)
cases = [
    lambda: '%(a)s and %(b)d' % {'a': 1, 'b': 2},
    lambda: '%(a)s' % {},
    lambda: '%(a)s' % 5,
    lambda: '%(a)s %s' % {'a':1},
    lambda: '%s %(a)s' % {'a':1},
    lambda: '%s' % {'a':1},
    lambda: '%(a)s' % [1],
    lambda: '%(a)s %%' % {'a':1},
    lambda: 'x' % {'a':1},
    lambda: '%(a)5.2f|%(a)-8r' % {'a': 1.5},
    lambda: '%d' % {'a':1},
    lambda: '%s %s' % {'a':1},
    lambda: '%(a)s' % ({'a':1},),
    lambda: '%(a)s' % (),
    lambda: '%(a)s' % (1,2),
    lambda: 'x' % (),
    lambda: 'x' % [],
    lambda: 'x' % 'ab',
    lambda: '%(a)c' % {'a': 65},
    lambda: '%()s' % {'': 3},
    lambda: '%(x)s|%(x)r' % M(),
    lambda: '%(k)s' % dd,
    lambda: '%(a)d' % {'a': 'z'},
    lambda: '%(1)s' % {1: 2},
    lambda: 'x' % M(),
    lambda: '%(a)s' % {'a': [1, 'b']},
]
for f in cases:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
print(dict(dd))
"""
    assert_as_cpython(source)


def test_round_with_none_digits_keywords_and_wrong_digits_is_cpythons() -> None:
    """`round(x, None)` is `round(x)` (it was a refusal no `try` caught); `ndigits=` and
    `number=` are CPython's keywords; digits of another type, a number of another type,
    infinities and NaN, huge digits either way: CPython's results and words."""
    source = """
class A:
    pass
cases = [
    lambda: round(2.5, None),
    lambda: round(3.5, None),
    lambda: round(7, None),
    lambda: round(True, None),
    lambda: round(2.675, 2),
    lambda: round(2.5, ndigits=None),
    lambda: round(2.567, ndigits=2),
    lambda: round(number=2.5),
    lambda: round(1234, -2),
    lambda: round(1250, -2),
    lambda: round(5, 3),
    lambda: round(2.5, 1.5),
    lambda: round(2.5, 'a'),
    lambda: round(2, 2.0),
    lambda: round(2.5, [1]),
    lambda: round(1.5, 10**30),
    lambda: round(1.5, -10**30),
    lambda: round(1e300, -500),
    lambda: round(1.5, 500),
    lambda: round(5, 10**30),
    lambda: round(5, -5000),
    lambda: round(True, -1),
    lambda: round(False, 2),
    lambda: round(float('inf')),
    lambda: round(float('nan')),
    lambda: round(float('inf'), 2),
    lambda: round(float('nan'), None),
    lambda: round(float('inf'), None),
    lambda: round(1e300),
    lambda: round('a'),
    lambda: round(None),
    lambda: round('a', 2),
    lambda: round(),
    lambda: round(1, 2, 3),
    lambda: round(2.5, x=1),
    lambda: round(2.5, ndigits=1, number=2),
    lambda: round(1j),
    lambda: round(1j, None),
    lambda: round(A()),
    lambda: round([1], None),
    lambda: round(2.5, A()),
    lambda: round(10**1000, -999),
    lambda: round(-0.5),
    lambda: round(-0.0, 1),
    lambda: round(0.5, 0),
    lambda: round(15, -1),
    lambda: round(ndigits=2),
    lambda: round(2.5, number=1),
    lambda: round(number=2.567, ndigits=1),
    lambda: round(2.5, ndigits=True),
]
for f in cases:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
"""
    assert_as_cpython(source)


def test_an_object_made_by_object_has_no_dict_and_takes_no_attributes() -> None:
    """`object()` has no `__dict__` in CPython (it showed `{}`): `.__dict__` is its
    AttributeError, `vars()` its TypeError, and setting an attribute its AttributeError;
    a class of the program's based on `object` keeps its own."""
    source = """
o = object()
class A:
    pass
a = A()
a.x = 1
def setx():
    o.x = 1
cases = [lambda: o.__dict__, lambda: vars(o), lambda: hasattr(o, 'x'), lambda: a.__dict__,
         lambda: vars(a), setx]
for f in cases:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
def setattr_o():
    setattr(o, 'y', 2)
for f in [setattr_o, lambda: object().__dict__]:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
class B(object):
    def __init__(self):
        super().__init__()
        self.z = 3
print(vars(B()), B().__dict__)
"""
    assert_as_cpython(source)


def test_an_object_without_its_own_eq_hash_repr_has_objects_methods() -> None:
    """`a.__eq__` of a class that does not define it is object's (it was an
    AttributeError): `a.__eq__(a)` True, else NotImplemented; `__ne__` inverts the class's
    `__eq__`; `__hash__` an int, stable (never printed), None beside an own `__eq__`;
    `__repr__`/`__str__` run (their text has an address: one object's, never two made in
    turn, whose addresses are equal only where the second reuses the first's memory, in
    CPython and here as each allocates); wrong arguments CPython's words."""
    source = """
import dataclasses
class A:
    pass
class E:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        return isinstance(other, E) and self.v == other.v
class R:
    def __repr__(self):
        return 'R!'
class S:
    def __str__(self):
        return 'S!'
class G:
    def __getattr__(self, name):
        return 'got ' + name
class H(E):
    __hash__ = object.__hash__
@dataclasses.dataclass
class D:
    a: int = 1
@dataclasses.dataclass(frozen=True)
class F:
    a: int = 1
a = A()
b = A()
o = object()
cases = [
    lambda: a.__eq__(a), lambda: a.__eq__(b), lambda: a.__ne__(a), lambda: a.__ne__(b),
    lambda: a.__eq__(1), lambda: callable(a.__eq__), lambda: [x.__eq__(a) for x in [a, b]],
    lambda: type(a.__hash__()) is int, lambda: a.__hash__() == a.__hash__() == hash(a),
    lambda: a.__repr__() == repr(a), lambda: a.__str__() == str(a),
    lambda: E(1).__ne__(E(1)), lambda: E(1).__ne__(E(2)), lambda: E(1).__ne__(3),
    lambda: E(1).__hash__, lambda: type(H(1).__hash__()) is int,
    lambda: R().__str__(), lambda: R().__repr__(), lambda: S().__str__(),
    lambda: (lambda s: s.__repr__() == repr(s))(S()), lambda: G().__eq__(1), lambda: G().other,
    lambda: o.__eq__(o), lambda: o.__ne__(1), lambda: o.__str__() == str(o),
    lambda: ValueError('x').__eq__(1), lambda: ValueError('x').__str__(),
    lambda: D().__hash__, lambda: F().__hash__() == hash(F()), lambda: D().__ne__(D(2)),
    lambda: a.__eq__(), lambda: a.__eq__(x=1), lambda: a.__hash__(1), lambda: a.__repr__(2),
    lambda: a.__str__(y=2), lambda: a.__ne__(1, 2),
]
for f in cases:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
"""
    assert_as_cpython(source)


TRUTH_AND_LENGTH = """
class B:
    def __init__(self, r):
        self.r = r
    def __bool__(self):
        return self.r
class L:
    def __init__(self, r):
        self.r = r
    def __len__(self):
        return self.r
"""


@pytest.mark.parametrize(
    "statement",
    [
        "print(bool(B(True)), not B(False))", "bool(B(1))", "bool(B(2.5))", "not B(None)",
        "if B('x'): pass", "while B(0): pass", "print(len(L(True)), bool(L(0)), bool(L(3)))",
        "len(L(-1))", "bool(L(-1))", "len(L(2.0))", "if L(2.0): pass", "len(L(2 ** 70))",
        "bool(L(2 ** 70))", "len(L(None))", "print([x for x in [1] if B(True)])",
    ],
)  # fmt: skip
def test_a_bool_or_len_dunder_returning_the_wrong_kind_is_cpythons_error(statement: str) -> None:
    # `__bool__` returning 3 was taken as true; `__len__` returning 2.0 said "has no len()".
    assert_as_cpython(caught(statement, TRUTH_AND_LENGTH))


# Classes as real programs write them: `__init_subclass__` (a registry of ops), `super()` in
# a class method, `iter(f, sentinel)`, `del obj.attr` (a property's deleter, `__delattr__`,
# slots, a frozen dataclass), `delattr`.
CLASS_PROGRAMS = [
    """
class Node:
    count = 0
    def __init__(self, v, kids=()):
        self.v, self.kids = v, list(kids)
        Node.count += 1
    def __iter__(self):
        yield self
        for k in self.kids:
            yield from k
    def __len__(self): return 1 + sum(len(k) for k in self.kids)
    def __contains__(self, x): return any(n.v == x for n in self)
    def __getitem__(self, i): return list(self)[i]
    def __call__(self, s): return self.v * s
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.tag = cls.__name__.lower()
class Leaf(Node): pass
t = Node(1, [Node(2, [Leaf(3)]), Leaf(4)])
print([n.v for n in t], len(t), 3 in t, 9 in t, t[2].v, t(5), Node.count)
print(Leaf.tag)
it = iter([1, 2, 3, 0, 4]); print(list(iter(lambda: next(it), 0)))
print(list(map(lambda a, b: a * b, [1, 2, 3], [4, 5])), list(zip("ab", [1, 2], strict=True)))
print(list(enumerate("xy", start=3)))
print(sorted([(1, "b"), (0, "z"), (1, "a")], key=lambda p: p[0]), sum([[1], [2]], []))
def topo(v, seen=None, out=None):
    seen = set() if seen is None else seen
    out = [] if out is None else out
    if id(v) not in seen:
        seen.add(id(v))
        for k in v.kids:
            topo(k, seen, out)
        out.append(v.v)
    return out
print(topo(t))
def walk(v, depth=0):
    yield depth, v.v
    for k in v.kids:
        yield from walk(k, depth + 1)
print(dict(walk(t)), max(walk(t))[1], next(walk(t)))
class P:
    def __init__(self): self._x = 0
    @property
    def x(self): return self._x
    @x.setter
    def x(self, val):
        if val < 0: raise ValueError("neg")
        self._x = val
    @x.deleter
    def x(self): del self._x
p = P(); p.x = 5; print(p.x)
try:
    p.x = -1
except ValueError as e: print(e)
del p.x; print(hasattr(p, "_x"))
print(vars(P()), getattr(p, "nope", 7), callable(t), callable(3))
""",
    """
from dataclasses import dataclass
class P:
    def __init__(self): self.a = 1
    @property
    def x(self): return 1
class Q:
    __slots__ = ("a", "b")
    def __init__(self): self.a = 1
class D:
    def __delattr__(self, name): print("deleting", name)
@dataclass(frozen=True)
class F:
    a: int = 1
p = P()
try:
    del p.a
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    del p.a
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    del p.x
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    del p.nope
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    q = Q(); del q.a; print(hasattr(q, 'a'))
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    q = Q(); del q.b
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    del D().z
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    del F().a
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    delattr(p, 'x')
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    o = P(); delattr(o, 'a'); print(vars(o))
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
try:
    del print.x
    print('ok')
except Exception as e:
    print(type(e).__name__, e)
""",
    """
registry = []
class Op:
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        registry.append(cls.__name__)
class Add(Op): pass
class Mul(Op): pass
class Mul2(Mul): pass
print(registry)
class B:
    @classmethod
    def __init_subclass__(cls):
        print("sub", cls.__name__)
class C(B): pass
class K:
    def __init_subclass__(cls):
        super().__init_subclass__(x=1)
try:
    class L(K): pass
except TypeError as e:
    print(e)
""",
]


@pytest.mark.parametrize("source", CLASS_PROGRAMS)
def test_classes_and_attributes_as_cpythons(source: str) -> None:
    assert_as_cpython(source)


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ("class A:\n    pass\ndel A.x\n", "a class's attribute"),
        ("class N:\n    pass\nn = N()\ndel n.__dict__\n", "__dict__"),
        ("class N:\n    pass\ndelattr(N(), '__class__')\n", "dunder"),
        ("v = Value(1.0)\nw = v * 2\ndelattr(w, 'grad')\n", "not available"),
    ],
)
def test_deleting_what_is_not_the_programs_own_is_refused(statement: str, words: str) -> None:
    with pytest.raises(EngineError, match=words):
        trace_source(statement + TAIL)
