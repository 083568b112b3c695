"""`bisect` and `string`, as learners' programs import them: modules whose source is in
the interpreter's own language, compiled in library mode when a program imports them
(`Compiler.library_module`), as `graphlib` is.

`bisect` is CPython 3.11's `bisect.py` (Python Software Foundation License), the pure
Python CPython falls back to without its `_bisect` accelerator: the same comparisons (`<`
alone, so a program's `__lt__` decides), the same `key=`, `lo`/`hi` and ValueError, so
an index and a list it inserts into are CPython's. `string` is its constants and
`capwords` (no `Template`, no `Formatter`).

Two members of modules otherwise native are here too, made for a program whose text
names them (`Compiler.add_library_members`): `collections.ChainMap` and
`functools.singledispatch`, each CPython 3.11's, with the few native helpers
`singledispatch` needs.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from backprop_animator.engine.interpreter.objects import (
    MISSING,
    Annotation,
    BoundMethod,
    Builtin,
    Function,
    PClass,
    PClassMethod,
    PInstance,
    PProperty,
    PStaticMethod,
)
from backprop_animator.engine.interpreter.runtime import ProgramError
from backprop_animator.engine.interpreter.stdlib import ABC_CLASS_NAMES


def singledispatch_natives(machine: Any, builtins: dict[str, Any]) -> dict[str, Any]:
    """For `singledispatch`: `_read_only(registry)`, the view its `registry` is, as
    CPython's (the interpreter's mappingproxy, which `C.__dict__` gives too);
    `_is_class(value)`, CPython's `isinstance(value, type)`, true of `collections.abc`'s
    classes too (`Sequence`: names of `typing` here); `_annotations(value)`, a function's
    `__annotations__`, `{}` of anything else (CPython's `getattr(f, '__annotations__',
    {})`, which a program's own code may not ask of every object here); `_mro(cls)`, a
    class of the program's `__mro__`, `()` of a built-in one. For `singledispatchmethod`:
    `_bind(method, obj, cls)`, CPython's `method.__get__(obj, cls)` (a function bound to
    the object, a class method to the class, a static method's function, a descriptor's
    own `__get__`); `_descriptor(value)`, whether it has a `__get__`; `_function_of(f)`,
    the function of a static or class method (whose name, CPython's, it copies), else `f`."""

    def read_only(args: list[Any], kwargs: dict[str, Any]) -> Any:
        return MappingProxyType(args[0])

    def is_class(args: list[Any], kwargs: dict[str, Any]) -> bool:
        value = args[0]
        if type(value) is Annotation:
            return not value.args and value.name in ABC_CLASS_NAMES
        return bool(machine.call(builtins["isinstance"], [value, builtins["type"]], {}))

    def annotations(args: list[Any], kwargs: dict[str, Any]) -> Any:
        value = args[0]
        if type(value) in (PStaticMethod, PClassMethod):  # (CPython 3.10's, its function's)
            value = value.function
        return machine.get_attr(value, "__annotations__") if type(value) is Function else {}

    def mro(args: list[Any], kwargs: dict[str, Any]) -> Any:
        value = args[0]
        return machine.get_attr(value, "__mro__") if type(value) is PClass else ()

    def bind(args: list[Any], kwargs: dict[str, Any]) -> Any:
        method, obj, cls = args
        kind = type(method)
        if kind is PStaticMethod:
            return method.function
        if kind is PClassMethod:
            if cls is None and obj is None:
                raise ProgramError("__get__(None, None) is invalid", kind="TypeError")
            if cls is None:  # (an object's own type: an int's too, as CPython's)
                cls = machine.call(builtins["type"], [obj], {})
            return machine.class_bound(method.function, cls)
        if obj is None:
            return method
        if kind is Function:
            return BoundMethod(method, obj)
        if kind is PInstance and method.cls.lookup("__get__") is not MISSING:
            return machine.call(machine.get_attr(method, "__get__"), [obj, cls], {})
        return method  # (a built-in: called as it is)

    def descriptor(args: list[Any], kwargs: dict[str, Any]) -> bool:
        value = args[0]
        if type(value) in (PStaticMethod, PClassMethod, PProperty):
            return True
        return type(value) is PInstance and value.cls.lookup("__get__") is not MISSING

    def function_of(args: list[Any], kwargs: dict[str, Any]) -> Any:
        value = args[0]
        return value.function if type(value) in (PStaticMethod, PClassMethod) else value

    return {
        "_bind": Builtin("_bind", bind),
        "_function_of": Builtin("_function_of", function_of),
        "_descriptor": Builtin("_descriptor", descriptor),
        "_mro": Builtin("_mro", mro),
        "_read_only": Builtin("_read_only", read_only),
        "_is_class": Builtin("_is_class", is_class),
        "_annotations": Builtin("_annotations", annotations),
    }


BISECT_SOURCE = """
def insort_right(a, x, lo=0, hi=None, *, key=None):
    if key is None:
        lo = bisect_right(a, x, lo, hi)
    else:
        lo = bisect_right(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


def bisect_right(a, x, lo=0, hi=None, *, key=None):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < a[mid]:
                hi = mid
            else:
                lo = mid + 1
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < key(a[mid]):
                hi = mid
            else:
                lo = mid + 1
    return lo


def insort_left(a, x, lo=0, hi=None, *, key=None):
    if key is None:
        lo = bisect_left(a, x, lo, hi)
    else:
        lo = bisect_left(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


def bisect_left(a, x, lo=0, hi=None, *, key=None):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if key(a[mid]) < x:
                lo = mid + 1
            else:
                hi = mid
    return lo


bisect = bisect_right
insort = insort_right
"""
BISECT_NAMES = frozenset(
    {"bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right"}
)

STRING_SOURCE = """
whitespace = ' \\t\\n\\r\\v\\f'
ascii_lowercase = 'abcdefghijklmnopqrstuvwxyz'
ascii_uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
ascii_letters = ascii_lowercase + ascii_uppercase
digits = '0123456789'
hexdigits = digits + 'abcdef' + 'ABCDEF'
octdigits = '01234567'
punctuation = r\"\"\"!"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\"\"\"
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or ' ').join([x.capitalize() for x in s.split(sep)])
"""
STRING_NAMES = frozenset(
    {
        "whitespace", "ascii_lowercase", "ascii_uppercase", "ascii_letters", "digits",
        "hexdigits", "octdigits", "punctuation", "printable", "capwords",
    }
)  # fmt: skip

# `collections.ChainMap`: CPython 3.11's class (its `collections/__init__.py`), with the
# methods it inherits from `MutableMapping` written out (a program's class cannot have
# that abstract class as a base here) and its keys, items and values views as CPython's
# `KeysView(ChainMap(...))`: iterated, counted, asked `in` and printed. Its `len()` counts
# the keys in a dict where CPython's makes a set of them (`set().union(*self.maps)`, which
# the interpreter's sets combine a map at a time); `isinstance(cm, Mapping)` is False here.
CHAINMAP_SOURCE = """
class KeysView:
    def __init__(self, mapping):
        self._mapping = mapping

    def __len__(self):
        return len(self._mapping)

    def __iter__(self):
        yield from self._mapping

    def __contains__(self, key):
        return key in self._mapping

    def __repr__(self):
        return f'{type(self).__name__}({self._mapping!r})'


class ItemsView(KeysView):
    def __iter__(self):
        for key in self._mapping:
            yield (key, self._mapping[key])

    def __contains__(self, item):
        key, value = item
        try:
            v = self._mapping[key]
        except KeyError:
            return False
        else:
            return v is value or v == value


class ValuesView(KeysView):
    def __iter__(self):
        for key in self._mapping:
            yield self._mapping[key]

    def __contains__(self, value):
        for key in self._mapping:
            v = self._mapping[key]
            if v is value or v == value:
                return True
        return False


_running = set()


class ChainMap:
    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __missing__(self, key):
        raise KeyError(key)

    def __getitem__(self, key):
        for mapping in self.maps:
            try:
                return mapping[key]
            except KeyError:
                pass
        return self.__missing__(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __len__(self):
        d = {}
        for mapping in self.maps:
            d.update(dict.fromkeys(mapping))
        return len(d)

    def __iter__(self):
        d = {}
        for mapping in reversed(self.maps):
            d.update(dict.fromkeys(mapping))
        return iter(d)

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __bool__(self):
        return any(self.maps)

    def __repr__(self):
        if id(self) in _running:
            return '...'
        _running.add(id(self))
        try:
            return f'{type(self).__name__}({", ".join(map(repr, self.maps))})'
        finally:
            _running.discard(id(self))

    @classmethod
    def fromkeys(cls, iterable, *args):
        return cls(dict.fromkeys(iterable, *args))

    def copy(self):
        return type(self)(self.maps[0].copy(), *self.maps[1:])

    def new_child(self, m=None, **kwargs):
        if m is None:
            m = kwargs
        elif kwargs:
            m.update(kwargs)
        return type(self)(m, *self.maps)

    @property
    def parents(self):
        return type(self)(*self.maps[1:])

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        try:
            del self.maps[0][key]
        except KeyError:
            raise KeyError(f'Key not found in the first mapping: {key!r}')

    def popitem(self):
        try:
            return self.maps[0].popitem()
        except KeyError:
            raise KeyError('No keys found in the first mapping.')

    def pop(self, key, *args):
        try:
            return self.maps[0].pop(key, *args)
        except KeyError:
            raise KeyError(f'Key not found in the first mapping: {key!r}')

    def clear(self):
        self.maps[0].clear()

    def __ior__(self, other):
        self.maps[0].update(other)
        return self

    def __or__(self, other):
        if not isinstance(other, (dict, ChainMap)):
            return NotImplemented
        m = self.copy()
        m.maps[0].update(other)
        return m

    def __ror__(self, other):
        if not isinstance(other, (dict, ChainMap)):
            return NotImplemented
        m = dict(other)
        for child in reversed(self.maps):
            m.update(child)
        return type(self)(m)

    def keys(self):
        return KeysView(self)

    def items(self):
        return ItemsView(self)

    def values(self):
        return ValuesView(self)

    def __eq__(self, other):
        if not isinstance(other, (dict, ChainMap)):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    def update(self, other=(), /, **kwds):
        if isinstance(other, (dict, ChainMap)):
            for key in other:
                self[key] = other[key]
        elif hasattr(other, "keys"):
            for key in other.keys():
                self[key] = other[key]
        else:
            for key, value in other:
                self[key] = value
        for key, value in kwds.items():
            self[key] = value

    def setdefault(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            self[key] = default
        return default
"""

# `functools.singledispatch`: CPython 3.11's function (its `functools.py`), dispatching
# on the type of the first argument: the implementation registered for the most derived
# class it is an instance of (two unrelated ones: the one first in its class's MRO, else
# the first registered), found again at each call (CPython caches it; here each call is
# charged a step a registered type). `register(cls, func=None)` as a decorator with a
# class or on a function whose first parameter is annotated (a union too, through
# `typing.get_type_hints`, as CPython's), with CPython's TypeErrors; `registry` is a
# read-only view of it, as CPython's mappingproxy. `singledispatchmethod`, CPython 3.11's
# class, dispatching on the type of the first argument after the object (or class), the
# implementation bound as CPython's `__get__` binds it (`_bind`); a fresh method each
# time it is read, as CPython 3.11's (no cache), but for its `__isabstractmethod__`.
SINGLEDISPATCH_SOURCE = """
from functools import update_wrapper
from typing import get_type_hints, get_args


def _is_union_type(cls):
    args = get_args(cls)
    return bool(args) and type(cls).__name__ in ('UnionType', '_UnionGenericAlias', 'Union')


def _is_valid_dispatch_type(cls):
    if _is_class(cls):
        return True
    return _is_union_type(cls) and all(_is_class(arg) for arg in get_args(cls))


def _more_derived(cls, first, second):
    if first is object or second is object:
        return second is object
    try:
        if issubclass(first, second):
            return True
        if issubclass(second, first):
            return False
    except TypeError:
        pass
    order = _mro(cls)
    if first in order and second in order:
        return order.index(first) < order.index(second)
    return False


def _find_impl(cls, registry, obj, by_object):
    best = None
    for t in registry:
        try:
            matches = isinstance(obj, t) if by_object else issubclass(cls, t)
        except TypeError:
            matches = False
        if matches and (best is None or _more_derived(cls, t, best)):
            best = t
    return registry.get(best)


def singledispatch(func):
    registry = {}

    def dispatch(cls):
        return _find_impl(cls, registry, None, False)

    def register(cls, func=None):
        if _is_valid_dispatch_type(cls):
            if func is None:
                return lambda f: register(cls, f)
        else:
            if func is not None:
                raise TypeError(
                    f"Invalid first argument to `register()`. "
                    f"{cls!r} is not a class or union type."
                )
            ann = _annotations(cls)
            if not ann:
                raise TypeError(
                    f"Invalid first argument to `register()`: {cls!r}. "
                    f"Use either `@register(some_class)` or plain `@register` "
                    f"on an annotated function."
                )
            func = cls
            argname, cls = next(iter(get_type_hints(_function_of(func)).items()))
            if not _is_valid_dispatch_type(cls):
                if _is_union_type(cls):
                    raise TypeError(
                        f"Invalid annotation for {argname!r}. "
                        f"{cls!r} not all arguments are classes."
                    )
                else:
                    raise TypeError(
                        f"Invalid annotation for {argname!r}. "
                        f"{cls!r} is not a class."
                    )

        if _is_union_type(cls):
            for arg in get_args(cls):
                registry[arg] = func
        else:
            registry[cls] = func
        return func

    def wrapper(*args, **kw):
        if not args:
            raise TypeError(f'{funcname} requires at least '
                            '1 positional argument')
        return _find_impl(type(args[0]), registry, args[0], True)(*args, **kw)

    try:
        funcname = func.__name__
    except AttributeError:
        funcname = 'singledispatch function'
    registry[object] = func
    wrapper.register = register
    wrapper.dispatch = dispatch
    wrapper.registry = _read_only(registry)
    update_wrapper(wrapper, func)
    return wrapper


class singledispatchmethod:
    def __init__(self, func):
        if not callable(func) and not _descriptor(func):
            raise TypeError(f"{func!r} is not callable or a descriptor")

        self.dispatcher = singledispatch(_function_of(func))
        self.dispatcher.register(object, func)
        self.func = func

    def register(self, cls, method=None):
        return self.dispatcher.register(cls, func=method)

    def __get__(self, obj, cls=None):
        def _method(*args, **kwargs):
            method = self.dispatcher.dispatch(type(args[0]))
            return _bind(method, obj, cls)(*args, **kwargs)

        _method.register = self.register
        update_wrapper(_method, _function_of(self.func))
        return _method
"""
