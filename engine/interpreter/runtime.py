"""The interpreter's running state: its budgets (steps, time, depth, sizes) and its errors.

Every bound is checked before the work it guards: a step is charged before a statement,
a loop turn, a call or each item a built-in touches; a string, container or integer is
measured before it is made. Hitting a bound raises `ProgramError`, which the statement
or expression that was running gives a line and column, and each call it passes through
adds to its call chain ("in neuron(), called from line 12").

The cost model (SPEC §15): a built-in is charged in proportion to the work CPython does
for it. Looking a key up in a set or dict, or adding one, costs the key's size (a
number or a node: nothing beyond the statement's step; a tuple: every item its hash
walks), not the container's length; comparing or searching containers costs the items
walked. `measure` is that walk, and it is also where nesting deeper than
`BACKPROP_MAX_DEPTH` is refused, so CPython's own hashing, which recurses in C with no
guard, never sees a structure deep enough to exhaust the C stack.

The clock: `State.checkpoint` runs when the step count passes `next_check`, which is the
next checkpoint rather than the step limit itself, so the hot paths keep one comparison
(`steps > next_check`) and the time limit is looked at every `TIME_CHECK_STEPS` steps.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from backprop_animator.engine.errors import EngineError, operation_failed
from backprop_animator.engine.interpreter.objects import MISSING, PClass, PSet
from backprop_animator.engine.limits import ENV_NAMES, Limits, current_deadline

MAX_INT_BITS = 4_096  # integers are bounded by their size (a 64-bit hash with masks runs)
MAX_INT = 2**MAX_INT_BITS
SMALL_INT = 2**63  # within it, integer arithmetic costs nothing beyond its step
BITS_PER_STEP = 64  # a bigger integer costs a step per 64 bits it has
MAX_STR = 10_000  # characters in one string
MAX_ITEMS = 1_000_000  # items in one list, tuple, dict or set
MAX_PRINTED = 200_000  # characters a program may print in all
STRING_CHARS_PER_STEP = 10  # making a string charges a step per ten characters
ITEMS_PER_STEP = 10  # a container made in one go (`[0] * n`, `a + b`) charges per ten items
# A class the library makes for the program (`namedtuple(...)`, `@dataclass`): a dozen
# methods and their closures, about 36 us and 8 KB, which the collector walks once the
# run ends; charged as the statements that would take that long (CPython's own compiles
# and runs their source: longer still).
MADE_CLASS_STEPS = 100
MOVES_PER_STEP = 100  # items a list shifts (`insert(0, x)`, `pop(0)`) in one memmove step
TIME_CHECK_STEPS = 2_000  # steps between two looks at the clock
# An exception the program raises or catches: the exception object and its message, the
# Python exception that carries it up through the interpreter's frames, its traceback,
# the handler's match. A `raise ValueError(i)` caught by `except ValueError: pass` took
# 4x a plain step's time per step charged (2.2 us against 0.55 us, steps 7 to a turn),
# a `d[k]` KeyError caught 3.4x: charged on top of its statements, once an exception, as
# it is first raised or caught (`exceptions.stamp`), so the step bound stops a loop of
# them in about the time it stops a plain loop (docs/LANGUAGE.md, Cost model).
RAISE_STEPS = 15
# What Python's closing of one Python generator a suspended generator of the program is
# made of takes (a GeneratorExit thrown through its frame and its handlers): 15-30 µs on
# a 2-core machine, the time of about 20 cheap steps, and slower as the machine is
# loaded. The program's generators still open when its run ends are closed as it is
# freed, after the last step: 20,000 suspended 20 statements deep took 6 s. The clock
# counts that time before it comes (`State.checkpoint`), as the larger of
# `CLOSE_SECONDS` and `CLOSE_STEPS` steps at the pace the run has kept so far (since its
# first step: `State.started`, set again once the program is compiled).
CLOSE_SECONDS = 15e-6
CLOSE_STEPS = 20
CONTAINERS: frozenset[type] = frozenset({list, tuple, dict, PSet})
MAX_CHAIN_SHOWN = 6  # calls an error's message names
LOOP_HINT_TURNS = 1_000  # turns a `while` loop has run before a runaway bound hints at it
# The bounds a loop that never ends runs into: their variables, as their messages name them.
RUNAWAY_BOUNDS = tuple(ENV_NAMES[field] for field in ("max_steps", "time_limit", "max_nodes"))


class ProgramExit(BaseException):
    """`unittest.main()` with `exit=True` ended the program (CPython's `sys.exit`): the
    trace ends there, as if the program had ended (a pass of the program's own
    `backward()` it ends is closed first: `Recorder.user_pass`). Not an `Exception`, so
    no handler of the program catches it."""


NOTES_SHOWN = 500  # characters of an uncaught exception's notes in its message


# The exceptions of a module of the library, not built-in names, and the module CPython's
# are in, which its traceback names (`statistics.StatisticsError: mean requires ...`).
MODULE_ERRORS = {
    "FrozenInstanceError": "dataclasses.",
    "JSONDecodeError": "json.decoder.",
    "StatisticsError": "statistics.",
}


class ProgramError(EngineError):
    """An `EngineError` that learns its position and call chain on its way out."""

    # The exception being handled when it was raised (CPython's `__context__`), once
    # `exceptions.stamp` has looked (`stamped`); the instance an `except ... as e` bound
    # of an error the interpreter raised itself (`made`), made once.
    context: ProgramError | None = None
    stamped = False
    made: Any = None

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(message, line, column)
        # The built-in exception class a program's `except` sees this as (`TypeError`,
        # `ZeroDivisionError`...); None for a bound (steps, time, depth, sizes), which no
        # `except` may catch, or the program could run on past it.
        self.kind = kind
        # The arguments of the instance an `except ... as e` sees (CPython's: the missing
        # key of a KeyError); None: the message.
        self.args_seen: tuple[Any, ...] | None = None
        self.chain: list[tuple[str, int | None]] = []
        self.pending: str | None = None  # a function left, waiting for its call site's line
        # A sentence after the message and its call chain: which `while` loop was running
        # when a bound stopped it (`Compiler.while_loop`).
        self.hint: str | None = None

    def located(self, line: int | None, column: int | None) -> ProgramError:
        if not self.line:  # None, or 0 from library code (the caller's line comes next)
            self.line, self.column = line, column
        if self.pending is not None and line:
            self.chain.append((self.pending, line))
            self.pending = None
        return self

    def finished(self) -> EngineError:
        """The plain `EngineError` the API returns, its chain said in words. An error
        a program could have caught starts as CPython's traceback ends (`IndexError: list
        index out of range`), the engine's sentence after it when that says more."""
        message = self.message
        # (`raise ValueError`, with no words: CPython's traceback ends `ValueError`, bare)
        if (
            self.kind is not None
            and message != self.kind
            and not message.startswith(f"{self.kind}:")
            and not message.partition(":")[0].endswith(f".{self.kind}")  # `graphlib.`'s
        ):
            words = self.cpython_words()
            if words is not None:
                kind = MODULE_ERRORS.get(self.kind, "") + self.kind
                said = f"{kind}: {words}" if words else kind
                if message == said or not words or message.endswith(words):
                    message = said  # `/: division by zero` says no more than CPython's
                elif message.startswith(words):
                    message = said + message[len(words) :]  # `... here: this is a plain`
                else:
                    message = f"{said} — {message}"
        message += self.notes()
        if self.chain:
            message = f"{message} ({describe_chain(self.chain)})"
        if self.hint is not None:
            message = f"{message} — {self.hint}"
        return EngineError(message, self.line, self.column)

    def notes(self) -> str:
        """The notes of the exception (`e.add_note(...)`, 3.11), each on a line after its
        message as CPython prints them under it; their text cut at `NOTES_SHOWN`."""
        # A `ProgramRaise`'s instance, or the one an `except ... as e` made of this error.
        instance = getattr(self, "instance", None) or self.made
        notes = instance.attrs.get("__notes__") if instance is not None else None
        if type(notes) is not list or not notes:
            return ""
        said = "\n".join(note if type(note) is str else "<note>" for note in notes[:NOTES_SHOWN])
        return "\n" + said[:NOTES_SHOWN] + ("…" if len(said) > NOTES_SHOWN else "")

    def cpython_words(self) -> str | None:
        """What `str(e)` shows of this error in CPython, or None when its arguments are
        the program's own objects (only the running program could show those)."""
        args = (self.message,) if self.args_seen is None else self.args_seen
        if not all(type(arg) in _SHOWN for arg in args):
            return None
        if len(args) == 1:
            return repr(args[0]) if self.kind == "KeyError" else str(args[0])
        return "" if not args else repr(args)

    def runaway(self) -> bool:
        """Whether this is a bound an endless loop runs into (steps, time, nodes), not yet
        explained by a loop's hint."""
        return (
            self.kind is None
            and self.hint is None
            and any(name in self.message for name in RUNAWAY_BOUNDS)
        )


def caught_as(message: str, error: Exception) -> ProgramError:
    """An error of a built-in, in the engine's words uncaught and as CPython's class and
    words for `except` (`int('x')`: a ValueError whose `str` is CPython's)."""
    made = ProgramError(message, kind=type(error).__name__)
    made.args_seen = (str(error),)
    return made


# Arguments whose `str` and `repr` are Python's own, as CPython's message shows them.
_SHOWN = (str, int, float, bool, type(None))


def describe_chain(chain: list[tuple[str, int | None]]) -> str:
    """`in f(), called from line 3, in g(), called from line 9`; repeats are counted,
    and a deep chain keeps its innermost and outermost calls."""
    runs: list[tuple[str, int | None, int]] = []
    for name, line in chain:
        if runs and runs[-1][:2] == (name, line):
            runs[-1] = (name, line, runs[-1][2] + 1)
        else:
            runs.append((name, line, 1))
    parts = [
        f"in {name}(), called from line {line}" + (f" ({count} times)" if count > 1 else "")
        for name, line, count in runs
    ]
    if len(parts) > MAX_CHAIN_SHOWN:
        hidden = len(parts) - MAX_CHAIN_SHOWN + 1
        parts = [*parts[: MAX_CHAIN_SHOWN // 2], f"{hidden} more calls", *parts[-2:]]
    return ", ".join(parts)


class State:
    """What a running program has used, and what it may still use."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.steps = 0
        self.step_limit = limits.max_steps
        self.deadline = current_deadline()
        self.started = time.monotonic()
        # The next checkpoint: hot paths compare `steps > next_check`, then call checkpoint().
        self.next_check = self.step_limit
        if self.deadline is not None:
            self.next_check = min(self.step_limit, TIME_CHECK_STEPS)
        self.depth = 0
        # The depth calls nest to (CPython's recursion limit): `limits.max_call_depth`
        # until the program sets its own (`sys.setrecursionlimit`), then that, up to
        # `recursion_cap`: `limits.max_recursion_limit` where the run's C stack is sized
        # for it (`engine.run`), else the call depth it started with.
        self.max_call_depth = limits.max_call_depth
        self.recursion_cap = limits.max_call_depth
        self.own_limit: int | None = None  # the program's `sys.setrecursionlimit(n)`
        # Lazy built-ins over lazy built-ins (`stdlib._nested`), nested at most
        # `limits.max_call_depth` deep whatever the program's limit: an error raised
        # through them unwinds in time quadratic in their depth, in Python's own code.
        self.lazy_depth = 0
        self.callbacks = 0  # a program's __hash__/__eq__ running inside Python's own code
        # The program's generators started and not ended, each for its Python generators
        # (`generators.resumed`): what closing them will take once they are dropped.
        self.unclosed = 0
        # A program's `__hash__` running asked for a hash that differs between CPython
        # runs (a string's, an identity's): its value cannot order a set as CPython's.
        self.hash_taint = False
        self.printed = 0
        self.rng = random.Random(0)  # an unseeded program is seeded with 0
        self.position: tuple[int, int] = (1, 1)  # the statement running now
        self.owner: Any = None  # the instance or function call new nodes belong to
        # The op the method running now makes (`__mul__`: `*`) and its arguments.
        self.making: tuple[str, list[Any]] | None = None
        self.handling: ProgramError | None = None  # the exception an `except` is handling

    def charge(self, steps: int) -> None:
        self.steps += steps
        if self.steps > self.next_check:
            self.checkpoint()

    def checkpoint(self) -> None:
        """The step count passed the next checkpoint: raise if a limit is reached (steps
        or time), else set the next checkpoint."""
        if self.steps > self.step_limit:
            raise self.out_of_steps()
        if self.deadline is not None:
            now = time.monotonic()
            if self.unclosed:
                pace = (now - self.started) / max(1, self.steps)
                now += self.unclosed * max(CLOSE_SECONDS, CLOSE_STEPS * pace)
            if now > self.deadline:
                raise self.out_of_time()
            self.next_check = min(self.step_limit, self.steps + TIME_CHECK_STEPS)
            if self.deadline == -math.inf:  # `stop_soon` came between: its next step
                self.next_check = -1

    def stop_soon(self) -> None:
        """From another thread: end the run at its next step, as past its time limit (the
        thread that waits for it was interrupted)."""
        self.deadline = -math.inf
        self.next_check = -1

    def look_at_clock(self) -> None:
        """Raise if the time limit has passed: for work inside one charge (a walk that
        charges what it walked once it is done)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.out_of_time()

    def out_of_steps(self) -> ProgramError:
        error = self.limits.exceeded("max_steps", "the program ran too many steps")
        return ProgramError(error.message)

    def out_of_time(self) -> ProgramError:
        error = self.limits.exceeded(
            "time_limit", "the program ran for too long (does a loop never end?)"
        )
        return ProgramError(error.message)

    def remaining(self) -> int:
        """Steps left before the step limit."""
        return max(0, self.step_limit - self.steps)

    def measure(self, value: Any) -> int:
        """The work of a walk of `value` as CPython's hashing and comparing walk it, in
        steps: a step per container reached (shared parts count each time they are
        reached) and per `ITEMS_PER_STEP` items in them. Refuses nesting deeper than
        `BACKPROP_MAX_DEPTH`, and stops (out of steps) once the walk passes what is left
        of the step budget, so even a structure that shares itself exponentially is
        measured in bounded time.

        Example: `measure(((1, 2), 3))` is 2: two tuples, five items.
        """
        if type(value) not in CONTAINERS:
            return 0
        budget = self.remaining() + 1
        max_depth = self.limits.max_depth
        containers = 0
        items = 0
        stack: list[tuple[Any, int]] = [(value, 1)]
        while stack:
            item, depth = stack.pop()
            if depth > max_depth:
                raise self.too_nested()
            kind = type(item)
            if kind is dict:
                children: Any = [*item.keys(), *item.values()] if item else ()
            elif kind is PSet:
                children = item.items.keys()
            else:
                children = item
            containers += 1
            items += len(children)
            if containers + items // ITEMS_PER_STEP > budget:
                self.charge(containers + items // ITEMS_PER_STEP)
            if containers % TIME_CHECK_STEPS == 0:
                self.look_at_clock()  # a walk of a million shared containers takes a second
            # Only containers are walked on; a flat one is looked at in C.
            if children and not CONTAINERS.isdisjoint(set(map(type, children))):
                stack.extend((child, depth + 1) for child in children if type(child) in CONTAINERS)
        return containers + items // ITEMS_PER_STEP

    def too_nested(self) -> ProgramError:
        error = self.limits.exceeded(
            "max_depth", "containers are nested too deeply (a list in a list in a list ...)"
        )
        return ProgramError(error.message)

    def charge_walk(self, value: Any) -> None:
        """Charge for CPython walking `value` (hashing it as a key, comparing it)."""
        if type(value) in CONTAINERS:
            self.charge(self.measure(value))

    def check_nesting(self, items: Any) -> None:
        """Refuse a new container whose items nest `BACKPROP_MAX_DEPTH` deep already.

        Only tuples are walked: a tuple cannot change once made, so its depth is known
        for good, and hashing is the one walk CPython does in C without a guard (lists,
        dicts and sets cannot be hashed; comparing and printing them is guarded).
        """
        for item in items:
            if type(item) is tuple:
                break
        else:
            return  # no tuple among them (`(self, other)`): nothing to walk
        max_depth = self.limits.max_depth
        walked = 0
        level: list[Any] = [item for item in items if type(item) is tuple]
        depth = 1
        while level:
            depth += 1
            if depth > max_depth:
                raise self.too_nested()
            walked += sum(len(t) for t in level)
            seen: dict[int, Any] = {}
            for t in level:
                for child in t:
                    if type(child) is tuple:
                        seen[id(child)] = child
            level = list(seen.values())
        if walked >= ITEMS_PER_STEP:
            self.charge(walked // ITEMS_PER_STEP)

    def check_int(self, value: int) -> int:
        """A new integer, refused past `MAX_INT_BITS` and charged by its size: a refused
        one too, as it was made (`a * a` of 4,096-bit numbers, caught in a loop, was
        40 µs of multiplication for no step)."""
        if -SMALL_INT <= value <= SMALL_INT:
            return value
        bits = value.bit_length()
        if bits > MAX_INT_BITS:
            self.charge(bits // BITS_PER_STEP)
            raise ProgramError(
                f"this integer would have {bits:,} bits; integers here stay within "
                f"{MAX_INT_BITS:,} bits (use a float for larger numbers)",
                kind="OverflowError",
            )
        self.charge(bits // BITS_PER_STEP)
        return value

    def check_str(self, length: int, *, at_least: bool = False) -> None:
        """`length` characters past the bound are an error; `at_least`: the string is
        refused while it is made, and would be longer still."""
        if length > MAX_STR:
            more = "at least " if at_least else ""
            raise ProgramError(
                f"this string would be {more}{length:,} characters long; "
                f"strings here stay within {MAX_STR:,}"
            )
        self.charge(length // STRING_CHARS_PER_STEP)

    def check_items(self, count: int) -> None:
        if count > MAX_ITEMS:
            raise ProgramError(
                f"this container would hold {count:,} items; containers here stay within "
                f"{MAX_ITEMS:,}"
            )
        self.charge(count // ITEMS_PER_STEP)


def host_failure(error: Exception) -> ProgramError:
    """An exception of Python's own that reached a statement: a generator of the
    program's read while it runs (`for x in itself`) is CPython's ValueError, and an
    OverflowError CPython's, which the program may catch; any other is said in words
    (`operation_failed`), not caught."""
    if type(error) is ValueError and str(error) == "generator already executing":
        return ProgramError("generator already executing", kind="ValueError")
    if type(error) is OverflowError:
        # A C size or a float past its range, of the program's own number (`len(range(2**100))`:
        # `Python int too large to convert to C ssize_t`): CPython's, caught as one.
        return ProgramError(str(error)[:200], kind="OverflowError")
    if type(error) is EngineError:
        # A bound met inside the statement, before its own work (the deadline while a
        # module it imports is read, `took_too_long`): said in its own words, at the
        # statement, a bound no handler catches (was "this operation failed: line 2,
        # column None: the program took too long to read… (EngineError)").
        return ProgramError(error.message)
    if isinstance(error, MemoryError):  # (a bound: the process's memory, past the others)
        return ProgramError(
            "the program ran out of memory: it keeps more alive at once than this process "
            "may hold (MemoryError)"
        )
    return ProgramError(operation_failed(error))


def too_deep(state: State, what: str, *, fixed: bool = False) -> ProgramError:
    """The call depth bound, reached: CPython's RecursionError, which a program may catch
    (the depth never passes the bound, and a program that recurses again after catching
    it runs into the steps bound); uncaught, its message names the bound."""
    words = state.limits.exceeded("max_call_depth", what).message if fixed else None
    error = ProgramError(words or depth_words(state, what), kind="RecursionError")
    error.args_seen = ("maximum recursion depth exceeded",)
    return error


def depth_words(state: State, what: str) -> str:
    """What an uncaught RecursionError says of the bound it hit: BACKPROP_MAX_CALL_DEPTH
    before the program set its own limit; the program's own limit; or, where it asked for
    more, the most it may have (BACKPROP_MAX_RECURSION_LIMIT, or the call depth where its
    run has no C stack for more)."""
    limits = state.limits
    own = state.own_limit
    if own is None:
        return limits.exceeded("max_call_depth", what).message
    if own <= state.recursion_cap:
        return f"{what} (the program's own recursion limit, sys.setrecursionlimit({own}))"
    words = f"{what}: sys.setrecursionlimit({own}) takes effect up to a limit"
    if state.recursion_cap == limits.max_recursion_limit:
        return limits.exceeded("max_recursion_limit", words).message
    if limits.max_call_depth >= limits.max_recursion_limit:  # (the call depth is more)
        return limits.exceeded("max_call_depth", words).message
    return (
        f"{what}: sys.setrecursionlimit({own}) takes effect up to {state.recursion_cap:,} "
        "here, where the run has no C stack for more (no thread with one could be started, "
        "or another run in this process is on a smaller stack) (the limit is "
        f"{state.recursion_cap:,}; set BACKPROP_MAX_CALL_DEPTH to change it)"
    )


class SlotDict(dict[str, Any]):
    """The attributes of an instance of a class with `__slots__`: a name outside them is
    CPython's AttributeError when written (`'C' object has no attribute 'x'`, or
    `... attribute 'm' is read-only` for a name its class has)."""

    __slots__ = ("cls",)

    def __init__(self, cls: PClass) -> None:
        super().__init__()
        self.cls = cls

    def __setitem__(self, key: str, value: Any) -> None:
        cls = self.cls
        assert cls.slots is not None
        if key not in cls.slots:
            if cls.lookup(key) is MISSING:
                words = f"'{cls.name}' object has no attribute '{key}'"
            else:
                words = f"'{cls.name}' object attribute '{key}' is read-only"
            raise ProgramError(words, kind="AttributeError")
        dict.__setitem__(self, key, value)


def new_attrs(cls: PClass) -> dict[str, Any]:
    """A new instance's attributes: a plain dict, or a `SlotDict` under `__slots__`."""
    return {} if cls.slots is None else SlotDict(cls)
