"""A setting of the whole process that the engine's calls running at once share.

Python's recursion limit, the collector's thresholds and the bound on an integer's
decimal digits belong to the process, and the engine's calls overlap (the server's
threads, a kernel's event loop). A call that needs a setting holds it while it runs:
the first holder in saves the host's value, every holder's entry and exit sets the
value the holders want (when that changes), and the last one out puts the host's
value back, once.

A host that changes the setting while holders hold it: the next holder's entry or exit
sets the holders' value again (they run on it); the last one out puts back the host's
saved value only if the setting is still the one the holders set, so a change the host
made after the last holder's entry or exit is the host's to keep.

Example: `digits = SharedSetting(sys.get_int_max_str_digits, sys.set_int_max_str_digits,
lambda host, wants: max(host, *wants))`; `with digits.held(4300): ...`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")
W = TypeVar("W")


class SharedSetting(Generic[T, W]):
    """`get` and `set` the process's setting; `wanted(host, wants)` is the value while
    holders hold it, from the host's saved value and what each holder asked for."""

    def __init__(
        self, get: Callable[[], T], set_: Callable[[T], None], wanted: Callable[[T, list[W]], T]
    ) -> None:
        self._get = get
        self._set = set_
        self._wanted = wanted
        self._lock = threading.Lock()
        self._wants: list[W] = []  # one per holder, in the order they came in
        self._host: T | None = None  # the value the first holder in found
        self._ours: T | None = None  # the value the holders last set, or the host's

    @property
    def holders(self) -> int:
        return len(self._wants)

    @contextmanager
    def held(self, want: W) -> Iterator[None]:
        """The setting as the holders want it while the block runs, whatever other
        threads hold and give back meanwhile; an exception in the block gives it back too."""
        with self._lock:
            if not self._wants:
                self._host = self._ours = self._get()
            self._wants.append(want)
            try:
                self._apply()
            except BaseException:
                self._wants.remove(want)
                raise
        try:
            yield
        finally:
            with self._lock:
                self._wants.remove(want)
                self._apply()

    def _apply(self) -> None:
        host: T = self._host  # type: ignore[assignment]  # set by the first holder in
        if self._wants:
            value = self._wanted(host, self._wants)
            if value == self._ours and self._get() == value:
                return  # as the holders want it already
        elif self._ours == host or self._get() != self._ours:
            return  # the last one out: nothing of ours to undo, or the host has set it since
        else:
            value = host
        self._set(value)
        self._ours = value
