"""`import os` as example scripts and test files use it to set up their paths
(`sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..')))`),
which is harmless here, since every import is the interpreter's own.

The module is the interpreter's: `os.path`'s pure string functions, computed by
CPython's `posixpath` over plain strings only (each argument type-checked first, with
CPython's TypeError words), charged by the lengths they read and kept within the string
bound; `abspath`, `realpath` and `relpath` against a fixed fake working directory,
`FAKE_CWD` (nothing is resolved on the host: there are no links here); the constants
(`os.sep`, `os.pardir`, `os.curdir`, `os.linesep`...); `os.environ`, an empty
read-only mapping of the program's own, and `os.getenv`; `os.getcwd()`, the fake
directory. `__file__` is `FAKE_FILE`, in it.

Everything else CPython's `os` and `os.path` have touches the files, the environment or
the process (`exists`, `listdir`, `makedirs`, `remove`, `system`, `getpid`, `urandom`,
`environ` writes...): it is refused with a sentence naming it, before the program runs
where the compiler sees it (`REFUSED_NAMES`, `Compiler.refuse_host_calls`), else when it
is read, a refusal no `except` catches, so a program cannot probe the host.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import (
    MISSING,
    Builtin,
    NativeMethod,
    PClass,
    PInstance,
    PModule,
    PSet,
)
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    STRING_CHARS_PER_STEP,
    ProgramError,
    State,
)
from backprop_animator.engine.interpreter.text import python_type_name

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.library import Library

FAKE_CWD = "/program"  # what `os.getcwd()` says, and where relative paths start
FAKE_FILE = "/program/main.py"  # `__file__`: the program, in the fake working directory

# The names of CPython's `os` and `os.path` (its `posixpath`) that touch the host: any
# of them the program names is refused. Only the names are read off the host's modules.
OS_CONSTANTS: dict[str, Any] = {
    "sep": "/",
    "altsep": None,
    "extsep": ".",
    "pathsep": ":",
    "curdir": ".",
    "pardir": "..",
    "linesep": "\n",
    "devnull": "/dev/null",
    "defpath": "/bin:/usr/bin",
    "name": "posix",
}
PATH_CONSTANTS: dict[str, Any] = {
    key: OS_CONSTANTS[key]
    for key in ("sep", "altsep", "extsep", "pathsep", "curdir", "pardir", "devnull", "defpath")
}
PATH_CONSTANTS["supports_unicode_filenames"] = False
PATH_FUNCTIONS = (
    "join", "dirname", "basename", "split", "splitext", "normpath", "abspath", "realpath",
    "isabs", "relpath", "commonpath", "commonprefix", "normcase", "splitdrive",
)  # fmt: skip
OS_FUNCTIONS = ("getenv", "getcwd", "fspath")
REFUSED_NAMES: dict[str, frozenset[str]] = {
    "os": frozenset(
        name
        for name in {*dir(os), "startfile", "getlogin", "add_dll_directory"}
        if not name.startswith("__")
        and name not in OS_CONSTANTS
        and name not in OS_FUNCTIONS
        and name not in ("path", "environ")
    )
    | {"environb", "getenvb", "putenv", "unsetenv"},
    "posixpath": frozenset(
        name
        for name in dir(posixpath)
        if not name.startswith("__") and name not in PATH_CONSTANTS and name not in PATH_FUNCTIONS
    ),
}
WRITE_WORDS = {"__setitem__": "os.environ[key] = value", "__delitem__": "del os.environ[key]"}
# The types whose truth CPython's `relpath` tests without calling a program's code.
FALSY_PLAIN = (str, bytes, int, float, bool, list, tuple, dict, type(None))
ENVIRON_WRITES = ("__setitem__", "__delitem__", "setdefault", "pop", "popitem", "update", "clear")


def refusal(module: str, name: str) -> str | None:
    """Why `module.name` (`os`, or `posixpath`, which is `os.path`) is refused, or None
    where CPython's module has no such name."""
    if name in REFUSED_NAMES.get(module, ()):
        said = "os.path" if module == "posixpath" else module
        return (
            f"{said}.{name} is not available here: a program here never reaches the "
            "files, the environment or the processes of the machine it runs on "
            f"(os.path's string functions are; the working directory is {FAKE_CWD})"
        )
    return None


def fspath(value: Any) -> str:
    """A path argument as CPython's `os.fspath` takes it: a string; bytes are refused
    here; anything else CPython's TypeError."""
    if type(value) is str:
        return value
    path_like(value)
    wrong = python_type_name(value)
    raise ProgramError(f"expected str, bytes or os.PathLike object, not {wrong}", kind="TypeError")


def path_like(value: Any) -> None:
    """Refuse a path CPython takes but this module does not: bytes, or an object of the
    program's whose class has `__fspath__` (CPython calls it; here no path function calls
    a program's code), rather than say CPython's TypeError where CPython gives none."""
    if type(value) is bytes:
        raise ProgramError("os.path over bytes is not available here: paths are strings")
    if type(value) is PInstance and value.cls.lookup("__fspath__") is not MISSING:
        raise ProgramError(
            "an os.PathLike object (a class with __fspath__) is not available here as a "
            "path: paths are strings (pass str(...) or the string itself)"
        )


def fake_abspath(path: str) -> str:
    """CPython's `posixpath.abspath` with `FAKE_CWD` as the working directory."""
    if not path.startswith("/"):
        path = posixpath.join(FAKE_CWD, path)
    return posixpath.normpath(path)


def fake_relpath(path: str, start: str) -> str:
    """CPython's `posixpath.relpath` with `FAKE_CWD` as the working directory."""
    start_list = [x for x in fake_abspath(start).split("/") if x]
    path_list = [x for x in fake_abspath(path).split("/") if x]
    i = len(posixpath.commonprefix([start_list, path_list]))
    rel_list = [".."] * (len(start_list) - i) + path_list[i:]
    if not rel_list:
        return "."
    return posixpath.join(*rel_list)


def arguments(
    name: str, params: tuple[str, ...], args: list[Any], kwargs: dict[str, Any], least: int = 0
) -> list[Any]:
    """The arguments of `name(*params)` in order, as CPython binds them, in its words
    (`least`: how many are required, where the others have defaults)."""
    if len(args) > len(params):
        counted = f"from {least} to {len(params)}" if least else str(len(params))
        raise ProgramError(
            f"{name}() takes {counted} positional argument"
            f"{'' if counted == '1' else 's'} but {len(args)} were given",
            kind="TypeError",
        )
    for key in kwargs:
        if key not in params:
            raise ProgramError(
                f"{name}() got an unexpected keyword argument '{key}'", kind="TypeError"
            )
        if params.index(key) < len(args):
            raise ProgramError(
                f"{name}() got multiple values for argument '{key}'", kind="TypeError"
            )
    bound = list(args)
    for param in params[len(args) :]:
        if param not in kwargs:
            raise ProgramError(
                f"{name}() missing 1 required positional argument: '{param}'", kind="TypeError"
            )
        bound.append(kwargs[param])
    return bound


def with_default(args: list[Any], kwargs: dict[str, Any], name: str) -> dict[str, Any]:
    """`kwargs` with the second parameter, `name`, None where it is not given."""
    given = dict(kwargs)
    if len(args) < 2 and name not in given:
        given[name] = None
    return given


class PathFunctions:
    """`os.path`'s string functions over one run's state: each reads its arguments
    (a step per ten characters, as making a string of them) and keeps its result within
    the string bound."""

    def __init__(self, state: State) -> None:
        self.state = state

    def charged(self, *texts: str) -> None:
        self.state.charge(1 + sum(len(t) for t in texts) // STRING_CHARS_PER_STEP)

    def result(self, text: str) -> str:
        self.state.check_str(len(text))
        return text

    def one_path(self, name: str, param: str, work: Callable[[str], Any]) -> Builtin:
        """A function of one path, `dirname(p)`: its string, or tuple of strings, or bool."""

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            (value,) = arguments(name, (param,), args, kwargs)
            path = fspath(value)
            self.charged(path)
            made = work(path)
            if type(made) is str:
                return self.result(made)
            if type(made) is tuple:
                return tuple(self.result(part) for part in made)
            return made

        return Builtin(name, call)

    def join(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        if kwargs:
            key = next(iter(kwargs))
            raise ProgramError(
                f"join() got an unexpected keyword argument '{key}'", kind="TypeError"
            )
        if not args:
            raise ProgramError(
                "join() missing 1 required positional argument: 'a'", kind="TypeError"
            )
        first = fspath(args[0])
        parts = []
        for value in args[1:]:
            if type(value) is not str:
                path_like(value)  # bytes, `__fspath__`: refused
                wrong = python_type_name(value)
                raise ProgramError(
                    f"join() argument must be str, bytes, or os.PathLike object, not '{wrong}'",
                    kind="TypeError",
                )
            parts.append(value)
        self.charged(first, *parts)
        self.state.check_str(len(first) + sum(len(p) + 1 for p in parts))
        return self.result(posixpath.join(first, *parts))

    def realpath(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        given = dict(kwargs)
        strict = given.pop("strict", False)
        (value,) = arguments("realpath", ("filename",), args, given)
        if strict is not False:
            raise ProgramError("os.path.realpath(strict=True) is not available here")
        path = fspath(value)
        self.charged(path)
        return self.result(fake_abspath(path))

    def relpath(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        if not args and "path" not in kwargs:
            raise ProgramError(
                "relpath() missing 1 required positional argument: 'path'", kind="TypeError"
            )
        given = with_default(args, kwargs, "start")
        value, start = arguments("relpath", ("path", "start"), args, given, 1)
        if type(value) in FALSY_PLAIN and not value:
            # CPython's `if not path:` before `os.fspath(path)`: `relpath(None)`, `relpath(0)`
            raise ProgramError("no path specified", kind="ValueError")
        path = fspath(value)
        start = "." if start is None else fspath(start)
        self.charged(path, start, FAKE_CWD, FAKE_CWD)
        return self.result(fake_relpath(path, start))

    def paths_of(self, name: str, value: Any) -> list[str]:
        if type(value) not in (list, tuple):
            raise ProgramError(f"os.path.{name}() takes a list or a tuple of paths here")
        self.state.charge(1 + len(value) // ITEMS_PER_STEP)
        return [fspath(item) for item in value]

    def commonpath(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        (value,) = arguments("commonpath", ("paths",), args, kwargs)
        paths = self.paths_of("commonpath", value)
        if not paths:
            raise ProgramError("commonpath() arg is an empty sequence", kind="ValueError")
        self.charged(*paths)
        try:
            return self.result(posixpath.commonpath(paths))
        except ValueError as error:  # "Can't mix absolute and relative paths"
            raise ProgramError(str(error), kind="ValueError") from None

    def commonprefix(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        (value,) = arguments("commonprefix", ("m",), args, kwargs)
        paths = self.paths_of("commonprefix", value)
        self.charged(*paths)
        return self.result(posixpath.commonprefix(paths))

    def module(self) -> PModule:
        one = self.one_path
        functions: dict[str, Any] = {
            "join": Builtin("join", self.join),
            "dirname": one("dirname", "p", posixpath.dirname),
            "basename": one("basename", "p", posixpath.basename),
            "split": one("split", "p", posixpath.split),
            "splitext": one("splitext", "p", posixpath.splitext),
            "splitdrive": one("splitdrive", "p", posixpath.splitdrive),
            "normpath": one("normpath", "path", posixpath.normpath),
            "normcase": one("normcase", "s", posixpath.normcase),
            "isabs": one("isabs", "s", posixpath.isabs),
            "abspath": one("abspath", "path", fake_abspath),
            "realpath": Builtin("realpath", self.realpath),
            "relpath": Builtin("relpath", self.relpath),
            "commonpath": Builtin("commonpath", self.commonpath),
            "commonprefix": Builtin("commonprefix", self.commonprefix),
        }
        return PModule("posixpath", {**functions, **PATH_CONSTANTS})


def getenv(args: list[Any], kwargs: dict[str, Any]) -> Any:
    given = with_default(args, kwargs, "default")
    key, default = arguments("getenv", ("key", "default"), args, given, 1)
    environ_key(key)
    return default


def getcwd(args: list[Any], kwargs: dict[str, Any]) -> str:
    if args or kwargs:
        words = f"posix.getcwd() takes no arguments ({len(args)} given)"
        if kwargs:
            words = "posix.getcwd() takes no keyword arguments"
        raise ProgramError(words, kind="TypeError")
    return FAKE_CWD


def fspath_function(args: list[Any], kwargs: dict[str, Any]) -> str:
    (value,) = arguments("fspath", ("path",), args, kwargs)
    return fspath(value)


def os_modules(library: Library) -> dict[str, PModule]:
    """`os` and `os.path` (see the module's docstring), made for one run."""
    path = PathFunctions(library.state).module()
    members: dict[str, Any] = {
        **OS_CONSTANTS,
        "path": path,
        "environ": environ_object(),
        "getenv": Builtin("getenv", getenv),
        "getcwd": Builtin("getcwd", getcwd),
        "fspath": Builtin("fspath", fspath_function),
    }
    return {"os": PModule("os", members), "os.path": path}


def environ_key(key: Any) -> str:
    """A key of `os.environ` as CPython's takes it: a string, else its TypeError."""
    if type(key) is not str:
        raise ProgramError(f"str expected, not {python_type_name(key)}", kind="TypeError")
    return key


def environ_object() -> PInstance:
    """`os.environ`: an empty mapping of the program's own, read as CPython's is read
    (`get` with a default, `in`, `[key]` a KeyError, `len`, iteration, `copy()`, `==` a
    mapping as CPython's `Mapping.__eq__` compares, unhashable, its `keys()`/`values()`/
    `items()` empty views); a write is refused, since CPython's changes the process's
    environment."""

    def getitem(args: list[Any], kwargs: dict[str, Any]) -> Any:
        _, key = arguments("_Environ.__getitem__", ("self", "key"), args, kwargs)
        key = environ_key(key)
        error = ProgramError(repr(key), kind="KeyError")
        error.args_seen = (key,)
        raise error

    def get(args: list[Any], kwargs: dict[str, Any]) -> Any:
        # CPython's `Mapping.get(self, key, default=None)`, in its words
        given = dict(kwargs)
        if len(args) < 3 and "default" not in given:
            given["default"] = None
        _, key, default = arguments("Mapping.get", ("self", "key", "default"), args, given, 2)
        environ_key(key)
        return default

    def contains(args: list[Any], kwargs: dict[str, Any]) -> bool:
        _, key = arguments("Mapping.__contains__", ("self", "key"), args, kwargs)
        environ_key(key)
        return False

    def of_self(name: str, answer: Callable[[], Any]) -> NativeMethod:
        """A method of `self` alone (`len`, `keys()`, `copy()`), its arguments checked
        in CPython's words (`type(os.environ).__len__()`, `os.environ.copy(1)`)."""

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            arguments(name, ("self",), args, kwargs)
            return answer()

        return NativeMethod(name.rpartition(".")[2], call)

    def refused(name: str) -> NativeMethod:
        said = WRITE_WORDS.get(name, f"os.environ.{name}()")

        def call(args: list[Any], kwargs: dict[str, Any]) -> None:
            raise ProgramError(
                f"{said} is not available here: a program here never changes the "
                "environment of the machine it runs on (os.environ is empty and read-only)"
            )

        return NativeMethod(name, call)

    def equal(args: list[Any], kwargs: dict[str, Any]) -> Any:
        # `Mapping.__eq__`: equal to any mapping with the same items (here: an empty one).
        self, other = arguments("Mapping.__eq__", ("self", "other"), args, kwargs)
        if type(other) is dict:
            return not other
        return True if other is self else NotImplemented

    namespace: dict[str, Any] = {
        "__getitem__": NativeMethod("__getitem__", getitem),
        "__contains__": NativeMethod("__contains__", contains),
        "__len__": of_self("_Environ.__len__", lambda: 0),
        "__iter__": of_self("_Environ.__iter__", lambda: iter(())),
        "__repr__": of_self("_Environ.__repr__", lambda: "environ({})"),
        "get": NativeMethod("get", get),
        "__eq__": NativeMethod("__eq__", equal),  # and so unhashable, as CPython's
        "copy": of_self("_Environ.copy", dict),
        **{name: refused(name) for name in ENVIRON_WRITES},
    }
    for name, view in (("keys", "KeysView"), ("values", "ValuesView"), ("items", "ItemsView")):
        namespace[name] = of_self(f"Mapping.{name}", empty_view(view))
    return PInstance(PClass("_Environ", (), namespace))


def empty_view(name: str) -> Callable[[], PInstance]:
    """`os.environ.keys()` (`values()`, `items()`): an empty view, printed as CPython's
    (`KeysView(environ({}))`); a keys or items view is a set, equal to an empty one."""

    def contains(args: list[Any], kwargs: dict[str, Any]) -> bool:
        _, key = arguments(f"{name}.__contains__", ("self", "key"), args, kwargs)
        if name != "ItemsView":
            environ_key(key)  # CPython's looks the key up in os.environ
        return False

    def equal(args: list[Any], kwargs: dict[str, Any]) -> Any:
        # `Set.__eq__`: a set of the same length whose items are all in this one.
        self, other = arguments("Set.__eq__", ("self", "other"), args, kwargs)
        if type(other) is PSet:
            return not other.items
        if type(other) is PInstance and other.cls is self.cls:
            return True
        return NotImplemented

    def of_self(method: str, answer: Callable[[], Any]) -> NativeMethod:
        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            arguments(f"{name}.{method}", ("self",), args, kwargs)
            return answer()

        return NativeMethod(method, call)

    namespace: dict[str, Any] = {
        "__len__": of_self("__len__", lambda: 0),
        "__iter__": of_self("__iter__", lambda: iter(())),
        "__repr__": of_self("__repr__", lambda: f"{name}(environ({{}}))"),
        "__contains__": NativeMethod("__contains__", contains),
    }
    if name != "ValuesView":
        namespace["__eq__"] = NativeMethod("__eq__", equal)
    cls = PClass(name, (), namespace)
    return lambda: PInstance(cls)
