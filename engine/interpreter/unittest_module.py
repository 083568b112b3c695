"""`unittest` as the interpreter runs it: the test files that come with learners'
engines (`class TestValue(unittest.TestCase)` ... `unittest.main()`) run here, their
test methods traced as any code of the program (a `.backward()` in a test is a pass).

The source below is in the interpreter's own language, compiled in library mode when a
program imports `unittest` (`Compiler.library_module`), so its statements keep the
learner's positions. Its asserts fail with CPython's words (`unittest/case.py`, 3.11),
`main()` finds the program's `TestCase` classes as CPython's loader does (by name, then
their `test*` methods by name) and writes CPython's report: the interpreter has no
stderr, so the report is printed, where a learner reads it. So does
`TextTestRunner(verbosity=2).run(TestLoader().loadTestsFromTestCase(T))`, as notebooks
run tests. Left out: the traceback lines of a failure (CPython's name the learner's
file), the diffs CPython adds for unequal lists, dicts and strings, `mock`. The `skip`,
`skipIf`, `skipUnless` and `expectedFailure` decorators are CPython's (a skipped test's
`setUp` and a skipped class's fixtures do not run; a skipped method called directly
raises SkipTest). `subTest` is CPython's: run by the runner, a failing subtest is
reported as a failure of its own (`test_x (__main__.T.test_x) (graph=1)`) and the test
goes on; called outside a runner (`T().test_x()`, as pytest-style calls make), the
error goes through, as CPython's does when it has no result to report to.

The native pieces (`native_names`): the program's module-level classes that are
`TestCase`s, in `dir()` order, a class's test method names, a method's docstring (the
interpreter keeps none), and `_exit`, which ends the program as `sys.exit()` would
(`ProgramExit`).
"""

from __future__ import annotations

import ast
from typing import Any

from backprop_animator.engine.interpreter.objects import Builtin, Function, PClass
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    ProgramExit,
    State,
)


def native_names(state: State, globals_: dict[str, Any], tree: ast.Module | None) -> dict[str, Any]:
    """The native helpers of the unittest source, over the program's own globals: its
    module's `TestCase` classes in `dir()` order, a class's test method names, the first
    line of a function's docstring, and the end of the program. The first two cost a
    step per ten names they look at (a class may be given thousands by `setattr`)."""
    docs: list[dict[int, str]] = []

    def main_classes(args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        base = args[0]
        state.charge(len(globals_) // ITEMS_PER_STEP)
        values = [globals_[name] for name in sorted(globals_)]
        return [value for value in values if type(value) is PClass and base in value.mro]

    def names(args: list[Any], kwargs: dict[str, Any]) -> list[str]:
        if type(args[0]) is not PClass:
            return []
        state.charge(sum(len(one.namespace) for one in args[0].mro) // ITEMS_PER_STEP)
        return test_names(args[0])

    def first_line(args: list[Any], kwargs: dict[str, Any]) -> str | None:
        if not docs:
            docs.append(first_doc_lines(tree))
        function = args[0]
        return docs[0].get(function.span[0]) if type(function) is Function else None

    def end(args: list[Any], kwargs: dict[str, Any]) -> None:
        raise ProgramExit

    return {
        "_main_classes": Builtin("_main_classes", main_classes),
        "_test_names": Builtin("_test_names", names),
        "_first_doc_line": Builtin("_first_doc_line", first_line),
        "_exit": Builtin("_exit", end),
    }


def test_names(cls: PClass) -> list[str]:
    """A class's test methods, as CPython's loader finds them (`dir`, by name)."""
    names = {name for one in cls.mro for name in one.namespace if name.startswith("test")}
    return [name for name in sorted(names) if type(cls.lookup(name)) is Function]


def first_doc_lines(tree: ast.Module | None) -> dict[int, str]:
    """The first line of each function's docstring (`shortDescription()`), by the line
    of its `def`."""
    docs: dict[int, str] = {}
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.FunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc and doc.strip():
                docs[node.lineno] = doc.strip().split("\n")[0].strip()
    return docs


UNITTEST_SOURCE = """
from functools import wraps as _wraps

_MAX_LENGTH = 80
_PLACEHOLDER_LEN = 12
_MIN_BEGIN_LEN = 5
_MIN_END_LEN = 5
_MIN_COMMON_LEN = 5
_MIN_DIFF_LEN = 80 - (5 + 12 + 5 + 12 + 5)


def _shorten(s, prefixlen, suffixlen):
    skip = len(s) - prefixlen - suffixlen
    if skip > _PLACEHOLDER_LEN:
        s = f"{s[:prefixlen]}[{skip} chars]{s[len(s) - suffixlen:]}"
    return s


def _common_prefix(a, b):
    low = 0
    high = min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return a[:low]


def _common_shorten_repr(first, second):
    args = (repr(first), repr(second))
    maxlen = max(len(args[0]), len(args[1]))
    if maxlen <= _MAX_LENGTH:
        return args
    prefix = _common_prefix(args[0], args[1])
    prefixlen = len(prefix)
    common_len = _MAX_LENGTH - (maxlen - prefixlen + _MIN_BEGIN_LEN + _PLACEHOLDER_LEN)
    if common_len > _MIN_COMMON_LEN:
        prefix = _shorten(prefix, _MIN_BEGIN_LEN, common_len)
        return (prefix + args[0][prefixlen:], prefix + args[1][prefixlen:])
    prefix = _shorten(prefix, _MIN_BEGIN_LEN, _MIN_COMMON_LEN)
    return (
        prefix + _shorten(args[0][prefixlen:], _MIN_DIFF_LEN, _MIN_END_LEN),
        prefix + _shorten(args[1][prefixlen:], _MIN_DIFF_LEN, _MIN_END_LEN),
    )


def _name_of(expected):
    if isinstance(expected, tuple):
        return str(expected)
    return expected.__name__


class SkipTest(Exception):
    pass


# The program's skipped test methods and classes, with their reasons, and those expected
# to fail: CPython marks them with `__unittest_skip__` and `__unittest_expecting_failure__`,
# kept here (a program's code writes no dunder). A skipped method is wrapped, as CPython's
# is, so a direct call raises SkipTest.
_SKIPPED = {}
_EXPECTING = {}


def skip(reason):
    def decorator(test_item):
        if not isinstance(test_item, type):
            test_item = _skip_wrapper(test_item, reason)
        _SKIPPED[test_item] = reason
        return test_item
    if callable(reason) and not isinstance(reason, (type, str)):
        test_item = reason
        reason = ""
        return decorator(test_item)
    return decorator


def _skip_wrapper(test_item, reason):
    @_wraps(test_item)
    def skip_wrapper(*args, **kwargs):
        raise SkipTest(reason)
    return skip_wrapper


def _id(obj):
    return obj


def skipIf(condition, reason):
    if condition:
        return skip(reason)
    return _id


def skipUnless(condition, reason):
    if not condition:
        return skip(reason)
    return _id


def expectedFailure(test_item):
    _EXPECTING[test_item] = True
    return test_item


def _marked(marks, test):
    # a test's class (or a base of it) marked, or its method: the class's reason first
    found = None
    for item, mark in marks.items():
        if isinstance(item, type) and isinstance(test, item) and not found:
            found = mark
    method = getattr(type(test), test._testMethodName, None)
    if not found and method in marks:
        found = marks[method]
    return found


def _class_skipped(cls):
    return any(isinstance(item, type) and issubclass(cls, item) for item in _SKIPPED)


class _AssertRaisesContext:
    def __init__(self, expected, test_case, msg=None):
        self.expected = expected
        self.test_case = test_case
        self.msg = msg
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            self.test_case.fail(
                self.test_case._formatMessage(self.msg, f"{_name_of(self.expected)} not raised")
            )
        if not issubclass(exc_type, self.expected):
            return False
        self.exception = exc_value
        return True


class _SubTest:
    def __init__(self, test_case, message, params):
        self.test_case = test_case
        self._message = message
        self.params = params
        self.failureException = test_case.failureException

    def _subDescription(self):
        parts = []
        if self._message is not None:
            parts.append(f"[{self._message}]")
        if self.params:
            parts.append("(" + ", ".join(f"{k}={v!r}" for k, v in self.params.items()) + ")")
        return " ".join(parts) or "(<subtest>)"

    def shortDescription(self):
        return self.test_case.shortDescription()

    def __str__(self):
        return f"{self.test_case} {self._subDescription()}"

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, tb):
        result = self.test_case._result
        if exc_type is None or result is None or issubclass(exc_type, RecursionError):
            return False
        if self.test_case._expecting and not isinstance(exc_value, SkipTest):
            # the test's expected failure: it stops here, as CPython's `_ShouldStop`
            self.test_case._expected = exc_value
            raise _ShouldStop()
        self.test_case._subtest_failed = True
        result.outcome(self, exc_value)
        return True


class _ShouldStop(Exception):
    pass


class TestCase:
    failureException = AssertionError
    longMessage = True
    maxDiff = 80 * 8

    def __init__(self, methodName="runTest"):
        self._testMethodName = methodName
        self._testMethodDoc = None
        if hasattr(self, methodName):
            self._testMethodDoc = _first_doc_line(getattr(type(self), methodName))
        elif methodName != "runTest":
            raise ValueError(f"no such test method in {type(self)}: {methodName}")

    def setUp(self):
        pass

    def tearDown(self):
        pass

    @classmethod
    def setUpClass(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        pass

    def id(self):
        return f"__main__.{type(self).__name__}.{self._testMethodName}"

    def __str__(self):
        return f"{self._testMethodName} (__main__.{type(self).__name__}.{self._testMethodName})"

    def __repr__(self):
        return f"<__main__.{type(self).__name__} testMethod={self._testMethodName}>"

    def shortDescription(self):
        return self._testMethodDoc

    # The runner's result while it runs this test, where a subTest reports (None when
    # the test method is called directly: then a subtest's error goes through).
    _result = None
    _subtest_failed = False
    _expecting = False  # run by the runner as an expected failure (`expectedFailure`)
    _expected = None  # a subtest's error of such a test

    def subTest(self, msg=None, **params):
        return _SubTest(self, msg, params)

    def skipTest(self, reason):
        raise SkipTest(reason)

    def fail(self, msg=None):
        raise self.failureException(msg)

    def _formatMessage(self, msg, standardMsg):
        if not self.longMessage:
            return msg or standardMsg
        if msg is None:
            return standardMsg
        return f"{standardMsg} : {msg}"

    def assertTrue(self, expr, msg=None):
        if not expr:
            raise self.failureException(self._formatMessage(msg, f"{expr!r} is not true"))

    def assertFalse(self, expr, msg=None):
        if expr:
            raise self.failureException(self._formatMessage(msg, f"{expr!r} is not false"))

    def assertEqual(self, first, second, msg=None):
        if not first == second:
            shown = _common_shorten_repr(first, second)
            standard = f"{shown[0]} != {shown[1]}"
            raise self.failureException(self._formatMessage(msg, standard))

    def assertNotEqual(self, first, second, msg=None):
        if not first != second:
            standard = f"{first!r} == {second!r}"
            raise self.failureException(self._formatMessage(msg, standard))

    def assertAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if first == second:
            return
        if delta is not None and places is not None:
            raise TypeError("specify delta or places not both")
        diff = abs(first - second)
        if delta is not None:
            if diff <= delta:
                return
            standard = f"{first!r} != {second!r} within {delta!r} delta ({diff!r} difference)"
        else:
            if places is None:
                places = 7
            if round(diff, places) == 0:
                return
            standard = f"{first!r} != {second!r} within {places!r} places ({diff!r} difference)"
        raise self.failureException(self._formatMessage(msg, standard))

    def assertNotAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if delta is not None and places is not None:
            raise TypeError("specify delta or places not both")
        diff = abs(first - second)
        if delta is not None:
            if not (first == second) and diff > delta:
                return
            standard = f"{first!r} == {second!r} within {delta!r} delta ({diff!r} difference)"
        else:
            if places is None:
                places = 7
            if not (first == second) and round(diff, places) != 0:
                return
            standard = f"{first!r} == {second!r} within {places!r} places"
        raise self.failureException(self._formatMessage(msg, standard))

    def assertIs(self, expr1, expr2, msg=None):
        if expr1 is not expr2:
            self.fail(self._formatMessage(msg, f"{expr1!r} is not {expr2!r}"))

    def assertIsNot(self, expr1, expr2, msg=None):
        if expr1 is expr2:
            self.fail(self._formatMessage(msg, f"unexpectedly identical: {expr1!r}"))

    def assertIsNone(self, obj, msg=None):
        if obj is not None:
            self.fail(self._formatMessage(msg, f"{obj!r} is not None"))

    def assertIsNotNone(self, obj, msg=None):
        if obj is None:
            self.fail(self._formatMessage(msg, "unexpectedly None"))

    def assertIn(self, member, container, msg=None):
        if member not in container:
            self.fail(self._formatMessage(msg, f"{member!r} not found in {container!r}"))

    def assertNotIn(self, member, container, msg=None):
        if member in container:
            standard = f"{member!r} unexpectedly found in {container!r}"
            self.fail(self._formatMessage(msg, standard))

    def assertIsInstance(self, obj, cls, msg=None):
        if not isinstance(obj, cls):
            self.fail(self._formatMessage(msg, f"{obj!r} is not an instance of {cls!r}"))

    def assertNotIsInstance(self, obj, cls, msg=None):
        if isinstance(obj, cls):
            self.fail(self._formatMessage(msg, f"{obj!r} is an instance of {cls!r}"))

    def assertLess(self, a, b, msg=None):
        if not a < b:
            self.fail(self._formatMessage(msg, f"{a!r} not less than {b!r}"))

    def assertLessEqual(self, a, b, msg=None):
        if not a <= b:
            self.fail(self._formatMessage(msg, f"{a!r} not less than or equal to {b!r}"))

    def assertGreater(self, a, b, msg=None):
        if not a > b:
            self.fail(self._formatMessage(msg, f"{a!r} not greater than {b!r}"))

    def assertGreaterEqual(self, a, b, msg=None):
        if not a >= b:
            self.fail(self._formatMessage(msg, f"{a!r} not greater than or equal to {b!r}"))

    def assertRaises(self, expected_exception, *args, **kwargs):
        if not _exception_types(expected_exception):
            raise TypeError(
                "assertRaises() arg 1 must be an exception type or tuple of exception types"
            )
        if not args:
            context = _AssertRaisesContext(expected_exception, self, kwargs.pop("msg", None))
            if kwargs:
                words = f"{next(iter(kwargs))!r} is an invalid keyword argument for this function"
                raise TypeError(words)
            return context
        callable_obj = args[0]
        try:
            callable_obj(*args[1:], **kwargs)
        except expected_exception as error:
            return None
        name = _name_of(expected_exception)
        self.fail(f"{name} not raised by {callable_obj.__name__}")


def _exception_types(expected):
    if isinstance(expected, tuple):
        return all(_exception_types(one) for one in expected)
    try:
        return issubclass(expected, BaseException)
    except TypeError:
        return False


def _error_text(error):
    words = str(error)
    name = type(error).__name__
    return f"{name}: {words}" if words else name


# What `call()` raised, or None; a bound, or the call depth's RecursionError, is not a
# test's error: it ends the run. A SystemExit (`exit()`, `sys.exit()`) is one, as CPython's
# bare `except:` makes it.
def _attempt(call):
    try:
        call()
    except RecursionError:
        raise
    except BaseException as error:
        return error
    return None


def _describe(test):
    doc = test.shortDescription()
    return f"{test}\\n{doc}" if doc else str(test)


class _TextResult:
    def __init__(self, verbosity):
        self.verbosity = verbosity
        self.failures = []
        self.errors = []
        self.skipped = []
        self.expectedFailures = []  # (test, its error's text), as CPython's
        self.unexpectedSuccesses = []
        self.testsRun = 0
        self.midline = False  # verbose: a test's "... " printed, its word not yet

    def wasSuccessful(self):
        return len(self.failures) == len(self.errors) == len(self.unexpectedSuccesses) == 0

    def status(self, letter, word):
        if self.verbosity > 1:
            print(word)
        elif self.verbosity == 1:
            print(letter, end="")

    def outcome(self, test, error):
        if self.verbosity > 1 and isinstance(test, _SubTest):
            if self.midline:
                print()
            print(f"  {_describe(test)} ... ", end="")
        elif self.verbosity > 1 and not self.midline:
            print(f"{_describe(test)} ... ", end="")
        self.midline = False
        if isinstance(error, SkipTest):
            self.skipped.append((test, str(error)))
            self.status("s", f"skipped {str(error)!r}")
        elif isinstance(error, test.failureException):
            self.failures.append((test, _error_text(error)))
            self.status("F", "FAIL")
        else:
            self.errors.append((test, _error_text(error)))
            self.status("E", "ERROR")

    def run(self, test):
        self.testsRun += 1
        if self.verbosity > 1:
            print(f"{_describe(test)} ... ", end="")
            self.midline = True
        if _marked(_SKIPPED, test) is not None:  # neither setUp nor the test runs
            self.outcome(test, SkipTest(_marked(_SKIPPED, test)))
            return
        error = _attempt(test.setUp)
        if error is not None:
            self.outcome(test, error)
            return
        test._result = self
        test._subtest_failed = False
        expecting = test._expecting = _marked(_EXPECTING, test) is not None
        error = _attempt(getattr(test, test._testMethodName))
        if isinstance(error, _ShouldStop):  # a subtest's expected failure ended the test
            error = test._expected
        test._result = None
        test._expecting = False
        test._expected = None
        if error is not None and not (expecting and not isinstance(error, SkipTest)):
            self.outcome(test, error)
        ending = _attempt(test.tearDown)
        if ending is not None:
            self.outcome(test, ending)
        if ending is not None or test._subtest_failed:
            return
        if expecting and error is not None and not isinstance(error, SkipTest):
            self.expectedFailures.append((test, _error_text(error)))
            self.status("x", "expected failure")
        elif expecting and error is None:
            self.unexpectedSuccesses.append(test)
            self.status("u", "unexpected success")
        elif error is None:
            self.status(".", "ok")
        self.midline = False

    def class_fixture(self, cls, name):
        if _class_skipped(cls):  # a skipped class's fixtures do not run
            return True
        error = _attempt(getattr(cls, name))
        if error is not None:
            self.errors.append((f"{name} (__main__.{cls.__name__})", _error_text(error)))
            self.status("E", "ERROR")
        return error is None

    def run_all(self, tests):
        current = None
        ready = False
        for test in tests:
            if type(test) is not current:
                if current is not None and ready:
                    self.class_fixture(current, "tearDownClass")
                current = type(test)
                ready = self.class_fixture(current, "setUpClass")
            if ready:
                self.run(test)
        if current is not None and ready:
            self.class_fixture(current, "tearDownClass")

    def print_errors(self):
        if self.verbosity > 0:
            print()
        for flavour, errors in (("ERROR", self.errors), ("FAIL", self.failures)):
            for test, text in errors:
                print("=" * 70)
                described = isinstance(test, (TestCase, _SubTest))
                print(f"{flavour}: {_describe(test) if described else test}")
                print("-" * 70)
                print(text)
                print()
        if self.unexpectedSuccesses:
            print("=" * 70)
            for test in self.unexpectedSuccesses:
                print(f"UNEXPECTED SUCCESS: {_describe(test)}")

    def summary(self):
        self.print_errors()
        print("-" * 70)
        run = self.testsRun
        print(f"Ran {run} test{'s' if run != 1 else ''} in 0.000s")
        print()
        infos = []
        if not self.wasSuccessful():
            print("FAILED", end="")
            if self.failures:
                infos.append(f"failures={len(self.failures)}")
            if self.errors:
                infos.append(f"errors={len(self.errors)}")
        else:
            print("OK", end="")
        if self.skipped:
            infos.append(f"skipped={len(self.skipped)}")
        if self.expectedFailures:
            infos.append(f"expected failures={len(self.expectedFailures)}")
        if self.unexpectedSuccesses:
            infos.append(f"unexpected successes={len(self.unexpectedSuccesses)}")
        print(f" ({', '.join(infos)})" if infos else "")


class TestSuite:
    def __init__(self, tests=()):
        self._tests = []
        self.addTests(tests)

    def addTest(self, test):
        self._tests.append(test)

    def addTests(self, tests):
        for test in tests:
            self.addTest(test)

    def __iter__(self):
        return iter(self._tests)

    def countTestCases(self):
        return len(_flat(self))


def _flat(test):
    if isinstance(test, TestCase):
        return [test]
    return [one for inner in test for one in _flat(inner)]


class TestLoader:
    def getTestCaseNames(self, testCaseClass):
        return _test_names(testCaseClass)

    def loadTestsFromTestCase(self, testCaseClass):
        names = _test_names(testCaseClass)
        if not names and hasattr(testCaseClass, "runTest"):
            names = ["runTest"]
        return TestSuite([testCaseClass(name) for name in names])

    def loadTestsFromModule(self, module, *args, pattern=None):
        return TestSuite([self.loadTestsFromTestCase(cls) for cls in _main_classes(TestCase)])


defaultTestLoader = TestLoader()


class TextTestRunner:
    def __init__(self, stream=None, descriptions=True, verbosity=1, failfast=False,
                 buffer=False, resultclass=None, warnings=None, *, tb_locals=False):
        self.verbosity = verbosity

    def run(self, test):
        result = _TextResult(self.verbosity)
        result.run_all(_flat(test))
        result.summary()
        return result


class _Program:
    def __init__(self, result):
        self.result = result


def main(module="__main__", defaultTest=None, argv=None, testRunner=None,
         testLoader=None, exit=True, verbosity=1, failfast=None, catchbreak=None,
         buffer=None, warnings=None, *, tb_locals=False):
    suite = defaultTestLoader.loadTestsFromModule(None)
    result = TextTestRunner(verbosity=verbosity).run(suite)
    if exit:
        _exit()
    return _Program(result)
"""

UNITTEST_NAMES = frozenset(
    {
        "TestCase", "main", "SkipTest", "TestSuite", "TestLoader", "TextTestRunner",
        "defaultTestLoader", "skip", "skipIf", "skipUnless", "expectedFailure",
    }
)  # fmt: skip
