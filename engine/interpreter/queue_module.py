"""`queue` as a single-threaded program uses it: a learner's backward pass that walks
the graph breadth-first with `q = queue.Queue()`, `q.put(node)`, `while not q.empty():
v = q.get()`. `Queue` (first in, first out) and `LifoQueue` with CPython's methods and
errors (`Empty` from `get_nowait()` or `get(block=False)` on an empty queue, `Full` from
a bounded one, the ValueErrors of a negative timeout and of one `task_done()` too many).

The source below is in the interpreter's own language, compiled in library mode when a
program imports `queue` (`Compiler.library_module`). The native piece is `_wait_forever`:
what CPython does where one thread waits for another to put or take an item (`get()` on
an empty queue, `put()` on a full one, `join()` with tasks not done), which here, with no
other thread, would never end: the program stops there, as at any bound, and nothing may
catch it. A wait with a timeout ends at once here (the clock does not wait), with
CPython's `Empty` or `Full`.
"""

from __future__ import annotations

from typing import Any

from backprop_animator.engine.interpreter.objects import Builtin
from backprop_animator.engine.interpreter.runtime import ProgramError


def native_names() -> dict[str, Any]:
    def wait_forever(args: list[Any], kwargs: dict[str, Any]) -> Any:
        call = args[0] if args else "get"
        waits, instead = {
            "get": ("Queue.get() on an empty queue waits for another thread to put an item",
                    "test empty() first, or catch get_nowait()'s queue.Empty"),
            "put": ("Queue.put() on a full queue waits for another thread to take an item",
                    "test full() first, or catch put_nowait()'s queue.Full"),
            "join": ("Queue.join() waits for another thread to call task_done()",
                     "call task_done() once per item got"),
        }[call]  # fmt: skip
        raise ProgramError(
            f"{waits}, and a program here has one thread: CPython would wait forever ({instead})"
        )

    return {"_wait_forever": Builtin("_wait_forever", wait_forever)}


QUEUE_SOURCE = """
from collections import deque


class Empty(Exception):
    pass


class Full(Exception):
    pass


class Queue:
    def __init__(self, maxsize=0):
        self.maxsize = maxsize
        self._init(maxsize)
        self.unfinished_tasks = 0

    def task_done(self):
        unfinished = self.unfinished_tasks - 1
        if unfinished <= 0:
            if unfinished < 0:
                raise ValueError('task_done() called too many times')
        self.unfinished_tasks = unfinished

    def join(self):
        if self.unfinished_tasks:
            _wait_forever('join')

    def qsize(self):
        return self._qsize()

    def empty(self):
        return not self._qsize()

    def full(self):
        return 0 < self.maxsize <= self._qsize()

    def put(self, item, block=True, timeout=None):
        if self.maxsize > 0:
            if not block:
                if self._qsize() >= self.maxsize:
                    raise Full
            elif timeout is None:
                if self._qsize() >= self.maxsize:
                    _wait_forever('put')
            elif timeout < 0:
                raise ValueError("'timeout' must be a non-negative number")
            elif self._qsize() >= self.maxsize:
                raise Full
        self._put(item)
        self.unfinished_tasks += 1

    def get(self, block=True, timeout=None):
        if not block:
            if not self._qsize():
                raise Empty
        elif timeout is None:
            if not self._qsize():
                _wait_forever('get')
        elif timeout < 0:
            raise ValueError("'timeout' must be a non-negative number")
        elif not self._qsize():
            raise Empty
        return self._get()

    def put_nowait(self, item):
        return self.put(item, block=False)

    def get_nowait(self):
        return self.get(block=False)

    def _init(self, maxsize):
        self.queue = deque()

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.popleft()


class LifoQueue(Queue):
    def _init(self, maxsize):
        self.queue = []

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.pop()
"""

QUEUE_NAMES = frozenset({"Queue", "LifoQueue", "Empty", "Full"})
