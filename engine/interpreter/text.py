"""Turning values into text: `str`, `repr`, f-string fields, format specs and `%`.

All formatting is ours: a format spec is parsed here and its width and precision are
bounded before anything is made, and only plain numbers and strings are ever handed to
Python's `format` — never an object with attributes, so no field can walk anywhere
(`'{0.__class__}'.format(x)` has no way in: there is no `str.format`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from types import GeneratorType, MappingProxyType
from typing import Any

from backprop_animator.engine.interpreter.objects import (
    ENDLESS,
    ENUM_KEY,
    GENERIC_ALIASES,
    LOG_HANDLERS,
    LOG_KIND,
    MISSING,
    TYPING_UNIONS,
    Annotation,
    BoundMethod,
    Builtin,
    Function,
    Inert,
    NodeRule,
    Partial,
    PartialMethod,
    PClass,
    PClassMethod,
    PInstance,
    PModule,
    PProperty,
    PSet,
    PStaticMethod,
    PSuper,
    TextBuffer,
    TypeObject,
    enum_mixin_value,
    union_members,
)
from backprop_animator.engine.interpreter.runtime import (
    MAX_STR,
    SMALL_INT,
    STRING_CHARS_PER_STEP,
    ProgramError,
    State,
)
from backprop_animator.engine.value import Value

# [[fill]align][sign][z][#][0][width][grouping][.precision][type]
_SPEC = re.compile(
    r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?z?#?0?(?P<width>\d+)?[_,]?"
    r"(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?",
    re.DOTALL,
)
_MAX_PRECISION = 100

# Calls a method of the program's own class: (instance, method name) -> result or MISSING.
DunderCaller = Callable[..., Any]  # `call_dunder(instance, name, *args)`


class Texts:
    """str() and repr() of any program value, with the class methods they may call."""

    def __init__(self, state: State, call_dunder: DunderCaller) -> None:
        self.state = state
        self.call_dunder = call_dunder
        # The classes that are Python's own (`object`, the exceptions): no module shown.
        self.builtin_classes: set[PClass] = set()
        # A library module's classes (`abc.ABC`): the module their `repr` names.
        self.class_modules: dict[PClass, str] = {}
        # The machine's `collections` registry: a deque or Counter prints as CPython's.
        self.collections: dict[int, tuple[Any, str, Any]] = {}
        self.active: set[int] = set()  # (`to_repr`; a dataclass's objects too)

    def partial_repr(self, value: Partial | PartialMethod, seen: set[int] | None) -> str:
        """`functools.partial(<function f>, 1, c=5)`: CPython's, its function's address
        left out as everywhere here."""
        if type(value) is PartialMethod:
            return self.partialmethod_repr(value, seen)
        parts = [self.to_repr(value.func, seen)]
        parts += [self.to_repr(arg, seen) for arg in value.args]
        parts += [f"{key}={self.to_repr(arg, seen)}" for key, arg in value.keywords.items()]
        text = f"functools.partial({', '.join(parts)})"
        self.state.check_str(len(text))
        return text

    def partialmethod_repr(self, value: PartialMethod, seen: set[int] | None) -> str:
        """CPython's `partialmethod.__repr__`: its function (by `str`), its arguments and
        its keywords, each group after a comma even when empty (`(<function f>, , )`)."""
        func = self.to_str(value.func)
        args = ", ".join(self.to_repr(arg, seen) for arg in value.args)
        keywords = ", ".join(f"{k}={self.to_repr(v, seen)}" for k, v in value.keywords.items())
        text = f"functools.partialmethod({func}, {args}, {keywords})"
        self.state.check_str(len(text))
        return text

    def to_str(self, value: Any) -> str:
        if type(value) is str:
            return value
        if isinstance(value, PInstance):
            text = self.call_dunder(value, "__str__")
            if text is not NO_METHOD:
                return self._must_be_str(text, "__str__")
            if type(value) is PInstance:
                # CPython's `object.__str__` hands back what `__repr__` gave, unchecked, and
                # `str()` checks it: `__str__ returned non-string (type NoneType)`.
                self.state.charge(1)  # (as `to_repr` charges)
                text = self.call_dunder(value, "__repr__")
                if text is NO_METHOD:
                    return f"<{value.cls.name} object>"
                return self._must_be_str(text, "__str__")
        if type(value) is MappingProxyType:  # a class's `__dict__` prints as its dict
            return self.to_repr(value.copy())
        return self.to_repr(value)

    def to_repr(self, value: Any, seen: set[int] | None = None) -> str:
        self.state.charge(1)
        kind = type(value)
        if kind is int and not -SMALL_INT <= value <= SMALL_INT:
            # Its decimal digits, a step per ten as any string made (an f-string's `{x}`
            # is charged so): 4,096 bits are 1,234 digits, which CPython writes in time
            # their square (a loop of `str(2**4095)` ran at a third of a millisecond a step).
            self.state.charge(value.bit_length() * 3 // (10 * STRING_CHARS_PER_STEP))
            return repr(value)
        if kind is float or kind is int or kind is bool or value is None or value is Ellipsis:
            return repr(value)
        if value is NotImplemented:  # what a number's `(2).__add__(node)` answers
            return "NotImplemented"
        if kind is str:
            self.state.check_str(len(value) + 2)
            return repr(value)
        if kind is Value:
            return f"Value(data={value.data!r}, grad={value.grad!r})"
        if kind is PInstance:
            text = self.call_dunder(value, "__repr__")
            if text is NO_METHOD:
                return f"<{value.cls.name} object>"
            return self._must_be_str(text, "__repr__")
        if kind in (list, tuple, dict) or kind is PSet:
            # `seen` counts this repr's nesting; `active` holds the containers whose repr
            # is being made by any caller (a class's own `__repr__` of a list holding its
            # object too): CPython's `Py_ReprEnter`, so a cycle through a program's
            # `__repr__` is `[...]` (`A[A[...]]`), not a recursion to the call depth.
            seen = set() if seen is None else seen
            active = self.active
            if id(value) in seen or id(value) in active:
                return self.repr_again(value, seen)
            if len(seen) >= self.state.limits.max_depth:
                raise self.state.too_nested()
            seen.add(id(value))
            active.add(id(value))
            try:
                return self._container(value, seen)
            finally:
                seen.discard(id(value))
                active.discard(id(value))
        if kind is Function:  # CPython's, by its qualified name, with no address
            shown = f"<function {value.qualname}>"
            self.state.check_str(len(shown))
            return shown
        if kind is BoundMethod:  # `print(loss.backward)`: CPython's, its object's repr
            qualname = value.function.qualname
            shown = f"<bound method {qualname} of {self.to_repr(value.self, seen)}>"
            self.state.check_str(len(shown))
            return shown
        if kind is PClass:  # a class of the program's is its module's, `__main__`
            module = "" if value in self.builtin_classes else "__main__."
            if any(ENUM_KEY in c.namespace for c in value.mro):  # an Enum: `<enum 'Op'>`
                return f"<enum '{value.name}'>"
            shown = value.qualname if module else value.name  # `<class '__main__.C.Inner'>`
            return f"<class '{self.class_modules.get(value, module)}{shown}'>"
        if isinstance(value, TypeObject):
            return f"<class '{value.module}{value.name}'>"
        if kind is Partial or kind is PartialMethod:  # `functools.partial(<function f>, 1)`
            return self.partial_repr(value, seen)
        if isinstance(value, Builtin):  # `<built-in function sqrt>`, as CPython's
            return builtin_repr(value)
        if kind is PModule:
            return _module_repr(value)
        if isinstance(value, Inert):
            return f"<{value.name}, not available here>"
        if kind is range or kind is complex or kind is slice:  # (a slice of ints or None)
            return repr(value)
        if kind in _WRAPPED_MAPPINGS:
            # `dict_keys(['a', 'b'])`, of the items a dict's view has now; a class's
            # `__dict__` (`objects.class_dict`) as `mappingproxy({...})`
            inner = list(value) if kind in VIEW_NAMES else value.copy()
            return f"{_WRAPPED_MAPPINGS[kind]}({self.to_repr(inner, seen)})"
        if kind is bytes:
            self.state.charge(len(value) // 10)
            shown = repr(value)  # up to four characters a byte (`\\x00`)
            if len(shown) > MAX_STR:
                self.state.check_str(len(shown))
            return shown
        if kind is Annotation:
            return self.annotation_repr(value, seen)
        return self.other_repr(value, seen)

    def annotation_repr(self, value: Annotation, seen: set[int] | None) -> str:
        """A `typing` name (`typing.List`), or CPython's generic alias as it shows it,
        `list[float]`, `dict[str, __main__.Value]`; a type variable `~T`."""
        if value.name.startswith("~"):  # (`stdlib._type_variable`)
            return value.name
        if value.name in GENERIC_ALIASES or value.name == "|" or value.origin is not None:
            union = value.name == "|"  # `dict[str, float] | None`
            parts: list[str] = []
            size = 0 if union else len(value.name) + 2
            for arg in value.args:  # each argument is bounded, and so is their sum
                part = self.alias_argument(arg, seen)
                size += len(part) + (3 if union else 2) * bool(parts)
                if size > MAX_STR:
                    self.state.check_str(size, at_least=True)
                parts.append(part)
            if union:
                return " | ".join(parts)
            if value.origin is not None:  # `__main__.Batch[int]`, its class's own name
                return f"{self.alias_argument(value.origin, seen)}[{', '.join(parts)}]"
            return f"{value.name}[{', '.join(parts)}]"
        if value.name in TYPING_UNIONS and value.args:
            return self.typing_union_repr(value, seen)
        if value.args:  # `typing.List[int]`, `typing.Callable[[int], str]`, as CPython's
            parts = []
            size = len(value.name) + 9
            for arg in value.args:
                part = (
                    f"[{', '.join(self.alias_argument(item, seen) for item in arg)}]"
                    if type(arg) is list  # (`Callable`'s parameters; charged as a list's)
                    else self.alias_argument(arg, seen)
                )
                size += len(part) + 2
                if size > MAX_STR:
                    self.state.check_str(size, at_least=True)
                parts.append(part)
            return f"typing.{value.name}[{', '.join(parts)}]"
        return f"typing.{value.name}"

    def typing_union_repr(self, value: Annotation, seen: set[int] | None) -> str:
        """`typing.Optional[int]`, `typing.Union[int, str, NoneType]`: typing's union as
        CPython 3.11 shows it, its members flattened; one alone itself."""
        members = union_members(value, self.state.charge)
        parts: list[str] = []
        size = 0
        for member in members:  # each member is bounded, and so is their sum
            part = "NoneType" if member is None else self.alias_argument(member, seen)
            size += len(part) + 2
            if size > MAX_STR:
                self.state.check_str(size, at_least=True)
            parts.append(part)
        if len(parts) == 1:
            return parts[0]
        if len(members) == 2 and (members[0] is None or members[1] is None):
            return f"typing.Optional[{parts[1] if members[0] is None else parts[0]}]"
        return f"typing.Union[{', '.join(parts)}]"

    def alias_argument(self, arg: Any, seen: set[int] | None) -> str:
        """An argument of a generic alias as CPython's `repr(list[X])` shows it: a class
        by its qualified name (`__main__.Value`, a built-in's bare: `float`), `...`."""
        if type(arg) is PClass:
            module = "" if arg in self.builtin_classes else "__main__."
            shown = arg.qualname if module else arg.name
            return f"{self.class_modules.get(arg, module)}{shown}"
        if isinstance(arg, TypeObject):
            return f"{arg.module}{arg.name}"
        if arg is Ellipsis:
            return "..."
        return self.to_repr(arg, seen)

    def other_repr(self, value: Any, seen: set[int] | None) -> str:
        """`count(5)`, `repeat('a', 3)` as CPython's, of what is left of them; a fixed
        text for the other objects `to_repr` has not shown."""
        kind = type(value)
        if kind in ENDLESS:
            held = value.__reduce__()[1]
            step = held[1] if len(held) == 2 else None
            if kind is ENDLESS[0] and step == 1 and type(step) is not float:
                held = held[:1]  # a step of 1 is not shown
            inner = ", ".join(self.to_repr(item, seen) for item in held)
            return f"{'count' if kind is ENDLESS[0] else 'repeat'}({inner})"
        if kind is PStaticMethod or kind is PClassMethod:  # read off a class's `__dict__`
            wrapper = "staticmethod" if kind is PStaticMethod else "classmethod"
            return f"<{wrapper}({self.to_repr(value.function, seen)})>"
        return _FIXED_REPRS.get(kind) or iterator_repr(value) or "<object>"

    def _container(self, value: Any, seen: set[int]) -> str:
        parts: list[str] = []
        total = 0
        if type(value) is dict:
            items: Any = (
                f"{self.to_repr(k, seen)}: {self.to_repr(v, seen)}" for k, v in value.items()
            )
        else:
            items = (self.to_repr(item, seen) for item in value)
        for part in items:
            total += len(part) + 2
            self.state.check_str(total)
            parts.append(part)
        inner = ", ".join(parts)
        special = self.collections.get(id(value))
        if special is not None and special[0] is value:
            return self.collection(value, inner, special[1], special[2], seen)
        if type(value) is list:
            return f"[{inner}]"
        if type(value) is tuple:
            return f"({inner},)" if len(parts) == 1 else f"({inner})"
        if type(value) is dict:
            return "{" + inner + "}"
        if value.frozen:  # `frozenset({1, 2})`, `frozenset()`
            return f"frozenset({{{inner}}})" if parts else "frozenset()"
        return "{" + inner + "}" if parts else "set()"

    def repr_again(self, value: Any, seen: set[int]) -> str:
        """A container met again inside its own repr, as CPython's shows it: `[...]`,
        `(...)`, `{...}`, `set(...)`, `frozenset(...)`, a defaultdict's factory before its
        `{...}`, an OrderedDict's `...`."""
        kind = type(value)
        if kind is PSet:
            return "frozenset(...)" if value.frozen else "set(...)"
        if kind is list:
            return "[...]"
        if kind is tuple:
            return "(...)"
        special = self.collections.get(id(value))
        if special is not None and special[0] is value:
            if special[1] == "defaultdict":
                factory = special[2]
                shown = "None" if factory is None else self.to_repr(factory, seen)
                return f"defaultdict({shown}, {{...}})"
            if special[1] == "OrderedDict":
                return "..."
        return "{...}"

    def collection(self, value: Any, inner: str, kind: str, factory: Any, seen: set[int]) -> str:
        if kind == "deque" and factory is not None:  # its maxlen
            return f"deque([{inner}], maxlen={factory})"
        if kind == "deque":
            return f"deque([{inner}])"
        if kind == "defaultdict":
            shown = "None" if factory is None else self.to_repr(factory, seen)
            return f"defaultdict({shown}, {{{inner}}})"
        if kind == "OrderedDict":
            pairs = ", ".join(
                f"({self.to_repr(k, seen)}, {self.to_repr(v, seen)})" for k, v in value.items()
            )
            return f"OrderedDict([{pairs}])" if value else "OrderedDict()"
        ordered = sorted(value.items(), key=lambda pair: pair[1], reverse=True)  # Counter
        pairs = ", ".join(f"{self.to_repr(k, seen)}: {self.to_repr(v, seen)}" for k, v in ordered)
        return f"Counter({{{pairs}}})" if value else "Counter()"

    def _must_be_str(self, text: Any, method: str) -> str:
        if type(text) is not str:  # CPython's TypeError, which a program may catch
            words = (
                f"__format__ must return a str, not {python_type_name(text)}"
                if method == "__format__"
                else f"{method} returned non-string (type {python_type_name(text)})"
            )
            raise ProgramError(words, kind="TypeError")
        return text

    def format(self, value: Any, spec: str, conversion: int = -1) -> str:
        """One f-string field: `{value!r:>10}` -> text."""
        if conversion == ord("r"):
            value = self.to_repr(value)
        elif conversion == ord("s"):
            value = self.to_str(value)
        elif conversion == ord("a"):
            value = self.to_repr(value).encode("ascii", "backslashreplace").decode("ascii")
        if type(value) is PInstance:  # its class's own `__format__`, blank spec included
            text = self.call_dunder(value, "__format__", spec)
            if text is not NO_METHOD:
                return self._must_be_str(text, "__format__")
        if not spec:
            return self.to_str(value)
        kind = type(value)
        if kind is Value:
            raise ProgramError("a Value has no format; format its .data or .grad")
        if kind not in (int, float, bool, str, complex):
            # CPython's `object.__format__` refuses any spec (the program's classes too).
            raise ProgramError(
                f"unsupported format string passed to {python_type_name(value)}.__format__",
                kind="TypeError",
            )
        match = _SPEC.fullmatch(spec)
        if match is None:
            raise _spec_error(value, spec)
        width = spec_number(match["width"])
        precision = spec_number(match["precision"])
        if width > MAX_STR:
            raise ProgramError(
                f"the format width {width:,} would make a string longer than {MAX_STR:,} characters"
            )
        if precision > _MAX_PRECISION:
            raise ProgramError(f"the format precision {precision:,} is above {_MAX_PRECISION}")
        # A float's fixed-point text is at most 311 digits before the point (`1.8e308`
        # as a percentage) and _MAX_PRECISION after it, well within MAX_STR.
        try:
            text = format(value, spec)
        except (ValueError, OverflowError) as error:  # CPython's words, caught as its class
            raise ProgramError(str(error), kind=type(error).__name__) from None
        self.state.check_str(len(text))
        return text

    def percent(self, template: str, values: Any, get_item: Any = None) -> str:
        """`'%.3f' % x`, `'%s and %d' % (a, b)` and `'%(a)s' % {'a': 1}`, each conversion
        through `format`; `get_item` looks a key up in a mapping (`Machine.get_item`)."""
        args = list(values) if type(values) is tuple else [values]
        mapping = _is_mapping(values)
        out: list[str] = []
        position = made = 0
        for match in _PERCENT.finditer(template):
            out.append(template[position : match.start()])
            position = match.end()
            key, flags, width, precision, kind = match.groups()
            if kind not in _CONVERSIONS or not kind:  # CPython's ValueError, caught as one
                raise _percent_error(kind, match.end() - 1)
            if kind == "%":
                out.append("%")
                continue
            if width == "*":  # `'%*d' % (5, x)`: the width is an argument, before the value
                given = _star_argument(args)
                flags += "-" if given < 0 else ""
                width = str(abs(given))
            if precision == "*":  # `'%.*f' % (2, x)`: a negative one is 0, as CPython's
                precision = str(max(0, _star_argument(args)))
            if key is not None:
                if not mapping or get_item is None:
                    raise ProgramError("format requires a mapping", kind="TypeError")
                value = get_item(values, key)
                args = []  # CPython's: a plain conversion after a keyed one has no argument
            elif not args:
                raise ProgramError("not enough arguments for format string", kind="TypeError")
            else:
                value = args.pop(0)
            out.append(self.conversion(value, flags, width, precision, kind))
            # A key may be named many times (`'%(a)s' * n % d`): the text made so far stays
            # within the string bound as it grows.
            made += len(out[-2]) + len(out[-1])
            self.state.check_str(made)
        if args and not mapping:
            raise ProgramError(
                "not all arguments converted during string formatting", kind="TypeError"
            )
        out.append(template[position:])
        text = "".join(out)
        self.state.check_str(len(text))
        return text

    def conversion(
        self, value: Any, flags: str, width: str | None, precision: str | None, kind: str
    ) -> str:
        """One `%` conversion of `percent`, as CPython makes it."""
        if kind == "c" and type(value) is str:  # `'%c' % 'z'`: the character itself
            if len(value) != 1:
                raise ProgramError("%c requires int or char", kind="TypeError")
            kind = "s"
        if kind in "sra":
            text = self.to_str(value) if kind == "s" else self.to_repr(value)
            if kind == "a":  # `ascii()`: the repr with what is past ASCII escaped
                text = text.encode("ascii", "backslashreplace").decode("ascii")
            spec = ("<" if "-" in flags else ">") + (width or "")
            if precision is not None:
                text = text[: spec_number(precision)]
            return self.format(text, spec if width else "")
        given = value
        if type(value) is PInstance:  # an IntEnum's member is its int (`'%d' % Level.HIGH`)
            value = enum_mixin_value(value)
        if type(value) is PInstance:  # an object's own `__index__`: an int, as CPython's
            index = self.call_dunder(value, "__index__")
            if type(index) is int:
                value = index
        numeric = type(value) in (int, float, bool)
        if kind != "c" and (not numeric or (kind in "xXo" and type(value) is float)):
            name = python_type_name(given)
            if kind in "eEfFgG":
                message = f"must be real number, not {name}"
            else:
                needed = "an integer" if kind in "xXo" else "a real number"
                message = f"%{kind} format: {needed} is required, not {name}"
            raise ProgramError(message, kind="TypeError")
        if kind in "diu":
            kind = "d"
            if type(value) is float:
                value = int(value)
        if precision is not None and kind in "dxXo":  # `'%.3d' % 5`: at least 3 digits
            return self.precise_integer(int(value), flags, width, spec_number(precision), kind)
        align = "<" if "-" in flags else ""
        sign = "+" if "+" in flags else (" " if " " in flags else "")
        zero = "0" if "0" in flags and not align else ""
        alternate = "#" if "#" in flags and kind != "c" else ""  # `'%#x'`: `0xff`
        dot = f".{precision}" if precision is not None else ""
        return self.format(value, f"{align}{sign}{alternate}{zero}{width or ''}{dot}{kind}")

    def precise_integer(
        self, value: int, flags: str, width: str | None, precision: int, kind: str
    ) -> str:
        """`'%.3d' % 5`, `'%#08.4x' % 255`: an integer of at least `precision` digits,
        zero-padded, after its sign and prefix, then padded to `width`, as CPython's."""
        size = spec_number(width) if width else 0
        self.state.check_str(max(precision, size))
        digits = format(abs(value), kind).rjust(precision, "0")
        prefix = "0" + kind if "#" in flags and kind != "d" else ""
        sign = "-" if value < 0 else "+" if "+" in flags else " " if " " in flags else ""
        head = sign + prefix
        if "-" in flags:
            return (head + digits).ljust(size)
        if "0" in flags:
            return head + digits.rjust(size - len(head), "0")
        return (head + digits).rjust(size)

    def bytes_percent(self, template: bytes, values: Any) -> bytes:
        """`b'%d' % 5`: Python's own `bytes.__mod__` (CPython's results and words), on
        plain values only, its widths and precisions and what it could make bounded first."""
        items = [values]
        if type(values) is tuple:
            items = list(values)
        elif type(values) is dict:
            items = [*values, *values.values()]
        made = len(template)
        # A mapping's value may be named by many conversions (`b'%(a)s%(a)s' % d`): each
        # is counted as its largest value.
        largest = max(map(_bytes_made, values.values()), default=0) if type(values) is dict else 0
        for match in _BYTES_PERCENT.finditer(template):
            if b"*" in match[0]:
                raise ProgramError("a `*` width in bytes %-formatting is not available here")
            made += sum(spec_number(n.decode()) for n in match.groups()[:2] if n)
            made += 400 if match[3] in b"eEfFgG" else 0  # a float's digits
            made += largest if match[0][1:2] == b"(" else 0
        for item in items:
            made += _bytes_made(item)
        if made > 100 * MAX_STR:
            raise ProgramError(
                f"this bytes formatting could make {made:,} characters; strings here stay "
                f"within {MAX_STR:,}"
            )
        self.state.charge(made // 100)
        try:
            result: bytes = template % values
        except (TypeError, ValueError, OverflowError) as error:  # CPython's class and words
            raise ProgramError(str(error), kind=type(error).__name__) from None
        self.state.check_str(len(result))
        return result


def _bytes_made(item: Any) -> int:
    """At most how many characters `item` makes formatted into bytes (a string's `%r`
    escapes included); refused unless a plain value, or a list, tuple or dict of plain
    values (whose `%r` is Python's own, as CPython's)."""
    kind = type(item)
    if kind in (list, tuple):
        return 2 + sum(_plain_made(one) + 2 for one in item)
    if kind is dict:
        return 2 + sum(_plain_made(k) + _plain_made(v) + 4 for k, v in item.items())
    return _plain_made(item)


def _plain_made(item: Any) -> int:
    kind = type(item)
    if kind not in _BYTES_FORMATTED:
        raise ProgramError(
            f"bytes %-formatting takes numbers, strings and bytes here, not {a_type(item)}"
        )
    if kind is str or kind is bytes:
        return 10 * len(item)
    return item.bit_length() // 3 + 2 if kind is int else 30  # a float's or complex's repr


# Where bytes %-formatting could make many characters: a width or a precision.
_BYTES_PERCENT = re.compile(rb"%(?:\([^)]*\))?[-+ 0#]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.?)", re.S)
_BYTES_FORMATTED = (int, bool, float, complex, str, bytes, type(None))
# Every `%` of a template: a key, flags, width, precision, a length modifier CPython
# skips (`%ld`) and the conversion's character, which may be none or no conversion.
_PERCENT = re.compile(r"%(?:\(([^()]*)\))?([-+ 0#]*)(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.?)", re.DOTALL)
_CONVERSIONS = frozenset("diouxXeEfFgGcrsa%")


def _percent_error(kind: str, index: int) -> ProgramError:
    """`'%y' % 1`, `'100%' % ()`: CPython's ValueError for a conversion it has not."""
    if not kind:
        words = "incomplete format"
    elif kind == "(":
        words = "incomplete format key"
    else:
        words = f"unsupported format character '{kind}' (0x{ord(kind):x}) at index {index}"
    return ProgramError(words, kind="ValueError")


def spec_number(digits: str | None) -> int:
    """A format spec's width or precision, as CPython reads its digits: leading zeros
    are nothing, past 19 others CPython's ValueError (its `int()` of 4,300 digits or more
    was Python's own ValueError, said as an operation that failed)."""
    significant = (digits or "").lstrip("0")
    if len(significant) > 19:
        raise ProgramError("Too many decimal digits in format string", kind="ValueError")
    return int(significant or 0)


def _star_argument(args: list[Any]) -> int:
    """The next argument of a `%` format, taken by a `*` width or precision: an int."""
    if not args:
        raise ProgramError("not enough arguments for format string", kind="TypeError")
    given = args.pop(0)
    if type(given) not in (int, bool):
        raise ProgramError("* wants int", kind="TypeError")
    return int(given)


def _is_mapping(values: Any) -> bool:
    """Whether CPython's `str % values` takes `values` as a mapping (it has `__getitem__`
    and is no tuple or string): then its keys name values, and nothing is left over."""
    if type(values) is PInstance:
        return values.cls.lookup("__getitem__") is not MISSING
    return type(values) in (dict, MappingProxyType, list, range, bytes)


class _NoMethod:
    __slots__ = ()


# What `Machine.call_dunder` returns when a program's class has no such method.
NO_METHOD: Any = _NoMethod()


def _spec_error(value: Any, spec: str) -> ProgramError:
    """The error for a spec no format accepts: CPython's ValueError, whose words Python's
    `format` gives for a plain value when the spec is short and names no large width (it
    fails on parsing; the check keeps a spec this pattern misses from ever allocating)."""
    plain = type(value) in (int, float, bool, str, complex)
    if plain and len(spec) <= 40 and re.search(r"\d{5}", spec) is None:
        try:
            format(value, spec)
        except ValueError as error:
            return ProgramError(str(error), kind="ValueError")
    return ProgramError(f"invalid format spec {spec[:40]!r}", kind="ValueError")


# The names CPython gives the lazy objects a program may hold that are Python generators
# here, by the code of the generator (filled by the modules that make them: `map`'s,
# `filter`'s, a program's generator function's...); "live" is a dict's or set's walk.
ITERATOR_CODES: dict[Any, str] = {}
# Python's own iterators, named by their type as CPython names it (`list_iterator`).
_HOST_ITERATORS: frozenset[type] = frozenset(
    {
        type(iter([])), type(iter(())), type(iter("")), type(iter("\u00e9")),
        type(iter(range(0))), type(reversed([])), type(iter({}.keys())), zip, enumerate,
        reversed,
    }
)  # fmt: skip
# A dict's or a set's walk (`iter(d)`, `iter(d.items())`) by what it walks.
_LIVE_NAMES: dict[type, str] = {
    dict: "dict_keyiterator",
    type({}.keys()): "dict_keyiterator",
    type({}.values()): "dict_valueiterator",
    type({}.items()): "dict_itemiterator",
}


# Every name `iterator_name` gives: Python's own immutable types.
ITERATOR_NAMES = frozenset(
    {kind.__name__ for kind in _HOST_ITERATORS}
    | set(_LIVE_NAMES.values())
    | {"set_iterator", "generator", "map", "filter", "callable_iterator"}
)


def iterator_name(value: Any) -> str | None:
    """`type(x).__name__` of a lazy object as CPython's (`map`, `generator`,
    `list_iterator`); None for anything else (another of the library's own Python
    generators, which CPython's are no generators: `itertools.chain`'s). A dict's walk is
    named by what it walks while it can be asked (once exhausted, only as a `generator`)."""
    kind = type(value)
    if kind is GeneratorType:
        name = ITERATOR_CODES.get(value.gi_code)
        if name is None:
            return None
        if name == "live":
            frame = value.gi_frame
            if frame is None:
                return "generator"
            if frame.f_locals.get("what") == "Set":
                return "set_iterator"
            return _LIVE_NAMES.get(type(frame.f_locals.get("table")), "dict_keyiterator")
        return "generator" if name == "genexpr" or name == "function" else name
    return kind.__name__ if kind in _HOST_ITERATORS else None


def iterator_repr(value: Any) -> str | None:
    """`<map object>`, `<generator object walk>` (its qualname), `<generator object
    <genexpr>>`: CPython's, with no address (as an object's: `<V object>`)."""
    name = iterator_name(value)
    if name is None:
        return None
    if name != "generator":
        return f"<{name} object>"
    made_by = ITERATOR_CODES.get(value.gi_code)
    if made_by == "function":
        return f"<generator object {value.__qualname__}>"
    return "<generator object <genexpr>>" if made_by == "genexpr" else "<generator object>"


# Reprs that say no more than the type: an io.StringIO's is CPython's, its address left
# out as an object's is (`<V object>`).
_FIXED_REPRS: dict[type, str] = {
    PProperty: "<property object>",
    TextBuffer: "<_io.StringIO object>",
}


def python_type_name(value: Any) -> str:
    """`type(value).__name__` as CPython gives it ('NoneType', 'list', 'type')."""
    if value is None:
        return "NoneType"
    if isinstance(value, TypeObject) or type(value) is PClass:
        return "type"
    if type(value) is Partial:
        return "partial"
    if type(value) is PartialMethod:
        return "partialmethod"
    if isinstance(value, Builtin):
        return "builtin_function_or_method"
    if type(value) is BoundMethod:
        return "method"
    if type(value) in _WRAPPERS:  # a class's `__dict__` holds them
        return _WRAPPERS[type(value)]
    if type(value) in ENDLESS:  # as CPython's messages name them (`__name__` is 'count')
        return _CPYTHON_NAMED[type(value)]
    return iterator_name(value) or type_name(value)


_WRAPPERS: dict[type, str] = {
    MappingProxyType: "mappingproxy",
    PProperty: "property",
    PStaticMethod: "staticmethod",
    PClassMethod: "classmethod",
    PSuper: "super",  # `type(super()).__name__`
}


_LEVEL_NAMES = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}


def _module_repr(value: PModule) -> str:
    """A module's repr, or a logger's, a handler's or a formatter's (`logging_module`),
    as CPython's (a formatter's address left out, as an object's is)."""
    kind = value.members.get(LOG_KIND)
    if kind == "Logger":
        level = value.members["getEffectiveLevel"].call([], {})
        name = _LEVEL_NAMES.get(level, f"Level {level}")
        kind_name = "RootLogger" if value.name == "root" else "Logger"
        return f"<{kind_name} {value.name} ({name})>"
    if kind in LOG_HANDLERS:  # `<StreamHandler <stderr> (NOTSET)>`: its stream's name
        level = value.members["level"]
        stream = value.members["stream"]
        shown = "" if type(stream) is TextBuffer else "<stdout> " if stream else "<stderr> "
        if kind == "NullHandler":
            shown = ""
        return f"<{kind} {shown}({_LEVEL_NAMES.get(level, f'Level {level}')})>"
    if kind == "Formatter":
        return "<logging.Formatter object>"
    if value.name in sys.builtin_module_names:  # CPython's words, no file to name
        return f"<module '{value.name}' (built-in)>"
    return f"<module '{value.name}'>"


def type_name(value: Any) -> str:
    """The name a learner knows a value's type by: 'float', 'list', 'Neuron', 'Value'."""
    if isinstance(value, PInstance):
        return value.cls.name
    if isinstance(value, PSet):
        return "frozenset" if value.frozen else "set"
    if isinstance(value, Function | BoundMethod | Builtin):
        return "function"
    if isinstance(value, PClass):
        return "class"
    if isinstance(value, PModule):
        return "module"
    if type(value) is TextBuffer:  # `io.StringIO()`: its class's `__name__`
        return "StringIO"
    if value is None:
        return "None"
    if type(value) in VIEW_NAMES:
        return VIEW_NAMES[type(value)]
    return type(value).__name__ if type(value) in _PLAIN else "object"


_PLAIN = {int, float, bool, complex, str, bytes, list, tuple, dict, range, slice, Value}

# A dict's views, CPython's own objects, by the names CPython gives their types.
VIEW_NAMES: dict[type, str] = {
    type({}.keys()): "dict_keys",
    type({}.values()): "dict_values",
    type({}.items()): "dict_items",
}
# What prints as a wrapper round its items: a dict's views, a class's `__dict__`.
_WRAPPED_MAPPINGS: dict[type, str] = {**VIEW_NAMES, MappingProxyType: "mappingproxy"}


def builtin_repr(value: Builtin) -> str:
    """`<built-in function sqrt>`, as CPython's; an engine Value's rule as micrograd's
    closure prints, `<function Value.__mul__.<locals>._backward>` (no address)."""
    if type(value) is NodeRule:
        return f"<function {value.name}>"
    return f"<built-in function {value.name.rpartition('.')[2]}>"


def cpython_type(value: Any) -> str:
    """The name CPython's own messages give a value's type, for what a program's
    `except TypeError as e: print(e)` shows: 'NoneType', 'function', 'type', 'generator'."""
    kind = type(value)
    if value is None:
        return "NoneType"
    if kind is PInstance:
        return str(value.cls.name)
    if kind is Function:
        return "function"
    if kind is BoundMethod:
        return "method"
    if isinstance(value, TypeObject) or kind is PClass:
        return "type"
    if kind is Partial:
        return "functools.partial"
    if kind is PartialMethod:
        return "functools.partialmethod"
    if kind is NodeRule:  # micrograd's closure
        return "function"
    if isinstance(value, Builtin):
        return "builtin_function_or_method"
    if kind is GeneratorType:  # `'map' object is not subscriptable`
        return iterator_name(value) or "generator"
    if kind in _CPYTHON_NAMED:
        return _CPYTHON_NAMED[kind]
    return iterator_name(value) or type_name(value)


# Python's own lazy objects a program may hold, by the names CPython gives them.
_CPYTHON_NAMED: dict[type, str] = {
    GeneratorType: "generator",
    ENDLESS[0]: "itertools.count",
    ENDLESS[1]: "itertools.repeat",
    zip: "zip",
    enumerate: "enumerate",
    map: "map",
    filter: "filter",
    MappingProxyType: "mappingproxy",
    TextBuffer: "_io.StringIO",
    PSuper: "super",
}


def a_type(value: Any) -> str:
    """'an int', 'a float', 'a Neuron': a value's type with its article."""
    name = type_name(value)
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name
