"""`import unittest` (engine/interpreter/unittest_module.py): the test files that come
with learners' engines run as CPython runs them. Each program runs under CPython itself
(its report, written on stderr, read with what it prints) and in the interpreter (where
the report is printed): the same lines, but for CPython's traceback lines (they name
the file) and its clock; the same passes and leaf gradients."""

from __future__ import annotations

import contextlib
import io
import math
import random
import re
import sys
import types
from typing import Any

import pytest
from micrograd.engine import Value as MicrogradValue

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine import cpython
from tests.engine.cpython import (
    assert_leaves_among,
    assert_same_output,
    leaves_of,
    printed_lines,
    run_in_cpython_with_passes,
)

TAIL = "\nv = Value(1.0)\nv.backward()\n"  # for programs whose tests make no pass


def run_tests_in_cpython(source: str) -> list[str]:
    """What CPython prints and reports (stderr into the same lines, in order), the
    program run as the `__main__` module that `unittest.main()` looks in."""
    random.seed(0)
    out = io.StringIO()
    module = types.ModuleType("__main__")
    module.__dict__["Value"] = MicrogradValue
    saved = sys.modules["__main__"], sys.argv
    sys.modules["__main__"], sys.argv = module, ["program"]
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(out),
            contextlib.suppress(SystemExit),
        ):
            exec(compile(source, "<program>", "exec"), module.__dict__)  # the tests' own
    finally:
        sys.modules["__main__"], sys.argv = saved
    kept: list[str] = []
    for line in out.getvalue().splitlines():
        after_file = bool(kept) and kept[-1].startswith('  File "') and line.startswith("    ")
        if not after_file:  # a source line CPython shows (unittest's own, not the program's)
            kept.append(line)
    kept = [line for line in kept if not _traceback_line(line)]
    return [re.sub(r"^(Ran \d+ tests?) in [\d.]+s$", r"\1 in 0.000s", line) for line in kept]


def _traceback_line(line: str) -> bool:
    return line == "Traceback (most recent call last):" or line.startswith('  File "')


def assert_as_cpython(source: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The same printed lines, passes and leaf gradients as CPython's run."""
    monkeypatch.setattr(cpython, "run_in_cpython", run_tests_in_cpython)
    lines, numbers, outputs = run_in_cpython_with_passes(source)
    trace = trace_source(source, limits=Limits(time_limit=30.0))
    if printed_lines(trace) != lines:  # numbers may differ in the last bits only
        assert_same_output(printed_lines(trace), lines)
    assert len(trace["passes"]) == len(numbers)
    for one, number in zip(trace["passes"], numbers, strict=True):
        assert math.isclose(one["data"], number, rel_tol=1e-9, abs_tol=1e-12)
    ours = sorted(
        (float(node["data"]), float(node["grad"]))
        for node in trace["nodes"]
        if node["kind"] == "leaf"
    )
    theirs = leaves_of(outputs)
    assert_leaves_among(ours, theirs)
    return trace


OWN_VALUE = """
import math
import unittest


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = (math.exp(2 * self.data) - 1) / (math.exp(2 * self.data) + 1)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __repr__(self):
        return f"Value(data={self.data})"

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()


class TestValue(unittest.TestCase):
    def setUp(self):
        self.a = Value(2.0)
        self.b = Value(-3.0)

    def tearDown(self):
        print("tearDown", self._testMethodName)

    def test_add(self):
        c = self.a + self.b
        c.backward()
        self.assertEqual(c.data, -1.0)
        self.assertAlmostEqual(self.a.grad, 1.0)
        self.assertAlmostEqual(self.b.grad, 1.0)

    def test_mul(self):
        c = self.a * self.b
        c.backward()
        print("grads", self.a.grad, self.b.grad)
        self.assertEqual(self.a.grad, -3.0)
        self.assertEqual(self.b.grad, 3.0)  # wrong: it is 2.0

    def test_neuron(self):
        n = (self.a * Value(0.5) + self.b * Value(-1.5) + Value(0.2)).tanh()
        n.backward()
        self.assertAlmostEqual(n.data, 0.99955, places=4)  # wrong: 0.99998
        self.assertAlmostEqual(self.a.grad, 0.0, delta=0.01)
        self.assertGreater(self.b.grad, -0.01)

    def test_raises(self):
        with self.assertRaises(ZeroDivisionError):
            self.a.data / 0
        self.assertRaises(TypeError, lambda: self.a + "x")
        self.assertIsInstance(self.a * 2, Value)
        self.assertIn(self.a, (self.a * self.b)._prev)

    def test_typo(self):
        c = self.a * self.b
        c.backwards()


if __name__ == "__main__":
    unittest.main()
    print("never printed: unittest.main() ends the program")
"""


def test_a_learners_value_and_its_test_file_run_as_in_cpython(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trace = assert_as_cpython(OWN_VALUE, monkeypatch)
    lines = printed_lines(trace)
    assert lines[-1] == "FAILED (failures=2, errors=1)"
    assert "FAIL: test_mul (__main__.TestValue.test_mul)" in lines
    assert "AssertionError: 2.0 != 3.0" in lines
    assert "AttributeError: 'Value' object has no attribute 'backwards'" in lines
    assert len(trace["passes"]) == 3  # test_add, test_mul, test_neuron (test_typo has none)


MICROGRAD = '''
import random
from unittest import TestCase, main

from micrograd.engine import Value
from micrograd.nn import MLP, Neuron


class TestNeuron(TestCase):
    """The nn module."""

    def test_mlp_gradients(self):
        """Every parameter gets a gradient."""
        random.seed(1)
        model = MLP(2, [3, 1])
        loss = (model([Value(1.0), Value(-2.0)]) - 1) ** 2
        loss.backward()
        self.assertEqual(len(model.parameters()), 13)
        self.assertTrue(any(p.grad != 0 for p in model.parameters()))

    def test_neuron_repr(self):
        self.assertEqual(repr(Neuron(3)), "ReLUNeuron(3)")
        self.assertNotEqual(repr(Neuron(3, nonlin=False)), "ReLUNeuron(3)")


class TestEngine(TestCase):
    @classmethod
    def setUpClass(cls):
        print("setUpClass", cls.__name__)

    @classmethod
    def tearDownClass(cls):
        print("tearDownClass", cls.__name__)

    def test_chain(self):
        x = Value(-4.0)
        z = 2 * x + 2 + x
        q = z.relu() + z * x
        h = (z * z).relu()
        y = h + q + q * x
        y.backward()
        self.assertAlmostEqual(x.grad, 46.0)
        self.assertAlmostEqual(y.data, -20.0)

    def test_grad_is_wrong(self):
        """A wrong expectation, to see a failure."""
        x = Value(3.0)
        y = x * x
        y.backward()
        self.assertAlmostEqual(x.grad, 6.0000001, places=8)

    def test_skipped(self):
        self.skipTest("not yet")


result = main(argv=[""], exit=False, verbosity=2)
print(result.result.wasSuccessful(), result.result.testsRun, len(result.result.failures))
'''


def test_micrograds_value_and_nn_in_a_verbose_run_kept_going_after_main(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trace = assert_as_cpython(MICROGRAD, monkeypatch)
    lines = printed_lines(trace)
    assert lines[-1] == "False 5 1"
    assert "A wrong expectation, to see a failure. ... FAIL" in lines
    assert len(trace["passes"]) == 3


MESSAGES = """
import unittest


class Failing(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(3, 4)

    def test_equal_long(self):
        self.assertEqual(10**90 + 1, 10**90 + 2)

    def test_equal_msg(self):
        self.assertEqual(None, 0, "the grad is not reset")

    def test_not_equal(self):
        self.assertNotEqual(2.0, 2)

    def test_true(self):
        self.assertTrue(False)

    def test_false(self):
        self.assertFalse([0])

    def test_is(self):
        self.assertIs(1.0, None)

    def test_is_not(self):
        self.assertIsNot(None, None)

    def test_is_none(self):
        self.assertIsNone(0.5)

    def test_is_not_none(self):
        self.assertIsNotNone(None, msg="no output")

    def test_in(self):
        self.assertIn("tanh", ["relu", "exp"])

    def test_not_in(self):
        self.assertNotIn(2, {1: "a", 2: "b"})

    def test_instance(self):
        self.assertIsInstance(1.0, (int, str))

    def test_almost(self):
        self.assertAlmostEqual(1.0, 2.0)

    def test_almost_places(self):
        self.assertAlmostEqual(0.1 + 0.2, 0.3001, places=5)

    def test_almost_delta(self):
        self.assertAlmostEqual(10, 12.5, delta=0.5)

    def test_almost_both(self):
        self.assertAlmostEqual(1, 2, places=3, delta=1)

    def test_not_almost(self):
        self.assertNotAlmostEqual(1.0, 1.00000001)

    def test_not_almost_delta(self):
        self.assertNotAlmostEqual(1.0, 1.25, delta=0.5)

    def test_greater(self):
        self.assertGreater(1, 2)

    def test_greater_equal(self):
        self.assertGreaterEqual(1, 2)

    def test_less(self):
        self.assertLess(2, 1)

    def test_less_equal(self):
        self.assertLessEqual(2.5, 1)

    def test_raises(self):
        with self.assertRaises(ValueError):
            pass

    def test_raises_called(self):
        def fine():
            return 1
        self.assertRaises(KeyError, fine)

    def test_raises_other(self):
        with self.assertRaises(KeyError):
            [][1]

    def test_raises_tuple(self):
        with self.assertRaises((KeyError, IndexError)) as cm:
            [][1]
        print(type(cm.exception).__name__, cm.exception)
        self.assertRaises((KeyError, IndexError), lambda: 0)

    def test_fail(self):
        self.fail("by hand")

    def test_fail_bare(self):
        self.fail()

    def test_setup_error(self):
        raise RuntimeError


class Broken(unittest.TestCase):
    def setUp(self):
        {}["missing"]

    def test_never_runs(self):
        print("not printed")


unittest.main(exit=False)
"""


def test_each_failing_assert_says_what_cpythons_says(monkeypatch: pytest.MonkeyPatch) -> None:
    trace = assert_as_cpython(MESSAGES + TAIL, monkeypatch)
    assert printed_lines(trace)[-1] == "FAILED (failures=27, errors=4)"


ORDER = """
import unittest

log = []


class TestZ(unittest.TestCase):
    def test_b(self):
        log.append("Z.b")

    def test_a(self):
        log.append("Z.a")


class TestA(unittest.TestCase):
    def setUp(self):
        self.x = Value(3.0)

    def test_2(self):
        (self.x * self.x).backward()
        log.append(("A.2", self.x.grad))

    def test_10(self):
        log.append("A.10")

    def helper(self):
        log.append("never")


class Quiet(unittest.TestCase):
    def not_a_test(self):
        log.append("never")


Alias = TestZ
unittest.main(verbosity=0, exit=False)
print(log)
r = unittest.main(verbosity=1, exit=False)
print(r.result.testsRun)
unittest.main()
print("not here")
"""


def test_classes_and_tests_run_in_cpythons_order_and_an_alias_runs_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trace = assert_as_cpython(ORDER, monkeypatch)
    assert "['Z.a', 'Z.b', 'A.10', ('A.2', 6.0), 'Z.a', 'Z.b']" in printed_lines(trace)
    assert printed_lines(trace)[-1] == "OK"


def test_a_program_that_only_defines_tests_runs_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        1 / 0\n"
    assert_as_cpython(source + TAIL, monkeypatch)
    assert_as_cpython(source + "T('test_a').test_a = None\nprint(T('test_a'))" + TAIL, monkeypatch)


def test_assert_raises_beside_a_programs_own_manager_in_one_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `with` is the protocol of any of the program's objects now (contextlib_module.py):
    # `with A, B:` enters A first, so B's exception reaches A's `__exit__`.
    assert_as_cpython(
        "import unittest\n"
        "class Log:\n    seen = []\n    def __enter__(self):\n        Log.seen.append('in')\n"
        "    def __exit__(self, *info):\n        Log.seen.append(info[0].__name__)\n"
        "class T(unittest.TestCase):\n"
        "    def test_a(self):\n        with self.assertRaises(ValueError), Log():\n"
        "            raise ValueError('no')\n"
        "    def test_b(self):\n        with self.assertRaises(KeyError) as cm, Log():\n"
        "            raise ValueError('other')\n"
        "unittest.main(exit=False)\nprint(Log.seen)\n" + TAIL,
        monkeypatch,
    )
    with pytest.raises(EngineError, match="`open` is not available here"):
        trace_source("with open('f') as f:\n    pass\n" + TAIL)


# Hostile: a bound inside a test ends the run, never a test's error; nothing of the
# interpreter's own objects reaches the program.

BOUNDED = [
    ("        while True:\n            pass\n", "too many steps"),
    ("        def f(n):\n            return f(n + 1)\n        f(0)\n", "nested too deeply"),
    ("        x = [0] * 10**8\n", "containers here stay within"),
    ("        s = 'ab' * 10**9\n", "strings here stay within"),
    ("        x = []\n        for i in range(10**6):\n            x.append(Value(i))\n", "nodes"),
]


# A roomy clock: a loaded machine must not stop first what the step bound must stop.
ROOMY = Limits(time_limit=60.0)


@pytest.mark.parametrize(("body", "words"), BOUNDED)
def test_a_bound_inside_a_test_ends_the_run_and_is_no_test_error(body: str, words: str) -> None:
    source = (
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        f"{body}\n    def test_b(self):\n        print('test_b ran')\n"
        "unittest.main(exit=False)\nprint('after')\n" + TAIL
    )
    with pytest.raises(EngineError, match=words) as caught:
        trace_source(source, limits=ROOMY)
    assert "in test_a()" in caught.value.message


def test_a_test_that_loops_forever_is_stopped_by_the_clock() -> None:
    source = (
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        "        while True:\n            pass\nunittest.main()\n" + TAIL
    )
    # A second, not 0.3 s: compiling the library's unittest module, before the first step,
    # took more than 0.3 s on a loaded machine (the clock stopped it while reading).
    with pytest.raises(EngineError, match="ran for too long"):
        trace_source(source, limits=Limits(max_steps=10**12, time_limit=1.0))


def test_a_bound_in_setup_or_a_class_fixture_ends_the_run_too() -> None:
    for method in ("setUp", "tearDown", "setUpClass"):
        decorator = "    @classmethod\n" if method == "setUpClass" else ""
        source = (
            f"import unittest\nclass T(unittest.TestCase):\n{decorator}    def {method}(self):\n"
            "        while True:\n            pass\n    def test_a(self):\n        pass\n"
            "unittest.main()\n" + TAIL
        )
        with pytest.raises(EngineError, match="too many steps"):
            trace_source(source, limits=ROOMY)


LEAKS = [
    "from unittest import _main_tests",
    "from unittest import _exit",
    "import unittest\nunittest._main_tests",
    "import unittest\nunittest._exit()",
    "import unittest\nunittest.main.__globals__",
    # its classes' `__dict__` is a view as any class's (CPython's too), past it nothing
    "import unittest\nunittest.TestCase.__dict__['__init__'].__globals__",
    "import unittest\nunittest.TestLoader.__dict__['getTestCaseNames'].__code__",
    "import unittest\nunittest.TestCase('x').__dict__",
    "from unittest import mock",
    "import unittest.mock",
]


@pytest.mark.parametrize("source", LEAKS)
def test_nothing_of_the_interpreter_is_reachable_through_unittest(source: str) -> None:
    with pytest.raises(EngineError):
        trace_source(source + "\n" + TAIL)


def test_what_a_test_case_shows_is_the_programs_own() -> None:
    source = """
import unittest
class T(unittest.TestCase):
    def test_a(self):
        print(str(self), repr(self), self.id(), self.shortDescription())
        print(self.failureException, self.longMessage, type(self).__name__)
        print(type(self._testMethodName).__name__)
        try:
            self.assertEqual(Value(1.0), 2)
        except AssertionError as e:
            print(type(e).__name__, e.args)
unittest.main(exit=False)
"""
    lines = printed_lines(trace_source(source + TAIL))
    assert lines[:4] == [
        "test_a (__main__.T.test_a) <__main__.T testMethod=test_a> __main__.T.test_a None",
        "<class 'AssertionError'> True T",
        "str",
        "AssertionError ('Value(data=1.0, grad=0) != 2',)",
    ]


def test_a_test_case_of_a_missing_method_and_an_import_in_try_are_cpythons_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = """
import unittest
try:
    from unittest import mock
except ImportError as e:
    print(type(e).__name__)
class T(unittest.TestCase):
    def test_a(self):
        self.assertEqual(10**300 + 1, 10**300 + 2)
    def test_b(self):
        self.assertNotEqual('y' * 90, 'y' * 90)
try:
    T('test_c')
except ValueError as e:
    print(e)
print(T('test_a'), T())
unittest.main(exit=False)
"""
    trace = assert_as_cpython(source.replace("mock", "no_such_name") + TAIL, monkeypatch)
    assert "no such test method in <class '__main__.T'>: test_c" in printed_lines(trace)
    assert printed_lines(trace_source(source + TAIL))[0] == "ImportError"


NOTEBOOK = """
import unittest
from micrograd.engine import Value


class TestGrad(unittest.TestCase):
    def test_square(self):
        '''x * x.'''
        x = Value(3.0)
        (x * x).backward()
        self.assertEqual(x.grad, 6.0)

    def test_relu(self):
        x = Value(-1.0)
        x.relu().backward()
        self.assertEqual(x.grad, 1.0)


class TestBroken(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("no data")

    def test_never(self):
        print("not printed")


loader = unittest.TestLoader()
print(loader.getTestCaseNames(TestGrad))
suite = loader.loadTestsFromTestCase(TestGrad)
print(suite.countTestCases())
result = unittest.TextTestRunner(verbosity=2).run(suite)
print(result.wasSuccessful(), result.testsRun, len(result.failures), len(result.errors))
both = unittest.TestSuite()
both.addTest(TestGrad("test_square"))
both.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(TestBroken))
unittest.TextTestRunner().run(both)
unittest.main(argv=["first-arg-is-ignored"], exit=False)
"""


def test_a_notebooks_loader_suite_and_runner_run_as_cpythons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trace = assert_as_cpython(NOTEBOOK, monkeypatch)
    lines = printed_lines(trace)
    assert "ERROR: setUpClass (__main__.TestBroken)" in lines
    assert "False 2 1 0" in lines
    assert len(trace["passes"]) == 5


def test_assert_raises_checks_its_arguments_as_cpythons(monkeypatch: pytest.MonkeyPatch) -> None:
    source = """
import unittest
class T(unittest.TestCase):
    def test_not_a_class(self):
        self.assertRaises(3, print)
    def test_a_plain_class(self):
        with self.assertRaises(int):
            pass
    def test_bad_keyword(self):
        with self.assertRaises(ValueError, colour=1):
            pass
    def test_msg_goes_to_the_function(self):
        def f(msg):
            raise KeyError(msg)
        self.assertRaises(KeyError, f, msg="m")
    def test_msg_of_the_context(self):
        with self.assertRaises(KeyError, msg="no key"):
            pass
    def test_returns_none(self):
        print(self.assertRaises(KeyError, {}.pop, 1))
unittest.main(exit=False)
"""
    assert_as_cpython(source + TAIL, monkeypatch)


def test_looking_for_test_names_costs_steps_for_every_name_looked_at() -> None:
    # A class given 20,000 attributes by `setattr`: each look for its test names reads
    # them all, so a loop of such looks ends at the step bound, not the clock.
    source = (
        "import unittest\nclass T(unittest.TestCase):\n    pass\n"
        "for i in range(20000):\n    setattr(T, 'x' + str(i), i)\n"
        "for j in range(2000):\n    unittest.TestLoader().getTestCaseNames(T)\n" + TAIL
    )
    with pytest.raises(EngineError, match="too many steps"):
        trace_source(source, limits=Limits(max_steps=1_000_000, time_limit=60.0))


def test_unittest_main_inside_a_programs_own_backward_ends_the_pass_then_the_program() -> None:
    # Its `exit=True` ends the program in the middle of a pass: the pass is closed as one
    # the program's exception ended (it was an internal error: the pass left open).
    source = """
import unittest
class V:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
    def __mul__(self, other):
        out = V(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
            if STOP:
                unittest.main()
        out._backward = _backward
        return out
    def backward(self):
        topo = []
        def build(v):
            if v not in topo:
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
a = V(2.0)
b = V(3.0)
STOP = False
(a * b).backward()
print('one')
STOP = True
(a * b).backward()
print('never')
"""
    trace = trace_source(source)
    assert len(trace["passes"]) == 2
    assert printed_lines(trace) == run_tests_in_cpython(source)


SUBTESTS = """
import unittest


class Value:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        self.grad = 1.0
        for node in [self, *self._prev]:
            node._backward()


class TestSquares(unittest.TestCase):
    def test_all_pass(self):
        for x in [1.0, 2.0]:
            with self.subTest(x=x):
                a = Value(x)
                (a * a).backward()
                self.assertEqual(a.grad, 2 * x)

    def test_some_fail(self):
        "Squares, one of them wrong."
        for x in [1.0, 3.0, 4.0]:
            with self.subTest("square", x=x, twice=2 * x):
                self.assertLess(x, 3.5)
        with self.subTest():
            raise KeyError("k")
        print("still running")

    def test_skip_in_a_subtest(self):
        with self.subTest(n=1):
            self.skipTest("not today")
        with self.subTest("only a message"):
            pass


unittest.main(exit=False)
unittest.main(exit=False, verbosity=2)
TestSquares().test_all_pass()  # no runner: subTest is a plain context manager
try:
    TestSquares().test_some_fail()
except AssertionError as error:
    print("through:", error)
"""


def test_subtests_report_each_failure_and_the_test_goes_on_as_in_cpython(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trace = assert_as_cpython(SUBTESTS, monkeypatch)
    lines = printed_lines(trace)
    failed = "FAIL: test_some_fail (__main__.TestSquares.test_some_fail) "
    failed += "[square] (x=4.0, twice=8.0)"
    assert failed in lines
    assert "ERROR: test_some_fail (__main__.TestSquares.test_some_fail) (<subtest>)" in lines
    # a failed subtest does not end its test (in the dots run, printed after `.sFE`)
    assert sum(line.endswith("still running") for line in lines) == 2
    assert "through: 4.0 not less than 3.5" in lines


def test_micrograds_engine_and_nn_import_as_modules_as_cpythons() -> None:
    source = (
        "import random\nimport micrograd.engine as mg\nimport micrograd.engine\n"
        "import micrograd.nn as mnn\nrandom.seed(1)\n"
        "a = mg.Value(2.0)\nb = micrograd.engine.Value(-3.0)\nc = a * b + a\nc.backward()\n"
        "n = mnn.Neuron(2)\ny = n([a, b])\ny.backward()\n"
        "print(c.data, a.grad, b.grad, y.data, type(a) is micrograd.engine.Value)\n"
    )
    assert printed_lines(trace_source(source)) == run_in_cpython_with_passes(source)[0]
    # `import micrograd.nn` binds the package, holding `nn` and the `engine` it imports
    package = "import micrograd.nn\nv = micrograd.engine.Value(2.0)\n(v * v).backward()\n"
    assert printed_lines(trace_source(package + "print(v.grad)\n")) == ["4.0"]
    with pytest.raises(EngineError, match=r"module 'micrograd\.engine' has no attribute 'os'"):
        trace_source("import micrograd.engine as mg\nprint(mg.os)\n" + TAIL)
    with pytest.raises(EngineError):  # nothing of the interpreter behind the module
        trace_source("import micrograd.engine as mg\nprint(mg.__dict__)\n" + TAIL)


SKIPS = """
import unittest


class Value:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        self.grad = 1.0
        self._backward()


HAS_TORCH = False


class TestValue(unittest.TestCase):
    def setUp(self):
        print("setUp", self._testMethodName)

    def test_mul(self):
        a, b = Value(2.0), Value(-3.0)
        (a * b).backward()
        self.assertEqual(a.grad, -3.0)

    @unittest.skip("not yet")
    def test_skipped(self):
        print("never")

    @unittest.skip
    def test_skipped_bare(self):
        print("never")

    @unittest.skipIf(not HAS_TORCH, "torch is not installed")
    def test_against_torch(self):
        import torch

    @unittest.skipUnless(HAS_TORCH, "needs torch")
    def test_against_torch_again(self):
        import torch

    @unittest.skipIf(False, "runs")
    def test_not_skipped(self):
        self.assertTrue(True)

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(Value(1.0).grad, 1.0)

    @unittest.expectedFailure
    def test_fixed_bug(self):
        self.assertEqual(Value(1.0).grad, 0.0)

    def test_skip_inside(self):
        self.skipTest("skipped from inside")


@unittest.skip("the whole class")
class TestLater(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print("never set up")

    def test_a(self):
        print("never")


class TestLaterStill(TestLater):
    def test_b(self):
        print("never")


try:
    TestValue("test_skipped").test_skipped()
except unittest.SkipTest as error:
    print("direct call:", error)
print(TestValue.test_skipped.__name__)
unittest.main(exit=False)
unittest.main(verbosity=2, exit=False)
"""


def test_skip_decorators_and_expected_failures_run_as_cpythons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `skip`, `skipIf`, `skipUnless` (a test of a learner's engine against torch, where
    # torch is missing), `expectedFailure` (a known bug, then one fixed: an unexpected
    # success fails the run), a skipped class and its subclass: no setUp or fixture runs
    # for a skipped test, and a skipped method called directly raises SkipTest.
    lines = printed_lines(assert_as_cpython(SKIPS + TAIL, monkeypatch))
    assert "FAILED (skipped=8, expected failures=1, unexpected successes=1)" in lines
    assert "UNEXPECTED SUCCESS: test_fixed_bug (__main__.TestValue.test_fixed_bug)" in lines
    assert "never" not in lines


EXPECTED_SUBTESTS = """
import sys
import unittest


class TestValue(unittest.TestCase):
    @unittest.expectedFailure
    def test_known_bug_in_a_subtest(self):
        for i in range(3):
            with self.subTest(i=i):
                print("subtest", i)
                self.assertLess(i, 1)
        print("never: the expected failure ends the test")

    @unittest.expectedFailure
    def test_skipped_subtest(self):
        with self.subTest(i=1):
            self.skipTest("skipped inside")
        print("on after the skipped subtest")

    @unittest.expectedFailure
    def test_passing_subtests(self):
        with self.subTest(i=1):
            pass

    def test_exits(self):
        exit(3)

    def test_exits_through_sys(self):
        sys.exit()

    def test_fine(self):
        pass


result = unittest.TextTestRunner(verbosity=2).run(
    unittest.TestLoader().loadTestsFromTestCase(TestValue)
)
print(len(result.expectedFailures), result.expectedFailures[0][1].splitlines()[-1])
print(len(result.unexpectedSuccesses), result.wasSuccessful(), result.testsRun)
unittest.main(exit=False)
print("the run went on")
"""


def test_expected_failures_of_subtests_and_a_tests_exit_are_cpythons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A failing subtest of an `expectedFailure` test is its expected failure and stops it
    # (CPython's `_ShouldStop`; it was a FAIL of the subtest); `exit()` or `sys.exit()` in
    # a test is its error, as CPython's runner catches every exception (it ended the
    # program); the result's `expectedFailures` and `unexpectedSuccesses` are CPython's.
    lines = printed_lines(assert_as_cpython(EXPECTED_SUBTESTS + TAIL, monkeypatch))
    assert "SystemExit: 3" in lines
    assert "the run went on" in lines
    assert "never: the expected failure ends the test" not in lines


def test_a_test_file_whose_tests_make_no_pass_runs_and_shows_its_last_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tests of the forward pass alone, and of a gradient set by hand: refused before
    # ("the program has no result ... call .backward()") where CPython runs them.
    forward = OWN_VALUE[: OWN_VALUE.index("class TestValue")] + (
        "class TestForward(unittest.TestCase):\n"
        "    def test_mul(self):\n"
        "        self.assertEqual((Value(2.0) * Value(-3.0)).data, -6.0)\n"
        "    def test_by_hand(self):\n"
        "        a, b = Value(2.0), Value(-3.0)\n"
        "        c = a * b\n"
        "        c.grad = 1.0\n"
        "        a.grad = b.data * c.grad\n"
        "        self.assertEqual(a.grad, -3.0)\n"
        "unittest.main(exit=False)\n"
    )
    monkeypatch.setattr(cpython, "run_in_cpython", run_tests_in_cpython)
    lines, numbers, _ = run_in_cpython_with_passes(forward)
    trace = trace_source(forward)
    assert printed_lines(trace) == lines and lines[-1] == "OK" and numbers == []
    (only,) = trace["passes"]
    assert only["topo"] == [] and only["data"] == -6.0
    sort = next(f for f in trace["frames"] if f["phase"] == "sort")
    assert sort["text"].startswith("No backward() here, nor a node's rule")
