"""The standard-library modules real code imports (SPEC §15): `__future__`, `typing`,
`abc`, `functools`, `operator`, `itertools` and `dataclasses`, each a fixed table of
what a program may use, written over the machine's own operations.

Nothing here hands a program a Python object: `operator.add` is the machine's `+`
(a Value operand makes a traced node), `functools.reduce` calls through the machine, an
`itertools` iterator reads its inputs step by step within the limits and yields the
program's own values, and `typing`'s names are inert annotations.
"""

from __future__ import annotations

import copy
import encodings
import encodings.aliases
import functools
import inspect
import io
import itertools
import operator
import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter import collection_kinds as kinds
from backprop_animator.engine.interpreter import sets
from backprop_animator.engine.interpreter.builtin_bases import builtin_base
from backprop_animator.engine.interpreter.exceptions import (
    bound_arguments,
    program_raise,
    python_method,
    wrong_arguments,
)
from backprop_animator.engine.interpreter.heapq_module import heapq_module
from backprop_animator.engine.interpreter.json_module import json_module
from backprop_animator.engine.interpreter.logging_module import logging_module
from backprop_animator.engine.interpreter.namedtuples import (
    NAMEDTUPLE_KEY,
    checked_names,
    class_namedtuple,
    collections_namedtuple,
    make_namedtuple,
)
from backprop_animator.engine.interpreter.objects import (
    ENDLESS,
    ENUM_KEY,
    ENUM_MIXIN_KEY,
    FROZEN,
    LOG_KIND,
    MISSING,
    PARTIAL_METHOD,
    Annotation,
    BoundMethod,
    Builtin,
    Function,
    Inert,
    Maker,
    NativeMethod,
    Partial,
    PartialMethod,
    PClass,
    PClassMethod,
    PInstance,
    PModule,
    PProperty,
    PSet,
    PStaticMethod,
    Stream,
    TextBuffer,
    TypeObject,
    enum_member_map,
    enum_members,
    enum_mixin_value,
    reads_of,
    slot_names,
    union_members,
)
from backprop_animator.engine.interpreter.os_module import FAKE_FILE, os_modules
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MADE_CLASS_STEPS,
    MAX_STR,
    ProgramError,
    State,
    caught_as,
    new_attrs,
    too_deep,
)
from backprop_animator.engine.interpreter.statistics_module import statistics_module
from backprop_animator.engine.interpreter.text import (
    NO_METHOD,
    VIEW_NAMES,
    a_type,
    cpython_type,
    python_type_name,
)
from backprop_animator.engine.interpreter.type_hints import (
    ANNOTATIONS_READ,
    HINTS,
    get_type_hints,
)

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.library import Library

Call = Callable[[list[Any], dict[str, Any]], Any]
# Where a class body keeps the names it annotated, in order (`x: float = 0.0`): the
# fields of a dataclass. A key with a space no program can name.
ANNOTATIONS = " annotations"
FIELDS = " fields"  # a dataclass's fields with their defaults, as `@dataclass` found them
CLASS_VARIABLES = " class variables"  # the names annotated `ClassVar`: no dataclass fields
# The names annotated `InitVar` (`dataclasses.InitVar[int]`): arguments of `__init__`
# passed on to `__post_init__`, never set on the object, no fields.
INIT_VARIABLES = " init variables"
# A class body's `_: KW_ONLY` (no field: the fields after it are keyword-only), and a
# dataclass's keyword-only fields, which its `__init__` takes by keyword alone
KW_ONLY_MARKS = " kw-only marks"
KW_FIELDS = " kw-only fields"
# A dataclass's fields and its InitVars, in order, with their defaults: what `__init__` takes.
INIT_FIELDS = " init fields"

TYPING_NAMES = (
    "Any", "AnyStr", "Callable", "ClassVar", "Deque", "DefaultDict", "Dict", "Final",
    "FrozenSet", "Iterable", "Iterator", "Generator", "List", "Literal", "Mapping",
    "MutableMapping", "MutableSequence", "NoReturn", "Optional", "Sequence", "Set",
    "Self", "SupportsFloat", "SupportsInt", "Tuple", "Type", "Union", "Hashable",
    "Sized", "Collection", "Container", "Reversible", "Awaitable", "Counter",
    "OrderedDict", "TypeAlias", "Never", "Annotated",
    # the rest of CPython 3.11's `typing.__all__` that names a type, for annotations
    "AbstractSet", "ByteString", "ContextManager", "ItemsView", "KeysView", "MappingView",
    "MutableSet", "ValuesView", "AsyncIterator", "AsyncIterable", "Coroutine",
    "AsyncGenerator", "AsyncContextManager", "SupportsAbs", "SupportsBytes",
    "SupportsComplex", "SupportsIndex", "SupportsRound", "ChainMap", "BinaryIO", "IO",
    "Match", "Pattern", "TextIO", "LiteralString", "NotRequired", "Required", "TypeGuard",
    "Unpack", "Concatenate",
)  # fmt: skip


class Field:
    """What `dataclasses.field(...)` returns: a field's default or default factory, and
    whether `__init__` takes it, `__repr__` shows it, `__eq__` compares it."""

    __slots__ = ("compare", "default", "factory", "init", "kw_only", "repr")

    def __init__(
        self,
        default: Any,
        factory: Any,
        repr: bool = True,
        compare: bool = True,
        init: bool = True,
    ) -> None:
        self.default = default
        self.factory = factory
        self.repr = repr
        self.compare = compare
        self.init = init
        # `field(kw_only=True)`: no place among the positional ones (None: the class's)
        self.kw_only: bool | None = None


NO_DEFAULT: Any = Inert("no default")


class Modules(Mapping[str, PModule]):
    """A run's modules by name, each made when a program first imports it (most import
    one or two, and making them all took about a third of a small program's trace): `in`
    and the names read only the names. A module is made by itself, from the run's
    library alone, so when it is made changes nothing it holds."""

    def __init__(self, made: dict[str, PModule], makers: dict[str, Callable[[], Any]]) -> None:
        self._made = made
        self._makers = makers  # a maker of several modules (`os`, `os.path`) gives a dict
        self._names = [*made, *makers]

    def __getitem__(self, name: str) -> PModule:
        module = self._made.get(name)
        if module is None:
            made = self._makers[name]()  # a KeyError for a name not here, as a dict's
            if type(made) is dict:
                self._made.update(made)
                module = made[name]
            else:
                module = self._made[name] = made
        return module

    def __contains__(self, name: object) -> bool:
        return name in self._made or name in self._makers

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def made(self) -> dict[str, PModule]:
        """The modules made so far, by name (none is made by reading this)."""
        return self._made


def stdlib_modules(library: Library) -> dict[str, Callable[[], Any]]:
    """The makers of the library's modules, by name (`Modules`)."""
    state = library.state
    os_made = lambda: os_modules(library)  # noqa: E731 (`os` and `os.path`, made together)
    return {
        "__future__": lambda: PModule(
            "__future__", {"annotations": Inert("annotations"), "division": Inert("division")}
        ),
        "typing": lambda: typing_module(library),
        "abc": lambda: abc_module(library),
        "functools": lambda: functools_module(library),
        "operator": lambda: operator_module(library),
        "itertools": lambda: itertools_module(library),
        "dataclasses": lambda: dataclasses_module(library),
        "collections": lambda: collections_module(library),
        "collections.abc": abc_classes_module,
        "numbers": lambda: numbers_module(library),
        "time": lambda: time_module(state),
        "pdb": pdb_module,
        "sys": lambda: sys_module(library),
        "enum": lambda: enum_module(library),
        "logging": lambda: logging_module(library, lambda: state.steps * SECONDS_PER_STEP),
        "copy": lambda: copy_module(library),
        "json": lambda: json_module(library),
        "io": lambda: io_module(state),
        "heapq": lambda: heapq_module(library),
        "statistics": lambda: statistics_module(library),
        "os": os_made,
        "os.path": os_made,
    }


# `from collections.abc import Iterable`: the abstract classes for annotations and for
# `isinstance`, which answers as CPython's (`library.abstract_instance`), the same names
# as typing's. Not bases of a program's class here (their mixin methods are not).
ABC_CLASS_NAMES = (
    "Iterable", "Iterator", "Generator", "Sequence", "MutableSequence", "Mapping",
    "MutableMapping", "Sized", "Container", "Collection", "Reversible", "Callable", "Set",
    "MutableSet", "Hashable",
)  # fmt: skip


# `from numbers import Real`: the numeric tower's abstract classes, for `isinstance` (an
# int, a float, a bool, a complex number, as CPython registers them) and annotations.
NUMBER_CLASS_NAMES = ("Number", "Complex", "Real", "Rational", "Integral")
# In the namespace of `numbers.Number`, a class of the program's kind (`numbers_module`)
NUMBER_KEY = " number"


def numbers_module(library: Library) -> PModule:
    """`numbers`: `Number` is CPython's abstract class, a base a class of the program's
    may name (`class Dual(numbers.Number)`): no methods, `__slots__ = ()` and `__hash__ =
    None` (so a subclass with no `__hash__` of its own is unhashable, as CPython's), an
    int, a float, a bool or a complex number an instance of it (`library.isinstance_`);
    the others (`Real`...) are annotations for `isinstance` and `issubclass` alone (their
    abstract methods and mixins are not here). Made once a program."""
    made = library.numbers_made
    if made is None:
        number = PClass(
            "Number", (), {"__slots__": (), "__hash__": None, NUMBER_KEY: True}, abc=True
        )
        library.machine.texts.class_modules[number] = "numbers."  # `<class 'numbers.Number'>`
        members: dict[str, Any] = {"Number": number}
        members |= {name: Annotation(name) for name in NUMBER_CLASS_NAMES[1:]}
        made = library.numbers_made = PModule("numbers", members)
    return made


def typed_dict_bases(m: Any, bases: list[Any], namespace: dict[str, Any]) -> list[Any]:
    """The bases of a class of `typing.TypedDict`'s, as CPython's metaclass makes them:
    `dict` alone (`Cfg.__mro__`, `issubclass(Cfg, dict)`, `Cfg.get`), with the annotated
    names of its TypedDict bases first in `namespace` (`Big.__annotations__` holds
    `Cfg`'s); a base of another kind is CPython's TypeError."""
    typed = [base for base in bases if TYPEDDICT_KEY in base.namespace]
    if len(typed) != len(bases) and not all(
        TYPEDDICT_KEY in base.namespace or base.name == "Generic" for base in bases
    ):
        words = "cannot inherit from both a TypedDict type and a non-TypedDict base class"
        raise ProgramError(words, kind="TypeError")
    dict_type = namespace[TYPEDDICT_KEY] = typed[0].namespace[TYPEDDICT_KEY]
    names: list[str] = []
    hints: dict[str, Any] = {}
    for base in typed:
        m.state.charge(len(base.namespace.get(ANNOTATIONS, ())) // ITEMS_PER_STEP)
        names.extend(base.namespace.get(ANNOTATIONS, ()))
        hints.update(base.namespace.get(HINTS, {}))
    if names:
        names.extend(namespace.get(ANNOTATIONS, ()))
        namespace[ANNOTATIONS] = list(dict.fromkeys(names))
        namespace[HINTS] = {**hints, **namespace.get(HINTS, {})}
    return [builtin_base(m, dict, dict_type)]


def typed_dict_keywords(given: dict[str, Any]) -> dict[str, Any]:
    """`class Cfg(TypedDict, total=False)`: CPython's metaclass takes `total` alone."""
    for key in given:
        if key != "total":
            words = f"_TypedDictMeta.__new__() got an unexpected keyword argument '{key}'"
            raise ProgramError(words, kind="TypeError")
    return {}


def abc_classes_module() -> PModule:
    return PModule("collections.abc", {name: Annotation(name) for name in ABC_CLASS_NAMES})


def finish_class(m: Any, cls: PClass) -> PClass:
    """What a class statement makes of a subclass of `enum.Enum` (its members) or of
    `typing.NamedTuple` (a named tuple of its annotated fields, with its methods);
    any other class as it is."""
    if any(NAMEDTUPLE_KEY in base.namespace for base in cls.mro[1:]):
        names = list(cls.namespace.get(ANNOTATIONS, ()))
        return class_namedtuple(m, cls, names, ANNOTATIONS)
    if TYPEDDICT_KEY in cls.namespace:  # `Cfg(lr=0.1)` of `class Cfg(TypedDict)`: a dict
        dict_type = cls.namespace[TYPEDDICT_KEY]
        cls.abstract = Maker(lambda args, kwargs: m.call(dict_type, args, kwargs))
        return cls
    if any(ENUM_KEY in base.namespace for base in cls.mro[1:]):
        _check_enum_mixins(cls)
        _enum_methods(cls)
        cls.has_properties = True  # `Op.ADD.value = 5`: `Machine.guarded_write` refuses it
    make_enum_members(cls)
    if any(ENUM_KEY in base.namespace for base in cls.mro[1:]):
        if not cls.equipped:  # (its members hash before any instance is made)
            m.equip(cls)
        _init_enum_members(m, cls)
        cls.abstract = Maker(lambda args, kwargs: enum_by_value(m, cls, args, kwargs))
    return cls


def _enum_methods(cls: PClass) -> None:
    """CPython's `EnumType`: an Enum's `__repr__`, `__str__` and `__format__` that the
    class body does not define and the MRO finds in its data type (`class Op(str, Enum)`:
    `str.__str__`) are its last base's, put in the class itself (`'__str__' in
    Op.__dict__`), so a `super().__str__()` of the class's own `__str__` reaches `str`'s."""
    for name in ("__repr__", "__str__", "__format__"):
        if name in cls.namespace:
            continue
        owner = next((c for c in cls.mro if name in c.namespace), None)
        if owner is not None and ENUM_PLAIN_MIXIN_KEY in owner.namespace:
            # the Enum past the data type (CPython's last base: `Enum`'s, or a base Enum's)
            enums = (c for c in cls.mro if ENUM_PLAIN_MIXIN_KEY not in c.namespace)
            found = next((c for c in enums if name in c.namespace), None)
            if found is not None:
                cls.namespace[name] = found.namespace[name]


def check_enum_extension(name: str, bases: list[PClass]) -> None:
    """CPython's refusal, before a class body runs, of a class whose bases include an
    Enum that has members (`class M(Op)`). Each namespace is read up to its first
    member: no more than making the class reads of it."""
    for base in bases:
        if not any(ENUM_KEY in c.namespace for c in base.mro):
            continue  # no Enum: a class attribute that is an instance of it is no member
        for c in base.mro:
            if any(type(v) is PInstance and v.cls is c for v in c.namespace.values()):
                raise ProgramError(
                    f"<enum '{name}'> cannot extend <enum '{c.name}'>", kind="TypeError"
                )


def check_enum_bases(bases: list[PClass]) -> None:
    """CPython's `EnumType` refusals of an Enum's bases, before its body runs: the last
    base must be the Enum (`class X(Enum, str)`)."""
    if any(ENUM_KEY in c.namespace for base in bases for c in base.mro):
        last = bases[-1]
        if ENUM_PLAIN_MIXIN_KEY in last.namespace or not any(
            ENUM_KEY in c.namespace for c in last.mro
        ):
            words = (
                "new enumerations should be created as "
                "`EnumName([mixin_type, ...] [data_type,] enum_type)`"
            )
            raise ProgramError(words, kind="TypeError")


def check_enum_order(bases: list[PClass]) -> None:
    """CPython's MRO error for a data type before an Enum that is already of it
    (`class X(int, IntEnum)`: `IntEnum`'s MRO has `int` after it)."""
    for i, base in enumerate(bases):
        if ENUM_PLAIN_MIXIN_KEY not in base.namespace:
            continue
        kind = base.namespace[ENUM_MIXIN_KEY]
        for later in bases[i + 1 :]:
            if any(
                c.namespace.get(ENUM_MIXIN_KEY) is kind and ENUM_PLAIN_MIXIN_KEY not in c.namespace
                for c in later.mro
            ):
                words = (
                    "Cannot create a consistent method resolution\norder (MRO) for bases "
                    f"{kind.__name__}, {later.name}"
                )
                raise ProgramError(words, kind="TypeError")


def _check_enum_mixins(cls: PClass) -> None:
    """CPython's refusal of an Enum whose members would be of two data types at once
    (`class M(int, str, Enum)`)."""
    kinds = {c.namespace[ENUM_MIXIN_KEY] for c in cls.mro if ENUM_MIXIN_KEY in c.namespace}
    if len(kinds) > 1:
        named = ", ".join(f"<class '{kind.__name__}'>" for kind in (str, int))
        raise ProgramError(f"too many data types for '{cls.name}': {{{named}}}", kind="TypeError")


def enum_by_value(m: Any, cls: PClass, args: list[Any], kwargs: dict[str, Any]) -> PInstance:
    """`Op('mul')`: the member whose value equals it (a member itself is its own), or
    CPython's ValueError; the functional API (`Op('Name', 'A B')`) is refused."""
    if not args and not kwargs:
        raise ProgramError(
            "EnumType.__call__() missing 1 required positional argument: 'value'",
            kind="TypeError",
        )
    if len(args) != 1 or kwargs:
        raise ProgramError(
            f"{cls.name}(...) with more than a value (Enum's functional API) is not available "
            "here: write the class with its members"
        )
    value = args[0]
    if type(value) is PInstance and value.cls is cls:
        return value
    members = enum_members(cls) or ()
    m.state.charge(len(cls.namespace) // ITEMS_PER_STEP)  # (each name read, to gather them)
    if not members:
        raise ProgramError(f"<enum '{cls.name}'> has no members defined", kind="TypeError")
    for member in members:
        m.state.charge(1)
        if m.truthy(m.compare("==", member.attrs["value"], value)):
            return member
    failed = ProgramError(
        f"{m.texts.to_repr(value)} is not a valid {cls.qualname}", kind="ValueError"
    )
    raise failed


# In the namespace of the mixins of `class Op(str, Enum)` (`enum_mixin_base`), which
# are not a StrEnum's or an IntEnum's (`make_enum_members`).
ENUM_PLAIN_MIXIN_KEY = " enum plain mixin"
# In the namespace of `enum.Enum`: the mixins of `class Op(str, Enum)` and `class L(int,
# Enum)` (`enum_mixin_base`), by the type their members are.
ENUM_MIXINS_KEY = " enum mixins"


class _Auto:
    """What `enum.auto()` gives: the next integer, once the class is made."""

    __slots__ = ()


def enum_module(library: Library) -> PModule:
    """`from enum import Enum, auto`: a class body's plain values become its members,
    each with `.name` and `.value`, printed as CPython prints them (`Op.ADD`,
    `<Op.ADD: '+'>`); `auto()` numbers from 1. Members compare and hash by identity."""
    texts = library.machine.texts

    def member_text(args: list[Any], kwargs: dict[str, Any]) -> str:
        member = args[0]
        return f"{member.cls.name}.{member.attrs.get('name')}"

    def member_repr(args: list[Any], kwargs: dict[str, Any]) -> str:
        member = args[0]
        value = texts.to_repr(member.attrs.get("value"))
        return f"<{member.cls.name}.{member.attrs.get('name')}: {value}>"

    def no_lookup(args: list[Any], kwargs: dict[str, Any]) -> None:
        name = args[0].cls.name if args else "Enum"
        raise ProgramError(
            f"{name}(value) is not available here: name the member ({name}.NAME)",
            kind="TypeError",
        )

    def member_format(args: list[Any], kwargs: dict[str, Any]) -> str:
        # CPython 3.11's `Enum.__format__`: `str(self)` formatted as a str (`f'{op:>6}'`).
        return texts.format(texts.to_str(args[0]), args[1])

    namespace: dict[str, Any] = {
        ENUM_KEY: True,
        "__init__": NativeMethod("__init__", no_lookup),
        "__str__": NativeMethod("__str__", python_method("Enum.__str__", (), member_text)),
        "__repr__": NativeMethod("__repr__", python_method("Enum.__repr__", (), member_repr)),
        "__format__": NativeMethod(
            "__format__", python_method("Enum.__format__", ("format_spec",), member_format)
        ),
    }
    # `class Op(str, Enum)`, `class Level(int, Enum)`: the members are strs or ints as a
    # StrEnum's and an IntEnum's are, but print and format as an Enum's (`Op.MUL`), as in
    # CPython 3.11 (`enum_mixin_base`).
    # The mixin stands for `str` or `int` in the MRO (`Op, str, Enum, object`), with the
    # methods CPython's type defines itself: `str.__str__`, `int.__repr__`, `__format__`
    # (`int` has no `__str__` of its own: `super().__str__()` in an `(int, Enum)` reaches
    # Enum's); `finish_class` puts Enum's in the class where CPython's `EnumType` does.
    mixins: dict[type, PClass] = {}
    for kind in (int, str):
        mixed = _mixin_namespace(library, kind)
        if kind is int:
            del mixed["__str__"]
        mixed["__repr__"] = NativeMethod(
            "__repr__",
            python_method(
                f"{kind.__name__}.__repr__", (), lambda a, k: texts.to_repr(enum_mixin_value(a[0]))
            ),
        )
        mixed[ENUM_PLAIN_MIXIN_KEY] = True
        mixins[kind] = PClass(kind.__name__, (), mixed)
        # `str` itself in an `Op.__mro__`, as CPython's (this class is made nowhere else)
        types = library.builtins_module.members if library.builtins_module is not None else {}
        library.machine.mixin_types[id(mixins[kind])] = types.get(kind.__name__, mixins[kind])
    namespace[ENUM_MIXINS_KEY] = mixins
    enum = PClass("Enum", (), namespace)
    return PModule(
        "enum",
        {
            "Enum": enum,
            "IntEnum": PClass("IntEnum", (enum,), _mixin_namespace(library, int)),
            "StrEnum": PClass("StrEnum", (enum,), _mixin_namespace(library, str)),
            "auto": Builtin("auto", lambda a, k: _Auto()),
            "unique": Builtin("unique", lambda a, k: _unique(library.machine, a, k)),
        },
    )


def enum_mixin_base(name: str, base: Any, bases: list[Any]) -> PClass:
    """What `str` or `int` among a class statement's bases stands for: with a subclass of
    `enum.Enum` among them, the mixin that makes its members strs or ints (`class Op(str,
    Enum)`); any other value that is not the program's class is refused."""
    if type(base) is TypeObject and base.name in ("int", "str"):
        for other in bases:
            if type(other) is PClass:
                for c in other.mro:
                    mixins: dict[type, PClass] | None = c.namespace.get(ENUM_MIXINS_KEY)
                    if mixins is not None:
                        return mixins[int if base.name == "int" else str]
    if type(base) is TypeObject and base.types and base.name in _BUILT_IN_BASES:
        # `class Dual(float)`: its objects would have to be floats wherever one is read
        # (arithmetic, `math`, formatting, `isinstance`) and be made by `__new__`, which
        # classes here do not have.
        kind = _BUILT_IN_BASES[base.name]
        raise ProgramError(
            f"class {name}({base.name}): a class of the program's cannot inherit from the "
            f"built-in type '{base.name}' here (but an Enum's data type, `str` or `int`: "
            f"`class Op(str, Enum)`); keep the {kind} in an attribute "
            f"(`self.{_ATTRIBUTE[kind]} = x`) and "
            "define the operators the class needs (`__add__`, `__mul__`, `__float__`…)"
        )
    raise ProgramError(f"class {name} can only inherit from the program's classes")


# The built-in types a program's class statement names as a base, refused with a sentence
# of what to write instead (`list` and `dict` are taken: `builtin_bases`).
_BUILT_IN_BASES = {
    "float": "number", "int": "number", "complex": "number", "bool": "number",
    "str": "string", "bytes": "string", "tuple": "tuple", "set": "set", "frozenset": "set",
}  # fmt: skip
_ATTRIBUTE = {"number": "value", "string": "text", "tuple": "items", "set": "items"}  # fmt: skip


def _mixin_namespace(library: Library, kind: type) -> dict[str, Any]:
    """`enum.IntEnum`'s and `enum.StrEnum`'s methods: a member is its value wherever an
    int or a str is read (`Op.MUL == 'mul'`, a dict key equal to the string, `f'{op}'`,
    `Op.MUL.upper()`, `Level.HIGH + 1`, ordering), as CPython's members are ints and strs
    (the value's attributes: `Machine.class_attr_of`)."""
    m = library.machine
    plain = enum_mixin_value
    qual = kind.__name__

    def method(name: str, params: tuple[str, ...], call: Call) -> NativeMethod:
        return NativeMethod(name, python_method(f"{qual}.{name}", params, call))

    def compared(op: str) -> Call:
        return lambda a, k: m.rich_compare(op, plain(a[0]), plain(a[1]))

    def operated(op: str, left: Any, right: Any) -> Any:
        try:
            return m.binary(op, plain(left), plain(right))
        except ProgramError as error:  # the member's class named (`'Lvl' and 'str'`)
            if error.kind == "TypeError" and str(error).startswith("unsupported operand"):
                return NotImplemented
            raise

    def forward(op: str) -> Call:
        return lambda a, k: operated(op, a[0], a[1])

    def reflected(op: str) -> Call:
        return lambda a, k: operated(op, a[1], a[0])

    def of_value(builtin: Call) -> Call:
        return lambda a, k: builtin([plain(a[0])], {})

    def unary(op: str) -> Call:
        return lambda a, k: m.unary(op, plain(a[0]))

    namespace: dict[str, Any] = {
        ENUM_MIXIN_KEY: kind,
        "__str__": method("__str__", (), lambda a, k: m.texts.to_str(plain(a[0]))),
        # CPython's `str.__format__` and `int.__format__`: a blank spec is `str(member)`
        # (Enum's `Op.ADD` where the class keeps it), any other formats the value.
        "__format__": method(
            "__format__",
            ("format_spec",),
            lambda a, k: m.texts.to_str(a[0]) if a[1] == "" else m.texts.format(plain(a[0]), a[1]),
        ),
        "__hash__": method("__hash__", (), lambda a, k: library.hash_([plain(a[0])], {})),
    }
    for op, name in (("==", "eq"), ("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")):
        namespace[f"__{name}__"] = method(f"__{name}__", ("other",), compared(op))
    value_of = lambda a, k: plain(a[0])  # noqa: E731
    if kind is int:  # `[w, b][Level.HIGH]`, `int(op)`, `-op`, `abs(op)`
        namespace["__index__"] = namespace["__int__"] = method("__int__", (), value_of)
        for name, builtin in (("float", library.float_), ("abs", library.abs_)):
            namespace[f"__{name}__"] = method(f"__{name}__", (), of_value(builtin))
        for op, name in (("-", "neg"), ("+", "pos"), ("~", "invert")):
            namespace[f"__{name}__"] = method(f"__{name}__", (), unary(op))
    else:  # `len(op)`, `op[0]`, `'d' in op`, `for c in op`
        namespace["__len__"] = method("__len__", (), lambda a, k: len(plain(a[0])))
        namespace["__getitem__"] = method(
            "__getitem__", ("key",), lambda a, k: m.get_item(plain(a[0]), a[1])
        )
        namespace["__contains__"] = method(
            "__contains__", ("key",), lambda a, k: m.contains(plain(a[0]), a[1])
        )
        namespace["__iter__"] = method("__iter__", (), lambda a, k: m.iterate(plain(a[0])))
    namespace["__bool__"] = method("__bool__", (), lambda a, k: m.truthy(plain(a[0])))
    for op, name in MIXIN_OPERATORS[kind]:
        namespace[f"__{name}__"] = method(f"__{name}__", ("other",), forward(op))
        namespace[f"__r{name}__"] = method(f"__r{name}__", ("other",), reflected(op))
    return namespace


# The operators of an IntEnum's members (an int's) and of a StrEnum's (a str's)
MIXIN_OPERATORS: dict[type, tuple[tuple[str, str], ...]] = {
    int: (
        ("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"), ("//", "floordiv"),
        ("%", "mod"), ("**", "pow"), ("&", "and"), ("|", "or"), ("^", "xor"),
        ("<<", "lshift"), (">>", "rshift"),
    ),
    str: (("+", "add"), ("*", "mul"), ("%", "mod")),
}  # fmt: skip


def _unique(machine: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`@unique` of an Enum: the class itself, or CPython's ValueError naming each alias
    and its member (`duplicate values found in <enum 'Op'>: B -> A`)."""
    if kwargs or len(args) != 1:
        raise wrong_arguments("unique() decorates one Enum", "unique", args, kwargs)
    cls = args[0]
    if type(cls) is not PClass or enum_members(cls) is None:
        raise ProgramError(
            f"type object '{getattr(cls, 'name', cpython_type(cls))}' has no attribute "
            "'__members__'",
            kind="AttributeError",
        )
    machine.state.charge(len(cls.namespace) // ITEMS_PER_STEP)
    aliases = [
        f"{name} -> {member.attrs['name']}"
        for name, member in enum_member_map(cls).items()
        if member.attrs["name"] != name
    ]
    if aliases:
        shown = machine.texts.to_repr(cls)
        raise ProgramError(
            f"duplicate values found in {shown}: {', '.join(aliases)}", kind="ValueError"
        )
    return cls


def make_enum_members(cls: PClass) -> None:
    """Turn the plain values of an Enum subclass's body into its members, in order; a
    value seen before makes an alias of the first member, as in CPython."""
    if not any(ENUM_KEY in base.namespace for base in cls.mro[1:]):
        return
    by_value: dict[tuple[type, Any], PInstance] = {}
    last = 0
    mixins = (c.namespace[ENUM_MIXIN_KEY] for c in cls.mro if ENUM_MIXIN_KEY in c.namespace)
    mixin = next(mixins, None)  # an IntEnum's `int`, a StrEnum's `str`
    # `class Op(str, Enum)`: its values are converted as `str(value)` is, and `auto()` is
    # Enum's (1, 2, ...), where a StrEnum's refuses a number and names its `auto()`s.
    mixed_in = any(ENUM_PLAIN_MIXIN_KEY in c.namespace for c in cls.mro)
    for name, value in list(cls.namespace.items()):
        if (
            name.startswith("_")
            or not name.isidentifier()  # the interpreter's own entries (`ANNOTATIONS`…)
            or isinstance(value, Builtin | Function)
            or type(value)
            in (
                PProperty,
                PStaticMethod,
                PClassMethod,
                PClass,
            )
        ):
            continue
        if type(value) is _Auto:
            value = name.lower() if mixin is str and not mixed_in else last + 1
        if mixin is not None and type(value) is not mixin:
            if type(value) is int:
                last = value  # (`auto()` counts on from the number, not its str)
            value = _mixin_member_value(cls, mixin, value, mixed_in)
        if type(value) is int:
            last = value
        plain = type(value) in _PLAIN_VALUES or (  # Python's own hash and ==
            type(value) is tuple and all(type(item) in _PLAIN_VALUES for item in value)
        )
        alias = by_value.get((type(value), value)) if plain else None
        if alias is not None:
            cls.namespace[name] = alias
            continue
        member = PInstance(cls)
        member.attrs["name"] = name
        member.attrs["value"] = value
        cls.namespace[name] = member
        if plain:
            by_value[(type(value), value)] = member


# The values an Enum's members are told apart by as Python compares them (a tuple of
# them too: `BOX = (2, 2)` after `SQUARE = (2, 2)` is an alias).
_PLAIN_VALUES = frozenset({int, float, str, bool, type(None)})


def _init_enum_members(m: Any, cls: PClass) -> None:
    """An Enum's own `__init__` (a planet's `def __init__(self, mass, radius)`) called
    with each member, in order, as CPython's `EnumType` calls it: with the items of a
    tuple value, else with the value."""
    init = next((c.namespace["__init__"] for c in cls.mro if "__init__" in c.namespace), None)
    if type(init) is not Function:
        return
    for name, member in list(cls.namespace.items()):
        if type(member) is PInstance and member.cls is cls and member.attrs.get("name") == name:
            value = member.attrs["value"]
            m.call_function(init, [member, *(value if type(value) is tuple else (value,))])


def _mixin_member_value(cls: PClass, mixin: type, value: Any, plain: bool) -> Any:
    """An IntEnum's member given a bool is its int (`int(True)`); a StrEnum's given no
    str is CPython's TypeError; a plain mixin's (`class Op(str, Enum)`) given a number is
    its `str()` or `int()`, as CPython's; anything else is refused (CPython would convert
    it)."""
    if mixin is int and type(value) is bool:
        return int(value)
    if plain and mixin is str and type(value) in (int, float, bool, type(None)):
        return repr(value)  # (`str()` of these is their repr; a float's, CPython's repr)
    if plain and mixin is int and type(value) is float:
        return int(value)
    if mixin is str and type(value) in (int, float, type(None)):
        raise ProgramError(f"{value!r} is not a string", kind="TypeError")
    raise ProgramError(
        f"an {cls.name} member's value must be {'an int' if mixin is int else 'a str'} "
        f"here, not {python_type_name(value)}"
    )


def _reconfigure(args: list[Any], kwargs: dict[str, Any]) -> None:
    """`sys.stdout.reconfigure(encoding="utf-8")` (a script's set-up for a Windows
    console): nothing to change, the panel shows every character; CPython's TypeErrors."""
    if args:
        raise ProgramError("reconfigure() takes no positional arguments", kind="TypeError")
    for name in kwargs:
        if name not in _RECONFIGURE:
            words = f"'{name}' is an invalid keyword argument for reconfigure()"
            raise ProgramError(words, kind="TypeError")
    for name in _RECONFIGURE[:3]:  # CPython's order: the texts' types first
        given = kwargs.get(name)
        if given is not None and type(given) is not str:
            wrong = python_type_name(given)
            words = f"reconfigure() argument '{name}' must be str or None, not {wrong}"
            raise ProgramError(words, kind="TypeError")
    newline = kwargs.get("newline")
    if newline is not None and newline not in ("", "\n", "\r", "\r\n"):
        raise ProgramError(f"illegal newline value: {newline}", kind="ValueError")
    for name in _RECONFIGURE[3:]:
        given = kwargs.get(name)
        if given is not None and type(given) not in (int, bool):
            words = f"'{python_type_name(given)}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
    encoding = kwargs.get("encoding")
    if encoding is not None:
        codec = _codec(encoding)
        if codec is None:
            raise ProgramError(f"unknown encoding: {encoding}", kind="LookupError")
        if codec != "utf_8":  # the panel shows utf-8 text, which CPython would not write
            shown = encoding if len(encoding) < 40 else encoding[:40] + "…"
            raise ProgramError(f"sys.stdout.reconfigure(encoding={shown!r}) is not available here")


def _codec(name: str) -> str | None:
    """The codec module CPython's lookup finds for an encoding's name (`'UTF8'`,
    `'utf-8'`: `utf_8`), from its own tables, importing none (CPython's lookup imports the
    codec's module and keeps every name it is asked, known or not), else None."""
    norm = encodings.normalize_encoding(name.lower().replace(" ", "_").replace("-", "_"))
    alias = _ALIASES.get(norm) or _ALIASES.get(norm.replace(".", "_"))
    found = alias or norm
    return found if found in _CODECS else None


def _flush(args: list[Any], kwargs: dict[str, Any]) -> None:
    if args or kwargs:
        words = f"TextIOWrapper.flush() takes no arguments ({len(args) + len(kwargs)} given)"
        raise ProgramError(words, kind="TypeError")


_RECONFIGURE = ("encoding", "errors", "newline", "line_buffering", "write_through")
_ALIASES: dict[str, str] = encodings.aliases.aliases
_CODECS = frozenset(found.name for found in pkgutil.iter_modules(encodings.__path__))
# `print(..., file=sys.stdout)`: the print panel (a run's own, `stdout`; this one is
# `print`'s default, which no program reads)
STDOUT = Stream("sys.stdout", {})


def stdout(library: Library, name: str = "sys.stdout") -> Stream:
    """A run's `sys.stdout` (or `sys.stderr`, which is printed too, as warnings and log
    lines are: there is no stderr here): its `encoding` the name `reconfigure` was given
    last; `write(s)` prints `s` as it is, with no line end, and gives its length."""
    members: dict[str, Any] = {"flush": Builtin("flush", _flush), "encoding": "utf-8"}
    stream = Stream(name, members)

    def reconfigure(args: list[Any], kwargs: dict[str, Any]) -> None:
        _reconfigure(args, kwargs)
        if kwargs.get("encoding") is not None:
            members["encoding"] = kwargs["encoding"]  # (a spelling of utf-8)

    def write(args: list[Any], kwargs: dict[str, Any]) -> int:
        if kwargs or len(args) != 1:
            words = f"TextIOWrapper.write() takes exactly one argument ({len(args)} given)"
            raise ProgramError(words, kind="TypeError")
        if type(args[0]) is not str:
            words = f"write() argument must be str, not {python_type_name(args[0])}"
            raise ProgramError(words, kind="TypeError")
        library.print_([args[0]], {"end": "", "file": stream})
        return len(args[0])

    members["reconfigure"] = Builtin("reconfigure", reconfigure)
    members["write"] = Builtin("write", write)
    return stream


def sys_module(library: Library) -> PModule:
    """`import sys` as micrograd programs use it: `sys.setrecursionlimit(10000)` before a
    deep recursive sort is CPython's, the depth the program's calls nest to from then on
    (up to BACKPROP_MAX_RECURSION_LIMIT, `State.recursion_cap`), and
    `getrecursionlimit()` reads it back;
    `sys.path.append(...)` appends to a list of the program's own, since every import
    here is the interpreter's; `sys.argv` is a script's run with no arguments, a list of
    the program's own holding its path (`sys.exit(main(sys.argv))`)."""

    read_back = [1000]  # what `getrecursionlimit()` answers: the program's own number
    state = library.state

    def set_limit(args: list[Any], kwargs: dict[str, Any]) -> None:
        if kwargs:
            words = "sys.setrecursionlimit() takes no keyword arguments"
            raise ProgramError(words, kind="TypeError")
        if len(args) != 1:
            words = f"sys.setrecursionlimit() takes exactly one argument ({len(args)} given)"
            raise ProgramError(words, kind="TypeError")
        limit = args[0]
        if type(limit) is not int and type(limit) is not bool:
            words = f"'{python_type_name(limit)}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        if not -(2**31) <= limit < 2**31:
            words = "Python int too large to convert to C int"
            raise ProgramError(words, kind="OverflowError")
        if limit < 1:
            raise ProgramError("recursion limit must be greater or equal than 1", kind="ValueError")
        depth = state.depth + 2  # CPython's count of a script: its module, this call
        if limit <= depth:
            words = (
                f"cannot set the recursion limit to {int(limit)} at the recursion depth "
                f"{depth}: the limit is too low"
            )
            raise ProgramError(words, kind="RecursionError")
        read_back[0] = state.own_limit = int(limit)
        state.max_call_depth = min(read_back[0], state.recursion_cap)

    def get_limit(args: list[Any], kwargs: dict[str, Any]) -> int:
        if kwargs:
            words = "sys.getrecursionlimit() takes no keyword arguments"
            raise ProgramError(words, kind="TypeError")
        if args:
            words = f"sys.getrecursionlimit() takes no arguments ({len(args)} given)"
            raise ProgramError(words, kind="TypeError")
        return read_back[0]

    return PModule(
        "sys",
        {
            "setrecursionlimit": Builtin("sys.setrecursionlimit", set_limit),
            "getrecursionlimit": Builtin("sys.getrecursionlimit", get_limit),
            "maxsize": sys.maxsize,
            "path": [],
            # a script's `sys.argv`: its own path (the fake `__file__`), no arguments
            "argv": [FAKE_FILE],
            "stdout": stdout(library),
            "stderr": stdout(library, "sys.stderr"),
            # `sys.float_info.epsilon` and the rest, CPython's numbers (read-only)
            "float_info": PModule(
                "sys.float_info",
                {
                    name: getattr(sys.float_info, name)
                    for name in (
                        "max",
                        "max_exp",
                        "max_10_exp",
                        "min",
                        "min_exp",
                        "min_10_exp",
                        "dig",
                        "mant_dig",
                        "epsilon",
                        "radix",
                        "rounds",
                    )
                },
            ),
            "version_info": tuple(sys.version_info[:3]),
            "exit": Builtin("sys.exit", functools.partial(_sys_exit, library.machine)),
        },
    )


def _sys_exit(m: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
    """`sys.exit(status=None)`: raises CPython's SystemExit, which `except SystemExit`
    catches; uncaught with no status, 0 or None it ends the program there, its trace
    what it did until then (`engine.run`), and with another it is a 400 that says it."""
    if kwargs or len(args) > 1:
        raise ProgramError("sys.exit() takes at most one argument", kind="TypeError")
    raise program_raise(m, m.instantiate(m.exceptions["SystemExit"], list(args), None))


def exit_program(m: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
    """A script's `exit(code=None)` and `quit(code=None)`, the site module's: CPython's
    SystemExit of the code, as `sys.exit` raises it, None too (`SystemExit(None)`, its
    args `(None,)`, where `sys.exit()`'s are `()`)."""
    if len(args) + len(kwargs) > 1 or set(kwargs) - {"code"}:
        raise ProgramError("exit() takes at most one argument, code", kind="TypeError")
    _sys_exit(m, [args[0] if args else kwargs.get("code")], {})


def io_module(state: State) -> PModule:
    """`from io import StringIO`, as a notebook collects lines to print at once
    (`print(*params, sep="\\n", file=output)`, `output.getvalue()`): a text buffer with
    `write`, `getvalue`, `read`, `readline`, `seek`, `tell`, `truncate` and `close`,
    CPython's own inside, its errors CPython's.

    A buffer is CPython's StringIO in a `TextBuffer`; its methods are made as they are
    read (`b.write`, a new one each time, as CPython's bound methods), so a buffer kept
    costs no more than CPython's own, and is charged as an object of the program's is."""

    def string_io(args: list[Any], kwargs: dict[str, Any]) -> TextBuffer:
        if len(args) == 2 or "newline" in kwargs:  # CPython's takes it: refused, not an error
            raise ProgramError("io.StringIO()'s newline is not available here")
        if len(args) > 1 or set(kwargs) - {"initial_value"} or (args and kwargs):
            raise ProgramError("StringIO() takes an initial text here", kind="TypeError")
        initial = args[0] if args else kwargs.get("initial_value", "")
        if initial is not None and type(initial) is not str:
            wrong = python_type_name(initial)
            message = f"initial_value must be str or None, not {wrong}"
            raise ProgramError(message, kind="TypeError")
        state.charge(_BUFFER_STEPS)
        state.check_str(len(initial or ""))
        return TextBuffer(io.StringIO(initial), methods)

    def integer(name: str, value: Any) -> int | None:
        """An argument as CPython's StringIO takes it: an integer (or None for a size),
        else its TypeError in its words."""
        if type(value) in (int, bool):
            return int(value)
        wrong = python_type_name(value)
        if name == "seek":
            raise ProgramError(
                f"'{wrong}' object cannot be interpreted as an integer", kind="TypeError"
            )
        if value is None:
            return None
        raise ProgramError(f"argument should be integer or None, not '{wrong}'", kind="TypeError")

    def write(buffer: io.StringIO, args: list[Any], kwargs: dict[str, Any]) -> int:
        if kwargs:  # CPython's words
            raise ProgramError("StringIO.write() takes no keyword arguments", kind="TypeError")
        if len(args) != 1:
            words = f"StringIO.write() takes exactly one argument ({len(args)} given)"
            raise ProgramError(words, kind="TypeError")
        text = args[0]
        if type(text) is not str:
            wrong = python_type_name(text)
            raise ProgramError(f"string argument expected, got '{wrong}'", kind="TypeError")
        try:  # what it will hold, checked before it is written (`seek(9000)` first)
            position = buffer.tell()
            size = buffer.seek(0, 2)
            buffer.seek(position)
        except ValueError as error:  # closed
            raise ProgramError(str(error), kind="ValueError") from None
        end = max(size, position + len(text))
        if end > MAX_STR:
            state.check_str(end)  # refused, in the string bound's words
        # A step per so many characters written, the padding a write past the end
        # makes (`seek(9_999)` then `write("x")`: CPython fills the gap) counted too.
        state.check_str(len(text) + max(0, position - size))
        return buffer.write(text)

    def method(name: str, most: int) -> Callable[[io.StringIO, list[Any], dict[str, Any]], Any]:
        def call(buffer: io.StringIO, args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs:
                words = f"StringIO.{name}() takes no keyword arguments"
                raise ProgramError(words, kind="TypeError")
            if len(args) > most:  # CPython's words
                words = (
                    f"StringIO.{name}() takes no arguments ({len(args)} given)"
                    if most == 0
                    else f"{name} expected at most {most} argument"
                    f"{'s' if most > 1 else ''}, got {len(args)}"
                )
                raise ProgramError(words, kind="TypeError")
            given = [integer(name, value) for value in args]
            if (
                name == "seek"
                and given
                and given[0] is not None
                and given[0] < 0
                and (len(given) < 2 or given[1] == 0)  # `seek(-1, 1)` is the OSError below
            ):
                raise ProgramError(f"Negative seek position {given[0]}", kind="ValueError")
            try:
                result = getattr(buffer, name)(*given)
            except ValueError as error:  # closed, or a bad `whence`
                raise ProgramError(str(error), kind="ValueError") from None
            except OverflowError as error:  # `seek(10**30)`: CPython's words
                raise ProgramError(str(error), kind="OverflowError") from None
            except OSError as error:  # `seek(5, 1)`: only zero cur-relative seeks
                raise ProgramError(str(error), kind="OSError") from None  # CPython's words
            if type(result) is str:
                state.charge(len(result) // ITEMS_PER_STEP)
            return result

        return call

    methods: dict[str, Callable[[io.StringIO, list[Any], dict[str, Any]], Any]] = {"write": write}
    for name, most in (("getvalue", 0), ("read", 1), ("readline", 1), ("seek", 2),
                       ("tell", 0), ("truncate", 1), ("close", 0)):  # fmt: skip
        methods[name] = method(name, most)
    return PModule("io", {"StringIO": Builtin("io.StringIO", string_io)})


# What making an `io.StringIO()` costs: CPython's object and ours, as much memory as an
# object of the program's with a few attributes.
_BUFFER_STEPS = 10


# What the program's clock reads per interpreter step: a microsecond.
SECONDS_PER_STEP = 1e-6


def time_module(state: State) -> PModule:
    """`import time` as programs use it to time a loop: the clock counts the program's
    own work (a microsecond per interpreter step, so a trace is the same on every run and
    `1 / (time.time() - start)` never divides by zero) and `sleep` does not wait."""

    def clock(args: list[Any], kwargs: dict[str, Any]) -> float:
        if args or kwargs:
            raise ProgramError("this clock takes no arguments", kind="TypeError")
        return state.steps * SECONDS_PER_STEP

    def sleep(args: list[Any], kwargs: dict[str, Any]) -> None:
        if len(args) != 1 or kwargs or type(args[0]) not in (int, float, bool):
            raise ProgramError("sleep() takes one number of seconds", kind="TypeError")
        if args[0] < 0:
            raise ProgramError("sleep length must be non-negative", kind="ValueError")

    members: dict[str, Any] = {
        name: Builtin(f"time.{name}", clock)
        for name in ("time", "perf_counter", "monotonic", "process_time")
    }
    members["sleep"] = Builtin("time.sleep", sleep)
    return PModule("time", members)


# What CPython's debugger offers a script: each refused where it is called.
PDB_NAMES = ("set_trace", "post_mortem", "pm", "run", "runcall", "runeval", "Pdb")


def pdb_module() -> PModule:
    """`import pdb` as a notebook imports it, most often never to use it: the import is
    CPython's, and each of the debugger's entries is refused where it is called, as
    `breakpoint()` is (a program here runs with no console: the trace is its debugger).
    The refusal is no exception the program could catch.

    Example: `import pdb` then `pdb.set_trace()` -> "`pdb.set_trace` is not available here".
    """

    def refused(name: str) -> Builtin:
        def call(args: list[Any], kwargs: dict[str, Any]) -> None:
            raise ProgramError(
                f"`pdb.{name}` is not available here: a program here runs with no console, "
                "keyboard or debugger (its trace shows every step)"
            )

        return Builtin(f"pdb.{name}", call)

    return PModule("pdb", {name: refused(name) for name in PDB_NAMES})


# A class's own ways of being pickled, which CPython's `copy` would call (not here).
_PICKLING = ("__reduce_ex__", "__reduce__", "__getstate__", "__setstate__")

# What `copy` hands back as it is: atoms, and what CPython's `copy` treats as atoms.
ATOMIC_COPIES = frozenset({int, float, bool, str, type(None), range, Function, PClass})
COPIED_CONTAINERS = frozenset({list, tuple, dict})


def copy_module(library: Library) -> PModule:
    """`copy.copy` and `copy.deepcopy` as CPython's: an object of the program's is a new
    object of its class, made without `__init__`, with its attributes copied (deeply, or
    the same ones); lists, tuples, dicts and sets are copied, and functions, classes and
    modules are themselves (a copied node's `_backward` is still the closure over the
    nodes it was made from, as in CPython). A copy of a graph node is a node of its own.
    Charged a step per object copied; objects nest at most BACKPROP_MAX_DEPTH deep."""
    copier = _Copier(library)
    return PModule(
        "copy",
        {
            "copy": Builtin("copy.copy", copier.shallow),
            "deepcopy": Builtin("copy.deepcopy", copier.deepcopy),
        },
    )


class _Copier:
    def __init__(self, library: Library) -> None:
        self.m = library.machine
        self.state = library.state

    @staticmethod
    def atom(value: Any) -> bool:
        """Whether a copy of `value` is `value` itself: an atom, an Enum member (CPython's
        Enum copies to itself) or a logger (`getLogger(name)` again)."""
        kind = type(value)
        if kind is PInstance:
            return any(ENUM_KEY in c.namespace for c in value.cls.mro)
        if kind is PModule:
            if "getEffectiveLevel" in value.members:
                return True
            if value.name == "Random":
                raise ProgramError("copying a random.Random is not available here")
            made_as = value.members.get(LOG_KIND)  # a handler, a formatter (CPython copies them)
            if made_as is not None:
                raise ProgramError(f"copying a logging.{made_as} is not available here")
            raise ProgramError("cannot pickle 'module' object", kind="TypeError")
        return (
            kind in ATOMIC_COPIES
            or kind is Inert
            or kind is Annotation
            or isinstance(value, Builtin)
        )

    def same_kind(self, original: Any, copied: Any) -> Any:
        """`copied` registered as the `collections` kind `original` is (a defaultdict with
        its factory, a Counter, a deque...), as CPython's copy keeps its type."""
        special = self.m.collections.get(id(original))
        if special is not None and special[0] is original:
            self.m.register(copied, special[1], special[2])
        return copied

    @staticmethod
    def refuse(value: Any) -> ProgramError:
        if type(value) in VIEW_NAMES:
            words = f"cannot pickle '{VIEW_NAMES[type(value)]}' object"  # a dict's view
            refused = ProgramError(words, kind="TypeError")
            refused.args_seen = (words,)
            return refused
        return ProgramError(f"cannot copy {a_type(value)} here", kind="TypeError")

    def made(self, original: PInstance, attrs: dict[str, Any]) -> Any:
        """A new object of `original`'s class, without `__init__`, holding `attrs`: made
        by the class's own `__new__` where it has one, called with the class alone, as
        CPython's copy makes it (`__reduce_ex__(4)`: `copyreg.__newobj__(cls)`), then
        given `attrs` (what that object was given is kept where `attrs` has no such name;
        what it gives is the copy as it is where `original` has no attributes: CPython
        puts no state in then, and `Odd.__new__` may give anything)."""
        cls = original.cls
        own = next((name for name in _PICKLING if cls.lookup(name) is not MISSING), None)
        if own is not None:  # CPython's copy would call it: not done here
            raise ProgramError(f"copying a {cls.name} by its own {own} is not available here")
        new = cls.lookup("__new__")
        if type(new) is PStaticMethod:
            new = new.function
        if type(new) is Function and new.span[0] > 0:  # the program's own `__new__`
            twin = self.m.call(new, [cls])
            if not original.attrs:
                return twin
            if type(twin) is not PInstance or twin.cls.builtin:
                words = f"'{python_type_name(twin)}' object has no attribute '__dict__'"
                raise ProgramError(words, kind="AttributeError")
            twin.attrs.update(attrs)
            return twin
        twin = PInstance(cls)
        twin.attrs = new_attrs(cls)  # a `SlotDict` under `__slots__`, as the original's
        twin.attrs.update(attrs)
        twin.reads = reads_of(twin)
        if cls.exception:  # its `args` (deep-copied by `deep`)
            twin.fields = dict(original.fields)
        return twin

    def refill(self, original: PInstance, twin: PInstance, copied: Callable[[Any], Any]) -> None:
        """The items of an object of a class inheriting from `list` or `dict`, put in its
        copy as CPython's `copy._reconstruct` puts them: by its `append`, or by `twin[k] =
        v`, the class's own where it has them."""
        held = enum_mixin_value(original)
        if held is original:
            return
        self.state.charge(len(held))
        if type(held) is list:
            append = self.m.get_attr(twin, "append")
            for item in list(held):
                self.m.call(append, [copied(item)])
        else:
            for key, item in list(held.items()):
                self.m.set_item(twin, copied(key), copied(item))

    def register(self, twin: PInstance) -> PInstance:
        # a node of the program's Value-like class (not one its `__new__` gave again)
        if twin.cls.shape is not None and twin.mirror is None:
            self.m.recorder.register_instance(twin)
        return twin

    def shallow(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if len(args) != 1 or kwargs:
            raise ProgramError("copy() takes one object", kind="TypeError")
        value = args[0]
        kind = type(value)
        charge = self.state.charge
        charge(1)
        if kind is tuple or self.atom(value):
            return value
        if kind is list:
            charge(len(value) // ITEMS_PER_STEP)
            return self.same_kind(value, list(value))
        if kind is dict:
            charge(len(value) // ITEMS_PER_STEP)
            return self.same_kind(value, dict(value))
        if kind is PSet:
            if value.frozen:  # `copy.copy(fs) is fs`, as CPython's
                return value
            charge(len(value.items) // ITEMS_PER_STEP)
            return sets.copy(value)  # CPython's copy, its order too
        if kind is PInstance:
            if value.cls.lookup("__copy__") is not MISSING:  # its class's own, as CPython's
                return self.m.call(self.m.get_attr(value, "__copy__"), [])
            charge(len(value.attrs) // ITEMS_PER_STEP)
            twin = self.made(value, dict(value.attrs))
            if type(twin) is PInstance:
                self.register(twin)
                self.refill(value, twin, lambda item: item)
            return twin
        if kind is TextBuffer:
            return self.buffer(value)
        raise self.refuse(value)

    def buffer(self, value: TextBuffer) -> TextBuffer:
        """A copy of an `io.StringIO()`, deep or not: CPython's own copy of its buffer (its
        text, its position), charged for the text and the object, as a new one is."""
        try:
            copied = copy.copy(value.buffer)  # CPython's `__getstate__`: text and position
        except ValueError as error:  # closed
            raise ProgramError(str(error), kind="ValueError") from None
        self.state.charge(_BUFFER_STEPS + len(copied.getvalue()) // ITEMS_PER_STEP)
        return TextBuffer(copied, value.methods)

    def deepcopy(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`copy.deepcopy(x)`, and `copy.deepcopy(x, memo)` with the memo a class's own
        `__deepcopy__(self, memo)` was given (a dict, by the ids of what it copied)."""
        memo = args[1] if len(args) == 2 else kwargs.get("memo") if len(kwargs) == 1 else {}
        if not 1 <= len(args) + len(kwargs) <= 2 or not args or (kwargs and "memo" not in kwargs):
            raise ProgramError("deepcopy() takes one object (and a memo)", kind="TypeError")
        if memo is None:
            memo = {}
        if type(memo) is not dict:
            raise ProgramError("deepcopy()'s memo is a dict here", kind="TypeError")
        return self.deep(args[0], memo, 0)  # all it copies is reachable from it: ids hold

    def deep(self, value: Any, memo: dict[int, Any], depth: int) -> Any:
        if self.atom(value):
            return value
        found = memo.get(id(value), MISSING)
        if found is not MISSING:
            return found
        state = self.state
        if depth >= state.limits.max_depth:
            what = "deepcopy() went too deep (objects in objects in objects ...)"
            raise ProgramError(state.limits.exceeded("max_depth", what).message)
        kind = type(value)
        # A step an object and one an item: each is a call of CPython's `deepcopy`.
        state.charge(
            1
            + (len(value) if kind in COPIED_CONTAINERS else 0)
            + (len(value.attrs) if kind is PInstance else 0)
        )
        depth += 1
        key = self.m.key
        copied: Any
        if kind is list:
            copied = memo[id(value)] = self.same_kind(value, [])
            copied.extend(self.deep(item, memo, depth) for item in value)
        elif kind is dict:
            copied = memo[id(value)] = self.same_kind(value, {})
            for name, item in value.items():
                copied[key(self.deep(name, memo, depth))] = self.deep(item, memo, depth)
        elif kind is tuple:
            items = tuple(self.deep(item, memo, depth) for item in value)
            copied = memo.get(id(value), MISSING)  # the tuple reached itself meanwhile
            if copied is MISSING:
                same = all(a is b for a, b in zip(items, value, strict=True))
                copied = memo[id(value)] = value if same else items  # atoms: itself
        elif kind is PSet:
            copied = memo[id(value)] = PSet()
            for item in value.ordered():  # CPython's: set(list(value)), deep-copied
                copied.add(key(self.deep(item, memo, depth)))
            copied.frozen = value.frozen
        elif kind is PInstance and value.cls.lookup("__deepcopy__") is not MISSING:
            own = self.m.get_attr(value, "__deepcopy__")  # its class's own, as CPython's
            copied = memo[id(value)] = self.m.call(own, [memo])
        elif kind is PInstance:
            copied = memo[id(value)] = self.made(value, {})
            if type(copied) is not PInstance:  # (what its own `__new__` gave: no state)
                return copied
            for name, item in value.attrs.items():
                # (past a `SlotDict`'s check: the original held it, a named tuple's field too)
                dict.__setitem__(copied.attrs, name, self.deep(item, memo, depth))
            if value.cls.exception:
                fields = copied.fields
                for name, item in value.fields.items():
                    fields[name] = self.deep(item, memo, depth)
            self.register(copied)
            self.refill(value, copied, lambda item: self.deep(item, memo, depth))
        elif kind is BoundMethod:
            copied = memo[id(value)] = BoundMethod(
                value.function, self.deep(value.self, memo, depth)
            )
        elif kind is TextBuffer:
            copied = memo[id(value)] = self.buffer(value)
        else:
            raise self.refuse(value)
        return copied


def _type_variable(kind: str, args: list[Any]) -> Annotation:
    """`TypeVar("T")`, `ParamSpec("P")`: shown as CPython shows them (`~T`, `~P`; a
    `TypeVarTuple` bare), named by a string only (CPython's takes any name, and fails
    to show one that is no string)."""
    if not args:
        words = f"{kind}.__init__() missing 1 required positional argument: 'name'"
        raise ProgramError(words, kind="TypeError")
    if type(args[0]) is not str:
        raise ProgramError(f"a {kind} named by {a_type(args[0])} is not available here")
    return Annotation(args[0] if kind == "TypeVarTuple" else f"~{args[0]}")


# In a `@runtime_checkable` protocol's namespace: `isinstance` asks an object for its
# members (`Library.protocol_instance`), as CPython's `_ProtocolMeta` does
RUNTIME_PROTOCOL = " runtime protocol"


def _runtime_checkable(args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`@runtime_checkable` of a protocol class of the program's: the class, marked."""
    if len(args) != 1 or kwargs:
        raise ProgramError("runtime_checkable() takes one class", kind="TypeError")
    cls = args[0]
    if type(cls) is not PClass or not any(
        c.name == "Protocol" and c.namespace.get(PROTOCOL_KEY) for c in cls.mro
    ):
        words = "@runtime_checkable can be only applied to protocol classes, got " + (
            f"<class '__main__.{cls.name}'>" if type(cls) is PClass else repr(python_type_name(cls))
        )
        raise ProgramError(words, kind="TypeError")
    cls.namespace[RUNTIME_PROTOCOL] = True
    return cls


# In `typing.Protocol`'s namespace: the class protocols inherit from
PROTOCOL_KEY = " protocol"
# In `typing.TypedDict`'s namespace: the `dict` type its classes make, called
TYPEDDICT_KEY = " typeddict"


def typing_module(library: Library) -> PModule:
    members: dict[str, Any] = {name: Annotation(name) for name in TYPING_NAMES}
    members["TYPE_CHECKING"] = False
    members["cast"] = Builtin("cast", lambda a, k: a[1] if len(a) == 2 and not k else _two())
    members["TypeVar"] = Builtin("TypeVar", lambda a, k: _type_variable("TypeVar", a))
    members["NewType"] = Builtin("NewType", lambda a, k: a[1] if len(a) == 2 else _two())
    members["overload"] = Builtin("overload", lambda a, k: a[0])
    members["final"] = Builtin("final", lambda a, k: a[0])
    members["runtime_checkable"] = Builtin("runtime_checkable", _runtime_checkable)
    for name in ("no_type_check", "no_type_check_decorator"):  # decorators that return it
        members[name] = Builtin(name, lambda a, k: a[0] if len(a) == 1 and not k else _one())
    members["dataclass_transform"] = Builtin(  # `@dataclass_transform()`: changes nothing
        "dataclass_transform", lambda a, k: Builtin("decorator", lambda b, _: b[0])
    )
    members["assert_type"] = Builtin("assert_type", lambda a, k: a[0] if len(a) == 2 else _two())
    members["ParamSpec"] = Builtin("ParamSpec", lambda a, k: _type_variable("ParamSpec", a))
    members["TypeVarTuple"] = Builtin(  # `P = ParamSpec("P")`, as `TypeVar`
        "TypeVarTuple", lambda a, k: _type_variable("TypeVarTuple", a)
    )
    builtins = library.builtins_module
    if builtins is not None:  # `typing.Text` is `str` itself, as in CPython
        members["Text"] = builtins.members["str"]
    members["get_type_hints"] = Builtin(
        "get_type_hints", lambda a, k: get_type_hints(library.machine, a, k)
    )
    members["get_args"] = Builtin("get_args", lambda a, k: typing_args(library, a, k))
    members["get_origin"] = Builtin("get_origin", lambda a, k: _get_origin(library, members, a, k))
    named = PClass("NamedTuple", (), {NAMEDTUPLE_KEY: True})
    named.abstract = Maker(lambda args, kwargs: functional_namedtuple(library, args, kwargs))
    members["NamedTuple"] = named
    if builtins is not None:
        members["TypedDict"] = _typed_dict(library, builtins.members["dict"])
    generic = members["Generic"] = PClass("Generic", (), {})
    protocol = members["Protocol"] = PClass("Protocol", (generic,), {PROTOCOL_KEY: True})
    for made in (generic, protocol):  # `<class 'typing.Generic'>` in an `__mro__`
        library.machine.texts.class_modules[made] = "typing."
    return PModule("typing", members)


def _typed_dict(library: Library, dict_type: Any) -> PClass:
    """`typing.TypedDict`, as CPython's: a class statement of it (`class Cfg(TypedDict):
    lr: float`, `total=False` taken) makes a class whose call makes a plain dict of its
    arguments (`Cfg(lr=0.1)`, `Cfg({'lr': 0.1})`), as does the functional form's
    (`TypedDict('Cfg', {'lr': float})`)."""
    machine = library.machine
    typed = PClass("TypedDict", (), {TYPEDDICT_KEY: dict_type})

    def functional(args: list[Any], kwargs: dict[str, Any]) -> PClass:
        if not args or type(args[0]) is not str or len(args) > 2 or set(kwargs) - {"total"}:
            words = "TypedDict() takes a name, its fields as a dict, and total="
            raise ProgramError(words, kind="TypeError")
        namespace: dict[str, Any] = {TYPEDDICT_KEY: dict_type}
        if len(args) == 2:
            library.collect(args[1])  # (its fields, read as CPython's)
            if type(args[1]) is dict:  # `P.__annotations__`: the fields as given
                namespace[ANNOTATIONS] = list(args[1])
                namespace[ANNOTATIONS_READ] = dict(args[1])
        made = PClass(args[0], (builtin_base(machine, dict, dict_type),), namespace)
        return finish_class(machine, made)

    typed.abstract = Maker(functional)
    return typed


def typing_args(library: Library, args: list[Any], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """`typing.get_args(tp)`: what a subscripted `typing` name was subscripted with, as
    CPython's: a union's members flattened (`objects.union_members`: a `Union` or
    `Optional` inside one gives its own, each once, in order, each read charged),
    `Optional[X]` as `(X, NoneType)`, `int | None` as `(int, NoneType)`; `()` for anything
    else (`int`, `List` bare)."""
    if kwargs or len(args) != 1:
        raise ProgramError("get_args() takes exactly one argument", kind="TypeError")
    hint = args[0]
    if type(hint) is not Annotation or not hint.args:
        return ()
    if hint.name not in ("Union", "Optional", "|"):
        return () if hint.args == ((),) and hint.name in ("tuple", "Tuple") else hint.args
    members = union_members(hint, library.machine.state.charge)
    if all(member is not None for member in members):
        return tuple(members)
    none_type = _none_type(library)  # `Union[int, None]`: None stands for its type
    return tuple(none_type if member is None else member for member in members)


# `get_origin(List[int])` is `list`: typing's aliases of the built-in classes, bare too
_ORIGIN_CLASSES = {
    "List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set",
    "FrozenSet": "frozenset", "Type": "type",
    # CPython's generic aliases of the classes themselves, `list[int]`: not bare
    "list": "list", "dict": "dict", "tuple": "tuple", "set": "set", "frozenset": "frozenset",
    "type": "type",
}  # fmt: skip
# The special forms whose subscription's origin is the form itself (bare: None)
_ORIGIN_FORMS = frozenset(
    {"Union", "Literal", "ClassVar", "Final", "Annotated", "Concatenate", "TypeGuard"}
)


def _get_origin(
    library: Library, members: dict[str, Any], args: list[Any], kwargs: dict[str, Any]
) -> Any:
    """`typing.get_origin(tp)`, as CPython's: `list` of `List[int]` (and of `List`), the
    form of a `Union[...]` (`Optional[X]`'s too), `Literal[...]`, `ClassVar[...]`…;
    `Generic` of itself; a `collections.abc` alias's (`Iterable[int]`) is typing's own
    name here (CPython's is `collections.abc.Iterable`); None for anything else."""
    (hint,) = bound_arguments("get_origin", ("tp",), args, kwargs)  # CPython's TypeErrors
    if hint is members["Generic"] or hint is members["Protocol"]:
        return hint
    if type(hint) is not Annotation:
        return None
    if hint.origin is not None:  # `Batch[int]` of `class Batch(list)`: the class
        return hint.origin
    if hint.name == "|" and hint.args and library.compiler is not None:
        return library.machine.call(library.compiler.builtins["type"], [hint], {})  # UnionType
    name = "Union" if hint.name == "Optional" else hint.name
    builtins = library.builtins_module
    if name in _ORIGIN_CLASSES and builtins is not None:
        return builtins.members[_ORIGIN_CLASSES[name]]
    if name in ABC_CLASS_NAMES and name in members:
        return members[name]
    if name in _ORIGIN_FORMS and hint.args and name in members:
        return members[name]
    return None


def _none_type(library: Library) -> Any:
    """`type(None)`, the program's own (`get_args(Optional[int])[1] is type(None)`)."""
    if library.compiler is None:
        raise ProgramError("get_args() of an Optional is not available here")
    return library.machine.call(library.compiler.builtins["type"], [None], {})


def functional_namedtuple(library: Library, args: list[Any], kwargs: dict[str, Any]) -> PClass:
    """`NamedTuple("Batch", [("inputs", list), ("targets", list)])`, or its fields as
    keywords (`NamedTuple("P", x=int)`): the class `class Batch(NamedTuple)` makes."""
    if not args or type(args[0]) is not str or len(args) > 2 or (len(args) == 2 and kwargs):
        raise ProgramError(
            "NamedTuple() takes a name and its fields, as (name, type) pairs or keywords",
            kind="TypeError",
        )
    pairs = library.collect(args[1]) if len(args) == 2 else list(kwargs.items())
    names: list[str] = []
    for pair in pairs:
        if type(pair) not in (tuple, list) or len(pair) != 2:
            raise ProgramError("NamedTuple() fields are (name, type) pairs", kind="TypeError")
        name = pair[0]
        if type(name) in (int, bool):
            name = str(name)  # CPython's str() of each name, then the identifier test
        if type(name) is not str:
            raise ProgramError("NamedTuple() fields are (name, type) pairs", kind="TypeError")
        names.append(name)
    names = checked_names(library.machine, args[0], names, False)
    return make_namedtuple(library.machine, args[0], names, None)


def _two() -> Any:
    raise ProgramError("this function takes two arguments", kind="TypeError")


def _one() -> Any:
    raise ProgramError("this function takes one argument", kind="TypeError")


def _no_abc_meta(args: list[Any], kwargs: dict[str, Any]) -> Any:
    raise ProgramError(
        "ABCMeta() is not available here: write a class statement with metaclass=ABCMeta",
        kind="TypeError",
    )


# `abc.ABCMeta`, the metaclass: `type(C)` of a class made with it (`metaclass=ABCMeta`, or
# `abc.ABC` a base), as CPython's `<class 'abc.ABCMeta'>`; `isinstance(C, ABCMeta)`.
ABC_META = TypeObject("ABCMeta", _no_abc_meta, (), module="abc.")


def abc_module(library: Library) -> PModule:
    abc_class = PClass("ABC", (), {}, abc=True)
    library.machine.texts.class_modules[abc_class] = "abc."  # `<class 'abc.ABC'>`

    def abstractmethod(args: list[Any], kwargs: dict[str, Any]) -> Any:
        function = args[0] if len(args) == 1 and not kwargs else None
        if type(function) in (PProperty, PStaticMethod, PClassMethod):
            # `@abstractmethod` over `@staticmethod`: CPython 3.11 cannot mark the
            # object (the other order marks the function, which the wrapper reports)
            name = {PProperty: "property", PStaticMethod: "staticmethod"}.get(
                type(function), "classmethod"
            )
            words = f"attribute '__isabstractmethod__' of '{name}' objects is not writable"
            raise ProgramError(words, kind="AttributeError")
        if type(function) is not Function:
            raise ProgramError("@abstractmethod decorates a function", kind="TypeError")
        function.abstract = True
        return function

    return PModule(
        "abc",
        {
            "ABC": abc_class,
            "ABCMeta": ABC_META,
            "abstractmethod": Builtin("abstractmethod", abstractmethod),
        },
    )


def name_of(wrapped: Any) -> str | None:
    """The `__name__` that `functools.wraps(wrapped)` copies, or None (it has none)."""
    if type(wrapped) is BoundMethod:
        wrapped = wrapped.function
    if type(wrapped) in (Function, PClass) or isinstance(wrapped, Builtin):
        return str(getattr(wrapped, "alias", wrapped.name))
    return None


def _partial(m: Any, args: list[Any], kwargs: dict[str, Any]) -> Partial:
    """`functools.partial(func, *args, **keywords)`, as CPython makes it."""
    if not args:
        raise ProgramError("type 'partial' takes at least one argument", kind="TypeError")
    function, *bound = args
    if type(function) is PInstance:
        callable_ = function.cls.lookup("__call__") is not MISSING
    else:
        callable_ = isinstance(function, Builtin | Function | BoundMethod | PClass)
    if not callable_:
        raise ProgramError("the first argument must be callable", kind="TypeError")
    if type(function) is Partial:  # `partial(partial(f, 1), 2)`: CPython's, flattened
        bound = [*function.args, *bound]
        kwargs = {**function.keywords, **kwargs}
        function = function.func
        m.state.check_items(len(bound) + len(kwargs))  # (each copied: a step per ten items)
        m.state.charge((len(bound) + len(kwargs)) // ITEMS_PER_STEP)

    # Its arguments copied into each call, charged as `f(*args, **keywords)`'s are: one of
    # 100,000 called in a loop was 2 s past the time limit, the clock read once in 2,000
    # steps.
    copied = len(bound) // ITEMS_PER_STEP + len(kwargs)

    def call(a: list[Any], k: dict[str, Any]) -> Any:
        if copied:
            m.state.charge(copied)
        return m.call(made.func, [*made.args, *a], {**made.keywords, **k})

    made = Partial(call, function, tuple(bound), dict(kwargs))
    return made


def _partialmethod(m: Any, args: list[Any], kwargs: dict[str, Any]) -> PartialMethod:
    """`functools.partialmethod(func, *args, **keywords)` (old tinygrad registers its ops
    so: `setattr(Tensor, name, partialmethod(fxn.apply, fxn))`): read off an object, a
    method that calls `func(obj, *args, *more)`, as CPython's; `func` a static method,
    `func(*args, *more)`."""
    if not args:
        words = "partialmethod.__init__() missing 1 required positional argument: 'func'"
        raise ProgramError(words, kind="TypeError")
    function, *bound = args
    static = type(function) is PStaticMethod
    if static:
        function = function.function
    if type(function) is PClassMethod:
        raise ProgramError("functools.partialmethod of a classmethod is not available here")
    if type(function) is PInstance:
        callable_ = function.cls.lookup("__call__") is not MISSING
    else:
        callable_ = isinstance(function, Builtin | Function | BoundMethod | PClass)
    if not callable_:
        words = f"{m.texts.to_repr(function)} is not callable or a descriptor"
        raise ProgramError(words, kind="TypeError")
    keywords = dict(kwargs)
    copied = len(bound) // ITEMS_PER_STEP + len(keywords)  # (as `partial`'s)

    def call(a: list[Any], k: dict[str, Any]) -> Any:
        if copied:
            m.state.charge(copied)
        if static:
            return m.call(function, [*bound, *a[1:]], {**keywords, **k})
        return m.call(function, [*a[:1], *bound, *a[1:]], {**keywords, **k})

    method = NativeMethod(getattr(function, "name", "partialmethod"), call, PARTIAL_METHOD)
    original = args[0]  # (the static method itself, as CPython's repr shows it)
    return PartialMethod(method, _not_callable, original, tuple(bound), keywords)


def _not_callable(args: list[Any], kwargs: dict[str, Any]) -> Any:
    """A `functools.partialmethod` called as it is: CPython's TypeError."""
    raise ProgramError("'partialmethod' object is not callable", kind="TypeError")


def functools_module(library: Library) -> PModule:
    m = library.machine
    m.methods[Partial] = {  # `p.func`, `p.args`, `p.keywords` (`Machine.get_attr`)
        "func": lambda p: p.func,
        "args": lambda p: p.args,
        "keywords": lambda p: p.keywords,
    }

    def reduce(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or not 2 <= len(args) <= 3:
            raise ProgramError("reduce() takes a function, an iterable and an initial value")
        function = args[0]
        items = library.items(args[1])
        if len(args) == 3:
            total = args[2]
        else:
            total = next(items, NO_DEFAULT)
            if total is NO_DEFAULT:
                raise ProgramError(
                    "reduce() of empty iterable with no initial value", kind="TypeError"
                )
        for item in items:
            total = m.call(function, [total, item])
        return total

    def decorated(args: list[Any], kwargs: dict[str, Any], name: str, cpython: Any) -> Any:
        """The one function a decorator is given, else CPython's TypeError."""
        if kwargs or len(args) != 1:
            words = f"{name}() decorates one function"
            raise wrong_arguments(words, name, args, kwargs, cpython=cpython)
        return args[0]

    def wraps(args: list[Any], kwargs: dict[str, Any]) -> Builtin:
        """`@wraps(f)`: the wrapper's `__name__` and `__qualname__` are `f`'s, as CPython's
        `update_wrapper` copies them (its code's name, which tracebacks show, stays its
        own; its argument errors and its bound method's repr say `K.g`, as 3.11's)."""
        cpython = functools.wraps(len)
        name = name_of(args[0]) if len(args) == 1 and not kwargs else None
        target = args[0].function if name is not None and type(args[0]) is BoundMethod else None
        target = args[0] if target is None and name is not None else target
        qualname = target.qualname if type(target) is Function else name

        def decorate(a: list[Any], k: dict[str, Any]) -> Any:
            wrapper = decorated(a, k, "update_wrapper", cpython)
            if name is not None and qualname is not None and type(wrapper) is Function:
                _copy_wrapped(wrapper, name, qualname, target)
            return wrapper

        return Builtin("wraps", decorate)

    cache_info = _cache_info_class(m)

    def cache_of(function: Any, maxsize: int | None, typed: bool) -> CachedFunction:
        return CachedFunction(m, function, maxsize, typed, cache_info)

    m.methods[CachedFunction] = CACHED_METHODS

    def lru_cache(args: list[Any], kwargs: dict[str, Any]) -> Builtin:
        """`@lru_cache`, `@lru_cache()`, `@lru_cache(maxsize=None)`, `@lru_cache(10)`,
        `typed=True`: CPython's least-recently-used cache (128 results by default)."""
        cpython = functools.lru_cache(maxsize=None)
        unknown = [key for key in kwargs if key not in ("maxsize", "typed")]
        if unknown or len(args) > 2 or (args and "maxsize" in kwargs):
            words = "lru_cache() takes maxsize and typed"
            raise wrong_arguments(words, "lru_cache", args, kwargs, cpython=functools.lru_cache)
        first = args[0] if args else kwargs.get("maxsize", 128)
        typed = m.truthy(args[1] if len(args) > 1 else kwargs.get("typed", False))
        if type(first) is Function or isinstance(first, Builtin):  # `@lru_cache`
            return cache_of(first, 128, typed)
        if first is not None and type(first) is not int:
            words = "Expected first argument to be an integer, a callable, or None"
            raise ProgramError(words, kind="TypeError")
        maxsize = None if first is None else max(first, 0)
        name = "decorating_function"
        return Builtin(
            "lru_cache", lambda a, k: cache_of(decorated(a, k, name, cpython), maxsize, typed)
        )

    def cache(args: list[Any], kwargs: dict[str, Any]) -> Builtin:
        return cache_of(decorated(args, kwargs, "cache", functools.cache), None, False)

    def cached_property(args: list[Any], kwargs: dict[str, Any]) -> PProperty:
        """`@functools.cached_property`: the first read runs the method and keeps its
        result on the instance, under the method's name, where later reads find it."""
        if kwargs or len(args) != 1 or type(args[0]) is not Function:
            raise ProgramError("cached_property() decorates a method", kind="TypeError")
        function = args[0]
        name = function.name

        def get(a: list[Any], k: dict[str, Any]) -> Any:
            value = m.call(function, [a[0]])
            a[0].attrs[name] = value
            return value

        def put(a: list[Any], k: dict[str, Any]) -> None:
            a[0].attrs[name] = a[1]

        made = PProperty(Builtin(name, get), Builtin(name, put))
        made.data = False  # CPython's is no data descriptor: the kept result hides it
        return made

    return PModule(
        "functools",
        {
            "cached_property": Builtin("cached_property", cached_property),
            "reduce": Builtin("reduce", reduce),
            "partial": TypeObject(
                "partial", functools.partial(_partial, m), (Partial,), module="functools."
            ),
            "partialmethod": Builtin("partialmethod", lambda a, k: _partialmethod(m, a, k)),
            "wraps": Builtin("wraps", wraps),
            "update_wrapper": Builtin("update_wrapper", functools.partial(_update_wrapper, wraps)),
            "lru_cache": Builtin("lru_cache", lru_cache),
            "cache": Builtin("cache", cache),
            "total_ordering": Builtin("total_ordering", lambda a, k: total_ordering(m, a, k)),
            "cmp_to_key": Builtin("cmp_to_key", lambda a, k: cmp_to_key(m, a, k)),
        },
    )


def _update_wrapper(
    wraps: Callable[[list[Any], dict[str, Any]], Builtin], args: list[Any], kwargs: dict[str, Any]
) -> Any:
    """`update_wrapper(wrapper, wrapped)`: what `@wraps(wrapped)` does to `wrapper`."""
    if kwargs or len(args) != 2:
        words = "update_wrapper() takes a wrapper and the function it wraps"
        cpython = functools.update_wrapper
        raise wrong_arguments(words, "update_wrapper", args, kwargs, cpython=cpython)
    return wraps([args[1]], {}).call([args[0]], {})


def cmp_to_key(m: Any, args: list[Any], kwargs: dict[str, Any]) -> Builtin:
    """`functools.cmp_to_key(mycmp)`: a key whose objects compare by `mycmp(a, b)`
    against 0, as CPython's `KeyWrapper`s do (`obj` the wrapped item, unhashable); each
    comparison of two keys is one call of the program's function."""
    if kwargs or len(args) != 1:
        words = "cmp_to_key() takes one function"
        raise wrong_arguments(words, "cmp_to_key", args, kwargs, kind="TypeError")
    compare_items = args[0]
    namespace: dict[str, Any] = {"__hash__": None}
    key_class = PClass("KeyWrapper", (), namespace)

    def ordering(op: str) -> Callable[[list[Any], dict[str, Any]], Any]:
        def call(pair: list[Any], kwargs: dict[str, Any]) -> Any:
            mine, other = pair
            if type(other) is not PInstance or other.cls is not key_class:
                raise ProgramError("other argument must be K instance", kind="TypeError")
            result = m.call(compare_items, [mine.attrs["obj"], other.attrs["obj"]])
            return m.compare(op, result, 0)

        return call

    for name, op in (
        ("__lt__", "<"),
        ("__gt__", ">"),
        ("__le__", "<="),
        ("__ge__", ">="),
        ("__eq__", "=="),
    ):
        method = python_method(f"functools.KeyWrapper.{name}", ("other",), ordering(op))
        namespace[name] = NativeMethod(name, method)

    def key(items: list[Any], kwargs: dict[str, Any]) -> PInstance:
        if kwargs or len(items) != 1:
            raise wrong_arguments("K() takes one object", "K", items, kwargs, kind="TypeError")
        made = PInstance(key_class)
        made.attrs["obj"] = items[0]
        return made

    return Builtin("K", key)


# `functools.total_ordering`'s table, as CPython's: for the one ordering a class defines
# (the greatest name of those it defines), the others made of it, each as
# (name, the operation it asks, what it answers made of that answer `r`): "not r",
# "r or ==" (r, else `self == other`), "r and !=" (r, and `self != other`) and their
# negations.
_ORDERINGS: dict[str, list[tuple[str, str]]] = {
    "__lt__": [("__gt__", "not r and !="), ("__le__", "r or =="), ("__ge__", "not r")],
    "__le__": [("__ge__", "not r or =="), ("__lt__", "r and !="), ("__gt__", "not r")],
    "__gt__": [("__lt__", "not r and !="), ("__ge__", "r or =="), ("__le__", "not r")],
    "__ge__": [("__le__", "not r or =="), ("__gt__", "r and !="), ("__lt__", "not r")],
}


def total_ordering(m: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`@functools.total_ordering`: the orderings a class lacks, made of the one it has,
    as CPython's are (each calls the class's own, then `==` or `!=` where CPython's does)."""
    if kwargs or len(args) != 1:
        raise ProgramError("total_ordering() takes one class", kind="TypeError")
    cls = args[0]
    roots = (
        {op for op in _ORDERINGS if cls.lookup(op) not in (MISSING, None)}
        if type(cls) is PClass
        else set()
    )
    if not roots:
        words = "must define at least one ordering operation: < > <= >="
        failed = ProgramError(words, kind="ValueError")
        failed.args_seen = (words,)
        raise failed
    root = max(roots)
    for name, rule in _ORDERINGS[root]:
        if name not in roots:
            cls.namespace[name] = NativeMethod(
                name, python_method(f"{cls.name}.{name}", ("other",), _derived(m, root, rule))
            )
    return cls


def _derived(m: Any, root: str, rule: str) -> Callable[[list[Any], dict[str, Any]], Any]:
    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        self_, other = args
        r = m.call_dunder(self_, root, other)  # `type(self).__lt__(self, other)`
        if r is NotImplemented:
            return r
        if rule == "not r":
            return not m.truthy(r)
        if rule == "not r and !=":
            return not m.truthy(r) and m.rich_compare("!=", self_, other)
        if rule == "not r or ==":
            return not m.truthy(r) or m.rich_compare("==", self_, other)
        if rule == "r or ==":
            return r if m.truthy(r) else m.rich_compare("==", self_, other)
        return m.rich_compare("!=", self_, other) if m.truthy(r) else r  # "r and !="

    return call


def function_name(function: Any) -> str:
    """A cached function's name, read from the interpreter's own objects only."""
    return function.name if isinstance(function, Builtin | Function) else "function"


def program_attribute(obj: Any, name: str) -> str:
    """`name`, read off `obj` by `attrgetter` or `methodcaller`: none of the entries the
    interpreter keeps under names no attribute can have (a dataclass's `' fields'`), as
    `getattr` refuses them; CPython's AttributeError, which has no such attribute."""
    if name.isidentifier():
        return name
    if type(obj) is PClass:
        words = f"type object '{obj.name}' has no attribute '{name}'"
    else:
        words = f"'{cpython_type(obj)}' object has no attribute '{name}'"
    failed = ProgramError(words, kind="AttributeError")
    failed.args_seen = (words,)
    raise failed


def operator_module(library: Library) -> PModule:
    m = library.machine
    members: dict[str, Any] = {}
    for name, op in (
        ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
        ("mod", "%"), ("pow", "**"),
    ):  # fmt: skip
        members[name] = Builtin(f"operator.{name}", _binary(m.binary, op, name))
    for name, op in (
        ("eq", "=="),
        ("ne", "!="),
        ("lt", "<"),
        ("le", "<="),
        ("gt", ">"),
        ("ge", ">="),
    ):
        members[name] = Builtin(f"operator.{name}", _binary(m.rich_compare, op, name))

    def single(args: list[Any], kwargs: dict[str, Any], name: str, cpython: Any) -> Any:
        """The one argument a function of `operator` (or one it made) takes."""
        if kwargs or len(args) != 1:
            words = f"{name}() takes exactly one argument"
            raise wrong_arguments(words, name, args, kwargs, cpython=cpython)
        return args[0]

    members["neg"] = Builtin(
        "operator.neg", lambda a, k: m.unary("-", single(a, k, "neg", operator.neg))
    )
    members["pos"] = Builtin(
        "operator.pos", lambda a, k: m.unary("+", single(a, k, "pos", operator.pos))
    )

    def itemgetter(args: list[Any], kwargs: dict[str, Any]) -> Builtin:
        keys = list(args)
        getter = operator.itemgetter(0)  # asked for CPython's words only

        def item(a: list[Any], k: dict[str, Any]) -> Any:
            obj = single(a, k, "itemgetter", getter)
            if len(keys) == 1:
                return m.get_item(obj, keys[0])
            # each key looked up, charged: `itemgetter(*range(100_000))` called in a loop
            # was 0.1 s a call for one step, and the clock is read once in 2,000 steps
            library.state.charge(len(keys))
            return tuple(m.get_item(obj, key) for key in keys)

        return Builtin("itemgetter", item)

    def attrgetter(args: list[Any], kwargs: dict[str, Any]) -> Builtin:
        for name in args:
            if type(name) is not str:
                raise ProgramError("attribute name must be a string", kind="TypeError")
        paths = [name.split(".") for name in args]  # `attrgetter('b.c')`, as CPython's
        if any(part.startswith("__") for path in paths for part in path):
            raise ProgramError("attrgetter() takes no dunder names here")
        getter = operator.attrgetter("x")  # asked for CPython's words only
        # a step per attribute read past the first, at each call: one dotted name of
        # 5,000 parts was 5,000 reads for one step, a loop of it bounded by the clock only
        parts = sum(map(len, paths))

        def follow(obj: Any, path: list[str]) -> Any:
            for part in path:
                obj = m.get_attr(obj, program_attribute(obj, part))
            return obj

        def attribute(a: list[Any], k: dict[str, Any]) -> Any:
            obj = single(a, k, "attrgetter", getter)
            if parts > 1:
                library.state.charge(parts)  # (as `itemgetter`'s keys)
            if len(paths) == 1:
                return follow(obj, paths[0])
            return tuple(follow(obj, path) for path in paths)

        return Builtin("attrgetter", attribute)

    def methodcaller(args: list[Any], kwargs: dict[str, Any]) -> Builtin:
        """`methodcaller('split', ',')`: what calls that method of its one argument with
        those arguments, as CPython's (not of a dunder name here)."""
        if not args:
            words = "methodcaller needs at least one argument, the method name"
            raise ProgramError(words, kind="TypeError")
        name, given, named = args[0], list(args[1:]), dict(kwargs)
        if type(name) is not str:
            raise ProgramError("method name must be a string", kind="TypeError")
        if name.startswith("__"):
            raise ProgramError("methodcaller() takes no dunder names here")
        caller = operator.methodcaller("x")  # asked for CPython's words only

        copied = len(given) // ITEMS_PER_STEP + len(named)  # (as `partial`'s)

        def call(a: list[Any], k: dict[str, Any]) -> Any:
            if copied:
                library.state.charge(copied)
            obj = single(a, k, "methodcaller", caller)
            method = m.get_attr(obj, program_attribute(obj, name))
            return m.call(method, list(given), dict(named) or None)

        return Builtin("methodcaller", call)

    members["itemgetter"] = Builtin("operator.itemgetter", itemgetter)
    members["attrgetter"] = Builtin("operator.attrgetter", attrgetter)
    members["methodcaller"] = Builtin("operator.methodcaller", methodcaller)
    members.update(_operator_more(library, single))
    return PModule("operator", members)


def _operator_more(
    library: Library, single: Callable[[list[Any], dict[str, Any], str, Any], Any]
) -> dict[str, Builtin]:
    """The rest of `operator`'s arithmetic, bitwise, logical and sequence functions
    (SPEC §15), each the machine's own operator as the program's would run it:
    `and_`, `or_`, `xor`, `lshift`, `rshift`, `abs`, `invert`/`inv`, `not_`, `truth`,
    `is_`, `is_not`, `contains`, `concat`, `index`."""
    m = library.machine
    members: dict[str, Builtin] = {}
    for name, op in (("and_", "&"), ("or_", "|"), ("xor", "^"), ("lshift", "<<"), ("rshift", ">>")):
        members[name] = Builtin(f"operator.{name}", _binary(m.binary, op, name))
    for name, op in (("is_", "is"), ("is_not", "is not")):
        members[name] = Builtin(f"operator.{name}", _binary(m.rich_compare, op, name))

    def one_of(name: str, apply: Callable[[Any], Any]) -> Builtin:
        cpython = getattr(operator, name)
        return Builtin(f"operator.{name}", lambda a, k: apply(single(a, k, name, cpython)))

    members["abs"] = one_of("abs", lambda x: library.abs_([x], {}))
    members["invert"] = one_of("invert", lambda x: m.unary("~", x))
    members["inv"] = one_of("inv", lambda x: m.unary("~", x))
    members["not_"] = one_of("not_", lambda x: not m.truthy(x))
    members["truth"] = one_of("truth", m.truthy)
    members["index"] = one_of("index", lambda x: _index(m, x))

    def contains(args: list[Any], kwargs: dict[str, Any]) -> bool:
        if kwargs or len(args) != 2:
            words = "this operator takes two arguments (in)"
            raise wrong_arguments(
                words, "contains", args, kwargs, kind="TypeError", cpython=operator.contains
            )
        return m.contains(args[0], args[1])

    def concat(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or len(args) != 2:
            words = "this operator takes two arguments (+)"
            raise wrong_arguments(
                words, "concat", args, kwargs, kind="TypeError", cpython=operator.concat
            )
        return m.binary("+", _sequence_to_concatenate(args[0]), args[1])

    members["contains"] = Builtin("operator.contains", contains)
    members["concat"] = Builtin("operator.concat", concat)
    members["matmul"] = Builtin("operator.matmul", _binary(m.binary, "@", "matmul"))
    members.update(_operator_in_place(library))
    members.update(_operator_items(library))
    return members


_IN_PLACE_OPERATORS = (
    ("iadd", "+"), ("isub", "-"), ("imul", "*"), ("itruediv", "/"), ("ifloordiv", "//"),
    ("imod", "%"), ("ipow", "**"), ("iand", "&"), ("ior", "|"), ("ixor", "^"),
    ("ilshift", "<<"), ("irshift", ">>"), ("imatmul", "@"),
)  # fmt: skip


def _operator_in_place(library: Library) -> dict[str, Builtin]:
    """`operator.iadd(a, b)` and the others: `a += b` as the program's statement runs it
    (a list extended in place, an object's own `__iadd__`), its result returned.
    `iconcat` is `iadd` of a sequence only, as `concat` is `add`'s."""
    made: dict[str, Builtin] = {}
    for name, op in _IN_PLACE_OPERATORS:

        def call(args: list[Any], kwargs: dict[str, Any], name: str = name, op: str = op) -> Any:
            if kwargs or len(args) != 2:
                words = f"this operator takes two arguments ({op}=)"
                cpython = getattr(operator, name)
                raise wrong_arguments(words, name, args, kwargs, kind="TypeError", cpython=cpython)
            return library.compiler.in_place(op)(op, args[0], args[1])

        made[name] = Builtin(f"operator.{name}", call)
    iadd = made["iadd"]

    def iconcat(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if args:
            _sequence_to_concatenate(args[0])
        return iadd.call(args, kwargs)

    made["iconcat"] = Builtin("operator.iconcat", iconcat)
    return made


def _operator_items(library: Library) -> dict[str, Builtin]:
    """`operator`'s item functions: `getitem`, `setitem`, `delitem`, `countOf`,
    `indexOf` (by `is` or `==`, as CPython's) and 3.11's `call`."""
    m = library.machine

    def arguments(args: list[Any], kwargs: dict[str, Any], name: str, count: int) -> list[Any]:
        if kwargs or len(args) != count:
            words = f"operator.{name}() takes {count} arguments"
            cpython = getattr(operator, name)
            raise wrong_arguments(words, name, args, kwargs, kind="TypeError", cpython=cpython)
        return args

    def count_of(args: list[Any], kwargs: dict[str, Any]) -> int:
        items, wanted = arguments(args, kwargs, "countOf", 2)
        found = library.collect(items)
        return sum(1 for item in found if item is wanted or m.compare("==", item, wanted))

    def index_of(args: list[Any], kwargs: dict[str, Any]) -> int:
        items, wanted = arguments(args, kwargs, "indexOf", 2)
        for i, item in enumerate(library.collect(items)):
            if item is wanted or m.compare("==", item, wanted):
                return i
        raise caught_as(
            "operator.indexOf(): the item is not in the sequence",
            ValueError("sequence.index(x): x not in sequence"),
        )

    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not args:
            arguments(args, kwargs, "call", 1)
        return m.call(args[0], list(args[1:]), dict(kwargs) or None)

    return {
        "getitem": Builtin(
            "operator.getitem", lambda a, k: m.get_item(*arguments(a, k, "getitem", 2))
        ),
        "setitem": Builtin(
            "operator.setitem", lambda a, k: m.set_item(*arguments(a, k, "setitem", 3))
        ),
        "delitem": Builtin(
            "operator.delitem", lambda a, k: m.del_item(*arguments(a, k, "delitem", 2))
        ),
        "countOf": Builtin("operator.countOf", count_of),
        "indexOf": Builtin("operator.indexOf", index_of),
        "call": Builtin("operator.call", call),
    }


def _sequence_to_concatenate(first: Any) -> Any:
    """The first argument of `operator.concat` or `iconcat`, which must be a sequence;
    CPython's TypeError for anything else."""
    if type(first) not in (list, tuple, str) and not (
        type(first) is PInstance and first.cls.lookup("__getitem__") is not MISSING
    ):
        words = f"'{cpython_type(first)}' object can't be concatenated"
        failed = ProgramError(words, kind="TypeError")
        failed.args_seen = (words,)
        raise failed
    return first


def _index(m: Any, value: Any) -> Any:
    """`operator.index(x)`: an int (a bool's as an int), or what the program's
    `__index__` gives; CPython's TypeError for anything else."""
    if type(value) is int or type(value) is bool:
        return int(value)
    if type(value) is PInstance:
        result = m.call_dunder(value, "__index__")
        if type(result) is int:
            return result
        if result is not NO_METHOD:
            words = f"__index__ returned non-int (type {cpython_type(result)})"
            failed = ProgramError(words, kind="TypeError")
            failed.args_seen = (words,)
            raise failed
    words = f"'{cpython_type(value)}' object cannot be interpreted as an integer"
    failed = ProgramError(words, kind="TypeError")
    failed.args_seen = (words,)
    raise failed


class CachedFunction(Builtin):
    """A function `functools.lru_cache` (or `cache`) wraps, as CPython's: a result kept
    for each arguments (their order, keywords by name and in order; their types too when
    `typed`), at most `maxsize` of them (None: all), the least recently used dropped
    first; `cache_info()` and `cache_clear()` (`Machine.methods`). Each call is charged
    as a call; every result kept was a call's."""

    __slots__ = ("hits", "info", "m", "maxsize", "misses", "seen", "typed", "wrapped")

    def __init__(
        self, m: Any, wrapped: Any, maxsize: int | None, typed: bool, info: Callable[[], PClass]
    ) -> None:
        super().__init__(function_name(wrapped), self.run)
        self.m = m
        self.wrapped = wrapped
        self.maxsize = maxsize
        self.typed = typed
        self.info = info
        self.seen: dict[Any, Any] = {}
        self.hits = self.misses = 0

    def key(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        key: tuple[Any, ...] = (*args, KEYWORDS, *kwargs.items()) if kwargs else tuple(args)
        if self.typed:
            values = [*args, *kwargs.values()]
            key += tuple((type(v), v.cls if type(v) is PInstance else None) for v in values)
        # The walk hashing it takes, charged (and its nesting bounded) before it hashes.
        self.m.state.charge_walk((tuple(args), tuple(kwargs.items())))
        for value in (*args, *kwargs.values()):
            self.m.key(value)  # an unhashable argument: CPython's TypeError
        try:
            hash(key)  # (a program's `__hash__` runs here, as CPython's)
        except TypeError:  # a list inside a tuple
            raise ProgramError("a cached function's arguments must be hashable") from None
        return key

    def run(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        m, seen, maxsize = self.m, self.seen, self.maxsize
        if maxsize == 0:
            self.misses += 1
            return m.call(self.wrapped, args, kwargs)
        key = self.key(args, kwargs)
        if key in seen:
            self.hits += 1
            result = seen[key]
            if maxsize is not None:  # now the most recently used
                del seen[key]
                seen[key] = result
            return result
        self.misses += 1
        result = m.call(self.wrapped, args, kwargs)
        if maxsize is None:
            seen[key] = result
        elif key not in seen:  # (a recursive call may have kept it meanwhile: left be)
            if len(seen) >= maxsize:
                del seen[next(iter(seen))]
            seen[key] = result
        return result

    def cache_info(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if args or kwargs:
            raise no_arguments("cache_info", args, kwargs)
        counts = [self.hits, self.misses, self.maxsize, len(self.seen)]
        return self.m.call(self.info(), counts)

    def cache_clear(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        if args or kwargs:
            raise no_arguments("cache_clear", args, kwargs)
        self.state_charge(len(self.seen))
        self.seen.clear()
        self.hits = self.misses = 0

    def cache_parameters(self, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        if args or kwargs:
            bound_arguments("lru_cache.<locals>.<lambda>", (), args, kwargs)  # CPython's
        return {"maxsize": self.maxsize, "typed": self.typed}

    def state_charge(self, items: int) -> None:
        self.m.state.charge(items // ITEMS_PER_STEP)


def no_arguments(name: str, args: list[Any], kwargs: dict[str, Any]) -> ProgramError:
    """CPython's words for a cached function's method given arguments."""
    if kwargs:
        words = f"_lru_cache_wrapper.{name}() takes no keyword arguments"
    else:
        words = f"_lru_cache_wrapper.{name}() takes no arguments ({len(args)} given)"
    return ProgramError(words, kind="TypeError")


KEYWORDS: Any = Inert("keywords")  # between a cache key's arguments and its keywords


def _cache_info_class(m: Any) -> Callable[[], PClass]:
    """What gives the named tuple class `CacheInfo`, made when first asked for."""
    made: list[PClass] = []

    def cache_info() -> PClass:
        if not made:
            fields = ["hits", "misses", "maxsize", "currsize"]
            made.append(make_namedtuple(m, "CacheInfo", fields, None))
        return made[0]

    return cache_info


def _cached_method(name: str) -> Callable[[Any], Builtin]:
    """`f.cache_info` (or `cache_clear`, `cache_parameters`) of a cached function `f`."""
    return lambda f: Builtin(name, getattr(f, name))


CACHED_METHODS: dict[str, Callable[[Any], Builtin]] = {
    name: _cached_method(name) for name in ("cache_info", "cache_clear", "cache_parameters")
}


def _binary(apply: Callable[[str, Any, Any], Any], op: str, name: str) -> Call:
    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or len(args) != 2:
            words = f"this operator takes two arguments ({op})"
            cpython = getattr(operator, name)
            raise wrong_arguments(words, name, args, kwargs, kind="TypeError", cpython=cpython)
        return apply(op, args[0], args[1])

    return call


def itertools_module(library: Library) -> PModule:
    """The finite iterators: their inputs read into lists (a step per item), their
    outputs made lazily, a step per item the program takes."""
    m = library.machine

    def lazy(name: str, make: Callable[..., Iterator[Any]]) -> Call:
        """`make` run on the program's arguments, once they fit its parameters (as they
        fit CPython's `itertools.<name>`; else CPython's TypeError, in its words)."""
        parameters = inspect.signature(make)

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            try:
                parameters.bind(*args, **kwargs)
            except TypeError:
                words = f"itertools.{name}() cannot take these arguments"
                cpython = getattr(itertools, name)
                raise wrong_arguments(words, name, args, kwargs, cpython=cpython) from None
            made = make(*args, **kwargs)
            return made if type(made) in ENDLESS else _generator(made)

        return call

    def pools(iterables: tuple[Any, ...]) -> list[list[Any]]:
        return [library.collect(iterable) for iterable in iterables]

    def product(*iterables: Any, repeat: int = 1) -> Iterator[Any]:
        if type(repeat) is not int or not 0 <= repeat <= 64:
            raise ProgramError("product()'s repeat must be a small integer")
        return itertools.product(*pools(iterables), repeat=repeat)

    def accumulate(iterable: Any, func: Any = None, *, initial: Any = None) -> Iterator[Any]:
        items = library.collect(iterable)

        def run() -> Iterator[Any]:
            total = initial
            first = initial is None
            if not first:
                yield total
            for item in items:
                if first:
                    total, first = item, False
                elif func is None:
                    total = m.binary("+", total, item)
                else:
                    total = m.call(func, [total, item])
                yield total

        return run()

    def starmap(function: Any, iterable: Any) -> Iterator[Any]:
        return (m.call(function, list(m.iterate(args))) for args in library.collect(iterable))

    def repeat(value: Any, *times: Any) -> Iterator[Any]:
        return _repeat(value, *times)

    def tee(iterable: Any, n: Any = 2) -> tuple[Iterator[Any], ...]:
        return _tee(library, iterable, n)

    def islice(iterable: Any, *bounds: Any) -> Iterator[Any]:
        return _islice(library, iterable, *bounds)

    def zip_longest(*iterables: Any, fillvalue: Any = None) -> Iterator[Any]:
        return itertools.zip_longest(*pools(iterables), fillvalue=fillvalue)

    def chain(*iterables: Any) -> Iterator[Any]:
        return itertools.chain.from_iterable(pools(iterables))

    def count(start: Any = 0, step: Any = 1) -> Iterator[Any]:
        # Endless, but lazy: each number is a step of the program that takes it.
        if not all(type(n) in (int, float, bool) for n in (start, step)):
            raise ProgramError("count() takes numbers", kind="TypeError")
        return itertools.count(start, step)

    def tee_call(args: list[Any], kwargs: dict[str, Any]) -> tuple[Iterator[Any], ...]:
        if kwargs or not 1 <= len(args) <= 2:
            words = "itertools.tee() takes an iterable and a count"
            raise wrong_arguments(words, "tee", args, kwargs, cpython=itertools.tee)
        return tee(*args)

    members: dict[str, Any] = {
        "count": Builtin("itertools.count", lazy("count", count)),
        "product": Builtin("itertools.product", lazy("product", product)),
        "accumulate": Builtin("itertools.accumulate", lazy("accumulate", accumulate)),
        "starmap": Builtin("itertools.starmap", lazy("starmap", starmap)),
        "repeat": Builtin("itertools.repeat", lazy("repeat", repeat)),
        "tee": Builtin("itertools.tee", tee_call),
        "islice": Builtin("itertools.islice", lazy("islice", islice)),
        "zip_longest": Builtin("itertools.zip_longest", lazy("zip_longest", zip_longest)),
        "chain": TypeObject("itertools.chain", lazy("chain", chain), ()),
        **{
            name: Builtin(f"itertools.{name}", lazy(name, functools.partial(make, m, library)))
            for name, make in _MORE_ITERTOOLS.items()
        },
    }
    members["chain"].members["from_iterable"] = Builtin(
        "itertools.chain.from_iterable",
        # Each item taken as a call, as islice's: one nested 20,000 deep recursed through
        # Python's frames to its RecursionError and back, 6 s past any deadline.
        lambda args, kwargs: _generator(
            _nested(_from_iterable(library, _one_iterable(args, kwargs)), library.state)
        ),
    )
    return PModule("itertools", members)


def _islice(library: Library, iterable: Any, *bounds: Any) -> Iterator[Any]:
    """`itertools.islice`, lazy over its source."""
    if len(bounds) > 3:
        args = [iterable, *bounds]
        words = "itertools.islice() takes an iterable and at most three bounds"
        raise wrong_arguments(words, "islice", args, {}, cpython=itertools.islice)
    bounds = tuple(library.index(b) if type(b) is PInstance else b for b in bounds)
    if not all(b is None or type(b) is int for b in bounds):
        raise ProgramError("islice() takes integer bounds", kind="ValueError")
    # Lazy over a lazy source (`islice(count(), 10)`), so each item it takes counts as
    # a call, as a generator's resumption does: an islice of an islice of ... (or of
    # the program's generators) 100,000 deep would recurse in C past any stack.
    try:
        sliced = itertools.islice(library.items(iterable), *bounds)
    except ValueError as error:  # a negative bound: CPython's ValueError and words
        raise caught_as(f"itertools.islice(): {error}", error) from None
    return _nested(sliced, library.state)


def _repeat(value: Any, *times: Any) -> Iterator[Any]:
    """`repeat(x)`: without a count endless, but lazy, as `count()`: each item a step of
    the program that takes it."""
    if len(times) > 1:
        args = [value, *times]
        words = "repeat() takes at most 2 arguments"
        raise wrong_arguments(words, "repeat", args, {}, cpython=itertools.repeat)
    if not times:
        return itertools.repeat(value)
    if type(times[0]) is not int and type(times[0]) is not bool:
        words = f"'{python_type_name(times[0])}' object cannot be interpreted as an integer"
        raise ProgramError(words, kind="TypeError")
    return itertools.repeat(value, _c_size(times[0]))


def _c_size(n: int) -> int:
    """A count CPython's C code holds in a `Py_ssize_t` (`repeat`'s, `tee`'s): past
    one, its OverflowError, a program's to catch."""
    if not -(2**63) <= n < 2**63:
        words = "Python int too large to convert to C ssize_t"
        failed = ProgramError(words, kind="OverflowError")
        failed.args_seen = (words,)
        raise failed
    return n


def _tee(library: Library, iterable: Any, n: Any) -> tuple[Iterator[Any], ...]:
    """`a, b = tee(xs)`: `n` iterators over one lazy source, each item taken from it
    once (as a call: a tee of a tee of ... nests), kept until every one of them has had
    it, as CPython's."""
    if type(n) is not int and type(n) is not bool:
        words = f"'{python_type_name(n)}' object cannot be interpreted as an integer"
        raise ProgramError(words, kind="TypeError")
    if _c_size(n) < 0:
        raise ProgramError("n must be >= 0", kind="ValueError")
    library.state.check_items(n)  # (and charged for them)
    first = library.machine.iterate(iterable)  # at once, as CPython's `iter()`
    source = _nested(library.items(first), library.state)
    return tuple(_generator(one) for one in itertools.tee(source, n))


def _one_iterable(args: list[Any], kwargs: dict[str, Any]) -> Any:
    if kwargs or len(args) != 1:
        words = f"chain.from_iterable() takes exactly one argument ({len(args)} given)"
        failed = ProgramError(words, kind="TypeError")
        failed.args_seen = (words,)
        raise failed
    return args[0]


def _from_iterable(library: Library, iterables: Any) -> Iterator[Any]:
    for iterable in library.items(iterables):  # lazily, as CPython's
        yield from library.items(iterable)


# takewhile, dropwhile and filterfalse take each item as a call (`_nested`), as islice:
# one of one of ... 20,000 deep recursed through Python's frames to its RecursionError
# and back, a minute past any deadline.
def _takewhile(m: Any, library: Library, predicate: Any, iterable: Any) -> Iterator[Any]:
    for item in _nested(library.items(iterable), library.state):
        if not m.truthy(m.call(predicate, [item])):
            return
        yield item


def _dropwhile(m: Any, library: Library, predicate: Any, iterable: Any) -> Iterator[Any]:
    dropping = True
    for item in _nested(library.items(iterable), library.state):
        if dropping and m.truthy(m.call(predicate, [item])):
            continue
        dropping = False
        yield item


def _filterfalse(m: Any, library: Library, predicate: Any, iterable: Any) -> Iterator[Any]:
    for item in _nested(library.items(iterable), library.state):
        if not m.truthy(item if predicate is None else m.call(predicate, [item])):
            yield item


def _compress(m: Any, library: Library, data: Any, selectors: Any) -> Iterator[Any]:
    # Each item taken as a call (`_nested`), as `chain.from_iterable`'s.
    pairs = zip(library.items(data), library.items(selectors), strict=False)
    for item, chosen in _nested(pairs, library.state):
        if m.truthy(chosen):
            yield item


def _cycle(m: Any, library: Library, iterable: Any) -> Iterator[Any]:
    # Endless, but lazy: each item is a step of the program that takes it. What it cycles
    # is read as a call (`_nested`): a cycle of a cycle of ... is nested calls.
    items = library.collect(_nested(library.machine.iterate(iterable), library.state))
    while items:
        yield from items


class _GroupBy:
    """`itertools.groupby` as CPython's C code runs it: one iterator shared by the
    groups, so a group read after the next one was asked for is empty; the keys compared
    with the program's `==` (the group's key first, identity first as CPython's)."""

    def __init__(self, m: Any, library: Library, iterable: Any, key: Any) -> None:
        self.m = m
        self.items = library.items(iterable)
        self.key = key
        self.has_key = self.has_value = self.has_target = False
        self.current_key: Any = None
        self.current: Any = None
        self.target: Any = None
        self.turn = 0  # which group may still give items

    def step(self) -> bool:
        try:
            value = next(self.items)
        except StopIteration:
            return False
        key = value if self.key is None else self.m.call(self.key, [value])
        self.current, self.current_key = value, key
        self.has_value = self.has_key = True
        return True

    def equal(self, target: Any) -> bool:
        return target is self.current_key or self.m.compare("==", target, self.current_key)

    def groups(self) -> Iterator[Any]:
        while True:
            self.turn += 1
            while not self.has_key or (self.has_target and self.equal(self.target)):
                if not self.step():
                    return
            self.target, self.has_target = self.current_key, True
            yield (self.target, _generator(self.group(self.target, self.turn)))

    def group(self, target: Any, turn: int) -> Iterator[Any]:
        while self.turn == turn:
            if not self.has_value and not self.step():
                return
            if not self.equal(target):
                return
            self.has_value = False
            yield self.current


def _groupby(m: Any, library: Library, iterable: Any, key: Any = None) -> Iterator[Any]:
    return _GroupBy(m, library, iterable, key).groups()


def _combinations(m: Any, library: Library, iterable: Any, r: Any) -> Iterator[Any]:
    return itertools.combinations(library.collect(iterable), _small(r))


def _combinations_with_replacement(
    m: Any, library: Library, iterable: Any, r: Any
) -> Iterator[Any]:
    return itertools.combinations_with_replacement(library.collect(iterable), _small(r))


def _permutations(m: Any, library: Library, iterable: Any, r: Any = None) -> Iterator[Any]:
    return itertools.permutations(library.collect(iterable), None if r is None else _small(r))


def _pairwise(m: Any, library: Library, iterable: Any) -> Iterator[Any]:
    return itertools.pairwise(library.collect(iterable))


# The finite iterators made here lazily (each item a step of the program that takes it).
_MORE_ITERTOOLS: dict[str, Callable[..., Iterator[Any]]] = {
    "combinations": _combinations,
    "combinations_with_replacement": _combinations_with_replacement,
    "permutations": _permutations,
    "pairwise": _pairwise,
    "groupby": _groupby,
    "takewhile": _takewhile,
    "dropwhile": _dropwhile,
    "filterfalse": _filterfalse,
    "compress": _compress,
    "cycle": _cycle,
}


def _small(r: Any) -> int:
    if type(r) is not int or not 0 <= r <= 64:
        raise ProgramError("this length must be a small non-negative integer", kind="ValueError")
    return r


def _generator(iterator: Iterator[Any]) -> Iterator[Any]:
    """A Python iterator as a generator the machine iterates (never a chain of C ones)."""
    yield from iterator


def _nested(iterator: Iterator[Any], state: State) -> Iterator[Any]:
    """`iterator`'s items, each taken as a call (`BACKPROP_MAX_CALL_DEPTH`): a lazy
    built-in over another lazy iterable nests on Python's C stack as a call does. They
    nest at most BACKPROP_MAX_CALL_DEPTH deep, whatever recursion limit the program
    sets (`State.lazy_depth`): an error raised 4,000 of them deep took 4 s to unwind."""
    while True:
        state.depth += 1
        state.lazy_depth += 1
        try:
            if state.depth > state.max_call_depth:
                raise too_deep(state, _LAZY_TOO_DEEP)
            if state.lazy_depth > state.limits.max_call_depth:
                raise too_deep(state, _LAZY_TOO_DEEP, fixed=True)
            item = next(iterator, _END)
        finally:
            state.depth -= 1
            state.lazy_depth -= 1
        if item is _END:
            return
        yield item


_END: Any = object()
_LAZY_TOO_DEEP = "iterators are nested too deeply (islice of islice ...)"


def dataclasses_module(library: Library) -> PModule:
    m = library.machine

    def field(args: list[Any], kwargs: dict[str, Any]) -> Field:
        if args:
            raise ProgramError("field() takes keyword arguments only", kind="TypeError")
        default = kwargs.pop("default", NO_DEFAULT)
        factory = kwargs.pop("default_factory", None)
        shown = m.truthy(kwargs.pop("repr", True))
        compared = m.truthy(kwargs.pop("compare", True))
        taken = m.truthy(kwargs.pop("init", True))
        for name in kwargs:
            if name not in ("hash", "metadata", "kw_only"):
                raise ProgramError(f"field() got an unexpected keyword argument '{name}'")
        if default is not NO_DEFAULT and factory is not None:
            raise ProgramError("cannot specify both default and default_factory", kind="ValueError")
        made = Field(default, factory, shown, compared, taken)
        if "kw_only" in kwargs:
            made.kw_only = m.truthy(kwargs["kw_only"])
        return made

    def dataclass(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if len(args) == 1 and type(args[0]) is PClass and not kwargs:
            return make_dataclass(m, args[0], {})
        options = dict(kwargs)
        return Builtin("dataclass", lambda a, k: make_dataclass(m, a[0], options))

    plain = _Plain(library)

    def converter(name: str, factory_name: str) -> Call:
        """`asdict(obj, dict_factory=dict)` or `astuple(obj, tuple_factory=tuple)`."""

        def convert(args: list[Any], kwargs: dict[str, Any]) -> Any:
            factory = kwargs.pop(factory_name, None)
            if len(args) != 1 or kwargs:
                words = f"{name}() takes 1 positional argument and {factory_name} only"
                raise ProgramError(words, kind="TypeError")
            if not is_dataclass_instance(args[0]):
                words = f"{name}() should be called on dataclass instances"
                raise ProgramError(words, kind="TypeError")
            return plain.convert(args[0], name == "asdict", factory, 0)

        return convert

    def fields(args: list[Any], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        if len(args) != 1 or kwargs:
            raise ProgramError("fields() takes 1 positional argument", kind="TypeError")
        cls = args[0].cls if type(args[0]) is PInstance else args[0]
        if type(cls) is not PClass or cls.lookup(FIELDS) is MISSING:
            words = "must be called with a dataclass type or instance"
            raise ProgramError(words, kind="TypeError")
        return field_objects(cls, field_class)

    def is_dataclass(args: list[Any], kwargs: dict[str, Any]) -> bool:
        if len(args) != 1 or kwargs:
            raise ProgramError("is_dataclass() takes 1 positional argument", kind="TypeError")
        cls = args[0].cls if type(args[0]) is PInstance else args[0]
        return type(cls) is PClass and cls.lookup(FIELDS) is not MISSING

    def replace(args: list[Any], kwargs: dict[str, Any]) -> Any:
        return dataclass_replace(m, args, kwargs)

    field_class = PClass("Field", (), {})
    return PModule(
        "dataclasses",
        {
            "dataclass": Builtin("dataclass", dataclass),
            "field": Builtin("field", field),
            "fields": Builtin("fields", fields),
            "asdict": Builtin("asdict", converter("asdict", "dict_factory")),
            "astuple": Builtin("astuple", converter("astuple", "tuple_factory")),
            "replace": Builtin("replace", replace),
            "is_dataclass": Builtin("is_dataclass", is_dataclass),
            "Field": field_class,
            "InitVar": Annotation("InitVar"),
            "KW_ONLY": Annotation("KW_ONLY"),
            "MISSING": NO_DEFAULT,
            "FrozenInstanceError": m.exceptions["FrozenInstanceError"],
        },
    )


def dataclass_replace(m: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`replace(obj, x=1)`: a new object of obj's class, made from obj's fields
    `__init__` takes (read as attributes) and the changes, through the class's own
    `__init__`, as CPython makes it."""
    if len(args) != 1:
        raise ProgramError("replace() takes 1 positional argument", kind="TypeError")
    if not is_dataclass_instance(args[0]):
        words = "replace() should be called on dataclass instances"
        raise ProgramError(words, kind="TypeError")
    changes = dict(kwargs)
    kept = dict(args[0].cls.lookup(FIELDS))
    for name, default in args[0].cls.lookup(INIT_FIELDS):
        if name not in changes and name not in kept:
            if _required(default):  # an InitVar, which the object does not keep
                words = f"InitVar {name!r} must be specified with replace()"
                raise ProgramError(words, kind="ValueError")
            changes[name] = m.get_attr(args[0], name)  # its default, the class's
    for name, default in args[0].cls.lookup(FIELDS):
        if type(default) is Field and not default.init:
            if name in changes:
                words = (
                    f"field {name} is declared with init=False, "
                    "it cannot be specified with replace()"
                )
                raise ProgramError(words, kind="ValueError")
            continue
        if name not in changes:
            changes[name] = m.get_attr(args[0], name)
    return m.call(args[0].cls, [], changes)


def is_dataclass_instance(value: Any) -> bool:
    return type(value) is PInstance and value.cls.lookup(FIELDS) is not MISSING


# Where a dataclass keeps the `Field` objects `dataclasses.fields` gave (the same each
# time, as CPython's).
FIELD_OBJECTS = " field objects"


def field_objects(cls: PClass, field_class: PClass) -> tuple[Any, ...]:
    """`dataclasses.fields(cls)`: a `Field` object of each field, with CPython's
    attributes but its `type` (annotations are not evaluated here)."""
    made = cls.namespace.get(FIELD_OBJECTS)
    if made is not None:
        return tuple(made)  # a new tuple each call, of the same objects, as CPython's
    objects = []
    for name, default in cls.lookup(FIELDS):
        spec = default if type(default) is Field else Field(default, None)
        one = PInstance(field_class)
        one.attrs.update(
            name=name,
            default=spec.default,
            default_factory=spec.factory if spec.factory is not None else NO_DEFAULT,
            init=spec.init,
            repr=spec.repr,
            hash=None,
            compare=spec.compare,
            kw_only=name in cls.namespace.get(KW_FIELDS, ()),
        )
        objects.append(one)
    cls.namespace[FIELD_OBJECTS] = objects
    return tuple(objects)


class _Plain:
    """`asdict` and `astuple` as CPython's: a dataclass object's fields (read as its
    attributes) into a dict or tuple, lists, tuples and dicts into new ones, each item
    likewise, and anything else deep-copied (`copy.deepcopy`); a step an item, nesting
    at most BACKPROP_MAX_DEPTH deep."""

    def __init__(self, library: Library) -> None:
        self.m = library.machine
        self.state = library.state
        self.copier = _Copier(library)

    def convert(self, value: Any, as_dict: bool, factory: Any, depth: int) -> Any:
        state = self.state
        if depth >= state.limits.max_depth:
            what = "asdict() or astuple() went too deep (objects in objects in objects ...)"
            raise ProgramError(state.limits.exceeded("max_depth", what).message)
        state.charge(1)
        depth += 1
        kind = type(value)
        if is_dataclass_instance(value):
            items = [
                (name, self.convert(self.m.get_attr(value, name), as_dict, factory, depth))
                for name, _ in value.cls.lookup(FIELDS)
            ]
            if as_dict:
                return dict(items) if factory is None else self.m.call(factory, [items])
            values = [item for _, item in items]
            return tuple(values) if factory is None else self.m.call(factory, [values])
        if kind is list or kind is tuple:
            return kind(self.convert(item, as_dict, factory, depth) for item in value)
        if kind is dict:
            key = self.m.key
            return {
                key(self.convert(k, as_dict, factory, depth)): self.convert(
                    v, as_dict, factory, depth
                )
                for k, v in value.items()
            }
        return self.copier.deep(value, {}, depth)


def fields_of(cls: PClass) -> list[tuple[str, Any]]:
    """A dataclass's fields and InitVars, bases' first, each with its default (or
    `NO_DEFAULT`)."""
    out: dict[str, Any] = {}
    for klass in reversed(cls.mro):
        if INIT_FIELDS in klass.namespace:
            out.update(klass.namespace[INIT_FIELDS])
            continue
        class_variables = klass.namespace.get(CLASS_VARIABLES, ())
        marks = klass.namespace.get(KW_ONLY_MARKS, ())
        for name in klass.namespace.get(ANNOTATIONS, ()):
            if name not in class_variables and name not in marks:
                out[name] = klass.namespace.get(name, NO_DEFAULT)
    return list(out.items())


def keyword_only(cls: PClass, taken: list[tuple[str, Any]], every: bool) -> set[str]:
    """The fields of a dataclass its `__init__` takes by keyword alone, as CPython's: a
    base dataclass's own, `field(kw_only=True)`, those after a `_: KW_ONLY` of the class
    and, with `@dataclass(kw_only=True)` (`every`), all of the class's own."""
    found: set[str] = set()
    for klass in cls.mro[1:]:
        found |= klass.namespace.get(KW_FIELDS, set())
    own = cls.namespace.get(ANNOTATIONS, ())
    found -= set(own)  # (a field the class annotates again is as the class says)
    marks = cls.namespace.get(KW_ONLY_MARKS, ())
    after = len(own)
    if marks:
        after = own.index(marks[0])
    for index, name in enumerate(own):
        if every or index > after:
            found.add(name)
    for name, default in taken:
        if type(default) is Field and default.kw_only is not None:
            if default.kw_only:
                found.add(name)
            else:
                found.discard(name)
    return {name for name, _ in taken if name in found}


def make_dataclass(m: Any, cls: Any, options: dict[str, Any]) -> PClass:
    """`@dataclass`: `__init__`, `__repr__` and `__eq__` from the annotated fields, each
    only where the class does not define its own (as CPython does)."""
    if type(cls) is not PClass:
        raise ProgramError(f"@dataclass decorates a class, not {a_type(cls)}", kind="TypeError")
    m.state.charge(MADE_CLASS_STEPS)
    _no_mutable_default(m, cls)
    taken = fields_of(cls)
    if options.get("order") and not options.get("eq", True):  # (CPython's, after the fields)
        raise ProgramError("eq must be true if order is true", kind="ValueError")
    by_keyword = keyword_only(cls, taken, bool(options.get("kw_only")))
    cls.namespace[KW_FIELDS] = by_keyword
    if options.get("init", True):
        _defaults_last([(n, d) for n, d in taken if n not in by_keyword])
    init_variables = {n for klass in cls.mro for n in klass.namespace.get(INIT_VARIABLES, ())}
    fields = [(name, d) for name, d in taken if name not in init_variables]
    shown = [name for name, d in fields if type(d) is not Field or d.repr]
    compared = [name for name, d in fields if type(d) is not Field or d.compare]
    namespace = cls.namespace
    namespace[FIELDS] = fields
    namespace[INIT_FIELDS] = taken
    for name, default in fields:
        if type(default) is Field:
            if default.default is NO_DEFAULT:
                namespace.pop(name, None)
            else:
                namespace[name] = default.default
    texts = m.texts

    def representation(args: list[Any], kwargs: dict[str, Any]) -> str:
        self_ = args[0]
        if id(self_) in texts.active:  # CPython's `reprlib.recursive_repr`: `N(kids=[...])`
            return "..."
        attrs = self_.attrs  # a field never set (`init=False`, no default): AttributeError
        texts.active.add(id(self_))
        try:
            parts = [
                f"{name}={texts.to_repr(attrs[name] if name in attrs else m.get_attr(self_, name))}"
                for name in shown
            ]
        finally:
            texts.active.discard(id(self_))
        return f"{self_.cls.name}({', '.join(parts)})"

    def hashed(args: list[Any], kwargs: dict[str, Any]) -> int:
        self_ = args[0]
        fields = _field_values(m, self_, compared)
        for value in fields:
            m.key(value)  # a list field is CPython's TypeError, which a program may catch
        return hash(m.key(fields))

    if options.get("slots"):
        _add_slots(m, cls, fields)
    if options.get("frozen"):  # assigning a field afterwards is FrozenInstanceError
        namespace[FROZEN] = True
        cls.has_properties = True  # `Machine.set_attr` looks before it writes
    if options.get("match_args", True) and "__match_args__" not in namespace:
        namespace["__match_args__"] = tuple(name for name, _ in fields)  # `case Point(x, y)`
    generated: dict[str, Any] = {"__init__": _dataclass_init(m, cls, taken, init_variables)}
    if options.get("repr", True):
        generated["__repr__"] = representation
    eq = options.get("eq", True)
    if eq:
        generated["__eq__"] = _comparison(m, "==", compared)
    if options.get("order"):  # `@dataclass(order=True)`: the fields compared as tuples
        for name, op in (("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")):
            generated[name] = _comparison(m, op, compared)
    # `__hash__` as CPython's dataclass sets it: from the fields when asked or frozen,
    # None (unhashable) for a mutable class that compares its fields.
    if "__hash__" not in namespace:
        if options.get("unsafe_hash") or (eq and options.get("frozen")):
            namespace["__hash__"] = NativeMethod(
                "__hash__", python_method(f"{cls.name}.__hash__", (), hashed)
            )
        elif eq:
            namespace["__hash__"] = None
    for name, call in generated.items():
        if name not in namespace:
            if name != "__init__":  # (which checks its own arguments)
                params = () if name == "__repr__" else ("other",)
                call = python_method(f"{cls.name}.{name}", params, call)
            namespace[name] = NativeMethod(name, call)
    return cls


def _add_slots(m: Any, cls: PClass, fields: list[tuple[str, Any]]) -> None:
    """`@dataclass(slots=True)`, as CPython 3.11's `_add_slots` makes its new class: the
    fields (a base's too, but those its bases' `__slots__` already name) become the
    class's `__slots__`, and their defaults leave the class (`__init__` keeps them), so an
    attribute that is no field is CPython's AttributeError when set, and the object has
    no `__dict__` where every base has `__slots__` too (`slot_names`). A class that
    already specifies `__slots__` is CPython's TypeError."""
    namespace = cls.namespace
    if "__slots__" in namespace:
        raise ProgramError(f"{cls.name} already specifies __slots__", kind="TypeError")
    inherited = {
        name
        for klass in cls.mro[1:]
        if not klass.builtin
        for name in _slots_of(klass.namespace.get("__slots__", ()))
    }
    names = [name for name, _ in fields]
    m.state.charge((len(names) + len(inherited)) // ITEMS_PER_STEP)
    namespace["__slots__"] = tuple(name for name in names if name not in inherited)
    for name in names:
        namespace.pop(name, None)
    cls.slots = slot_names(cls.mro)


def _slots_of(slots: Any) -> tuple[Any, ...]:
    """A class's `__slots__` as names: a string is one name."""
    if type(slots) is str:
        return (slots,)
    return tuple(slots) if type(slots) in (tuple, list) else ()


def _no_mutable_default(m: Any, cls: PClass) -> None:
    """CPython 3.11's ValueError for a field of the class's own whose default is of an
    unhashable class (`x: list = []`, a dataclass object that is not frozen)."""
    class_variables = cls.namespace.get(CLASS_VARIABLES, ())
    for name in cls.namespace.get(ANNOTATIONS, ()):
        default = cls.namespace.get(name, NO_DEFAULT)
        if type(default) is Field:
            default = default.default
        if name in class_variables or not _unhashable_class(default):
            continue
        shown = m.texts.to_repr(default.cls) if type(default) is PInstance else None
        shown = shown or f"<class '{python_type_name(default)}'>"
        words = f"mutable default {shown} for field {name} is not allowed: use default_factory"
        raise ProgramError(words, kind="ValueError")


def _unhashable_class(value: Any) -> bool:
    """Whether CPython's `type(value).__hash__` is None."""
    kind = type(value)
    if kind is PInstance:
        for c in value.cls.mro:
            if "__hash__" in c.namespace:
                return c.namespace["__hash__"] is None
            if c.hash_none:
                return True
        return False
    return kind is list or kind is dict or kind is bytearray or (kind is PSet and not value.frozen)


def _defaults_last(fields: list[tuple[str, Any]]) -> None:
    """CPython's TypeError for a field `__init__` takes positionally, with no default,
    after one with a default (a base class's fields first)."""
    seen_default = False
    for name, default in fields:
        if type(default) is Field and (not default.init or default.kw_only):
            continue
        if not _required(default):
            seen_default = True
        elif seen_default:
            words = f"non-default argument '{name}' follows default argument"
            raise ProgramError(words, kind="TypeError")


def _comparison(m: Any, op: str, compared: list[str]) -> Callable[[list[Any], dict[str, Any]], Any]:
    """A dataclass's `__eq__` or ordering: its fields compared as tuples, with another
    object of its class only."""

    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        self_, other = args
        if type(other) is not PInstance or other.cls is not self_.cls:
            return NotImplemented
        mine = _field_values(m, self_, compared)
        theirs = _field_values(m, other, compared)
        return m.compare(op, mine, theirs)

    return call


def _field_values(m: Any, instance: PInstance, names: list[str]) -> tuple[Any, ...]:
    """The fields `names` of a dataclass object, as CPython's generated methods read
    them (`self.x`): a field never set is its AttributeError."""
    attrs = instance.attrs
    return tuple(attrs[n] if n in attrs else m.get_attr(instance, n) for n in names)


def _dataclass_init(
    m: Any, cls: PClass, fields: list[tuple[str, Any]], init_variables: set[str]
) -> Callable[[list[Any], dict[str, Any]], None]:
    """A dataclass's generated `__init__`: each field from its argument, keyword, default
    or default factory, in order, then `__post_init__` if the class has one, given the
    InitVars' values (`init_variables`, which are never set on the object) in order."""

    # The fields `__init__` takes (not `field(init=False)`), in order; the others are
    # set from their default or factory, if they have one, in their place.
    taken = [(n, d) for n, d in fields if type(d) is not Field or d.init]
    names = {n for n, _ in taken}
    by_keyword = cls.namespace.get(KW_FIELDS, set())  # (`keyword_only`)
    positional = [(n, d) for n, d in taken if n not in by_keyword]
    least = sum(1 for _, d in positional if _required(d)) + 1
    most = len(positional) + 1
    counted = f"{most}" if least == most else f"from {least} to {most}"

    def init(args: list[Any], kwargs: dict[str, Any]) -> None:
        if not args:  # `P.__init__()`: `self` is missing, and every field without a default
            required = ["self", *(n for n, d in taken if _required(d) and n not in kwargs)]
            bound_arguments(f"{cls.name}.__init__", tuple(required), [], {})
        self_, *values = args
        if len(values) > len(positional):
            raise ProgramError(
                f"{cls.name}.__init__() takes {counted} positional argument"
                f"{'' if most == 1 else 's'} but {len(values) + 1} were given",
                kind="TypeError",
            )
        i = -1
        passed: list[Any] = []  # the InitVars' values, for `__post_init__`
        for name, default in fields:
            if name not in names:
                if type(default) is Field and default.factory is not None:
                    m.set_attr(self_, name, m.call(default.factory, []), initial=True)
                elif type(default) is Field and default.default is not NO_DEFAULT:
                    m.set_attr(self_, name, default.default, initial=True)
                continue
            keyword = name in by_keyword
            if not keyword:
                i += 1
            if not keyword and i < len(values):
                value = values[i]
                if name in kwargs:
                    raise ProgramError(
                        f"{cls.name}.__init__() got multiple values for argument '{name}'",
                        kind="TypeError",
                    )
            elif name in kwargs:
                value = kwargs.pop(name)
            elif type(default) is Field and default.factory is not None:
                value = m.call(default.factory, [])
            elif type(default) is Field and default.default is not NO_DEFAULT:
                value = default.default
            elif default is not NO_DEFAULT and type(default) is not Field:
                value = default
            else:
                kind = "keyword-only" if keyword else "positional"
                raise ProgramError(
                    f"{cls.name}.__init__() missing 1 required {kind} argument: '{name}'",
                    kind="TypeError",
                )
            if name in init_variables:
                passed.append(value)
            else:
                m.set_attr(self_, name, value, initial=True)
        if len(kwargs) > 0 and len(values) <= len(positional):
            unknown = next(iter(kwargs))
            if unknown not in names:
                raise ProgramError(
                    f"{cls.name}.__init__() got an unexpected keyword argument '{unknown}'",
                    kind="TypeError",
                )
        post = cls.lookup("__post_init__")
        if type(post) is Function:
            m.call_function(post, [self_, *passed])

    return init


def _required(default: Any) -> bool:
    """Whether a dataclass field of this default must be given."""
    if type(default) is Field:
        return default.factory is None and default.default is NO_DEFAULT
    return default is NO_DEFAULT


def collections_module(library: Library) -> PModule:
    """`defaultdict`, `Counter` and `OrderedDict` are the program's dicts, `deque` its
    lists, each registered with the machine (`Machine.collections`) for what it adds
    (`collection_kinds`): a missing key's value, counting, `most_common`, `move_to_end`,
    `appendleft`/`popleft`, a `maxlen`. `namedtuple` makes a class of the program's kind.
    They print and name their types as CPython's."""
    m = library.machine

    register = m.register

    def defaultdict(args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
        factory = args[0] if args else None
        if factory is not None and not callable_object(factory):
            raise ProgramError("first argument must be callable or None", kind="TypeError")
        made = library.dict_(args[1:], kwargs)
        register(made, "defaultdict", factory)
        return made

    def counter(args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
        counts: dict[Any, Any] = {}
        register(counts, "Counter")
        if len(args) > 1:
            raise ProgramError("Counter() takes one iterable", kind="TypeError")
        if args and type(args[0]) is dict:
            for key, value in args[0].items():
                m.set_item(counts, key, value)
        elif args:
            for item in library.items(args[0]):
                m.key(item)
                m.set_item(counts, item, counts.get(item, 0) + 1)
        for key, value in kwargs.items():
            counts[key] = value
        return counts

    def ordered_dict(args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
        made = library.dict_(args, kwargs)
        register(made, "OrderedDict")
        return made

    def deque(args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        maxlen = kinds.maxlen_of(m, args, kwargs)
        source = args[0] if args else kwargs.get("iterable", ())
        made = library.collect(source)
        if maxlen is not None:
            kinds.trim(made, maxlen, from_left=True)  # the last `maxlen` items stay
            m.bounded_deques = True
        register(made, "deque", maxlen)
        return made

    def fromkeys(kind: str) -> Builtin:
        def call(args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
            made = library.dict_fromkeys(args, kwargs)
            register(made, kind)
            return made

        return Builtin(f"{kind}.fromkeys", call)

    def namedtuple(args: list[Any], kwargs: dict[str, Any]) -> PClass:
        return collections_namedtuple(library, args, kwargs)

    types = {
        # `<class 'collections.OrderedDict'>`, as CPython shows them
        "defaultdict": TypeObject("defaultdict", defaultdict, (dict,), "collections."),
        "Counter": TypeObject("Counter", counter, (dict,), "collections."),
        "OrderedDict": TypeObject("OrderedDict", ordered_dict, (dict,), "collections."),
        "deque": TypeObject("deque", deque, (list,), "collections."),
    }
    types["defaultdict"].members["fromkeys"] = fromkeys("defaultdict")
    types["OrderedDict"].members["fromkeys"] = fromkeys("OrderedDict")
    m.collection_types = types  # `type(c)` of a Counter is this Counter (`Library.type_of`)
    return PModule("collections", {**types, "namedtuple": Builtin("namedtuple", namedtuple)})


def callable_object(value: Any) -> bool:
    return isinstance(value, Builtin | Function | PClass) or type(value) is PInstance


def _copy_wrapped(wrapper: Function, name: str, qualname: str, target: Any) -> None:
    """What CPython's `update_wrapper` copies: the name, the qualified name and (of a
    program's function) its `__doc__` and `__annotations__`, read off it when asked."""
    wrapper.alias = name
    wrapper.qualname = qualname
    if type(target) is Function:
        wrapper.wrapped = getattr(target, "wrapped", target)
        copied = getattr(target, "attrs", None)  # its `__dict__`, as `update_wrapper` copies it
        if copied:
            wrapper.attrs = {**getattr(wrapper, "attrs", {}), **copied}
