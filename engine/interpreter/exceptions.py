"""Exceptions as programs see them (SPEC §15): the built-in exception classes, `raise`
and what `except` catches.

The built-in classes are the program's own kind of class (`PClass`), so a program's
`class ShapeError(ValueError)` inherits from them as from any class and `isinstance`
and `except` walk one method resolution order. An exception a program raises is a
`ProgramRaise`: a `ProgramError` carrying the instance, which finds its line and call
chain on its way out like every error; uncaught, it is CPython's message
("ValueError: bad shape"). An error the interpreter raises itself (a division by zero,
a missing key) has a `kind`, the name of the class an `except` sees it as; the
instance is made when a handler asks for it (`except ZeroDivisionError as e`). A bound
(steps, time, depth, sizes) has no kind and no handler can catch it.

A call given arguments CPython refuses for their number or names is CPython's TypeError
in CPython's words: a method the interpreter makes checks them as CPython's would
(`slot_method` for one CPython writes in C, `python_method` for one it writes in
Python), and a built-in function's or method's refusal asks CPython's own function for
its words (`cpython_refusal`), with placeholders in place of the program's values.

No Python exception object ever reaches a program: only these instances, whose
attributes are `args` and the chain CPython keeps (`__cause__`, `__context__`,
`__suppress_context__`, read by `chain_attribute`); their `__traceback__` is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from backprop_animator.engine.interpreter.objects import (
    Builtin,
    NativeMethod,
    PClass,
    PInstance,
    PModule,
    PProperty,
    PSet,
    TypeObject,
)
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MAX_ITEMS,
    MODULE_ERRORS,
    RAISE_STEPS,
    ProgramError,
)
from backprop_animator.engine.interpreter.text import cpython_type, python_type_name

# (name, base): each class after its base; the classes CPython programs raise and catch.
# The classes of a module of the library, not built-in names (`dataclasses`', `json`'s),
# and the module CPython's is in.
NOT_BUILTIN = MODULE_ERRORS
HIERARCHY: tuple[tuple[str, str | None], ...] = (
    ("BaseException", None),
    ("Exception", "BaseException"),
    ("GeneratorExit", "BaseException"),
    ("SystemExit", "BaseException"),  # `raise SystemExit(main())`: `engine.run` ends there
    ("ArithmeticError", "Exception"),
    ("ZeroDivisionError", "ArithmeticError"),
    ("OverflowError", "ArithmeticError"),
    ("LookupError", "Exception"),
    ("KeyError", "LookupError"),
    ("IndexError", "LookupError"),
    ("ValueError", "Exception"),
    ("UnicodeError", "ValueError"),
    ("UnicodeEncodeError", "UnicodeError"),
    ("UnicodeDecodeError", "UnicodeError"),
    ("JSONDecodeError", "ValueError"),  # json's, not a built-in name
    ("StatisticsError", "ValueError"),  # statistics', not a built-in name
    ("TypeError", "Exception"),
    ("AttributeError", "Exception"),
    ("FrozenInstanceError", "AttributeError"),  # dataclasses', not a built-in name
    ("NameError", "Exception"),
    ("UnboundLocalError", "NameError"),
    ("AssertionError", "Exception"),
    ("RuntimeError", "Exception"),
    ("NotImplementedError", "RuntimeError"),
    ("RecursionError", "RuntimeError"),
    ("StopIteration", "Exception"),
    ("ImportError", "Exception"),
    ("ModuleNotFoundError", "ImportError"),
    ("OSError", "Exception"),  # what `io.StringIO().seek(3, 1)` raises, caught as CPython's
    # (named by scripts' handlers; nothing here raises them but the program)
    ("FileNotFoundError", "OSError"),
    ("FileExistsError", "OSError"),
    ("PermissionError", "OSError"),
    ("IsADirectoryError", "OSError"),
    ("NotADirectoryError", "OSError"),
    ("TimeoutError", "OSError"),
    ("InterruptedError", "OSError"),
    ("BlockingIOError", "OSError"),
    ("ChildProcessError", "OSError"),
    ("ProcessLookupError", "OSError"),
    ("ConnectionError", "OSError"),
    ("BrokenPipeError", "ConnectionError"),
    ("ConnectionAbortedError", "ConnectionError"),
    ("ConnectionRefusedError", "ConnectionError"),
    ("ConnectionResetError", "ConnectionError"),
    ("KeyboardInterrupt", "BaseException"),  # a training loop's `except KeyboardInterrupt:`
    ("FloatingPointError", "ArithmeticError"),
    ("EOFError", "Exception"),
    ("BufferError", "Exception"),
    ("ReferenceError", "Exception"),
    ("StopAsyncIteration", "Exception"),
    ("Warning", "Exception"),  # the categories `warnings.warn` and its filters name
    ("UserWarning", "Warning"),
    ("DeprecationWarning", "Warning"),
    ("RuntimeWarning", "Warning"),
    ("FutureWarning", "Warning"),
    ("PendingDeprecationWarning", "Warning"),
    ("SyntaxWarning", "Warning"),
    ("ImportWarning", "Warning"),
    ("UnicodeWarning", "Warning"),
    ("BytesWarning", "Warning"),
    ("ResourceWarning", "Warning"),
    ("EncodingWarning", "Warning"),
)
# The subclass CPython's `OSError(errno, ...)` makes for each errno (Linux's numbers)
ERRNO_CLASSES = {
    11: "BlockingIOError", 114: "BlockingIOError", 115: "BlockingIOError",
    10: "ChildProcessError", 32: "BrokenPipeError", 108: "BrokenPipeError",
    103: "ConnectionAbortedError", 111: "ConnectionRefusedError",
    104: "ConnectionResetError", 17: "FileExistsError", 2: "FileNotFoundError",
    21: "IsADirectoryError", 20: "NotADirectoryError", 4: "InterruptedError",
    13: "PermissionError", 1: "PermissionError", 3: "ProcessLookupError", 110: "TimeoutError",
}  # fmt: skip
# An ImportError's own fields (CPython's `name` and `path` keywords, `msg` its one argument)
IMPORT_ERROR_FIELDS = ("msg", "name", "path")
NO_MODULE = re.compile(r"No module named '([^']*)'(?:; '[^']*' is not a package)?")
# `cannot import name 'foo' from 'math' (…)`: its `name` is the module's, as CPython's
CANNOT_IMPORT = re.compile(r"cannot import name '[^']*' from '([^']*)' \(.*", re.DOTALL)
# `errno`, `strerror`, `filename`, `filename2` of an OSError: None but where CPython sets
# them, from 2 to 5 arguments (`OSError(2, 'No such file', 'x')`).
OS_ERROR_FIELDS = ("errno", "strerror", "filename", None, "filename2")

# Repr and str of one of an exception's arguments, given by the running program.
Show = Callable[[Any], str]
Call = Callable[[list[Any], dict[str, Any]], Any]


class ProgramRaise(ProgramError):
    """A program's `raise`: the instance it raised, and CPython's words for it."""

    def __init__(self, instance: PInstance, message: str) -> None:
        super().__init__(message, kind=instance.cls.name)
        self.instance = instance


def add_note(args: list[Any], kwargs: dict[str, Any]) -> None:
    """`e.add_note("...")` (3.11): the note appended to `e.__notes__`, a list made the
    first time; CPython's TypeError for a note not a str, or a `__notes__` not a list."""
    if kwargs:
        raise ProgramError("BaseException.add_note() takes no keyword arguments", kind="TypeError")
    if len(args) != 2:
        words = f"BaseException.add_note() takes exactly one argument ({len(args) - 1} given)"
        raise ProgramError(words, kind="TypeError")
    instance, note = args
    if type(note) is not str:
        raise ProgramError(f"note must be a str, not '{cpython_type(note)}'", kind="TypeError")
    notes = instance.attrs.get("__notes__")
    if notes is None and "__notes__" not in instance.attrs:
        instance.attrs["__notes__"] = [note]
    elif type(notes) is not list:
        raise ProgramError("Cannot add note: __notes__ is not a list", kind="TypeError")
    elif len(notes) >= MAX_ITEMS:
        raise ProgramError(
            f"this container would hold {len(notes) + 1:,} items; containers here stay within "
            f"{MAX_ITEMS:,}"
        )
    else:
        notes.append(note)


def exception_classes(
    show_str: Show, show_repr: Show, items_of: Callable[[Any], list[Any]]
) -> dict[str, PClass]:
    """The built-in exception classes, with `__init__`, `__str__` and `__repr__` of their
    own (an instance keeps its arguments as `args`, as in CPython, outside its `__dict__`:
    in `PInstance.fields`, read and written through the descriptors `field` makes)."""

    def init(args: list[Any], kwargs: dict[str, Any]) -> None:
        if kwargs and "ImportError" in {cls.name for cls in args[0].cls.mro}:
            import_error_init(args, kwargs)
            return
        if kwargs:
            refused = ProgramError("exceptions take no keyword arguments here", kind="TypeError")
            refused.args_seen = (f"{args[0].cls.name}() takes no keyword arguments",)
            raise refused
        args[0].fields["args"] = tuple(args[1:])
        special_fields(args[0], tuple(args[1:]))
        errno_subclass(args, classes)

    def field(name: str) -> PProperty:
        """CPython's descriptor of `name` (`BaseException.args`, a getset that makes a
        tuple of what it is given and is not deleted; `StopIteration.value` and the
        OSError's fields, members that a `del` sets to None)."""

        def get(args: list[Any], kwargs: dict[str, Any]) -> Any:
            return args[0].fields.get(name)

        def put(args: list[Any], kwargs: dict[str, Any]) -> None:
            value = args[1]
            if name == "args":
                value = value if type(value) is tuple else tuple(items_of(value))
            args[0].fields[name] = value

        def delete(args: list[Any], kwargs: dict[str, Any]) -> None:
            if name == "args":
                raise ProgramError("args may not be deleted", kind="TypeError")
            args[0].fields[name] = None

        return PProperty(Builtin(name, get), Builtin(name, put), Builtin(name, delete))

    def os_error_text(args: list[Any], kwargs: dict[str, Any]) -> str:
        # CPython's `OSError.__str__`: `[Errno 2] No such file: 'x'` where it has them.
        attrs = args[0].fields
        errno, strerror = attrs.get("errno"), attrs.get("strerror")
        filename, filename2 = attrs.get("filename"), attrs.get("filename2")
        if filename is not None:
            said = f"[Errno {show_str(errno)}] {show_str(strerror)}: {show_repr(filename)}"
            return said + (f" -> {show_repr(filename2)}" if filename2 is not None else "")
        if errno is not None and strerror is not None:
            return f"[Errno {show_str(errno)}] {show_str(strerror)}"
        return text(args, kwargs)

    def text(args: list[Any], kwargs: dict[str, Any]) -> str:
        values = arguments_of(args[0])
        if not values:
            return ""
        if len(values) == 1:
            # A KeyError shows its key as repr, as CPython's does (`'k'`, not `k`).
            key_error = classes.get("KeyError")
            if key_error is not None and key_error in args[0].cls.mro:
                return show_repr(values[0])
            return show_str(values[0])
        return show_repr(values)

    def representation(args: list[Any], kwargs: dict[str, Any]) -> str:
        instance = args[0]
        values = arguments_of(instance)
        inner = show_repr(values[0]) if len(values) == 1 else show_repr(values)[1:-1]
        return f"{instance.cls.name}({inner})"

    classes: dict[str, PClass] = {}
    for name, base in HIERARCHY:
        namespace: dict[str, Any] = {}
        if base is None:
            namespace = {
                "__init__": NativeMethod("__init__", init, name),
                "__str__": NativeMethod("__str__", slot_method("__str__", 0, text), name),
                "__repr__": NativeMethod(
                    "__repr__", slot_method("__repr__", 0, representation), name
                ),
                "with_traceback": NativeMethod("with_traceback", no_traceback, name),
                "add_note": NativeMethod("add_note", add_note, name),
                "args": field("args"),
            }
        elif name == "StopIteration":
            namespace = {"value": field("value")}
        elif name == "SystemExit":
            namespace = {"code": field("code")}
        elif name == "ImportError":  # `e.name` of `except ImportError as e`, as CPython's
            namespace = {each: field(each) for each in IMPORT_ERROR_FIELDS}
        elif name == "KeyError":  # CPython's KeyError has a `__str__` of its own
            namespace = {"__str__": NativeMethod("__str__", slot_method("__str__", 0, text), name)}
        elif name == "OSError":  # and so has OSError
            said = slot_method("__str__", 0, os_error_text)
            namespace = {"__str__": NativeMethod("__str__", said, name)}
            namespace.update((f, field(f)) for f in OS_ERROR_FIELDS if f is not None)
        bases = (classes[base],) if base is not None else ()
        classes[name] = made = PClass(name, bases, namespace)
        made.builtin = True
        made.exception = True
    return classes


def no_traceback(args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`e.with_traceback(tb)`: refused, as `e.__traceback__` is (no traceback object
    is here)."""
    raise ProgramError("`.with_traceback()` is not available: a traceback object is not here")


def slot_method(name: str, count: int, call: Call) -> Call:
    """A native method CPython writes in C (a tuple's `__getitem__`, an exception's
    `__str__`): `count` arguments after `self`, checked in CPython's words (`expected 1
    argument, got 0`) before it runs."""

    def checked(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs:
            words = f"wrapper {name}() takes no keyword arguments"
        elif len(args) != count + 1:
            plural = "" if count == 1 else "s"
            words = f"expected {count} argument{plural}, got {len(args) - 1}"
        else:
            return call(args, kwargs)
        raise ProgramError(words, kind="TypeError")

    return checked


def python_method(qualname: str, params: tuple[str, ...], call: Call) -> Call:
    """A native method CPython writes in Python (a dataclass's `__eq__`, a named tuple's
    `__repr__`): `self` and `params`, positional or by keyword, checked as CPython checks
    a function's arguments and in its words (`P.__eq__() missing 1 required positional
    argument: 'other'`); it runs with them positional."""
    names = ("self", *params)

    def checked(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or len(args) != len(names):
            args = bound_arguments(qualname, names, args, kwargs)
        return call(args, {})

    return checked


def bound_arguments(
    qualname: str, names: tuple[str, ...], args: list[Any], kwargs: dict[str, Any]
) -> list[Any]:
    """`args` and `kwargs` given to a function of parameters `names`, as the positional
    list; else CPython's TypeError, checked in its order (keywords, then too many, then
    missing)."""
    for key in kwargs:
        if key not in names:
            raise ProgramError(
                f"{qualname}() got an unexpected keyword argument '{key}'", kind="TypeError"
            )
        if names.index(key) < len(args):
            raise ProgramError(
                f"{qualname}() got multiple values for argument '{key}'", kind="TypeError"
            )
    if len(args) > len(names):
        takes = f"{len(names)} positional argument{'' if len(names) == 1 else 's'}"
        given = f"{len(args)} {'was' if len(args) == 1 else 'were'} given"
        raise ProgramError(f"{qualname}() takes {takes} but {given}", kind="TypeError")
    missing = [name for name in names[len(args) :] if name not in kwargs]
    if missing:
        quoted = [f"'{name}'" for name in missing]
        listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
        if len(quoted) > 2:
            listed = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
        plural = "" if len(missing) == 1 else "s"
        raise ProgramError(
            f"{qualname}() missing {len(missing)} required positional argument{plural}: {listed}",
            kind="TypeError",
        )
    return [*args, *(kwargs[name] for name in names[len(args) :])]


def special_fields(instance: PInstance, given: tuple[Any, ...]) -> None:
    """The fields some classes keep besides `args`: a StopIteration's `value`, an
    OSError's `errno`…, a SystemExit's `code` (None, its one argument, or all of them)."""
    names = {cls.name for cls in instance.cls.mro}
    if "StopIteration" in names:
        instance.fields["value"] = given[0] if given else None  # CPython's `.value`
    elif "OSError" in names:
        os_error_fields(instance, list(given))
    elif "ImportError" in names:
        fields = instance.fields
        fields.update(dict.fromkeys(IMPORT_ERROR_FIELDS))
        fields["msg"] = given[0] if len(given) == 1 else None
    elif "SystemExit" in names:
        instance.fields["code"] = given[0] if len(given) == 1 else (given or None)


def exits_cleanly(error: ProgramError) -> bool:
    """Whether an uncaught `error` is a `SystemExit` with no status, 0 or None (a
    script's `raise SystemExit(main())`): CPython ends the script there, with success."""
    instance = getattr(error, "instance", None)
    if error.kind != "SystemExit" or type(instance) is not PInstance:
        return False
    code = instance.fields.get("code")
    return code is None or (type(code) in (int, bool) and code == 0)


def arguments_of(instance: PInstance) -> tuple[Any, ...]:
    values = instance.fields.get("args", ())
    return values if type(values) is tuple else (values,)


def program_raise(machine: Any, value: Any) -> ProgramRaise:
    """The error for `raise value` (and `gen.throw(value)`): an exception instance, or a
    class to instantiate. `machine` is the running `Machine`."""
    classes = machine.exceptions
    if is_exception_class(value, classes):
        value = machine.instantiate(value, [], None)
    if type(value) is not PInstance or classes["BaseException"] not in value.cls.mro:
        raise ProgramError("exceptions must derive from BaseException", kind="TypeError")
    text = machine.texts.to_str(value)
    # (a class of a module other than builtins or the program's is named with its module,
    # as CPython's traceback ends: `graphlib.CycleError: ...`)
    named = machine.texts.class_modules.get(value.cls, "") + value.cls.name
    message = f"{named}: {text}" if text else named
    return ProgramRaise(value, message[:500])


def is_exception_class(value: Any, classes: dict[str, PClass]) -> bool:
    return type(value) is PClass and classes["BaseException"] in value.mro


def instance_of_error(error: ProgramError, classes: dict[str, PClass]) -> PInstance:
    """The instance an `except ... as e` binds: the raised one, or one made (once) for
    an interpreter error of its kind, holding its message."""
    if isinstance(error, ProgramRaise):
        return error.instance
    if error.made is not None:
        return error.made  # type: ignore[no-any-return]
    instance = PInstance(classes.get(error.kind or "", classes["Exception"]))
    instance.chain = [None, error.context, False]
    error.made = instance
    fields = instance.fields
    fields["args"] = (error.message,) if error.args_seen is None else error.args_seen
    if error.kind == "StopIteration":  # `e.value`: what the generator returned, or None
        fields["value"] = fields["args"][0] if fields["args"] else None
    elif error.kind == "OSError":
        os_error_fields(instance, fields["args"])
    elif error.kind in ("ImportError", "ModuleNotFoundError"):
        # the interpreter's own: `No module named 'numpy'` names the module
        message = fields["args"][0] if len(fields["args"]) == 1 else None
        named = None
        if type(message) is str:
            named = NO_MODULE.fullmatch(message) or CANNOT_IMPORT.fullmatch(message)
        fields.update(msg=message, name=named.group(1) if named else None, path=None)
    return instance


def errno_subclass(args: list[Any], classes: dict[str, PClass]) -> None:
    """`OSError(2, 'No such file')` is CPython's FileNotFoundError: its `OSError.__new__`
    makes the subclass of the errno (an OSError's alone, not its subclasses')."""
    instance = args[0]
    if instance.cls is classes["OSError"] and 3 <= len(args) <= 6 and isinstance(args[1], int):
        mapped = ERRNO_CLASSES.get(args[1])
        if mapped is not None:
            instance.cls = classes[mapped]


def import_error_init(args: list[Any], kwargs: dict[str, Any]) -> None:
    """`ImportError(msg, name=..., path=...)`: CPython's keywords, its TypeError for any
    other (`'x' is an invalid keyword argument for ImportError()`)."""
    instance = args[0]
    for key in kwargs:
        if key not in ("name", "path"):
            words = f"'{key}' is an invalid keyword argument for {instance.cls.name}()"
            raise ProgramError(words, kind="TypeError")
    given = tuple(args[1:])
    instance.fields["args"] = given
    special_fields(instance, given)
    instance.fields.update(kwargs)


def os_error_fields(instance: PInstance, values: Sequence[Any]) -> None:
    """An OSError's `errno`, `strerror`, `filename` and `filename2`, set as CPython's
    constructor sets them; with a file name its `args` keep the first two alone."""
    attrs = instance.fields
    for field in OS_ERROR_FIELDS:
        if field is not None:
            attrs[field] = None
    if 2 <= len(values) <= 5:
        for field, value in zip(OS_ERROR_FIELDS, values, strict=False):
            if field is not None:
                attrs[field] = value
        if len(values) > 2:
            attrs["args"] = tuple(values[:2])


def error_matches(error: ProgramError, wanted: PClass, classes: dict[str, PClass]) -> bool:
    """Whether `except wanted` catches `error`."""
    if isinstance(error, ProgramRaise):
        return wanted in error.instance.cls.mro
    cls = classes.get(error.kind or "")
    return cls is not None and wanted in cls.mro


def wrong_arguments(
    words: str,
    name: str,
    args: list[Any],
    kwargs: dict[str, Any],
    owner: type | None = None,
    kind: str | None = None,
    cpython: Callable[..., Any] | None = None,
) -> ProgramError:
    """The refusal of a call's arguments: the engine's `words`, and, where CPython refuses
    them too for their number or names, CPython's TypeError with its words for `except
    TypeError as e` (`list.append() takes exactly one argument (0 given)`); otherwise a
    refusal of what the interpreter does not do, as `kind` says."""
    refused = ProgramError(words, kind=kind)
    said = cpython_refusal(name, owner, len(args), list(kwargs), cpython)
    if said is not None:
        refused.kind = "TypeError"
        refused.args_seen = (said,)
    return refused


# What `cpython_refusal` asks: an empty object of each type whose methods the program's
# objects have, and the built-in functions by name.
_RECEIVERS: dict[type, type] = {list: list, dict: dict, str: str, PSet: set, tuple: tuple}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    function.__name__: function
    for function in (
        len, abs, repr, any, all, id, hash, ord, chr, bin, hex, callable, min, max, sum,
        range, sorted, isinstance, enumerate, round, divmod, pow, getattr, setattr, hasattr,
        zip, map, filter, iter, next, format, reversed, type, delattr,
    )
}  # fmt: skip


def cpython_refusal(
    name: str,
    owner: type | None,
    count: int,
    keywords: list[str],
    cpython: Callable[..., Any] | None = None,
) -> str | None:
    """CPython's words when it refuses a call of `name` (a method of `owner`'s, or a
    built-in function, or the module function `cpython`) for the number or the names of
    its arguments, else None. Asked of CPython's own function, on an empty object of its
    type, with None in place of every argument: nothing of the program's reaches it but
    its keywords' names, and only the words come back."""
    placeholders: list[Any] = [None] * count
    function: Any = cpython
    if function is None and owner is None:
        function = _FUNCTIONS.get(name)
    elif function is None and owner is not None:
        receiver = _RECEIVERS.get(owner)
        if receiver is None or not name.isidentifier() or name.startswith("_"):
            return None
        # The method as `obj.name(...)` calls it, which CPython names with its type
        # (`list.append()`), as a method read off an object it does not.
        function = getattr(receiver, name, None)
        placeholders.insert(0, receiver())
    if function is None:
        return None
    try:
        function(*placeholders, **dict.fromkeys(keywords))
    except TypeError as error:
        words = str(error)
        # A complaint of the placeholders' type (`'NoneType' object is not iterable`)
        # says nothing of the program's call.
        if "argument" in words and "None" not in words:
            return words
    except Exception:  # any other refusal is of the placeholders
        return None
    return None


# The attributes of an exception's chain a program reads (`e.__cause__`), though dunders.
CHAIN_NAMES = frozenset({"__cause__", "__context__", "__suppress_context__", "__traceback__"})


def raised_instance(error: ProgramError) -> PInstance | None:
    """The instance `error` carries, if it has one yet."""
    made: PInstance | None = error.made
    return error.instance if isinstance(error, ProgramRaise) else made


def stamp(state: Any, error: ProgramError, handled: ProgramError | None) -> None:
    """Record, once, the exception `handled` when `error` was raised as its
    `__context__` (CPython's), unless it is `error` itself (a bare `raise`), and cut a
    cycle the chain would make, as CPython cuts it (`raise a` while handling `b`, whose
    context is `a`: `b.__context__` becomes None). The exception is charged
    `RAISE_STEPS` (a bound, never), and the links walked as a container's items are."""
    if error.stamped:
        return
    error.stamped = True
    if error.kind is not None:
        state.charge(RAISE_STEPS)
    instance = raised_instance(error)
    if instance is not None:
        if not hasattr(instance, "chain"):
            instance.chain = [None, None, False]  # raised: its `__traceback__` is not None
        elif len(instance.chain) > 3:
            del instance.chain[3:]  # written before it was raised (`write_chain`): now raised
    if handled is None or handled is error:
        return
    if instance is not None and raised_instance(handled) is instance:
        return
    error.context = handled
    if instance is not None:
        instance.chain[1] = handled
    link: ProgramError | None = handled
    walked = 0
    while link is not None:
        walked += 1
        if walked % ITEMS_PER_STEP == 0:
            state.charge(1)
        holder = raised_instance(link)
        chained = holder is not None and hasattr(holder, "chain")
        following = holder.chain[1] if chained else link.context  # type: ignore[union-attr]
        if following is None:
            return
        if instance is not None and raised_instance(following) is instance:
            if chained:
                holder.chain[1] = None  # type: ignore[union-attr]
            link.context = None
            return
        link = following


def set_cause(machine: Any, error: ProgramRaise, cause: Any) -> None:
    """`raise X from cause`: an exception (a class is instantiated) or None, else
    CPython's TypeError; `__suppress_context__` set either way."""
    classes = machine.exceptions
    if is_exception_class(cause, classes):
        cause = machine.instantiate(cause, [], None)
    if cause is not None and (
        type(cause) is not PInstance or classes["BaseException"] not in cause.cls.mro
    ):
        raise ProgramError("exception causes must derive from BaseException", kind="TypeError")
    instance = error.instance
    if not hasattr(instance, "chain"):
        instance.chain = [None, None, False]
    instance.chain[0] = cause
    instance.chain[2] = True


def chain_attribute(machine: Any, value: Any, name: str) -> Any:
    """`e.__cause__`, `e.__context__`, `e.__suppress_context__` of an exception, as
    CPython keeps them; `e.__traceback__` None before it is raised, refused after (no
    traceback object is here). Of anything else: CPython's AttributeError, or, of an
    exception class (whose are CPython's descriptors), a refusal."""
    classes = machine.exceptions
    if type(value) is not PInstance or classes["BaseException"] not in value.cls.mro:
        if type(value) is PInstance:  # an object's own, as any attribute (a class body's)
            return machine.get_attr(value, name)
        if is_exception_class(value, classes):
            raise ProgramError(f"`.{name}` is read off an exception object here, not its class")
        if type(value) is PClass or type(value) is TypeObject:  # CPython's words of a type
            words = f"type object '{value.name}' has no attribute '{name}'"
        elif type(value) is PModule:
            words = f"module '{value.name}' has no attribute '{name}'"
        else:
            words = f"'{python_type_name(value)}' object has no attribute '{name}'"
        failed = ProgramError(words, kind="AttributeError")
        failed.args_seen = (words,)
        raise failed
    chain = value.chain if hasattr(value, "chain") else None
    if name == "__traceback__":
        if chain is None or len(chain) > 3:  # never raised (a chain written before)
            return None
        raise ProgramError("`.__traceback__` is not available: a traceback object is not here")
    if chain is None:
        return False if name == "__suppress_context__" else None
    if name == "__cause__":
        return chain[0]
    if name == "__suppress_context__":
        return chain[2]
    context = chain[1]
    return instance_of_error(context, classes) if context is not None else None


def write_chain(machine: Any, obj: Any, name: str, value: Any) -> None:
    """`self.__cause__ = cause` in a class body (`self.__suppress_context__ = flag`):
    of an exception, its chain as CPython's setters write it (a cause sets
    `__suppress_context__`), with their TypeErrors; its `__context__` and `__traceback__`
    are the interpreter's to keep (a context is cut where it would loop), so refused. Of
    any other object, an attribute as any other (`Machine.set_attr`). An exception not
    raised yet gets a chain marked so (a fourth item, which `stamp` drops): its
    `__traceback__` stays None."""
    classes = machine.exceptions
    if type(obj) is not PInstance or classes["BaseException"] not in obj.cls.mro:
        machine.set_attr(obj, name, value)
        return
    if name not in ("__cause__", "__suppress_context__"):
        raise ProgramError(f"`.{name}` of an exception is not written here, only read")
    if (
        name == "__cause__"
        and value is not None
        and (type(value) is not PInstance or classes["BaseException"] not in value.cls.mro)
    ):
        words = "exception cause must be None or derive from BaseException"
        raise ProgramError(words, kind="TypeError")
    if name == "__suppress_context__" and type(value) is not bool:
        raise ProgramError("attribute value type must be bool", kind="TypeError")
    if not hasattr(obj, "chain"):
        obj.chain = [None, None, False, "not raised"]
    if name == "__cause__":
        obj.chain[0] = value
    obj.chain[2] = True if name == "__cause__" else value


def delete_chain(machine: Any, obj: Any, name: str) -> None:
    """`del self.__cause__` in a class body: of an exception, CPython's TypeError (its
    chain's attributes may not be deleted); of any other object, `Machine.del_attr`."""
    classes = machine.exceptions
    if type(obj) is not PInstance or classes["BaseException"] not in obj.cls.mro:
        machine.del_attr(obj, name)
        return
    words = (
        "can't delete numeric/char attribute"
        if name == "__suppress_context__"
        else f"{name} may not be deleted"
    )
    failed = ProgramError(words, kind="TypeError")
    failed.args_seen = (words,)
    raise failed
