"""`warnings` as a notebook uses it: `warnings.filterwarnings("ignore")` in its first cell,
`with warnings.catch_warnings(): warnings.simplefilter("ignore")` around a noisy call,
`warnings.warn("...", UserWarning)` in an engine's own code.

The source below is in the interpreter's own language, compiled in library mode when a
program imports `warnings` (`Compiler.library_module`). CPython writes a warning to
stderr, which is not the program's printed output: here a warning is not shown, and a
filter changes nothing there is to see, but the "error" filter (a warning raised as an
exception) is refused rather than ignored. `catch_warnings(record=True)` gives the list a
`warn` inside it appends to (each with `message`, `category`, `filename`, `lineno`), as
CPython's does under `simplefilter("always")`.
"""

from __future__ import annotations

WARNINGS_SOURCE = """
_recording = []


class WarningMessage:
    def __init__(self, message, category, filename, lineno):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno

    def __str__(self):
        return f"{{message : {self.message!r}, category : {self.category.__name__!r}}}"


class catch_warnings:
    def __init__(self, *, record=False, module=None, action=None, category=Warning,
                 lineno=0, append=False):
        self._record = record
        self._log = None

    def __enter__(self):
        if self._record:
            self._log = []
            _recording.append(self._log)
            return self._log
        _recording.append(None)
        return None

    def __exit__(self, *exc_info):
        _recording.pop()
        return None


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    if action not in ("default", "error", "ignore", "always", "module", "once"):
        raise AssertionError(f"invalid action: {action!r}")
    if action == "error":  # a warning raised as an exception: not made here (refused)
        raise NotImplementedError("the warnings filter 'error' is not available here")
    return None


def simplefilter(action, category=Warning, lineno=0, append=False):
    if action not in ("default", "error", "ignore", "always", "module", "once"):
        raise AssertionError(f"invalid action: {action!r}")
    if action == "error":  # a warning raised as an exception: not made here (refused)
        raise NotImplementedError("the warnings filter 'error' is not available here")
    return None


def resetwarnings():
    return None


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    if not issubclass(category, Warning):
        raise TypeError(f"category must be a Warning subclass, not '{type(category).__name__}'")
    if _recording and _recording[-1] is not None:
        made = message if isinstance(message, Warning) else category(message)
        _recording[-1].append(WarningMessage(made, category, "<program>", 0))
    return None
"""

WARNINGS_NAMES = frozenset(
    {"catch_warnings", "filterwarnings", "simplefilter", "resetwarnings", "warn", "WarningMessage"}
)
