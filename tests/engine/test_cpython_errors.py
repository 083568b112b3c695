"""The errors a program catches say what CPython says (SPEC §15): each snippet runs
under CPython itself and in the interpreter, catching what it raises and printing its
class and words, and both outputs must be the same lines."""

from __future__ import annotations

from typing import Any

import pytest

from backprop_animator.engine import EngineError, trace_source
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


PLAIN_VALUE_WRITES = [
    "x = 1.5; x.grad = 0", "x = 2; x.grad = 0.0", "x = True; x.data = 1", "x = 'a'; x.grad = 1",
    "x = [1]; x.grad = 1", "x = (1,); x.label = 'a'", "x = {}; x.grad = 1", "x = None; x.grad = 1",
    "x = {1}; x.grad = 1", "x = frozenset(); x.grad = 1", "x = range(2); x.grad = 1",
    "x = 1j; x.grad = 1", "x = b'a'; x.grad = 1", "x = slice(1); x.grad = 1",
    "x = 1.5; x.real = 2", "x = 1; x.imag = 2", "x = [1]; x.append = 1", "x = 'a'; x.upper = 1",
    "x = {}; x.keys = 1", "x = range(3); x.start = 1", "x = 1j; x.real = 0",
    "setattr(1.0, 'grad', 0)", "setattr([], 'append', 0)",
    "x = 1.5; del x.grad", "x = [1]; del x.grad", "x = [1]; del x.append", "x = 1.5; del x.real",
    "delattr('a', 'upper')", "delattr(None, 'x')", "x = {1}; del x.add",
    "xs = [1.0, 2.0]\n    for x in xs:\n        x.grad = 0.0",
]  # fmt: skip


@pytest.mark.parametrize("statement", PLAIN_VALUE_WRITES)
def test_setting_or_deleting_an_attribute_of_a_plain_value_is_cpythons_attribute_error(
    statement: str,
) -> None:
    # `x.grad = 0` of a float was the engine's own words, "cannot set attributes on a
    # float", which no `except AttributeError` took.
    assert_as_cpython(caught(statement))


def test_uncaught_setting_a_gradient_on_a_number_is_cpythons_error_with_a_hint() -> None:
    with pytest.raises(EngineError) as failed:
        trace_source("x = 1.0\nfor _ in range(2):\n    x.grad = 0.0" + TAIL)
    words = str(failed.value)
    assert words.startswith("line 3, column 5: AttributeError: 'float' object has no attribute")
    assert "'grad' here: this is a plain number" in words and "Value(2.0)" in words
    with pytest.raises(EngineError, match=r"^line 2, column 1: AttributeError: 'list' object "):
        trace_source("xs = []\nxs.append = 1" + TAIL)


BUILTIN_CLASS_WRITES = [
    "object.__repr__ = lambda self: 'x'", "int.foo = 1", "Exception.x = 1",
    "list.append = print", "ValueError.__str__ = lambda self: 'x'", "float.x = 1",
    "str.x = 1", "dict.x = 1", "tuple.x = 1", "set.x = 1", "bool.x = 1", "type.x = 1",
    "setattr(int, 'foo', 1)", "setattr(Exception, 'foo', 1)", "type(None).x = 1",
    "type(A).x = 1", "type(ValueError()).x = 1", "property.x = 1", "range.x = 1",
    "zip.x = 1", "len.x = 1", "print.x = 1",
    "from collections import defaultdict; defaultdict.x = 1",
    "from collections import deque; deque.x = 1",
    "e = ValueError('a'); e.x = 1; print(e.x)",
    "class E(ValueError): pass\n    E.x = 1; print(E.x, E().x)",
    "A.x = 1; A.__repr__ = lambda self: 'an A'; print(A.x, A())",
]  # fmt: skip


@pytest.mark.parametrize("statement", BUILTIN_CLASS_WRITES)
def test_setting_an_attribute_of_a_built_in_class_is_cpythons_type_error(statement: str) -> None:
    assert_as_cpython(caught(statement))


def test_a_refused_write_to_object_leaves_every_class_as_it_was() -> None:
    """Hostile: `object.__init__`, `__repr__`, `__eq__` replaced would change every class
    of the program (and the interpreter's own `object`); each is refused, and caught."""
    source = """
class P:
    def __init__(self, x):
        self.x = x
    def spoil(self):
        for write in [self.init, self.repr, self.eq, self.error_init]:
            try:
                write()
            except TypeError as e:
                print(e)
    def init(self):
        object.__init__ = None
    def repr(self):
        object.__repr__ = lambda me: 'spoilt'
    def eq(self):
        object.__eq__ = lambda me, other: True
    def error_init(self):
        Exception.__init__ = None
p = P(3)
p.spoil()
print(p.x, p == P(3), p == p, ValueError('kept').args, repr(P).startswith('<class'))
"""
    assert_as_cpython(source)


NATIVE_PRELUDE = """
from dataclasses import dataclass
from collections import namedtuple
from enum import Enum
@dataclass(unsafe_hash=True, order=True)
class P:
    x: int
@dataclass
class Q:
    x: int
    def probe(self, which):
        if which == 0: return Exception.__init__()
        if which == 1: return ValueError.__str__()
        if which == 2: return KeyError.__str__()
        if which == 3: return ValueError.__repr__()
        if which == 4: return ValueError.__init__(1)
        if which == 5: return ValueError.__str__(1)
        if which == 6: return Q.__eq__()
        if which == 7: return Q.__repr__()
        if which == 8: return N.__getitem__()
        if which == 9: return Exception.__init__(self)
        if which == 10: return Q.__init__()
        if which == 11: return N.__len__()
        if which == 12: return P.__hash__()
        if which == 13: return ModuleNotFoundError.__init__()
        if which == 14: return Exception.__init__(ValueError(), 1)
class E(ValueError):
    def probe(self):
        return E.__init__()
N = namedtuple("N", "a b")
class C(Enum):
    A = 1
"""

NATIVE_CALLS = [
    "P(1).__eq__()", "P(1).__eq__(1, 2)", "print(P(1).__eq__(other=P(1)))",
    "P(1).__eq__(1, other=2)", "P(1).__eq__(x=1)", "P(1).__lt__()", "P(1).__repr__(1)",
    "N(1, 2).__getitem__()", "N(1, 2).__getitem__(0, 1)", "N(1, 2).__getitem__(x=1)",
    "N(1, 2).__eq__()", "N(1, 2).__len__(1)", "N(1, 2).__iter__(1)", "N(1, 2).__repr__(1)",
    "N(1, 2)._asdict(1)", "N(1, 2)._replace(1)", "N._replace()", "N(1)", "N()", "N(1, 2, 3)",
    "N(1, 2, c=3)",
    "print(N(1, 2)._replace(a=5), N(1, 2).__getitem__(1), N(1, 2).__eq__((1, 2)))",
    "C.A.__str__(1)", "C.A.__repr__(1)", "print(C.A.__str__(), C.A.__repr__())",
    "ValueError(x=1)", "E(x=1)", "ValueError('a').__str__(1)", "ValueError('a').__repr__(x=1)",
    "print(ValueError('a').__str__(), KeyError('k').__str__(), ValueError('a', 2).__repr__())",
    "E().probe()", "q = Q(1); q.probe(9); print(q.args)",
    *(f"Q(1).probe({which})" for which in (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14)),
]  # fmt: skip


@pytest.mark.parametrize("statement", NATIVE_CALLS)
def test_a_native_method_given_the_wrong_arguments_is_cpythons_type_error(statement: str) -> None:
    assert_as_cpython(caught(statement, NATIVE_PRELUDE))


@pytest.mark.parametrize("statement", ["P(1).__eq__()", "N(1, 2).__getitem__()", "N._replace()"])
def test_uncaught_a_native_methods_refusal_is_cpythons_sentence_not_a_failure(
    statement: str,
) -> None:
    """Hostile: the arguments a native method cannot take never reach Python's own
    unpacking or indexing ("this operation failed: not enough values to unpack")."""
    with pytest.raises(EngineError) as raised:
        trace_source(f"{NATIVE_PRELUDE}\n{statement}\n{TAIL}")
    assert "this operation failed" not in raised.value.message
    assert "argument" in raised.value.message


BUILT_IN_CALLS = [
    "[].append()", "[].append(1, 2)", "[].append(x=1)", "[].extend()", "[].pop(1, 2)",
    "[].pop(index=1)", "[].insert(1)", "[].insert(x=1)", "[1].index()", "[1].index(1, 2, 3, 4)",
    "[1].count()", "[1].remove()", "[].sort(1)", "[].sort(foo=1)", "[].reverse(1)",
    "[].copy(1)", "[].clear(x=1)",
    "{}.get()", "{}.get(1, 2, 3)", "{}.get(key=1)", "{}.keys(1)", "{}.values(1)",
    "{}.items(x=1)", "{}.pop()", "{}.setdefault()", "{}.update(1, 2)", "{}.copy(1)",
    "{}.clear(1)",
    "s = set(); s.add()", "s = set(); s.add(1, 2)", "s = set(); s.discard()",
    "s = set(); s.remove()", "s = {1}; s.pop(1)", "s = set(); s.copy(1)",
    "s = set(); s.clear(1)", "s = set(); s.union([1], x=1)",
    "'a'.upper(1)", "'a'.lower(x=1)", "'a'.split(1, 2, 3)", "'a'.strip(1, 2)", "'a'.join()",
    "'a'.startswith()", "'a'.partition()", "'a'.replace('a')", "'a'.replace('a', 'b', 1, 2)",
    "'a'.find()", "'a'.count()", "'a'.title(1)", "'a'.removeprefix()",
    "len()", "len(1, 2)", "len(x=1)", "abs()", "repr()", "any()", "all(1, 2)", "callable()",
    "isinstance(1)", "min()", "max()", "sum()", "range()", "sorted()", "enumerate()",
    "round()", "pow(1)", "divmod(1)", "getattr(1)", "setattr(1, 2)", "hasattr(1)", "id()",
    "hash()", "ord()", "chr()", "next()", "reversed()", "reversed([1], 2)", "type()",
    "type(1, 2)", "iter()",
    "print(sum([1, 2]), [1, 2].index(2), {1: 2}.get(1), 'a,b'.split(','), 'ab'.strip('a'))",
    "print(min([3, 1]), max(2, 5), sorted([2, 1], reverse=True), {}.get(1, 'd'))",
]  # fmt: skip


@pytest.mark.parametrize("statement", BUILT_IN_CALLS)
def test_a_built_in_given_the_wrong_arguments_is_cpythons_type_error(statement: str) -> None:
    assert_as_cpython(caught(statement))


def test_object_init_read_off_a_class_is_objects() -> None:
    source = """
class A:
    def __init__(self):
        object.__init__(self)
        self.x = 1
    def bad(self, k):
        if k == 0: object.__init__()
        if k == 1: object.__init__(self, 1)
        if k == 2: object.__init__(1)
class B(A):
    pass
class C:
    def __init__(self):
        B.__init__(self)
        D.__init__(self)
class D:
    pass
a = A()
print(a.x, C().x)
for k in range(3):
    try:
        a.bad(k)
        print("ok")
    except TypeError as e:
        print("TypeError:", e)
"""
    assert_as_cpython(source)


def test_cpythons_words_are_asked_without_the_programs_objects() -> None:
    """Hostile: CPython's words for a refused call come from CPython's own function run
    on placeholders; the program's objects (whose `__repr__`, `__eq__` and `__len__`
    would print) never reach it, and a keyword named like anything stays a name."""
    source = """
class Loud:
    def __repr__(self):
        print('repr called')
        return 'Loud'
    def __eq__(self, other):
        print('eq called')
        return True
    def __len__(self):
        print('len called')
        return 1
    __hash__ = None
loud = Loud()
for call in [
    lambda: [].append(loud, loud),
    lambda: {}.get(loud, loud, loud),
    lambda: len(loud, loud),
    lambda: 'a'.upper(loud),
    lambda: [loud].index(),
    lambda: {}.get(**{'not a name': loud}),
    lambda: [].sort(**{'__class__': loud}),
]:
    try:
        call()
    except TypeError as e:
        print(e)
"""
    assert_as_cpython(source)


MODULE_CALLS = [
    "itertools.permutations()", "itertools.permutations(1, 2, 3)",
    "itertools.combinations(qq=1)", "itertools.chain(qq=1)", "itertools.product(qq=1)",
    "itertools.count(1, 2, 3)", "itertools.repeat()", "itertools.islice()",
    "itertools.islice([1], 1, 2, 3, 4)", "itertools.accumulate()",
    "itertools.zip_longest(qq=1)", "itertools.pairwise()", "itertools.starmap(len)",
    "functools.cache()", "functools.cache(len, len)", "functools.lru_cache(maxsize=None)()",
    "functools.wraps(len)()", "operator.itemgetter(0)()", "operator.itemgetter(0)(1, 2)",
    "operator.attrgetter('x')(qq=1)", "operator.neg()", "operator.add(1)",
    "operator.lt(1, 2, 3)",
    "print(operator.itemgetter(1)([1, 2]), operator.itemgetter(0, 1)([1, 2]), operator.neg(2))",
    "print(list(itertools.permutations([1, 2])), list(itertools.islice([1, 2, 3], 2)))",
]  # fmt: skip


@pytest.mark.parametrize("statement", MODULE_CALLS)
def test_a_module_functions_call_given_the_wrong_arguments_is_cpythons(
    statement: str,
) -> None:
    """Before, Python's own binding of the interpreter's functions refused them, in words
    naming the interpreter's internals (`itertools_module.<locals>.<lambda>()`)."""
    assert_as_cpython(caught(statement, "import itertools, functools, operator"))


ATTRIBUTE_HOOKS = """
class Lazy:
    def __init__(self):
        self.real = 1
    def __getattr__(self, name):
        if name.startswith("x"):
            return name * 2
        raise AttributeError(f"'Lazy' object has no attribute '{name}'")
l = Lazy()
print(l.real, l.xy, getattr(l, "xz"), hasattr(l, "q"), getattr(l, "q", "dflt"))
try:
    l.q
except AttributeError as e:
    print("AttributeError:", e)
class Rec:
    def __init__(self, a):
        object.__setattr__(self, "a", a)
    def __setattr__(self, name, value):
        print("set", name, value)
        super().__setattr__(name, value * 2)
r = Rec(1)
r.b = 2
print(r.a, r.b)
r.b += 1
setattr(r, "c", 5)
print(r.b, r.c)
class Frozen:
    def __init__(self, x):
        object.__setattr__(self, "x", x)
    def __setattr__(self, name, value):
        raise AttributeError("frozen")
f = Frozen(3)
try:
    f.x = 4
except AttributeError as e:
    print("AttributeError:", e, f.x)
class Base:
    def __setattr__(self, name, value):
        object.__setattr__(self, name, [value])
class Child(Base):
    def __init__(self):
        self.v = 1
print(Child().v)
class Wrapper:
    def __init__(self, inner):
        self.inner = inner
    def __getattr__(self, name):
        return getattr(self.inner, name)
w = Wrapper([3, 1, 2])
w.sort()
print(w.inner, w.count(1))
class P:
    @property
    def size(self):
        raise AttributeError("no size yet")
    @property
    def broken(self):
        raise ValueError("broken")
    def __getattr__(self, name):
        return "fallback " + name
p = P()
print(p.size, p.other)
try:
    p.broken
except ValueError as e:
    print("ValueError:", e)
"""


def test_a_classs_own_getattr_and_setattr_run_as_in_cpython() -> None:
    assert_as_cpython(ATTRIBUTE_HOOKS)


def test_a_node_class_with_its_own_setattr_and_getattr_is_traced_as_without_them() -> None:
    """The hooks run around the write the recorder sees: the graph, the gradients and the
    rules are those of the same class without them (the lines after the hooks moved)."""
    hooks = """    def __setattr__(self, name, value):
        if name == "data" and not isinstance(value, (int, float)):
            raise TypeError("data must be a number")
        super().__setattr__(name, value)
    def __getattr__(self, name):
        if name == "value":
            return self.data
        raise AttributeError(f"'V' object has no attribute '{name}'")
"""
    plain = NODE_CLASS.replace("HOOKS\n", "")
    hooked = NODE_CLASS.replace("HOOKS\n", hooks)
    shift = hooks.count("\n")
    hooks_at = NODE_CLASS[: NODE_CLASS.index("HOOKS")].count("\n") + 1

    def moved(node: dict[str, Any]) -> dict[str, Any]:
        rule = node.get("rule")
        if not rule or rule["line"] < hooks_at:
            return node
        return {**node, "rule": {key: line + shift for key, line in rule.items()}}

    ours = trace_source(hooked)
    assert printed_lines(ours) == run_in_cpython(hooked)
    assert ours["nodes"] == [moved(node) for node in trace_source(plain)["nodes"]]


NODE_CLASS = """
class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
HOOKS
    def __add__(self, other):
        out = V(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
    def __mul__(self, other):
        out = V(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
a, b = V(2.0), V(-3.0)
c = a * b + a
c.backward()
print(a.grad, b.grad, c.data)
"""


def test_object_setattr_writes_only_what_setattr_may() -> None:
    """Hostile: `object.__setattr__` is the plain write: not on Python's own objects, no
    dunder names (as `setattr`), no names the interpreter keeps its own entries under."""
    source = """
class A:
    def poke(self, k):
        if k == 0: object.__setattr__(1, "x", 1)
        if k == 1: object.__setattr__(self, 1, 1)
        if k == 2: object.__setattr__()
        if k == 3: object.__setattr__(self, "x")
        if k == 4: object.__setattr__(None, "x", 1)
        if k == 5: object.__setattr__(A, "x", 1)
a = A()
for k in range(6):
    try:
        a.poke(k)
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
"""
    assert_as_cpython(source)
    for name in ("__class__", "__dict__", " store"):  # (any other string is CPython's name)
        poke = f"        object.__setattr__(self, {name!r}, 1)\n"
        program = f"class A:\n    def poke(self):\n{poke}A().poke()\n"
        with pytest.raises(EngineError):
            trace_source(program + TAIL)


def test_a_setattr_that_writes_through_itself_stops_at_the_depth_bound() -> None:
    source = (
        "class A:\n    def __setattr__(self, name, value):\n        self.x = value\nA().y = 1\n"
    )
    with pytest.raises(EngineError, match="nested too deeply"):
        trace_source(source + TAIL)


# Each was "this operation failed: ... (OverflowError)" or an error of the engine's own,
# which no `except` catches, where CPython raises an exception the program can catch.
CAUGHT_AS_CPYTHONS = [
    "float(3 ** 2000)", "float(-(10 ** 400))", "x = 1; x = float(x << 1100)",
    "math.fsum([float('inf'), float('-inf')])", "math.fsum([1e308, 1e308])",
    "import itertools; itertools.islice([1], -1)",
    "import itertools; itertools.islice([1], -1, 2)",
    "import itertools; itertools.islice([1], 0, 2, -1)",
    "math.factorial(-1)", "math.factorial(1.5)", "math.factorial('3')", "math.factorial(None)",
    "range(0, 10, 0)", "range(5, 1, False)", "complex(2 ** 4000)", "complex(1, -(3 ** 2500))",
    # (issue 22: a C size of the program's int, once uncaught words)
    "len(range(2 ** 100))", "len(range(-2 ** 100, 0))", "r = range(2 ** 70); print(r[-1])",
    "[1].pop(2 ** 70)", "[1].insert(2 ** 70, 3)", "chr(2 ** 70)", "chr(-2 ** 40)",
    "[1, 2][2 ** 70]", "'ab'[2 ** 70]", "(1,)[-2 ** 70]", "2 ** 2000 / 3", "1.5 * 2 ** 2000",
    "divmod(2 ** 2000, 1.0)", "math.sqrt(2 ** 2000)", "math.exp(2 ** 70)",
]  # fmt: skip


@pytest.mark.parametrize("statement", CAUGHT_AS_CPYTHONS)
def test_a_builtins_failure_is_cpythons_exception_that_the_program_catches(
    statement: str,
) -> None:
    assert_as_cpython(caught(statement))


STAR_FORMATS = [
    "print('%.*f' % (2, 1.5))", "print(repr('%*d' % (5, 3)), repr('%*d' % (-5, 3)))",
    "print(repr('%-*d|' % (5, 3)), '%.*f' % (-1, 1.5), '%*.*f' % (8, 3, 3.14159))",
    "print('%.*s' % (2, 'abcdef'), repr('%*s' % (3, 'a')), '%*d' % (True, 3))",
    "print('%*d' % (1.5, 3))", "print('%*d' % ('a', 3))", "print('%.*f' % (2,))",
    "print('%*d' % (10**8, 3))", "print('%.*f' % (10**6, 1.5))",
]  # fmt: skip


@pytest.mark.parametrize("statement", STAR_FORMATS[:7])
def test_a_star_width_or_precision_in_percent_formatting_is_cpythons(statement: str) -> None:
    # `'%.*f' % (2, x)` was left as text, then CPython's TypeError for the arguments
    # it did not convert: no program with a `*` ran.
    assert_as_cpython(caught(statement))


@pytest.mark.parametrize("statement", STAR_FORMATS[7:])
def test_a_star_width_or_precision_stays_within_the_string_bound(statement: str) -> None:
    with pytest.raises(EngineError, match=r"format (width|precision)"):
        trace_source(statement + TAIL)


CALL_PRELUDE = (
    PRELUDE
    + """
def f(*a, **kw):
    return a, kw
def g(x, *args, **kwargs):
    return x, args, kwargs
class C:
    def m(self, **kw):
        return kw
    class Inner:
        def n(self, **kw):
            return kw
def outer():
    def inner(**kw):
        return kw
    return inner
"""
)
CALL_ARGUMENTS = [
    # a keyword given twice through `**`: CPython's TypeError, never the last one kept
    "print(f(a=1, **{'a': 2}))", "print(f(**{'a': 1}, **{'a': 2}))", "print(f(**{'a': 1}, a=2))",
    "print(C().m(a=1, **{'a': 2}))", "print(C.Inner().n(a=1, **{'a': 2}))",
    "print(C(a=1, **{'a': 2}))", "print(outer()(a=1, **{'a': 2}))",
    "print((lambda **k: k)(a=1, **{'a': 2}))", "print(dict(a=1, **{'a': 2}))",
    "print(a=1, **{'a': 2})", "math.sqrt(a=1, **{'a': 2})",
    "print(max([1], key=len, **{'key': len}))",
    # a keyword named as the `*args` parameter is one of `**kwargs`
    "print(f(a=1), g(1, 2, args=3), g(1, kwargs=2))", "print((lambda *args: args)(args=1))",
    # what `*` and `**` cannot unpack
    "f(**1)", "f(**[1])", "f(**None)", "C().m(**1)", "f(**{1: 2})", "print(**{None: 1})",
    "f(*1)", "f(*None)", "print(*1)", "C().m(*2.5)", "print([*1])", "print((*None,))",
    "print({*1})", "print({**1})", "print({**[1]})", "print({'a': 1, **None})",
    "print(f(*[1], **{'b': 2}, c=3), [*'ab', *range(2)], {**{'a': 1}, 'b': 2})",
    # a built-in type's call given the wrong arguments
    "float(1, 2)", "float(x=1)", "float(1, x=2)", "int(1, 2, 3)", "int(x=1)", "str(1, 2, 3, 4)",
    "str(x=1)", "bool(1, 2)", "bool(x=1)", "complex(1, 2, 3)", "zip(x=1)",
    "zip([1], strict=1, y=2)",
    "map()", "map(str)", "map(str, [1], x=1)", "filter()", "filter(None, [1], x=1)",
    "ord('ab')", "ord('')", "ord(1)", "ord(None)",
    "print(ord('a'), bool(), bool([]), int(), str())",
]  # fmt: skip


@pytest.mark.parametrize("statement", CALL_ARGUMENTS)
def test_a_calls_arguments_that_cpython_refuses_are_its_type_error(statement: str) -> None:
    # `f(a=1, **{'a': 2})` called f with a=2; `bool(1, 2)` was True; `f(**1)`,
    # `float(1, 2)`, `map(str)` were the engine's own words, which no `except` took.
    assert_as_cpython(caught(statement, CALL_PRELUDE))


STRING_AND_SET_METHODS = [
    # a string's padding: CPython's words for the fill and the width (and `{` a fill)
    "print('abc'.center(8, '**'))", "print('abc'.center(8, 1))", "print('abc'.ljust(8, ''))",
    "print('abc'.rjust(8, 'ab'))", "print('abc'.zfill('a'))", "print('abc'.center(5.0))",
    "print('abc'.ljust())", "print('abc'.ljust(1, 2, 3))", "print('abc'.zfill())",
    "print('abc'.zfill(5, 1))", "print('abc'.center(width=5))",
    "print('abc'.center(8, '{'), 'abc'.ljust(8, '}'), 'abc'.rjust(True, 'x'), '-4'.zfill(5))",
    "print('abc'.center(-5), 'é'.center(4, 'ü'), 'ab'.rjust(5), 'ab'.ljust(4, '.') + '|')",
    "print('a'.rjust(-10 ** 9), 'a'.ljust(-5) + '|', 'a'.zfill(-3), 'ab'.center(1))",
    # `%` formatting: a conversion CPython has not, or none, is its ValueError
    "print('%y' % 1)", "print('%' % ())", "print('100%' % ())", "print('%(a' % {'a': 1})",
    "print('%d %y' % (1, 2))", "print('%s %' % (1,))", "print('%5.2z' % 1)",
    "print('%ld %li %hd %Lf' % (1, 2, 3, 4.5), '%u' % 5, '%i' % 3.7)",
    "print('%a' % 'é', '%5a|' % 'x', '%.1a' % 'xy', '%r %a' % ('é', ['ü']))",
    # a string method given what it takes no argument of
    "print('abc'.startswith(['a']))", "print('abc'.startswith(('a', 1)))",
    "print('abc'.startswith(('x', 1)))", "print('abc'.endswith(('x', None)))",
    "print('abc'.startswith(A()))", "print('abc'.find('a', 1.5))", "print('abc'.split(A()))",
    "print('abc'.strip([1]))", "print('abc'.count({}))", "print('abc'.startswith(len))",
    "print('abc'.replace(1, 'a'))", "print('abc'.replace('a', None))",
    "print('abc'.replace('a', 'b', 1.5))", "print('abc'.replace('a'))",
    "print('aaa'.replace('a', 'b', True), 'aaa'.replace('a', 'b', -1))",
    # a set's missing item is a KeyError; an unhashable key CPython's TypeError
    "{1}.remove(2)", "{1, 'a'}.remove('b')", "s = {(1, 2)}; s.remove((2, 1))",
    "{}.setdefault([1])", "{}.setdefault({}, 2)",
]  # fmt: skip


@pytest.mark.parametrize("statement", STRING_AND_SET_METHODS)
def test_a_string_or_set_methods_refusal_is_cpythons_error(statement: str) -> None:
    # Each was the engine's own words, no `except` taking them (`{1}.remove(2)` no
    # KeyError, `{}.setdefault([1])` Python's own TypeError said as a failure), or
    # CPython's class with other words, or (`'%y' % 1`) another error altogether.
    assert_as_cpython(caught(statement))


SEQUENCE_METHODS = [
    # `index(x, start, stop)` of a list or tuple, as CPython's slice of where it looks
    "print([1, 2, 1].index(1, 1), (1, 2, 1).index(1, True), [1, 2, 3].index(3, -1))",
    "print([1, 2, 3].index(1, -100, 100), (1, 2, 3).index(2, 0, 2))",
    "print([1, 2].index(2, 0, 1))", "print((1, 2).index(2, 0, 1))", "print((1, 2).index(2, 5))",
    "print([1, 2, 3].index(1, 2 ** 70))", "print([1].index(1, None))", "print([1].index(1, 'a'))",
    "print([1].index(1, 1.5))", "print([1].index())", "print([1].index(1, 0, 1, 2))",
    "print([1].index(x=1))", "print((1, 2).index())", "print((1, 2).index(1, 0, 1, 2))",
    "print((1,).index(x=1))", "print((1, 2).count())", "print((1,).count(x=1))",
    # `insert`'s index
    "print([1, 2].insert('a', 1))", "print([1, 2].insert(1.5, 3))", "print([1].insert(None, 1))",
    "print([].insert())", "xs = [1, 2]; xs.insert(True, 9); print(xs)",
    # `join` of what is no iterable; `d.fromkeys` read off a dict
    "print(' '.join(None))", "print(' '.join(5))", "print(''.join(x for x in 'ab'))",
    "print({}.fromkeys(['a'], 0), {'x': 1}.fromkeys('ab'))",
]  # fmt: skip


@pytest.mark.parametrize("statement", SEQUENCE_METHODS)
def test_a_sequence_methods_arguments_are_cpythons(statement: str) -> None:
    # `index(x, start)` and `fromkeys` read off a dict were refused, `insert('a', 1)`
    # and `(1, 2).count()` the engine's words, `' '.join(None)` another TypeError.
    assert_as_cpython(caught(statement))


ITEM_WRITES = [
    "xs = [3, 1, 2]; xs[1:2] = 5", "xs = [3, 1, 2]; xs[:] = None", "xs = [3, 1, 2]; xs[::2] = 1",
    "xs = [3, 1, 2]; xs[::1] = 1.5", "xs = [3, 1, 2]; xs[::-1] = None",
    "xs = [3, 1, 2]; xs[1:] = 'ab'; xs[0:0] = (i for i in range(2)); print(xs)",
    "xs = [3, 1, 2]; del xs['a']", "xs = [3, 1, 2]; del xs[None]", "xs = [3, 1, 2]; del xs[1.5]",
]  # fmt: skip


@pytest.mark.parametrize("statement", ITEM_WRITES)
def test_a_lists_slice_written_with_no_iterable_or_deleted_by_no_index_is_cpythons(
    statement: str,
) -> None:
    # `xs[1:2] = 5` said "'int' object is not iterable", `del xs['a']` "'list' object
    # doesn't support item deletion": CPython's TypeError in other words.
    assert_as_cpython(caught(statement))


BUILTIN_KEYWORDS = [
    "print(list(enumerate('ab', start=1.5)))", "print(list(enumerate('ab', start=True)))",
    "print(list(enumerate(iterable='ab')), list(enumerate(start=3, iterable='ab')))",
    "print(list(enumerate('ab', start='a')))", "print(list(enumerate('ab', iterable='c')))",
    "print(list(enumerate()))", "print(list(enumerate('a', 1, 2)))",
    "print(list(enumerate('a', x=1)))", "print(list(enumerate('ab', 2 ** 70)))",
    "print(sorted([2, 1], reverse=None))", "print(sorted([2, 1], reverse='a'))",
    "print(sorted([2, 1], reverse=1.5))", "print(sorted([2, 1], reverse=2 ** 40))",
    "xs = [2, 1]; xs.sort(reverse=None)", "print(sorted([2, 1], key=None, reverse=1))",
    "print(sorted([2, 1], cmp=None))", "print(sorted([1], key=len, x=2))",
    "print(max(1, 2, default=5))", "print(min(1, 2, default=0, key=None))",
    "print(max([1], x=1))", "print(max([], default=None, key=len), max([3], default=1))",
]  # fmt: skip


@pytest.mark.parametrize("statement", BUILTIN_KEYWORDS)
def test_a_builtins_keywords_are_cpythons(statement: str) -> None:
    # `enumerate(iterable=...)`, `start=True` were refused, `start=1.5` the engine's
    # words; `sorted(reverse=None)` sorted where CPython refuses; `max(1, 2,
    # default=5)` was 2, CPython's TypeError.
    assert_as_cpython(caught(statement))


@pytest.mark.parametrize(
    "statement", ["'a'.ljust(10 ** 6)", "'a'.rjust(10 ** 5, '*')", "'a'.center(10 ** 7)"]
)
def test_a_padded_string_stays_within_the_string_bound(statement: str) -> None:
    with pytest.raises(EngineError, match="strings here stay within"):
        trace_source(f"x = {statement}" + TAIL)
