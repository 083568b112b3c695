"""Generators with `yield` inside `try`, `yield` as a value, and `send`, `throw` and
`close` print what CPython prints; every bound still holds, no Python object or
traceback of the host reaches the program; and a `while` loop a bound stops says so.

Each program runs under CPython (with micrograd's `Value`) and under the interpreter,
and the printed lines are compared (`tests.engine.cpython`).
"""

from __future__ import annotations

import gc
import sys

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

TAIL = "\nv = Value(1.0)\nv.backward()\n"  # every trace needs a Value to end with
SMALL = Limits(max_steps=20_000)

PROGRAMS = {
    "finally runs when the generator is exhausted": """
def g():
    try:
        yield 1
        yield 2
    finally:
        print("finally")
for x in g():
    print(x)
print(list(g()), sum(g()))
""",
    "break out of a for, then close(): the finally runs at close": """
def g():
    try:
        for i in range(10):
            yield i
    finally:
        print("closed at", i)
it = g()
for x in it:
    print(x)
    if x == 2:
        break
print("before close")
it.close()
print("after close")
it.close()
print(list(it))
""",
    "close() of a generator not started or finished runs nothing": """
def g():
    try:
        yield 1
    finally:
        print("finally")
a = g()
a.close()
print(list(a))
b = g()
print(list(b))
b.close()
""",
    "send() into an accumulator": """
def running_total():
    total = 0
    count = 0
    while True:
        x = yield total
        if x is None:
            break
        total += x
        count += 1
    print("count", count)
acc = running_total()
print(next(acc))
print(acc.send(3))
print(acc.send(4.5))
try:
    acc.send(None)
except StopIteration:
    print("done")
try:
    next(acc)
except StopIteration:
    print("still done")
""",
    "a bare yield is None, or what is sent": """
def echo():
    seen = []
    while len(seen) < 3:
        x = yield
        seen.append(x)
    print(seen)
e = echo()
print(next(e))
print(e.send("a"))
print(next(e))
try:
    e.send(2)
except StopIteration:
    print("stop")
""",
    "throw() caught inside the generator": """
class Reset(Exception):
    pass
def counter():
    n = 0
    while True:
        try:
            yield n
            n += 1
        except Reset as e:
            print("reset", e.args)
            n = 0
c = counter()
print(next(c), next(c), next(c))
print(c.throw(Reset("now")))
print(next(c))
print(c.throw(Reset))
""",
    "throw() not caught: it comes out, after the finally": """
def g():
    try:
        yield 1
        print("not reached")
    finally:
        print("finally")
x = g()
next(x)
try:
    x.throw(ValueError("bad"))
except ValueError as e:
    print("out:", e)
print(list(x))
y = g()
try:
    y.throw(KeyError("early"))
except KeyError as e:
    print("early:", repr(e))
print(list(y))
""",
    "a finally that yields on close is CPython's RuntimeError": """
def g():
    try:
        yield 1
    finally:
        print("cleaning")
        yield 2
x = g()
next(x)
try:
    x.close()
except RuntimeError as e:
    print("RuntimeError:", e)
""",
    "GeneratorExit is caught as CPython catches it": """
def g():
    try:
        yield 1
    except GeneratorExit:
        print("exit")
        raise
def h():
    try:
        yield 1
    except Exception:
        print("never: GeneratorExit is no Exception")
    finally:
        print("h finally")
def k():
    try:
        yield 1
    except BaseException as e:
        print("caught", type(e).__name__)
for make in (g, h, k):
    it = make()
    next(it)
    it.close()
    print(make.__name__, "closed")
""",
    "yield in except and else clauses": """
def g(fail):
    try:
        yield "body"
        if fail:
            raise ValueError("x")
    except ValueError as e:
        yield "except " + str(e)
        yield "except again"
    else:
        yield "else"
    finally:
        yield "finally"
print(list(g(True)))
print(list(g(False)))
""",
    "nested try in a generator": """
def g():
    try:
        try:
            yield 1
            raise KeyError("k")
        except KeyError:
            yield 2
            raise ValueError("v")
        finally:
            yield 3
    except ValueError as e:
        yield "outer " + str(e)
    finally:
        print("outer finally")
print(list(g()))
it = g()
print(next(it), next(it))
try:
    it.close()
except RuntimeError as e:
    print("the inner finally yields:", e)
try:
    next(it)
except GeneratorExit:
    print("the GeneratorExit comes out at last")
""",
    "return in a finally drops the exception": """
def g():
    try:
        yield 1
        raise ValueError("dropped")
    finally:
        return
print(list(g()))
""",
    "yield from delegates send, throw and close": """
def inner():
    try:
        x = yield "first"
        print("inner got", x)
        while True:
            try:
                x = yield x
            except KeyError:
                print("inner caught")
                x = "recovered"
    finally:
        print("inner finally")
def outer():
    try:
        result = yield from inner()
        print("result", result)
    finally:
        print("outer finally")
o = outer()
print(next(o))
print(o.send("hello"))
print(o.throw(KeyError))
o.close()
def sub():
    yield 1
    return "value"
def delegator():
    r = yield from sub()
    print("returned", r)
    yield from [2, 3]
print(list(delegator()))
""",
    "an exception is handled apart from the consumer's": """
def g():
    try:
        raise ValueError("inside")
    except ValueError:
        yield 1
        yield 2
        raise
it = g()
print(next(it))
try:
    raise KeyError("outside")
except KeyError:
    print(next(it))
    try:
        next(it)
    except ValueError as e:
        print("reraised", e)
""",
    "a generator of Values builds a loss that is backward()-ed": """
ws = [Value(0.5), Value(-1.5), Value(2.0)]
def squares(values):
    try:
        for w in values:
            yield w * w
    finally:
        print("all squared")
def scaled():
    factor = yield
    while True:
        w = yield
        if w is None:
            break
        factor = factor * 2
    print("factor", factor)
loss = sum(squares(ws))
loss.backward()
print(loss.data, [w.grad for w in ws])
s = scaled()
next(s)
s.send(Value(1.0))
s.send(ws[0])
try:
    s.send(None)
except StopIteration:
    pass
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_generator_program_prints_what_cpython_prints(name: str) -> None:
    source = PROGRAMS[name]
    ours = printed_lines(trace_source(source + TAIL))
    assert_same_output(ours, run_in_cpython(source))


def run(source: str, limits: Limits | None = None) -> list[str]:
    return printed_lines(trace_source(source + TAIL, limits=limits))


def error_of(source: str, limits: Limits | None = None) -> EngineError:
    with pytest.raises(EngineError) as caught:
        run(source, limits)
    return caught.value


def test_an_uncaught_throw_is_cpythons_message_at_the_yield_with_the_call_chain() -> None:
    source = (
        "def g():\n    try:\n        yield 1\n    finally:\n        pass\n"
        "x = g()\nnext(x)\nx.throw(ValueError('no'))\n"
    )
    error = error_of(source)
    assert error.message == "ValueError: no (in g(), called from line 8)"
    assert (error.line, error.column) == (3, 9)


def test_a_finally_that_yields_on_close_is_a_program_error_at_the_close() -> None:
    source = (
        "def g():\n    try:\n        yield 1\n    finally:\n        yield 2\n"
        "x = g()\nnext(x)\nx.close()\n"
    )
    error = error_of(source)
    assert error.message == "RuntimeError: generator ignored GeneratorExit"
    assert error.line == 8


@pytest.mark.parametrize(
    "source",
    [
        # yields forever inside a try, read by list()
        (
            "def g():\n    try:\n        while True:\n            yield 1\n"
            "    finally:\n        print('f')\nxs = list(g())\n"
        ),
        # a finally that loops forever on close
        (
            "def g():\n    try:\n        yield 1\n    finally:\n"
            "        while True:\n            pass\nx = g()\nnext(x)\nx.close()\n"
        ),
        # an except that swallows every throw, thrown into forever
        (
            "def g():\n    while True:\n        try:\n            yield 1\n"
            "        except ValueError:\n            pass\nx = g()\nnext(x)\n"
            "while True:\n    x.throw(ValueError)\n"
        ),
        # send() forever
        (
            "def g():\n    while True:\n        x = yield\nx = g()\nnext(x)\n"
            "while True:\n    x.send(1)\n"
        ),
    ],
    ids=["yield-forever", "finally-forever", "throw-forever", "send-forever"],
)
def test_a_generator_that_never_ends_inside_a_try_stops_at_the_step_limit(source: str) -> None:
    error = error_of(source, SMALL)
    assert "BACKPROP_MAX_STEPS" in error.message
    assert error.line is not None


def test_a_finally_never_outlives_a_bound() -> None:
    # A bound is caught by nothing: no finally runs past it, in a generator as anywhere.
    source = (
        "def g():\n    try:\n        while True:\n            yield 1\n"
        "    finally:\n        print('never printed')\nfor x in g():\n    pass\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        run(source, SMALL)


def test_generators_nested_with_try_stop_at_the_call_depth() -> None:
    source = (
        "def walk(n):\n    try:\n        yield n\n        yield from walk(n + 1)\n"
        "    finally:\n        pass\nfor x in walk(0):\n    pass\n"
    )
    with pytest.raises(EngineError, match="BACKPROP_MAX_CALL_DEPTH"):
        run(source, Limits(max_call_depth=50))


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("def g():\n    yield 1\nx = g()\nx.throw('a')\n", "deriving from BaseException"),
        ("def g():\n    yield 1\nx = g()\nx.throw(int)\n", "deriving from BaseException"),
        ("def g():\n    yield 1\nx = g()\nx.throw(ValueError, 1)\n", "throw() takes one"),
        ("def g():\n    yield 1\nx = g()\nx.send(1)\n", "just-started generator"),
        ("def g():\n    yield 1\nx = g()\nx.send()\n", "send() takes exactly one"),
        ("def g():\n    yield 1\nx = g()\nx.close(1)\n", "close() takes no arguments"),
        ("def g():\n    yield x.send(None)\nx = g()\nnext(x)\n", "already executing"),
        ("def g():\n    x.close()\n    yield 1\nx = g()\nnext(x)\n", "already executing"),
        ("def g():\n    print((yield 1))\n", "larger expression"),
        ("def g():\n    t = [0]\n    t[0] += yield 1\n", "updates a name here"),
        ("def g():\n    while (yield 1):\n        pass\n", "larger expression"),
        ("def g():\n    yield 1\ny = g().gi_frame\n", "no attribute"),
        ("def g():\n    yield 1\ny = g().throw.__self__\n", "dunder"),
        ("y = (i for i in [1]).throw\n", "no attribute 'throw'"),
    ],
)
def test_a_misused_generator_is_a_clean_error(source: str, words: str) -> None:
    error = error_of(source)
    assert words in error.message
    assert error.line is not None


def test_the_sent_and_thrown_errors_are_the_programs_own_classes() -> None:
    source = (
        "def g():\n    yield 1\nx = g()\n"
        "for attempt in ('send', 'throw', 'already'):\n"
        "    try:\n"
        "        if attempt == 'send':\n            x.send(2)\n"
        "        elif attempt == 'throw':\n            x.throw(3)\n"
        "    except TypeError as e:\n        print(type(e).__name__, e.args)\n"
    )
    assert run(source) == [
        'TypeError ("can\'t send non-None value to a just-started generator",)',
        "TypeError ('exceptions must be classes or instances deriving from BaseException, "
        "not an int',)",
    ]


def test_a_generator_dropped_unfinished_runs_no_code_when_freed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # CPython runs the finally when the generator is freed; here it runs only on close()
    # or at the end (docs/LANGUAGE.md): no program code runs while Python collects, during
    # the run or after it (`kept` outlives the trace).
    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    source = (
        "def g():\n    try:\n        yield 1\n    finally:\n        print('finally')\n"
        "        while True:\n            pass\n"
        "x = g()\nnext(x)\nx = None\nprint('end')\nkept = g()\nnext(kept)\n"
        "for y in g():\n    break\n"
    )
    assert run(source, SMALL) == ["end"]
    gc.collect()
    assert unraisable == []


# The while loop a bound stops says so (issue 23).


def test_an_endless_while_true_says_it_has_no_break() -> None:
    error = error_of("x = Value(1.0)\nwhile True:\n    x = x + 1\n")
    assert error.message == (
        "the graph has too many nodes (the limit is 20,000; set BACKPROP_MAX_NODES to change "
        "it) — the while True: loop at line 2 has no break, so it never ends"
    )
    assert (error.line, error.column) == (3, 9)


def test_a_while_whose_condition_stays_true_says_how_often_it_ran() -> None:
    error = error_of("n = 0\nwhile n >= 0:\n    n += 1\n", SMALL)
    assert error.message == (
        "the program ran too many steps (the limit is 20,000; set BACKPROP_MAX_STEPS to "
        "change it) — the while loop at line 2 has run 10,000 times: does its condition "
        "ever become false?"
    )
    assert error.line == 2


def test_a_while_true_with_a_break_asks_whether_it_is_reached() -> None:
    source = "n = 0\nwhile 1:\n    n += 1\n    if n < 0:\n        break\n"
    error = error_of(source, SMALL)
    assert error.message.endswith(
        "the while 1: loop at line 2 has run 6,667 times: does it ever reach its break or return?"
    )


def test_the_hint_names_the_innermost_loop_that_ran_long_and_follows_the_call_chain() -> None:
    source = "def f():\n    while True:\n        pass\nn = 0\nwhile n < 2:\n    n += 1\n    f()\n"
    error = error_of(source, SMALL)
    assert error.message.endswith(
        "(in f(), called from line 7) — the while True: loop at line 2 has no break, so it "
        "never ends"
    )
    nested = "while True:\n    m = 0\n    while m < 3:\n        m += 1\n"
    assert error_of(nested, SMALL).message.endswith(
        "the while True: loop at line 1 has no break, so it never ends"
    )
    # A break of a nested loop is not the outer loop's; its `else` is.
    inner_break = "while True:\n    for i in range(3):\n        break\n"
    assert "has no break" in error_of(inner_break, SMALL).message
    else_break = (
        "while True:\n    for i in range(3):\n        pass\n    else:\n"
        "        x = 1\n        if x > 1:\n            break\n"
    )
    assert "reach its break" in error_of(else_break, SMALL).message


def test_a_loop_that_ran_few_times_or_another_bound_gets_no_hint() -> None:
    few = "n = 0\nwhile n < 5:\n    n += 1\n    s = 'x' * (10 ** 6)\n"
    assert "while" not in error_of(few).message
    deep = "def f(n):\n    return f(n + 1)\nwhile True:\n    f(0)\n"
    assert "while" not in error_of(deep).message
    caught = (
        "while True:\n    try:\n        x = 1 / 0\n"
        "    except ZeroDivisionError:\n        raise ValueError('v')\n"
    )
    assert error_of(caught).message == "ValueError: v"


def test_a_generators_endless_while_gets_the_hint_too() -> None:
    source = (
        "def g():\n    n = 0\n    while True:\n        n += 1\n        if n < 0:\n"
        "            yield n\nprint(next(g()))\n"
    )
    error = error_of(source, SMALL)
    assert error.message.endswith("the while True: loop at line 3 has no break, so it never ends")
