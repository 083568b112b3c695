"""`import logging` as a program's code logs its progress (`logging.warning(...)`,
`logger.info(...)` after `basicConfig(level=logging.INFO)`).

CPython writes a log line to stderr; there is no stderr here, so it is printed where the
learner reads it, in the order the program made it, as `warnings.warn` is
(docs/LANGUAGE.md): what CPython's handlers write, line for line. A record goes up the
dotted loggers to every handler on the way (`propagate`), the root's among them once
`basicConfig` (or a module-level `logging.info(...)`, which calls it) gave it its
`StreamHandler`; with no handler anywhere, CPython's `lastResort` writes the message
alone, for WARNING and above. A line is formatted by its handler's `Formatter` (the
root's default `%(levelname)s:%(name)s:%(message)s`), by the interpreter's own `%` or
`str.format_map` with the record's fields as a dict, so every format is the language's
whitelist within its bounds; printed with `print`, within the output bound.

The clock is the program's own (`time.time()` here: a microsecond per step from 0, so
`%(asctime)s` is `1970-01-01 00:00:00,012`, the same on every run, in UTC); fields
CPython knows that are not kept here (`%(funcName)s`, `%(process)d`, `%(thread)d`…)
and a traceback (`logger.exception`, `exc_info=`, `stack_info=`) are refused with
words that say so.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.machine import WRITABLE
from backprop_animator.engine.interpreter.objects import (
    LOG_HANDLERS,
    LOG_KIND,
    Builtin,
    PModule,
    Stream,
    TextBuffer,
)
from backprop_animator.engine.interpreter.os_module import FAKE_FILE
from backprop_animator.engine.interpreter.runtime import ITEMS_PER_STEP, ProgramError, State

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.library import Library

# `logging`'s levels, as CPython numbers them.
LOG_LEVELS = {
    "CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARNING": 30, "WARN": 30, "INFO": 20,
    "DEBUG": 10, "NOTSET": 0,
}  # fmt: skip
LEVEL_NAMES = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}
# Each logging call and the level it logs at.
LOG_CALLS = {
    "debug": 10, "info": 20, "warning": 30, "warn": 30, "error": 40, "critical": 50,
    "fatal": 50, "exception": 40,
}  # fmt: skip
# What a log call takes besides its message and arguments.
CALL_KEYWORDS = frozenset({"exc_info", "stack_info", "stacklevel", "extra"})
# What `basicConfig` is told; a file is not among what it may be given.
LOG_CONFIG = frozenset(
    {"level", "format", "datefmt", "style", "force", "encoding", "errors", "stream", "handlers"}
)
# A handler's default line, and `basicConfig`'s, by the format's style.
DEFAULT_FORMATS = {"%": "%(levelname)s:%(name)s:%(message)s", "{": "{levelname}:{name}:{message}"}
# The record's fields a format may name here; the others CPython has are refused.
RECORD_FIELDS = frozenset(
    {
        "name", "msg", "args", "levelname", "levelno", "pathname", "filename", "module",
        "lineno", "created", "msecs", "relativeCreated", "asctime", "message", "threadName",
        "processName",
    }
)  # fmt: skip
UNKEPT_FIELDS = frozenset(
    {"funcName", "process", "thread", "exc_info", "exc_text", "stack_info", "taskName"}
)
# CPython's check that a `%` format names a field at all (`Formatter(validate=True)`).
PERCENT_FIELD = re.compile(r"%\(\w+\)[#0+ -]*(\*|\d+)?(\.(\*|\d+))?[diouxefgcrsa%]", re.I)
FIELD_NAMES = {"%": re.compile(r"%\((\w+)\)"), "{": re.compile(r"\{(\w+)")}
# A `datefmt`'s directives: those with one meaning in every locale, no widths.
DATE_DIRECTIVE = re.compile(r"%(.?)")
DATE_LETTERS = frozenset("aAbBdHIjmMpSUwWyYzZ%")
MAX_DATEFMT = 1_000


def level_number(level: Any) -> int:
    """A level as `setLevel` takes it: an integer, or a level's name."""
    if type(level) is int or type(level) is bool:
        return int(level)
    if type(level) is str:
        if level in LOG_LEVELS:
            return LOG_LEVELS[level]
        raise ProgramError(f"Unknown level: {level!r}", kind="ValueError")
    shown = f": {level!r}" if level is None or type(level) is float else ""
    raise ProgramError(f"Level not an integer or a valid string{shown}", kind="TypeError")


def level_name(level: int) -> str:
    return LEVEL_NAMES.get(level, f"Level {level}")


def formatter(state: State, fmt: Any, datefmt: Any = None, style: Any = "%") -> PModule:
    """A `Formatter`: its format checked as CPython's is (its style, a field named), and
    a field CPython has that is not kept here refused (a step per ten characters)."""
    if fmt is not None and type(fmt) is not str:
        raise ProgramError("Formatter(fmt) takes a string", kind="TypeError")
    state.charge(len(fmt or "") // ITEMS_PER_STEP)
    if datefmt is not None and type(datefmt) is not str:
        raise ProgramError("Formatter(datefmt=...) takes a string", kind="TypeError")
    if style not in ("%", "{", "$"):
        raise ProgramError("Style must be one of: %,{,$", kind="ValueError")
    if style == "$":
        raise ProgramError("a log format of style '$' is not available here; use '%' or '{'")
    text = fmt
    if text is None:  # `Formatter()`'s own (basicConfig's default is passed in)
        text = "%(message)s" if style == "%" else "{message}"
    if style == "%" and not PERCENT_FIELD.search(text):
        raise ProgramError(f"Invalid format '{text}' for '%' style", kind="ValueError")
    if style == "{" and not FIELD_NAMES["{"].search(text):
        raise ProgramError("invalid format: no fields", kind="ValueError")
    for field in FIELD_NAMES[style].findall(text):
        if field in UNKEPT_FIELDS:
            raise ProgramError(
                f"the log field {field!r} is not available here (the record keeps the "
                f"fields {', '.join(sorted(RECORD_FIELDS))})"
            )
    if datefmt is not None:
        if len(datefmt) > MAX_DATEFMT:
            raise ProgramError(f"a datefmt of more than {MAX_DATEFMT:,} characters")
        for directive in DATE_DIRECTIVE.findall(datefmt):
            if directive not in DATE_LETTERS:
                raise ProgramError(
                    f"the datefmt directive '%{directive}' is not available here "
                    "(%Y %m %d %H %M %S %I %p %j %a %A %b %B %y %w %U %W %z %Z %% are)"
                )
    members = {"_fmt": text, "datefmt": datefmt, "_style": style, LOG_KIND: "Formatter"}
    return PModule("Formatter", members)


def _formatter_call(state: State) -> Callable[[list[Any], dict[str, Any]], PModule]:
    """`logging.Formatter(fmt, datefmt, style)`."""

    def call(args: list[Any], kwargs: dict[str, Any]) -> PModule:
        names = ("fmt", "datefmt", "style", "validate")
        named = set(kwargs)
        if len(args) > 4 or named - set(names) or any(n in named for n in names[: len(args)]):
            raise ProgramError("Formatter() takes fmt, datefmt and style", kind="TypeError")
        given = dict(zip(names, args, strict=False)) | kwargs
        return formatter(state, given.get("fmt"), given.get("datefmt"), given.get("style", "%"))

    return call


def handler(kind: str, stream: Any = None) -> PModule:
    """A `StreamHandler` (its stream the printed output, as stderr is here, or
    `sys.stdout`, or an `io.StringIO`) or a `NullHandler`."""
    members: dict[str, Any] = {"level": 0, "formatter": None, "stream": stream, LOG_KIND: kind}

    def set_level(a: list[Any], k: dict[str, Any]) -> None:
        members["level"] = level_number(a[0] if a else k.get("level"))

    def set_formatter(a: list[Any], k: dict[str, Any]) -> None:
        if len(a) + len(k) != 1:
            raise ProgramError("setFormatter() takes one formatter", kind="TypeError")
        given = a[0] if a else k.get("fmt")
        if given is not None and _kind(given) != "Formatter":
            raise ProgramError("setFormatter() takes a logging.Formatter here")
        members["formatter"] = given

    members["setLevel"] = Builtin("Handler.setLevel", set_level)
    members["setFormatter"] = Builtin("Handler.setFormatter", set_formatter)
    return PModule(kind, members)


def _stream_handler(args: list[Any], kwargs: dict[str, Any]) -> PModule:
    """`logging.StreamHandler()` (CPython's writes to stderr: printed here), or given
    `sys.stdout` or an `io.StringIO()`."""
    if len(args) + len(kwargs) > 1 or set(kwargs) - {"stream"}:
        raise ProgramError("StreamHandler() takes one stream", kind="TypeError")
    stream = args[0] if args else kwargs.get("stream")
    if stream is not None and type(stream) is not Stream and type(stream) is not TextBuffer:
        raise ProgramError(
            "logging.StreamHandler(stream) writes to sys.stdout or an io.StringIO() here "
            "(with no stream, to stderr: printed too)"
        )
    return handler("StreamHandler", stream)


def _null_handler(args: list[Any], kwargs: dict[str, Any]) -> PModule:
    if args or kwargs:
        raise ProgramError("NullHandler() takes no arguments", kind="TypeError")
    return handler("NullHandler")


def _handler_call(state: State, members: dict[str, Any], add: bool) -> Callable[..., None]:
    """`addHandler` (`add`) or `removeHandler` of the logger whose table is `members`, on
    its `handlers` list as it is now (a program may set another): a step per ten handlers
    looked at."""

    def call(args: list[Any], kwargs: dict[str, Any]) -> None:
        handlers = members["handlers"]
        if len(args) != 1 or kwargs:
            raise ProgramError("addHandler() takes one handler", kind="TypeError")
        given = args[0]
        if _kind(given) not in LOG_HANDLERS:
            raise ProgramError(
                "a logger's handler here is a logging.StreamHandler() or NullHandler()"
            )
        state.charge(len(handlers) // ITEMS_PER_STEP)
        if add and not any(one is given for one in handlers):
            handlers.append(given)
        elif not add:  # the first of it only, as CPython's `list.remove`
            found = next((i for i, one in enumerate(handlers) if one is given), None)
            if found is not None:
                del handlers[found]

    return call


class Logging:
    """One run's loggers (`getLogger(name)`, one per name, the root `'root'`), the
    `disable` level and the printing of what they log."""

    def __init__(self, library: Library, clock: Callable[[], float]) -> None:
        self.library = library
        self.state: State = library.state
        self.clock = clock
        self.loggers: dict[str, PModule] = {}
        self.disabled = 0  # `logging.disable(level)`
        self.caches: dict[str, dict[int, bool]] = {}  # each logger's `_cache`

    # Loggers

    def logger(self, name: str) -> PModule:
        if name in self.loggers:
            return self.loggers[name]
        members: dict[str, Any] = {
            call: self.log_call(name, call, LOG_CALLS[call], f"Logger.{call}") for call in LOG_CALLS
        }
        members["log"] = self.log_call(name, "log", None, "Logger.log")
        members["name"] = name
        members["level"] = 30 if name == "root" else 0
        members["propagate"] = True
        members["disabled"] = False
        members[LOG_KIND] = "Logger"

        def set_level(args: list[Any], kwargs: dict[str, Any]) -> None:
            members["level"] = level_number(args[0] if args else kwargs.get("level"))
            self.caches.clear()

        def is_enabled_for(args: list[Any], kwargs: dict[str, Any]) -> bool:
            return self.enabled(name, level_number(args[0] if args else kwargs.get("level")))

        members["setLevel"] = Builtin("Logger.setLevel", set_level)
        members[WRITABLE] = {
            "propagate": _kept, "disabled": _kept, "level": _level_set, "handlers": _list_set
        }  # fmt: skip
        members["handlers"] = []
        add = _handler_call(self.state, members, True)
        members["addHandler"] = Builtin("Logger.addHandler", add)
        remove = _handler_call(self.state, members, False)
        members["removeHandler"] = Builtin("Logger.removeHandler", remove)
        members["hasHandlers"] = Builtin(
            "Logger.hasHandlers", lambda args, kwargs: bool(self.handlers_of(name))
        )
        members["getEffectiveLevel"] = Builtin(
            "Logger.getEffectiveLevel", lambda args, kwargs: self.effective(name)
        )
        members["isEnabledFor"] = Builtin("Logger.isEnabledFor", is_enabled_for)
        if name != "root":
            members["parent"] = _nearest_ancestor(self.state, self.loggers, name, self.root)
        else:
            members["parent"] = None
        made = self.loggers[name] = PModule(name, members)
        _adopt(self.state, self.loggers, made)
        return made

    @property
    def root(self) -> PModule:
        return self.logger("root")

    def effective(self, name: str) -> int:
        """The level of the nearest of `name`'s dotted ancestors that has one, the root's
        at the end: a step per ancestor looked at, each a cut of the name."""
        loggers, state = self.loggers, self.state
        while True:
            level = self.logger(name).members["level"]
            if level or name == "root":
                return int(level)
            end = name.rfind(".")
            state.charge(1 + len(name) // ITEMS_PER_STEP)
            while end > 0 and name[:end] not in loggers:
                end = name.rfind(".", 0, end)
                state.charge(1 + end // ITEMS_PER_STEP)
            name = name[:end] if end > 0 else "root"

    def enabled(self, name: str, level: int) -> bool:
        """`Logger.isEnabledFor`, with CPython's cache of its answers (which `setLevel`
        and `disable` clear, and a write of `logger.level` does not)."""
        if self.truthy(self.logger(name).members["disabled"]):
            return False
        cache = self.caches.setdefault(name, {})
        if level not in cache:
            cache[level] = self.disabled < level and level >= self.effective(name)
        return cache[level]

    def truthy(self, value: Any) -> bool:
        return bool(self.library.machine.truthy(value))

    def handlers_of(self, name: str) -> list[Any]:
        """The handlers a record of `name` reaches, as `Logger.callHandlers` walks them:
        its own, then each parent's while `propagate` is true."""
        found: list[Any] = []
        logger: PModule | None = self.logger(name)
        while logger is not None:
            self.state.charge(1 + len(logger.members["handlers"]) // ITEMS_PER_STEP)
            found.extend(logger.members["handlers"])
            propagate = self.truthy(logger.members["propagate"])
            logger = logger.members["parent"] if propagate else None
        return found

    # Logging

    def log_call(self, name: str, call: str, level: int | None, shown: str) -> Builtin:
        """`logger.info(msg, *args)` (and `log(level, msg, *args)`); the module's own
        (`name` None) configure the root first when it has no handler, as CPython's do."""

        def run(args: list[Any], kwargs: dict[str, Any]) -> None:
            at = level
            if at is None:
                if not args:
                    raise ProgramError(
                        f"{shown}() missing 2 required positional arguments: 'level' and 'msg'",
                        kind="TypeError",
                    )
                if type(args[0]) is not int and type(args[0]) is not bool:
                    raise ProgramError("level must be an integer", kind="TypeError")
                at, args = int(args[0]), args[1:]
            if not args:
                raise ProgramError(
                    f"{shown}() missing 1 required positional argument: 'msg'", kind="TypeError"
                )
            if call == "warn":  # CPython's deprecated alias of `warning`
                kind = "function" if name == "" else "method"
                words = f"The 'warn' {kind} is deprecated, use 'warning' instead"
                self.library.warn(words, "DeprecationWarning")
            if name == "" and not self.root.members["handlers"]:
                self.basic_config([], {})  # the module's `logging.info(...)`: the root's
            if call == "exception":
                kwargs = {"exc_info": True, **kwargs}
            self.log(name or "root", at, args[0], list(args[1:]), kwargs)

        return Builtin(shown, run)

    def log(self, name: str, level: int, msg: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
        """One record, made and handed to the handlers it reaches when its level is
        enabled (as `Logger._log`)."""
        if not self.enabled(name, level):
            return
        for key in kwargs:
            if key not in CALL_KEYWORDS:
                raise ProgramError(
                    f"Logger._log() got an unexpected keyword argument '{key}'", kind="TypeError"
                )
        truthy = self.library.machine.truthy
        for key in ("exc_info", "stack_info"):
            if key in kwargs and truthy(kwargs[key]):
                raise ProgramError(
                    f"a log line with {key} (logger.exception(), {key}=True) would print a "
                    "Python traceback, which is not available here; log the exception's "
                    "words instead (logger.error('failed: %s', e))"
                )
        record = self.record(name, level, msg, args, kwargs.get("extra"))
        handlers = self.handlers_of(name)
        for one in handlers:
            if _kind(one) not in LOG_HANDLERS:  # (`logger.handlers.append(3)`)
                shown = self.library.machine.texts.to_repr(one)[:80]
                raise ProgramError(
                    f"a logger's handlers hold {shown}, which is no handler: they are "
                    "logging.StreamHandler() or NullHandler() here (CPython fails on it "
                    "when a record reaches it)"
                )
            if level >= one.members["level"] and _kind(one) == "StreamHandler":
                self.emit(one.members["formatter"], one.members["stream"], record)
        if not handlers and level >= 30:  # CPython's `lastResort`: the message alone
            self.emit(None, None, record)

    def record(
        self, name: str, level: int, msg: Any, args: list[Any], extra: Any
    ) -> dict[str, Any]:
        created = self.clock()
        fields: dict[str, Any] = {
            "name": name, "msg": msg, "args": tuple(args), "levelname": level_name(level),
            "levelno": level, "pathname": FAKE_FILE, "filename": "main.py", "module": "main",
            "lineno": self.state.position[0], "created": created,
            "msecs": int((created - int(created)) * 1000) + 0.0,
            "relativeCreated": created * 1000, "threadName": "MainThread",
            "processName": "MainProcess",
        }  # fmt: skip
        if len(args) == 1 and type(args[0]) is dict and args[0]:
            fields["args"] = args[0]  # `log.info('%(n)d', {'n': 1})`: CPython's mapping
        if extra is not None:
            if type(extra) is not dict:
                raise ProgramError("a log call's extra= is a dict here", kind="TypeError")
            self.state.charge(len(extra) // ITEMS_PER_STEP)
            for key, value in extra.items():
                if key in ("message", "asctime") or key in fields:
                    raise ProgramError(
                        f"Attempt to overwrite {key!r} in LogRecord", kind="KeyError"
                    )
                fields[key] = value
        return fields

    def message(self, record: dict[str, Any]) -> str:
        """`record.getMessage()`: `str(msg)`, then `% args` where there are any."""
        machine = self.library.machine
        text = machine.texts.to_str(record["msg"])
        if record["args"]:
            text = machine.binary("%", text, record["args"])
        return str(text)

    def emit(self, fmt: PModule | None, stream: Any, record: dict[str, Any]) -> None:
        """One handler's line, printed (or written to its stream)."""
        try:
            line = self.formatted(fmt, record)
        except ProgramError as error:
            if error.kind is None:
                raise
            said = error.message  # (a program's own exception says its class already)
            said = said if said.startswith(f"{error.kind}: ") else f"{error.kind}: {said}"
            raise ProgramError(
                f"this log line could not be formatted ({said}); "
                "CPython prints '--- Logging error ---' and a traceback to stderr and "
                "goes on, which is not available here"
            ) from None
        kwargs = {} if stream is None else {"file": stream}
        self.library.print_([line], kwargs)

    def formatted(self, fmt: PModule | None, record: dict[str, Any]) -> str:
        machine = self.library.machine
        if fmt is None:
            return self.message(record)
        text, style = fmt.members["_fmt"], fmt.members["_style"]
        fields = dict(record)
        fields["message"] = self.message(record)
        if ("%(asctime)" if style == "%" else "{asctime") in text:
            fields["asctime"] = self.asctime(record, fmt.members["datefmt"])
        if style == "%":
            return str(machine.binary("%", text, fields))
        return str(machine.call(machine.get_attr(text, "format_map"), [fields]))

    def asctime(self, record: dict[str, Any], datefmt: str | None) -> str:
        """`Formatter.formatTime` of the program's clock, in UTC."""
        when = time.gmtime(record["created"])
        if datefmt is not None:
            self.state.charge(len(datefmt) // ITEMS_PER_STEP)
            shown = time.strftime(datefmt, when)
            self.state.check_str(len(shown))
            return shown
        return f"{time.strftime('%Y-%m-%d %H:%M:%S', when)},{int(record['msecs']):03d}"

    # The module

    def basic_config(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        """`basicConfig(...)`: the root given a handler, once (`force=True` again), as
        CPython's; a file is refused."""
        if args:
            raise ProgramError("basicConfig() takes keyword arguments only", kind="TypeError")
        for key in ("filename", "filemode"):
            if key in kwargs:
                raise ProgramError(
                    f"basicConfig({key}=...) is not available: there are no files here "
                    "(log lines are printed, as CPython's stderr is)"
                )
        handlers = self.root.members["handlers"]
        if kwargs.get("force"):
            handlers.clear()
        if handlers:
            return  # CPython's root has its handler: a later call does nothing
        given = kwargs.get("handlers")
        if given is not None and "stream" in kwargs:
            raise ProgramError(
                "'stream' and 'handlers' should not be specified together", kind="ValueError"
            )
        if given is None:
            made = [_stream_handler([kwargs["stream"]] if "stream" in kwargs else [], {})]
        else:
            made = self.library.collect(given)
        style = kwargs.get("style", "%")
        if style not in ("%", "{", "$"):
            raise ProgramError("Style must be one of: %,{,$", kind="ValueError")
        text = kwargs.get("format", DEFAULT_FORMATS.get(style))
        fmt = formatter(self.state, text, kwargs.get("datefmt"), style)
        add = self.root.members["addHandler"]
        for one in made:
            add.call([one], {})
            if one.members["formatter"] is None:
                one.members["formatter"] = fmt
        if kwargs.get("level") is not None:
            self.root.members["level"] = level_number(kwargs["level"])
            self.caches.clear()
        unknown = [key for key in kwargs if key not in LOG_CONFIG]
        if unknown:
            raise ProgramError(f"Unrecognised argument(s): {', '.join(unknown)}", kind="ValueError")

    def module(self) -> PModule:
        members: dict[str, Any] = dict(LOG_LEVELS)
        for call, level in LOG_CALLS.items():
            members[call] = self.log_call("", call, level, call)
        members["log"] = self.log_call("", "log", None, "log")

        def disable(args: list[Any], kwargs: dict[str, Any]) -> None:
            self.disabled = level_number(args[0] if args else kwargs.get("level", 50))
            self.caches.clear()

        def get_logger(args: list[Any], kwargs: dict[str, Any]) -> PModule:
            name = args[0] if args else kwargs.get("name", "root")
            if len(args) > 1 or set(kwargs) - {"name"} or not isinstance(name, str | None):
                raise ProgramError("getLogger() takes a logger's name", kind="TypeError")
            return self.logger(name or "root")

        def get_level_name(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if len(args) != 1 or kwargs:
                raise ProgramError("getLevelName() takes one level", kind="TypeError")
            level = args[0]
            if type(level) is int and level in LEVEL_NAMES:
                return LEVEL_NAMES[level]
            if type(level) is str and level in LOG_LEVELS:
                return LOG_LEVELS[level]
            return f"Level {self.library.machine.texts.to_str(level)}"

        members["disable"] = Builtin("logging.disable", disable)
        members["getLogger"] = Builtin("logging.getLogger", get_logger)
        members["getLevelName"] = Builtin("logging.getLevelName", get_level_name)
        members["basicConfig"] = Builtin("logging.basicConfig", self.basic_config)
        members["StreamHandler"] = Builtin("logging.StreamHandler", _stream_handler)
        members["NullHandler"] = Builtin("logging.NullHandler", _null_handler)
        members["Formatter"] = Builtin("logging.Formatter", _formatter_call(self.state))
        return PModule("logging", members)


def _kind(value: Any) -> str | None:
    """What `logging` made `value` as (`LOG_KIND`); None for anything else."""
    return value.members.get(LOG_KIND) if type(value) is PModule else None


def _kept(value: Any) -> Any:
    """`logger.propagate = False`, `logger.disabled = True`: kept, read for its truth."""
    return value


def _list_set(value: Any) -> list[Any]:
    """`logger.handlers = []`: the list itself, which the logger's handlers are now (CPython
    takes anything, and fails when it logs)."""
    if type(value) is not list:
        raise ProgramError("a logger's handlers is set to a list here")
    return value


def _level_set(value: Any) -> int:
    """`logger.level = logging.DEBUG`: an integer (CPython takes anything, and fails
    when it logs)."""
    if type(value) is not int and type(value) is not bool:
        raise ProgramError("a logger's level is set to an integer here (or use setLevel)")
    return int(value)


def logging_module(library: Library, clock: Callable[[], float]) -> PModule:
    return Logging(library, clock).module()


def _nearest_ancestor(
    state: State, loggers: dict[str, PModule], name: str, root: PModule
) -> PModule:
    """The logger of `name`'s nearest dotted ancestor that has one, else the root (a step
    per cut of the name looked at, as `effective` charges)."""
    end = name.rfind(".")
    while end > 0 and name[:end] not in loggers:
        state.charge(1 + end // ITEMS_PER_STEP)
        end = name.rfind(".", 0, end)
    return loggers[name[:end]] if end > 0 else root


def _adopt(state: State, loggers: dict[str, PModule], made: PModule) -> None:
    """CPython's `_fixupChildren`: the loggers below a new one whose parent was above it
    have it as their parent now (a step per ten loggers looked at)."""
    state.charge(len(loggers) // ITEMS_PER_STEP)
    below, root = made.name + ".", loggers["root"]
    for other in loggers.values():
        parent = other.members["parent"]
        if other.name.startswith(below) and (parent is root or len(parent.name) < len(made.name)):
            other.members["parent"] = made
