"""`warnings` as a notebook uses it: `warnings.filterwarnings("ignore")` in its first cell,
`with warnings.catch_warnings(): warnings.simplefilter("ignore")` around a noisy call,
`warnings.warn("...", UserWarning)` in an engine's own code.

The source below is in the interpreter's own language, compiled in library mode when a
program imports `warnings` (`Compiler.library_module`). A warning is shown as CPython
shows it, `/program/main.py:3: UserWarning: message` and the stripped source line under
it, through CPython's filters (the program is `__main__`: its DeprecationWarning is
shown; `default` once per message, category and line, `module` once per message and
category, `once` once per message and category anywhere, `always` each time, `ignore`
never; a filter's change lets each show again, as CPython's registry is reset). CPython
writes it to stderr; there is no stderr here, so it is printed, where a learner reads
it, as `unittest`'s report is (`native_names`'s `_where` gives the line and its text).
A filter's `message` and `module` are CPython's regular expressions matched at the start,
here of plain text, `.` and `.*` (and a leading `^`, a trailing `$`); another is
refused, as is the "error" action (a warning raised as an exception).
`catch_warnings(record=True)` gives the list each warning shown inside it is appended to
instead (each with `message`, `category`, `filename`, `lineno`), as CPython's does. A
warning's `stacklevel` names the call it is attributed to, as CPython's does (`2`: the
line that called the function warning); past the program's outermost call, CPython's
`sys:1`.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from backprop_animator.engine.interpreter.codegen import BLOCK_FILE
from backprop_animator.engine.interpreter.machine import Machine
from backprop_animator.engine.interpreter.objects import Builtin
from backprop_animator.engine.interpreter.os_module import FAKE_FILE
from backprop_animator.engine.interpreter.runtime import ProgramError, State

_CALL = Machine.call_function.__code__


def native_names(state: State, lines: list[str]) -> dict[str, Any]:
    """`_where(stacklevel)`: the statement a warning is attributed to, as `(filename,
    lineno, stripped line)`: the one running now for 1 (the `warn` call's: a library
    statement keeps its caller's position), else the line of a call further out."""

    def where(args: list[Any], kwargs: dict[str, Any]) -> tuple[str, int, str]:
        level = args[0]
        if type(level) is not int and type(level) is not bool:
            words = f"'{type(level).__name__}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        line = state.position[0] if level <= 1 else call_site(level - 1, state)
        if line is None:
            return ("sys", 1, "")
        text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        state.charge(len(text) // 10)
        return (FAKE_FILE, line, text)

    return {"_where": Builtin("_where", where)}


def call_site(levels: int, state: State) -> int | None:
    """The line of the call `levels` calls out from the one that called `warn` (whose
    own call is the innermost: `Machine.call_function`, or the `enter` that
    `engine.interpreter.codegen` generates, each keeps the position it was called from);
    None past the outermost. Only the interpreter's own Python frames are read."""
    frame: FrameType | None = sys._getframe(1)
    seen = 0
    while frame is not None:
        code = frame.f_code
        generated = code.co_name == "enter" and code.co_filename == BLOCK_FILE
        if code is _CALL or generated:
            state.charge(1)
            seen += 1
            if seen > levels:
                saved = frame.f_locals.get("position_" if generated else "position")
                return saved[0] if type(saved) is tuple else None
        frame = frame.f_back
    return None


WARNINGS_SOURCE = """
_recording = []
_actions = ("default", "error", "ignore", "always", "module", "once")
filters = [
    ("default", None, DeprecationWarning, "__main__", 0),
    ("ignore", None, DeprecationWarning, None, 0),
    ("ignore", None, PendingDeprecationWarning, None, 0),
    ("ignore", None, ImportWarning, None, 0),
    ("ignore", None, ResourceWarning, None, 0),
]
_state = {"version": 1, "registry": {}, "outside": {}, "once": {}}


class WarningMessage:
    def __init__(self, message, category, filename, lineno):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno

    def __str__(self):
        return f"{{message : {self.message!r}, category : {self.category.__name__!r}}}"


def _mutated():
    _state["version"] += 1


def _pattern(text):
    if not text:
        return None
    for sign in "[](){}+?|" + chr(92):
        if sign in text:
            raise NotImplementedError(
                f"the warnings filter pattern {text!r} is not available here "
                "(plain text, '.' and '.*' are)"
            )
    return text


def _matches(pattern, text):
    if pattern is None:
        return True
    if pattern.startswith("^"):
        pattern = pattern[1:]
    whole = pattern.endswith("$")
    if whole:
        pattern = pattern[:-1]
    return _match_from(pattern.lower(), 0, text.lower(), 0, whole)


def _match_from(pattern, p, text, t, whole):
    while p < len(pattern):
        if pattern[p] == "." and p + 1 < len(pattern) and pattern[p + 1] == "*":
            rest = p + 2
            for start in range(t, len(text) + 1):
                if _match_from(pattern, rest, text, start, whole):
                    return True
            return False
        if t >= len(text) or (pattern[p] != "." and pattern[p] != text[t]):
            return False
        p += 1
        t += 1
    return t == len(text) or not whole


def _add(item, append):
    if not append:
        if item in filters:
            filters.remove(item)
        filters.insert(0, item)
    elif item not in filters:
        filters.append(item)
    _mutated()


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    if action not in _actions:
        raise AssertionError(f"invalid action: {action!r}")
    if action == "error":  # a warning raised as an exception: not made here (refused)
        raise NotImplementedError("the warnings filter 'error' is not available here")
    _add((action, _pattern(message), category, _pattern(module), lineno), append)


def simplefilter(action, category=Warning, lineno=0, append=False):
    if action not in _actions:
        raise AssertionError(f"invalid action: {action!r}")
    if action == "error":  # a warning raised as an exception: not made here (refused)
        raise NotImplementedError("the warnings filter 'error' is not available here")
    _add((action, None, category, None, lineno), append)


def resetwarnings():
    filters[:] = []
    _mutated()


class catch_warnings:
    def __init__(self, *, record=False, module=None, action=None, category=Warning,
                 lineno=0, append=False):
        self._record = record
        self._saved = None
        self._action = (action, category, lineno, append)

    def __enter__(self):
        self._saved = filters[:]
        _mutated()
        action, category, lineno, append = self._action
        if action is not None:
            simplefilter(action, category, lineno, append)
        if self._record:
            log = []
            _recording.append(log)
            return log
        _recording.append(None)
        return None

    def __exit__(self, *exc_info):
        filters[:] = self._saved
        _mutated()
        _recording.pop()
        return None


def _action_for(text, category, lineno, module_name):
    for action, message, kind, module, line in filters:
        if (_matches(message, text) and issubclass(category, kind)
                and _matches(module, module_name) and (line == 0 or line == lineno)):
            return action
    return "default"


def _shown(text, category, lineno, outside):
    registry = _state["outside" if outside else "registry"]
    if registry.get("version") != _state["version"]:
        registry.clear()
        registry["version"] = _state["version"]
    key = (text, category, lineno)
    if registry.get(key):
        return False
    action = _action_for(text, category, lineno, "sys" if outside else "__main__")
    if action == "ignore":
        return False
    if action == "once":
        registry[key] = 1
        if _state["once"].get((text, category)):
            return False
        _state["once"][(text, category)] = 1
    elif action == "module":
        registry[key] = 1
        if registry.get((text, category, 0)):
            return False
        registry[(text, category, 0)] = 1
    elif action == "default":
        registry[key] = 1
    return True


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    if not issubclass(category, Warning):
        raise TypeError(f"category must be a Warning subclass, not '{type(category).__name__}'")
    filename, lineno, line = _where(stacklevel)
    text = str(message)
    if not _shown(text, category, lineno, filename == "sys"):
        return None
    if _recording and _recording[-1] is not None:
        made = message if isinstance(message, Warning) else category(message)
        _recording[-1].append(WarningMessage(made, category, filename, lineno))
    else:
        print(f"{filename}:{lineno}: {category.__name__}: {text}")
        if line:
            print(f"  {line}")
    return None
"""

WARNINGS_NAMES = frozenset(
    {"catch_warnings", "filterwarnings", "simplefilter", "resetwarnings", "warn", "WarningMessage"}
)
