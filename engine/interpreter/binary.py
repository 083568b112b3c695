"""Bytes, as far as a learner's program needs them (SPEC §15): `str.encode`, a `bytes`
value's `decode` and `hex`, `len`, indexing and iterating (integers), printing
(`b'abc'`), `==`, `+` and `*` (within the string bound), `bytes(...)`. Python's own
`bytes`, made and read through this module only, in the codecs listed here (never a
codec Python would look up by an arbitrary name).

Bounded: a `bytes` value made by `+`, `*` or `bytes(n)` stays within MAX_STR
(10,000); `encode` of a string (itself within MAX_STR) makes at most a few bytes a
character, and the work is charged a step per ten characters.
"""

from __future__ import annotations

import encodings
import encodings.aliases
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import (
    MISSING,
    BoundMethod,
    Builtin,
    Function,
    PClass,
    PInstance,
    PModule,
)
from backprop_animator.engine.interpreter.runtime import MAX_STR, ProgramError, caught_as
from backprop_animator.engine.interpreter.text import a_type, python_type_name

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.runtime import State

# The codecs a program may name (as Python spells them, `_` read as `-`, any case).
CODECS = frozenset(
    {
        "utf-8", "utf8", "u8", "utf", "ascii", "us-ascii", "latin-1", "latin1", "iso-8859-1",
        "iso8859-1", "8859", "l1", "utf-16", "utf16", "utf-16-le", "utf-16-be", "utf-32",
        "utf32", "utf-32-le", "utf-32-be", "cp1252", "windows-1252",
    }
)  # fmt: skip
ERROR_HANDLERS = frozenset(
    {"strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "surrogateescape"}
)
# CPython's own keyword names: `encode(encoding='utf-8', errors='strict')`.
PARAMETERS = ("encoding", "errors")


def _codec(name: str, args: list[Any], kwargs: dict[str, Any]) -> tuple[str, str]:
    """The encoding and error handler `encode`/`decode` was given, checked."""
    if len(args) + len(kwargs) > 2:
        raise ProgramError(
            f"{name}() takes at most 2 arguments ({len(args) + len(kwargs)} given)",
            kind="TypeError",
        )
    for key in kwargs:
        if key not in PARAMETERS:
            raise ProgramError(
                f"'{key}' is an invalid keyword argument for {name}()", kind="TypeError"
            )
    given = dict(zip(PARAMETERS, args, strict=False))
    for key, value in kwargs.items():
        if key in given:
            raise ProgramError(
                f"argument for {name}() given by name ('{key}') and position", kind="TypeError"
            )
        given[key] = value
    encoding = given.get("encoding", "utf-8")
    errors = given.get("errors", "strict")
    for which, value in (("encoding", encoding), ("errors", errors)):
        if type(value) is not str:
            raise ProgramError(
                f"{name}() argument '{which}' must be str, not "
                f"{'None' if value is None else python_type_name(value)}",
                kind="TypeError",
            )
    if encoding.lower().replace("_", "-") not in CODECS:
        if not _known_codec(encoding):  # CPython's LookupError; a real codec is refused
            raise ProgramError(f"unknown encoding: {encoding}", kind="LookupError")
        if _module_of(encoding) in _NOT_TEXT:  # `'ab'.encode('rot13')`: CPython's words
            use = "codecs.decode()" if name == "decode" else "codecs.encode()"
            words = f"{encoding!r} is not a text encoding; use {use} to handle arbitrary codecs"
            raise ProgramError(words, kind="LookupError")
        raise ProgramError(
            f"the codec {encoding[:40]!r} is not available here (utf-8, ascii, latin-1, "
            "utf-16, utf-32 and cp1252 are)"
        )
    if errors not in ERROR_HANDLERS:
        raise ProgramError(f"the error handler {errors[:40]!r} is not available here")
    return encoding, errors


def encode(state: State, text: str, args: list[Any], kwargs: dict[str, Any]) -> bytes:
    """`text.encode(encoding='utf-8', errors='strict')`."""
    encoding, errors = _codec("encode", args, kwargs)
    state.charge(len(text) // 10)
    try:
        made = text.encode(encoding, errors)
    except UnicodeEncodeError as error:  # CPython's class and words
        raise caught_as(f"encode(): {error}", error) from None
    if len(made) > MAX_STR:  # up to four bytes a character (`utf-32`), and a BOM
        state.check_str(len(made))
    return made


def decode(state: State, data: bytes, args: list[Any], kwargs: dict[str, Any]) -> str:
    """`data.decode(encoding='utf-8', errors='strict')`: a string within MAX_STR."""
    encoding, errors = _codec("decode", args, kwargs)
    state.charge(len(data) // 10)
    try:
        text = data.decode(encoding, errors)
    except UnicodeDecodeError as error:
        raise caught_as(f"decode(): {error}", error) from None
    state.check_str(len(text))
    return text


def hex_(state: State, data: bytes, args: list[Any], kwargs: dict[str, Any]) -> str:
    if args or kwargs:
        raise ProgramError("hex() takes no arguments here", kind="TypeError")
    state.check_str(2 * len(data))
    return data.hex()


def methods(state: State) -> dict[str, Callable[[Any], Builtin]]:
    """A `bytes` value's methods, bound to it."""

    def bound(name: str, call: Callable[[State, bytes, list[Any], dict[str, Any]], Any]) -> Any:
        return lambda obj: Builtin(name, lambda args, kwargs: call(state, obj, args, kwargs))

    return {"decode": bound("decode", decode), "hex": bound("hex", hex_)}


def encode_method(state: State) -> Callable[[Any], Builtin]:
    """`str.encode`, bound to a string."""
    return lambda obj: Builtin("encode", lambda args, kwargs: encode(state, obj, args, kwargs))


def make(state: State, args: list[Any], kwargs: dict[str, Any], items: Any) -> bytes:
    """`bytes()`, `bytes(n)`, `bytes('text', 'utf-8')`, `bytes([104, 105])`; `items`
    reads an iterable into a list, a step an item, within the container bound."""
    if not args and not kwargs:
        return b""
    source = args[0] if args else kwargs.get("source")
    if type(source) is str:
        if len(args) < 2 and "encoding" not in kwargs:
            raise ProgramError("string argument without an encoding", kind="TypeError")
        return encode(state, source, args[1:], {k: v for k, v in kwargs.items() if k != "source"})
    if len(args) > 1 or kwargs:
        raise ProgramError(
            "encoding without a string argument"
            if len(args) > 1 or "encoding" in kwargs
            else "bytes() takes one argument here",
            kind="TypeError",
        )
    if type(source) is int or type(source) is bool:
        if source < 0:
            raise ProgramError("negative count", kind="ValueError")
        state.check_str(int(source))
        return bytes(int(source))
    if type(source) is bytes:
        return source
    if _cannot_convert(source):
        raise ProgramError(
            f"cannot convert '{python_type_name(source)}' object to bytes", kind="TypeError"
        )
    values = items(source)
    state.check_str(len(values))
    for value in values:
        if type(value) is not int and type(value) is not bool:
            wrong = TypeError(
                f"'{python_type_name(value)}' object cannot be interpreted as an integer"
            )
            raise caught_as(f"bytes() needs integers, not {a_type(value)}", wrong)
        if not 0 <= value < 256:
            raise ProgramError("bytes must be in range(0, 256)", kind="ValueError")
    return bytes(values)


def _cannot_convert(source: Any) -> bool:
    """Whether `bytes(source)` is CPython's 'cannot convert' TypeError: a value neither
    iterable nor an integer (a number, None, a function, a class, an object of a class
    with none of `__iter__`, `__getitem__`, `__bytes__` and `__index__`)."""
    kind = type(source)
    if kind is PInstance:
        hooks = ("__iter__", "__getitem__", "__bytes__", "__index__")
        return all(source.cls.lookup(name) is MISSING for name in hooks)
    return kind in (float, complex, Function, BoundMethod, PClass, PModule) or (
        source is None or isinstance(source, Builtin)
    )


def _module_of(name: str) -> str:
    """The codec module CPython's lookup would find for `name` (by its tables alone)."""
    norm = encodings.normalize_encoding(name[:100]).lower()
    aliases = encodings.aliases.aliases
    return aliases.get(norm) or aliases.get(norm.replace(".", "_")) or norm


# CPython's codecs that are no text encodings (bytes to bytes, or `rot_13`'s str to str)
_NOT_TEXT = frozenset(
    {"base64_codec", "bz2_codec", "hex_codec", "quopri_codec", "uu_codec", "zlib_codec",
     "rot_13"}
)  # fmt: skip


def _known_codec(name: str) -> bool:
    """Whether CPython knows a codec of this name, by CPython's own normalization and its
    table of aliases and codec modules (nothing is imported or run)."""
    norm = encodings.normalize_encoding(name[:100]).lower()
    return (
        norm in _CODEC_NAMES
        or norm in encodings.aliases.aliases
        or norm.replace(".", "_") in encodings.aliases.aliases
    )


# The codec modules of CPython's `encodings` package (`utf_7`, `cp1252`, `rot_13`…)
_CODEC_NAMES = frozenset(
    module.name for module in pkgutil.iter_modules(encodings.__path__)
) | frozenset(encodings.aliases.aliases.values())
