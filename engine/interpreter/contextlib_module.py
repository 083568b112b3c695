"""The `with` statement and `contextlib`, as the interpreter runs them.

`with manager [as target]:` runs CPython's protocol on the program's own objects: the
manager's class's `__enter__` and `__exit__` looked up first (not the object's own
attributes, as CPython looks special methods up on the type; either missing is CPython's
TypeError, `'A' object does not support the context manager protocol`), `__enter__`
called, the body run, then `__exit__` with what the body raised, which a true result
swallows. A bound (steps, time, nesting, sizes) is no exception: it ends the run, never
seen by `__exit__`. `with self.assertRaises(E):` is the same protocol over the object
`unittest`'s source makes.

`contextlib` is source in the interpreter's own language (`contextmanager`, the
generator-based manager of `contextlib.py` 3.11, a decorator too, `nullcontext` and
`suppress`), compiled
in library mode when a program imports it (`Compiler.library_module`), so a
`@contextmanager` function's generator runs as any of the program's: `yield` hands
`__enter__` its value, an exception of the body is thrown in at the `yield`, `finally`
runs as it does in CPython.
"""

from __future__ import annotations

import ast
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.exceptions import instance_of_error, stamp
from backprop_animator.engine.interpreter.objects import MISSING, Builtin, PInstance, TextBuffer
from backprop_animator.engine.interpreter.runtime import ProgramError
from backprop_animator.engine.interpreter.text import cpython_type

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.compiler import Compiler
    from backprop_animator.engine.interpreter.expressions import Stmt
    from backprop_animator.engine.interpreter.machine import Machine
    from backprop_animator.engine.interpreter.objects import Frame
    from backprop_animator.engine.interpreter.scope import Scope


def compile_with(compiler: Compiler, node: ast.With, scope: Scope) -> Stmt:
    """`with a as x, b:` is `with a as x:` around `with b:`, as CPython runs it."""
    body = compiler.block(node.body, scope)
    for item in reversed(node.items):
        manager = compiler.expr(item.context_expr, scope)
        store = None if item.optional_vars is None else compiler.store(item.optional_vars, scope)
        body = _managed(compiler.m, manager, store, body)
    return body


def special(m: Machine, context: Any, name: str) -> Any:
    """`context`'s class's `name` bound to it, or MISSING: only the program's objects
    have `__enter__` and `__exit__` here (a built-in value has neither, as in CPython),
    and an `io.StringIO()`, whose `with` closes it, as CPython's."""
    if type(context) is TextBuffer:
        return Builtin(f"StringIO.{name}", _buffer_manager(context, name))
    if type(context) is not PInstance or context.cls.lookup(name) is MISSING:
        return MISSING
    return m.class_attr_of(context, name)


def _buffer_manager(context: TextBuffer, name: str) -> Any:
    """`with io.StringIO() as out:`: its `__enter__` gives it (a closed one's ValueError),
    its `__exit__` closes it."""
    buffer = context.buffer

    def enter(args: list[Any], kwargs: dict[str, Any]) -> Any:
        try:
            buffer.__enter__()  # CPython's own check
        except ValueError as error:
            raise ProgramError(str(error), kind="ValueError") from None
        return context

    def leave(args: list[Any], kwargs: dict[str, Any]) -> None:
        buffer.close()

    return enter if name == "__enter__" else leave


def entered(m: Machine, context: Any, f: Frame, store: Any) -> Any:
    """`context`'s `__exit__`, once its `__enter__` ran (its result stored in the
    target): both looked up first, as CPython looks them up."""
    enter = special(m, context, "__enter__")
    words = f"'{cpython_type(context)}' object does not support the context manager protocol"
    if enter is MISSING:
        raise ProgramError(words, kind="TypeError")
    leave = special(m, context, "__exit__")
    if leave is MISSING:
        raise ProgramError(f"{words} (missed __exit__ method)", kind="TypeError")
    value = m.call(enter, [])
    if store is not None:
        store(f, value)
    return leave


def swallowed(m: Machine, leave: Any, error: ProgramError) -> bool:
    """Whether `__exit__` swallows the exception the body raised (never a bound). It
    runs handling that exception, as CPython's `with` calls it: a bare `raise` in it
    raises it again."""
    if error.kind is None:
        return False  # a bound: nothing may catch it
    state = m.state
    stamp(state, error, state.handling)
    raised = instance_of_error(error, m.exceptions)
    outer = state.handling
    state.handling = error
    try:
        return m.truthy(m.call(leave, [raised.cls, raised, None]))
    except ProgramError as new:  # raised handling `error`: its context
        stamp(state, new, error)
        raise
    finally:
        state.handling = outer


def _managed(m: Machine, manager: Any, store: Any, body: Stmt) -> Stmt:
    def run(f: Frame) -> Any:
        leave = entered(m, manager(f), f, store)
        try:
            signal = body(f)
        except ProgramError as error:
            if swallowed(m, leave, error):
                return None
            raise
        m.call(leave, [None, None, None])
        return signal

    return run


def gen_managed(m: Machine, manager: Any, store: Any, body: Any) -> Any:
    """`_managed` around a generator's body (`Compiler.gen_with`)."""

    def run(f: Frame) -> Generator[Any, Any, Any]:
        leave = entered(m, manager(f), f, store)
        try:
            signal = yield from body(f)
        except ProgramError as error:
            if swallowed(m, leave, error):
                return None
            raise
        m.call(leave, [None, None, None])
        return signal

    return run


CONTEXTLIB_SOURCE = """
from functools import wraps


class _GeneratorContextManager:
    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)
        self.func, self.args, self.kwds = func, args, kwds

    def _recreate_cm(self):
        return self.__class__(self.func, self.args, self.kwds)

    def __call__(self, func):
        @wraps(func)
        def inner(*args, **kwds):
            with self._recreate_cm():
                return func(*args, **kwds)
        return inner

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            else:
                raise RuntimeError("generator didn't stop")
        else:
            if value is None:
                value = typ()
            try:
                self.gen.throw(value)
            except StopIteration as exc:
                return exc is not value
            except BaseException as exc:
                if exc is not value:
                    raise
                return False
            raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    @wraps(func)
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)
    return helper


class nullcontext:
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        pass


class suppress:
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        pass

    def __exit__(self, exctype, excinst, exctb):
        return exctype is not None and issubclass(exctype, self._exceptions)
"""

CONTEXTLIB_NAMES = frozenset({"contextmanager", "nullcontext", "suppress"})
