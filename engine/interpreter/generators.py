"""The program's generators at run time: resuming them, `yield from`, and their methods
`send`, `throw` and `close`.

A generator function's body is compiled (by `engine.interpreter.compiler`) into Python
generators nested with `yield from`, one per statement that holds a `yield`, so
Python's own generator protocol carries a value sent in (`x = yield v`) and an
exception thrown in (`gen.throw(e)`, `gen.close()`) down to the `yield` the generator
stopped at, and the compiled `try` statements around it see them as CPython's do.

What crosses in is only ever a `ProgramError` (a `ProgramRaise` holding the program's
own instance): `close()` throws the program's `GeneratorExit`, not Python's, so the
`except` and `finally` clauses of the program run on an explicit `close()` (and on
exhaustion and on an exception) and never at a moment the interpreter does not
choose. A generator dropped before its end is freed by Python, which throws Python's
own `GeneratorExit` into it: that one passes every compiled clause of the program
untouched, so no program code runs while Python collects garbage (CPython would run
the generator's `finally` then; here it does not run).
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Generator, Iterator
from types import GeneratorType
from typing import Any

from backprop_animator.engine.interpreter.exceptions import ProgramRaise, is_exception_class
from backprop_animator.engine.interpreter.objects import Builtin, Frame, PClass, PInstance
from backprop_animator.engine.interpreter.runtime import ProgramError, State, too_deep
from backprop_animator.engine.interpreter.text import ITERATOR_CODES, a_type, cpython_type
from backprop_animator.engine.limits import visited

# A statement or value of a generator's body: a Python generator of its own, which
# hands back a signal (statements) or a value (`yield`, `yield from`).
GenStmt = Callable[[Frame], Generator[Any, Any, Any]]


def resumed(
    body: Generator[Any, Any, Any],
    frame: Frame,
    state: State,
    name: str,
    returned: Any,
    levels: int = 1,
) -> Generator[Any, Any, Any]:
    """A generator of the program: its body run one item at a time, a value sent in
    or an exception thrown in passed down to the `yield` it stopped at. Each
    resumption counts as a call (`BACKPROP_MAX_CALL_DEPTH`), since generators that
    resume each other (`yield from child.walk()`) nest on Python's C stack as calls
    do. Its `return` value ends it (`StopIteration.value`, for `yield from`).

    While it is suspended, the exception the consumer's `except` is handling is the
    consumer's again (`State.handling`), as CPython keeps a generator's own apart.

    From its start to its end it counts in `State.unclosed` for its `levels` (the
    Python generators it is made of, one per statement around its deepest `yield`):
    what Python's closing of it will cost once the program drops it, or the run ends.
    """
    state.unclosed += levels
    try:
        sent: Any = None
        thrown: ProgramError | None = None
        while True:
            state.depth += 1
            outer = state.handling
            try:
                if state.depth > state.max_call_depth:
                    raise too_deep(state, "generators are nested too deeply (recursion)")
                if thrown is not None:
                    item = body.throw(thrown)
                elif sent is None:
                    item = next(body)
                else:
                    item = body.send(sent)
            except StopIteration as stop:
                return frame.ret if stop.value is returned else None
            except ProgramError as error:
                if error.pending is None:
                    error.pending = name
                raise
            finally:
                state.depth -= 1
                state.handling = outer
            thrown = None
            try:
                sent = yield item
            except ProgramError as error:  # `throw`, `close`; Python's GeneratorExit passes
                thrown, sent = error, None
    finally:
        state.unclosed -= levels


RESUMED_CODE = resumed.__code__
ITERATOR_CODES[RESUMED_CODE] = "function"  # a `generator`, shown by its `__qualname__`

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def yield_depth(body: list[ast.stmt]) -> int:
    """How many statements deep a generator function's deepest `yield` is (1: in the
    body itself), outside the functions and classes it defines: how many Python
    generators one of its suspensions is made of (`resumed`).

    Example: `for x in xs:\n    if x:\n        yield x` is 3 deep.
    """
    deepest = 1
    stack: list[tuple[ast.AST, int]] = [(statement, 1) for statement in body]
    while stack:
        node, depth = stack.pop()
        visited(node)
        if isinstance(node, ast.Yield | ast.YieldFrom):
            deepest = max(deepest, depth)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _SCOPES):
                stack.append((child, depth + isinstance(child, ast.stmt)))
    return deepest


def is_program_generator(value: Any) -> bool:
    """Whether `value` is a generator of the program's own (not a generator expression's
    or a library's, which are Python generators too)."""
    return type(value) is GeneratorType and value.gi_code is RESUMED_CODE


# The library's lazy built-ins that are Python generators reading others (`map`,
# `filter`, `zip(strict=True)`), by their code: each reads its local `iterables`.
READERS: set[Any] = set()
# A generator expression reading a generator of the program's as it goes (directly or
# through another lazy object that does): what it reads, and how many lazy objects stand
# between them (a `zip` or `enumerate` it reads cannot be referred to weakly: the
# program's generator that one reads is kept, with the zip's place in the chain). (Its
# frame's locals are not asked: Python's `f_locals` of a generator takes longer the
# deeper the generators running around it are.) Both sides weak: the program's generator
# may hold the expression (an object keeping both), and a strong value kept the run's
# heap alive in the worker after the run.
GENEXP_SOURCES: weakref.WeakKeyDictionary[Any, tuple[weakref.ref[Any], int]] = (
    weakref.WeakKeyDictionary()
)
# How many lazy objects may stand between one and a generator of the program's that it
# reads as it goes (`Library.flat`), and how many iterators are looked at to find it.
MAX_LAZY_CHAIN = 8
_LOOKED_AT = 32


def reads_generator(value: Any) -> bool:
    """Whether the lazy object `value` reads a generator of the program's own through at
    most `MAX_LAZY_CHAIN` lazy objects (their iterators found as CPython pickles them, a
    library generator's `iterables`, a generator expression's first source), looking at
    `_LOOKED_AT` iterators at most: so a chain of them read as it goes is never deeper
    than that."""
    return generator_read(value) is not None


def generator_read(value: Any) -> tuple[Any, int] | None:
    """The generator of the program's own that the lazy object `value` reads, and how
    deep in the chain (`reads_generator`); None if none is found within the bounds."""
    stack = [(value, 0)]
    looked = 0
    while stack:
        item, depth = stack.pop()
        looked += 1
        if looked > _LOOKED_AT:
            return None
        if depth > MAX_LAZY_CHAIN:  # (a generator expression's source, kept deeper)
            continue
        if is_program_generator(item):
            return item, depth
        if depth < MAX_LAZY_CHAIN:
            stack.extend((inner, depth + 1 + skipped) for inner, skipped in _read_by(item))
    return None


def _read_by(value: Any) -> tuple[tuple[Any, int], ...]:
    """The iterators a lazy object reads (none of anything else), each with how many lazy
    objects stand between them, unseen (a generator expression's over a `zip`)."""
    kind = type(value)
    if kind is zip:
        return tuple((inner, 0) for inner in value.__reduce__()[1])
    if kind is enumerate:
        return ((value.__reduce__()[1][0], 0),)
    if kind is GeneratorType:
        if value.gi_code in READERS:
            frame = value.gi_frame
            return () if frame is None else tuple((i, 0) for i in frame.f_locals["iterables"])
        kept = GENEXP_SOURCES.get(value)
        read = None if kept is None else kept[0]()
        return () if read is None or kept is None else ((read, kept[1]),)
    return ()


def yield_value(state: State, item: Any) -> Generator[Any, Any, Any]:
    """`yield item`: the value sent in is its value (None for `next`). The exception the
    generator's own `except` handles is kept across the pause."""
    saved = state.handling
    try:
        sent = yield item
    except ProgramError:
        state.handling = saved
        raise
    state.handling = saved
    return sent


def yield_from(
    source: Iterator[Any], state: State, generator_exit: PClass
) -> Generator[Any, Any, Any]:
    """`yield from source`, as CPython delegates: each item is yielded on, a value sent
    is sent on, an exception thrown is thrown on (a `GeneratorExit` closes the source
    first, then is raised here), and the source's `return` value is the value."""
    program = is_program_generator(source)
    delegate: Any = source  # a Python generator when `program`: `send` and `throw`
    try:
        item = next(source)
    except StopIteration as stop:
        return stop.value if program else None
    while True:
        state.charge(1)
        saved = state.handling
        try:
            sent = yield item
        except ProgramError as error:
            state.handling = saved
            if not program:
                raise
            if is_generator_exit(error, generator_exit):
                close(source, state, generator_exit)
                raise
            try:
                item = delegate.throw(error)
            except StopIteration as stop:
                return stop.value
            continue
        state.handling = saved
        try:
            if sent is None:
                item = next(source)
            elif program:
                item = delegate.send(sent)
            else:
                words = f"'{cpython_type(source)}' object has no attribute 'send'"
                raise ProgramError(words, kind="AttributeError")
        except StopIteration as stop:
            return stop.value if program else None


def is_generator_exit(error: ProgramError, generator_exit: PClass) -> bool:
    return isinstance(error, ProgramRaise) and generator_exit in error.instance.cls.mro


def close(generator: Any, state: State, generator_exit: PClass) -> None:
    """`generator.close()`: the program's `GeneratorExit` thrown in at the `yield` it
    stopped at, so its `except` and `finally` clauses run; a generator that yields
    again is CPython's RuntimeError. One not started or finished just ends."""
    if generator.gi_frame is None:
        return
    if not generator.gi_suspended:
        if generator.gi_running:
            raise ProgramError("generator already executing", kind="ValueError")
        generator.close()  # not started: none of its code has run, none runs now
        return
    instance = PInstance(generator_exit)  # its `args` empty
    try:
        generator.throw(ProgramRaise(instance, "GeneratorExit"))
    except StopIteration:
        return
    except ProgramError as error:
        if is_generator_exit(error, generator_exit):
            return
        raise
    ignored = ProgramError("RuntimeError: generator ignored GeneratorExit", kind="RuntimeError")
    ignored.args_seen = ("generator ignored GeneratorExit",)
    raise ignored


def generator_methods(
    state: State, classes: dict[str, PClass], raised: Callable[[Any], ProgramRaise]
) -> dict[str, Callable[[Any], Builtin]]:
    """The methods of a generator: `send`, `throw` and `close` of the program's own,
    `close` of a generator expression's too."""
    generator_exit = classes["GeneratorExit"]

    def program_only(generator: Any, name: str) -> None:
        if not is_program_generator(generator):
            raise ProgramError(
                f"'generator' object has no attribute '{name}' here (only the generators "
                "of the program's functions have it)"
            )

    def send(generator: Any) -> Builtin:
        program_only(generator, "send")

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or len(args) != 1:
                raise ProgramError(
                    f"send() takes exactly one argument ({len(args)} given)", kind="TypeError"
                )
            started = generator.gi_suspended or generator.gi_running
            if args[0] is not None and generator.gi_frame is not None and not started:
                raise ProgramError(
                    "can't send non-None value to a just-started generator",
                    kind="TypeError",
                )
            return advance(generator, lambda: generator.send(args[0]))

        return Builtin("send", call)

    def throw(generator: Any) -> Builtin:
        program_only(generator, "throw")

        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if kwargs or len(args) != 1:
                raise ProgramError(
                    "throw() takes one exception (an instance or a class) here",
                    kind="TypeError",
                )
            value = args[0]
            if not is_exception_class(value, classes) and not (
                type(value) is PInstance and classes["BaseException"] in value.cls.mro
            ):
                raise ProgramError(
                    "exceptions must be classes or instances deriving from BaseException, "
                    f"not {a_type(value)}",
                    kind="TypeError",
                )
            error = raised(value)
            return advance(generator, lambda: generator.throw(error))

        return Builtin("throw", call)

    def close_method(generator: Any) -> Builtin:
        if not is_program_generator(generator):
            return Builtin("close", lambda args, kwargs: generator.close())
        program_only(generator, "close")

        def call(args: list[Any], kwargs: dict[str, Any]) -> None:
            if args or kwargs:
                raise ProgramError("close() takes no arguments", kind="TypeError")
            close(generator, state, generator_exit)

        return Builtin("close", call)

    return {"send": send, "throw": throw, "close": close_method}


def advance(generator: Any, step: Callable[[], Any]) -> Any:
    """One resumption by `send` or `throw`: its next item, or StopIteration."""
    if generator.gi_running:
        raise ProgramError("generator already executing", kind="ValueError")
    try:
        return step()
    except StopIteration as stop:
        raise stop_iteration(stop.value) from None


def stop_iteration(value: Any) -> ProgramError:
    """The StopIteration of an iterator that has ended: its `args` are CPython's (the
    generator's return value, or none, so `str(e)` is empty)."""
    error = ProgramError("StopIteration", kind="StopIteration")
    error.args_seen = () if value is None else (value,)
    return error
