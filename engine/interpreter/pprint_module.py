"""`pprint` as learners print a nested structure: `pprint`, `pformat`, `pp`, `saferepr`,
`isreadable`, `isrecursive` and `PrettyPrinter`, with `indent`, `width`, `depth`,
`stream`, `compact`, `sort_dicts` and `underscore_numbers`.

The source below is CPython 3.11's `pprint.py` (Python Software Foundation License) in
the interpreter's own language, compiled in library mode when a program imports `pprint`
(`Compiler.library_module`): the same line breaking, dicts sorted by key, long strings
split at their spaces, `<Recursion on list with id=...>`. Every step of it is charged as
the program's own are, its calls count towards the call depth, and an object of the
program's is shown by `repr()`, which runs its `__repr__` through the machine.

What differs from CPython's file: a built-in repr is recognised by the exact type
(CPython asks whether `type(obj).__repr__` is `dict.__repr__`; a class of the program's
cannot inherit a built-in type's repr here), and three pieces are native:
`_safe_repr(...)`, the walk made of every object formatted (`_SafeRepr`; natively because
CPython makes it again at each level it breaks, a hundred lines of the interpreter's
steps an item; a `format` method a program's subclass of `PrettyPrinter` overrides is
called for the top object only, not for each item inside), `_words(line)`, CPython's
`re.findall(r'\\S*\\s*', line)` without the empty last match, and `_dataclass_items(obj)`,
the fields a dataclass's generated `__repr__` shows (None for any other object), as
CPython's `_pprint_dataclass` reads them; `_chain_map` is `collections.ChainMap` where the
program has it. Not here: `bytearray`, `mappingproxy`,
`SimpleNamespace` and `collections`' `User*` classes (an object of a class inheriting from
`list` or `dict` is laid out as its list or dict, `_plain`, where its class keeps the
built-in repr), which the interpreter does not
have.
"""

from __future__ import annotations

import re
from typing import Any

from backprop_animator.engine.interpreter.objects import (
    BUILTIN_BASE_KEY,
    MISSING,
    Builtin,
    NativeMethod,
    PInstance,
    PModule,
    enum_mixin_value,
)
from backprop_animator.engine.interpreter.runtime import State
from backprop_animator.engine.interpreter.stdlib import FIELDS, Field

_WORD = re.compile(r"\S*\s*")


def native_names(machine: Any, collections: PModule) -> dict[str, Any]:
    state: State = machine.state

    def words(args: list[Any], kwargs: dict[str, Any]) -> list[str]:
        line = args[0]
        state.charge(len(line) // 10 + 1)
        return _WORD.findall(line)[:-1]

    def dataclass_items(args: list[Any], kwargs: dict[str, Any]) -> Any:
        obj = args[0]
        if type(obj) is not PInstance:
            return None
        owner = next((c for c in obj.cls.mro if "__repr__" in c.namespace), None)
        if owner is None or type(owner.namespace["__repr__"]) is not NativeMethod:
            return None
        fields = owner.namespace.get(FIELDS, MISSING)
        if fields is MISSING:
            return None
        state.charge(len(fields))
        shown = [name for name, spec in fields if type(spec) is not Field or spec.repr]
        return [(name, machine.get_attr(obj, name)) for name in shown]

    def plain(args: list[Any], kwargs: dict[str, Any]) -> Any:
        return plain_of(args[0])

    def safe_repr(args: list[Any], kwargs: dict[str, Any]) -> tuple[str, Any, bool]:
        obj, context, maxlevels, level, sort_dicts, underscore, order = args
        walk = _SafeRepr(machine, context, maxlevels, bool(sort_dicts), bool(underscore), order)
        return walk.safe_repr(obj, level)

    return {
        "_words": Builtin("_words", words),
        "_dataclass_items": Builtin("_dataclass_items", dataclass_items),
        "_safe_repr": Builtin("_safe_repr", safe_repr),
        "_plain": Builtin("_plain", plain),
        "_chain_map": collections.members.get("ChainMap"),
    }


def plain_of(obj: Any) -> Any:
    """The list or dict an object of a class inheriting from `list` or `dict` keeps, when
    the class shows it by the built-in type's repr (CPython's `pprint` lays such an
    object out as it does the built-in type's); anything else as it is."""
    if type(obj) is PInstance:
        held = enum_mixin_value(obj)
        if held is not obj and type(held) in (list, dict):
            owner = next(c for c in obj.cls.mro if "__repr__" in c.namespace)
            if BUILTIN_BASE_KEY in owner.namespace:
                return held
    return obj


class _SafeRepr:
    """CPython's `PrettyPrinter._safe_repr`, the walk `pprint` makes of each object it
    formats (again for each level it breaks, so a deep structure is walked a
    quadratic number of times, as in CPython): the repr of a dict (its keys sorted by
    `order`, the library's `sorted(items, key=_safe_tuple)`, run by the machine), list or
    tuple, `...` past `maxlevels`, `<Recursion on list with id=...>` for one met again
    inside itself, anything else `repr()`'s (an object of the program's by its own
    `__repr__`, through the machine); with whether it reads back (`readable`) and
    whether it holds itself. `context` is the library's dict of the ids being walked.
    A step an item, its text measured against the string bound before it is joined, and
    nested no deeper than containers may be."""

    def __init__(
        self,
        machine: Any,
        context: dict[int, int],
        maxlevels: Any,
        sort_dicts: bool,
        underscore: bool,
        order: Any,
    ) -> None:
        self.machine = machine
        self.state: State = machine.state
        self.context = context
        self.maxlevels = maxlevels
        self.sort_dicts = sort_dicts
        self.underscore = underscore
        self.order = order
        self.depth = 0

    def safe_repr(self, obj: Any, level: int) -> tuple[str, Any, bool]:
        kind = type(obj)
        self.state.charge(1)
        if kind is int:
            if self.underscore:
                self.state.charge(obj.bit_length() // 30)
                return f"{obj:_d}", True, False
            return self.machine.texts.to_repr(obj), True, False
        if kind is PInstance:
            held = plain_of(obj)
            if held is not obj:
                return self.container(held, level)
        if kind is dict or kind is list or kind is tuple:
            return self.container(obj, level)
        rep = self.machine.texts.to_repr(obj)
        readable = True if kind in _SCALARS else (rep and not rep.startswith("<"))
        return rep, readable, False

    def container(self, obj: Any, level: int) -> tuple[str, Any, bool]:
        kind = type(obj)
        if kind is dict:
            form = "{%s}"
        elif kind is list:
            form = "[%s]"
        else:
            form = "(%s,)" if len(obj) == 1 else "(%s)"
        if not obj:
            return form % "", True, False
        key = id(obj)
        if self.maxlevels and level >= self.maxlevels:
            return form % "...", False, key in self.context
        if key in self.context:
            return _recursion(obj), False, True
        if self.depth >= self.state.limits.max_depth:
            raise self.state.too_nested()
        self.context[key] = 1
        self.depth += 1
        try:
            parts, readable, recursive = self.items(obj, level + 1)
        finally:
            self.depth -= 1
            del self.context[key]
        self.state.check_str(sum(len(part) + 2 for part in parts))
        return form % ", ".join(parts), readable, recursive

    def items(self, obj: Any, level: int) -> tuple[list[str], bool, bool]:
        parts: list[str] = []
        readable, recursive = True, False
        if type(obj) is dict:
            pairs = obj.items()
            if self.sort_dicts:
                pairs = self.sorted_items(obj)
            for key, value in pairs:
                key_repr, key_readable, key_recursive = self.safe_repr(key, level)
                value_repr, value_readable, value_recursive = self.safe_repr(value, level)
                parts.append(f"{key_repr}: {value_repr}")
                readable = readable and key_readable and value_readable
                recursive = recursive or key_recursive or value_recursive
            return parts, readable, recursive
        for item in obj:
            item_repr, item_readable, item_recursive = self.safe_repr(item, level)
            parts.append(item_repr)
            readable = readable and bool(item_readable)
            recursive = recursive or item_recursive
        return parts, readable, recursive

    def sorted_items(self, obj: dict[Any, Any]) -> Any:
        """A dict's items in the order of its keys: a dict whose keys are all strings or
        all ints (no two equal, so their order is the items') sorted here, charged as
        `sorted` charges; any other through `order`, the library's own `_safe_key`."""
        kinds = {type(key) for key in obj}
        self.state.charge(len(obj))
        if len(kinds) == 1 and (str in kinds or int in kinds):
            self.state.charge(len(obj) * max(1, len(obj).bit_length()))
            return sorted(obj.items(), key=_first)
        return self.machine.call(self.order, [list(obj.items())], {})


def _first(pair: tuple[Any, Any]) -> Any:
    return pair[0]


def _recursion(obj: Any) -> str:
    return f"<Recursion on {type(obj).__name__} with id={id(obj)}>"


# The built-in types whose repr CPython's `pprint` takes as readable without looking.
_SCALARS = (str, bytes, float, complex, bool, type(None))


PPRINT_SOURCE = """
from collections import OrderedDict, defaultdict, Counter, deque


def pprint(object, stream=None, indent=1, width=80, depth=None, *,
           compact=False, sort_dicts=True, underscore_numbers=False):
    printer = PrettyPrinter(
        stream=stream, indent=indent, width=width, depth=depth,
        compact=compact, sort_dicts=sort_dicts,
        underscore_numbers=underscore_numbers)
    printer.pprint(object)


def pformat(object, indent=1, width=80, depth=None, *,
            compact=False, sort_dicts=True, underscore_numbers=False):
    return PrettyPrinter(indent=indent, width=width, depth=depth,
                         compact=compact, sort_dicts=sort_dicts,
                         underscore_numbers=underscore_numbers).pformat(object)


def pp(object, *args, sort_dicts=False, **kwargs):
    pprint(object, *args, sort_dicts=sort_dicts, **kwargs)


def saferepr(object):
    return PrettyPrinter()._safe_repr(object, {}, None, 0)[0]


def isreadable(object):
    return PrettyPrinter()._safe_repr(object, {}, None, 0)[1]


def isrecursive(object):
    return PrettyPrinter()._safe_repr(object, {}, None, 0)[2]


class _safe_key:
    __slots__ = ['obj']

    def __init__(self, obj):
        self.obj = obj

    def __lt__(self, other):
        try:
            return self.obj < other.obj
        except TypeError:
            return ((str(type(self.obj)), id(self.obj)) <
                    (str(type(other.obj)), id(other.obj)))


def _safe_tuple(t):
    return _safe_key(t[0]), _safe_key(t[1])


class _Text:
    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def getvalue(self):
        return ''.join(self.parts)


class PrettyPrinter:
    def __init__(self, indent=1, width=80, depth=None, stream=None, *,
                 compact=False, sort_dicts=True, underscore_numbers=False):
        indent = int(indent)
        width = int(width)
        if indent < 0:
            raise ValueError('indent must be >= 0')
        if depth is not None and depth <= 0:
            raise ValueError('depth must be > 0')
        if not width:
            raise ValueError('width must be != 0')
        self._depth = depth
        self._indent_per_level = indent
        self._width = width
        self._stream = stream
        self._compact = bool(compact)
        self._sort_dicts = sort_dicts
        self._underscore_numbers = underscore_numbers

    def pprint(self, object):
        if self._stream is None:
            print(self.pformat(object))
        else:
            self._format(object, self._stream, 0, 0, {}, 0)
            self._stream.write("\\n")

    def pformat(self, object):
        sio = _Text()
        self._format(object, sio, 0, 0, {}, 0)
        return sio.getvalue()

    def isrecursive(self, object):
        return self.format(object, {}, 0, 0)[2]

    def isreadable(self, object):
        s, readable, recursive = self.format(object, {}, 0, 0)
        return readable and not recursive

    def _format(self, object, stream, indent, allowance, context, level):
        objid = id(object)
        if objid in context:
            stream.write(_recursion(object))
            self._recursive = True
            self._readable = False
            return
        rep = self._repr(object, context, level)
        max_width = self._width - indent - allowance
        if len(rep) > max_width:
            p = _dispatch.get(type(object), None)
            if p is None and _plain(object) is not object:  # `class Stack(list)`
                object = _plain(object)
                p = _dispatch.get(type(object), None)
            if p is not None:
                context[objid] = 1
                p(self, object, stream, indent, allowance, context, level + 1)
                del context[objid]
                return
            items = _dataclass_items(object)
            if items is not None:
                context[objid] = 1
                self._pprint_dataclass(object, items, stream, indent, allowance, context,
                                       level + 1)
                del context[objid]
                return
        stream.write(rep)

    def _pprint_dataclass(self, object, items, stream, indent, allowance, context, level):
        cls_name = type(object).__name__
        indent += len(cls_name) + 1
        stream.write(cls_name + '(')
        self._format_namespace_items(items, stream, indent, allowance, context, level)
        stream.write(')')

    def _pprint_dict(self, object, stream, indent, allowance, context, level):
        write = stream.write
        write('{')
        if self._indent_per_level > 1:
            write((self._indent_per_level - 1) * ' ')
        length = len(object)
        if length:
            if self._sort_dicts:
                items = sorted(object.items(), key=_safe_tuple)
            else:
                items = object.items()
            self._format_dict_items(items, stream, indent, allowance + 1,
                                    context, level)
        write('}')

    def _pprint_ordered_dict(self, object, stream, indent, allowance, context, level):
        if not len(object):
            stream.write(repr(object))
            return
        name = type(object).__name__
        stream.write(name + '(')
        self._format(list(object.items()), stream,
                     indent + len(name) + 1, allowance + 1,
                     context, level)
        stream.write(')')

    def _pprint_list(self, object, stream, indent, allowance, context, level):
        stream.write('[')
        self._format_items(object, stream, indent, allowance + 1,
                           context, level)
        stream.write(']')

    def _pprint_tuple(self, object, stream, indent, allowance, context, level):
        stream.write('(')
        endchar = ',)' if len(object) == 1 else ')'
        self._format_items(object, stream, indent, allowance + len(endchar),
                           context, level)
        stream.write(endchar)

    def _pprint_set(self, object, stream, indent, allowance, context, level):
        if not len(object):
            stream.write(repr(object))
            return
        typ = type(object)
        if typ is set:
            stream.write('{')
            endchar = '}'
        else:
            stream.write(typ.__name__ + '({')
            endchar = '})'
            indent += len(typ.__name__) + 1
        object = sorted(object, key=_safe_key)
        self._format_items(object, stream, indent, allowance + len(endchar),
                           context, level)
        stream.write(endchar)

    def _pprint_str(self, object, stream, indent, allowance, context, level):
        write = stream.write
        if not len(object):
            write(repr(object))
            return
        chunks = []
        lines = object.splitlines(True)
        if level == 1:
            indent += 1
            allowance += 1
        max_width1 = max_width = self._width - indent
        for i, line in enumerate(lines):
            rep = repr(line)
            if i == len(lines) - 1:
                max_width1 -= allowance
            if len(rep) <= max_width1:
                chunks.append(rep)
            else:
                parts = _words(line)
                max_width2 = max_width
                current = ''
                for j, part in enumerate(parts):
                    candidate = current + part
                    if j == len(parts) - 1 and i == len(lines) - 1:
                        max_width2 -= allowance
                    if len(repr(candidate)) > max_width2:
                        if current:
                            chunks.append(repr(current))
                        current = part
                    else:
                        current = candidate
                if current:
                    chunks.append(repr(current))
        if len(chunks) == 1:
            write(rep)
            return
        if level == 1:
            write('(')
        for i, rep in enumerate(chunks):
            if i > 0:
                write('\\n' + ' '*indent)
            write(rep)
        if level == 1:
            write(')')

    def _pprint_bytes(self, object, stream, indent, allowance, context, level):
        write = stream.write
        if len(object) <= 4:
            write(repr(object))
            return
        parens = level == 1
        if parens:
            indent += 1
            allowance += 1
            write('(')
        delim = ''
        for rep in _wrap_bytes_repr(object, self._width - indent, allowance):
            write(delim)
            write(rep)
            if not delim:
                delim = '\\n' + ' '*indent
        if parens:
            write(')')

    def _format_dict_items(self, items, stream, indent, allowance, context,
                           level):
        write = stream.write
        indent += self._indent_per_level
        delimnl = ',\\n' + ' ' * indent
        last_index = len(items) - 1
        for i, (key, ent) in enumerate(items):
            last = i == last_index
            rep = self._repr(key, context, level)
            write(rep)
            write(': ')
            self._format(ent, stream, indent + len(rep) + 2,
                         allowance if last else 1,
                         context, level)
            if not last:
                write(delimnl)

    def _format_namespace_items(self, items, stream, indent, allowance, context, level):
        write = stream.write
        delimnl = ',\\n' + ' ' * indent
        last_index = len(items) - 1
        for i, (key, ent) in enumerate(items):
            last = i == last_index
            write(key)
            write('=')
            if id(ent) in context:
                write("...")
            else:
                self._format(ent, stream, indent + len(key) + 1,
                             allowance if last else 1,
                             context, level)
            if not last:
                write(delimnl)

    def _format_items(self, items, stream, indent, allowance, context, level):
        write = stream.write
        indent += self._indent_per_level
        if self._indent_per_level > 1:
            write((self._indent_per_level - 1) * ' ')
        delimnl = ',\\n' + ' ' * indent
        delim = ''
        width = max_width = self._width - indent + 1
        it = iter(items)
        try:
            next_ent = next(it)
        except StopIteration:
            return
        last = False
        while not last:
            ent = next_ent
            try:
                next_ent = next(it)
            except StopIteration:
                last = True
                max_width -= allowance
                width -= allowance
            if self._compact:
                rep = self._repr(ent, context, level)
                w = len(rep) + 2
                if width < w:
                    width = max_width
                    if delim:
                        delim = delimnl
                if width >= w:
                    width -= w
                    write(delim)
                    delim = ', '
                    write(rep)
                    continue
            write(delim)
            delim = delimnl
            self._format(ent, stream, indent,
                         allowance if last else 1,
                         context, level)

    def _repr(self, object, context, level):
        repr, readable, recursive = self.format(object, context.copy(),
                                                self._depth, level)
        if not readable:
            self._readable = False
        if recursive:
            self._recursive = True
        return repr

    def format(self, object, context, maxlevels, level):
        return self._safe_repr(object, context, maxlevels, level)

    def _pprint_default_dict(self, object, stream, indent, allowance, context, level):
        if not len(object):
            stream.write(repr(object))
            return
        rdf = self._repr(object.default_factory, context, level)
        name = type(object).__name__
        indent += len(name) + 1
        stream.write('%s(%s,\\n%s' % (name, rdf, ' ' * indent))
        self._pprint_dict(object, stream, indent, allowance + 1, context, level)
        stream.write(')')

    def _pprint_counter(self, object, stream, indent, allowance, context, level):
        if not len(object):
            stream.write(repr(object))
            return
        name = type(object).__name__
        stream.write(name + '({')
        if self._indent_per_level > 1:
            stream.write((self._indent_per_level - 1) * ' ')
        items = object.most_common()
        self._format_dict_items(items, stream,
                                indent + len(name) + 1, allowance + 2,
                                context, level)
        stream.write('})')

    def _pprint_chain_map(self, object, stream, indent, allowance, context, level):
        if not len(object.maps):
            stream.write(repr(object))
            return
        name = type(object).__name__
        stream.write(name + '(')
        indent += len(name) + 1
        for i, m in enumerate(object.maps):
            if i == len(object.maps) - 1:
                self._format(m, stream, indent, allowance + 1, context, level)
                stream.write(')')
            else:
                self._format(m, stream, indent, 1, context, level)
                stream.write(',\\n' + ' ' * indent)

    def _pprint_deque(self, object, stream, indent, allowance, context, level):
        if not len(object):
            stream.write(repr(object))
            return
        name = type(object).__name__
        stream.write(name + '(')
        indent += len(name) + 1
        stream.write('[')
        if object.maxlen is None:
            self._format_items(object, stream, indent, allowance + 2,
                               context, level)
            stream.write('])')
        else:
            self._format_items(object, stream, indent, 2,
                               context, level)
            rml = self._repr(object.maxlen, context, level)
            stream.write('],\\n%smaxlen=%s)' % (' ' * indent, rml))

    def _safe_repr(self, object, context, maxlevels, level):
        return _safe_repr(object, context, maxlevels, level, self._sort_dicts,
                          self._underscore_numbers, _sorted_items)


def _sorted_items(items):
    return sorted(items, key=_safe_tuple)


_dispatch = {
    dict: PrettyPrinter._pprint_dict,
    OrderedDict: PrettyPrinter._pprint_ordered_dict,
    list: PrettyPrinter._pprint_list,
    tuple: PrettyPrinter._pprint_tuple,
    set: PrettyPrinter._pprint_set,
    frozenset: PrettyPrinter._pprint_set,
    str: PrettyPrinter._pprint_str,
    bytes: PrettyPrinter._pprint_bytes,
    defaultdict: PrettyPrinter._pprint_default_dict,
    Counter: PrettyPrinter._pprint_counter,
    deque: PrettyPrinter._pprint_deque,
}
if _chain_map is not None:  # (made for a program that names it)
    _dispatch[_chain_map] = PrettyPrinter._pprint_chain_map

def _recursion(object):
    return ("<Recursion on %s with id=%s>"
            % (type(object).__name__, id(object)))


def _wrap_bytes_repr(object, width, allowance):
    current = b''
    last = len(object) // 4 * 4
    for i in range(0, len(object), 4):
        part = object[i: i+4]
        candidate = current + part
        if i == last:
            width -= allowance
        if len(repr(candidate)) > width:
            if current:
                yield repr(current)
            current = part
        else:
            current = candidate
    if current:
        yield repr(current)
"""
PPRINT_NAMES = frozenset(
    {"pprint", "pformat", "pp", "saferepr", "isreadable", "isrecursive", "PrettyPrinter"}
)
