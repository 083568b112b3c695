"""What `collections`' kinds add to the dicts and lists they are.

`stdlib.collections_module` makes a `Counter`, `OrderedDict` or `defaultdict` as a
program dict and a `deque` as a program list, registered with the machine
(`Machine.collections`: the object, its kind, and its factory, a deque's `maxlen`).
Here is what each kind does that a plain dict or list does not, as CPython's
`collections` does it, in the same order and charged by the items it walks: a
Counter's counting `update`, `subtract`, `elements`, `total`, its `+ - | &`, unary
`+`/`-`, in-place forms and `==`; an OrderedDict's `move_to_end`, `popitem(last=)`
and `==` that minds the order; a deque's `maxlen` (items pushed off the other end),
`+` only with a deque, and `==` only with a deque. Arithmetic on counts is the
machine's own (`binary`, `compare`), so a count may be any number the program makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

from backprop_animator.engine.interpreter.runtime import ProgramError, caught_as

# The name CPython's messages give each kind's type (`type(d).__name__` is the short one).
QUALIFIED = {
    "Counter": "Counter",
    "OrderedDict": "collections.OrderedDict",
    "defaultdict": "collections.defaultdict",
    "deque": "collections.deque",
}


def kind_of(registry: dict[int, tuple[Any, str, Any]], obj: Any) -> str | None:
    """The `collections` kind `obj` was made as, or None for a plain dict or list."""
    special = registry.get(id(obj))
    return special[1] if special is not None and special[0] is obj else None


def factory_of(registry: dict[int, tuple[Any, str, Any]], obj: Any) -> Any:
    special = registry.get(id(obj))
    return special[2] if special is not None and special[0] is obj else None


def typed(words: str) -> ProgramError:
    """A TypeError in CPython's own words, caught or not."""
    return caught_as(words, TypeError(words))


def no_arguments(name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
    """`Counter.elements()` and `Counter.total()` take nothing but the Counter."""
    if kwargs:
        raise typed(f"Counter.{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if args:
        raise typed(f"Counter.{name}() takes 1 positional argument but {len(args) + 1} were given")


def sequence_name(registry: dict[int, tuple[Any, str, Any]], obj: list[Any]) -> str:
    """'deque' or 'list', for CPython's words."""
    return "deque" if registry and kind_of(registry, obj) == "deque" else "list"


def keep_maxlen(
    registry: dict[int, tuple[Any, str, Any]], obj: list[Any], from_left: bool = True
) -> None:
    """A deque with a `maxlen` drops what no longer fits (from the left after an append)."""
    maxlen = factory_of(registry, obj)
    if maxlen is not None and kind_of(registry, obj) == "deque":
        trim(obj, maxlen, from_left)


def check_room(registry: dict[int, tuple[Any, str, Any]], obj: list[Any]) -> None:
    """A full deque takes no `insert`: CPython's IndexError."""
    maxlen = factory_of(registry, obj)
    if maxlen is not None and kind_of(registry, obj) == "deque" and len(obj) >= maxlen:
        full = ProgramError("insert(): the deque is at its maxlen", kind="IndexError")
        full.args_seen = ("deque already at its maximum size",)
        raise full


def empty_pop(registry: dict[int, tuple[Any, str, Any]], obj: list[Any]) -> ProgramError:
    """`pop()` of an empty list or deque, in CPython's words for each."""
    if sequence_name(registry, obj) == "deque":
        return caught_as("pop from an empty deque", IndexError("pop from an empty deque"))
    return caught_as("pop from an empty list", IndexError("pop from empty list"))


def not_removed(
    registry: dict[int, tuple[Any, str, Any]], obj: list[Any], shown: Callable[[], str]
) -> ProgramError:
    """`remove(x)` of what a list or deque does not hold, in CPython's words for each."""
    if sequence_name(registry, obj) == "deque":
        return caught_as(
            "remove(): the value is not in the deque", ValueError(f"{shown()} is not in deque")
        )
    return caught_as(
        "remove(): the value is not in the list", ValueError("list.remove(x): x not in list")
    )


def no_sort(registry: dict[int, tuple[Any, str, Any]], obj: list[Any]) -> None:
    if registry and kind_of(registry, obj) == "deque":
        no = "'collections.deque' object has no attribute 'sort'"
        raise ProgramError(no, kind="AttributeError")


def copied(m: Any, obj: Any, made: Any) -> Any:
    """`x.copy()` of a `collections` kind is of its kind, with its factory or maxlen."""
    registry = m.collections
    kind = kind_of(registry, obj) if registry else None
    if kind is not None:
        m.register(made, kind, factory_of(registry, obj))
    return made


def _counts(source: Any) -> dict[Any, Any] | None:
    """A mapping `Counter.update` reads as counts, or None for an iterable of items."""
    if type(source) is MappingProxyType:
        return source.copy()
    return source if type(source) is dict else None


def counter_update(
    m: Any, library: Any, obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any], sign: int
) -> None:
    """`c.update(...)` (sign 1) or `c.subtract(...)` (sign -1): a mapping's counts added
    (`count + c[k]`) or taken away (`c[k] - count`), an iterable's items counted one each;
    then the keywords, as a mapping."""
    if len(args) > 1:
        name = "update" if sign > 0 else "subtract"
        given = len(args) + 1
        takes = "takes from 1 to 2 positional arguments"
        raise typed(f"Counter.{name}() {takes} but {given} were given")
    sources = [args[0]] if args and args[0] is not None else []
    if kwargs:
        sources.append(dict(kwargs))
    state = m.state
    for source in sources:
        counts = _counts(source)
        if counts is not None:
            state.charge(len(counts))
            empty = not obj  # an empty Counter takes a mapping's counts as they are
            for key, count in list(counts.items()):
                current = obj.get(key, 0)
                if sign > 0:
                    m.set_item(obj, key, count if empty else m.binary("+", count, current))
                else:
                    m.set_item(obj, key, m.binary("-", current, count))
            continue
        if type(source) in (int, float, bool):
            raise ProgramError(
                f"'{type(source).__name__}' object is not iterable", kind="TypeError"
            )
        for item in library.items(source):
            m.key(item)
            current = obj.get(item, 0)
            m.set_item(obj, item, m.binary("+" if sign > 0 else "-", current, 1))


def counter_elements(m: Any, obj: dict[Any, Any]) -> Iterator[Any]:
    """`c.elements()`: each key as many times as its count (none for a count below 1)."""
    state = m.state
    for key, count in list(obj.items()):
        if type(count) not in (int, bool):
            words = f"'{type(count).__name__}' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        for _ in range(max(0, count)):
            state.charge(1)
            yield key


def counter_total(m: Any, obj: dict[Any, Any]) -> Any:
    m.state.charge(len(obj))
    total: Any = 0
    for count in list(obj.values()):
        total = m.binary("+", total, count)
    return total


def _made(m: Any, counts: dict[Any, Any]) -> dict[Any, Any]:
    m.register(counts, "Counter")
    return counts


def counter_binary(m: Any, op: str, left: dict[Any, Any], right: dict[Any, Any]) -> dict[Any, Any]:
    """`a + b`, `a - b`, `a | b`, `a & b` of two Counters: a new Counter of the positive
    counts, in CPython's order (the left one's keys, then the right one's new keys)."""
    state = m.state
    state.charge(len(left) + len(right))
    state.check_items(len(left) + len(right))
    binary, compare = m.binary, m.compare
    out: dict[Any, Any] = {}
    for key, count in list(left.items()):
        other = right.get(key, 0)
        if op == "+":
            new = binary("+", count, other)
        elif op == "-":
            new = binary("-", count, other)
        elif op == "|":
            new = other if compare("<", count, other) else count
        else:
            new = count if compare("<", count, other) else other
        if compare(">", new, 0):
            out[key] = new
    if op != "&":
        for key, count in list(right.items()):
            if key in left:
                continue
            if op == "-":
                if compare("<", count, 0):
                    out[key] = binary("-", 0, count)
            elif compare(">", count, 0):
                out[key] = count
    return _made(m, out)


def counter_unary(m: Any, op: str, counts: dict[Any, Any]) -> dict[Any, Any]:
    """`+c` (the positive counts) or `-c` (the negative ones, negated)."""
    m.state.charge(len(counts))
    out: dict[Any, Any] = {}
    for key, count in list(counts.items()):
        if op == "+":
            if m.compare(">", count, 0):
                out[key] = count
        elif m.compare("<", count, 0):
            out[key] = m.binary("-", 0, count)
    return _made(m, out)


def counter_in_place(
    m: Any, op: str, left: dict[Any, Any], right: dict[Any, Any]
) -> dict[Any, Any]:
    """`c += d` and the others: the same Counter changed, then its counts below 1 dropped."""
    state = m.state
    state.charge(len(left) + len(right))
    state.check_items(len(left) + len(right))
    for key, count in list(right.items()):
        current = left.get(key, 0)
        if op == "+":
            m.set_item(left, key, m.binary("+", current, count))
        elif op == "-":
            m.set_item(left, key, m.binary("-", current, count))
        elif op == "|" and m.compare(">", count, current):
            m.set_item(left, key, count)
    if op == "&":
        for key, count in list(left.items()):
            other = right.get(key, 0)
            if m.compare("<", other, count):
                left[key] = other
    for key in [key for key, count in left.items() if not m.compare(">", count, 0)]:
        del left[key]
    return left


def counters_equal(m: Any, left: dict[Any, Any], right: dict[Any, Any]) -> bool:
    """Two Counters are equal when every key's count is (a missing key counts 0)."""
    m.state.charge(len(left) + len(right))
    for mine, theirs in ((left, right), (right, left)):
        for key, count in list(mine.items()):
            if not m.compare("==", count, theirs.get(key, 0)):
                return False
    return True


def counters_ordered(m: Any, op: str, left: dict[Any, Any], right: dict[Any, Any]) -> bool | None:
    """`a <= b` (and `<`, `>=`, `>`) of two Counters, as CPython's: every key's count
    compared (a missing key counts 0), `<` and `>` also unequal; None when either is
    not a Counter (no order: CPython's TypeError)."""
    registry = m.collections
    if kind_of(registry, left) != "Counter" or kind_of(registry, right) != "Counter":
        return None
    if op in ("<", ">") and counters_equal(m, left, right):
        return False
    m.state.charge(len(left) + len(right))
    each = "<=" if op in ("<", "<=") else ">="
    for c in (left, right):
        for key in list(c):
            if not m.compare(each, left.get(key, 0), right.get(key, 0)):
                return False
    return True


def move_to_end(m: Any, obj: dict[Any, Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    """`od.move_to_end(key, last=True)`: the key to the end, or to the front."""
    if len(args) + len(kwargs) > 2:
        raise typed(f"move_to_end() takes at most 2 arguments ({len(args) + len(kwargs)} given)")
    given = dict(zip(("key", "last"), args, strict=False))
    for name, value in kwargs.items():
        if name not in ("key", "last"):
            raise typed(f"'{name}' is an invalid keyword argument for move_to_end()")
        if name in given:
            raise typed(f"argument for move_to_end() given by name ('{name}') and position")
        given[name] = value
    if "key" not in given:
        raise typed("move_to_end() missing required argument 'key' (pos 1)")
    key = m.key(given["key"])
    if key not in obj:
        missing = ProgramError("move_to_end(): the key is not in the OrderedDict", kind="KeyError")
        missing.args_seen = (key,)
        raise missing
    value = obj.pop(key)
    if m.truthy(given.get("last", True)):
        obj[key] = value
        return
    m.state.charge(len(obj))
    rest = list(obj.items())
    obj.clear()
    obj[key] = value
    obj.update(rest)


def popitem(
    m: Any, obj: dict[Any, Any], ordered: bool, args: list[Any], kwargs: dict[str, Any]
) -> Any:
    """`d.popitem()`: the last pair; an OrderedDict's `popitem(last=False)`: the first."""
    given = len(args) + len(kwargs)
    if not ordered and given:
        raise typed(f"dict.popitem() takes no arguments ({given} given)")
    last: Any = True
    if ordered:
        wrong = next((name for name in kwargs if name != "last"), None)
        if wrong is not None:
            raise typed(f"'{wrong}' is an invalid keyword argument for popitem()")
        if given > 1:
            raise typed(f"popitem() takes at most 1 argument ({given} given)")
        last = args[0] if args else kwargs.get("last", True)
    if not obj:
        empty = ProgramError("popitem(): the dict is empty", kind="KeyError")
        empty.args_seen = ("dictionary is empty" if ordered else "popitem(): dictionary is empty",)
        raise empty
    if m.truthy(last):
        return obj.popitem()
    key = next(iter(obj))
    return key, obj.pop(key)


def ordered_equal(left: dict[Any, Any], right: dict[Any, Any], equal: bool) -> bool:
    """Two OrderedDicts are equal only with their keys in the same order."""
    return equal and list(left) == list(right)


def trim(obj: list[Any], maxlen: int, from_left: bool) -> None:
    """A deque of `maxlen` pushes its items off the other end."""
    extra = len(obj) - maxlen
    if extra > 0:
        if from_left:
            del obj[:extra]
        else:
            del obj[maxlen:]


def maxlen_of(m: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """`deque(iterable=(), maxlen=None)`'s maxlen, checked as CPython checks it."""
    wrong = next((name for name in kwargs if name not in ("iterable", "maxlen")), None)
    if wrong is not None:
        raise typed(f"'{wrong}' is an invalid keyword argument for deque()")
    if len(args) + len(kwargs) > 2:
        raise typed(f"deque() takes at most 2 arguments ({len(args) + len(kwargs)} given)")
    maxlen = args[1] if len(args) > 1 else kwargs.get("maxlen")
    if maxlen is None:
        return None
    if type(maxlen) not in (int, bool):
        raise ProgramError("an integer is required", kind="TypeError")
    if maxlen < 0:
        raise ProgramError("maxlen must be non-negative", kind="ValueError")
    return int(maxlen)
