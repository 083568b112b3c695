"""The built-in functions, the methods of lists, dicts, sets and strings, `math` and
`random`: everything a program can call that it did not write.

Each one checks its arguments, measures what it will make before making it, and
charges a step for every item it touches, so no call can do unbounded work outside the
step count (`sum(range(10**9))` stops like a loop would). `random` is an instance of
CPython's own `random.Random`, seeded with 0 unless the program seeds it, so a seeded
program draws exactly CPython's numbers.
"""

from __future__ import annotations

import abc as _host_abc
import builtins as _host_builtins
import collections as _host_collections
import collections.abc as _host_collections_abc
import itertools as _host_itertools
import math
import random
import typing as _host_typing
from collections.abc import Callable, Iterator
from functools import partial
from types import (
    BuiltinFunctionType,
    FunctionType,
    GeneratorType,
    MappingProxyType,
    MethodType,
)
from typing import Any, cast

from backprop_animator.engine.interpreter import binary, sets
from backprop_animator.engine.interpreter import collection_kinds as kinds
from backprop_animator.engine.interpreter.builtin_dunders import container_dunder, host_has
from backprop_animator.engine.interpreter.dir_builtin import dir_of
from backprop_animator.engine.interpreter.exceptions import (
    CHAIN_NAMES,
    NOT_BUILTIN,
    chain_attribute,
    error_matches,
    exception_classes,
    program_raise,
    wrong_arguments,
)
from backprop_animator.engine.interpreter.expressions import METHOD_DUNDERS, READABLE_DUNDERS
from backprop_animator.engine.interpreter.generators import (
    READERS,
    generator_methods,
    is_program_generator,
    reads_generator,
    stop_iteration,
)
from backprop_animator.engine.interpreter.machine import (
    ITERATOR_TYPES,
    NUMBERS,
    PYTHON_TYPES,
    SET_LIKE_VIEWS,
    SIZED,
    UNHASHABLE,
    VIEWS,
    Machine,
    hash_is_none,
    length_of,
    number_error,
)
from backprop_animator.engine.interpreter.namedtuples import NAMEDTUPLE_KEY
from backprop_animator.engine.interpreter.number_dunders import number_dunders
from backprop_animator.engine.interpreter.objects import (
    ABC_MAPPING_KEY,
    BUILTIN_BASE_KEY,
    ENUM_KEY,
    ENUM_MIXIN_KEY,
    GENERIC_ALIASES,
    MISSING,
    TUPLE_FIELDS,
    TYPING_UNIONS,
    Annotation,
    BoundMethod,
    Builtin,
    Function,
    Inert,
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
    TypeMethod,
    TypeObject,
    enum_mixin_value,
    holds_instance,
    is_bare_object,
    is_dunder,
    ordered_by_hash,
    tuple_dict_refusal,
    union_members,
)
from backprop_animator.engine.interpreter.os_module import FAKE_FILE
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_PRINTED,
    MAX_STR,
    MOVES_PER_STEP,
    ProgramError,
    State,
    caught_as,
)
from backprop_animator.engine.interpreter.stdlib import (
    ABC_META,
    ANNOTATIONS,
    NUMBER_KEY,
    PROTOCOL_KEY,
    RUNTIME_PROTOCOL,
    STDOUT,
    TYPEDDICT_KEY,
    Modules,
    callable_object,
    exit_program,
    stdlib_modules,
    typing_args,
)
from backprop_animator.engine.interpreter.str_format import str_format, str_format_map
from backprop_animator.engine.interpreter.text import (
    ITERATOR_CODES,
    ITERATOR_NAMES,
    NO_METHOD,
    a_type,
    cpython_type,
    iterator_name,
    python_type_name,
)
from backprop_animator.engine.ops import FUNCTIONS, NUMBER_FUNCTIONS
from backprop_animator.engine.value import Value, creation_order

# What `isinstance(x, ...)` is given that is no class, for CPython's TypeError.
_NOT_CLASSES = frozenset({str, int, float, bool, list, dict, PInstance, Value, PSet})

# Asked (by `cpython_refusal`, with None for every argument) for CPython's words when a
# call of `random.uniform`, `random.randint`... has the wrong number of arguments.
_RANDOM_PROBE = random.Random(0)

# Built-ins whose result reads its argument lazily (see `Library.flat`).
_LAZY = frozenset({zip, enumerate, map, filter, GeneratorType})
# The lazy built-ins that are classes, as in CPython (`type(zip(a, b)) is zip`): what
# they make is one of theirs by its name (`text.iterator_name`), not its Python type.
LAZY_TYPES = frozenset({"zip", "enumerate", "reversed", "map", "filter"})

Call = Callable[[list[Any], dict[str, Any]], Any]


def _view_mapping(view: Any) -> Any:
    return view.mapping


NOTES = "__notes__"  # an exception's notes (`e.add_note(...)`), readable by name too


class Library:
    """Builds the built-in names and the method tables for one running program."""

    def __init__(self, machine: Machine, printed: Callable[[str], None]) -> None:
        self.machine = machine
        self.state: State = machine.state
        self.printed = printed
        # The program's compiler (`run.py` sets it): the library's own warnings are the
        # program's `warnings` module's (`warn`).
        self.compiler: Any = None
        self.numbers_made: PModule | None = None  # `import numbers` (`stdlib.numbers_module`)
        # `class Value(object):`: a base with nothing in it (its `__init__` is
        # `Machine.super_attr`'s), and what `isinstance(x, object)` is always true of.
        self.object_class = PClass("object", (), {})
        self.object_class.builtin = True
        self.object_class.has_properties = True  # `object().x = 1` goes by `Machine.set_attr`
        machine.object_class = self.object_class
        machine.exceptions = exception_classes(
            machine.texts.to_str,
            machine.texts.to_repr,
            lambda value: machine.bounded_list(value, MAX_ITEMS),
        )
        machine.texts.builtin_classes = {self.object_class, *machine.exceptions.values()}
        for name, module in NOT_BUILTIN.items():  # `<class 'json.decoder.JSONDecodeError'>`
            machine.texts.class_modules[machine.exceptions[name]] = module
        # What each method `bound` made binds (`Machine.direct`).
        self.unbound: dict[Any, Callable[[Any, list[Any], dict[str, Any]], Any]] = {}
        machine.methods.update(
            {
                list: self.list_methods(),
                dict: self.dict_methods(),
                PSet: self.set_methods(),
                str: self.str_methods(),
                **self.number_methods(),
                tuple: self.tuple_methods(),
                GeneratorType: generator_methods(
                    machine.state,
                    machine.exceptions,
                    lambda value: program_raise(machine, value),
                ),
            }
        )
        machine.methods[str]["encode"] = binary.encode_method(machine.state)
        machine.methods[bytes] = binary.methods(machine.state)
        machine.methods[MappingProxyType] = self.class_dict_methods()
        machine.methods[slice] = self.slice_members()
        machine.methods[range] = self.range_members()
        for view in SET_LIKE_VIEWS:  # the views that are sets too
            machine.methods[view] = {"isdisjoint": self.bound(self.view_isdisjoint, "isdisjoint")}
        for view in VIEWS:  # `d.keys().mapping`: CPython's read-only proxy of the dict
            machine.methods.setdefault(view, {})["mapping"] = _view_mapping
        # `count().__next__` (a counter kept as a function: `ID = count().__next__`, then
        # `ID()` for each node's id), `it.__next__()`: `next(it)`, as CPython's.
        next_method = self.bound(self.next_method, "__next__")
        for iterator in ITERATOR_TYPES:
            machine.methods.setdefault(cast(type, iterator), {})["__next__"] = next_method
        # `(int | None).__args__`, `list[int].__args__`: what `typing.get_args` gives
        args_of = cast(Callable[[Any], Builtin], self.annotation_args)  # (a tuple, no method)
        machine.methods[Annotation] = {"__args__": args_of}
        machine.type_member = self.type_member
        machine.direct = {
            kind: {name: self.unbound[m] for name, m in table.items() if m in self.unbound}
            for kind, table in machine.methods.items()
        }

    # Helpers

    def annotation_args(self, hint: Annotation) -> tuple[Any, ...]:
        """`hint.__args__` of a union or generic alias, as CPython's; a typing name has it
        only subscripted (CPython's AttributeError of `List.__args__` is said here)."""
        if not hint.args:  # `List.__args__`: typing's words
            raise ProgramError("__args__", kind="AttributeError")
        return typing_args(self, [hint], {})

    def type_member(self, kind: TypeObject, name: str) -> Any:
        """`str.lower`, `list.append`: a built-in type's method read off the type (an
        unbound method: its object comes first), or MISSING (`dict.fromkeys` is one of
        `TypeObject.members`)."""
        for python_type in kind.types:
            call = self.machine.direct.get(python_type, {}).get(name)
            if call is not None:
                if kind.name == "frozenset" and name in _SET_CHANGES:  # CPython's has none
                    words = f"type object 'frozenset' has no attribute '{name}'"
                    raise ProgramError(words, kind="AttributeError")
                return _unbound(kind.name, name, python_type, call)
            method = container_dunder(self.machine, python_type, name)
            if method is not None:  # `list.__len__(xs)`: the operation (builtin_dunders.py)
                return _unbound(kind.name, name, python_type, method)
        return MISSING

    def number_methods(self) -> dict[type, dict[str, Callable[[Any], Builtin]]]:
        """`n.bit_length()`, `n.bit_count()`, `x.is_integer()`: Python's own, on a number; and
        its operator methods by name (`self.val.__add__(other)`, number_dunders.py)."""

        def plain(name: str) -> Callable[[Any, list[Any], dict[str, Any]], Any]:
            def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
                if args or kwargs:
                    given = len(args) + len(kwargs)
                    owner = "int" if type(obj) is bool else type(obj).__name__
                    wrong = TypeError(f"{owner}.{name}() takes no arguments ({given} given)")
                    raise caught_as(f"{name}() takes no arguments", wrong)
                return getattr(type(obj), name)(obj)  # a fixed name, on a plain number

            return method

        def part(name: str) -> Callable[[Any], Any]:
            return lambda obj: getattr(obj, name)  # `x.real`, `x.imag`: a fixed name

        parts = {"real": part("real"), "imag": part("imag")}
        parts["conjugate"] = self.bound(plain("conjugate"), "conjugate")
        integer = {name: self.bound(plain(name), name) for name in ("bit_length", "bit_count")}
        integer["as_integer_ratio"] = self.bound(_integer_ratio, "as_integer_ratio")
        real = {name: self.bound(plain(name), name) for name in ("is_integer", "hex")}
        real["fromhex"] = self.bound(lambda _, args, kwargs: self.fromhex(args, kwargs), "fromhex")
        real["as_integer_ratio"] = self.bound(_integer_ratio, "as_integer_ratio")
        integer_dunders, real_dunders = number_dunders(
            self.machine, self.round_, self.pow_, self.divmod_, self.format_
        )
        integer.update({name: self.bound(m, name) for name, m in integer_dunders.items()})
        real.update({name: self.bound(m, name) for name, m in real_dunders.items()})
        return {
            int: {**integer, **parts},
            bool: {**integer, **parts},
            float: {**real, **parts},
            complex: parts,
        }

    def tuple_methods(self) -> dict[str, Callable[[Any], Builtin]]:
        state = self.state
        m = self.machine

        def index(obj: tuple[Any, ...], args: list[Any], kwargs: dict[str, Any]) -> int:
            found = self.find_index(obj, args, kwargs, tuple)
            if found is None:
                missing = ValueError("tuple.index(x): x not in tuple")
                raise caught_as("index(): the value is not in the tuple", missing)
            return found

        def count(obj: tuple[Any, ...], args: list[Any], kwargs: dict[str, Any]) -> int:
            item = one(args, kwargs, "count", tuple)
            state.charge(len(obj))
            return sum(1 for candidate in obj if m.compare("==", candidate, item))

        return {"index": self.bound(index, "index"), "count": self.bound(count, "count")}

    def range_members(self) -> dict[str, Callable[[Any], Any]]:
        """A range's `start`, `stop`, `step`, `index(x)` and `count(x)`, as CPython's: of
        an int at once, of anything else by `==` with each item in turn (a step each)."""
        state = self.state
        m = self.machine

        def found(obj: range, item: Any) -> Iterator[int]:
            for i, candidate in enumerate(obj):
                state.charge(1)
                if m.compare("==", candidate, item):
                    yield i

        def argument(name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or len(args) != 1:  # CPython's words, `range.index() takes ...`
                words = f"{name}() takes exactly one argument"
                raise wrong_arguments(words, name, args, kwargs, cpython=getattr(range(0), name))
            return args[0]

        def index(obj: range, args: list[Any], kwargs: dict[str, Any]) -> int:
            item = argument("index", args, kwargs)
            if type(item) is int or type(item) is bool:
                if item in obj:
                    return obj.index(item)
                raise caught_as(
                    f"{item!r} is not in range", ValueError(f"{item!r} is not in range")
                )
            first = next(found(obj, item), None)
            if first is None:
                words = "sequence.index(x): x not in sequence"
                raise caught_as(words, ValueError(words))
            return first

        def count(obj: range, args: list[Any], kwargs: dict[str, Any]) -> int:
            item = argument("count", args, kwargs)
            if type(item) is int or type(item) is bool:
                return obj.count(item)
            return sum(1 for _ in found(obj, item))

        return {
            "start": lambda obj: obj.start,
            "stop": lambda obj: obj.stop,
            "step": lambda obj: obj.step,
            "index": self.bound(index, "index"),
            "count": self.bound(count, "count"),
        }

    def find_index(
        self, obj: list[Any] | tuple[Any, ...], args: list[Any], kwargs: dict[str, Any], owner: type
    ) -> int | None:
        """`xs.index(x[, start[, stop]])` of a list or tuple: where `x` is first `==` an
        item between `start` and `stop` (read as a slice's bounds, an object's
        `__index__` too), a step an item; None where it is not. CPython's TypeErrors for
        the wrong arguments (`index expected at least 1 argument, got 0`)."""
        if kwargs or not 1 <= len(args) <= 3:
            words = "index() takes a value and an optional start and stop"
            raise wrong_arguments(words, "index", args, kwargs, cpython=owner().index)
        bounds = [self.index(a) if type(a) is PInstance else a for a in args[1:]]
        if any(type(a) is not int and type(a) is not bool for a in bounds):
            words = "slice indices must be integers or have an __index__ method"
            raise ProgramError(words, kind="TypeError")
        first = bounds[0] if bounds else None
        last = bounds[1] if len(bounds) == 2 else None
        start, stop, _ = slice(first, last).indices(len(obj))
        item, compare = args[0], self.machine.compare
        self.state.charge(len(obj))  # (the walk's bound, charged before it, as it was)
        for i in range(start, stop):
            if i >= len(obj):  # (an `__eq__` of the program's may have shortened it)
                break
            if compare("==", obj[i], item):
                return i
        return None

    def items(self, iterable: Any) -> Iterator[Any]:
        """Iterate a program value, charging a step per item."""
        state = self.state
        for item in self.machine.iterate(iterable):
            state.steps += 1
            if state.steps > state.next_check:
                state.checkpoint()
            yield item

    def collect(self, iterable: Any) -> list[Any]:
        out: list[Any] = []
        state = self.state
        for item in self.machine.iterate(iterable):  # `self.items`, one generator fewer
            state.steps += 1
            if state.steps > state.next_check:
                state.checkpoint()
            out.append(item)
            if len(out) > MAX_ITEMS:
                state.check_items(len(out))
        return out

    def builtins(self) -> dict[str, Any]:
        m = self.machine
        names: dict[str, Any] = {
            "print": Builtin("print", self.print_),
            # a script's `exit()` and `quit()` (the site module's): `sys.exit`'s SystemExit
            "exit": Builtin("exit", partial(exit_program, m)),
            "quit": Builtin("quit", partial(exit_program, m)),
            "len": Builtin("len", self.len_),
            "range": TypeObject("range", self.range_, (range,)),
            "sum": Builtin("sum", self.sum_),
            "min": Builtin("min", lambda a, k: self.extreme(a, k, "min")),
            "max": Builtin("max", lambda a, k: self.extreme(a, k, "max")),
            "abs": Builtin("abs", self.abs_),
            "round": Builtin("round", self.round_),
            "zip": TypeObject("zip", self.zip_, (zip, GeneratorType)),
            "enumerate": TypeObject("enumerate", self.enumerate_, (enumerate,)),
            "reversed": TypeObject("reversed", self.reversed_, (reversed,)),
            "sorted": Builtin("sorted", self.sorted_),
            "any": Builtin(
                "any", lambda a, k: any(m.truthy(x) for x in self.items(one(a, k, "any")))
            ),
            "all": Builtin(
                "all", lambda a, k: all(m.truthy(x) for x in self.items(one(a, k, "all")))
            ),
            "map": TypeObject("map", self.map_, (GeneratorType,)),
            "filter": TypeObject("filter", self.filter_, (GeneratorType,)),
            "isinstance": Builtin("isinstance", self.isinstance_),
            "issubclass": Builtin("issubclass", self.issubclass_),
            "repr": Builtin("repr", lambda a, k: m.texts.to_repr(one(a, k, "repr"))),
            "ascii": Builtin("ascii", lambda a, k: self.ascii_(one(a, k, "ascii"))),
            "format": Builtin("format", self.format_),
            "str": self.str_type(),
            "slice": TypeObject("slice", self.slice_, (slice,)),
            "int": TypeObject("int", self.int_, (int,)),
            "float": self.float_type(),
            "complex": TypeObject("complex", complex_, (complex,)),
            "bytes": TypeObject(
                "bytes", lambda a, k: binary.make(self.state, a, k, self.collect), (bytes,)
            ),
            "bool": TypeObject("bool", self.bool_, (bool,)),
            "list": TypeObject("list", self.list_, (list,)),
            "tuple": TypeObject("tuple", self.tuple_, (tuple,)),
            "set": TypeObject("set", self.set_, (PSet,)),
            "frozenset": TypeObject(
                "frozenset",
                lambda a, k: self.frozenset_(
                    a if not k and len(a) < 2 else _one_iterable("frozenset", a, k)
                ),
                (PSet,),
            ),
            "dict": self.dict_type(),
            "Value": TypeObject("Value", self.value_, (Value,)),
            **{name: Builtin(name, self.unary_function(name)) for name in FUNCTIONS},
            "NotImplemented": NotImplemented,
            "draw_dot": Inert("draw_dot"),
            "__name__": "__main__",  # `if __name__ == "__main__":` runs, as a script's does
            "__file__": FAKE_FILE,  # `os.path.dirname(__file__)`: the fake program's path
            **{name: cls for name, cls in m.exceptions.items() if name not in NOT_BUILTIN},
            "IOError": m.exceptions["OSError"],  # CPython's other names of OSError
            "EnvironmentError": m.exceptions["OSError"],
            # (classes, as CPython's: `isinstance(C.__dict__['x'], property)`)
            "property": TypeObject("property", self.property_, (PProperty,)),
            "object": self.object_class,
            "staticmethod": TypeObject(
                "staticmethod",
                lambda a, k: PStaticMethod(one(a, k, "staticmethod")),
                (PStaticMethod,),
            ),
            "classmethod": TypeObject(
                "classmethod",
                lambda a, k: PClassMethod(one(a, k, "classmethod")),
                (PClassMethod,),
            ),
            "getattr": Builtin("getattr", self.getattr_),
            "setattr": Builtin("setattr", self.setattr_),
            "hasattr": Builtin("hasattr", self.hasattr_),
            "delattr": Builtin("delattr", self.delattr_),
            "vars": Builtin("vars", self.vars_),
            "dir": Builtin("dir", lambda a, k: dir_of(m, a, k)),
            "callable": Builtin("callable", lambda a, k: callable_value(one(a, k, "callable"))),
            "pow": Builtin("pow", self.pow_),
            "divmod": Builtin("divmod", self.divmod_),
            "iter": Builtin("iter", self.iter_),
            "next": Builtin("next", self.next_),
            # An object's identity, as CPython gives it (its address): a number, no handle.
            "id": Builtin("id", self.id_),
            "hash": Builtin("hash", self.hash_),
            "ord": Builtin("ord", lambda a, k: ord(self.character(one(a, k, "ord")))),
            "chr": Builtin("chr", self.chr_),
            "bin": Builtin("bin", lambda a, k: bin(self.integer(one(a, k, "bin")))),
            "hex": Builtin("hex", lambda a, k: hex(self.integer(one(a, k, "hex")))),
            "oct": Builtin("oct", lambda a, k: oct(self.integer(one(a, k, "oct")))),
        }
        # `type` a type itself: `type(C) is type`, `isinstance(C, type)` of a class.
        names["type"] = TypeObject("type", self.type_of(names), (PClass, TypeObject))
        # `__builtins__.sum(...)`, `import builtins`: the built-ins above that CPython's
        # own module has, as the module a script's `__builtins__` is (a program that named
        # something `sum` reaches the built-in through it); the engine's extras are not in it.
        members = {name: value for name, value in names.items() if name in _CPYTHON_BUILTINS}
        self.builtins_module = PModule("builtins", members)
        names["__builtins__"] = self.builtins_module
        # `list[int]([1, 2])`: a generic alias called is its type called, as CPython's
        m.alias_origins = {name: names[name] for name in GENERIC_ALIASES}
        return names

    # Classes and attributes, by name

    def property_(self, args: list[Any], kwargs: dict[str, Any]) -> PProperty:
        """`property(fget, fset=None, fdel=None, doc=None)`, by position or keyword (the
        docstring taken and not kept: a property's `__doc__` is not read here)."""
        if len(args) > 4:
            words = f"property() takes at most 4 arguments ({len(args)} given)"
            raise ProgramError(words, kind="TypeError")
        given = dict(zip(("fget", "fset", "fdel", "doc"), args, strict=False))
        for key, value in kwargs.items():
            if key not in ("fget", "fset", "fdel", "doc"):
                words = f"'{key}' is an invalid keyword argument for property()"
                raise ProgramError(words, kind="TypeError")
            if key in given:
                words = f"argument for property() given by name ('{key}') and position"
                raise ProgramError(words, kind="TypeError")
            given[key] = value
        if given.get("fget") is None:
            raise ProgramError("property() takes a getter here", kind="TypeError")
        return PProperty(given["fget"], given.get("fset"), given.get("fdel"))

    def attribute_name(self, name: Any, function: str) -> str:
        if type(name) is not str:  # CPython's words
            words = f"attribute name must be string, not '{cpython_type(name)}'"
            raise ProgramError(words, kind="TypeError")
        if (
            is_dunder(name)
            and name not in METHOD_DUNDERS
            and not (function == "getattr" and name in READABLE_DUNDERS)
        ):
            # (an operator method, as `C.__mul__ = f` may write it: old tinygrad's
            # `setattr(Tensor, f"__{name}__", ...)`; `getattr(f, '__name__', ...)` reads
            # what `f.__name__` reads)
            raise ProgramError(f"{function}(): dunder attributes are not available here")
        if name.startswith(" "):  # the interpreter keeps its own entries under such names
            message = f"{function}(): no attribute is named {name!r}"
            raise ProgramError(message, kind="AttributeError")
        return name  # any other string, as CPython's (`setattr(self, str(i), layer)`)

    def getattr_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`getattr(obj, name[, default])`: no dunder name but an exception's chain and
        notes and those `obj.name` may read (`__name__`, `__qualname__`, `__doc__`...)."""
        if kwargs or not 2 <= len(args) <= 3:
            words = "getattr() takes an object, a name and a default"
            raise wrong_arguments(words, "getattr", args, kwargs, kind="TypeError")
        try:
            if args[1] in CHAIN_NAMES and type(args[1]) is str:  # `getattr(e, '__cause__')`
                return chain_attribute(self.machine, args[0], args[1])
            if args[1] == NOTES and type(args[1]) is str and self.is_exception(args[0]):
                return self.machine.get_attr(args[0], NOTES)  # an exception's notes
            if type(args[0]) is PInstance and falls_back(args[0], args[1]):  # its `__getattr__`
                return self.machine.getattr_fallback(args[0], args[1])
            return self.machine.get_attr(args[0], self.attribute_name(args[1], "getattr"))
        except ProgramError as error:
            if len(args) == 3 and error.kind == "AttributeError":
                return args[2]
            raise

    def delattr_(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        if kwargs or len(args) != 2:
            words = "delattr() takes an object and a name"
            raise wrong_arguments(words, "delattr", args, kwargs, kind="TypeError")
        self.machine.del_attr(args[0], self.attribute_name(args[1], "delattr"))

    def hasattr_(self, args: list[Any], kwargs: dict[str, Any]) -> bool:
        if kwargs or len(args) != 2:
            words = "hasattr() takes an object and a name"
            raise wrong_arguments(words, "hasattr", args, kwargs, kind="TypeError")
        if args[1] in CHAIN_NAMES and type(args[1]) is str and self.is_exception(args[0]):
            return True  # an exception's chain (`__traceback__` too, though refused)
        if args[1] == NOTES and type(args[1]) is str and self.is_exception(args[0]):
            return NOTES in args[0].attrs  # its notes, once `add_note` (or the program) set them
        if falls_back(*args):  # `hasattr(proxy, '__len__')`: its own `__getattr__` asked
            try:
                self.machine.getattr_fallback(args[0], args[1])
            except ProgramError as error:
                if error.kind == "AttributeError":
                    return False
                raise
            return True
        answer = has_dunder(*args)
        if answer is not None:
            return answer
        if type(args[1]) is str and is_dunder(args[1]):
            if type(args[0]) is Value:  # the engine's Value has micrograd 0.1.0's
                return args[1] in _VALUE_DUNDERS
            probe = None
            kind = kinds.kind_of(self.machine.collections, args[0])
            if kind is not None:  # `hasattr(dd, '__missing__')`: an empty one of its kind's
                probe = getattr(_host_collections, kind)()
            answer = host_has(args[0], args[1], _PLAIN_TYPES, probe)  # `hasattr(xs, '__len__')`
            if answer is not None:
                return answer
        try:
            self.machine.get_attr(args[0], self.attribute_name(args[1], "hasattr"))
        except ProgramError as error:
            if error.kind == "AttributeError":
                return False
            raise
        return True

    def is_exception(self, value: Any) -> bool:
        base = self.machine.exceptions["BaseException"]
        return type(value) is PInstance and base in value.cls.mro

    def vars_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`vars(obj)`: an instance's own attributes, the live dict as in CPython; only
        for the program's own objects (no argument: refused, there is no frame to see)."""
        if kwargs or len(args) != 1:
            raise ProgramError("vars() takes one of the program's objects here", kind="TypeError")
        value = args[0]
        if is_bare_object(value) or (type(value) is PInstance and value.cls.slots is not None):
            # `vars(object())`, and an object of a class with `__slots__`, have no `__dict__`
            raise ProgramError("vars() argument must have __dict__ attribute", kind="TypeError")
        if type(value) is PInstance:
            refused = tuple_dict_refusal(value.cls)
            if refused is not None:
                raise ProgramError(refused)
            return value.attrs
        if type(value) is PClass and not value.builtin:  # `vars(C)`: `C.__dict__`
            return self.machine.class_view(value)
        raise ProgramError(
            f"vars() argument must be one of the program's objects, not {a_type(value)}",
            kind="TypeError",
        )

    def setattr_(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        if kwargs or len(args) != 3:
            words = "setattr() takes an object, a name and a value"
            raise wrong_arguments(words, "setattr", args, kwargs, kind="TypeError")
        self.machine.set_attr(args[0], self.attribute_name(args[1], "setattr"), args[2])

    def type_of(self, names: dict[str, Any]) -> Call:
        """`type(x)`: the program's class, or the built-in type by which it was made
        (`type(1.0) is float`); only ever the program's own objects."""
        by_type: dict[type, Any] = {}
        for value in names.values():
            if isinstance(value, TypeObject) and value.name not in LAZY_TYPES:
                for kind in value.types:
                    by_type.setdefault(kind, value)
        others: dict[str, TypeObject] = {}
        none_type = TypeObject("NoneType", _none, (type(None),))

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if len(args) != 1:
                if len(args) == 3:  # `type('D', (Base,), {...})`: a class of the program's
                    return self.new_type(args, kwargs)
                raise ProgramError("type() takes 1 or 3 arguments", kind="TypeError")
            if kwargs:
                raise ProgramError("type() takes no keyword arguments", kind="TypeError")
            value = args[0]
            if type(value) is PInstance:
                return value.cls
            if type(value) is PClass or isinstance(value, TypeObject):  # a class's metaclass
                return ABC_META if type(value) is PClass and value.abc else names["type"]
            registry = self.machine.collections
            if registry and (type(value) is dict or type(value) is list):
                kind = kinds.kind_of(registry, value)
                if kind in self.machine.collection_types:  # `type(c).__name__` is 'Counter'
                    return self.machine.collection_types[kind]
            found = by_type.get(type(value))
            if found is not None:
                return names["frozenset"] if type(value) is PSet and value.frozen else found
            if value is None:  # `type(self.grad_fn).__name__` of a leaf: CPython's name
                return none_type
            lazy = iterator_name(value)  # `type(map(f, xs)) is map`, `list_iterator`
            if lazy is not None:
                if lazy in LAZY_TYPES:
                    return names[lazy]
                if lazy not in others:
                    made = _not_constructible(lazy, "")  # (as in CPython: none has a constructor)
                    others[lazy] = TypeObject(lazy, made, (type(value),))
                return others[lazy]
            if (
                type(value) is Annotation
                and value.args
                and (value.name in _ALIAS_TYPES or value.origin is not None)
            ):
                # `type(int | None)`: `types.UnionType`; `S[int]` of `class S(list)` too
                name = _ALIAS_TYPES.get(value.name, "GenericAlias")
                if name not in others:
                    others[name] = TypeObject(name, _not_constructible(name), (), "types.")
                return others[name]
            name = python_type_name(value)  # `type(print).__name__` as CPython's too
            if name not in others:
                others[name] = TypeObject(name, _not_constructible(name), ())
            return others[name]

        return call

    def new_type(self, args: list[Any], kwargs: dict[str, Any]) -> PClass:
        """`type(name, bases, namespace)`: a class of the program's, made of its bases and
        names as a class statement makes one (`Compiler.make_class`), the keywords its
        bases' `__init_subclass__`'s; CPython's TypeErrors for a name, bases or namespace
        of another type. Its bases are what a class statement takes, its names
        identifiers, as a class body binds them (none of the interpreter's own), copied."""
        name, bases, given = args
        if type(given) is PInstance and type(enum_mixin_value(given)) is dict:
            if any(
                "__iter__" in c.namespace and BUILTIN_BASE_KEY not in c.namespace
                for c in given.cls.mro
            ):  # CPython's copy then asks its `keys()` and `__getitem__`, not done here
                words = "type(name, bases, dict) of a dict whose class has its own __iter__"
                raise ProgramError(f"{words} is not available here: pass dict(...) of it")
            given = enum_mixin_value(given)  # `class R(dict)`: the dict it is, as CPython reads
        for index, (value, wanted) in enumerate(((name, str), (bases, tuple), (given, dict))):
            if type(value) is not wanted:
                words = f"type.__new__() argument {index + 1} must be {wanted.__name__}, "
                raise ProgramError(words + f"not {cpython_type(value)}", kind="TypeError")
        compiler = self.compiler
        if compiler is None:
            raise ProgramError("type(name, bases, dict) is not available here")
        self.state.charge(1 + (len(bases) + len(given)) // ITEMS_PER_STEP)
        namespace: dict[str, Any] = {}
        for key, value in given.items():
            if type(key) is not str or key.startswith(" "):
                # any string, as `setattr(C, name, v)` takes, but the interpreter's own
                kind = cpython_type(key)
                shown = repr(key[:40]) if type(key) is str else f"a key of type '{kind}'"
                words = "type(): a class's names here are strings that do not start with a"
                raise ProgramError(f"{words} space, not {shown}")
            namespace[key] = value
        if "__del__" in namespace:  # as in a class body: never run here
            words = "`__del__` is not run here (objects are never collected, as CPython's are)"
            raise ProgramError(words)
        qualname = namespace.pop("__qualname__", name)
        if type(qualname) is not str:
            words = f"type __qualname__ must be a str, not {cpython_type(qualname)}"
            raise ProgramError(words, kind="TypeError")
        base_classes = compiler.class_bases(name, list(bases))
        if any(
            ENUM_KEY in c.namespace or NAMEDTUPLE_KEY in c.namespace
            for base in base_classes
            for c in base.mro
        ):
            words = "type(name, bases, dict) of an Enum or a NamedTuple is not available here"
            raise ProgramError(words + ": write its class statement")
        doc = namespace.get("__doc__")
        cls: PClass = compiler.make_class(
            name, base_classes, namespace, False, doc if type(doc) is str else None, qualname
        )
        compiler.finish_making(cls, name, namespace, kwargs)
        return cls

    def id_(self, args: list[Any], kwargs: dict[str, Any]) -> int:
        self.state.hash_taint = True  # an address: not the same in every run
        return id(one(args, kwargs, "id"))

    def hash_(self, args: list[Any], kwargs: dict[str, Any]) -> int:
        value = self.machine.key(one(args, kwargs, "hash"))
        if not ordered_by_hash(value) and (
            type(value) is not PInstance or value.cls.hash_rule is None
        ):
            self.state.hash_taint = True  # a string's or an identity's hash
        if type(value) is PInstance:
            if not value.cls.equipped:
                self.machine.equip(value.cls)
            return hash(value)  # its class's rule: identity, its `__hash__`, or a refusal
        try:
            return hash(value)
        except TypeError:
            raise ProgramError(f"{a_type(value)} cannot be hashed", kind="TypeError") from None

    def character(self, value: Any) -> str:
        if type(value) is not str:  # CPython's words (a bytes object's of its length too)
            words = f"ord() expected string of length 1, but {cpython_type(value)} found"
            raise ProgramError(words, kind="TypeError")
        if len(value) != 1:
            words = f"ord() expected a character, but string of length {len(value)} found"
            raise ProgramError(words, kind="TypeError")
        return value

    def index(self, value: Any) -> int:
        """An int, a bool's as an int, or what an object's own `__index__` gives (as
        `range()` and `hex()` take one); CPython's TypeError for anything else
        (`range(len(xs) / 2)`)."""
        if type(value) is int or type(value) is bool:
            return int(value)
        if type(value) is PInstance:
            index: Any = self.machine.index_of(value)
            if type(index) is int:  # (NO_METHOD where its class has none)
                return index
        message = f"'{cpython_type(value)}' object cannot be interpreted as an integer"
        raise ProgramError(message, kind="TypeError")

    def integer(self, value: Any) -> int:
        whole = self.index(value)
        self.state.charge(whole.bit_length() // 64)
        return whole

    def chr_(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        code = self.integer(one(args, kwargs, "chr"))
        if not -(2**31) <= code < 2**31:  # CPython's C int first
            raise ProgramError("Python int too large to convert to C int", kind="OverflowError")
        if not 0 <= code <= 0x10FFFF:
            raise ProgramError("chr() arg not in range(0x110000)", kind="ValueError")
        return chr(code)

    def pow_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or not 2 <= len(args) <= 3:
            words = "pow() takes two or three arguments"
            raise wrong_arguments(words, "pow", args, kwargs, kind="TypeError")
        if len(args) == 2:
            return self.machine.binary("**", args[0], args[1])
        base, exponent, modulus = args
        if modulus is None:  # CPython's two-argument pow
            return self.machine.binary("**", base, exponent)
        if not all(type(a) in (int, bool) for a in args):
            if any(type(a) is PInstance for a in args):
                raise ProgramError("pow() with a modulus takes integers", kind="TypeError")
            raise ternary_pow_error(args)
        # A multiplication and a division of the modulus's size per bit of the exponent,
        # quadratic in the modulus's 64-bit words (4,096 bits: ~0.2-0.7 s of CPython's
        # time for a 4,096-bit exponent, which was charged 4,096 steps).
        size = int(modulus).bit_length() // 64
        self.state.charge(max(1, int(exponent).bit_length()) * (1 + size * size // 64))
        try:
            return self.state.check_int(pow(base, exponent, modulus))
        except (ValueError, ZeroDivisionError) as error:  # CPython's class and words
            raise caught_as(f"pow(): {error}", error) from None

    def divmod_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or len(args) != 2:
            words = "divmod() takes two numbers"
            raise wrong_arguments(words, "divmod", args, kwargs, kind="TypeError")
        binary = self.machine.binary
        args = [_plain_member(a) for a in args]  # an IntEnum's member: its int
        if type(args[0]) is PInstance or type(args[1]) is PInstance:
            return self.divmod_objects(args[0], args[1])
        if type(args[0]) not in NUMBERS or type(args[1]) not in NUMBERS:
            raise ProgramError(
                "unsupported operand type(s) for divmod(): "
                f"'{python_type_name(args[0])}' and '{python_type_name(args[1])}'",
                kind="TypeError",
            )
        if type(args[1]) in NUMBERS and args[1] == 0 and type(args[0]) in NUMBERS:
            float_ = type(args[0]) is float or type(args[1]) is float
            zero = ZeroDivisionError(
                "float divmod()" if float_ else "integer division or modulo by zero"
            )
            raise caught_as("divmod(): division by zero", zero)
        return (binary("//", args[0], args[1]), binary("%", args[0], args[1]))

    def divmod_objects(self, left: Any, right: Any) -> Any:
        """`divmod(a, b)` with an object of the program's: `a.__divmod__(b)`, else
        `b.__rdivmod__(a)` (a subclass's first, as for any operator), else CPython's
        TypeError; never `//` and `%` (CPython's `divmod` does not ask them)."""
        call_dunder = self.machine.call_dunder
        first = type(right) is PInstance and (
            type(left) is not PInstance or (right.cls is not left.cls and left.cls in right.cls.mro)
        )
        tries = [(right, "__rdivmod__", left), (left, "__divmod__", right)]
        if not first:
            tries.reverse()
        for obj, method, other in tries:
            if type(obj) is PInstance:
                result = call_dunder(obj, method, other)
                if result is not NO_METHOD and result is not NotImplemented:
                    return result
        raise ProgramError(
            "unsupported operand type(s) for divmod(): "
            f"'{python_type_name(left)}' and '{python_type_name(right)}'",
            kind="TypeError",
        )

    def next_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if kwargs or not 1 <= len(args) <= 2:
            words = "next() takes an iterator and a default"
            raise wrong_arguments(words, "next", args, kwargs, kind="TypeError")
        iterator = args[0]
        if type(iterator) is PInstance and iterator.cls.lookup("__next__") is not MISSING:
            return self.next_of_object(iterator, args)
        if type(iterator) is TextBuffer:  # `next(buffer)`: its next line, as CPython's
            line = iterator.methods["readline"](iterator.buffer, [], {})
            if line:
                return line
            if len(args) == 2:
                return args[1]
            raise stop_iteration(None)
        if type(iterator) not in ITERATOR_TYPES:
            message = f"'{cpython_type(iterator)}' object is not an iterator"
            raise ProgramError(message, kind="TypeError")
        self.state.charge(1)
        try:
            return next(iterator)
        except StopIteration as stop:
            if len(args) == 2:
                return args[1]
            raise stop_iteration(stop.value) from None

    def next_method(self, iterator: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`it.__next__()`: `next(it)` with no default, CPython's method-wrapper."""
        if kwargs:
            words = "wrapper __next__() takes no keyword arguments"
            raise ProgramError(words, kind="TypeError")
        if args:
            raise ProgramError(f"expected 0 arguments, got {len(args)}", kind="TypeError")
        return self.next_([iterator], {})

    def next_of_object(self, iterator: PInstance, args: list[Any]) -> Any:
        """`next(it)` of the program's own iterator: its `__next__`, whose StopIteration
        gives the default when there is one, as CPython's."""
        machine = self.machine
        self.state.charge(1)
        try:
            return machine.call_dunder(iterator, "__next__")
        except ProgramError as error:
            stop = machine.exceptions.get("StopIteration")
            if (
                len(args) == 2
                and stop is not None
                and error_matches(error, stop, machine.exceptions)
            ):
                return args[1]
            raise

    def unary_function(self, name: str) -> Call:
        """`tanh(x)` and friends of the straight-line language: a Value's method, or the
        function of a plain number."""
        number_function = NUMBER_FUNCTIONS[name]

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            value = one(args, kwargs, name)
            if type(value) is Value:
                return self.machine.value_method(value, name, [])
            if type(value) not in NUMBERS:
                raise ProgramError(f"{name}() takes a Value or a number, not {a_type(value)}")
            try:
                return number_function(value)
            except (ArithmeticError, ValueError) as error:
                raise number_error(name, error) from None

        return call

    builtins_module: PModule | None = None

    def warn(self, text: str, category: str) -> None:
        """`warnings.warn(text, category, 2)` in a library function (`logger.warn`'s
        DeprecationWarning): shown at the program's line that called it, through the
        filters of the program's `warnings`, as CPython's."""
        if self.compiler is not None:
            warn = self.compiler.library_module("warnings")()["warn"]
            self.machine.call(warn, [text, self.compiler.builtins[category]], {})

    def modules(self) -> Modules:
        if self.builtins_module is None:
            self.builtins()
        assert self.builtins_module is not None
        made = {
            "math": self.math_module(),
            "random": self.random_module(self.state.rng),
            "builtins": self.builtins_module,
        }
        table = self.machine.module_table = Modules(made, stdlib_modules(self))
        return table

    # Built-in functions

    def format_(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        """`format(x, ".4f")`: one f-string field, formatted by the interpreter's own code."""
        if kwargs or not 1 <= len(args) <= 2:
            raise ProgramError("format() takes a value and a format spec", kind="TypeError")
        spec = args[1] if len(args) == 2 else ""
        if type(spec) is not str:
            raise ProgramError("format() argument 2 must be str", kind="TypeError")
        return self.machine.texts.format(args[0], spec)

    def print_(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        sep = kwargs.pop("sep", " ")
        end = kwargs.pop("end", "\n")
        kwargs.pop("flush", None)  # the panel has no buffer to flush
        file = kwargs.pop("file", STDOUT)
        file = STDOUT if file is None else file  # `print(x, file=None)`: stdout, as CPython's
        if type(file) is not Stream and type(file) is not TextBuffer:  # (a run's `sys.stdout`)
            raise ProgramError(
                "print() writes to the print panel (file=sys.stdout) or an io.StringIO only"
            )
        if kwargs:
            raise ProgramError(f"print() got an unexpected keyword argument '{next(iter(kwargs))}'")
        sep = " " if sep is None else sep  # `print(x, end=None)`: the default, as CPython's
        end = "\n" if end is None else end
        for name, given in (("sep", sep), ("end", end)):
            if type(given) is not str:
                message = f"{name} must be None or a string, not {cpython_type(given)}"
                raise ProgramError(message, kind="TypeError")
        if type(file) is TextBuffer:  # `print(..., file=io.StringIO())`: into its text
            texts: list[str] = []
            length = len(end)
            for arg in args:  # measured part by part, as a printed line is
                texts.append(self.machine.texts.to_str(arg))
                length += len(texts[-1]) + (len(sep) if len(texts) > 1 else 0)
                self.state.check_str(length)
            file.methods["write"](file.buffer, [sep.join(texts) + end], {})
            return
        # Measured part by part: a line is refused before it is joined, not after.
        room = MAX_PRINTED - self.state.printed
        total = len(end)
        parts: list[str] = []
        for arg in args:
            part = self.machine.texts.to_str(arg)
            total += len(part) + (len(sep) if parts else 0)
            if total > room:
                raise ProgramError(f"the program printed more than {MAX_PRINTED:,} characters")
            parts.append(part)
        self.state.charge(total // ITEMS_PER_STEP)
        self.state.printed += total
        self.printed(sep.join(parts) + end)

    def len_(self, args: list[Any], kwargs: dict[str, Any]) -> int:
        value = one(args, kwargs, "len")
        if type(value) in (list, tuple, dict, str, range, bytes) or type(value) in SIZED:
            return len(value)
        if type(value) is PInstance:
            result = self.machine.call_dunder(value, "__len__")
            if result is not NO_METHOD:
                return length_of(result)
        if type(value) is PClass:
            members = self.machine.enum_members(value)
            if members is not None:  # `len(Op)`: its members, as CPython's
                return len(members)
        missing = TypeError(f"object of type '{python_type_name(value)}' has no len()")
        raise caught_as(f"{a_type(value)} has no len()", missing)

    def range_(self, args: list[Any], kwargs: dict[str, Any]) -> range:
        not_int = [a for a in args if type(a) not in (int, bool)]
        if not_int and any(enum_mixin_value(a) is not a for a in not_int):
            args = [enum_mixin_value(a) for a in args]  # `range(Level.HIGH)`: its int
            not_int = [a for a in args if type(a) not in (int, bool)]
        if not kwargs and 1 <= len(args) <= 3 and not_int:
            args = [self.index(a) for a in args]  # an object's `__index__`, else refused
            not_int = []
        if kwargs or not 1 <= len(args) <= 3 or not_int:
            raise wrong_arguments("range() takes one to three integers", "range", args, kwargs)
        try:
            return range(*args)
        except ValueError as error:  # a step of 0: CPython's ValueError, caught as one
            raise caught_as(f"range(): {error}", error) from None

    def sum_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        start = kwargs.pop("start", 0)
        if kwargs or not 1 <= len(args) <= 2:
            words = "sum() takes an iterable and an optional start"
            raise wrong_arguments(words, "sum", args, kwargs)
        total = args[1] if len(args) == 2 else start
        if type(total) is str:
            wrong = TypeError("sum() can't sum strings [use ''.join(seq) instead]")
            raise caught_as("sum() of strings: use ''.join(...)", wrong)
        binary = self.machine.binary
        state = self.state
        for item in self.machine.iterate(args[0]):  # `self.items`, one generator fewer
            state.steps += 1
            if state.steps > state.next_check:
                state.checkpoint()
            total = binary("+", total, item)
        return total

    def extreme(self, args: list[Any], kwargs: dict[str, Any], which: str) -> Any:
        key = kwargs.pop("key", None)
        has_default = "default" in kwargs
        default = kwargs.pop("default", None)
        if kwargs:  # CPython's TypeError, `'x' is an invalid keyword argument for max()`
            words = f"{which}() takes only key= and default= keywords"
            raise wrong_arguments(words, which, args, kwargs)
        if not args:  # `min()`: CPython's TypeError
            raise wrong_arguments(f"{which}() of an empty sequence", which, args, kwargs)
        if has_default and len(args) > 1:
            words = f"Cannot specify a default for {which}() with multiple positional arguments"
            raise ProgramError(words, kind="TypeError")
        candidates = self.collect(args[0]) if len(args) == 1 else list(args)
        if not candidates:
            if has_default:
                return default
            empty = ValueError(f"{which}() arg is an empty sequence")
            raise caught_as(f"{which}() of an empty sequence", empty)
        best = candidates[0]
        best_key = best if key is None else self.machine.call(key, [best])
        op = "<" if which == "min" else ">"
        for item in candidates[1:]:
            item_key = item if key is None else self.machine.call(key, [item])
            if self.machine.compare(op, item_key, best_key):
                best, best_key = item, item_key
        return best

    def abs_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        value = one(args, kwargs, "abs")
        if type(value) in NUMBERS:
            return abs(value)
        if type(value) is complex:
            try:
                return abs(value)
            except OverflowError as error:  # `abs(1e308 + 1e308j)`
                raise caught_as(f"abs(): {error}", error) from None
        if type(value) is PInstance:
            result = self.machine.call_dunder(value, "__abs__")
            if result is not NO_METHOD:
                return result
        wrong = TypeError(f"bad operand type for abs(): '{python_type_name(value)}'")
        raise caught_as(f"abs() needs a number, not {a_type(value)}", wrong)

    def iter_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`iter(x)`, and `iter(f, sentinel)`: `f()` called until it gives the sentinel."""
        if len(args) == 2 and not kwargs:
            function, sentinel = args
            if not callable_object(function):
                raise ProgramError("iter(v, w): v must be callable", kind="TypeError")
            return self.until_sentinel(function, sentinel)
        return self.machine.iter_of(one(args, kwargs, "iter"))

    def until_sentinel(self, function: Any, sentinel: Any) -> Iterator[Any]:
        machine = self.machine
        while True:
            value = machine.call(function, [])
            if machine.compare("==", value, sentinel):
                return
            yield value

    def round_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`round(x)`, `round(x, n)`, `round(x, None)`, `round(number=x, ndigits=n)`:
        CPython's results and words, on numbers only."""
        given = _round_arguments(args, kwargs)
        if given is None:
            words = "round() takes a number and an optional number of digits"
            raise wrong_arguments(words, "round", args, kwargs)
        number, digits = given
        named = number  # (CPython's words name the member's class)
        if type(number) is PInstance:  # an IntEnum's member is its int (`round(Level.HIGH)`)
            number = enum_mixin_value(number)
        if type(number) is PInstance and number.cls.lookup("__round__") is not MISSING:
            # its class's own `__round__`, given the digits only when they are not None
            extra = () if digits is None else (digits,)
            return self.machine.call_dunder(number, "__round__", *extra)
        if type(number) not in NUMBERS:
            if type(number) is Value:
                raise ProgramError(f"round() of {a_type(number)} is not available here")
            no_round = TypeError(f"type {python_type_name(named)} doesn't define __round__ method")
            raise caught_as(f"round() of {a_type(named)}", no_round)
        if type(digits) is PInstance and digits.cls.lookup("__index__") is not MISSING:
            digits = self.index(digits)  # its class's `__index__`
        if digits is not None and type(digits) not in (int, bool):
            name = python_type_name(digits)
            not_index = TypeError(f"'{name}' object cannot be interpreted as an integer")
            raise caught_as("round()'s digits must be an integer", not_index)
        if type(number) is not float and digits is not None and digits < -1300:
            return 0  # CPython's answer (an int within 4,096 bits is below 10 ** 1234)
        try:
            result = round(number, digits)
        except (OverflowError, ValueError) as error:
            raise number_error("round", error) from None
        return result if type(result) is float else self.state.check_int(result)

    def zip_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if set(kwargs) - {"strict"}:
            words = "zip() takes only the strict= keyword"
            raise wrong_arguments(words, "zip", args, kwargs, cpython=zip)
        strict = self.machine.truthy(kwargs.get("strict", False))
        if not strict:
            # (no `strict=False` written: a keyword costs `zip` a dict at each call)
            return zip(*[self.flat(arg) for arg in args])  # noqa: B905
        return _strict_zip([self.flat(arg) for arg in args])

    def enumerate_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`enumerate(iterable, start=0)`, either by name, as CPython's, with its
        TypeErrors for the wrong arguments and a start that is no integer."""
        places = {"iterable": 0, "start": 1}
        if (
            len(args) > 2
            or any(places.get(key, 0) < len(args) for key in kwargs)
            or (not args and "iterable" not in kwargs)
        ):
            words = "enumerate() takes an iterable and an optional integer start"
            raise wrong_arguments(words, "enumerate", args, kwargs, cpython=enumerate)
        iterable = args[0] if args else kwargs["iterable"]
        start = args[1] if len(args) > 1 else kwargs.get("start", 0)
        if type(start) is PInstance:  # its class's `__index__`
            start = self.index(start)
        if type(start) is not int and type(start) is not bool:
            words = f"'{cpython_type(start)}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        return enumerate(self.flat(iterable), int(start))

    def ascii_(self, value: Any) -> str:
        """`ascii(x)`: `repr(x)` with each character past ASCII escaped, as CPython's
        (`\\xe9`, `\\u20ac`, `\\U0001f600`), within the string bound."""
        text = self.machine.texts.to_repr(value)
        if text.isascii():
            return text
        wide = sum(
            1 if ord(c) < 128 else 4 if ord(c) < 256 else 6 if ord(c) < 65536 else 10 for c in text
        )
        self.state.charge(len(text) // ITEMS_PER_STEP)
        self.state.check_str(wide)
        return text.encode("ascii", "backslashreplace").decode("ascii")

    def reversed_(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        value = one(args, kwargs, "reversed")
        if type(value) in (list, tuple, str, range, bytes):
            return reversed(value)
        if type(value) is dict or type(value) is MappingProxyType or type(value) in VIEWS:
            self.state.charge(len(value) // ITEMS_PER_STEP)
            return reversed(list(value))
        if type(value) is PInstance:
            return self.reversed_object(value)
        if type(value) is PClass:  # `reversed(Op)`: an Enum's members, last first
            members = self.machine.enum_members(value)
            if members is not None:
                return reversed(members)
        words = f"'{python_type_name(value)}' object is not reversible"
        raise ProgramError(words, kind="TypeError")

    def reversed_object(self, value: PInstance) -> Any:
        """`reversed(obj)` of the program's object, as CPython's: its class's
        `__reversed__`, else its items from `len(obj) - 1` down to 0 by `__getitem__`
        (ending early at an IndexError or StopIteration it raises), else a TypeError."""
        machine = self.machine
        cls = value.cls
        declared = cls.lookup("__reversed__")
        if declared is None:  # `__reversed__ = None`: CPython's "not reversible"
            words = f"'{python_type_name(value)}' object is not reversible"
            raise ProgramError(words, kind="TypeError")
        found = machine.call_dunder(value, "__reversed__")
        if found is not NO_METHOD:
            return found
        if cls.lookup("__getitem__") is MISSING:
            words = f"'{python_type_name(value)}' object is not reversible"
            raise ProgramError(words, kind="TypeError")
        count = self.len_([value], {})

        def items() -> Iterator[Any]:
            for index in range(count - 1, -1, -1):
                try:
                    item = machine.get_item(value, index)
                except ProgramError as error:
                    if error.kind in ("IndexError", "StopIteration"):
                        return
                    raise
                yield item

        return items()

    def sorted_(self, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        key = kwargs.pop("key", None)
        reverse = kwargs.pop("reverse", False)
        if kwargs or len(args) != 1:
            words = "sorted() takes an iterable and key=, reverse= keywords"
            refused = wrong_arguments(words, "sorted", args, kwargs)
            if len(args) == 1:  # (a keyword list.sort() has not: CPython's words name it)
                refused.kind = "TypeError"
                refused.args_seen = (
                    f"'{next(iter(kwargs))}' is an invalid keyword argument for sort()",
                )
            raise refused
        items = self.collect(args[0])
        self.sort(items, key, reverse)
        return items

    def sort(self, items: list[Any], key: Any, reverse: Any) -> None:
        """Sort `items` in place, as CPython's `list.sort`: the list is empty while its
        keys and comparisons run (a key or `__lt__` that appends to it no longer grows
        what is being sorted, nor one that clears it breaks the sort), then holds its
        items sorted; one changed meanwhile is CPython's ValueError, its changes dropped."""
        if type(reverse) is PInstance:  # its class's `__index__`
            reverse = self.index(reverse)
        if type(reverse) is not bool and type(reverse) is not int:  # as CPython's C int
            words = f"'{cpython_type(reverse)}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        if not -(2**31) <= reverse < 2**31:
            raise ProgramError("Python int too large to convert to C int", kind="OverflowError")
        saved = items[:]
        items.clear()
        try:
            self.sort_items(saved, key, reverse)
        finally:
            modified = bool(items)
            items[:] = saved
        if modified:
            raise ProgramError("list modified during sort", kind="ValueError")

    def sort_items(self, items: list[Any], key: Any, reverse: Any) -> None:
        keys = items if key is None else [self.machine.call(key, [item]) for item in items]
        if any(type(k) is PInstance for k in keys):
            self.sort_by_dunders(items, keys, reverse)
            return
        size = 0
        for k in keys:
            if type(k) not in NUMBERS and type(k) not in (str, tuple, list, complex, bytes):
                # None, a set, a dict, a node…: compared one pair at a time as CPython's
                # sort compares them (a set's `<` is a subset; None's CPython's TypeError)
                self.sort_by_dunders(items, keys, reverse)
                return
            if type(k) in (tuple, list):
                size += 1 + self.state.measure(k)
                if holds_instance(k):
                    # `(priority, node)` pairs: a tie compares the program's objects by
                    # their own `__lt__` (or CPython's TypeError naming their class).
                    self.sort_by_dunders(items, keys, reverse)
                    return
            else:
                size += 1
        # n log n comparisons, each walking its keys.
        self.state.charge(size * max(1, len(items).bit_length()))
        order = list(range(len(items)))
        try:
            order.sort(key=keys.__getitem__, reverse=self.machine.truthy(reverse))
        except TypeError as error:  # Python's own sort of the same keys: CPython's words
            raise caught_as("these items cannot be compared with each other", error) from None
        items[:] = [items[i] for i in order]

    def sort_by_dunders(self, items: list[Any], keys: list[Any], reverse: Any) -> None:
        """Sort objects of the program's classes by their own `__lt__`, called as CPython's
        sort calls it (the same algorithm, so the same pairs in the same order), each call
        a call of the program's, within its steps, depth and time."""
        compare = self.machine.compare
        self.state.charge(len(items) * max(1, len(items).bit_length()))
        wrapped = [_Ordered(k, compare) for k in keys]
        order = list(range(len(items)))
        order.sort(key=wrapped.__getitem__, reverse=self.machine.truthy(reverse))
        items[:] = [items[i] for i in order]

    def map_(self, args: list[Any], kwargs: dict[str, Any]) -> Iterator[Any]:
        if kwargs or len(args) < 2:
            words = "map() takes a function and at least one iterable"
            raise wrong_arguments(words, "map", args, kwargs, cpython=map)
        iterables = [self.flat(arg) for arg in args[1:]]
        return _mapped(self.machine.call, args[0], iterables)

    def flat(self, value: Any) -> Iterator[Any]:
        """An iterable for a lazy built-in (`zip`, `enumerate`, `map`, `filter`); another
        lazy one is read into a list first, step by step within the limits.

        So built-ins wrapped in built-ins chain no deeper than `MAX_LAZY_CHAIN`: CPython's
        own iterators recurse in C when a chain tens of thousands deep is read or freed,
        past any limit of ours (a crash, not an error). Example: `enumerate(zip(a, b))`
        of lists reads the zip first; of the program's generators, as it goes (below).
        """
        iterator = self.machine.iterate(value)
        if type(value) not in _LAZY or is_program_generator(value) or reads_generator(value):
            # A generator of the program's own is read as it goes, as CPython's `zip`
            # reads it (its prints come in CPython's order; an endless one, as a data
            # loader is, ends where the loop breaks), through a few built-ins too
            # (`enumerate(zip(g, h))`): each resumption counts as a call, so a chain
            # through it stops at the call depth.
            return iterator
        items: list[Any] = []
        charge = self.state.charge
        for item in iterator:
            items.append(item)
            charge(1)
            if len(items) > MAX_ITEMS:
                self.state.check_items(len(items))
        return iter(items)

    def filter_(self, args: list[Any], kwargs: dict[str, Any]) -> Iterator[Any]:
        if kwargs or len(args) != 2:
            words = "filter() takes a function (or None) and an iterable"
            raise wrong_arguments(words, "filter", args, kwargs, cpython=filter)
        machine = self.machine
        return _filtered(machine.truthy, machine.call, args[0], [self.flat(args[1])])

    def isinstance_(self, args: list[Any], kwargs: dict[str, Any]) -> bool:
        if not kwargs and len(args) == 2:
            cls = args[1]
            if type(cls) is PClass and cls is not self.object_class:
                # `isinstance(other, Value)`: the loop's answer below for one class of the
                # program's, sooner.
                return self.class_instance(args[0], cls)
        if kwargs or len(args) != 2:
            words = "isinstance() takes an object and a class (or a tuple of them)"
            raise wrong_arguments(words, "isinstance", args, kwargs)
        value, classes = args
        not_a_class = "isinstance() arg 2 must be a type, a tuple of types, or a union"
        if classes is None:
            raise ProgramError(not_a_class, kind="TypeError")
        options = classes if type(classes) is tuple else (classes,)
        self.charge_classes(options, value)
        for cls in options:
            if cls is self.object_class:
                return True  # everything is an object
            if cls is None:  # from `int | None`
                if value is None:
                    return True
                continue
            if type(cls) is PClass:
                if self.class_instance(value, cls):
                    return True
            elif cls is ABC_META:  # `isinstance(C, ABCMeta)`: C's metaclass is ABCMeta
                if type(value) is PClass and value.abc:
                    return True
            elif isinstance(cls, TypeObject):
                if cls.types == (tuple,) and named_tuple(value):
                    return True  # a named tuple is a tuple
                # an IntEnum's or StrEnum's member: an int, a str
                plain = enum_mixin_value(value) if type(value) is PInstance else value
                if (
                    type(plain) in cls.types or (cls.types == (int,) and type(plain) is bool)
                ) and self.kind_fits(plain, cls):
                    return True
            elif type(cls) is Annotation and cls.name in ABSTRACT_CLASSES:
                if cls.args:  # `isinstance(x, List[int])`: CPython's TypeError
                    words = "Subscripted generics cannot be used with class and instance checks"
                    raise ProgramError(words, kind="TypeError")
                if type(value) is PInstance:  # its class's MRO walked for each method asked
                    self.state.charge(len(value.cls.mro) // 2)
                if abstract_instance(cls.name, value) and (
                    # a deque is no `typing.List` (a list here, kept apart by its kind)
                    cls.name != "List"
                    or not self.machine.collections
                    or kinds.kind_of(self.machine.collections, value) != "deque"
                ):
                    return True
            elif type(cls) in _NOT_CLASSES:  # `isinstance(v, 'Value')`: CPython's TypeError
                raise ProgramError(not_a_class, kind="TypeError")
            elif type(cls) is Annotation and (members := self.union_members(cls)) is not None:
                # `int | None`, `Optional[int]`, in a tuple too: each member of the union
                if self.isinstance_([value, members], {}):
                    return True
            elif type(cls) is Annotation and (
                cls.name == "|" or cls.name in GENERIC_ALIASES or cls.origin is not None
            ):
                # `isinstance(x, list[int])`, `list[int] | None`: CPython's TypeError
                words = "isinstance() argument 2 cannot be a parameterized generic"
                raise ProgramError(words, kind="TypeError")
            else:
                raise ProgramError("isinstance()'s second argument must be a class")
        return False

    def class_instance(self, value: Any, cls: PClass) -> bool:
        """`isinstance(value, C)` of a class of the program's kind: an object of it or of
        a subclass, a number of `numbers.Number` (`isinstance(3, numbers.Number)`), an
        object a runtime protocol's members fit."""
        if type(value) is PInstance and cls in value.cls.mro:
            return True
        if NUMBER_KEY in cls.namespace:
            return number_instance(value)
        if TYPEDDICT_KEY in cls.namespace:
            raise ProgramError(NO_TYPEDDICT_CHECKS, kind="TypeError")
        return RUNTIME_PROTOCOL in cls.namespace and self.protocol_instance(value, cls)

    def kind_fits(self, value: Any, cls: TypeObject) -> bool:
        """`isinstance(c, Counter)` only of a Counter; `isinstance(d, list)` not of a
        deque (a Counter, an OrderedDict and a defaultdict are dicts)."""
        if type(value) is PSet:  # a set is no frozenset, nor a frozenset a set
            return value.frozen == (cls.name == "frozenset")
        if type(value) is GeneratorType:  # `isinstance(m, map)`: made by `map`
            return iterator_name(value) == cls.name
        registry = self.machine.collections
        types = self.machine.collection_types
        wanted = next((k for k, t in types.items() if t is cls), None) if types else None
        if wanted is not None:
            return kinds.kind_of(registry, value) == wanted
        if not registry or type(value) is not list:
            return True
        return kinds.kind_of(registry, value) != "deque"

    def union_members(self, option: Annotation) -> tuple[Any, ...] | None:
        """The classes a union names, as `isinstance` and `issubclass` read it (`int |
        None`, typing's `Optional[int]`), each read charged; None where it is no union
        of classes (`list[int] | None`: CPython's TypeError, as `list[int]`'s)."""
        if not option.args:
            return None
        if option.name in TYPING_UNIONS or (
            option.name == "|" and all(type(m) is not Annotation for m in option.args)
        ):
            return tuple(union_members(option, self.state.charge))
        return None

    def charge_classes(self, options: tuple[Any, ...], value: Any) -> None:
        """`isinstance(x, t)` of a tuple (or union) of thousands of classes, in a loop: each
        class looked for in the MRO of `value`'s class (or of `value`), charged."""
        if len(options) >= ITEMS_PER_STEP:
            cls = value.cls if type(value) is PInstance else value
            mro = len(cls.mro) if type(cls) is PClass else 1
            self.state.charge(len(options) * mro // ITEMS_PER_STEP)

    def protocol_instance(self, value: Any, cls: PClass) -> bool:
        """`isinstance(x, P)` of a `@runtime_checkable` protocol `P`, as CPython 3.11's
        `_ProtocolMeta.__instancecheck__`: `x` has every member the protocol's classes
        define or annotate (a method's name not None on `x`), asked as `hasattr` asks;
        a step per member."""
        members: dict[str, Any] = {}
        for klass in cls.mro:
            if klass.namespace.get(PROTOCOL_KEY) or klass is self.object_class:
                break
            for name in (*klass.namespace.get(ANNOTATIONS, ()), *klass.namespace):
                if name.isidentifier() and name not in _NOT_PROTOCOL_MEMBERS:
                    members.setdefault(name, klass.namespace.get(name))
        self.state.charge(1 + len(members))
        for name, declared in members.items():
            if not self.hasattr_([value, name], {}):
                return False
            if callable_value(declared) and self.machine.get_attr(value, name) is None:
                return False
        return True

    def issubclass_(self, args: list[Any], kwargs: dict[str, Any]) -> bool:
        """`issubclass(Dog, Animal)`, `issubclass(C, (A, B))`: the program's classes (the
        built-in exceptions among them), `object` and the built-in types (`int`,
        `bool`...), as CPython answers (`issubclass(bool, int)`, and False across them:
        a program's class has no built-in type for a base here)."""
        if kwargs or len(args) != 2:
            raise ProgramError("issubclass() takes a class and a class (or a tuple of them)")
        cls, classes = args
        builtin_type = isinstance(cls, TypeObject)
        if type(cls) is not PClass and not builtin_type:
            raise ProgramError("issubclass() arg 1 must be a class", kind="TypeError")
        # A None is a union's (`int | None`), not a class of its own.
        options = classes if type(classes) is tuple else (classes,) if classes is not None else (0,)
        self.charge_classes(options, cls)
        for option in options:
            if option is self.object_class:
                return True
            if type(option) is Annotation and (members := self.union_members(option)) is not None:
                if self.issubclass_([cls, members], {}):
                    return True  # `int | None`, `Optional[int]`: each member of the union
                continue
            if type(option) is PClass:
                if TYPEDDICT_KEY in option.namespace:
                    raise ProgramError(NO_TYPEDDICT_CHECKS, kind="TypeError")
                if not builtin_type and option in cls.mro:
                    return True
                if NUMBER_KEY in option.namespace and (  # `issubclass(int, numbers.Number)`
                    all(one in _NUMBERS["Number"] for one in cls.types)
                    if builtin_type
                    else _data_type(cls) in _NUMBERS["Number"]  # an IntEnum's
                ):
                    return True
            elif isinstance(option, TypeObject):
                if cls is option or (cls is ABC_META and PClass in option.types):
                    return True  # `issubclass(ABCMeta, type)`: a metaclass is a type
                if option.types == (tuple,) and not builtin_type and _named_tuple_class(cls):
                    return True
                if not builtin_type and type(cls) is PClass and _builtin_based(cls, option):
                    return True  # `issubclass(Stack, list)`, `issubclass(Level, int)`
                # (A lazy object's class, `map`, `generator`, `list_iterator`, is its own
                # only: most are Python generators here, which their types would share.)
                lazy = cls.name in ITERATOR_NAMES or option.name in ITERATOR_NAMES
                if (
                    builtin_type
                    and not lazy
                    and any(issubclass(one, other) for one in cls.types for other in option.types)
                ):
                    return True
            elif type(option) is Annotation and option.name in _ABSTRACT_NAMES:
                if self.abstract_option(cls, option):
                    return True  # `issubclass(list, Iterable)`, `issubclass(Node, Hashable)`
            elif type(option) is Annotation and option.name in _PROTOCOLS:
                if protocol_subclass(cls, *_PROTOCOLS[option.name]):
                    return True  # `issubclass(C, SupportsFloat)`: C has a `__float__`
            elif type(option) is Annotation and option.name in _NUMBERS:
                # `issubclass(int, numbers.Real)`: the types CPython registers in each
                if builtin_type and all(one in _NUMBERS[option.name] for one in cls.types):
                    return True
                if type(cls) is PClass and _data_type(cls) in _NUMBERS[option.name]:
                    return True  # an IntEnum's: its data type's
            elif option is not None:  # `int | None`: a union's None
                raise ProgramError(
                    "issubclass() arg 2 must be a class, a tuple of classes, or a union",
                    kind="TypeError",
                )
        return False

    def abstract_option(self, cls: Any, option: Annotation) -> bool:
        """`issubclass(cls, option)` of an abstract class (`abstract_subclass`); of one
        subscripted CPython's TypeError. A class's MRO is walked for each method the
        abstract class asks: charged."""
        if option.args:  # `issubclass(list, List[int])`
            words = "Subscripted generics cannot be used with class and instance checks"
            raise ProgramError(words, kind="TypeError")
        if type(cls) is PClass:
            self.state.charge(len(cls.mro) // 2)
        return abstract_subclass(option.name, cls)

    def converted(self, value: Any, dunder: str, kind: type) -> Any:
        """`float(v)` / `int(v)` of an object of the program's class: its own `__float__`
        / `__int__`, which must give that type, as CPython requires."""
        if type(value) is not PInstance:
            return value
        result = self.machine.call_dunder(value, dunder)
        if result is NO_METHOD:
            return value  # refused by the caller, naming the class
        if type(result) is not kind:  # CPython's words (its `__int__`'s name no class)
            named = f"{value.cls.name}.{dunder}" if dunder == "__float__" else dunder
            words = f"{named} returned non-{kind.__name__} (type {python_type_name(result)})"
            raise ProgramError(words, kind="TypeError")
        return result

    def slice_(self, args: list[Any], kwargs: dict[str, Any]) -> slice:
        """`slice(stop)`, `slice(start, stop[, step])`: what `xs[a:b:c]` makes, of integers
        or None (a class's `__getitem__` is given one, `isinstance(k, slice)`)."""
        if kwargs or not 1 <= len(args) <= 3:
            words = "slice() takes one to three arguments"
            raise wrong_arguments(words, "slice", args, kwargs, kind="TypeError", cpython=slice)
        if any(a is not None and type(a) is not int and type(a) is not bool for a in args):
            raise ProgramError("slice() takes integers or None here")
        return slice(*args)

    def slice_members(self) -> dict[str, Callable[[Any], Any]]:
        """A slice's `start`, `stop`, `step` and `indices(length)`, as CPython's."""

        def indices(obj: slice, args: list[Any], kwargs: dict[str, Any]) -> tuple[int, ...]:
            length = one(args, kwargs, "indices")
            if type(length) is not int and type(length) is not bool:
                words = f"'{cpython_type(length)}' object cannot be interpreted as an integer"
                raise caught_as(words, TypeError(words))
            try:
                return obj.indices(length)
            except ValueError as error:  # a negative length: CPython's, caught as one
                raise caught_as(f"slice.indices(): {error}", error) from None

        return {
            "start": lambda obj: obj.start,
            "stop": lambda obj: obj.stop,
            "step": lambda obj: obj.step,
            "indices": self.bound(indices, "indices"),
        }

    def bool_(self, args: list[Any], kwargs: dict[str, Any]) -> bool:
        if kwargs or len(args) > 1:  # `bool(1, 2)`: CPython's TypeError
            raise wrong_arguments("bool() takes one value", "bool", args, kwargs, cpython=bool)
        return self.machine.truthy(args[0]) if args else False

    def str_(self, args: list[Any], kwargs: dict[str, Any]) -> str:
        if kwargs or len(args) > 1:
            raise wrong_arguments("str() takes one value here", "str", args, kwargs, cpython=str)
        return self.machine.texts.to_str(args[0]) if args else ""

    def int_(self, args: list[Any], kwargs: dict[str, Any]) -> int:
        if not args and not kwargs:
            return 0  # `int()`, as `defaultdict(int)` calls it
        base = kwargs.pop("base", args[1] if len(args) == 2 else None)  # `int('ff', 16)`
        if kwargs or not 1 <= len(args) <= 2:
            words = "int() takes one number or string here"
            raise wrong_arguments(words, "int", args, kwargs, cpython=int)
        if base is not None:
            if type(args[0]) is not str:
                wrong = TypeError("int() can't convert non-string with explicit base")
                raise caught_as("int() with a base takes a string", wrong)
            if type(base) not in (int, bool):
                raise ProgramError("int()'s base must be an integer", kind="TypeError")
            if len(args[0]) > 1_300:
                raise ProgramError("int(): this string is too long to be a bounded integer")
            try:
                return self.state.check_int(int(args[0], base))
            except ValueError as error:
                raise caught_as(f"int(): {error}", error) from None
        value = self.converted(args[0], "__int__", int)
        if type(value) is PInstance and value.cls.lookup("__index__") is not MISSING:
            value = self.index(value)  # CPython's int() falls back on `__index__`
        if type(value) is str and len(value) > 1_300:
            raise ProgramError("int(): this string is too long to be a bounded integer")
        try:
            return (
                self.state.check_int(int(value)) if type(value) in (*NUMBERS, str) else _no(value)
            )
        except (ValueError, OverflowError) as error:
            raise caught_as(f"int(): {error}", error) from None

    def float_(self, args: list[Any], kwargs: dict[str, Any]) -> float:
        if len(args) == 1 and type(args[0]) is float and not kwargs:
            # `float(data)` of a float, in a node's `__init__`: the float itself, what the
            # path below gives it (CPython's `float(x)` of a float is x).
            same: float = args[0]
            return same
        if kwargs or len(args) > 1:
            words = "float() takes one number or string"
            raise wrong_arguments(words, "float", args, kwargs, cpython=float)
        if not args:
            return 0.0
        value = self.converted(args[0], "__float__", float)
        if type(value) is complex:
            not_real = TypeError(
                "float() argument must be a string or a real number, not 'complex'"
            )
            raise caught_as("float() of a complex number", not_real)
        if type(value) is PInstance and value.cls.lookup("__index__") is not MISSING:
            value = self.index(value)  # CPython's float() falls back on `__index__`
        if type(value) not in (*NUMBERS, str):  # `float(v)` of a `Value` with no `__float__`
            raise ProgramError(
                f"float() argument must be a string or a real number, not '{cpython_type(value)}'",
                kind="TypeError",
            )
        try:
            return float(value)
        except (ValueError, OverflowError) as error:  # `float(3 ** 2000)`: CPython's too
            raise caught_as(f"float(): {error}", error) from None

    def float_type(self) -> TypeObject:
        made = TypeObject("float", self.float_, (float,))
        made.members["fromhex"] = Builtin("fromhex", self.fromhex)
        return made

    def fromhex(self, args: list[Any], kwargs: dict[str, Any]) -> float:
        """`float.fromhex(s)` (also `x.fromhex(s)`, as CPython's classmethod): CPython's
        own parse, charged by the string's length: `' -0x1.8p1 '` gives -3.0."""
        if kwargs or len(args) != 1:
            given = len(args) + len(kwargs)
            words = "float.fromhex() takes " + (
                "no keyword arguments" if kwargs else f"exactly one argument ({given} given)"
            )
            raise caught_as(words, TypeError(words))
        text = args[0]
        if type(text) is PInstance and _data_type(text.cls) is str:
            text = enum_mixin_value(text)  # a StrEnum's member: a str, as CPython's
        if type(text) is not str:
            wrong = TypeError("bad argument type for built-in operation")
            raise caught_as(f"float.fromhex() takes a string, not {cpython_type(text)}", wrong)
        self.state.check_str(len(text))  # (within the bound already: charged by its length)
        try:
            return float.fromhex(text)
        except (ValueError, OverflowError) as error:  # CPython's, as it words them
            raise caught_as(f"float.fromhex(): {error}", error) from None

    def list_(self, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        return self.collect(args[0]) if _one_iterable("list", args, kwargs) else []

    def tuple_(self, args: list[Any], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        if not _one_iterable("tuple", args, kwargs):
            return ()
        items = self.collect(args[0])
        self.state.check_nesting(items)
        return tuple(items)

    def set_(self, args: list[Any], kwargs: dict[str, Any] | None = None) -> PSet:
        """`set(x)`; of a set, CPython's copy (its order too)."""
        if (
            len(args) == 1
            and type(items := args[0]) is tuple
            and len(items) <= MAX_ITEMS
            and not kwargs
        ):
            # `set(children)` of a node's `(self, other)` (tested first: once per node):
            # what `collect` charges (a step an item) and gives, without walking the
            # tuple one step at a time.
            state = self.state
            state.steps += len(items)  # `state.charge(len(args[0]))`, inline
            if state.steps > state.next_check:
                state.checkpoint()
            for item in items:  # `make_set`, inline: the tuple is its items as they are
                if type(item) is not PInstance:
                    return self.make_set([*items])
            try:  # objects of the program's, each a key as it is
                if items and items[0].cls.hash_rule is None:
                    return PSet.by_insertion(items)  # a node's operands, the usual case
                return PSet(items)
            except TypeError:
                raise ProgramError("this item cannot be put in a set (it holds a list)") from None
        if kwargs or len(args) > 1:
            _one_iterable("set", args, kwargs)  # CPython's TypeError
        if args and type(args[0]) is PSet:
            self.state.charge(len(args[0]))
            return sets.copy(args[0])
        return self.make_set(self.collect(args[0]) if args else [])

    def frozenset_(self, args: list[Any]) -> PSet:
        """`frozenset(x)`: a set that refuses every change; of a frozenset, itself."""
        if args and type(args[0]) is PSet and args[0].frozen:
            return args[0]
        made = self.set_(args)
        made.frozen = True
        return made

    def make_set(self, items: list[Any]) -> PSet:
        key = self.machine.key
        for item in items:
            if type(item) is not PInstance:
                key(item)  # (an object of the program's is a key as it is: `Machine.key`)
        try:
            return PSet(items)
        except TypeError:
            raise ProgramError("this item cannot be put in a set (it holds a list)") from None

    def str_type(self) -> TypeObject:
        made = TypeObject("str", self.str_, (str,))
        made.members["maketrans"] = Builtin("maketrans", self.maketrans)
        return made

    def str_translate(self, obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
        """`s.translate(table)` of a dict of code points (`str.maketrans`'s), as
        CPython's; its result within the string bound."""
        table = one(args, kwargs, "translate")
        if type(table) is not dict or not _translation_table(table):
            raise ProgramError(
                "translate() takes a dict keyed by code points here (what str.maketrans makes)"
            )
        self.state.charge((len(obj) + len(table)) // 10)
        made = 0  # (its length, found before it is made)
        for character in obj:
            value = table.get(ord(character), character)
            made += len(value) if type(value) is str else 1
        self.state.check_str(made)
        try:
            return obj.translate(table)
        except (TypeError, ValueError) as error:  # CPython's, as it words them
            raise caught_as(f"translate(): {error}", error) from None

    def maketrans(self, args: list[Any], kwargs: dict[str, Any]) -> dict[int, Any]:
        """`str.maketrans(x, y=None, z=None)`: CPython's own, given strings or a dict of
        single characters or code points (to strings, code points or None)."""
        plain = (
            all(type(a) is str for a in args[1:])
            and (type(args[0]) is str if len(args) > 1 else type(args[0]) is dict)
            if args
            else False
        )
        if kwargs or not 1 <= len(args) <= 3 or not plain:
            raise wrong_arguments(
                "maketrans() takes a dict, or two or three strings", "maketrans", args, kwargs
            )
        if len(args) == 1 and not _translation_table(args[0]):
            raise ProgramError("maketrans() takes a dict keyed by characters or code points here")
        self.state.charge(sum(len(a) for a in args) // 10)
        try:
            return str.maketrans(*args)
        except (TypeError, ValueError) as error:  # CPython's, as it words them
            raise caught_as(f"maketrans(): {error}", error) from None

    def dict_type(self) -> TypeObject:
        made = TypeObject("dict", self.dict_, (dict,))
        made.members["fromkeys"] = Builtin("dict.fromkeys", self.dict_fromkeys)
        return made

    def dict_fromkeys(self, args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
        """`dict.fromkeys(keys, value=None)`: each key once, in order, each with `value`
        (the one object, as in CPython)."""
        if kwargs or not 1 <= len(args) <= 2:
            words = "dict.fromkeys() takes the keys and, maybe, one value"
            raise wrong_arguments(
                words, "fromkeys", args, kwargs, kind="TypeError", cpython=dict.fromkeys
            )
        value = args[1] if len(args) == 2 else None
        out: dict[Any, Any] = {}
        for key in self.collect(args[0]):
            self.machine.set_item(out, key, value)
        return out

    def dict_(self, args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        if len(args) > 1:
            words = f"dict expected at most 1 argument, got {len(args)}"  # CPython's
            raise ProgramError(words, kind="TypeError")
        if args:
            source = args[0]
            if type(source) is MappingProxyType:  # `dict(C.__dict__)`
                source = source.copy()
            if type(source) is dict:
                self.state.charge(len(source))  # each key hashed and put in: `d.copy()`'s
            pairs: list[Any]
            if type(source) is PInstance and type(enum_mixin_value(source)) is dict:
                source = enum_mixin_value(source)  # `class Registry(dict)`: its items
            if type(source) is dict:
                pairs = list(source.items())
            elif type(source) is PInstance and source.cls.lookup("keys") is not MISSING:
                # a mapping of the program's (a `ChainMap` too): its `keys()`, then each
                # key's item, as CPython's `dict(m)` and `d.update(m)` read it
                keys = self.collect(self.machine.call(self.machine.get_attr(source, "keys"), []))
                pairs = [(key, self.machine.get_item(source, key)) for key in keys]
            else:
                pairs = self.collect(source)
            for position, pair in enumerate(pairs):
                if type(pair) not in (tuple, list):
                    pair = self.pair(pair, position)
                if len(pair) != 2:
                    raise ProgramError(
                        f"dictionary update sequence element #{position} has length "
                        f"{len(pair)}; 2 is required",
                        kind="ValueError",
                    )
                self.machine.set_item(out, pair[0], pair[1])
        for name, value in kwargs.items():
            out[name] = value
        return out

    def pair(self, item: Any, position: int) -> list[Any]:
        """An item of `dict(items)` that is not a tuple or list, as CPython reads it: any
        iterable (`'ab'` is the pair 'a', 'b'), else its TypeError."""
        try:
            return self.collect(item)
        except ProgramError as error:
            if error.kind != "TypeError":
                raise
        raise ProgramError(
            f"cannot convert dictionary update sequence element #{position} to a sequence",
            kind="TypeError",
        )

    def value_(self, args: list[Any], kwargs: dict[str, Any]) -> Value:
        label = kwargs.pop("label", "")
        if kwargs or len(args) != 1:
            raise ProgramError("Value() takes one number, like Value(2.0, label='x1')")
        if type(label) is not str:
            raise ProgramError("a label must be a string, like Value(2.0, label='x1')")
        data = args[0]
        if type(data) not in NUMBERS:
            raise ProgramError(f"Value() takes a plain number, not {a_type(data)}")
        mark = next(creation_order)
        leaf = Value(data, label=label)
        self.machine.recorder.adopt(leaf, mark)
        return leaf

    # Methods of built-in types

    def bound(self, call: Callable[[Any, list[Any], dict[str, Any]], Any], name: str) -> Any:
        def method(obj: Any) -> Builtin:
            return Builtin(name, lambda args, kwargs: call(obj, args, kwargs))

        self.unbound[method] = call
        return method

    def list_methods(self) -> dict[str, Callable[[Any], Builtin]]:
        """A list's methods, and a deque's (a list the machine knows as one) besides."""
        table = self.list_calls()
        methods = {name: self.bound(call, name) for name, call in table.items()}
        for name, call in self.deque_calls(table["pop"]).items():
            methods[name] = self.only("deque", call, name, "list")
        methods["maxlen"] = self.attribute("deque", "maxlen", "list")
        return methods

    def list_calls(self) -> dict[str, Callable[[Any, list[Any], dict[str, Any]], Any]]:
        """Each list method, called with the list, the arguments and the keywords (a
        deque's too: what differs for one is asked of `collection_kinds`)."""
        state = self.state
        m = self.machine
        registry = m.collections
        bounded = partial(kinds.keep_maxlen, registry)

        def append(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            state.check_items(len(obj) + 1) if len(obj) >= MAX_ITEMS else None
            # `one`'s answer, sooner where it is one argument (`order.append(v)` per node)
            obj.append(
                args[0] if not kwargs and len(args) == 1 else one(args, kwargs, "append", list)
            )
            if m.bounded_deques:
                bounded(obj)

        def extend(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            items = self.collect(one(args, kwargs, "extend", list))
            state.check_items(len(obj) + len(items))
            obj.extend(items)
            if m.bounded_deques:
                bounded(obj)

        def pop(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or len(args) > 1:
                raise wrong_arguments("pop() takes an optional index", "pop", args, kwargs, list)
            if not obj:
                raise kinds.empty_pop(registry, obj)
            if args and type(args[0]) is PInstance:  # its class's `__index__`
                args = [self.index(args[0])]
            # Taking from the front shifts every item after it: that is work too.
            if args and type(args[0]) is int:
                at = args[0] if args[0] >= 0 else len(obj) + args[0]
                state.charge(max(0, len(obj) - at) // MOVES_PER_STEP)
            try:
                return obj.pop(*args)
            except (IndexError, TypeError) as error:
                raise caught_as("pop(): bad index", error) from None

        def insert(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            if len(args) == 2 and type(args[0]) is PInstance:  # its class's `__index__`
                args = [self.index(args[0]), args[1]]
            if kwargs or len(args) != 2:
                words = "insert() takes an index and a value"
                raise wrong_arguments(words, "insert", args, kwargs, list)
            if type(args[0]) is not int:  # (a bool's is its int)
                if type(args[0]) is not bool:
                    shown = cpython_type(args[0])
                    words = f"'{shown}' object cannot be interpreted as an integer"
                    raise ProgramError(words, kind="TypeError")
                args = [int(args[0]), args[1]]
            if len(obj) >= MAX_ITEMS:
                state.check_items(len(obj) + 1)
            at = args[0] if args[0] >= 0 else len(obj) + args[0]
            state.charge(max(0, len(obj) - at) // MOVES_PER_STEP)  # the items it shifts
            if m.bounded_deques:
                kinds.check_room(registry, obj)
            obj.insert(args[0], args[1])

        def sort(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            key = kwargs.pop("key", None)
            reverse = kwargs.pop("reverse", False)
            if args or kwargs:
                words = "sort() takes only key= and reverse= keywords"
                raise wrong_arguments(words, "sort", args, kwargs, list)
            kinds.no_sort(registry, obj)
            self.sort(obj, key, reverse)

        def reverse(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            none(args, kwargs, "reverse", list)
            state.charge(len(obj))
            obj.reverse()

        def copy(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
            none(args, kwargs, "copy", list)
            state.charge(len(obj))
            copied: list[Any] = kinds.copied(m, obj, obj.copy())
            return copied  # a deque's copy: a deque, its maxlen kept

        def clear(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            none(args, kwargs, "clear", list)
            obj.clear()

        return {
            "append": append,
            "extend": extend,
            "pop": pop,
            "insert": insert,
            **self.list_searches(),
            "sort": sort,
            "reverse": reverse,
            "copy": copy,
            "clear": clear,
        }

    def list_searches(self) -> dict[str, Callable[[Any, list[Any], dict[str, Any]], Any]]:
        """A list's (or deque's) `index`, `count` and `remove`: each item compared with
        `==` as CPython compares them, in order."""
        state = self.state
        m = self.machine
        registry = m.collections

        def index(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> int:
            found = self.find_index(obj, args, kwargs, list)
            if found is not None:
                return found
            item = args[0]
            kind = kinds.sequence_name(registry, obj)
            missing = ValueError(f"{m.texts.to_repr(item)[:80]} is not in {kind}")
            raise caught_as(f"index(): the value is not in the {kind}", missing)

        def count(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> int:
            item = one(args, kwargs, "count", list)
            state.charge(len(obj))
            return sum(1 for candidate in obj if m.compare("==", candidate, item))

        def remove(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            item = one(args, kwargs, "remove", list)
            state.charge(len(obj))
            for i, candidate in enumerate(obj):
                if m.compare("==", candidate, item):
                    del obj[i]
                    return
            raise kinds.not_removed(registry, obj, lambda: m.texts.to_repr(item)[:80])

        return {"index": index, "count": count, "remove": remove}

    def deque_calls(
        self, pop: Callable[[Any, list[Any], dict[str, Any]], Any]
    ) -> dict[str, Callable[[Any, list[Any], dict[str, Any]], Any]]:
        """What a deque adds to a list's methods (`popleft` is the list's `pop(0)`)."""
        state = self.state
        registry = self.machine.collections

        def room(obj: list[Any]) -> None:
            """A deque with a `maxlen` drops from the right what an item put on the left
            pushes off."""
            maxlen = kinds.factory_of(registry, obj)
            if maxlen is not None:
                kinds.trim(obj, maxlen, from_left=False)

        def appendleft(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            item = one(args, kwargs, "appendleft")
            state.charge(len(obj) // MOVES_PER_STEP)
            state.check_items(len(obj) + 1) if len(obj) >= MAX_ITEMS else None
            obj.insert(0, item)
            room(obj)

        def popleft(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            if not obj:
                raise ProgramError("pop from an empty deque", kind="IndexError")
            return pop(obj, [0], {})

        def extendleft(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            for item in self.collect(one(args, kwargs, "extendleft")):
                appendleft(obj, [item], {})

        def rotate(obj: list[Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            steps = args[0] if args else 1
            if kwargs or type(steps) is not int:
                raise ProgramError("rotate() takes an integer", kind="TypeError")
            state.charge(len(obj) // ITEMS_PER_STEP)
            if obj:
                steps %= len(obj)
                obj[:] = obj[-steps:] + obj[:-steps]

        return {
            "appendleft": appendleft,
            "popleft": popleft,
            "extendleft": extendleft,
            "rotate": rotate,
        }

    def only(
        self, kind: str, call: Callable[[Any, list[Any], dict[str, Any]], Any], name: str, of: str
    ) -> Callable[[Any], Builtin]:
        """A method of a `collections` kind only (a deque's `popleft` on a plain list is
        CPython's AttributeError)."""
        registry = self.machine.collections

        def method(obj: Any) -> Builtin:
            special = registry.get(id(obj))
            if special is None or special[0] is not obj or special[1] != kind:
                shown = kinds.QUALIFIED.get(kinds.kind_of(registry, obj) or "", of)
                raise ProgramError(
                    f"'{shown}' object has no attribute '{name}'", kind="AttributeError"
                )
            return Builtin(name, lambda args, kwargs: call(obj, args, kwargs))

        return method

    def attribute(self, kind: str, name: str, of: str) -> Callable[[Any], Any]:
        """An attribute of a `collections` kind only, kept as its factory: a deque's
        `maxlen`, a defaultdict's `default_factory`."""
        registry = self.machine.collections

        def read(obj: Any) -> Any:
            if kinds.kind_of(registry, obj) != kind:
                shown = kinds.QUALIFIED.get(kinds.kind_of(registry, obj) or "", of)
                raise ProgramError(
                    f"'{shown}' object has no attribute '{name}'", kind="AttributeError"
                )
            return kinds.factory_of(registry, obj)

        return read

    def class_dict_methods(self) -> dict[str, Callable[[Any], Builtin]]:
        """`C.__dict__.keys()`, `.items()`, `.values()`, `.get()`, `.copy()`: a dict's, on
        a copy of the view (`objects.class_dict`)."""
        table, state = self.machine.methods[dict], self.state

        def on_copy(method: Callable[[Any], Builtin]) -> Callable[[Any], Builtin]:
            def bind(obj: Any) -> Builtin:
                state.charge(len(obj) // ITEMS_PER_STEP)
                return method(obj.copy())

            return bind

        return {name: on_copy(table[name]) for name in ("keys", "values", "items", "get", "copy")}

    def view_isdisjoint(self, view: Any, args: list[Any], kwargs: dict[str, Any]) -> bool:
        """`d.keys().isdisjoint(other)`: no item of `other` is in the view, any iterable."""
        for item in self.items(one(args, kwargs, "isdisjoint")):
            if self.machine.contains(view, item):
                return False
        return True

    def dict_methods(self) -> dict[str, Callable[[Any], Builtin]]:
        state = self.state

        # CPython's own views: live, `in` a hash lookup, made at no cost (`Machine.VIEWS`).
        def keys(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            none(args, kwargs, "keys", dict)
            return obj.keys()

        def values(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            none(args, kwargs, "values", dict)
            return obj.values()

        def items(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            none(args, kwargs, "items", dict)
            return obj.items()

        def get(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or not 1 <= len(args) <= 2:
                words = "get() takes a key and an optional default"
                raise wrong_arguments(words, "get", args, kwargs, dict)
            self.machine.key(args[0])
            try:
                return obj.get(*args)
            except TypeError:
                raise ProgramError("this key cannot be a dict key") from None

        def pop(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or not 1 <= len(args) <= 2:
                words = "pop() takes a key and an optional default"
                raise wrong_arguments(words, "pop", args, kwargs, dict)
            self.machine.key(args[0])
            try:
                return obj.pop(*args)
            except KeyError:
                missing = ProgramError("pop(): the key is not in the dict", kind="KeyError")
                missing.args_seen = (args[0],)  # a KeyError shows its key
                raise missing from None

        def setdefault(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or not 1 <= len(args) <= 2:
                words = "setdefault() takes a key and an optional default"
                raise wrong_arguments(words, "setdefault", args, kwargs, dict)
            self.machine.key(args[0])  # (an unhashable key: CPython's TypeError)
            if args[0] not in obj:
                self.machine.set_item(obj, args[0], args[1] if len(args) == 2 else None)
            return obj[args[0]]

        registry = self.machine.collections

        def update(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            if registry and kinds.kind_of(registry, obj) == "Counter":  # it counts
                kinds.counter_update(self.machine, self, obj, args, kwargs, 1)
                return
            if len(args) > 1:
                words = "update() takes at most one positional argument"
                raise wrong_arguments(words, "update", args, kwargs, dict)
            made = self.dict_(args, kwargs)
            state.charge(len(made))  # each key put in again, in `obj`
            for key, value in made.items():
                self.machine.set_item(obj, key, value)

        def copy(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            none(args, kwargs, "copy", dict)
            state.charge(len(obj))
            # a Counter's copy is a Counter, a defaultdict's keeps its factory
            return kinds.copied(self.machine, obj, dict(obj))

        def clear(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            none(args, kwargs, "clear", dict)
            obj.clear()

        def popitem(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            # The last pair put in, as CPython's; an OrderedDict's `last=False`: the first.
            ordered = bool(registry) and kinds.kind_of(registry, obj) == "OrderedDict"
            return kinds.popitem(self.machine, obj, ordered, args, kwargs)

        table = {
            "popitem": popitem,
            "keys": keys,
            "values": values,
            "items": items,
            "get": get,
            "pop": pop,
            "setdefault": setdefault,
            "update": update,
            "copy": copy,
            "clear": clear,
        }

        def most_common(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            count = args[0] if args else None
            if kwargs or (count is not None and type(count) is not int):
                raise ProgramError("most_common() takes an optional count", kind="TypeError")
            pairs = list(obj.items())
            state.charge(len(pairs) * max(1, len(pairs).bit_length()))
            for _, value in pairs:
                if type(value) not in NUMBERS:
                    raise ProgramError("most_common() compares numbers", kind="TypeError")
            pairs.sort(key=lambda pair: pair[1], reverse=True)
            return pairs if count is None else pairs[: max(0, count)]

        methods = {name: self.bound(call, name) for name, call in table.items()}
        methods["most_common"] = self.only("Counter", most_common, "most_common", "dict")
        methods["fromkeys"] = self.fromkeys_of
        return {**methods, **self.kinds_dict_methods()}

    def fromkeys_of(self, obj: dict[Any, Any]) -> Builtin:
        """`d.fromkeys(keys)`: the class method read off a dict, a plain one's."""
        registry = self.machine.collections
        if registry and kinds.kind_of(registry, obj) is not None:
            raise ProgramError("fromkeys() of a collections dict is read off its class here")
        return Builtin("dict.fromkeys", self.dict_fromkeys)

    def kinds_dict_methods(self) -> dict[str, Callable[[Any], Any]]:
        """What a Counter, an OrderedDict and a defaultdict add to a dict's methods."""
        m = self.machine

        def subtract(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            kinds.counter_update(m, self, obj, args, kwargs, -1)

        def elements(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            kinds.no_arguments("elements", args, kwargs)
            return kinds.counter_elements(m, obj)

        def total(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
            kinds.no_arguments("total", args, kwargs)
            return kinds.counter_total(m, obj)

        def move_to_end(obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> None:
            kinds.move_to_end(m, obj, args, kwargs)

        methods: dict[str, Callable[[Any], Any]] = {
            name: self.only("Counter", call, name, "dict")
            for name, call in (("subtract", subtract), ("elements", elements), ("total", total))
        }
        methods["move_to_end"] = self.only("OrderedDict", move_to_end, "move_to_end", "dict")
        methods["default_factory"] = self.attribute("defaultdict", "default_factory", "dict")
        return methods

    def set_methods(self) -> dict[str, Callable[[Any], Builtin]]:
        state = self.state

        def add(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> None:
            if obj.frozen:
                raise _frozen(obj, "add")
            item = args[0] if not kwargs and len(args) == 1 else one(args, kwargs, "add", PSet)
            if type(item) is not PInstance:
                self.machine.key(item)  # (an object of the program's: a key as it is)
            if len(obj.items) >= MAX_ITEMS and item not in obj.items:
                state.check_items(len(obj) + 1)
            try:
                if obj.mirror is None:
                    obj.items[item] = None  # `PSet.add` of a set in insertion order, inline
                else:
                    obj.add(item)
            except TypeError:
                raise ProgramError(f"{a_type(item)} cannot be put in a set") from None

        def update(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> None:
            for item in self.collect(one(args, kwargs, "update", PSet)):
                add(obj, [item], {})

        def discard(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> None:
            obj.discard(self.machine.key(one(args, kwargs, "discard", PSet)))

        def remove(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> None:
            item = self.machine.key(one(args, kwargs, "remove", PSet))
            if item not in obj.items:  # CPython's KeyError, which shows the item
                missing = ProgramError("remove(): the item is not in the set", kind="KeyError")
                missing.args_seen = (item,)
                raise missing
            obj.discard(item)

        def copy(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> PSet:
            none(args, kwargs, "copy", PSet)
            if obj.frozen:  # CPython's `fs.copy() is fs`
                return obj
            state.charge(len(obj))
            return sets.copy(obj)

        def clear(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> None:
            none(args, kwargs, "clear", PSet)
            obj.clear()

        def algebra(name: str) -> Callable[[PSet, list[Any], dict[str, Any]], Any]:
            def method(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> Any:
                if kwargs:
                    words = f"{name}() takes no keyword arguments"
                    raise wrong_arguments(words, name, args, kwargs, PSet, kind="TypeError")
                if name in ("issubset", "issuperset", "isdisjoint"):
                    other = self.make_set(self.collect(one(args, kwargs, name)))
                    return sets.compare(state, name, obj, other)
                state.charge(len(obj))  # the copy each starts from (`s.union()` is one)
                result = sets.copy(obj)
                sources: list[Any] = []
                for arg in args:  # `a.union(b, c)`: any iterables, one after the other
                    items = self.collect(arg)
                    other = self.make_set(items)
                    sets.combine_in_place(state, name, result, other)  # (the copy's own)
                    sources.append(
                        (None if arg.entries else arg.mirror) if type(arg) is PSet else items
                    )
                # CPython's own method on the same items gives its order of the result.
                if obj.mirror is not None and not obj.entries and all(map(sets.orderable, sources)):
                    result.mirror = getattr(obj.mirror, name)(*sources)
                result.frozen = obj.frozen  # `fs.union(s)` is a frozenset
                return result

            return method

        def pop(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> Any:
            none(args, kwargs, "pop", PSet)
            if not obj.items:
                raise ProgramError("pop from an empty set", kind="KeyError")
            return obj.pop()

        changes: dict[str, Callable[[PSet, list[Any], dict[str, Any]], Any]] = {
            "add": add,
            "update": update,
            "discard": discard,
            "remove": remove,
        }
        changes.update(clear=clear, pop=pop)
        for operation in ("difference", "intersection", "symmetric_difference"):
            changes[f"{operation}_update"] = self.set_in_place(operation)
        table = {
            "copy": copy,
            **{
                name: algebra(name)
                for name in (*sets.SET_OPERATORS.values(), "issubset", "issuperset", "isdisjoint")
            },
        }
        methods = {name: self.bound(call, name) for name, call in table.items()}
        for name, call in changes.items():  # a frozenset has none of them
            methods[name] = self.changing(call if name == "add" else _unfrozen(call, name), name)
        return methods

    def set_in_place(self, name: str) -> Callable[[PSet, list[Any], dict[str, Any]], None]:
        """`s.difference_update(t, ...)` and its like: `s -= t` for each, in turn
        (`symmetric_difference_update` of one, as CPython's)."""
        many = name != "symmetric_difference"

        def method(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> None:
            called = f"{name}_update"
            if kwargs or not (many or len(args) == 1):
                words = f"{called}() takes {'iterables' if many else 'one iterable'}"
                raise wrong_arguments(words, called, args, kwargs, PSet)
            for arg in args:
                other = self.make_set(self.collect(arg))
                sets.combine_in_place(self.state, name, obj, other)

        return method

    def changing(
        self, call: Callable[[PSet, list[Any], dict[str, Any]], Any], name: str
    ) -> Callable[[Any], Builtin]:
        """`bound` for a method that changes a set: read off a frozenset, CPython's
        AttributeError (`call` refuses one too: `Machine.direct` calls it unread)."""

        def method(obj: PSet) -> Builtin:
            if obj.frozen:
                raise _frozen(obj, name)
            return Builtin(name, lambda args, kwargs: call(obj, args, kwargs))

        self.unbound[method] = call
        return method

    def string_width(self, args: list[Any], kwargs: dict[str, Any], name: str) -> int:
        """A width given as an int, or as an object of its class's `__index__`, with
        CPython's TypeErrors for the wrong arguments (`ljust expected at least 1
        argument, got 0`) and a width of another type; a negative one as 0."""
        most = 1 if name == "zfill" else 2
        if kwargs or not 1 <= len(args) <= most:
            words = f"{name}() takes a width" + (" and a fill character" if most == 2 else "")
            raise wrong_arguments(words, name, args, kwargs, cpython=getattr("", name))
        given = args[0]
        size = self.index(given) if type(given) is PInstance else given
        if type(size) is not int and type(size) is not bool:
            words = f"'{cpython_type(size)}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        return max(0, int(size))

    def str_methods(self) -> dict[str, Callable[[Any], Builtin]]:
        state = self.state

        def join(obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
            given = one(args, kwargs, "join", str)
            try:
                parts = self.collect(given)
            except ProgramError as error:  # CPython's words of what is not iterable at all
                if error.message != f"'{cpython_type(given)}' object is not iterable":
                    raise
                raise ProgramError("can only join an iterable", kind="TypeError") from None
            total = 0
            for position, part in enumerate(parts):
                if type(part) is not str:
                    part = parts[position] = enum_mixin_value(part)  # a StrEnum's member
                if type(part) is not str:
                    wrong = TypeError(
                        f"sequence item {position}: expected str instance, "
                        f"{python_type_name(part)} found"
                    )
                    raise caught_as(f"join() needs strings, found {a_type(part)}", wrong)
                total += len(part) + len(obj)
                if total > MAX_STR:
                    state.check_str(total)  # refused as soon as it is too long
            state.check_str(total)  # charged once for what it joins
            return obj.join(parts)

        def simple(name: str) -> Callable[[str, list[Any], dict[str, Any]], Any]:
            def method(obj: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
                if kwargs or any(type(a) is not str for a in args) or len(args) > 1:
                    words = f"{name}() takes at most one string here"
                    raise wrong_arguments(words, name, args, kwargs, str)
                if name in _ONE_STRING and len(args) != 1:
                    words = f"{name}() takes exactly one string"
                    raise wrong_arguments(words, name, args, kwargs, str, kind="TypeError")
                if name in ("partition", "rpartition") and not args[0]:
                    raise ProgramError("empty separator", kind="ValueError")
                state.charge(len(obj) // 10)
                try:
                    result = _STR_METHODS[name](obj, *args)
                except TypeError:  # `"a".upper("x")`: said as the program's own TypeError
                    message = f"str.{name}() takes no arguments ({len(args)} given)"
                    raise wrong_arguments(message, name, args, kwargs, str, "TypeError") from None
                if type(result) is list:
                    state.check_items(len(result))
                elif type(result) is str:
                    state.check_str(len(result))  # `upper`, `casefold` may make it longer
                return result

            return method

        def replace(obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
            count = _replace_count(args, kwargs)
            old, new = args[:2]
            # its length, measured before it is made (`count('')` is CPython's len + 1: a
            # `new` between each character); a bound on it refused a 9,800-character
            # string's `replace('a', 'b')`, of the same length, as 24,501 characters long
            replaced = obj.count(old) if count < 0 else min(obj.count(old), int(count))
            state.check_str(len(obj) + replaced * (len(new) - len(old)))
            return obj.replace(old, new, max(-1, min(int(count), len(obj) + 1)))

        def ljust(obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
            size = self.string_width(args, kwargs, "ljust")
            fill = _fill(args)
            state.check_str(max(len(obj), size))  # the string made, bounded and charged
            return obj.ljust(size, fill)

        def rjust(obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
            size = self.string_width(args, kwargs, "rjust")
            fill = _fill(args)
            state.check_str(max(len(obj), size))
            return obj.rjust(size, fill)

        table: dict[str, Callable[[str, list[Any], dict[str, Any]], Any]] = {
            name: simple(name)
            for name in ("upper", "lower", "strip", "lstrip", "rstrip", "startswith")
        }
        table["format"] = partial(str_format, self.machine, self.attribute_name)
        table["format_map"] = partial(str_format_map, self.machine, self.attribute_name)
        table.update({name: simple(name) for name in _STR_METHODS if name not in table})

        def center(obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
            # Python's own: an odd margin's extra fill goes left when the width is odd,
            # where a format's `^` puts it right ('it\'s'.center(9, '*') is '***it\'s**').
            size = self.string_width(args, kwargs, "center")
            fill = _fill(args)
            state.check_str(size)
            return obj.center(size, fill)

        def zfill(obj: str, args: list[Any], kwargs: dict[str, Any]) -> str:
            size = self.string_width(args, kwargs, "zfill")
            state.check_str(size)
            return obj.zfill(size)

        table.update(
            center=center,
            zfill=zfill,
            translate=self.str_translate,
            maketrans=lambda obj, args, kwargs: self.maketrans(args, kwargs),
        )
        table.update(
            endswith=simple("endswith"),
            split=simple("split"),
            join=join,
            replace=replace,
            ljust=ljust,
            rjust=rjust,
        )
        table.update({name: _general_str_method(state, name) for name in _STR_GENERAL})
        return {name: self.bound(call, name) for name, call in table.items()}

    # Modules

    def math_module(self) -> PModule:
        members: dict[str, Any] = {
            "pi": math.pi,
            "e": math.e,
            "tau": math.tau,
            "inf": math.inf,
            "nan": math.nan,
        }
        for name in _MATH_FUNCTIONS:
            members[name] = Builtin(f"math.{name}", self.math_function(name))
        members["factorial"] = Builtin("math.factorial", self.factorial)
        for name in ("comb", "perm", "lcm"):
            members[name] = Builtin(f"math.{name}", self.integer_math(name))
        members["dist"] = Builtin("math.dist", self.dist)
        members["fsum"] = Builtin("math.fsum", self.fsum)
        members["prod"] = Builtin("math.prod", self.prod)
        return PModule("math", members)

    def math_function(self, name: str) -> Call:
        function = getattr(math, name)  # name is one of _MATH_FUNCTIONS, fixed here

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if len(args) == 1 and type(args[0]) is float and not kwargs:
                # `math.exp(x)` of one float (a node's `tanh`, `exp`): the call below, at once
                # (such an argument passes each test before it).
                try:
                    result = function(args[0])
                except TypeError as error:
                    raise caught_as(f"math.{name}(): {error}", error) from None
                except (ArithmeticError, ValueError) as error:
                    raise number_error(f"math.{name}", error) from None
                if type(result) is int:
                    self.state.check_int(result)
                return result
            # `math.isclose(a, b, rel_tol=1e-4)`: its two keyword-only tolerances.
            if kwargs and (name != "isclose" or set(kwargs) - {"rel_tol", "abs_tol"}):
                raise ProgramError(f"math.{name}() takes no keywords here")
            if args and not kwargs and type(args[0]) is PInstance:
                args = [_plain_member(args[0]), *args[1:]]  # an IntEnum's member: its int
            if name in _ROUNDING and len(args) == 1 and type(args[0]) is PInstance and not kwargs:
                own = self.machine.call_dunder(args[0], f"__{name}__")
                if own is not NO_METHOD:  # `math.floor(x)`: the class's own `__floor__`
                    return own
                if name == "trunc":  # (no float taken: CPython's words)
                    words = f"type {python_type_name(args[0])} doesn't define __trunc__ method"
                    raise ProgramError(words, kind="TypeError")
            for arg in (*args, *kwargs.values()):
                if type(arg) not in NUMBERS:
                    args, kwargs = self.math_numbers(name, args, kwargs)
                    break
            try:
                result = function(*args, **kwargs)
            except TypeError as error:  # caught as CPython's TypeError, in its words
                raise caught_as(f"math.{name}(): {error}", error) from None
            except (ArithmeticError, ValueError) as error:
                raise number_error(f"math.{name}", error) from None
            if type(result) is int:
                self.state.check_int(result)
            return result

        return call

    def math_numbers(
        self, name: str, args: list[Any], kwargs: dict[str, Any]
    ) -> tuple[list[Any], dict[str, Any]]:
        """`math.name`'s arguments as CPython's math takes them, left to right: an object
        of the program's class by its `__float__` (`__index__`: `real`), anything else
        not a plain number CPython's TypeError naming it, the first that is refused."""
        integer = name in _INTEGER_MATH
        taken: list[Any] = []
        for i, arg in enumerate((*args, *kwargs.values())):
            if type(arg) is PInstance and not (name == "ldexp" and i == 1):
                arg = self.real(arg, integer)
            if type(arg) not in NUMBERS:
                hint = f"; for a Value use v.{name}()" if type(arg) is Value else ""
                wrong = python_type_name(arg)
                if integer:
                    words = f"'{wrong}' object cannot be interpreted as an integer"
                elif name == "ldexp" and i == 1:  # an int, nothing converted
                    words = "Expected an int as second argument to ldexp."
                else:
                    words = f"must be real number, not {wrong}"
                raise caught_as(
                    f"math.{name}() takes plain numbers, not {a_type(arg)}{hint}",
                    TypeError(words),
                )
            taken.append(arg)
        return taken[: len(args)], dict(zip(kwargs, taken[len(args) :], strict=True))

    def real(self, value: Any, integer: bool = False) -> Any:
        """What CPython's math takes an object of the program's class as: its `__float__`
        (which must give a float), else its `__index__` (an int; only that for a function
        of integers); else the object itself, refused by the caller."""
        if type(value) is not PInstance:
            return value
        if not integer and value.cls.lookup("__float__") is not MISSING:
            return self.converted(value, "__float__", float)
        if value.cls.lookup("__index__") is not MISSING:
            return self.converted(value, "__index__", int)
        return value

    def fsum(self, args: list[Any], kwargs: dict[str, Any]) -> float:
        try:
            return math.fsum(self.numbers(one(args, kwargs)))
        except (ValueError, OverflowError) as error:  # `-inf + inf in fsum`, as CPython's
            raise caught_as(f"math.fsum(): {error}", error) from None

    def factorial(self, args: list[Any], kwargs: dict[str, Any]) -> int:
        n = self.real(one(args, kwargs, "math.factorial"), integer=True)  # its `__index__`
        if type(n) not in (int, bool):
            wrong = TypeError(f"'{cpython_type(n)}' object cannot be interpreted as an integer")
            raise caught_as("math.factorial() takes a non-negative integer", wrong)
        if n < 0:
            negative = ValueError("factorial() not defined for negative values")
            raise caught_as("math.factorial() takes a non-negative integer", negative)
        if n > 1_000:
            raise ProgramError("math.factorial(n) for n > 1000 has more than 4,096 bits")
        self.state.charge(n)
        return self.state.check_int(math.factorial(n))

    def dist(self, args: list[Any], kwargs: dict[str, Any]) -> float:
        points = [self.numbers(point) for point in _two(args, kwargs, "dist")]
        try:
            return math.dist(*points)
        except ValueError as error:
            raise caught_as(f"math.dist(): {error}", error) from None

    def integer_math(self, name: str) -> Call:
        """`math.comb`, `math.perm` and `math.lcm` of integers: refused before the work
        where the answer would pass the integer bound (a bound on its bits first), else
        CPython's, charged by its size."""
        math_call = self.math_function(name)

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if name == "perm" and len(args) == 2 and args[1] is None:
                args = args[:1]  # `perm(n, None)` is `perm(n)`
            if all(type(a) in (int, bool) for a in args) and not kwargs:
                bits = sum(abs(int(a)).bit_length() for a in args)  # lcm: at most their product
                if name != "lcm" and args:
                    n = abs(int(args[0]))
                    k = n if len(args) < 2 else max(int(args[1]), 0)
                    k = 0 if k > n else min(k, n - k) if name == "comb" else k
                    bits = k * max(1, n.bit_length())  # at most n ** k
                    if k and n.bit_length() < 1000:
                        # Within a bit of the answer's size (n ** k is 5 times too many
                        # for comb(4000, 1500), 3,816 bits, which CPython gives).
                        bits = min(bits, 2 + _log2_count(name, n, k))
                if bits > MAX_INT_BITS * 4:
                    raise ProgramError(
                        f"math.{name}() of these would pass {MAX_INT_BITS:,} bits; integers "
                        "here stay within that bound",
                        kind="OverflowError",
                    )
                self.state.charge(bits // 64)
            return math_call(args, kwargs)

        return call

    def prod(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """`math.prod`: a product through the machine, so Values make traced nodes."""
        start = kwargs.pop("start", 1)
        if kwargs or len(args) != 1:
            raise ProgramError("math.prod() takes an iterable and start=", kind="TypeError")
        total = start
        for item in self.items(args[0]):
            total = self.machine.binary("*", total, item)
        return total

    def numbers(self, iterable: Any) -> list[Any]:
        """The items of `iterable` as `math.fsum` and `math.dist` take them: plain numbers,
        an object of the program's by its `__float__` (else `__index__`), in order;
        anything else CPython's TypeError (a Value refused, naming its methods)."""
        values = self.collect(iterable)
        for i, value in enumerate(values):
            if type(value) not in NUMBERS:
                value = values[i] = self.real(value)
                if type(value) is Value:
                    raise ProgramError("this function takes plain numbers, not Values")
                if type(value) not in NUMBERS:
                    words = f"must be real number, not {python_type_name(value)}"
                    raise ProgramError(words, kind="TypeError")
        return values

    def random_module(self, rng: random.Random) -> PModule:
        """`random`'s functions over `rng`: the module's (seeded with 0 unless the program
        seeds it), or a `random.Random(seed)` instance's own."""
        state = self.state

        def seed(args: list[Any], kwargs: dict[str, Any]) -> None:
            if kwargs or len(args) > 1:
                raise ProgramError("random.seed() takes one number or string")
            value = args[0] if args else 0
            if value is None:
                value = 0
            if type(value) not in (*NUMBERS, str):
                raise ProgramError("random.seed() takes a number or a string")
            state.charge(seed_steps(value))
            rng.seed(value)

        def numeric(name: str, count: int) -> Call:
            function = _draws(rng)[name]
            names, defaults = _DRAW_PARAMETERS.get(name, ((), ()))

            def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
                keys = dict.fromkeys(kwargs)
                given = _bound_numbers(names, defaults, args, kwargs)
                if (
                    given is None
                    or kwargs
                    or len(given) not in (count, count - (name == "triangular"))
                ):
                    # `random.uniform(-1)`: CPython's TypeError for the arguments' number
                    words = f"random.{name}() takes {count} numbers"
                    probe = getattr(_RANDOM_PROBE, name)
                    raise wrong_arguments(words, name, list(args), keys, cpython=probe)
                return function(*given)

            return call

        def integers(name: str) -> Call:
            def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
                words = f"random.{name}() takes integers"
                probe = getattr(_RANDOM_PROBE, name)
                if kwargs or not 1 <= len(args) <= 3 or any(type(a) is not int for a in args):
                    raise wrong_arguments(words, name, args, kwargs, cpython=probe)
                try:
                    return rng.randint(*args) if name == "randint" else rng.randrange(*args)
                except TypeError:  # `random.randint(1)`: the arguments' number
                    raise wrong_arguments(words, name, args, kwargs, cpython=probe) from None
                except ValueError as error:  # `randint(2, 1)`: CPython's, caught as one
                    raise caught_as(f"random.{name}(): {error}", error) from None

            return call

        def choice(args: list[Any], kwargs: dict[str, Any]) -> Any:
            population = one(args, kwargs, "random.choice")
            if type(population) not in (list, tuple, str, range):
                raise ProgramError("random.choice() takes a list, tuple, string or range")
            if not population:  # CPython's IndexError, with its words
                empty = IndexError("Cannot choose from an empty sequence")
                raise caught_as("random.choice() of an empty sequence", empty)
            return rng.choice(population)

        def shuffle(args: list[Any], kwargs: dict[str, Any]) -> None:
            items = one(args, kwargs, "random.shuffle")
            if type(items) is not list:
                raise ProgramError("random.shuffle() takes a list")
            state.charge(len(items))
            rng.shuffle(items)

        def sample(args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
            args, kwargs = _sample_arguments(args, kwargs)
            if kwargs or len(args) != 2 or type(args[1]) is not int:
                raise ProgramError("random.sample() takes a sequence and a count")
            population, k = args
            if type(population) not in (list, tuple, str, range):
                raise ProgramError("random.sample() takes a list, tuple, string or range")
            state.charge(min(k, MAX_ITEMS + 1))
            try:
                return rng.sample(population, k)
            except ValueError as error:  # a sample larger than the population: CPython's
                raise caught_as(f"random.sample(): {error}", error) from None

        members: dict[str, Any] = {
            "seed": Builtin("random.seed", seed),
            "getstate": Builtin("random.getstate", partial(_getstate, rng, state)),
            "setstate": Builtin("random.setstate", partial(_setstate, rng, state)),
            "getrandbits": Builtin("random.getrandbits", partial(_getrandbits, rng)),
            "choices": Builtin("random.choices", lambda a, k: _choices(rng, state, a, k)),
            "random": Builtin("random.random", numeric("random", 0)),
            "uniform": Builtin("random.uniform", numeric("uniform", 2)),
            "gauss": Builtin("random.gauss", numeric("gauss", 2)),
            "normalvariate": Builtin("random.normalvariate", numeric("normalvariate", 2)),
            "betavariate": Builtin("random.betavariate", numeric("betavariate", 2)),
            "expovariate": Builtin("random.expovariate", numeric("expovariate", 1)),
            "lognormvariate": Builtin("random.lognormvariate", numeric("lognormvariate", 2)),
            "paretovariate": Builtin("random.paretovariate", numeric("paretovariate", 1)),
            "weibullvariate": Builtin("random.weibullvariate", numeric("weibullvariate", 2)),
            "triangular": Builtin("random.triangular", numeric("triangular", 3)),
            "randint": Builtin("random.randint", integers("randint")),
            "randrange": Builtin("random.randrange", integers("randrange")),
            "choice": Builtin("random.choice", choice),
            "shuffle": Builtin("random.shuffle", shuffle),
            "sample": Builtin("random.sample", sample),
            "Random": Builtin("random.Random", self.random_instance),
        }
        return PModule("random", members)

    def random_instance(self, args: list[Any], kwargs: dict[str, Any]) -> PModule:
        """`random.Random(seed)`: a generator of its own, CPython's numbers for the seed.
        Without one (or with None) it is seeded with 0, as an unseeded program's `random`
        is, so that the same program gives the same trace (CPython's would read the clock
        or the system's entropy)."""
        if kwargs or len(args) > 1:
            raise ProgramError("random.Random() takes one seed", kind="TypeError")
        seed = args[0] if args and args[0] is not None else 0
        if type(seed) not in (*NUMBERS, str):
            raise ProgramError("random.Random() takes a number or a string", kind="TypeError")
        self.state.charge(seed_steps(seed))
        members = dict(self.random_module(random.Random(seed)).members)
        del members["Random"]
        return PModule("Random", members)


def _getstate(rng: random.Random, state: State, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`getstate()`: the generator's state, CPython's tuple of numbers."""
    if args or kwargs:
        raise wrong_arguments("getstate() takes no arguments", "getstate", args, kwargs)
    state.charge(63)  # (its 625 words)
    return rng.getstate()


def _setstate(rng: random.Random, state: State, args: list[Any], kwargs: dict[str, Any]) -> None:
    """`setstate(s)` of a state `getstate()` gave, with CPython's errors for a wrong one."""
    given = one(args, kwargs, "random.setstate")
    if not _random_state(given):
        raise ProgramError("random.setstate() takes a state that getstate() gave")
    state.charge(63)
    try:
        rng.setstate(given)
    except (TypeError, ValueError, OverflowError) as error:  # CPython's words
        raise caught_as(f"random.setstate(): {error}", error) from None


def _random_state(given: Any) -> bool:
    """Whether `given` has the shape of a state `getstate()` gives (a version, a tuple of
    at most 625 words and a position, the next Gaussian or None), made of Python's own
    numbers alone: only such a one is handed to Python's `setstate`."""
    return (
        type(given) is tuple
        and len(given) == 3
        and type(given[0]) is int
        and type(given[1]) is tuple
        and len(given[1]) <= 625
        and all(type(word) is int for word in given[1])
        and type(given[2]) in (float, type(None))
        and not _degenerate(given[1])
    )


_VALUES_VIEW: type = type({}.values())
# What an IntEnum's member may define itself, asked before it is taken as its int
_OWN_NUMBER_METHODS = ("__divmod__", "__floor__", "__trunc__")


def _plain_member(value: Any) -> Any:
    """An IntEnum's (or a mixed-in Enum's) member as its value where its class defines no
    method of its own for what is asked; anything else as it is."""
    if type(value) is PInstance:
        plain = enum_mixin_value(value)
        own = value.cls.namespace
        if plain is not value and not any(name in own for name in _OWN_NUMBER_METHODS):
            return plain
    return value


def _degenerate(words: tuple[int, ...]) -> bool:
    """Whether a Mersenne Twister state is all zero (its first word's top bit aside): its
    `random()` is 0.0 forever, and `normalvariate`'s or `gammavariate`'s rejection loops,
    Python's own, would never end (CPython's too; here no step could stop them)."""
    return len(words) >= 624 and words[0] & 0x7FFFFFFF == 0 and not any(words[1:624])


def seed_steps(seed: Any) -> int:
    """What seeding with `seed` costs: CPython's seeding reads every character of a
    string (a hash of them) or every 32 bits of an integer, a step per ten (a
    9,000-character seed in a loop was bounded by the clock alone)."""
    kind = type(seed)
    size = len(seed) if kind is str else seed.bit_length() // 32 if kind is int else 0
    return size // ITEMS_PER_STEP


def _sample_arguments(args: list[Any], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """`random.sample(xs, k=4)`: the count by keyword, as CPython takes it."""
    if len(args) == 1 and list(kwargs) == ["k"]:
        return [args[0], kwargs["k"]], {}
    return args, kwargs


def _getrandbits(rng: random.Random, args: list[Any], kwargs: dict[str, Any]) -> int:
    """`getrandbits(k)`: k bits of the generator's own, CPython's number; k within
    the integer bound, refused before the draw."""
    if kwargs or len(args) != 1:
        words = "random.getrandbits() takes one number of bits"
        probe = _RANDOM_PROBE.getrandbits
        raise wrong_arguments(words, "getrandbits", args, kwargs, cpython=probe)
    bits = args[0]
    if type(bits) is not int and type(bits) is not bool:
        words = f"'{cpython_type(bits)}' object cannot be interpreted as an integer"
        raise caught_as(words, TypeError(words))
    if bits > MAX_INT_BITS:
        raise ProgramError(
            f"random.getrandbits({bits:,}) would make an integer of more than "
            f"{MAX_INT_BITS:,} bits",
            kind="OverflowError",
        )
    try:
        return rng.getrandbits(bits)
    except ValueError as error:  # a negative count: CPython's, caught as one
        raise caught_as(f"random.getrandbits(): {error}", error) from None


# Parameter names and defaults as CPython 3.11 has them (`gauss(mu=0.0, sigma=1.0)`).
_DRAW_PARAMETERS: dict[str, tuple[tuple[str, ...], tuple[Any, ...]]] = {
    "uniform": (("a", "b"), ()),
    "gauss": (("mu", "sigma"), (0.0, 1.0)),
    "normalvariate": (("mu", "sigma"), (0.0, 1.0)),
    "betavariate": (("alpha", "beta"), ()),
    "expovariate": (("lambd",), ()),
    "lognormvariate": (("mu", "sigma"), ()),
    "paretovariate": (("alpha",), ()),
    "weibullvariate": (("alpha", "beta"), ()),
    "triangular": (("low", "high", "mode"), (0.0, 1.0, None)),
}


def _draws(rng: random.Random) -> dict[str, Callable[..., Any]]:
    """`random`'s draws of plain numbers over `rng`, by name (`Library.random_module`)."""
    return {
        "uniform": rng.uniform,
        "gauss": rng.gauss,
        "normalvariate": rng.normalvariate,
        "betavariate": lambda alpha, beta: _betavariate(rng, alpha, beta),
        "random": rng.random,
        # CPython's draws of one `random()` or `gauss` each, no loop in them
        "expovariate": _cpython_errors(rng.expovariate),
        "lognormvariate": _cpython_errors(rng.lognormvariate),
        "paretovariate": _cpython_errors(rng.paretovariate),
        "weibullvariate": _cpython_errors(rng.weibullvariate),
        "triangular": _cpython_errors(rng.triangular),
    }


def _bound_numbers(
    names: tuple[str, ...], defaults: tuple[Any, ...], args: list[Any], kwargs: dict[str, Any]
) -> list[Any] | None:
    """The arguments of a draw of `random`'s (`names`, their `defaults`), those given by
    keyword taken out of `kwargs`; a `mode` of None (`triangular`'s default, the middle)
    left out; None where one is no number."""
    given = list(args)
    for key in names[len(given) :]:
        if key in kwargs:
            given.append(kwargs.pop(key))
        elif defaults:
            given.append(defaults[names.index(key)])
    if len(given) == 3 and given[2] is None and names[2:] == ("mode",):
        given.pop()
    return None if any(type(a) not in NUMBERS for a in given) else given


def _cpython_errors(draw: Callable[..., float]) -> Callable[..., float]:
    """`draw` with CPython's errors as the program's (`expovariate(0)`: ZeroDivisionError
    `float division by zero`; a result past a float: OverflowError)."""

    def guarded(*args: float) -> float:
        try:
            return draw(*args)
        except (ValueError, ZeroDivisionError, OverflowError) as error:
            raise caught_as(f"random.{draw.__name__}(): {error}", error) from None

    return guarded


def _betavariate(rng: random.Random, alpha: float, beta: float) -> float:
    """CPython's draw. Its rejection loop never ends for nan, inf or a parameter past
    8.9e307 (`2 * alpha` overflows), so those are refused; one <= 0 is its ValueError."""
    if not all(math.isfinite(x) and x <= 1e300 for x in (alpha, beta)):
        raise ProgramError("random.betavariate() takes alpha and beta up to 1e300 here")
    try:
        return rng.betavariate(alpha, beta)
    except ValueError as error:
        raise ProgramError(str(error), kind="ValueError") from None


def _choices(rng: random.Random, state: Any, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
    """`random.choices(population, weights=None, *, cum_weights=None, k=1)`: CPython's
    own draw over plain-number weights, sizes checked before the draw."""
    if not 1 <= len(args) <= 2 or set(kwargs) - {"weights", "cum_weights", "k"}:
        raise ProgramError("random.choices() takes a sequence, weights=, cum_weights=, k=")
    population = args[0]
    if type(population) not in (list, tuple, str, range):
        raise ProgramError("random.choices() takes a list, tuple, string or range")
    weights = args[1] if len(args) == 2 else kwargs.get("weights")
    if len(args) == 2 and "weights" in kwargs:
        raise ProgramError("random.choices() got weights twice", kind="TypeError")
    cum_weights, k = kwargs.get("cum_weights"), kwargs.get("k", 1)
    if type(k) is not int:
        raise ProgramError("random.choices(): k must be an integer", kind="TypeError")
    for given in (weights, cum_weights):
        if given is not None and (
            type(given) not in (list, tuple) or any(type(w) not in NUMBERS for w in given)
        ):
            raise ProgramError("random.choices() weights must be plain numbers")
    if k > MAX_ITEMS:
        raise ProgramError("random.choices(): k is too large")
    state.charge(max(k, 0) + len(population))
    try:
        return rng.choices(population, weights, cum_weights=cum_weights, k=k)
    except (ValueError, TypeError, IndexError, OverflowError) as error:
        raise ProgramError(str(error), kind=type(error).__name__) from None


def _strict_zip(iterables: list[Iterator[Any]]) -> Iterator[tuple[Any, ...]]:
    """`zip(a, b, strict=True)`: CPython's ValueError, as the program's, when one ends first."""
    try:
        yield from zip(*iterables, strict=True)
    except ValueError as error:
        raise ProgramError(str(error), kind="ValueError") from None


def _mapped(
    call: Callable[[Any, list[Any]], Any], function: Any, iterables: list[Iterator[Any]]
) -> Iterator[Any]:
    """`map(function, *iterables)`."""
    for group in zip(*iterables, strict=False):
        yield call(function, list(group))


def _filtered(
    truthy: Callable[[Any], bool],
    call: Callable[[Any, list[Any]], Any],
    function: Any,
    iterables: list[Iterator[Any]],
) -> Iterator[Any]:
    """`filter(function, iterables[0])` (`None`: the items that are true)."""
    for item in iterables[0]:
        if truthy(item if function is None else call(function, [item])):
            yield item


# Their names as CPython's (`type(map(f, xs))`, `<map object>`: `text.iterator_name`).
ITERATOR_CODES.update(
    {
        _mapped.__code__: "map",
        _filtered.__code__: "filter",
        _strict_zip.__code__: "zip",
        Library.until_sentinel.__code__: "callable_iterator",
    }
)

# The library's own lazy built-ins that are Python generators, each reading `iterables`.
READERS.update((_strict_zip.__code__, _mapped.__code__, _filtered.__code__))


def _integer_ratio(obj: float, args: list[Any], kwargs: dict[str, Any]) -> tuple[int, int]:
    """`x.as_integer_ratio()` of a float, an int or a bool: CPython's, its errors for
    infinity and nan included; its integers within the integer bound (a float's need at
    most 1,075 bits, an int's are itself and 1; a bool's ints, `(1, 1)`)."""
    if args or kwargs:
        owner = "float" if type(obj) is float else "int"
        given = len(args) + len(kwargs)
        words = f"{owner}.as_integer_ratio() takes no arguments ({given} given)"
        raise caught_as("as_integer_ratio() takes no arguments", TypeError(words))
    if type(obj) is bool:
        return int(obj), 1
    try:
        return obj.as_integer_ratio()
    except (OverflowError, ValueError) as error:  # `float('inf')`: CPython's words
        raise caught_as(f"as_integer_ratio(): {error}", error) from None


def _unbound(
    owner: str,
    name: str,
    python_type: type,
    call: Callable[[Any, list[Any], dict[str, Any]], Any],
) -> Builtin:
    """`str.lower` as a function of a string (`sorted(words, key=str.lower)`)."""

    def method(args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not args:
            wrong = TypeError(f"unbound method {owner}.{name}() needs an argument")
            raise caught_as(f"{owner}.{name}() needs a {owner} first", wrong)
        first: Any = args[0]
        if type(first) is PInstance and type(enum_mixin_value(first)) is python_type:
            first = enum_mixin_value(first)  # `str.upper(Op.MUL)`: a str mixin's member
        if type(first) is bool and python_type is int:  # `int.__add__(True, 1)`: a bool is one
            first = int(first)
        if type(first) is not python_type or (
            type(first) is PSet and first.frozen != (owner == "frozenset")  # `set.add(fs)`
        ):
            given = python_type_name(args[0])
            host = set if python_type is PSet else python_type
            if isinstance(getattr(host, name, None), _SLOT_WRAPPER):  # `int.__add__`
                words = f"requires a '{owner}' object but received a '{given}'"
            else:
                words = f"for '{owner}' objects doesn't apply to a '{given}' object"
            words = f"descriptor '{name}' {words}"
            raise caught_as(f"{owner}.{name}() takes a {owner} first", TypeError(words))
        return call(first, args[1:], kwargs)

    return TypeMethod(name, method)


# The values `hasattr` of a dunder asks Python about (builtin_dunders.host_has).
_PLAIN_TYPES = frozenset(PYTHON_TYPES) | ITERATOR_TYPES

# CPython's slot wrappers (`int.__add__`), whose words for a wrong object differ.
_SLOT_WRAPPER = type(int.__add__)

# The methods of a set that change it, which a frozenset has none of.
_SET_CHANGES = frozenset({"add", "update", "discard", "remove", "clear", "pop"})

# The math functions that take integers (an object's `__index__`, never its `__float__`).
_INTEGER_MATH = frozenset({"gcd", "factorial", "isqrt", "comb", "perm", "lcm"})


def _one_iterable(name: str, args: list[Any], kwargs: dict[str, Any] | None) -> list[Any]:
    """`args` of `list(...)`, `tuple(...)` or `set(...)`, which take at most one iterable
    and no keyword: else CPython's TypeError, which the program may catch."""
    if kwargs:
        raise ProgramError(f"{name}() takes no keyword arguments", kind="TypeError")
    if len(args) > 1:
        message = f"{name} expected at most 1 argument, got {len(args)}"
        raise ProgramError(message, kind="TypeError")
    return args


class _Ordered:
    """A sort key that compares with the program's `<` (`Library.sort_by_dunders`)."""

    __slots__ = ("compare", "value")

    def __init__(self, value: Any, compare: Callable[[str, Any, Any], bool]) -> None:
        self.value = value
        self.compare = compare

    def __lt__(self, other: _Ordered) -> bool:
        return self.compare("<", self.value, other.value)


# `math.floor(x)`, `ceil`, `trunc` of an object call its own `__floor__`… first
_ROUNDING = frozenset({"floor", "ceil", "trunc"})

_MATH_FUNCTIONS = (
    "exp",
    "log",
    "log2",
    "log10",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "pow",
    "fabs",
    "floor",
    "ceil",
    "trunc",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "hypot",
    "copysign",
    "degrees",
    "radians",
    "erf",
    "fmod",
    # Also float functions, each a bounded amount of work on bounded numbers:
    "log1p",
    "expm1",
    "erfc",
    "asinh",
    "acosh",
    "atanh",
    "gamma",
    "lgamma",
    "cbrt",
    "exp2",
    "remainder",
    "modf",
    "frexp",
    "ldexp",
    "isqrt",
    "gcd",
    "nextafter",
    "ulp",
)


def _translation_table(table: dict[Any, Any]) -> bool:
    """Whether a dict is one `str.translate` may read in Python itself: its keys numbers or
    strings, which it compares with no method of the program's (its values are only
    looked at, and one of the wrong kind is CPython's own TypeError)."""
    return all(type(key) in (int, str, bool, float) for key in table)


def _two(args: list[Any], kwargs: dict[str, Any], name: str) -> list[Any]:
    if kwargs or len(args) != 2:
        words = f"{name} expected 2 arguments, got {len(args)}"
        failed = ProgramError(words, kind="TypeError")
        failed.args_seen = (words,)
        raise failed
    return args


_STR_METHODS: dict[str, Callable[..., Any]] = {
    "upper": str.upper,
    "lower": str.lower,
    "strip": str.strip,
    "lstrip": str.lstrip,
    "rstrip": str.rstrip,
    "startswith": str.startswith,
    "endswith": str.endswith,
    "split": str.split,
    "find": str.find,
    "rfind": str.rfind,
    "count": str.count,
    "title": str.title,
    "capitalize": str.capitalize,
    "swapcase": str.swapcase,
    "isalpha": str.isalpha,
    "isdigit": str.isdigit,
    "isalnum": str.isalnum,
    "isspace": str.isspace,
    "isupper": str.isupper,
    "islower": str.islower,
    "splitlines": str.splitlines,
    "casefold": str.casefold,
    "partition": str.partition,
    "rpartition": str.rpartition,
    "removeprefix": str.removeprefix,
    "removesuffix": str.removesuffix,
}
# String methods Python runs on strings, integers, None and tuples of strings alone
# (`str_methods`' `general`); a keyword one does not take is Python's own TypeError.
_STR_GENERAL: dict[str, Callable[..., Any]] = {
    name: getattr(str, name)
    for name in (
        "index", "rindex", "find", "rfind", "count", "split", "rsplit", "splitlines",
        "startswith", "endswith", "strip", "lstrip", "rstrip", "isidentifier", "istitle",
        "isdecimal", "isnumeric", "isprintable", "isascii", "expandtabs",
    )
}  # fmt: skip


def _general_str_method(state: State, name: str) -> Callable[[str, list[Any], dict[str, Any]], Any]:
    """A method that takes strings, small integers, None or a tuple of strings
    (`split(',', maxsplit=1)`, `index('a', 2)`, `startswith(('a', 'b'))`): Python's
    own, which calls back into nothing; its errors are CPython's, caught as such."""

    def method(obj: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if not all(map(_plain_argument, (*args, *kwargs.values()))):
            args = [_host_argument(name, value) for value in args]
            kwargs = {key: _host_argument(name, value) for key, value in kwargs.items()}
        if name == "expandtabs":
            # each tab becomes at most `tab` spaces: the bound, before the text is made
            tab = (args or list(kwargs.values()) or [8])[0]
            widest = max(1, tab if type(tab) is int else 1)
            state.check_str(len(obj) + obj.count("\t") * (widest - 1))
        state.charge(len(obj) // 10)
        try:
            result = _STR_GENERAL[name](obj, *args, **kwargs)
        except (TypeError, ValueError, OverflowError) as error:
            raise caught_as(f"{name}(): {error}", error) from None
        if type(result) is list:
            state.check_items(len(result))
        elif type(result) is str:
            state.check_str(len(result))
        return result

    return method


def _replace_count(args: list[Any], kwargs: dict[str, Any]) -> int:
    """The count of `s.replace(old, new, count)` (-1 if none), its arguments checked
    with CPython's TypeErrors."""
    count = args[2] if len(args) == 3 else -1  # `replace(old, new, count)`
    if kwargs or len(args) not in (2, 3):
        raise wrong_arguments("replace() takes two strings here", "replace", args, kwargs, str)
    for place, given in enumerate(args[:2], 1):
        if type(given) is not str:  # CPython's words, caught or not
            shown = "None" if given is None else cpython_type(given)  # (argument clinic's)
            words = f"replace() argument {place} must be str, not {shown}"
            raise ProgramError(words, kind="TypeError")
    if type(count) is PInstance and count.cls.lookup("__index__") is not MISSING:
        raise ProgramError("replace()'s count must be an integer here")  # (CPython's takes it)
    if type(count) not in (int, bool):
        words = f"'{cpython_type(count)}' object cannot be interpreted as an integer"
        raise ProgramError(words, kind="TypeError")
    return int(count)


# Stand-ins for what a string method cannot take, by the name of its type as CPython's
# words show it (`_host_argument`)
_STAND_INS: dict[str, type] = {}


def _host_argument(name: str, value: Any) -> Any:
    """What Python's own string method is given for `value`, which `_plain_argument`
    refused: a plain one as it is, else an empty object of a class named as CPython
    names its type, which CPython's method refuses with its own words (`tuple for
    startswith must only contain str, not list`) or, as CPython's, never reaches
    (`startswith(('a', 1))` of 'abc' is True). Refused: an integer past 64 bits or an
    object that has an `__index__` or is an Enum's member, which CPython's would take."""
    kind = type(value)
    if kind is tuple and len(value) <= 1000:
        return tuple(item if type(item) is str else _host_argument(name, item) for item in value)
    if _plain_argument(value) or kind in (float, complex, bytes):
        return value
    if kind in (int, bool, tuple) or (
        kind is PInstance
        and (value.cls.lookup("__index__") is not MISSING or _data_type(value.cls) is not None)
    ):
        raise ProgramError(f"{name}() takes strings and integers here")
    shown = cpython_type(value)
    made = _STAND_INS.get(shown)
    if made is None:
        made = type(shown, (), {"__slots__": ()})
        if len(_STAND_INS) < 1000:
            _STAND_INS[shown] = made
    return made()


def _plain_argument(value: Any) -> bool:
    kind = type(value)
    if kind is int:
        return bool(-(2**63) <= value < 2**63)
    if kind is tuple:
        return len(value) <= 1000 and all(type(item) is str for item in value)
    return kind is str or kind is bool or value is None


# The methods of `_STR_METHODS` whose one string argument is not optional.
_ONE_STRING = frozenset({"partition", "rpartition", "removeprefix", "removesuffix"})


# `isinstance(x, Iterable)` with `typing`'s names for collections.abc's classes and the
# built-in types: what CPython answers for the objects a program has here, a class of the
# program's by the methods it defines, as those classes' `__subclasshook__` looks for them.
_BUILT_IN_ALIASES: dict[str, tuple[type, ...]] = {
    "List": (list,),
    "MutableSequence": (list,),
    "Tuple": (tuple,),
    "Dict": (dict,),
    "Mapping": (dict,),
    "MutableMapping": (dict,),
    "Set": (PSet, *SET_LIKE_VIEWS),
    "MutableSet": (PSet,),  # (not a frozenset: `abstract_instance`)
    "Sequence": (list, tuple, str, range, bytes),
}
# The numeric tower (`numbers`): the built-in numbers CPython registers in each class.
_NUMBERS: dict[str, tuple[type, ...]] = {
    "Number": (int, float, complex, bool),
    "Complex": (int, float, complex, bool),
    "Real": (int, float, bool),
    "Rational": (int, bool),
    "Integral": (int, bool),
}
# typing's runtime protocols of one method (`isinstance(x, SupportsFloat)`, as a learner's
# `Var(val) if isinstance(val, SupportsFloat) else val`): the method, and the built-in
# types of CPython 3.11 that have it (a complex number has no `__float__` there).
_PROTOCOLS: dict[str, tuple[str, tuple[type, ...]]] = {
    "SupportsFloat": ("__float__", (int, float, bool)),
    "SupportsInt": ("__int__", (int, float, bool)),
    "SupportsIndex": ("__index__", (int, bool)),
    "SupportsAbs": ("__abs__", (int, float, bool, complex)),
    "SupportsComplex": ("__complex__", (complex,)),
    "SupportsRound": ("__round__", (int, float, bool)),
    "SupportsBytes": ("__bytes__", (bytes,)),
}
ABSTRACT_CLASSES = frozenset(
    {*_BUILT_IN_ALIASES, *_NUMBERS, *_PROTOCOLS, "Iterable", "Iterator", "Generator", "Sized",
     "Container", "Collection", "Reversible", "Callable", "Type", "Hashable"}
)  # fmt: skip


# The abstract classes `issubclass` answers by `abstract_subclass`.
_ABSTRACT_NAMES = ABSTRACT_CLASSES - {*_NUMBERS, *_PROTOCOLS}


def _defines(value: Any, *names: str) -> bool:
    return type(value) is PInstance and all(
        value.cls.lookup(name) not in (MISSING, None) for name in names
    )


def _builtin_based(cls: PClass, option: TypeObject) -> bool:
    """Whether a class of the program's inherits from the built-in `list` or `dict` that
    `option` is (`builtin_bases`), or is an Enum of that data type (an IntEnum's `int`)."""
    return (
        any(c.namespace.get(BUILTIN_BASE_KEY) in option.types for c in cls.mro)
        or _data_type(cls) in option.types
    )


def _data_type(cls: PClass) -> type | None:
    """The data type of an IntEnum's, a StrEnum's or `class Op(str, Enum)`'s members
    (`int`, `str`), else None."""
    return next(
        (c.namespace[ENUM_MIXIN_KEY] for c in cls.mro if ENUM_MIXIN_KEY in c.namespace), None
    )


def number_instance(value: Any) -> bool:
    """Whether `value` is an instance of `numbers.Number` as CPython registers them: an
    int, a float, a bool, a complex number (an IntEnum's member too)."""
    plain = enum_mixin_value(value) if type(value) is PInstance else value
    return type(plain) in _NUMBERS["Number"]


def abstract_instance(name: str, value: Any) -> bool:
    kind = type(value)
    if kind is PInstance and (name in _ABSTRACT_HOOKS or name in _BUILT_IN_ALIASES):
        # by its class, as CPython's `__instancecheck__` asks of `type(x)`
        return abstract_subclass(name, value.cls)
    if name == "MutableSet":
        return kind is PSet and not value.frozen
    if name in _BUILT_IN_ALIASES:
        return kind in _BUILT_IN_ALIASES[name]
    if name in _NUMBERS:
        if kind is PInstance:  # an IntEnum's member: an int (`numbers.Integral`)
            kind = type(enum_mixin_value(value))
        return kind in _NUMBERS[name]
    if name in _PROTOCOLS:
        return protocol_fits(value, *_PROTOCOLS[name])
    if name == "Iterable":
        return kind in SIZED or kind in ITERATOR_TYPES or _defines(value, "__iter__")
    if name == "Iterator":
        return kind in ITERATOR_TYPES or _defines(value, "__iter__", "__next__")
    if name == "Generator":  # a generator function's or expression's, not `map`'s
        return kind is GeneratorType and ITERATOR_CODES.get(value.gi_code) in _GENERATORS
    if name == "Sized":
        return kind in SIZED or _defines(value, "__len__")
    if name == "Container":
        return kind in SIZED or _defines(value, "__contains__")
    if name == "Collection":
        return kind in SIZED or _defines(value, "__len__", "__iter__", "__contains__")
    if name == "Reversible":
        return kind in (SIZED - {PSet}) or _defines(value, "__reversed__", "__iter__")
    if name == "Type":
        return kind is PClass or isinstance(value, TypeObject)
    if name == "Hashable":  # by its type's `__hash__`, as CPython's (`(1, [2])` is one)
        if kind is PInstance:
            return not hash_is_none(value.cls) and value.cls.lookup("__hash__") is not None
        if kind is _VALUES_VIEW:  # (a keys or items view is set-like: no hash)
            return True
        return (kind is PSet and value.frozen) or kind not in UNHASHABLE
    return callable_value(value)  # Callable


# The methods CPython's `__subclasshook__` of each abstract class looks for in a class's
# MRO (`collections.abc`'s `_check_methods`): a class is one when each is there and not
# None. The other abstract classes (`Sequence`, `Mapping`...) have no hook: only the
# built-in types registered in them and their subclasses are theirs.
_ABSTRACT_HOOKS: dict[str, tuple[str, ...]] = {
    "Hashable": ("__hash__",),
    "Iterable": ("__iter__",),
    "Iterator": ("__iter__", "__next__"),
    "Generator": ("__iter__", "__next__", "send", "throw", "close"),
    "Reversible": ("__reversed__", "__iter__"),
    "Sized": ("__len__",),
    "Container": ("__contains__",),
    "Collection": ("__len__", "__iter__", "__contains__"),
    "Callable": ("__call__",),
}
_GENERATORS = ("genexpr", "function")  # (`ITERATOR_CODES` of a program's generators)
# CPython's types by the names the interpreter's built-in types have (`type(x).__name__`,
# `list_iterator`...), for `issubclass(list, Iterable)`: asked of CPython's own classes.
_HOST_TYPES: dict[str, type] = {
    **{name: kind for name, kind in vars(_host_builtins).items() if isinstance(kind, type)},
    **{
        kind.__name__: kind
        for kind in cast("tuple[type, ...]", (
            type(None), GeneratorType, MappingProxyType, FunctionType, BuiltinFunctionType,
            MethodType, *VIEWS, *ITERATOR_TYPES, _host_abc.ABCMeta, _host_itertools.chain,
        ))
    },
    **{
        f"collections.{kind.__name__}": kind
        for kind in (
            _host_collections.defaultdict, _host_collections.Counter,
            _host_collections.OrderedDict, _host_collections.deque,
        )
    },
    "functools.partial": partial,
    "itertools.chain": _host_itertools.chain,
    "Value": object,  # (micrograd's: none of the methods the hooks look for but `__hash__`)
}  # fmt: skip


def _host_abstract(name: str) -> Any:
    """CPython's abstract class of the name (collections.abc's, whose names typing's
    aliases share here), else typing's alias of a built-in type (`List`, `Type`)."""
    found = getattr(_host_collections_abc, name, None)
    return found if found is not None else getattr(_host_typing, name)


def _host_base(cls: PClass) -> type | None:
    """The built-in type a class of the program's is a subclass of in CPython: its
    `list` or `dict` base, an Enum's data type (`str` of a StrEnum), a named tuple's
    `tuple`; None for any other."""
    for c in cls.mro:
        base = c.namespace.get(BUILTIN_BASE_KEY)
        if base is not None:
            return cast(type, base)
    data = _data_type(cls)
    if data is not None:
        return data
    return tuple if _named_tuple_class(cls) else None


def _hooked(cls: PClass, method: str, host: type | None) -> bool:
    """Whether `_check_methods` finds `method` in the MRO of `cls` and not None: a class
    of the program's first (`__hash__` None beside an own `__eq__`), then its built-in
    base's, then `object`'s (only `__hash__` of the hooks' methods)."""
    for c in cls.mro:
        if method in c.namespace:
            return c.namespace[method] is not None
        if method == "__hash__" and c.hash_none:
            return False
    if host is not None and any(method in vars(k) for k in host.__mro__ if k is not object):
        return getattr(host, method) is not None
    return method == "__hash__"


def abstract_subclass(name: str, cls: Any) -> bool:
    """`issubclass(cls, Iterable)` of one of collections.abc's classes or typing's aliases
    (`ABSTRACT_CLASSES` but the numbers and protocols), as CPython answers: of a class of
    the program's by its abstract class's `__subclasshook__` (`_ABSTRACT_HOOKS`), else
    (a hook's method None too) by its built-in base; of a built-in type, CPython's own
    answer for its class. A ChainMap is a `MutableMapping`."""
    host_abstract = _host_abstract(name)
    if type(cls) is PClass:
        if name in ("Mapping", "MutableMapping") and cls.lookup(ABC_MAPPING_KEY) is True:
            return True
        host = _host_base(cls)
        methods = _ABSTRACT_HOOKS.get(name)
        if methods is not None and all(_hooked(cls, method, host) for method in methods):
            return True
        return host is not None and issubclass(host, host_abstract)
    host_type = _HOST_TYPES.get(cls.module + cls.name if cls.module != "abc." else cls.name)
    if host_type is None:
        words = f"issubclass() of {cls.name} and {name} is not answered here"
        raise ProgramError(words)
    return issubclass(host_type, host_abstract)


def protocol_fits(value: Any, method: str, types: tuple[type, ...]) -> bool:
    """`isinstance(value, SupportsFloat)`: as CPython's `hasattr(value, '__float__')`,
    its method not None: a built-in number of the types that have it, an object of the
    program's whose class has it, or else which itself has it (CPython 3.11 asks the
    class first: `d.__float__ = None` on an object whose class has one still fits), a
    class of the program's that has it."""
    kind = type(value)
    if kind is PInstance:
        if _data_type(value.cls) is not None:  # an IntEnum's member: an int
            return type(enum_mixin_value(value)) in types
        if value.cls.lookup(method) not in (MISSING, None):
            return True
        return value.attrs.get(method) is not None
    if kind is PClass or isinstance(value, TypeObject):  # `isinstance(float, SupportsFloat)`
        return protocol_subclass(value, method, types)
    return kind in types


def protocol_subclass(cls: Any, method: str, types: tuple[type, ...]) -> bool:
    """`issubclass(C, SupportsFloat)`, as CPython 3.11's protocol hook: the first class of
    C's MRO that defines the method does not set it to None (an IntEnum's, by its data
    type `int`); a built-in type (`float`) whose objects all have it."""
    if type(cls) is PClass:
        found = cls.lookup(method)
        if found is not MISSING:
            return found is not None
        return _data_type(cls) in types
    return bool(cls.types) and all(one in types for one in cls.types)


# The dunders every object (and, for a class, `type`) has in CPython 3.11, and the ones
# it has elsewhere (`__dict__`...), for `hasattr(Value, "__add__")` on the program's own.
OBJECT_DUNDERS = frozenset(name for name in dir(object) if is_dunder(name))
TYPE_DUNDERS = frozenset(name for name in dir(type) if is_dunder(name))
# What `hasattr(v, '__add__')` finds on a micrograd 0.1.0 `Value` (the engine's is one):
# its operators, object's methods and what its class and instances have.
_VALUE_DUNDERS = OBJECT_DUNDERS | {
    f"__{name}__"
    for name in (
        "add", "radd", "mul", "rmul", "sub", "rsub", "truediv", "rtruediv", "pow", "neg",
        "dict", "module", "weakref",
    )
}  # fmt: skip
UNANSWERED_DUNDERS = frozenset(
    {"__dict__", "__module__", "__weakref__", "__slots__", "__annotations__", "__qualname__",
     "__name__", "__mro__", "__bases__", "__wrapped__", "__match_args__", "__dataclass_fields__"}
)  # fmt: skip


def falls_back(obj: Any, name: Any) -> bool:
    """Whether reading the dunder `name` off `obj` is its class's own `__getattr__`'s
    call, as CPython's: an object of the program's whose class has one, and neither it,
    its class nor `object` has the name (`__len__` of a proxy, `__name__` of an object);
    a name only the program's code then sees, as a string."""
    if type(obj) is not PInstance or type(name) is not str or not is_dunder(name):
        return False
    cls = obj.cls
    if cls.lookup("__getattr__") is MISSING or name in obj.attrs or name in OBJECT_DUNDERS:
        return False
    return cls.lookup(name) is MISSING and name not in _INSTANCE_DUNDERS


# What every object of a class of the program's has besides `object`'s names (not
# `__notes__`, which only an exception's `add_note` gives it: CPython asks `__getattr__`)
_INSTANCE_DUNDERS = frozenset({"__dict__", "__weakref__", "__module__"})


def has_dunder(obj: Any, name: Any) -> bool | None:
    """`hasattr(Value, "__add__")` on the program's class or object: whether its class
    defines the method, or every object (or class) has it; None to answer as before
    (not a dunder, not the program's object, or one kept out of reach)."""
    if type(name) is str and name in UNANSWERED_DUNDERS:
        return has_fact(obj, name)
    if type(name) is not str or not is_dunder(name):
        return None
    if type(obj) is PInstance:
        return obj.cls.lookup(name) is not MISSING or name in OBJECT_DUNDERS
    if type(obj) is PClass:
        return obj.lookup(name) is not MISSING or name in TYPE_DUNDERS
    return None


def _named_tuple_class(cls: PClass) -> bool:
    return any(TUPLE_FIELDS in c.namespace for c in cls.mro)


def named_tuple(value: Any) -> bool:
    """Whether `value` is an object of a named tuple's class (a tuple, in CPython)."""
    return type(value) is PInstance and _named_tuple_class(value.cls)


# What `_ProtocolMeta` does not count as a protocol's member (CPython 3.11's list)
_NOT_PROTOCOL_MEMBERS = frozenset(
    {"__abstractmethods__", "__annotations__", "__weakref__", "_is_protocol",
     "_is_runtime_protocol", "__dict__", "__args__", "__slots__", "__next_in_mro__",
     "__parameters__", "__origin__", "__orig_bases__", "__extra__", "__tree_hash__",
     "__doc__", "__subclasshook__", "__init__", "__new__", "__module__", "_MutableMapping__marker",
     "_gorg", "__qualname__", "__class_getitem__", "__init_subclass__"}
)  # fmt: skip


def has_fact(obj: Any, name: str) -> bool | None:
    """`hasattr(x, '__dict__')` and the like of the program's object or class, as CPython
    answers (an object of a class with `__slots__` has no `__dict__`; a class has its
    `__name__` and `__mro__`, an object not), without reading the attribute; None for
    the names answered by reading it (`__annotations__`, `__wrapped__`…)."""
    if type(obj) is PInstance:
        slots = obj.cls.slots
        if name == "__dict__":  # (an exception's has one: BaseException's)
            return not is_bare_object(obj) and (slots is None or name in slots)
        if name == "__weakref__":
            return _weak_referable(obj.cls)
        if name == "__module__":  # its class's, where the program made it
            return any(not c.builtin for c in obj.cls.mro)
        if name in ("__slots__", "__qualname__", "__name__", "__mro__", "__bases__"):
            return obj.cls.lookup(name) is not MISSING
        return None
    if type(obj) is PClass:
        if name in ("__dict__", "__module__", "__qualname__", "__name__", "__mro__", "__bases__"):
            return True
        if name == "__weakref__":
            return _weak_referable(obj)
        if name == "__slots__":
            return obj.lookup(name) is not MISSING
    return None


def _weak_referable(cls: PClass) -> bool:
    """Whether the objects of `cls` (and it) have `__weakref__`: a class of the program's
    without `__slots__` in its MRO gives it, or `__slots__` naming it; `object` and
    CPython's exceptions do not."""
    if cls.slots is not None:
        return "__weakref__" in cls.slots
    return any(not c.builtin and "__slots__" not in c.namespace for c in cls.mro)


def callable_value(value: Any) -> bool:
    if type(value) is PInstance:
        return type(value.cls.lookup("__call__")) is not type(MISSING)
    if type(value) is PartialMethod:  # CPython's partialmethod object has no `__call__`
        return False
    return isinstance(value, Builtin | Function | BoundMethod | PClass)


def _none(args: list[Any], kwargs: dict[str, Any]) -> None:
    """`type(None)()`: None, as in CPython."""
    if args or kwargs:
        raise ProgramError("NoneType takes no arguments", kind="TypeError")


# The classes CPython makes `int | None` and `list[int]` of
# CPython's TypeError of `isinstance(d, Cfg)` of a `class Cfg(TypedDict)`
NO_TYPEDDICT_CHECKS = "TypedDict does not support instance and class checks"
_ALIAS_TYPES = {"|": "UnionType", **{name: "GenericAlias" for name in GENERIC_ALIASES}}


def _not_constructible(name: str, where: str = " here") -> Call:
    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        raise ProgramError(f"cannot create '{name}' instances{where}", kind="TypeError")

    return call


def none(args: list[Any], kwargs: dict[str, Any], name: str, owner: type) -> None:
    """A method of `owner`'s that takes no arguments (`list.copy()`)."""
    if args or kwargs:
        raise wrong_arguments(f"{name}() takes no arguments", name, args, kwargs, owner)


def one(
    args: list[Any], kwargs: dict[str, Any], name: str = "this function", owner: type | None = None
) -> Any:
    """The one argument of `name` (a method of `owner`'s, or a built-in function)."""
    if kwargs or len(args) != 1:
        raise wrong_arguments(f"{name}() takes exactly one argument", name, args, kwargs, owner)
    return args[0]


def _fill(args: list[Any]) -> str:
    """The fill character of `ljust`, `rjust` and `center` (a space unless given)."""
    fill = args[1] if len(args) == 2 else " "
    if type(fill) is not str:  # (CPython's words, caught or not)
        words = f"The fill character must be a unicode character, not {cpython_type(fill)}"
        raise ProgramError(words, kind="TypeError")
    if len(fill) != 1:
        raise ProgramError(
            "The fill character must be exactly one character long", kind="TypeError"
        )
    return fill


def _no(value: Any) -> int:
    raise ProgramError(
        "int() argument must be a string, a bytes-like object or a real number, "
        f"not '{python_type_name(value)}'",
        kind="TypeError",
    )


def complex_(args: list[Any], kwargs: dict[str, Any]) -> complex:
    """`complex(real, imag)`, `complex('1+2j')`: Python's own, given plain numbers and
    strings only (a string is within MAX_STR, so parsing it is bounded)."""
    if len(args) > 2 or set(kwargs) - {"real", "imag"}:
        words = "complex() takes at most 2 arguments"
        raise wrong_arguments(words, "complex", args, kwargs, cpython=complex)
    plain = (*NUMBERS, complex, str)
    for position, value in enumerate([*args, *kwargs.values()]):
        if type(value) not in plain or (
            position and type(value) is str and type(args[0]) is not str
        ):
            which = "first" if position == 0 else "second"
            needs = "a string or a number" if position == 0 else "a number"
            wrong = TypeError(
                f"complex() {which} argument must be {needs}, not '{python_type_name(value)}'"
            )
            raise caught_as(f"complex() takes numbers or a string, not {a_type(value)}", wrong)
    try:
        return complex(*args, **kwargs)
    except (
        TypeError,
        ValueError,
        OverflowError,  # `complex(2 ** 4000)`: int too large to convert to float
    ) as error:  # CPython's words: `complex() arg is a malformed string`
        raise caught_as(f"complex(): {error}", error) from None


def _log2_count(name: str, n: int, k: int) -> int:
    """About how many bits `math.comb(n, k)` (or `perm`) has, from `math.lgamma`: n
    choose k is n! / (k! (n - k)!), n permute k is n! / (n - k)!."""
    logs = math.lgamma(n + 1) - math.lgamma(n - k + 1)
    if name == "comb":
        logs -= math.lgamma(k + 1)
    return int(logs / math.log(2))


def ternary_pow_error(args: list[Any]) -> ProgramError:
    """CPython's error for `pow(a, b, m)` not all integers: each distinct type's `**` is
    asked in turn (int's declines, float's refuses a modulus, complex's refuses it once
    both operands are numbers), else no type has it."""
    numbers = (int, bool, float, complex)
    for kind in dict.fromkeys(int if type(a) is bool else type(a) for a in args):
        if kind is float:
            words = "pow() 3rd argument not allowed unless all arguments are integers"
            return ProgramError(words, kind="TypeError")
        if kind is complex and all(type(a) in numbers for a in args[:2]):
            return ProgramError("complex modulo", kind="ValueError")
    names = ", ".join(f"'{python_type_name(a)}'" for a in args)
    return ProgramError(f"unsupported operand type(s) for ** or pow(): {names}", kind="TypeError")


def _round_arguments(args: list[Any], kwargs: dict[str, Any]) -> tuple[Any, Any] | None:
    """`round`'s number and digits (None when not given), by position or by CPython's
    keywords `number` and `ndigits`; None when CPython would refuse them."""
    names = ("number", "ndigits")
    if (
        not set(kwargs) <= set(names)
        or len(args) > 2
        or any(n in kwargs for n in names[: len(args)])
    ):
        return None
    given = [*args, *(kwargs[n] for n in names[len(args) :] if n in kwargs)]
    if not given or (len(given) == 1 and "ndigits" in kwargs):
        return None
    return given[0], given[1] if len(given) == 2 else None


# The names of CPython's `builtins` module (read once, here, to choose which of the
# interpreter's own built-ins `__builtins__` shows; nothing of the host's is handed on).
_CPYTHON_BUILTINS = frozenset(vars(_host_builtins)) - {"__name__", "__doc__"}


def _frozen(obj: PSet, name: str) -> ProgramError:
    """`fs.add(x)` of a frozenset: CPython's AttributeError (it has no such method)."""
    return ProgramError(f"'frozenset' object has no attribute '{name}'", kind="AttributeError")


def _unfrozen(
    call: Callable[[PSet, list[Any], dict[str, Any]], Any], name: str
) -> Callable[[PSet, list[Any], dict[str, Any]], Any]:
    """`call`, refusing a frozenset (as `add` does inline, on its hot path)."""

    def checked(obj: PSet, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if obj.frozen:
            raise _frozen(obj, name)
        return call(obj, args, kwargs)

    return checked
