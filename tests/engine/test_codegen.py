"""Blocks run as generated functions (`engine.interpreter.codegen`): the shapes written in
whole and the ones left to their closures print what CPython prints, errors are located
at the statement running, and the cache of compiled shapes stays bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from backprop_animator.engine.interpreter import codegen
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

TAIL = "\nv = Value(1.0)\nv.backward()\n"

SHAPES = """
class Node:
    def __init__(self, data, children=(), op=''):
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._backward = lambda: None

    def __mul__(self, other):
        other = other if isinstance(other, Node) else Node(other)
        out = Node(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad -= out.grad * self.data
            self.grad += out.grad

        out._backward = _backward
        return out

def wide(*xs):
    return sum(xs)

def body(n):
    total = 0
    pair = (n, n + 1)
    items = [n, n * 2, n * 3]
    if n in items and not n > 3:
        total = wide(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
    else:
        total = len([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
    label = 'small' if n < 2 else 'big'
    total += n
    label += '!'
    return total, pair, items, label

def counter():
    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    bump()
    return bump()

for k in range(5):
    print(body(k))
for k in range(4):  # past `codegen.HOT_AFTER`: the later runs are the generated function's
    a, b = Node(2.0 + k), Node(3.0)
    c = a * b
    c.grad = 1.0
    c._backward()
    print(a.grad, b.grad, counter(), isinstance(a, Node), len(str(len)) > 0)
"""
HOT = codegen.HOT_AFTER + 1  # calls until a block runs as its generated function


def test_shapes_print_what_cpython_prints() -> None:
    trace = trace_source(SHAPES + TAIL)
    assert_same_output(printed_lines(trace), run_in_cpython(SHAPES + TAIL))


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("    x = 1\n    y = x.nothing\n    return y", 3),  # an attribute of a local
        ("    x = [1]\n    if x[0]:\n        z = x[5]\n    return x", 4),  # a nested block
        ("    q = 1\n    return q / 0", 3),  # an operator
    ],
)
def test_errors_are_located_at_the_statement_running(body: str, line: int) -> None:
    # The block runs on the loop first, then as its generated function, where it fails.
    source = f"def f(k):\n    if k < {HOT - 1}:\n        return 0\n{body}\n\n"
    source += f"for k in range({HOT}):\n    f(k)\n"
    with pytest.raises(EngineError) as caught:
        trace_source(source + TAIL)
    assert caught.value.line == line + 2


def test_a_block_is_generated_only_once_it_has_run_a_few_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = []
    block = codegen.block
    monkeypatch.setattr(codegen, "block", lambda *args: made.append(1) or block(*args))
    many = "".join(f"def g{i}(x):\n    y = x + {i}\n    return y\n" for i in range(50))
    trace_source(many + f"for k in range({HOT - 1}):\n    g0(k)\n" + TAIL)
    assert made == []  # g0 ran twice, the other functions never: nothing compiled
    trace_source(many + f"for k in range({HOT}):\n    g0(k)\n" + TAIL)
    assert made == [1, 1]  # the loop's body and g0's, on their third runs


def test_the_cache_of_shapes_is_bounded() -> None:
    codegen._factories.clear()
    codegen._cached_chars = 0
    seen = chars = 0
    shapes = codegen._CACHE_SIZE + 10
    for n in range(shapes):  # as many shapes: statements x list length
        body = "".join(f"    x{i} = {i}\n" for i in range(n % 39 + 1))
        names = ", ".join("x0" for _ in range(n // 39 + 1))
        calls = f"for k in range({HOT}):\n    f()\n"
        trace_source(f"def f():\n{body}    return [{names}]\n{calls}" + TAIL)
        seen = max(seen, len(codegen._factories))
        chars = max(chars, sum(map(len, codegen._factories)))
    assert seen <= codegen._CACHE_SIZE and chars <= codegen._CACHE_CHARS
    assert len(codegen._factories) < shapes  # emptied on the way, by count or by size


def test_a_block_nested_deep_and_wide_generates_bounded_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 37 statements each a call of 16 calls of 16 attribute reads, twice over (80 KB):
    # written in whole it was 3.3 MB of Python, 5 s of `compile()` and 500 MB.
    sources: list[int] = []
    compile_ = compile

    def spy(source: str, *args: object) -> object:
        sources.append(len(source))
        return compile_(source, *args)  # type: ignore[call-overload]

    monkeypatch.setattr(codegen, "compile", spy, raising=False)
    inner = "g(" + ",".join(["o.b"] * 16) + ")"
    middle = "g(" + ",".join([inner] * 16) + ")"
    body = "".join(f"    x{i} = g({middle}, {middle})\n" for i in range(37))
    source = (
        "class O:\n    def __init__(self):\n        self.b = 1\n"
        "def g(*a):\n    return 1\n"
        f"def h(o):\n{body}    return x0\n"
        f"o = O()\nfor k in range({HOT}):\n    print(h(o))\n"
    )
    assert len(source) > 75_000
    # A roomy clock: compiling 80 KB reads the trace's clock too, and this 2-core
    # machine under load can take the default 1.8 s for it; the bound asserted is the
    # generated source's.
    trace = trace_source(source + TAIL, limits=Limits(time_limit=30))
    assert printed_lines(trace) == ["1"] * HOT
    assert sources and max(sources) <= codegen.MAX_SOURCE_CHARS
    assert sum(map(len, codegen._factories)) <= codegen._CACHE_CHARS


def test_a_block_too_long_for_its_source_is_given_up_as_it_is_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An `if` holding 19,000 statements is written in whole into the function around it:
    # its source was written out (0.4 s, uncharged and past any deadline), then refused
    # for its length, and again for the `if` inside. It is given up once the statements
    # written so far pass the bound.
    statements: list[int] = []
    wrapped = codegen._wrapped

    def spy(*args: Any) -> list[str]:
        statements.append(1)
        return wrapped(*args)

    monkeypatch.setattr(codegen, "_wrapped", spy)
    body = ";".join(["pass"] * 19_000)
    source = (
        f"def f(k):\n    if k >= 0:\n        if k >= 0:\n            {body}\n    return 1\n"
        f"for k in range({HOT + 1}):\n    f(k)\n"
    )
    trace_source(source + TAIL, limits=Limits(max_steps=10**7, time_limit=30))
    # At most 401 statements (60,000 characters at 150 each) in each block given up: f's
    # body and its `if`'s body; and the few of the loop's body, generated.
    assert len(statements) <= 2 * 401 + 10, len(statements)


# Blocks written in whole inside a generated function (`_if_written`, `_for_written`):
# `if` and `for` with their signals, `else` blocks, nesting past `MAX_NESTED`, and errors
# in the test, the iteration, the target's store and the body.
WRITTEN_IN_WHOLE = [
    """
def f(xs):
    out = []
    for x in xs:
        if x < 0:
            continue
        if x > 50:
            break
        out.append(x)
    else:
        out.append('done')
    return out
""",
    """
def f(xs):
    total = 0
    for x in xs:
        for y in xs:
            if y == x:
                break
            total += y
        else:
            total -= 1000
            continue
        total += 1
    return total
""",
    """
def f(xs):
    for i in range(3):
        for x in xs:
            pass
        else:
            if i == 1:
                break
    return i
""",
    """
def f(xs):
    for x in xs:
        if x > 2:
            return x * 10
    return -1
""",
    """
def f(xs):
    seen = set()
    order = []
    for x in xs:
        for y in (x, x + 1):
            for z in (y, y * 2):
                for w in (z, z - 1):
                    for v in (w, w + 7):
                        for u in (v,):
                            if u not in seen:
                                seen.add(u)
                                order.append(u)
    return order[:20], len(order)
""",
    """
def f(xs):
    pairs = []
    for a, (b, c) in zip(xs, zip(xs, reversed(xs))):
        if a % 2:
            pairs.append((a, b))
        elif c > 3:
            pairs.append(c)
        else:
            pairs.append(None)
    return pairs
""",
    """
def f(xs):
    d = {x: x for x in xs}
    for k in d:
        if k == 3 and K == 5:
            d[100] = 1
    return d
""",
    """
def f(xs):
    for x in xs:
        if x == 4 and K == 5:
            y = xs[99]
    return xs
""",
    """
def f(xs):
    for x in xs:
        if x == 4 and K == 5 and xs[99]:
            pass
    return xs
""",
    """
def f(xs):
    for x in xs:
        if x == 4 and K == 5:
            for y in x:
                pass
    return xs
""",
    """
def f(xs):
    order, seen, stack = [], set(), [xs[0]]
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        order.append(x)
        for y in (x * 2 % 11, x * 3 % 11):
            if y not in seen:
                stack.append(y)
    else:
        order.append('empty')
    return order
""",
    """
def f(xs):
    i = 0
    while i < len(xs):
        if xs[i] > 50:
            break
        i += 1
    else:
        i = -1
    j = 0
    while j < 3:
        j += 1
        while True:
            break
        else:
            j = 100
    return i, j
""",
    """
def f(xs):
    i = 0
    while xs[i] != 60 or K == 5:
        i += 1
    return i
""",
    """
class Countdown:
    def __init__(self, n):
        self.n = n

    def __bool__(self):
        return self.n > 0 if K < 5 or self.n == 3 else self.n  # 2: after a turn


def f(xs):
    left = Countdown(3)
    while left:
        left.n -= 1
    return left.n
""",
    """
def f(xs):
    n = 0
    while True:
        n += 1
        if n > (10**12 if K == 5 else 3):
            break
    return n
""",
    """
def f(xs):
    n = 0
    for x in range(10**12 if K == 5 else 3):
        if x >= 0:
            n += 1
    return n
""",
    """
def f(xs):
    for xs[9 if K < 5 else 99] in xs:
        pass
    return xs
""",
]


# Functions called through their generated `enter` (`codegen._enter`): arguments bound with
# and without defaults, a wrong count refused by `Machine.bind`, methods that make ops and
# call `super()`, recursion to the depth bound, an error inside naming its function, a
# rule's writes in blocks written in whole (whose update group is their statement's).
ENTERED = [
    """
def g(a, b=2, c=(3,)):
    d = a
    return d, b, c


def f(xs):
    many = xs[:3] if K < 5 else xs[:4]
    return g(1), g(1, 5), g(1, 5, 6), g(1, c=4), g(*many)
""",
    """
def g(a, b):
    return a - b


def f(xs):
    return g(xs[0], xs[1]) if K < 5 else g(xs[0])
""",
    """
class A:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return A(self.v + other.v)


class B(A):
    def __init__(self, v, w=0):
        super().__init__(v)
        self.w = w

    def __add__(self, other):
        s = super().__add__(other)
        return B(s.v, self.w)


def f(xs):
    b = B(xs[0], 1) + B(xs[1])
    return b.v, b.w, (B(1) + 2).v if K == 5 else 0
""",
    """
def down(n):
    return 0 if n == 0 else 1 + down(n - 1)


def f(xs):
    try:
        return down(10 if K < 5 else 5000)
    except RecursionError:
        return 'deep'
""",
    """
class N:
    def __init__(self, d, ch=()):
        self.d = d
        self.grad = 0.0
        self._prev = set(ch)
        self._backward = lambda: None

    def __mul__(self, o):
        out = N(self.d * o.d, (self, o))

        def _backward():
            for c, other in ((self, o), (o, self)):
                if c is not None:
                    c.grad += other.d * out.grad

        out._backward = _backward
        return out


def f(xs):
    a, b = N(xs[0]), N(xs[1] if K < 5 else 'x')
    c = a * b
    c.grad = 1.0
    for k in range(2):
        if k == 0:
            c._backward()
    return a.grad, b.grad, len(c._prev)
""",
    """
def g(n):
    m = n
    return m // (K - 5)


def f(xs):
    return [g(x) for x in xs[:2]]
""",
]


@pytest.mark.parametrize("body", WRITTEN_IN_WHOLE + ENTERED)
def test_blocks_written_in_whole_run_as_their_closures_do(
    body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same program with every block on `in_order`'s loop (never generated) and with
    # its blocks generated once hot: the same trace byte for byte, or the same error at
    # the same line and column; and what CPython prints or raises.
    # The errors come in the last call (`K == 5`): the block's generated function's.
    source = body + "\nfor K in range(6):\n    print(f([3, -1, 4, 1, 5, 9, 2, 6, 60, 5]))\n" + TAIL
    try:
        if "10**12" in body:
            raise ValueError("not run in CPython: it would run for hours")
        expected: list[str] | BaseException = run_in_cpython(source)
    except Exception as error:  # the tests' own programs; what CPython raises
        expected = error

    def traced() -> object:
        try:  # a clock that a loaded machine cannot reach first: the step bound stops it
            return trace_source(source, limits=Limits(max_steps=300_000, time_limit=120.0))
        except EngineError as error:
            return (str(error), error.line, error.column)

    generated = traced()
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    looped = traced()
    assert generated == looped
    if "10**12" in body:  # the step bound, in the generated function's loop
        assert isinstance(generated, tuple) and "steps" in generated[0]
        assert generated[1] in (4, 5, 6)  # the loop, whichever statement was counting
        if "while True" in body:  # and the loop's hint, as its closure gives it
            assert "the while True: loop at line 4 has run" in generated[0]
        return
    if isinstance(expected, BaseException):
        assert isinstance(generated, tuple)
        assert str(expected) in generated[0]
        tb, line = expected.__traceback__, None
        while tb is not None:  # CPython's line: the program's innermost frame's
            if tb.tb_frame.f_code.co_filename == "<program>":
                line = tb.tb_lineno
            tb = tb.tb_next
        assert generated[1] == line
    else:
        assert isinstance(generated, dict)
        assert_same_output(printed_lines(generated), expected)


def test_a_long_nested_block_stays_its_closure_and_the_function_is_still_generated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An `if` of more statements than a block is generated for is not written in whole
    # (600 here, whose source would pass `MAX_SOURCE_CHARS`):
    # the function around it is generated all the same (with the `if` calling its
    # block), rather than given up for the length the nested block would add.
    made: list[object] = []
    block = codegen.block

    def spy(*args: object) -> object:
        result = block(*args)  # type: ignore[arg-type]
        made.append((len(args[0]), result))  # type: ignore[arg-type]
        return result

    monkeypatch.setattr(codegen, "block", spy)
    long = codegen.MAX_SOURCE_CHARS // 100  # more than its source could hold written in whole
    long_body = "".join("        x += 1\n" for _ in range(long))
    source = f"def f(k):\n    x = 0\n    if k >= 0:\n{long_body}    return x\n\n"
    source += "for k in range(5):\n    print(f(k))\n"
    trace = trace_source(source + TAIL)
    assert printed_lines(trace) == [str(long)] * 5
    outer = [result for count, result in made if count == 3]  # f's body: x = 0, if, return
    assert outer and all(result is not None for result in outer)


def test_a_tapes_rules_stay_their_nodes_rules_once_their_body_is_generated() -> None:
    """A rule kept on a tape, called from a pass outside any rule, is found to be its
    node's rule by `Machine.call_function`; once its body is generated (after the first
    passes) its generated `enter` hands such a call to `call_function` too, so every
    pass of a training loop is narrated alike (the later ones were 'No sort here')."""
    source = (Path(__file__).parent / "learner_bugs" / "tape_right.py").read_text()
    start = source.index("x = Value(")
    loop = "for step in range(5):\n    TAPE.clear()\n" + "".join(
        "    " + line + "\n" for line in source[start:].splitlines()
    )
    trace = trace_source(source[:start] + loop)
    sorts = [frame["text"] for frame in trace["frames"] if frame["phase"] == "sort"]
    assert len(sorts) == 5 and len(set(sorts)) == 1, sorts
    rule_lines = [
        [frame.get("line") for frame in trace["frames"] if frame.get("pass") == k] for k in range(5)
    ]
    assert all(lines == rule_lines[0] for lines in rule_lines)


GRAD_NUMBERS = """
class Node:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0
        self._prev = set(children)
        self._backward = lambda: None

    def __mul__(self, other):
        out = Node(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += out.grad * (out.data > 0)

        out._backward = _backward
        return out

CASES = [
    (2, 3, 1), (2.5, 3, 1), (2, 0.5, 2.0), (True, 3, 1), (-4, 7, 2**62),
    (2**62, 2**62, 1), (2**63, 1, 1), (-(2**63), 1.0, 1), (2**63 + 1, 1, 1),
    (10**400, 1, 1.5), (float('inf'), 1, 2), (float('nan'), 1.0, 2), (3, 4, 'x'),
]
for a_data, b_data, upstream in CASES:
    for k in range(4):  # the rule's body runs as its generated function from its third run
        a, b = Node(a_data), Node(b_data)
        a.grad = k
        c = a * b
        c.grad = upstream
        try:
            c._backward()
            print(a.grad, b.grad)
        except Exception as error:
            print(type(error).__name__, error)
"""
HUGE = "\nc = Node(2**3000) * Node(2**3000)\nc.grad = 2**3000\nc._backward()\n"


def test_gradient_writes_of_plain_numbers_are_machine_binarys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `child.grad += local * out.grad` with ints, bools, floats, ints past 64 bits,
    # infinities and NaNs: the generated function computes what `Machine.binary` does
    # (`codegen._numbers`), the same trace as every block on its loop, CPython's prints.
    def traced(source: str) -> object:
        try:
            return trace_source(source)
        except EngineError as error:
            return (str(error), error.line, error.column)

    generated = traced(GRAD_NUMBERS + TAIL)
    huge = traced(GRAD_NUMBERS + HUGE + TAIL)
    assert isinstance(generated, dict)
    assert_same_output(printed_lines(generated), run_in_cpython(GRAD_NUMBERS + TAIL))
    assert isinstance(huge, tuple) and "bits" in huge[0]  # the product measured and refused
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    assert traced(GRAD_NUMBERS + TAIL) == generated
    assert traced(GRAD_NUMBERS + HUGE + TAIL) == huge


UNBOUND_PARAMETERS = """
def f(a, b):
    if b > 2:
        del a
    try:
        return a + b
    except NameError as error:
        return str(error)

def g(x):
    def h():
        return x
    if x > 3:
        del x
    return h()

def k(e):
    try:
        raise ValueError(1)
    except ValueError as e:
        pass
    return e

def m(p, q=2):
    def inner():
        return p.real + q
    return p * q + inner()

for i in range(6):  # past `codegen.HOT_AFTER`: the later calls are the generated functions'
    print(f(1, i), m(i), m(i, 3))
    for fn in (g, k):
        try:
            print(fn(i))
        except Exception as error:
            print(type(error).__name__, error)
"""


def test_parameters_are_read_at_once_unless_the_program_can_unbind_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A parameter that nothing deletes (`Scope.always_bound`) is read without the test
    # for an unbound name; one deleted (`del a`) or bound by `except ... as e` anywhere
    # keeps it, and says CPython's words when it is read unbound, generated or not.
    generated = trace_source(UNBOUND_PARAMETERS + TAIL)
    assert_same_output(printed_lines(generated), run_in_cpython(UNBOUND_PARAMETERS + TAIL))
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    assert trace_source(UNBOUND_PARAMETERS + TAIL) == generated


def test_which_parameters_are_always_bound() -> None:
    import ast

    from backprop_animator.engine.interpreter import scope as scopes

    tree = ast.parse(UNBOUND_PARAMETERS)
    root = scopes.module_scope(tree.body, scopes.unbinds_of(tree))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    found = {name: scopes.function_scope(node, root).bound for name, node in functions.items()}
    assert found == {
        "f": frozenset({"b"}),
        "g": frozenset(),
        "k": frozenset(),
        "m": frozenset({"p", "q"}),
    }
    m = scopes.function_scope(functions["m"], root)
    inner = scopes.function_scope(functions["m"].body[0], m)  # type: ignore[arg-type]
    assert inner.always_bound("p") and inner.always_bound("q")
    g = scopes.function_scope(functions["g"], root)
    h = scopes.function_scope(functions["g"].body[0], g)  # type: ignore[arg-type]
    assert not h.always_bound("x") and not g.always_bound("h")  # a local, no parameter


CHARGED_TOGETHER = """
import time

def add(a, b=2):
    s = a + b
    return s

def deeper(n):
    return 1 + deeper(n - 1)

def turns(n):
    t = 0
    for i in range(n):
        t = t + add(i)
    k = 0
    while k < n:
        k = k + 1
        t = t + k
    return t

total = 0
for j in range(8):
    total = total + turns(j) + add(j, j)
    print(total, time.time())
try:
    deeper(5)
except RecursionError:
    print("deep", time.time())
for bad in [(), (1, 2, 3)]:
    try:
        add(*bad)
    except TypeError:
        print("bind", time.time())
v = Value(float(total))
v.backward()
"""


def test_steps_charged_together_meet_every_limit_where_one_by_one_did(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A loop's turn and its body's first statement, a call and its body's first statement
    # are charged as one sum in a generated function (`codegen._charge2`, `_enter`'s
    # `owed_`): under every step limit the run stops at the same statement with the same
    # words as on `in_order`'s loop, and a clock read (a microsecond a step), a recursion
    # caught at the depth bound and a binding's TypeError caught see the same count.
    def traced(steps: int) -> object:
        limits = Limits(max_steps=steps, max_call_depth=40, time_limit=120.0)
        try:
            return printed_lines(trace_source(CHARGED_TOGETHER, limits=limits))
        except EngineError as error:
            return (str(error), error.line, error.column)

    limits = [*range(1, 1000, 7), 10**6]  # (the program runs about 900 steps)
    generated = [traced(steps) for steps in limits]
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    looped = [traced(steps) for steps in limits]
    assert generated == looped
    assert isinstance(generated[-1], list) and "deep" in generated[-1][-3]
    assert sum(isinstance(run, tuple) for run in generated) > 50


IN_PLACE = """
import time
from collections import deque

class Key:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        print("hash", self.k)
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, Key) and self.k == other.k

class Plain:
    pass

class Own:
    def __init__(self):
        self.items = []

    def append(self, item):
        self.items.append(item * 2)

def fill(n):
    order = []
    seen = set()
    last = deque(maxlen=2)
    keys = set()
    own = Own()
    frozen = frozenset([1])
    for i in range(n):
        p = Plain()
        order.append(p)
        seen.add(p)
        seen.add(p)
        last.append(i)
        keys.add(Key(i % 2))
        order.append(i)
        seen.add(i)
        own.append(i)
        try:
            frozen.add(i)
        except AttributeError as error:
            order.append(str(error))
    return len(order), len(seen), list(last), len(keys), own.items, order[-1:]

def one(a):
    return a

def gen(n):
    yield n
    yield n + 1

def star(*xs, k=2):
    return len(xs) * k

def visit(node, depth):
    if depth > 0:
        visit(node, depth - 1)
    return depth + one(depth)

for n in range(5):
    print(fill(n), visit(n, n), time.time())
    print(list(gen(n)), star(n, n), (lambda x: x + 1)(n), one(Plain) is Plain, one(a=n))
    try:
        print(one(
            n, n))
    except TypeError as error:
        print("bind", error, time.time())
    try:
        call = one if n < 3 else n
        print(call(n))
    except TypeError as error:
        print("call", error)
"""

DOWN = """
def down(n):
    return 1 + (
        down(n - 1))

down(30)
"""


def test_appends_adds_and_calls_written_in_place_print_what_cpython_prints() -> None:
    # `order.append(x)` and `seen.add(x)` written in place where they are a list's or a
    # set's own (`codegen._added`), and calls of the program's functions beside them; a
    # deque with a `maxlen`, a frozenset, a class's own `append`, an object hashed by
    # its program's `__hash__`, a generator's, a `*args`' and a lambda's call, a
    # keyword, a wrong count of arguments and a call of a number all go their usual way.
    source = IN_PLACE.replace("time.time()", "0") + TAIL  # (the engine's clock is its own)
    assert_same_output(printed_lines(trace_source(source)), run_in_cpython(source))


def test_appends_adds_and_calls_written_in_place_meet_every_limit_and_locate_every_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under every step limit the run stops at the same statement with the same words as
    # on `in_order`'s loop (a call's step, `dispatch`'s, is charged where it was), a
    # clock read sees the same count, and an error a call of the program's lets out (a
    # binding's TypeError, the call depth bound) is located at the call, its chain of
    # calls at the call's line, as `dispatch` located it.
    def traced(source: str, steps: int) -> object:
        limits = Limits(max_steps=steps, max_call_depth=20, time_limit=120.0)
        try:
            return printed_lines(trace_source(source, limits=limits))
        except EngineError as error:
            return (str(error), error.line, error.column)

    limits = [*range(1, 700, 29), 10**6]  # (the program runs about 650 steps)
    generated = [traced(IN_PLACE + TAIL, steps) for steps in limits]
    deep = traced(DOWN + TAIL, 10**6)
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    looped = [traced(IN_PLACE + TAIL, steps) for steps in limits]
    assert generated == looped
    assert deep == traced(DOWN + TAIL, 10**6)
    assert isinstance(generated[-1], list) and sum(isinstance(r, tuple) for r in generated) > 20
    assert isinstance(deep, tuple) and deep[1:] == (4, 9) and "called from line 4" in deep[0]


NODE_WRITES = """
class Node:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(children)
        self._backward = lambda: None

    def __mul__(self, other):
        out = Node(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        out.note = 'made'
        return out

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    visit(child)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()

class Prop:
    def __init__(self):
        self._g = 0.0
        self.grad = 1.5

    @property
    def grad(self):
        return self._g

    @grad.setter
    def grad(self, g):
        print("set", g)
        self._g = g

def scaled(a, b, k):
    a.grad = k * b.grad
    return a.grad

def relinked(a, b):
    out = a * b
    out._prev = (b, a)
    out.data = 2.0
    return out

w = Node(3.0)
for step in range(4):
    x = Node(float(step))
    y = relinked(w, x) * x
    y.backward()
    for p in (w, x):
        p.grad = 0.0
        p.data = p.data - 0.1
    print(step, y.data, w.data, scaled(x, w, 2), scaled(x, w, 0.5), Prop().grad)
y
"""


def test_a_traced_nodes_attributes_written_in_place_trace_as_set_attr_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `out._backward = _backward` on a traced node is written in place (`codegen._store`);
    # its number, gradient and operands (`p.grad = 0.0`, `out.data = 2.0`, `out._prev =
    # (b, a)`) stay `Machine.set_attr`'s, which has the recorder see them; `self.grad =
    # 0.0` in a node's `__init__` is written in place (`_grad_set`), a traced node's
    # gradient set, a product's and a property's are the write's `finish`: the trace is
    # the same, byte for byte, as on `in_order`'s loop.
    generated = trace_source(NODE_WRITES)
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    assert generated == trace_source(NODE_WRITES)
    assert len(generated["frames"]) > 20
    assert_same_output(printed_lines(generated), run_in_cpython(NODE_WRITES))


# A node's op set after it is made (`out._op = '+'`) and a product's rule hung on its
# operand (`self._backward = _backward`, a learner's bug), in methods run many times.
OP_AND_RULE_SET_LATER = """
class Value:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = ''

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))
        out._op = '+'
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))
        out._op = '*'
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        self._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

a, b, c = Value(2.0), Value(-3.0), Value(0.5)
y = a + b
for i in range(8):
    y = y * c + a
y.backward()
print(a.grad, b.grad, c.grad)
y
"""


def test_an_op_or_a_rule_set_on_a_node_in_a_generated_block_is_seen_as_set_attr_sees_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `out._op = '+'` and `self._backward = _backward` in a method run past HOT_AFTER
    # were written in place: the later nodes' ops stayed '' and the engine check's row of
    # `*` lost the operand keeping its rule (`kept_on`) and the line that set it.
    generated = trace_source(OP_AND_RULE_SET_LATER)
    ops = {node["op"] for node in generated["nodes"] if node["kind"] != "leaf"}
    assert ops == {"+", "*"}
    row = next(r for r in generated["engine_check"]["rules"] if r["op"] == "*")
    line = OP_AND_RULE_SET_LATER.splitlines()[row["line"] - 1]
    assert (line.strip(), "kept_on" in row["first"]) == ("self._backward = _backward", True)
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    assert generated == trace_source(OP_AND_RULE_SET_LATER)
    assert_same_output(printed_lines(generated), run_in_cpython(OP_AND_RULE_SET_LATER))


NESTED = """
def wrap(t, n):
    return (t, n)

def pair(a, b):
    return (a, b), (b,), ()

t = ()
for n in range(300):
    print(pair(n, n + 1))
    t = wrap(t, n)
print(len(t))
"""


def test_tuples_written_in_place_refuse_the_same_nesting(monkeypatch: pytest.MonkeyPatch) -> None:
    # `(a, b)` is made in place where none of its items is a tuple (`codegen._tuple`);
    # a tuple of tuples is still measured (`check_nesting`): the run stops at the same
    # depth, statement and words as on `in_order`'s loop.
    def traced() -> object:
        try:
            return printed_lines(trace_source(NESTED + TAIL))
        except EngineError as error:
            return (str(error), error.line, error.column)

    generated = traced()
    monkeypatch.setattr(codegen, "HOT_AFTER", 10**9)
    assert generated == traced()
    assert isinstance(generated, tuple) and "deep" in generated[0] and generated[1] == 3
