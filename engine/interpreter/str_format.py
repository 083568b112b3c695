"""`"step {} loss {:.4f}".format(k, loss.data)`: `str.format` as CPython's, made safe.

The format string is read by CPython's own parser (`string.Formatter.parse`, which only
cuts text); every field is then found by the interpreter itself: `{0}`, `{name}`, `{}`
counted as CPython counts them, `{p.data}` through the machine's `get_attr` (which
refuses dunder names, so `"{0.__class__}"` reaches nothing of the host) and `{xs[0]}`
through its `get_item`; the conversion and spec are the f-string's own (`Texts.format`,
whose specs are checked and whose widths are bounded), a spec's own fields (`{:{w}}`)
formatted first, two levels deep as CPython's. The text is charged and bounded as it
grows.
"""

from __future__ import annotations

import string
from _string import formatter_field_name_split  # type: ignore[import-not-found]  # CPython's parser
from collections.abc import Callable
from typing import Any

from backprop_animator.engine.interpreter.runtime import MAX_STR, ProgramError, caught_as

_PARSER = string.Formatter()


def _value_error(words: str) -> ProgramError:
    return caught_as(words, ValueError(words))


class _Fields:
    """The arguments of one `format` call, and CPython's automatic numbering."""

    def __init__(
        self, m: Any, name: Callable[[Any, str], str], args: list[Any], kwargs: dict[str, Any]
    ) -> None:
        self.m = m
        self.name = name  # an attribute's name checked as `getattr` checks it
        self.args = args
        self.kwargs = kwargs
        self.next_auto: int | None = 0  # None once a field was numbered by hand
        self.manual = False

    def find(self, field: str) -> Any:
        try:
            first, rest = formatter_field_name_split(field)
            path = list(rest)
        except ValueError as error:  # "Missing ']' in format string"
            raise _value_error(str(error)) from None
        if first == "":
            if self.manual:
                raise _value_error(
                    "cannot switch from manual field specification to automatic field numbering"
                )
            assert self.next_auto is not None
            first, self.next_auto = self.next_auto, self.next_auto + 1
        elif type(first) is int:
            if self.next_auto:
                raise _value_error(
                    "cannot switch from automatic field numbering to manual field specification"
                )
            self.manual = True
        value = self.argument(first)
        for is_attribute, key in path:
            if is_attribute:  # `{p.data}`; never a dunder (`{0.__class__}` is refused)
                value = self.m.get_attr(value, self.name(key, "str.format"))
            else:
                value = self.m.get_item(value, key)
        return value

    def argument(self, first: Any) -> Any:
        if type(first) is int:
            if first >= len(self.args):
                words = f"Replacement index {first} out of range for positional args tuple"
                failed = ProgramError(words, kind="IndexError")
                failed.args_seen = (words,)
                raise failed
            return self.args[first]
        if first not in self.kwargs:
            failed = ProgramError(repr(first), kind="KeyError")
            failed.args_seen = (first,)  # the key, which a KeyError shows as its repr
            raise failed
        return self.kwargs[first]


class _MappingFields(_Fields):
    """The one mapping of a `format_map` call: each field named is an item of it
    (`m.get_item`: a defaultdict's default, a Counter's 0), none numbered."""

    def __init__(self, m: Any, name: Callable[[Any, str], str], mapping: Any) -> None:
        super().__init__(m, name, [], {})
        self.mapping = mapping

    def argument(self, first: Any) -> Any:
        if type(first) is int:
            raise _value_error("Format string contains positional fields")
        return self.m.get_item(self.mapping, first)


def str_format(
    m: Any, name: Callable[[Any, str], str], text: str, args: list[Any], kwargs: dict[str, Any]
) -> str:
    """`text.format(*args, **kwargs)`; `name` checks an attribute's name (`getattr`'s)."""
    return _format(m, text, _Fields(m, name, args, kwargs), 2)


def str_format_map(
    m: Any, name: Callable[[Any, str], str], text: str, args: list[Any], kwargs: dict[str, Any]
) -> str:
    """`text.format_map(mapping)`, as CPython's."""
    if kwargs:
        words = "str.format_map() takes no keyword arguments"
    elif len(args) != 1:
        words = f"str.format_map() takes exactly one argument ({len(args)} given)"
    else:
        return _format(m, text, _MappingFields(m, name, args[0]), 2)
    failed = ProgramError(words, kind="TypeError")
    failed.args_seen = (words,)
    raise failed


def _format(m: Any, text: str, fields: _Fields, depth: int) -> str:
    if depth <= 0:  # a spec's field's spec's field: CPython's limit
        raise _value_error("Max string recursion exceeded")
    state = m.state
    state.charge(len(text) // 10)
    try:
        pieces = list(_PARSER.parse(text))
    except ValueError as error:  # "Single '}' encountered in format string"
        raise _value_error(str(error)) from None
    out: list[str] = []
    size = 0
    for literal, field, spec, conversion in pieces:
        out.append(literal)
        size += len(literal)
        if field is None:
            continue
        value = fields.find(field)
        if spec and "{" in spec:
            spec = _format(m, spec, fields, depth - 1)
        code = -1 if conversion is None else ord(conversion)
        if conversion is not None and conversion not in "rsa":
            raise _value_error(f"Unknown conversion specifier {conversion}")
        piece = m.texts.format(value, spec or "", code)
        out.append(piece)
        size += len(piece)
        if size > MAX_STR:
            state.check_str(size)  # refused before the pieces are joined
    state.check_str(size)  # and charged once, by the length made
    return "".join(out)
