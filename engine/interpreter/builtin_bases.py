"""A class of the program's inheriting from `list` or `dict` (`class Stack(list)`,
`class Registry(dict)`, a `Counter`-like `class Cnt(dict)` with `__missing__`).

CPython's objects of such a class are lists and dicts. Here each is an object of the
program's class (its own attributes, methods and overrides, `super().append(x)`) that
keeps a list or dict of its own, its store (`store_of`), in `PInstance.fields`, never in
its `__dict__`. The base is a class made once a program (`builtin_base`), named `list` or
`dict` and shown as the built-in type in an `__mro__`, whose methods are the built-in
type's own, run on the store: `append`, `get`, `keys`… and the protocols (`len`,
iteration, indexing, `in`, `==` and ordering, `+`, `*`, `|`, `repr`), so the program's
overrides are found first, as CPython's are, and the built-in methods never call them
(`extend` does not call an overridden `append`; `get` does not call `__getitem__`), as
CPython's C methods do not. A dict's `__getitem__` calls the class's `__missing__` for a
missing key, as CPython's does.

Wherever the interpreter reads a plain value of an object (`objects.enum_mixin_value`,
which also gives an IntEnum member's int), it reads the store: `isinstance(s, list)`,
`list.append(s, x)`, `json.dumps(s)`, `range`, `str.join`… take it as the list it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backprop_animator.engine.interpreter.objects import (
    BUILTIN_BASE_KEY,
    MISSING,
    Builtin,
    NativeMethod,
    PClass,
    PClassMethod,
    PInstance,
    enum_mixin_value,
    store_of,
)
from backprop_animator.engine.interpreter.runtime import ITEMS_PER_STEP, ProgramError, State

# The operators of each, forward and reflected where the built-in type answers them.
_OPERATORS: dict[type, tuple[tuple[str, str], ...]] = {
    list: (("+", "add"), ("*", "mul")),
    dict: (("|", "or"),),
}
_REFLECTED: dict[type, tuple[tuple[str, str], ...]] = {
    list: (("+", "add"), ("*", "mul")),
    dict: (("|", "or"),),
}
# The built-in type's own methods (CPython's `dir(list)` but its dunders)
_PUBLIC: dict[type, frozenset[str]] = {
    kind: frozenset(n for n in dir(kind) if not n.startswith("_")) for kind in (list, dict)
}
Call = Callable[[list[Any], dict[str, Any]], Any]
_COMPARISONS = (("==", "eq"), ("!=", "ne"), ("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge"))


def builtin_base(machine: Any, kind: type, type_object: Any) -> PClass:
    """The base standing for `list` or `dict` in the program's class statements: one a
    program, shown as the built-in type (`type_object`) in an `__mro__`."""
    made: PClass | None = machine.builtin_bases.get(kind)
    if made is None:
        made = PClass(kind.__name__, (), _Methods(machine, kind).namespace())
        made.builtin = True
        machine.builtin_bases[kind] = made
        machine.mixin_types[id(made)] = type_object
    return made


class _Methods:
    """The methods of the base for `kind`: each takes the object first and runs the
    built-in type's own on its store."""

    def __init__(self, machine: Any, kind: type) -> None:
        self.machine = machine
        self.kind = kind
        self.name = kind.__name__
        self.methods = machine.methods[kind]

    def store(self, value: Any) -> Any:
        return store_of(value, self.kind)

    def method(self, method_name: str, call: Call) -> NativeMethod:
        return NativeMethod(method_name, call, self.name)

    def delegate(self, method_name: str) -> NativeMethod:
        table = self.methods
        return self.method(
            method_name, lambda a, k: table[method_name](self.store(a[0])).call(a[1:], k)
        )

    def one_argument(self, method_name: str, a: list[Any], k: dict[str, Any]) -> Any:
        if k or len(a) != 2:
            given = len(a) - 1 + len(k)
            words = f"{self.name}.{method_name}() takes exactly one argument ({given} given)"
            raise ProgramError(words, kind="TypeError")
        return a[1]

    def operated(self, op: str, left: Any, right: Any) -> Any:
        try:
            return self.machine.binary(op, enum_mixin_value(left), enum_mixin_value(right))
        except ProgramError as error:
            if error.kind == "TypeError" and str(error).startswith("unsupported operand"):
                return NotImplemented
            raise

    def forward(self, op: str) -> Call:
        return lambda a, k: self.operated(op, a[0], self.one_argument(op, a, k))

    def reflected(self, op: str) -> Call:
        return lambda a, k: self.operated(op, self.one_argument(op, a, k), a[0])

    def compared(self, op: str) -> Call:
        def call(a: list[Any], k: dict[str, Any]) -> Any:
            other = enum_mixin_value(self.one_argument(op, a, k))
            if type(other) is not self.kind:
                return NotImplemented
            return self.machine.rich_compare(op, self.store(a[0]), other)

        return call

    def in_place(self, op: str) -> Call:
        def call(a: list[Any], k: dict[str, Any]) -> Any:
            held, other = self.store(a[0]), self.one_argument(op, a, k)
            if op == "+":
                self.methods["extend"](held).call([other], {})
            elif op == "|":
                self.methods["update"](held).call([other], {})
            else:
                held[:] = self.machine.binary(op, held, other)
            return a[0]

        return call

    def init(self, a: list[Any], k: dict[str, Any]) -> None:
        """`list.__init__` (the items replaced) or `dict.__init__` (updated), as CPython's."""
        held = self.store(a[0])
        if len(a) > 2:
            words = f"{self.name} expected at most 1 argument, got {len(a) - 1}"
            raise ProgramError(words, kind="TypeError")
        if self.kind is dict:
            self.methods["update"](held).call(a[1:], k)
            return
        if k:
            raise ProgramError("list() takes no keyword arguments", kind="TypeError")
        held.clear()
        if len(a) == 2:
            self.methods["extend"](held).call([a[1]], {})

    def get_item(self, a: list[Any], k: dict[str, Any]) -> Any:
        """`xs[i]`; a dict's missing key asks the class's `__missing__`, as CPython's."""
        key = self.one_argument("__getitem__", a, k)
        held = self.store(a[0])
        if self.kind is dict:
            self.machine.key(key)
            own = type(a[0]) is PInstance and a[0].cls.lookup("__missing__") is not MISSING
            if own and key not in held:
                missing = self.machine.get_attr(a[0], "__missing__")
                return self.machine.call(missing, [key], {})
        return self.machine.get_item(held, key)

    def fromkeys(self, a: list[Any], k: dict[str, Any]) -> Any:
        """`Registry.fromkeys(keys, value=None)`: an object of the class, each key set in
        it (by the class's own `__setitem__`), as CPython's classmethod makes it."""
        if k or not 2 <= len(a) <= 3:
            words = f"fromkeys expected at most 2 arguments, got {len(a) - 1 + len(k)}"
            raise ProgramError(words, kind="TypeError")
        made = self.machine.call(a[0], [], {})
        value = a[2] if len(a) == 3 else None
        for key in self.machine.iterate(a[1]):
            self.machine.state.charge(1)
            self.machine.set_item(made, key, value)
        return made

    def set_item(self, a: list[Any], k: dict[str, Any]) -> None:
        if k or len(a) != 3:
            raise ProgramError(f"expected 2 arguments, got {len(a) - 1}", kind="TypeError")
        self.machine.set_item(self.store(a[0]), a[1], a[2])

    def namespace(self) -> dict[str, Any]:
        m, store, method, one = self.machine, self.store, self.method, self.one_argument
        namespace: dict[str, Any] = {
            BUILTIN_BASE_KEY: self.kind,
            "__init__": method("__init__", self.init),
            "__len__": method("__len__", lambda a, k: len(store(a[0]))),
            "__iter__": method("__iter__", lambda a, k: m.iterate(store(a[0]))),
            "__contains__": method(
                "__contains__",
                lambda a, k: m.contains(store(a[0]), one("__contains__", a, k)),
            ),
            "__getitem__": method("__getitem__", self.get_item),
            "__setitem__": method("__setitem__", self.set_item),
            "__delitem__": method(
                "__delitem__", lambda a, k: m.del_item(store(a[0]), one("__delitem__", a, k))
            ),
            "__repr__": method("__repr__", lambda a, k: m.texts.to_repr(store(a[0]))),
            "__hash__": None,
        }
        if self.kind is list:
            namespace["__reversed__"] = method(
                "__reversed__", lambda a, k: iter(list(reversed(store(a[0]))))
            )
            namespace["__iadd__"] = method("__iadd__", self.in_place("+"))
            namespace["__imul__"] = method("__imul__", self.in_place("*"))
        else:
            namespace["__ior__"] = method("__ior__", self.in_place("|"))
            namespace["fromkeys"] = PClassMethod(Builtin("fromkeys", self.fromkeys))
        for op, short in _OPERATORS[self.kind]:
            namespace[f"__{short}__"] = method(f"__{short}__", self.forward(op))
        for op, short in _REFLECTED[self.kind]:
            namespace[f"__r{short}__"] = method(f"__r{short}__", self.reflected(op))
        for op, short in _COMPARISONS:
            namespace[f"__{short}__"] = method(f"__{short}__", self.compared(op))
        for method_name in self.methods:  # (not a deque's or a Counter's, which it holds too)
            if method_name not in namespace and method_name in _PUBLIC[self.kind]:
                namespace[method_name] = self.delegate(method_name)
        return namespace


# The built-in classes whose objects CPython 3.11 lays out in a C struct of their own,
# larger than their base's (`type.__basicsize__`): `list`, `dict` and these exceptions.
# Two bases of a class whose objects are laid out so, neither a subclass of the other,
# are CPython's TypeError (`class E(Exception, list)`).
_SOLID_BUILTINS = frozenset(
    {
        "list", "dict", "BaseException", "SystemExit", "UnicodeEncodeError",
        "UnicodeDecodeError", "AttributeError", "NameError", "StopIteration", "ImportError",
        "OSError",
    }
)  # fmt: skip
_NO_LAYOUT = frozenset({"__dict__", "__weakref__"})


def _solid(cls: PClass, state: State) -> bool:
    """Whether `cls` lays its objects out apart from its base's, as CPython's `solid_base`
    tells: one of `_SOLID_BUILTINS`, or a class of the program's whose own `__slots__`
    name a slot (`__dict__` and `__weakref__` are no slots of their own), each of its
    names charged."""
    if cls.builtin:
        return cls.name in _SOLID_BUILTINS
    slots = cls.namespace.get("__slots__", MISSING)
    if type(slots) is str:
        return slots not in _NO_LAYOUT
    if type(slots) is not tuple and type(slots) is not list:
        return False
    state.charge(len(slots) // ITEMS_PER_STEP)
    try:
        return not _NO_LAYOUT.issuperset(slots)  # (in C: as the class's making read them)
    except TypeError:  # an unhashable item put in its list since: no name of these two
        return True


def check_layout(state: State, bases: list[PClass]) -> None:
    """CPython's `best_base`: the bases' layouts (each one's first class laid out apart,
    in its MRO, else `object`'s) must be one within another; else CPython's TypeError,
    `multiple bases have instance lay-out conflict`."""
    winner: PClass | None = None  # (None: `object`'s layout, within every other)
    for base in bases:
        solid = next((c for c in base.mro if _solid(c, state)), None)
        if solid is None or (winner is not None and solid in winner.mro):
            continue
        if winner is None or winner in solid.mro:
            winner = solid
            continue
        raise ProgramError("multiple bases have instance lay-out conflict", kind="TypeError")
