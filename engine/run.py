"""Run a real program (SPEC §11) and return the multi-pass trace kept while it ran.

`trace_program` compiles a parsed program into closures (`engine.interpreter.compiler`),
runs it over the program's own objects (`objects`, `machine`, `library`) within its
budgets (`runtime`), and returns the trace the recorder (`engine.trace.recorder`) kept. It lives
outside the interpreter package so that the layers stay one way: the recorder uses the
interpreter's objects, the interpreter talks to whatever recorder it is given, and only
this module knows both. Straight-line programs (SPEC §2) run in the interpreter's
straight-line mode (`engine.interpreter.straight_line`, `trace_straight_line`), written
by the same recorder in schema 1's shape; so are graphs built in Python (`trace_graph`).
"""

from __future__ import annotations

import ast
import contextvars
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

from backprop_animator.engine.errors import EngineError, operation_failed
from backprop_animator.engine.interpreter.compiler import Compiler
from backprop_animator.engine.interpreter.exceptions import exits_cleanly
from backprop_animator.engine.interpreter.library import Library
from backprop_animator.engine.interpreter.machine import Machine
from backprop_animator.engine.interpreter.objects import Frame
from backprop_animator.engine.interpreter.objects import charging as alias_charging
from backprop_animator.engine.interpreter.runtime import ProgramError, ProgramExit, State
from backprop_animator.engine.interpreter.straight_line import StraightLine
from backprop_animator.engine.limits import Limits, current_deadline, walk
from backprop_animator.engine.parse import SourceLines
from backprop_animator.engine.shared_setting import SharedSetting
from backprop_animator.engine.trace.recorder import (
    HandPass,
    HolderPass,
    PassReached,
    Recorder,
    Rerun,
    StepPass,
)
from backprop_animator.engine.value import Value

# Python frames one program call may take (call -> body -> statement -> expression ...).
_PYTHON_FRAMES_PER_CALL = 40
_MAX_RECURSION_LIMIT = 20_000
# Python frames one level of a straight-line expression takes (compiling, then running).
_PYTHON_FRAMES_PER_LEVEL = 4


def trace_straight_line(
    tree: ast.Module,
    source: str,
    granularity: str,
    limits: Limits,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
    said_later: bool = False,
) -> dict[str, Any]:
    """Run a straight-line program (SPEC §2) in the interpreter's straight-line mode and
    return its trace: schema 1's, with its one pass. `said_later`: the frames the page
    narrates carry `sentences.Said`, not a text (`engine.trace_columns`)."""
    recorder = _plain_recorder(limits, mistake, sort_steps)
    recorder.said_later = said_later and mistake is None  # a mistake's words are its own
    output = _run_plain(tree, source, granularity, recorder)
    return _one_pass(recorder, output, source, granularity)


def build_straight_line(
    tree: ast.Module, source: str, granularity: str, limits: Limits
) -> tuple[Value, dict[Value, tuple[int, int]]]:
    """Run a straight-line program without tracing it: its output, and where in the
    source each op node was made (what the gradient check reads)."""
    recorder = _plain_recorder(limits, None, False)
    output = _run_plain(tree, source, granularity, recorder)
    return output, recorder.positions


def trace_graph(
    output: Value,
    source: str = "",
    granularity: str = "packed",
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
) -> dict[str, Any]:
    """Trace a graph of engine Values built in Python (`engine.trace_value`): its
    gradients are reset and recomputed by one backward pass, written as a straight-line
    program's trace."""
    recorder = _plain_recorder(Limits(), mistake, sort_steps)
    recorder.adopt_graph(output)
    return _one_pass(recorder, output, source, granularity)


def _plain_recorder(limits: Limits, mistake: str | None, sort_steps: bool) -> Recorder:
    recorder = Recorder(State(limits), limits)
    recorder.plain = True
    recorder.mistake = mistake
    recorder.sort_steps = sort_steps
    return recorder


def _run_plain(tree: ast.Module, source: str, granularity: str, recorder: Recorder) -> Value:
    limits = recorder.limits
    wanted = min(limits.max_depth * _PYTHON_FRAMES_PER_LEVEL + 1_000, _MAX_RECURSION_LIMIT)
    try:
        with _recursion_room(wanted):
            runner = StraightLine(SourceLines(source), granularity, limits, recorder.adopt_plain)
            return runner.run(tree)
    except RecursionError:
        # Only reachable when BACKPROP_MAX_DEPTH is set above what Python's stack allows.
        raise limits.exceeded("max_depth", "the program is nested too deeply") from None


def _one_pass(recorder: Recorder, output: Value, source: str, granularity: str) -> dict[str, Any]:
    recorder.result_pass(output)
    return recorder.finish(source, granularity, {})


def trace_program(
    tree: ast.Module,
    source: str,
    granularity: str,
    limits: Limits,
    recorded: list[Recorder] | None = None,
    rerun: Rerun | None = None,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
    said_later: bool = False,
    hand_pass: bool = False,
    holder_pass: bool = False,
    step_spans: frozenset[tuple[int, int]] = frozenset(),
) -> dict[str, Any] | None:
    """Run a parsed program and return its trace; any problem is an `EngineError`.
    `recorded`, if given, receives the recorder; `rerun` is what a gradient check asks
    of the run (`engine.trace.recorder.Rerun`): a run that stops at its pass returns None.
    `mistake` and `sort_steps` are the bug lab's (SPEC §13): every pass's. `said_later`:
    the frames the page narrates carry `sentences.Said`, not a text (`engine.trace_columns`).
    `hand_pass`: the program calls its rules by hand and never `backward()`; a run that
    finds so runs again with it (the recorder's `hand_pass`). `holder_pass`: besides, the
    objects it calls `backward()` on are no nodes but keep the nodes they made and their
    operands (the "Hacker's guide" gates: `Recorder.hold_units`, `Machine.hold_units`).
    `step_spans`: the program's backward() methods that each run one node's rule, called
    node by node (`StepPass`): steps of a walk by hand."""
    state = State(limits)
    recorder = Recorder(state, limits)
    recorder.rerun = rerun
    recorder.hand_pass = hand_pass
    recorder.step_spans = step_spans
    recorder.mistake = mistake
    recorder.sort_steps = sort_steps
    recorder.said_later = said_later and mistake is None
    if recorded is not None:
        recorded.append(recorder)
    machine = Machine(state, recorder, expanded=granularity == "expanded")
    recorder.machine = machine  # (the re-runs of calls of ops no table knows: `op_rerun`)
    if holder_pass:
        machine.hold_units()  # (before the compiler reads `instantiate`)
    library = Library(machine, recorder.print)
    globals_: dict[str, Any] = {}
    recorder.globals_ = globals_  # where the program keeps its values: their names
    compiler = Compiler(
        machine,
        recorder,
        SourceLines(source),
        globals_,
        library.builtins(),
        library.modules(),
        limits.max_depth,
    )
    library.compiler = compiler  # (`Library.warn`)
    code = compiler.module(tree)
    # The run's pace is read from its first step (`State.checkpoint`): compiling a long
    # program is no step, and counted as one made the pace of its first 2,000 steps a
    # tenth of a second each, the closing of its generators reserved many times over.
    state.started = time.monotonic()
    deepest = max(limits.max_depth, limits.max_call_depth)
    wanted = min(deepest * _PYTHON_FRAMES_PER_CALL + 1_000, _MAX_RECURSION_LIMIT)
    charging = alias_charging.set(state.charge)  # (what aliases' comparisons charge)
    try:
        with _recursion_room(wanted), _stack(tree, limits) as (raised, stack_bytes):
            with suppress(ProgramExit):  # `unittest.main()` ended the program
                try:
                    on_own_stack(
                        _deep(code, state, raised),
                        Frame(globals_, None),
                        state.stop_soon,
                        stack_bytes,
                        code,
                    )
                except ProgramError as error:
                    if not exits_cleanly(error):  # (`raise SystemExit(0)` ends it too)
                        raise
                finally:
                    alias_charging.reset(charging)
            if rerun is not None and not rerun.first and (recorder.passes or recorder.hand_rules):
                return None  # it never reached the pass it was run for
            # (A run with no pass reaches it in `finish`: the pass it opens at the end.)
            return recorder.finish(source, granularity, globals_)
    except PassReached:
        return None
    except HandPass as again:
        holder_pass = type(again) is HolderPass
        if type(again) is StepPass:
            step_spans = again.spans
    except ProgramError as error:
        raise error.finished() from None
    except RecursionError:
        raise limits.exceeded("max_depth", "the program nests too deeply") from None
    except MemoryError:
        raise limits.exceeded("max_nodes", "the program ran out of memory") from None
    except Exception as error:  # outside any statement (e.g. while writing the trace)
        raise EngineError(operation_failed(error)) from None
    finally:
        if rerun is not None:
            rerun.steps += state.steps  # (a run again as a hand pass adds its own)
        if recorded is None:  # else the caller reads the run (a gradient check)
            recorder.release()
    # The program ran its rules by hand and never called backward(): again, as one pass.
    if recorded is not None:
        recorded.remove(recorder)
    if rerun is not None:
        rerun.forget()  # the first run's numbers, counted again
    return trace_program(
        tree,
        source,
        granularity,
        limits,
        recorded,
        rerun,
        mistake=mistake,
        sort_steps=sort_steps,
        said_later=said_later,
        hand_pass=True,
        holder_pass=holder_pass,
        step_spans=step_spans,
    )


# The C stack a real program runs on. Python's recursion limit counts frames, not bytes,
# and the interpreter's frames are not all alike: a generator of the program resumes
# its callee's compiled statements in C, a frame each (about 400 bytes), and a sort
# calls a class's `__lt__` from a C frame of 3 KB. Within the call depth and the frames
# the recursion limit allows (`_recursion_room`), a program took up to 8 MiB: past the
# C stack of a thread a host may run it in (1 or 2 MiB), and at the edge of Linux's
# 8 MiB main thread (a segfault of the kernel or the worker, where CPython's own
# recursion stays within 4). So it runs in a thread of its own, with this much.
PROGRAM_STACK_BYTES = 32 * 1024 * 1024
_stack_size_lock = threading.Lock()


def on_own_stack(
    run: Callable[[Frame], Any],
    frame: Frame,
    stop: Callable[[], None],
    stack_bytes: int = PROGRAM_STACK_BYTES,
    fallback: Callable[[Frame], Any] | None = None,
) -> Any:
    """`run(frame)` in a thread whose C stack is `stack_bytes`, in this thread's context
    (the deadline is a context variable); what it returns or raises is this call's.
    Where no such thread can be started, `fallback(frame)` runs on the usual stack
    (`PROGRAM_STACK_BYTES`), or, with no fallback, `run(frame)` here. Should
    this thread be interrupted while it waits (a kernel's Ctrl-C), `stop()` ends the
    run first."""
    outcome: list[Any] = []
    failure: list[BaseException] = []
    context = contextvars.copy_context()

    def target() -> None:
        try:
            outcome.append(context.run(run, frame))
        except BaseException as error:  # handed back to the caller's thread
            failure.append(error)

    thread: threading.Thread | None = None
    # (no threads here, or no stack of that size: `thread` stays None)
    with _stack_size_lock, suppress(RuntimeError, ValueError):  # (the next thread's size)
        previous = threading.stack_size(stack_bytes)
        try:
            started = threading.Thread(target=target, name="backprop-program", daemon=True)
            started.start()
            thread = started
        finally:
            # (a failure here, once the thread runs, must not run the program again: two
            # runs of one program at once, the first one out lowering Python's recursion
            # limit under the other, was CPython's fatal "Cannot recover from stack
            # overflow")
            with suppress(RuntimeError, ValueError):
                threading.stack_size(previous)
    if thread is None:
        if fallback is None:
            return run(frame)
        return on_own_stack(fallback, frame, stop)  # (on the usual stack, or here)
    try:
        # The program's clock is read once in `TIME_CHECK_STEPS` steps: a step whose work
        # is not charged for (a built-in's, 0.1 s each) would carry the run 2,000 of them
        # past its time limit. Waited for until its deadline, it is then stopped at its
        # next step, in every host (a notebook's kernel and the CLI have no worker to kill).
        end = current_deadline()
        if end is not None:
            thread.join(max(0.0, end - time.monotonic()))
            if thread.is_alive():
                stop()
        thread.join()
    except BaseException:
        stop()
        thread.join()
        raise
    if failure:
        raise failure[0]
    return outcome[0]


# A program that raises its recursion limit (`sys.setrecursionlimit(10000)`, SPEC §15)
# nests its calls up to `Limits.max_recursion_limit` deep, on a C stack sized for it. The
# interpreter's own Python frames per call of the program: 4 for a plain recursion or
# micrograd's `build_topo`, 6 to 9 through `==`, `repr`, `str.format` or `lru_cache`;
# a program deeper than these allow at the cap meets Python's recursion limit ("the
# program nests too deeply"). That limit is also what bounds the C stack: under
# 121,000 frames the most C stack measured, on the paths that take most for each frame
# (a generator resuming the 95 loops around its `yield from` in C, `sorted()` calling
# `__lt__` calling a generator, a class's `__iter__`, `yield from` itself), was 48 MiB,
# 416 bytes a frame; each frame is given `_STACK_BYTES_PER_FRAME`, 3.7 times that
# (178 MiB of address space, touched only as deep as the program goes).
_PYTHON_FRAMES_PER_RAISED_CALL = 12
_MAX_RAISED_RECURSION_LIMIT = 121_000
_STACK_BYTES_PER_FRAME = 1_536
_MIB = 1024 * 1024


def _room(tree: ast.Module, limits: Limits) -> tuple[int, int]:
    """For a program that may raise its own recursion limit (`names_recursion_limit`),
    Python's recursion limit it runs under and the C stack it runs on, for a call depth
    of `max_recursion_limit`; for any other, 0 and the usual stack."""
    if limits.max_recursion_limit <= limits.max_call_depth or not names_recursion_limit(tree):
        return 0, PROGRAM_STACK_BYTES
    raised = limits.max_recursion_limit * _PYTHON_FRAMES_PER_RAISED_CALL + 1_000
    frames = min(raised, _MAX_RAISED_RECURSION_LIMIT)
    stack = -(-frames * _STACK_BYTES_PER_FRAME // _MIB) * _MIB
    return frames, max(PROGRAM_STACK_BYTES, stack)


def names_recursion_limit(tree: ast.Module) -> bool:
    """Whether the program names `setrecursionlimit` (a name, an attribute, or a string:
    `getattr(sys, 'setrecursionlimit')`). One that reaches it otherwise runs on the
    usual stack, where its limit takes effect up to `max_call_depth`."""
    for node in walk(tree):
        if type(node) is ast.Attribute and node.attr == "setrecursionlimit":
            return True
        if type(node) is ast.Name and node.id == "setrecursionlimit":
            return True
        value = node.value if type(node) is ast.Constant else None
        if type(value) is str and "setrecursionlimit" in value:
            return True
    return False


# Python's recursion limit is the whole process's: raised for a deep run, it is every
# thread's, and a run on the usual stack under it could pass that stack (a generator's
# statements nested deep around its `yield`, resumed in C, took 1.4 KB a level). So a
# deep run is deep only while no other run is on the usual stack, and a run that starts
# while one is takes a stack as deep (the server runs such programs in its workers, one
# at a time, never in its threads; a kernel or the CLI, one after the other).
_runs_lock = threading.Lock()
_usual_runs = [0]  # runs on the usual stack, not yet ended
_deep_stacks: list[int] = []  # the stacks of the deep runs not yet ended


@contextmanager
def _stack(tree: ast.Module, limits: Limits) -> Iterator[tuple[int, int]]:
    """`_room(tree, limits)` for the run of the block, where no run on a smaller stack
    is under way in the process (else 0 and the usual stack: its limit takes effect up to
    `max_call_depth`); a run on the usual stack started while deep ones run is given
    the deepest of their stacks."""
    frames, stack = _room(tree, limits)
    usual = False
    with _runs_lock:
        if frames and _usual_runs[0]:
            frames, stack = 0, PROGRAM_STACK_BYTES
        if frames:
            _deep_stacks.append(stack)
        elif _deep_stacks:
            stack = max(stack, *_deep_stacks)
        else:
            usual = True
            _usual_runs[0] += 1
    try:
        yield frames, stack
    finally:
        with _runs_lock:
            if frames:
                _deep_stacks.remove(stack)
            elif usual:
                _usual_runs[0] -= 1


def _deep(code: Callable[[Frame], Any], state: State, frames: int) -> Callable[[Frame], Any]:
    """`code`, run on the stack `_room` sized for `frames` (if any): the program's own
    recursion limit takes effect up to `max_recursion_limit`, under a Python recursion
    limit of `frames`, held in the program's thread (where no such thread can be
    started, `code` runs on the usual stack as any program does, its limit taking effect
    up to `max_call_depth`: `on_own_stack`'s fallback)."""
    if not frames:
        return code

    def run(frame: Frame) -> Any:
        state.recursion_cap = state.limits.max_recursion_limit
        with _recursion_room(frames):
            return code(frame)

    return run


# Python's recursion limit is the whole process's, and traces run at once in the event
# loop and in threads: each asks for the room it needs, the limit is the most any running
# trace asked for (or the host's, if more), and the last one out puts back the limit it
# found (`SharedSetting`).
def _most_room(host: int, wants: list[int]) -> int:
    return max(host, *wants)


_recursion_limit: SharedSetting[int, int] = SharedSetting(
    sys.getrecursionlimit, sys.setrecursionlimit, _most_room
)


def _recursion_room(frames: int) -> AbstractContextManager[None]:
    """Python's recursion limit at least `frames` while the block runs, whatever other
    threads ask for and give back meanwhile."""
    return _recursion_limit.held(frames)
