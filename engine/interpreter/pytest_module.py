"""`pytest` as the interpreter runs it, for the test files that come with learners'
engines when they are run as a script (the test functions called by the program):
`pytest.approx` (pytest 9's `ApproxScalar`, `ApproxSequenceLike` and `ApproxMapping`:
the same tolerances, NaN and infinity rules, `repr` and errors), `pytest.raises` (as a
context manager or called with a function; `match=` a pattern without repetition or
groups), `pytest.fail`, `pytest.mark` (its decorators give the function back, as
pytest's marks do outside a pytest run) and `pytest.fixture` (pytest 9's fixture object,
which refuses to be called directly, as pytest's does outside a pytest run).

The source below is in the interpreter's own language, compiled in library mode when a
program imports `pytest` (`Compiler.library_module`). The native piece is `_search`,
`re.search` of a pattern in a message, charged for the work and refused for a pattern
whose matching could backtrack (`*`, `+`, `?`, `{`, `|`, groups).
"""

from __future__ import annotations

import re
from typing import Any

from backprop_animator.engine.interpreter.objects import Builtin
from backprop_animator.engine.interpreter.runtime import ProgramError, State

# What a pattern may not hold: what repeats or groups (so `re.search` cannot backtrack).
_BACKTRACKING = frozenset("*+?{}|()")
CHARS_PER_STEP = 1000


def native_names(state: State) -> dict[str, Any]:
    def search(args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`re.search(pattern, text)`: True or False, or the words of `re.error`."""
        pattern, text = args
        if type(pattern) is not str:
            raise ProgramError("pytest.raises(match=...) takes a string here")
        if _BACKTRACKING & set(pattern):
            raise ProgramError(
                "pytest.raises(match=...) takes a pattern without repetition or groups here "
                f"(none of * + ? {{ }} | ( )), not {pattern!r}"
            )
        # Compiling the pattern (about a microsecond a character, as a step is: a program
        # cycling through more patterns than `re` caches compiles each time), then the
        # search, which tries the pattern at each position of the text.
        state.charge(len(pattern) + len(pattern) * len(text) // CHARS_PER_STEP)
        try:
            return re.search(pattern, text) is not None
        except re.error as error:
            return str(error)

    return {"_search": Builtin("_search", search)}


PYTEST_SOURCE = """
import math

_abs = abs


class Failed(BaseException):
    pass


def fail(reason="", pytrace=True):
    raise Failed(reason)


def _is_bool(value):
    return isinstance(value, bool)


def _is_number(value):
    return isinstance(value, (int, float, complex))


def _is_container(value):
    return isinstance(value, (list, tuple, dict, set))


class _Approx:
    def __init__(self, expected, rel, abs, nan_ok):
        self.expected = expected
        self.rel = rel
        self.abs = abs
        self.nan_ok = nan_ok

    def __eq__(self, actual):
        return all(a == self._approx_scalar(x) for a, x in self._yield_comparisons(actual))

    def __ne__(self, actual):
        return not (actual == self)

    def __bool__(self):
        raise AssertionError(
            "approx() is not supported in a boolean context.\\n"
            "Did you mean: `assert a == approx(b)`?"
        )

    __hash__ = None

    def _approx_scalar(self, x):
        return ApproxScalar(x, rel=self.rel, abs=self.abs, nan_ok=self.nan_ok)


class ApproxScalar(_Approx):
    DEFAULT_ABSOLUTE_TOLERANCE = 1e-12
    DEFAULT_RELATIVE_TOLERANCE = 1e-6

    def __init__(self, expected, rel, abs, nan_ok):
        if rel is not None:
            if not isinstance(rel, (int, float)):
                raise TypeError(
                    "relative tolerance for a scalar value must be an int, float or Decimal, "
                    f"got {type(rel).__name__}"
                )
            if not _is_number(expected):
                raise TypeError(
                    "expected value must support abs(...) when relative tolerance is used, "
                    f"got {type(expected).__name__}"
                )
        if abs is not None and not isinstance(abs, (int, float)):
            raise TypeError(
                "absolute tolerance for a scalar value must be an int, float or Decimal, "
                f"got {type(abs).__name__}"
            )
        super().__init__(expected, rel, abs, nan_ok)

    def __repr__(self):
        if (
            _is_bool(self.expected)
            or not _is_number(self.expected)
            or math.isinf(_abs(self.expected))
        ):
            return str(self.expected)
        try:
            if 1e-3 <= self.tolerance < 1e3:
                vetted_tolerance = f"{self.tolerance:n}"
            else:
                vetted_tolerance = f"{self.tolerance:.1e}"
            if (
                isinstance(self.expected, complex)
                and self.expected.imag
                and not math.isinf(self.tolerance)
            ):
                vetted_tolerance += " \\u2220 \\u00b1180\\u00b0"
        except ValueError:
            vetted_tolerance = "???"
        return f"{self.expected} \\u00b1 {vetted_tolerance}"

    def __eq__(self, actual):
        if _is_bool(self.expected) and not _is_bool(actual):
            return False
        elif actual == self.expected:
            return True
        if _is_bool(self.expected) or not (_is_number(self.expected) and _is_number(actual)):
            return False
        if math.isnan(_abs(self.expected)):
            return self.nan_ok and math.isnan(_abs(actual))
        if math.isinf(_abs(self.expected)):
            return False
        return _abs(self.expected - actual) <= self.tolerance

    __hash__ = None

    @property
    def tolerance(self):
        if self.abs is not None:
            absolute_tolerance = self.abs
        else:
            absolute_tolerance = self.DEFAULT_ABSOLUTE_TOLERANCE
        if math.isnan(absolute_tolerance):
            raise ValueError("absolute tolerance can't be NaN.")
        if absolute_tolerance < 0:
            raise ValueError(f"absolute tolerance can't be negative: {absolute_tolerance}")
        if self.rel is None:
            if self.abs is not None:
                return absolute_tolerance
        rel = self.rel if self.rel is not None else self.DEFAULT_RELATIVE_TOLERANCE
        relative_tolerance = rel * _abs(self.expected)
        if math.isnan(relative_tolerance):
            raise ValueError("relative tolerance can't be NaN.")
        if relative_tolerance < 0:
            raise ValueError(f"relative tolerance can't be negative: {relative_tolerance}")
        return max(relative_tolerance, absolute_tolerance)


class ApproxMapping(_Approx):
    def __init__(self, expected, rel, abs, nan_ok):
        for key, value in expected.items():
            if _is_container(value):
                raise TypeError(
                    "pytest.approx() does not support nested dictionaries: "
                    f"key={key!r} value={value!r}\\n  full mapping={expected}"
                )
        super().__init__(expected, rel, abs, nan_ok)

    def __repr__(self):
        return f"approx({ ({k: self._approx_scalar(v) for k, v in self.expected.items()})!r})"

    def __eq__(self, actual):
        try:
            if set(actual.keys()) != set(self.expected.keys()):
                return False
        except AttributeError:
            return False
        return super().__eq__(actual)

    def _yield_comparisons(self, actual):
        for k in self.expected:
            yield actual[k], self.expected[k]


class ApproxSequenceLike(_Approx):
    def __init__(self, expected, rel, abs, nan_ok):
        for index, x in enumerate(expected):
            if _is_container(x):
                raise TypeError(
                    "pytest.approx() does not support nested data structures: "
                    f"{x!r} at index {index}\\n  full sequence: {expected}"
                )
        super().__init__(expected, rel, abs, nan_ok)

    def __repr__(self):
        kind = tuple if isinstance(self.expected, tuple) else list
        return f"approx({kind(self._approx_scalar(x) for x in self.expected)!r})"

    def __eq__(self, actual):
        try:
            if len(actual) != len(self.expected):
                return False
        except TypeError:
            return False
        return super().__eq__(actual)

    def _yield_comparisons(self, actual):
        return zip(actual, self.expected, strict=True)


def approx(expected, rel=None, abs=None, nan_ok=False):
    if isinstance(expected, dict):
        return ApproxMapping(expected, rel=rel, abs=abs, nan_ok=nan_ok)
    if isinstance(expected, (list, tuple)):
        return ApproxSequenceLike(expected, rel=rel, abs=abs, nan_ok=nan_ok)
    if isinstance(expected, set):
        raise TypeError(
            f"pytest.approx() only supports ordered sequences, but got: {expected!r}"
        )
    return ApproxScalar(expected, rel=rel, abs=abs, nan_ok=nan_ok)


class ExceptionInfo:
    def __init__(self):
        self.value = None
        self.type = None
        self.typename = None

    def errisinstance(self, exc):
        return isinstance(self.value, exc)

    def match(self, regexp):
        value = str(self.value)
        found = _search(regexp, value)
        if found is not True:
            raise AssertionError(
                f"Regex pattern did not match.\\n  Expected regex: {regexp!r}\\n"
                f"  Actual message: {value!r}"
            )
        return True


def _expected(expected_exception):
    if isinstance(expected_exception, tuple):
        return expected_exception
    return (expected_exception,)


def _parse_exc(exc):
    message = "Expected a BaseException type, but got "
    try:
        if issubclass(exc, BaseException):
            return exc
    except TypeError:  # not a class
        if isinstance(exc, BaseException):
            raise TypeError(message + f"an exception instance: {type(exc).__name__}")
        raise TypeError(message + repr(type(exc).__name__))
    raise ValueError(message + f"{exc.__name__!r}")


class RaisesExc:
    def __init__(self, expected_exception=None, *, match=None):
        self.expected_exceptions = () if expected_exception is None else _expected(
            expected_exception
        )
        for one in self.expected_exceptions:
            _parse_exc(one)
        if match is not None:
            found = _search(match, "")
            if found is not True and found is not False:
                fail(f"Invalid regex pattern provided to 'match': {found}")
        self.match = match

    def __enter__(self):
        self.excinfo = ExceptionInfo()
        return self.excinfo

    def __exit__(self, exc_type, exc_val, exc_tb):
        if exc_type is None:
            if not self.expected_exceptions:
                fail("DID NOT RAISE any exception")
            if len(self.expected_exceptions) == 1:
                fail(f"DID NOT RAISE {self.expected_exceptions[0].__name__}")
            names = ", ".join(x.__name__ for x in self.expected_exceptions)
            fail(f"DID NOT RAISE any of ({names})")
        if self.expected_exceptions and not isinstance(exc_val, self.expected_exceptions):
            return False
        if self.match is not None:
            message = str(exc_val)
            if _search(self.match, message) is not True:
                raise AssertionError(
                    f"Regex pattern did not match.\\n  Expected regex: {self.match!r}\\n"
                    f"  Actual message: {message!r}"
                )
        self.excinfo.value = exc_val
        self.excinfo.type = exc_type
        self.excinfo.typename = exc_type.__name__
        return True


def raises(expected_exception=None, *args, **kwargs):
    if not args:
        unexpected = sorted(set(kwargs) - {"match", "expected_exception"})
        if unexpected:
            raise TypeError(
                "Unexpected keyword arguments passed to pytest.raises: "
                + ", ".join(unexpected)
                + "\\nUse context-manager form instead?"
            )
        if "expected_exception" in kwargs:
            expected_exception = kwargs.pop("expected_exception")
        return RaisesExc(expected_exception, **kwargs)
    if not expected_exception:
        raise ValueError(
            "Expected an exception type or a tuple of exception types, but got "
            f"`{expected_exception!r}`. Raising exceptions is already understood as failing "
            "the test, so you don't need any special code to say 'this should never raise "
            "an exception'."
        )
    func = args[0]
    if not callable(func):
        raise TypeError(f"{func!r} object (type: {type(func)}) must be callable")
    with RaisesExc(expected_exception) as excinfo:
        func(*args[1:], **kwargs)
    return excinfo


class MarkDecorator:
    def __init__(self, name, args=(), kwargs=None):
        self.name = name
        self.args = args
        self.kwargs = {} if kwargs is None else kwargs

    def __call__(self, *args, **kwargs):
        if args and not kwargs and len(args) == 1 and callable(args[0]):
            return args[0]
        return MarkDecorator(self.name, self.args + args, {**self.kwargs, **kwargs})


class MarkGenerator:
    def __getattr__(self, name):
        if name[0] == "_":
            raise AttributeError("Marker name must NOT start with underscore")
        return MarkDecorator(name)


mark = MarkGenerator()


class FixtureFunctionDefinition:
    def __init__(self, function, name=None):
        self._function = function
        self.name = function.__name__ if name is None else name

    def __repr__(self):
        return f"<pytest_fixture({self._function!r})>"

    def __call__(self, *args, **kwargs):
        fail(
            f'Fixture "{self.name}" called directly. Fixtures are not meant to be called '
            "directly,\\nbut are created automatically when test functions request them as "
            "parameters.\\nSee https://docs.pytest.org/en/stable/explanation/fixtures.html "
            "for more information about fixtures, and\\n"
            "https://docs.pytest.org/en/stable/deprecations.html#calling-fixtures-directly",
            pytrace=False,
        )


class FixtureFunctionMarker:
    def __init__(self, name):
        self.name = name

    def __call__(self, function):
        if isinstance(function, FixtureFunctionDefinition):
            name = function._function.__name__
            raise ValueError(
                f"@pytest.fixture is being applied more than once to the same function {name!r}"
            )
        return FixtureFunctionDefinition(function, self.name)


def fixture(
    fixture_function=None, *, scope="function", params=None, autouse=False, ids=None, name=None
):
    marker = FixtureFunctionMarker(name)
    if fixture_function is not None:
        return marker(fixture_function)
    return marker
"""

PYTEST_NAMES = frozenset({"approx", "raises", "fail", "mark", "fixture"})
