"""`json.dumps` and `json.loads` as CPython's, over the program's plain values.

Engines import `json` to save and load their parameters (`json.dumps(state)`,
`json.dump(state, f)` in a `save()` that opens a file, which nothing here can): the
module imports, and its string functions answer as CPython's. `dumps` walks the value
first, as CPython's encoder walks it (dicts with string, number, bool or None keys,
lists, tuples, strings, numbers, None; anything else goes to `default=` or is CPython's
TypeError, `Object of type set is not JSON serializable`; a container inside itself is
its ValueError, `Circular reference detected`), charged per item and refused past the
string bound before any text is made; then CPython's own encoder writes the text, with
`indent`, `separators`, `sort_keys`, `ensure_ascii`, `allow_nan`, `skipkeys`. `loads`
is CPython's decoder over a string of at most the string bound, its result charged and
its integers and nesting within their bounds; its error is `json.JSONDecodeError` (a
ValueError), with CPython's words. Not here: `dump`, `load` (there are no files),
`cls=`, `object_hook=` and the other hooks.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import (
    Builtin,
    PInstance,
    PModule,
    TextBuffer,
    enum_mixin_value,
)
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MAX_STR,
    ProgramError,
    State,
)
from backprop_animator.engine.interpreter.text import VIEW_NAMES, cpython_type

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.library import Library

DUMPS_OPTIONS = frozenset(
    {"skipkeys", "ensure_ascii", "allow_nan", "indent", "separators", "sort_keys", "default"}
)
LOADS_OPTIONS: frozenset[str] = frozenset()
# A walk counts the least text each value makes (`0`, `""`, `[]`): one that passes the
# string bound is refused before the encoder runs.
KEY_TYPES = (str, int, float, bool, type(None))
NOT_JSON = frozenset({"deque"})


def json_module(library: Library) -> PModule:
    m = library.machine
    state = library.state

    def dumps(args: list[Any], kwargs: dict[str, Any]) -> str:
        if len(args) != 1:
            raise ProgramError(
                f"dumps() takes 1 positional argument but {len(args)} were given",
                kind="TypeError",
            )
        unknown = sorted(set(kwargs) - DUMPS_OPTIONS)
        if unknown:
            raise ProgramError(f"json.dumps({unknown[0]}=...) is not available here")
        default = kwargs.get("default")
        walker = _Walker(state, lambda obj: m.call(default, [obj]))
        walker.special = m.collections
        walker.skipkeys = bool(kwargs.get("skipkeys", False))
        walker.has_default = default is not None
        options = {key: value for key, value in kwargs.items() if key != "default"}
        for key in ("indent", "separators"):
            if key in options:
                options[key] = _plain_option(options[key], key)
        walker.lay_out(options.get("indent"), options.get("separators"))
        plain = walker.walk(args[0], 1)
        try:
            text = json.dumps(plain, **options)
        except (TypeError, ValueError) as error:  # CPython's, for options it refuses
            raise ProgramError(str(error), kind=type(error).__name__) from None
        state.check_str(len(text))
        return text

    def loads(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if len(args) != 1 or kwargs:
            if kwargs:
                raise ProgramError(f"json.loads({sorted(kwargs)[0]}=...) is not available here")
            raise ProgramError(
                f"loads() takes 1 positional argument but {len(args)} were given",
                kind="TypeError",
            )
        text = args[0]
        if type(text) is bytes:  # in the encoding CPython's `loads` detects (a BOM, UTF-16)
            state.check_str(len(text))
            try:
                text = text.decode(json.detect_encoding(text), "surrogatepass")
            except UnicodeDecodeError as error:
                raise ProgramError(str(error), kind="UnicodeDecodeError") from None
        if type(text) is not str:
            raise ProgramError(
                f"the JSON object must be str, bytes or bytearray, not {cpython_type(args[0])}",
                kind="TypeError",
            )
        state.check_str(len(text))
        if _nests_deeper_than(text, state.limits.max_depth):
            raise state.too_nested()  # before the decoder, whose recursion is in C
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ProgramError(str(error), kind="JSONDecodeError") from None
        except ValueError as error:  # a number of more digits than CPython converts
            raise ProgramError(str(error), kind="ValueError") from None
        except RecursionError:
            raise state.too_nested() from None
        state.charge(state.measure(value))
        _check_ints(state, value)
        return value

    members = {
        "dumps": Builtin("dumps", dumps),
        "loads": Builtin("loads", loads),
        "JSONDecodeError": m.exceptions["JSONDecodeError"],
    }
    return PModule("json", members)


def _plain_option(value: Any, key: str) -> Any:
    """`indent=` (a number or a string) and `separators=` (two strings): CPython's own
    kinds only, anything else refused."""
    if key == "indent" and (value is None or type(value) in (int, str)):
        if type(value) is int and value > 100:
            raise ProgramError("json.dumps(indent=...) takes at most 100 here")
        if type(value) is str and len(value) > 100:
            raise ProgramError("json.dumps(indent=...) takes at most 100 characters here")
        return value
    if (
        key == "separators"
        and type(value) in (tuple, list)
        and len(value) == 2
        and all(type(one) is str and len(one) <= 100 for one in value)
    ):
        return tuple(value)
    raise ProgramError(f"json.dumps({key}=...) takes CPython's plain values here")


def _check_ints(state: State, value: Any) -> None:
    """Integers the decoder made, within the integer bound (its nesting is measured)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is int:
            state.check_int(item)
        elif kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)


def _key_chars(key: Any) -> int:
    """The least text a key makes with its quotes and a `:` (`"1":`, `"true":`)."""
    kind = type(key)
    if kind is str:
        return len(key) + 3
    if kind is int:
        return (len(str(key)) if key.bit_length() < 64 else 20) + 3
    return 6 if kind is float else 7  # `"0.5":`; `"null":`, `"true":`, `"false":`


class _Walker:
    """A value of the program's as the plain data CPython's encoder writes."""

    def __init__(self, state: State, default: Any) -> None:
        self.state = state
        self.default = default
        self.has_default = False
        self.skipkeys = False
        self.items = 0
        self.chars = 0
        # The text the encoder puts around each item of a list or a dict: its separators,
        # and with `indent` a new line indented as deep as the container (`lay_out`).
        self.item_separator = 2  # `, `
        self.key_separator = 2  # `: `
        self.indent: int | None = None
        self.level = 0  # the containers the walk is in, as the encoder indents them
        self.path: set[int] = set()
        # What `collections` made (`Machine.collections`): a deque and a dict's views are
        # lists here, and not JSON in CPython.
        self.special: dict[int, tuple[Any, str, Any]] = {}

    def count(self, chars: int = 1) -> None:
        self.items += 1
        self.chars += chars
        if self.items % ITEMS_PER_STEP == 0:
            self.state.charge(1)
        if self.chars > MAX_STR:
            self.state.check_str(self.chars)  # refused: the text would pass the bound

    def lay_out(self, indent: Any, separators: Any) -> None:
        """The lengths of the text CPython's encoder writes between items, given its
        options (already `_plain_option`'s): `indent` puts each item on a line of its own,
        indented once more per container, and makes the item separator `,`."""
        if indent is not None:
            self.indent = len(indent) if type(indent) is str else max(0, indent)
            self.item_separator = 1
        if separators is not None:
            self.item_separator, self.key_separator = map(len, separators)

    def laid_out(self, items: int) -> None:
        """The text between and around a container's `items`, counted as the items are:
        with `indent`, a text of 5,000 short items 200 lists deep is megabytes of
        indentation, refused before the encoder writes it."""
        if not items:
            return
        chars = (items - 1) * self.item_separator
        if self.indent is not None:
            chars += items * (1 + self.indent * self.level) + 1 + self.indent * (self.level - 1)
        self.chars += chars
        if self.chars > MAX_STR:
            self.state.check_str(self.chars)

    def walk(self, value: Any, depth: int) -> Any:
        if depth > self.state.limits.max_depth:
            raise self.state.too_nested()
        kind = type(value)
        if kind is PInstance:  # a StrEnum's or IntEnum's member is its str or int, as CPython's
            value = enum_mixin_value(value)
            kind = type(value)
        if value is None or kind is bool:
            self.count(4)
            return value
        if kind is int:
            self.count(len(str(value)) if value.bit_length() < 64 else 20)
            return value
        if kind is float:
            self.count(3)  # `0.5`, `NaN`: the shortest a float's text is
            return value
        if kind is str:
            self.count(len(value) + 2)
            return value
        made = self.special.get(id(value))
        if made is not None and made[0] is value and made[1] in NOT_JSON:
            return self.other(value, made[1], depth)
        if kind in VIEW_NAMES:  # a dict's view: not JSON, as CPython's encoder says
            return self.other(value, VIEW_NAMES[kind], depth)
        if kind in (list, tuple, dict):
            marker = id(value)
            if marker in self.path:
                raise ProgramError("Circular reference detected", kind="ValueError")
            self.path.add(marker)
            self.count(2)
            self.level += 1
            try:
                if kind is dict:
                    return self.walk_dict(value, depth)
                self.laid_out(len(value))
                return [self.walk(item, depth + 1) for item in value]
            finally:
                self.level -= 1
                self.path.discard(marker)
        # CPython names the type by its `__name__` (an io.StringIO's is `StringIO`)
        name = "StringIO" if type(value) is TextBuffer else cpython_type(value)
        return self.other(value, name, depth)

    def other(self, value: Any, name: str, depth: int) -> Any:
        """What `default=` makes of a value CPython's encoder cannot write, else its
        TypeError."""
        if not self.has_default:
            raise ProgramError(f"Object of type {name} is not JSON serializable", kind="TypeError")
        marker = id(value)
        if marker in self.path:
            raise ProgramError("Circular reference detected", kind="ValueError")
        self.path.add(marker)
        try:
            return self.walk(self.default(value), depth + 1)
        finally:
            self.path.discard(marker)

    def walk_dict(self, value: dict[Any, Any], depth: int) -> dict[Any, Any]:
        plain: dict[Any, Any] = {}
        for key, item in value.items():
            if type(key) is PInstance:  # `{Op.MUL: 1}`: keyed by its str (a StrEnum's)
                key = enum_mixin_value(key)
            if type(key) not in KEY_TYPES:
                if self.skipkeys:
                    continue
                raise ProgramError(
                    f"keys must be str, int, float, bool or None, not {cpython_type(key)}",
                    kind="TypeError",
                )
            self.count(_key_chars(key))
            plain[key] = self.walk(item, depth + 1)
        # (`len(key) + 3` counted one character of the key separator)
        self.laid_out(len(plain))
        self.chars += len(plain) * max(0, self.key_separator - 1)
        if self.chars > MAX_STR:
            self.state.check_str(self.chars)
        return plain


# A JSON string (skipped whole, escapes and all, closed or not) or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]')


def _nests_deeper_than(text: str, limit: int) -> bool:
    """Whether the JSON text opens more than `limit` brackets at once (brackets in its
    strings do not count), by a scan in C with no recursion: `json.loads` is never handed
    a text nested deeper than the interpreter's containers may be (its decoder recurses
    in C, under the recursion limit a trace raises, as the server's body check has it).

    Example: `_nests_deeper_than('[[1], {"a": "[[["}]', 2)` -> False.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for token in _TOKENS.finditer(text):
        first = token.group()[0]
        if first == "[" or first == "{":
            depth += 1
            if depth > limit:
                return True
        elif first == "]" or first == "}":
            depth -= 1
    return False
