"""Named tuples: `collections.namedtuple(...)`, and `typing.NamedTuple` as a base or
called. Each makes a class of the program's kind whose objects hold their fields in
order and index, unpack, compare and hash as the tuple of them, with CPython's methods
(`_make`, `_replace`, `_asdict`, `_fields`, `_field_defaults`) and CPython's words for
a bad name or a wrong call."""

from __future__ import annotations

import keyword
from typing import Any

from backprop_animator.engine.interpreter.exceptions import (
    bound_arguments,
    python_method,
    slot_method,
)
from backprop_animator.engine.interpreter.objects import (
    TUPLE_FIELDS,
    Builtin,
    Function,
    NativeMethod,
    PClass,
    PClassMethod,
    PInstance,
    reads_of,
)
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MADE_CLASS_STEPS,
    MAX_ITEMS,
    ProgramError,
    new_attrs,
)
from backprop_animator.engine.interpreter.text import python_type_name

Call = Any

NAMEDTUPLE_KEY = " namedtuple"  # in `typing.NamedTuple`'s namespace
# In a named tuple class's namespace: its own `__init__`, which fills the fields as
# CPython's `tuple.__new__` does (`tuple_filler`), wherever the program sets another.
TUPLE_FILLER = " tuple filler"

# What a `class P(NamedTuple):` body may not define (CPython's AttributeError), and
# what it has that is not copied to the named tuple.
PROHIBITED = frozenset(
    {
        "__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
        "_make", "_replace", "_asdict", "_source",
    }
)  # fmt: skip
SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})


def checked_names(m: Any, typename: str, names: list[str], rename: bool) -> list[str]:
    """CPython's checks of a named tuple's type name and field names, in its order and
    its words; with `rename`, a field name that would fail them is `_` and its index.
    A step per ten fields."""
    m.state.charge(len(names) // ITEMS_PER_STEP)
    names = list(names)
    if rename:
        seen: set[str] = set()
        for index, name in enumerate(names):
            if (
                not name.isidentifier()
                or keyword.iskeyword(name)
                or name.startswith("_")
                or name in seen
            ):
                names[index] = f"_{index}"
            seen.add(name)
    for name in (typename, *names):
        if not name.isidentifier():
            words = f"Type names and field names must be valid identifiers: {name!r}"
            raise ProgramError(words, kind="ValueError")
        if keyword.iskeyword(name):
            words = f"Type names and field names cannot be a keyword: {name!r}"
            raise ProgramError(words, kind="ValueError")
    seen = set()
    for name in names:
        if name.startswith("_") and not rename:
            words = f"Field names cannot start with an underscore: {name!r}"
            raise ProgramError(words, kind="ValueError")
        if name in seen:
            raise ProgramError(f"Encountered duplicate field name: {name!r}", kind="ValueError")
        seen.add(name)
    return names


def collections_namedtuple(library: Any, args: list[Any], kwargs: dict[str, Any]) -> PClass:
    """`namedtuple(typename, field_names, *, rename=False, defaults=None, module=None)`
    as CPython's: the field names a string (split at commas and spaces) or any iterable
    (each name `str()` of its item), `defaults` any iterable, no longer than the fields."""
    m = library.machine
    given = {key: kwargs[key] for key in ("rename", "defaults", "module") if key in kwargs}
    rest = {key: value for key, value in kwargs.items() if key not in given}
    typename, field_names = bound_arguments("namedtuple", ("typename", "field_names"), args, rest)
    texts = m.texts
    if type(field_names) is str:
        names = field_names.replace(",", " ").split()
    else:
        given_names = m.bounded_list(field_names, MAX_ITEMS)  # a step per ten, or per item
        names = [n if type(n) is str else texts.to_str(n) for n in given_names]
    if type(typename) is not str:
        typename = texts.to_str(typename)
    names = checked_names(m, typename, names, m.truthy(given.get("rename", False)))
    defaults = given.get("defaults")
    values = None if defaults is None else m.bounded_list(defaults, MAX_ITEMS)
    if values is not None and len(values) > len(names):
        raise ProgramError("Got more default values than field names", kind="TypeError")
    return make_namedtuple(m, typename, names, values)


def class_namedtuple(m: Any, cls: PClass, names: list[str], annotations: str) -> PClass:
    """What `class P(NamedTuple):` makes of its body: its annotated `names` the fields, a
    value given one its default, its other entries (methods, class attributes) copied,
    as CPython's `NamedTupleMeta` does, in its order and words."""
    namespace = cls.namespace
    default_names: list[str] = []
    for field in names:
        if field in namespace:
            default_names.append(field)
        elif default_names:
            plural = "s" if len(default_names) > 1 else ""
            words = (
                f"Non-default namedtuple field {field} cannot follow default "
                f"field{plural} {', '.join(default_names)}"
            )
            raise ProgramError(words, kind="TypeError")
    names = checked_names(m, cls.name, names, False)
    made = make_namedtuple(m, cls.name, names, [namespace[n] for n in default_names])
    for key, value in namespace.items():
        if key in PROHIBITED:
            words = f"Cannot overwrite NamedTuple attribute {key}"
            raise ProgramError(words, kind="AttributeError")
        if key not in names and key != annotations and key not in SPECIAL:
            made.namespace[key] = value  # its own methods and class attributes
    return made


def make_namedtuple(m: Any, name: str, names: list[str], defaults: list[Any] | None) -> PClass:
    """A class whose instances hold `names` in order and unpack, index and compare as
    the tuple of them; `defaults` the values of the last fields when not given."""
    m.state.charge(MADE_CLASS_STEPS)
    given = defaults or []
    fallback = dict(zip(names[len(names) - len(given) :], given, strict=True)) if given else {}
    texts = m.texts

    # (a step per ten fields, where what it does reads them all: `t[0]`, `t._asdict()`,
    # `hash(t)` of 200 fields in a loop were bounded by the clock alone)
    walk_steps = len(names) // ITEMS_PER_STEP

    def values(self_: PInstance) -> tuple[Any, ...]:
        if walk_steps:
            m.state.charge(walk_steps)
        return tuple(self_.attrs[n] for n in names)

    def representation(args: list[Any], kwargs: dict[str, Any]) -> str:
        m.state.charge(walk_steps)
        parts = [f"{n}={texts.to_repr(args[0].attrs[n])}" for n in names]
        return f"{args[0].cls.name}({', '.join(parts)})"  # a subclass's name, as CPython's

    def equal(args: list[Any], kwargs: dict[str, Any]) -> Any:
        other = args[1]
        theirs = values(other) if type(other) is PInstance and other.cls is cls else other
        return m.compare("==", values(args[0]), theirs)

    def item(args: list[Any], kwargs: dict[str, Any]) -> Any:
        return m.get_item(values(args[0]), args[1])

    def hashed(args: list[Any], kwargs: dict[str, Any]) -> int:
        fields = values(args[0])
        for value in fields:
            m.key(value)  # a list field is CPython's TypeError, which a program may catch
        return hash(m.key(fields))  # as the tuple of its fields hashes

    def plain(other: Any) -> Any:
        """The other operand as a tuple (a named tuple's fields), or None."""
        if type(other) is PInstance and any(TUPLE_FIELDS in c.namespace for c in other.cls.mro):
            fields = [n for c in other.cls.mro for n in c.namespace.get("_fields", ())]
            m.state.charge(len(fields) // ITEMS_PER_STEP)  # (as `values` is)
            return tuple(other.attrs[n] for n in dict.fromkeys(fields))
        return other if type(other) is tuple else None

    def added(args: list[Any], kwargs: dict[str, Any]) -> Any:
        other = plain(args[1])
        if other is None:  # CPython's words, a TypeError a program may catch
            words = f'can only concatenate tuple (not "{python_type_name(args[1])}") to tuple'
            raise ProgramError(words, kind="TypeError")
        return m.binary("+", values(args[0]), other)

    def added_to(args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`(0,) + p`: a tuple's own `+`, which takes a named tuple (a tuple)."""
        other = plain(args[1])
        if other is None:
            return NotImplemented
        return m.binary("+", other, values(args[0]))

    def repeated(args: list[Any], kwargs: dict[str, Any]) -> Any:
        return m.binary("*", values(args[0]), args[1])  # (an int's `__index__` too)

    def ordered(op: str) -> Call:
        def compare(args: list[Any], kwargs: dict[str, Any]) -> Any:
            other = plain(args[1])
            return NotImplemented if other is None else m.compare(op, values(args[0]), other)

        return compare

    def as_dict(args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        if walk_steps:
            m.state.charge(walk_steps)
        return {n: args[0].attrs[n] for n in names}

    # As CPython's: a Python function of the named tuple's own, or tuple's C method.
    python: dict[str, Call] = {
        "__init__": _init(m, name, names, fallback),
        "__repr__": python_method(f"{name}.__repr__", (), representation),
        "_asdict": python_method(f"{name}._asdict", (), as_dict),
        "_replace": _replace(m, name, names),
    }
    of_tuple: dict[str, tuple[int, Call]] = {
        "__eq__": (1, equal),
        "__hash__": (0, hashed),
        "__iter__": (0, lambda a, k: iter(values(a[0]))),  # a tuple_iterator, as CPython's
        "__getitem__": (1, item),
        "__len__": (0, lambda a, k: len(names)),
        "count": (1, lambda a, k: m.call(m.get_attr(values(a[0]), "count"), a[1:], k)),
        "__add__": (1, added),
        "__radd__": (1, added_to),
        "__mul__": (1, repeated),
        "__rmul__": (1, repeated),
        **{f"__{name}__": (1, ordered(op)) for name, op in _ORDERINGS},
    }
    python["index"] = lambda a, k: m.call(m.get_attr(values(a[0]), "index"), a[1:], k)
    namespace: dict[str, Any] = {key: NativeMethod(key, call) for key, call in python.items()}
    for key, (count, call) in of_tuple.items():
        namespace[key] = NativeMethod(key, slot_method(key, count, call), "tuple")
    # As CPython's: no `__dict__` (a subclass without `__slots__` has one), its fields
    # read-only (`Machine.set_attr`); their values are kept in the object's slot dict.
    namespace["__slots__"] = ()
    namespace[TUPLE_FIELDS] = frozenset(names)
    namespace[TUPLE_FILLER] = namespace["__init__"]  # (kept where `Pt.__init__ = f` sets)
    namespace["_fields"] = tuple(names)
    namespace["_field_defaults"] = dict(fallback)
    namespace["_make"] = PClassMethod(Builtin("_make", _make(m, name, names)))
    cls = PClass(name, (), namespace)
    return cls


def tuple_filler(cls: PClass) -> NativeMethod | None:
    """The named tuple's own `__init__` that fills the fields of an object of `cls` (the
    named tuple's class or a subclass, else None): CPython's `tuple.__new__`, which
    fills them before any `__init__` of the class runs (`Machine.instantiate` calls it
    first where that is another: a subclass's own, or one set on the class)."""
    for c in cls.mro:
        if TUPLE_FILLER in c.namespace:
            filler: NativeMethod = c.namespace[TUPLE_FILLER]
            return filler
    return None


def new_instance(m: Any, cls: PClass, names: list[str], values: list[Any]) -> PInstance:
    """An object of the named tuple class `cls` (or a subclass) holding `values`, made
    as CPython's `tuple.__new__` makes it: no `__init__` of the class runs."""
    if not cls.equipped:
        m.equip(cls)  # how its objects hash in a set, as `Machine.instantiate` has it
    made = PInstance(cls)
    made.attrs = new_attrs(cls)  # a `SlotDict`, unless a subclass has a `__dict__`
    made.reads = reads_of(made)
    dict.update(made.attrs, zip(names, values, strict=True))  # past the `SlotDict`'s check
    return made


def _make(m: Any, name: str, names: list[str]) -> Call:
    """`P._make(iterable)`, a class method: an object of the class it is read off (a
    subclass's own), of the iterable's items, as many as the fields (CPython's
    TypeError otherwise, after it has taken them all: a step each, only the fields'
    count of them kept)."""
    count = len(names)

    def make(args: list[Any], kwargs: dict[str, Any]) -> PInstance:
        cls, iterable = bound_arguments(f"{name}._make", ("cls", "iterable"), args, kwargs)
        state = m.state
        taken: list[Any] = []
        seen = 0
        for value in m.iterate(iterable):
            state.charge(1)
            seen += 1
            if seen <= count:
                taken.append(value)
        if seen != count:
            raise ProgramError(f"Expected {count} arguments, got {seen}", kind="TypeError")
        return new_instance(m, cls, names, taken)

    return make


def _replace(m: Any, name: str, names: list[str]) -> Call:
    """`p._replace(x=5)`: a new object of `p`'s class, its other fields `p`'s."""

    def replace(args: list[Any], kwargs: dict[str, Any]) -> PInstance:
        if len(args) != 1:
            given = f"{len(args)} {'was' if len(args) == 1 else 'were'} given"
            raise ProgramError(
                f"{name}._replace() takes 1 positional argument but {given}"
                if args
                else f"{name}._replace() missing 1 required positional argument: 'self'",
                kind="TypeError",
            )
        self_ = args[0]
        m.state.charge(len(names) // ITEMS_PER_STEP)
        left = dict(kwargs)
        fields = [left.pop(n) if n in left else self_.attrs[n] for n in names]
        if left:
            raise ProgramError(f"Got unexpected field names: {list(left)!r}", kind="ValueError")
        return new_instance(m, self_.cls, names, fields)

    return replace


def _init(m: Any, name: str, names: list[str], fallback: dict[str, Any]) -> Call:
    """A named tuple's `__init__` (CPython's `__new__`, whose words it keeps): each field
    from its place, its keyword or its default."""
    place = {field_name: i for i, field_name in enumerate(names)}

    def init(args: list[Any], kwargs: dict[str, Any]) -> None:
        if not args:  # `P.__init__()`
            raise ProgramError(
                f"{name}.__new__() missing 1 required positional argument: '_cls'",
                kind="TypeError",
            )
        self_, *positional = args
        if type(self_) is PInstance and names and dict.__contains__(self_.attrs, names[-1]):
            # Made already: `object.__init__`, as CPython's, changes nothing; given
            # arguments from a class's own `__init__` (`super().__init__(x, y)`), its error.
            if (positional or kwargs) and type(self_.cls.lookup("__init__")) is Function:
                words = "object.__init__() takes exactly one argument (the instance to initialize)"
                raise ProgramError(words, kind="TypeError")
            return None
        for key in kwargs:  # bound before positions are counted, as CPython binds them
            at = place.get(key)
            if at is None:
                words = f"{name}.__new__() got an unexpected keyword argument '{key}'"
                raise ProgramError(words, kind="TypeError")
            if at < len(positional):
                words = f"{name}.__new__() got multiple values for argument '{key}'"
                raise ProgramError(words, kind="TypeError")
        if len(positional) > len(names):  # (`_cls` counted, as CPython counts it)
            most = len(names) + 1
            takes = f"{most} positional argument{'s' if most > 1 else ''}"
            if fallback:
                takes = f"from {most - len(fallback)} to {most} positional arguments"
            raise ProgramError(
                f"{name}.__new__() takes {takes} but {len(positional) + 1} were given",
                kind="TypeError",
            )
        m.state.charge(len(names) // ITEMS_PER_STEP)
        # (past a `SlotDict`'s check: the fields are read-only to the program)
        for i, field_name in enumerate(names):
            if i < len(positional):
                dict.__setitem__(self_.attrs, field_name, positional[i])
            elif field_name in kwargs:
                dict.__setitem__(self_.attrs, field_name, kwargs.pop(field_name))
            elif field_name in fallback:
                dict.__setitem__(self_.attrs, field_name, fallback[field_name])
            else:
                raise _missing(
                    name, [n for n in names[i:] if n not in kwargs and n not in fallback]
                )

    return init


def _missing(name: str, missing: list[str]) -> ProgramError:
    quoted = [f"'{n}'" for n in missing]
    listed = (
        " and ".join(quoted)
        if len(quoted) < 3
        else (", ".join(quoted[:-1]) + ", and " + quoted[-1])
    )
    plural = "" if len(missing) == 1 else "s"
    return ProgramError(
        f"{name}.__new__() missing {len(missing)} required positional argument{plural}: {listed}",
        kind="TypeError",
    )


# A named tuple compares with a tuple (or another) as the tuples of their fields do
_ORDERINGS = (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="))
