"""`dir(obj)`: the names CPython's `dir` lists, sorted, as strings only.

An object or class of the program's lists what CPython's `object.__dir__` and
`type.__dir__` list: its own attributes, its classes' namespaces (`__module__`, `__doc__`,
`__dict__`, `__weakref__` where CPython's class has them, `__slots__` and its names where
the class has those) and `object`'s names, which are CPython's own `dir(object)` (as an
exception class's are its `dir(ValueError)`); the interpreter's own entries (kept under
names no attribute can have) never. A built-in value or type lists CPython's names of its
type, a module the public names it has here. Only names are handed out, never what they
name: reading one goes through the machine's `get_attr` as any attribute does.
"""

from __future__ import annotations

import builtins as _host_builtins
import collections as _host_collections
import types
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter import collection_kinds as kinds
from backprop_animator.engine.interpreter.objects import (
    ENUM_KEY,
    ENUM_MIXIN_KEY,
    FROZEN,
    TUPLE_FIELDS,
    BoundMethod,
    Builtin,
    Function,
    PClass,
    PInstance,
    PModule,
    PSet,
    TypeObject,
    enum_members,
    is_dunder,
)
from backprop_animator.engine.interpreter.runtime import ITEMS_PER_STEP, MAX_ITEMS, ProgramError
from backprop_animator.engine.interpreter.stdlib import ENUM_PLAIN_MIXIN_KEY, FIELDS
from backprop_animator.engine.interpreter.text import NO_METHOD, a_type
from backprop_animator.engine.ops import FUNCTIONS
from backprop_animator.engine.value import Value

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.machine import Machine

# The built-in types whose values a program holds as they are: `dir(3)` and `dir(int)`
# are CPython's names of the type (the host's `dir` of it, a list of strings).
_PLAIN_TYPES = frozenset(
    {int, float, bool, complex, str, bytes, list, tuple, dict, range, type(None), object}
)
_OBJECT_NAMES = frozenset(dir(object))
_VALUE_ATTRIBUTES = frozenset({"data", "grad", "label", "_op", "_prev"})
# A Value: the names of micrograd's class that ours has too, its operators as methods of
# the article's class (what `+`, `*`... call), its attributes and methods.
_VALUE_NAMES = sorted(
    _OBJECT_NAMES
    | {"__dict__", "__module__", "__weakref__"}
    | {f"__{op}__" for op in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv")}
    | {"__pow__", "__neg__", "backward", *_VALUE_ATTRIBUTES, *FUNCTIONS}
)


def dir_of(m: Machine, args: list[Any], kwargs: dict[str, Any]) -> list[str]:
    if kwargs:
        raise ProgramError("dir() takes no keyword arguments", kind="TypeError")
    if len(args) != 1:
        if len(args) > 1:
            words = f"dir expected at most 1 argument, got {len(args)}"
            raise ProgramError(words, kind="TypeError")
        raise ProgramError(
            "dir() without an argument is listed here in a function only (the module's and "
            "a class body's names are not); name the object: `dir(obj)`"
        )
    obj = args[0]
    if type(obj) is PInstance:
        own = m.call_dunder(obj, "__dir__")
        if own is not NO_METHOD:  # the class's own `__dir__`: what it gives, sorted
            return _sorted(m, m.bounded_list(own, MAX_ITEMS))
    names = _names(m, obj)
    if any(type(name) is not str for name in names):  # `vars(obj)[1] = x`: CPython's sort
        return _sorted(m, list(names))
    m.state.charge(_sort_steps(len(names)))
    return sorted(names)


class _Ordered:
    """An item of a `__dir__`'s answer, ordered by the machine's own `<`."""

    __slots__ = ("m", "value")

    def __init__(self, m: Machine, value: Any) -> None:
        self.m, self.value = m, value

    def __lt__(self, other: _Ordered) -> bool:
        return self.m.compare("<", self.value, other.value)


def _sort_steps(count: int) -> int:
    """A sort's steps, its comparisons' (a step per ten): `dir()` of a class of 5,000
    names in a loop, charged a step per ten names, was bounded by the clock alone."""
    return 1 + count * count.bit_length() // ITEMS_PER_STEP


def _sorted(m: Machine, items: list[Any]) -> list[Any]:
    m.state.charge(_sort_steps(len(items)))
    return [item.value for item in sorted(_Ordered(m, item) for item in items)]


def _names(m: Machine, obj: Any) -> set[str] | list[str]:
    kind = type(obj)
    if kind is PInstance:
        enum = _enum_names(m, obj.cls, obj)
        if enum is not None:
            return enum
        names = class_names(m, obj.cls)
        names.update(
            name  # (a key no string, `vars(obj)[1] = x`: sorted, CPython's TypeError)
            for name in obj.attrs
            if type(name) is not str or (not name.startswith(" ") and name != FROZEN)
        )
        return names
    if kind is PClass:
        enum = _enum_names(m, obj, obj)
        return enum if enum is not None else class_names(m, obj)
    if kind is Value:
        return _VALUE_NAMES
    if kind is PModule:
        return [name for name in obj.members if not name.startswith("_")]
    if kind is TypeObject and obj.types == (Value,):  # the class: no object's attributes
        return _answered(m, obj, [name for name in _VALUE_NAMES if name not in _VALUE_ATTRIBUTES])
    if kind is TypeObject and len(obj.types) == 1 and obj.types[0] in _PLAIN_TYPES:
        return _answered(m, obj, dir(obj.types[0]))
    if (kind is dict or kind is list) and m.collections:
        made_as = kinds.kind_of(m.collections, obj)
        if made_as is not None:  # `dir(Counter())`: CPython's names of its class
            return _answered(m, obj, dir(getattr(_host_collections, made_as)))
    if kind in _PLAIN_TYPES:
        return _answered(m, obj, dir(kind))
    if kind is PSet:
        return _answered(m, obj, dir(frozenset if obj.frozen else set))
    if kind is Function:
        return dir(types.FunctionType)
    if kind is BoundMethod:
        return dir(types.MethodType)
    if kind is Builtin:
        return dir(types.BuiltinFunctionType)
    raise ProgramError(f"dir() of {a_type(obj)} is not available here")


def _answered(m: Machine, obj: Any, names: list[str]) -> list[str]:
    """CPython's names of a built-in value's type: its dunders, and those of its other
    names it has here (`(3).as_integer_ratio` is not, so a program that reads each
    name `dir` gives finds it; no program code runs reading a built-in's)."""
    m.state.charge(len(names) // ITEMS_PER_STEP)
    found = []
    for name in names:
        if not is_dunder(name):
            try:
                m.get_attr(obj, name)
            except ProgramError:
                continue
        found.append(name)
    return found


def _enum_names(m: Machine, cls: PClass, obj: Any) -> set[str] | None:
    """An Enum's class and members list CPython 3.11's names of their own (`EnumType.
    __dir__`, `Enum.__dir__`): the class its members' names and a fixed few; a member
    `name`, `value`, a fixed few and its classes' other public names. None for what is
    no Enum's; one with a data type mixed in (`IntEnum`, `class Op(str, Enum)`), whose
    names are its type's too, refused."""
    members = enum_members(cls)
    if members is None:
        return None
    # (its namespaces read, a step per ten names: `dir(member)` of a 5,000-member Enum
    # walked them all for six steps)
    m.state.charge(sum(len(c.namespace) for c in cls.mro) // ITEMS_PER_STEP)
    if any(ENUM_MIXIN_KEY in c.namespace or ENUM_PLAIN_MIXIN_KEY in c.namespace for c in cls.mro):
        words = f"dir() of {a_type(obj)} (an Enum's with a data type) is not available here"
        raise ProgramError(words)
    if obj is cls:
        return {*_ENUM_CLASS_NAMES, *(str(member.attrs.get("name")) for member in members)}
    aliases = {name for name, value in cls.namespace.items() if type(value) is PInstance}
    names = set(_ENUM_MEMBER_NAMES)
    for c in cls.mro:
        if ENUM_KEY in c.namespace:
            break  # (Enum's own: `name` and `value`, above)
        names.update(
            name
            for name in c.namespace
            if name.isidentifier() and name[0] != "_" and name not in aliases
        )
    return names


_ENUM_CLASS_NAMES = frozenset(
    {"__class__", "__contains__", "__doc__", "__getitem__", "__init_subclass__", "__iter__",
     "__len__", "__members__", "__module__", "__name__", "__qualname__"}
)  # fmt: skip
_ENUM_MEMBER_NAMES = frozenset(
    {"__class__", "__doc__", "__eq__", "__hash__", "__module__", "name", "value"}
)


def class_names(m: Machine, cls: PClass) -> set[str]:
    """What CPython's `dir(cls)` lists: the names of every class of its MRO's own
    namespace, `object`'s and a built-in class's those of CPython's own class."""
    names = set(_OBJECT_NAMES)
    # (every namespace of the MRO read, a step per ten names)
    m.state.charge(sum(len(c.namespace) for c in cls.mro) // ITEMS_PER_STEP)
    for c in cls.mro:
        host = getattr(_host_builtins, c.name, None) if c.builtin else None
        if isinstance(host, type) and (host is object or issubclass(host, BaseException)):
            names.update(dir(host))
            continue
        own = set(m.class_view(c)) if not c.builtin else set()
        own.update(name for name in c.namespace if not name.startswith(" ") and name != FROZEN)
        slots = c.namespace.get("__slots__")
        if slots is not None:  # no `__dict__` nor `__weakref__` but the slots named
            listed = (
                [slots] if type(slots) is str else slots if type(slots) in (tuple, list) else []
            )
            own.difference_update(("__dict__", "__weakref__"))
            own.update(name for name in listed if type(name) is str)
        if FIELDS in c.namespace:  # a dataclass's, which CPython keeps in its class
            own.update(("__dataclass_fields__", "__dataclass_params__"))
        if TUPLE_FIELDS in c.namespace:  # a named tuple's class is a tuple's subclass
            own.update(dir(tuple))
            own.add("__match_args__")
            own.discard("__radd__")  # (ours, for `(0,) + p`: tuple's own `+` in CPython)
        names |= own
    return names
