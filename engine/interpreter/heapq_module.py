"""`import heapq` as learners' graph code uses it: a topological sort that takes the
ready node of least priority first, a Dijkstra-style order over `(priority, counter,
node)` tuples, the few largest gradients. `heappush`, `heappop`, `heapify`,
`heappushpop`, `heapreplace` keep CPython's heap in a list of the program's, laid out
exactly as CPython's C functions lay it out (the same sifts, so the same comparisons
in the same order and the same list after each call), with their errors and words
(`heappop` of an empty list is `IndexError: index out of range`, `heappush() argument
1 must be list, not int`); `nsmallest` and `nlargest` are what CPython documents them
to equal, `sorted(iterable, key=key)[:n]` (`reverse=True` for the largest), sorted as
`sorted` sorts objects of the program's (`Library.sort_by_dunders`), tuples of them too.

Every comparison is the interpreter's own of two program values (`Machine.compare`):
an item's `__lt__` of the program's class is called as any call of the program's,
within its steps, depth and time, and what it raises goes on to the program's
`except`; each comparison, and each item moved, costs a step, so a heap of a million
items is as bounded as a loop over it. As in CPython, a `__lt__` that changes the
heap's length during a sift is a RuntimeError (`list changed size during iteration`);
`heappushpop`'s first comparison checks no length, as CPython's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.exceptions import bound_arguments
from backprop_animator.engine.interpreter.objects import Builtin, PModule
from backprop_animator.engine.interpreter.runtime import MAX_ITEMS, ProgramError
from backprop_animator.engine.interpreter.text import python_type_name

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.library import Library

# Past this many items CPython's `heapify` sifts the subtrees in another order, each
# node still after its children: the same list, other comparisons first.
CACHE_FRIENDLY = 2500


def heapq_module(library: Library) -> PModule:
    heaps = Heaps(library)
    functions = ("heappush", "heappop", "heapify", "heappushpop", "heapreplace")
    return PModule(
        "heapq",
        {
            **{name: Builtin(name, getattr(heaps, name)) for name in functions},
            "nsmallest": Builtin("nsmallest", heaps.chosen("nsmallest", False)),
            "nlargest": Builtin("nlargest", heaps.chosen("nlargest", True)),
        },
    )


class Heaps:
    """The module's functions, over one running program's machine and state."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.state = library.state
        self.compare = library.machine.compare

    def less(self, heap: list[Any], a: Any, b: Any) -> bool:
        """`a < b` as the program compares them, a step each; the heap must keep its
        length across it (the program's `__lt__` may change it)."""
        size = len(heap)
        self.state.charge(1)
        answer = self.compare("<", a, b)
        if len(heap) != size:
            raise ProgramError("list changed size during iteration", kind="RuntimeError")
        return answer

    def sift_down(self, heap: list[Any], start: int, pos: int) -> None:
        """The item at `pos` moves towards the root (`start`) past every parent it is
        less than (CPython's `siftdown`)."""
        while pos > start:
            parent = (pos - 1) >> 1
            if not self.less(heap, heap[pos], heap[parent]):
                break
            heap[pos], heap[parent] = heap[parent], heap[pos]
            pos = parent

    def sift_up(self, heap: list[Any], pos: int) -> None:
        """The item at `pos` goes down to a leaf, the lesser child moving up each time,
        then back up as `sift_down` moves it (CPython's `siftup`: fewer comparisons)."""
        end = len(heap)
        start = pos
        limit = end >> 1
        while pos < limit:
            child = 2 * pos + 1
            if child + 1 < end and not self.less(heap, heap[child], heap[child + 1]):
                child += 1
            heap[pos], heap[child] = heap[child], heap[pos]
            pos = child
        self.sift_down(heap, start, pos)

    def heappush(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        heap = _heap("heappush", 2, args, kwargs)
        if len(heap) >= MAX_ITEMS:
            self.state.check_items(len(heap) + 1)  # refused, in the container bound's words
        heap.append(args[1])
        self.sift_down(heap, 0, len(heap) - 1)

    def heappop(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        heap = _heap("heappop", 1, args, kwargs)
        if not heap:
            raise ProgramError("index out of range", kind="IndexError")
        last = heap.pop()
        if not heap:
            return last
        top, heap[0] = heap[0], last
        self.sift_up(heap, 0)
        return top

    def heapreplace(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        heap = _heap("heapreplace", 2, args, kwargs)
        if not heap:
            raise ProgramError("index out of range", kind="IndexError")
        top, heap[0] = heap[0], args[1]
        self.sift_up(heap, 0)
        return top

    def heappushpop(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        heap, item = _heap("heappushpop", 2, args, kwargs), args[1]
        if not heap:
            return item
        # CPython's first comparison checks no length: a `__lt__` that adds to the heap
        # goes on, one that empties it is `IndexError` (the sifts check theirs).
        self.state.charge(1)
        if not self.compare("<", heap[0], item):
            return item
        if not heap:
            raise ProgramError("index out of range", kind="IndexError")
        top, heap[0] = heap[0], item
        self.sift_up(heap, 0)
        return top

    def heapify(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        heap = _heap("heapify", 1, args, kwargs)
        size = len(heap)
        self.state.charge(1 + size)  # the walk over the parents, besides each comparison
        if size <= CACHE_FRIENDLY:
            for pos in reversed(range(size >> 1)):
                self.sift_up(heap, pos)
            return
        # CPython's order for a heap larger than its cache: the parents of the last row
        # but one, then of the last row, each followed up its left spine.
        parents = size >> 1
        leftmost = (1 << (parents + 1).bit_length() - 1) - 1
        for first, last in ((leftmost - 1, parents >> 1), (parents - 1, leftmost)):
            for pos in range(first, last - 1, -1):
                while True:
                    self.sift_up(heap, pos)
                    if not pos & 1:
                        break
                    pos >>= 1

    def chosen(self, name: str, reverse: bool) -> Callable[[list[Any], dict[str, Any]], Any]:
        """`nsmallest` (`nlargest`): `sorted(iterable, key=key)[:n]` (reversed)."""

        def call(args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
            if len(args) < 3 and "key" not in kwargs:
                kwargs = {**kwargs, "key": None}
            n, iterable, key = bound_arguments(name, ("n", "iterable", "key"), args, kwargs)
            if type(n) is not int and type(n) is not bool:
                wrong = python_type_name(n)
                raise ProgramError(
                    f"{name}() takes a whole number of items, not {wrong}", kind="TypeError"
                )
            library = self.library
            items = library.collect(iterable)
            if n <= 0:
                return []
            # Sorted by the program's own comparison, whatever the keys (`sorted`'s quicker
            # way for plain keys takes no tuple that holds an object of the program's).
            keys = items if key is None else [library.machine.call(key, [i]) for i in items]
            library.sort_by_dunders(items, keys, reverse)
            return items[:n]

        return call


def _heap(name: str, count: int, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
    """The heap a C function of `count` arguments is given, else CPython's TypeError in
    its words (`heappush() argument 1 must be list, not int`)."""
    if kwargs:
        words = f"_heapq.{name}() takes no keyword arguments"
    elif len(args) != count:
        words = (
            f"_heapq.{name}() takes exactly one argument ({len(args)} given)"
            if count == 1
            else f"{name} expected {count} arguments, got {len(args)}"
        )
    elif type(args[0]) is not list:
        which = "argument 1" if count > 1 else "argument"
        wrong = "None" if args[0] is None else python_type_name(args[0])  # CPython's words
        words = f"{name}() {which} must be list, not {wrong}"
    else:
        return args[0]
    raise ProgramError(words, kind="TypeError")
