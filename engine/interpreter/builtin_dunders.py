"""A built-in container's protocol methods read by name, and the duck-typing checks real
code does on built-in values (`hasattr(x, '__iter__')`, `callable(getattr(f, '__call__',
None))`), as CPython answers them.

Only a whitelist is read (`CONTAINER_DUNDERS`): `xs.__len__()`, `d.__getitem__(k)`,
`s.__contains__(x)`, `xs.__iter__()` and the others are the machine's own `len(xs)`,
`d[k]`, `x in s`, `iter(xs)`, so each is charged and bounded as the operation is, and
what they give back is what the operation gives. `hasattr` of any other dunder name on a
plain value answers CPython's yes or no (a boolean, never the attribute: `len.__self__`,
`x.__class__`, `xs.__reduce__` stay refused).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backprop_animator.engine.interpreter.objects import (
    BoundMethod,
    Builtin,
    Function,
    PSet,
)
from backprop_animator.engine.interpreter.runtime import ProgramError

Method = Callable[[Any, list[Any], dict[str, Any]], Any]

# The protocol methods read off a built-in container, by the types that have them (a
# set has no `__getitem__`, a str, tuple and bytes no `__setitem__`, as in CPython).
_READ = ("__len__", "__iter__", "__contains__", "__str__", "__repr__")
CONTAINER_DUNDERS: dict[type, tuple[str, ...]] = {
    list: (*_READ, "__getitem__", "__setitem__", "__delitem__"),
    dict: (*_READ, "__getitem__", "__setitem__", "__delitem__"),
    tuple: (*_READ, "__getitem__"),
    str: (*_READ, "__getitem__"),
    bytes: (*_READ, "__getitem__"),
    PSet: _READ,
    range: (*_READ, "__getitem__"),
    type({}.keys()): _READ,
    type({}.values()): _READ,
    type({}.items()): _READ,
}
# CPython's `METH_O` methods, whose argument errors name them (`list.__getitem__() takes
# exactly one argument (0 given)`); the others are slot wrappers (`expected 1 argument,
# got 0`).
_NAMED: set[tuple[type, str]] = {
    (list, "__getitem__"), (dict, "__getitem__"), (dict, "__contains__"), (PSet, "__contains__")
}  # fmt: skip
_ARITY = {
    "__len__": 0, "__iter__": 0, "__str__": 0, "__repr__": 0, "__contains__": 1,
    "__getitem__": 1, "__delitem__": 1, "__setitem__": 2,
}  # fmt: skip


def _check(kind: type, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
    """CPython's TypeError for a protocol method called with the wrong arguments."""
    expected = _ARITY[name]
    owner = "set" if kind is PSet else kind.__name__
    named = (kind, name) in _NAMED
    if kwargs:
        who = f"{owner}.{name}()" if named else f"wrapper {name}()"
        raise ProgramError(f"{who} takes no keyword arguments", kind="TypeError")
    if len(args) == expected:
        return
    if named:
        words = f"{owner}.{name}() takes exactly one argument ({len(args)} given)"
    else:  # (CPython's `__setitem__` wrapper writes its words after a space)
        space = " " if name == "__setitem__" else ""
        words = f"{space}expected {expected} argument{'s' * (expected != 1)}, got {len(args)}"
    raise ProgramError(words, kind="TypeError")


def container_dunder(machine: Any, kind: type, name: str) -> Method | None:
    """A container type's protocol method, `(obj, args, kwargs)`, or None where the type
    has none here (`set.__getitem__`); made when the program reads one, never before."""
    if name not in CONTAINER_DUNDERS.get(kind, ()):
        return None

    def call(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        _check(kind, name, args, kwargs)
        if name == "__len__":
            return len(obj)  # (a container of Python's, or a set of the engine's: its own size)
        if name == "__iter__":
            return machine.iter_of(obj)
        if name == "__contains__":
            return machine.contains(obj, args[0])
        if name == "__getitem__":
            return machine.get_item(obj, args[0])
        if name == "__setitem__":
            return machine.set_item(obj, args[0], args[1])
        if name == "__delitem__":
            return machine.del_item(obj, args[0])
        if name == "__str__":
            return machine.texts.to_str(obj)
        return machine.texts.to_repr(obj)

    return call


def bound_dunder(name: str, method: Method, obj: Any) -> Builtin:
    """`xs.__len__`: the protocol method `method` bound to `obj`."""
    return Builtin(name, lambda args, kwargs: method(obj, args, kwargs))


def host_has(obj: Any, name: str, plain_types: Any, probe: Any = None) -> bool | None:
    """`hasattr(x, '__iter__')` of a plain value (a number, a string, a container, None):
    whether CPython's has it, asked of Python's own value (no program code runs: these
    types' attributes are C slots); `hasattr(f, '__call__')` of a function, a built-in
    or a bound method. None for anything else (answered as before)."""
    kind = type(obj)
    if kind in plain_types:
        if probe is not None:  # (a `collections` kind's: an empty one of Python's)
            return hasattr(probe, name)
        if kind is PSet:
            return hasattr(frozenset() if obj.frozen else set(), name)
        return hasattr(obj, name)
    if name == "__call__" and (kind is Function or kind is BoundMethod or isinstance(obj, Builtin)):
        return True
    return None


class CallWrapper(Builtin):
    """`f.__call__`: calls `target`. Its own `__call__` wraps the same target, so a
    chain `f.__call__.__call__...` is one call deep, never one Python frame per link."""

    __slots__ = ("target",)

    def __init__(self, machine: Any, target: Any) -> None:
        super().__init__("__call__", lambda args, kwargs: machine.call(target, args, kwargs))
        self.target = target


def call_method(machine: Any, obj: Any) -> Any:
    """`f.__call__` of a function, a built-in or a bound method: a callable that calls it
    (CPython's method-wrapper); None where `obj` is none of these."""
    kind = type(obj)
    if kind is CallWrapper:
        return CallWrapper(machine, obj.target)
    if kind is Function or kind is BoundMethod or isinstance(obj, Builtin):
        return CallWrapper(machine, obj)
    return None
