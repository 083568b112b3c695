"""The numeric reference of an op no table knows (SPEC §14), from the learner's own code.

A node of a program's own class whose op neither the registry nor the numeric table of
`right_engine` knows (`'cube'`, `'my_sigmoid'`) has no right local derivative there.
Where the node was made by a call of one of the program's functions (`def cube(self)`),
that call is noted as it runs (`note`: the function, its arguments, the numbers of the
node and of its operands then). Once the program has ended, the call is run again on
copies of its arguments (`derivatives`): first unmoved, and only if that gives back the
node's number exactly (a node of its class and op), then with one operand's number
moved by ±h (h = 1e-6 of it, as `right_engine`'s numeric rules): the central difference
quotient of the op's own output is that operand's right local derivative, judged as
every numeric one is (none where the slopes up and down part: a kink, `_kinked`). A
node that keeps the record of its op, made by that record
(DeZero's `Function.__call__(self, *inputs)`, whose `self` is the record, no operand),
is noted once its record gives it operands (`note_record`): its re-runs call that
`__call__` on a copy of the record, which the call writes (`self.inputs = inputs`).
The re-runs' numbers replace no table's: they are asked for only where `right_locals`
has none, and the right engine's passes since the first such node are run again with
them (`Recorder.replay_right`).

The re-runs are detached: a flag of the recorder (`Recorder.detached`) makes the objects
they make no nodes, drops what they print, and refuses a write to any node of the
program's graph, a pass and a node's rule run by hand (that, an error, a bound hit or a
number that is not finite gives no derivative: never an error of the trace); the names
of the program's globals and its nodes' own attributes are put back after them
(`Recorder.detach`). They charge the run's steps, within a share of what is left
(`SHARE`) and of the time left, nest calls at most `RERUN_DEPTH` deep, and at most
`MAX_CALLS` nodes are noted.

Example: `def cube(self): return Value(self.data ** 3, (self,), 'cube')` on a node of
2.0 gives the local derivative 12.0 (to about 1e-10) for `self`.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress
from itertools import islice
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import Function, PInstance, reads_of
from backprop_animator.engine.interpreter.runtime import ITEMS_PER_STEP, ProgramError, ProgramExit
from backprop_animator.engine.lab.right_engine import NUMERIC_STEP, Locals, drowned
from backprop_animator.engine.value import Value

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import FrameType

    from backprop_animator.engine.interpreter.runtime import State

MAX_CALLS = 200  # nodes noted for a re-run, the first ones made
RERUN_DEPTH = 100  # how deep the re-runs' calls may nest
SHARE = 4  # the re-runs may use a quarter of the steps and of the time left
FRAMES_LOOKED_AT = 40  # host frames walked up to find the call making a node
MAX_RECORD_ITEMS = 16  # an op record's attributes (and a list's items) looked at
_SCALARS = (int, float, bool, str, type(None))


class OpCall:
    """A call of the program's function that made a node: the node, its object, the
    function and its arguments, and the numbers of the node and its operands then.
    `record`: the record of the op the node keeps, where the call is that record's
    `__call__` (DeZero's `Function`, `note_record`): each re-run is given a copy of it."""

    __slots__ = ("args", "data", "fn", "instance", "kwargs", "node", "numbers", "record")

    def __init__(
        self,
        node: Value,
        instance: PInstance,
        fn: Function,
        args: list[Any],
        kwargs: dict[str, Any] | None,
        numbers: list[Any],
        data: Any,
    ) -> None:
        self.node = node
        self.instance = instance
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.numbers = numbers
        self.data = data
        self.record: PInstance | None = None


def making_call() -> tuple[Function, list[Any], dict[str, Any] | None] | None:
    """The innermost call of a program's function running now (its host frame: the
    generated `enter(fn, args)` or `Machine.call_function(fn, args, kwargs)`), else None."""
    frame: FrameType | None = sys._getframe(1)
    for _ in range(FRAMES_LOOKED_AT):
        if frame is None:
            return None
        name = frame.f_code.co_name
        if name == "enter" or name == "call_function":
            found = frame.f_locals
            fn = found.get("fn")
            args = found.get("args")
            if type(fn) is Function and type(args) is list:
                kwargs = found.get("kwargs") if name == "call_function" else None
                return fn, args, kwargs if type(kwargs) is dict and kwargs else None
        frame = frame.f_back
    return None


def note(
    instance: PInstance,
    node: Value,
    operands: list[PInstance],
    number: str,
    charge: Callable[[int], None],
) -> OpCall | None:
    """The call making `node` (of `instance`, its operands' objects `operands`), where
    it is one of the program's functions; None where there is none or it cannot be
    run again soundly (an operand not among its arguments, the node's number given
    to it: a helper handed the number, whose re-run could not move it). The look at
    the call's arguments is charged (`charge`) by their count."""
    found = making_call()
    if found is None:
        return None
    fn, args, kwargs = found
    given = [*args, *(kwargs.values() if kwargs else ())]
    charge(1 + (len(given) + len(operands)) // ITEMS_PER_STEP)
    data = instance.attrs.get(number)
    numbers: list[Any] = []
    for operand in operands:
        shape = operand.cls.shape
        if shape is None or type(operand.attrs) is not dict:
            return None
        numbers.append(operand.attrs.get(shape.number))
    if not all(_number(n) for n in [data, *numbers]):
        return None
    wanted = {id(operand) for operand in operands}
    held: set[int] = set()
    for arg in given:
        if type(arg) is float and arg == data:
            return None  # the node's number handed in: the call does not compute it
        if not _copyable(arg, wanted, held):
            return None
    if wanted - held:
        return None  # an operand the call was not given (made inside it, `Value(other)`)
    return OpCall(node, instance, fn, list(args), dict(kwargs) if kwargs else None, numbers, data)


def note_record(
    instance: PInstance,
    node: Value,
    operands: list[PInstance],
    number: str,
    record: PInstance,
    charge: Callable[[int], None],
) -> OpCall | None:
    """The call making `node` where it keeps the record of its op and that record made
    it (DeZero's `Function.__call__(self, *inputs)`: `output.set_creator(self)`, `self.
    inputs = inputs`): the record's class's `__call__` on `operands`, the inputs the
    record keeps, where the record keeps `instance` as its output (alone, or in a list
    or tuple of them); its re-runs are given a copy of the record (`Reruns.output`), so
    the program's own is never written. None where the record is no such thing or a
    number is not one. Bounded: the record's first `MAX_RECORD_ITEMS` attributes, and of
    a list or tuple its first items."""
    fn = record.cls.lookup("__call__")
    attrs = record.attrs
    if type(fn) is not Function or type(attrs) is not dict:
        return None
    charge(1 + (len(operands) + min(len(attrs), MAX_RECORD_ITEMS)) // ITEMS_PER_STEP)
    if not any(_holds(value, instance) for value in islice(attrs.values(), MAX_RECORD_ITEMS)):
        return None
    data = instance.attrs.get(number)
    numbers: list[Any] = []
    for operand in operands:
        shape = operand.cls.shape
        if shape is None or type(operand.attrs) is not dict:
            return None
        numbers.append(operand.attrs.get(shape.number))
    if not all(_number(n) for n in [data, *numbers]):
        return None
    call = OpCall(node, instance, fn, [record, *operands], None, numbers, data)
    call.record = record
    return call


def _holds(value: Any, instance: PInstance) -> bool:
    """Whether a record's attribute is `instance`, or a list or tuple holding it."""
    if value is instance:
        return True
    kind = type(value)
    return (kind is list or kind is tuple) and any(
        item is instance for item in value[:MAX_RECORD_ITEMS]
    )


def _number(value: Any) -> bool:
    """A finite float, or an int a float holds (`10**400` is none: float() of it raises)."""
    if type(value) is float:
        return math.isfinite(value)
    return type(value) is int and value.bit_length() <= 1023


def _copyable(arg: Any, operands: set[int], held: set[int]) -> bool:
    """An argument the re-run can be given a copy of: a scalar, an operand (by id, in
    `operands`), or a list or tuple of those (nothing else of the program's, which the
    re-run could change); the operands it holds are added to `held`."""
    kind = type(arg)
    if kind in _SCALARS:
        return True
    if kind is PInstance:
        held.add(id(arg))
        return id(arg) in operands
    if kind is list or kind is tuple:
        for item in arg:
            if type(item) is PInstance and id(item) in operands:
                held.add(id(item))
            elif type(item) not in _SCALARS:
                return False
        return True
    return False


def _copy_record(record: PInstance, charge: Callable[[int], None]) -> PInstance:
    """A copy of an op's record for a re-run of its `__call__`, which writes its own
    attributes (`self.inputs = inputs`): its lists and dicts copied too, one level, so
    the re-run changes none of the program's (`self.outputs.append(...)`). Charged by
    what it copies (`charge`), which may end the re-runs (their share of the steps)."""
    attrs = record.attrs
    sizes = [len(v) for v in attrs.values() if type(v) is list or type(v) is dict]
    charge(1 + (len(attrs) + sum(sizes)) // ITEMS_PER_STEP)
    made = PInstance(record.cls)
    made.attrs = {
        name: list(value) if type(value) is list else dict(value) if type(value) is dict else value
        for name, value in attrs.items()
    }
    made.reads = reads_of(made)
    return made


def _copy(instance: PInstance, number: str, value: Any) -> PInstance:
    made = PInstance(instance.cls)
    made.attrs = dict(instance.attrs)
    made.attrs[number] = value
    made.reads = reads_of(made)
    return made


class Reruns:
    """The re-runs of the noted calls, once the program has ended: `run(fn, args,
    kwargs)` is the machine's call, `detached` the recorder's switch (a context)."""

    def __init__(
        self,
        state: State,
        run: Callable[[Function, list[Any], dict[str, Any] | None], Any],
        detached: Callable[[], Any],
        operands_of: Callable[[Value], list[PInstance]],
    ) -> None:
        self.state = state
        self.run = run
        self.detached = detached
        self.operands_of = operands_of

    def derivatives(self, calls: list[OpCall], wanted: set[Value]) -> dict[Value, Locals]:
        """The local derivatives of each noted node of `wanted` that its call gives (by
        operand position, only the operands found among its arguments)."""
        found: dict[Value, Locals] = {}
        # (within the share: the switch's own look at the program is charged too)
        with suppress(ProgramError), self.bounded(), self.detached():
            for call in calls:
                if call.node not in wanted:
                    continue
                locals_ = self.derivative(call)
                if locals_:
                    found[call.node] = locals_
                if self.spent():
                    break
        return found

    def spent(self) -> bool:
        """Whether the re-runs' share of steps or time is used up."""
        state = self.state
        if state.steps >= state.step_limit:
            return True
        deadline = state.deadline
        return deadline is not None and time.monotonic() > deadline

    @contextmanager
    def bounded(self) -> Iterator[None]:
        state = self.state
        limit, deadline, depth = state.step_limit, state.deadline, state.max_call_depth
        state.step_limit = state.steps + state.remaining() // SHARE
        state.next_check = min(state.next_check, state.step_limit)
        if deadline is not None and math.isfinite(deadline):
            now = time.monotonic()
            state.deadline = now + max(0.0, deadline - now) / SHARE
        state.max_call_depth = min(depth, RERUN_DEPTH)
        try:
            yield
        finally:
            state.step_limit = limit
            state.deadline = deadline if state.deadline != -math.inf else -math.inf
            state.max_call_depth = depth
            if state.next_check != -1:
                state.next_check = min(state.next_check, limit)

    def derivative(self, call: OpCall) -> Locals | None:
        """The local derivative for each operand of the call's node that it finds: an
        operand held twice (`x * x`) is moved once, its whole derivative at its first
        position and 0 at the others."""
        operands = self.operands_of(call.node)
        if len(operands) != len(call.numbers):
            return None
        if self.output(call, operands, None, 0.0) != call.data:
            return None  # it gives another number now (a global, random numbers)
        found: Locals = []
        done: set[int] = set()
        children = call.node._prev
        for position, operand in enumerate(operands):
            if id(operand) in done:
                found.append((children[position], 0.0))
                continue
            done.add(id(operand))
            x = call.numbers[position]
            h = NUMERIC_STEP * abs(x) or NUMERIC_STEP
            high = self.output(call, operands, operand, h)
            low = self.output(call, operands, operand, -h)
            if high is None or low is None:
                if self.spent():
                    return None
                continue
            local = (high - low) / (2 * h)
            if _kinked(high, low, call.data, h):
                continue  # (|x| at 0: no one right derivative, any between its slopes is)
            if math.isfinite(local) and not drowned(local, max(abs(high), abs(low)), h):
                found.append((children[position], local))
        return found

    def output(
        self, call: OpCall, operands: list[PInstance], moved: PInstance | None, h: float
    ) -> float | None:
        """The number of the node the call makes again on copies of its arguments, the
        operand `moved` moved by `h`; None where it fails or makes no node of the class
        (or gives one of the graph's own, made before: a memo of the op's output, whose
        number no move changes)."""
        try:  # (the copies' work: a step an operand and an argument)
            self.state.charge(1 + len(operands) + len(call.args))
            record = call.record
            if record is not None:
                record = _copy_record(record, self.state.charge)
        except ProgramError:
            return None
        copies: dict[int, PInstance] = {}
        for position, operand in enumerate(operands):
            if id(operand) in copies:
                continue
            shape = operand.cls.shape
            assert shape is not None
            number = call.numbers[position]
            copies[id(operand)] = _copy(
                operand, shape.number, number + h if operand is moved else number
            )
        args = [_swapped(arg, copies) for arg in call.args]
        if record is not None:
            args[0] = record  # (a copy: its `__call__` writes its own attributes)
        kwargs = {k: _swapped(v, copies) for k, v in call.kwargs.items()} if call.kwargs else None
        try:
            made = self.run(call.fn, args, kwargs)
        except (Exception, ProgramExit):
            return None
        shape = call.instance.cls.shape
        if type(made) is not PInstance or made.cls is not call.instance.cls or shape is None:
            return None
        if made.mirror is not None:
            return None  # a node of the program's graph (one it kept: `self._cache['cube']`)
        op, made_op = call.instance.attrs.get(shape.op), made.attrs.get(shape.op)
        if made_op is not op and not (type(op) is str and type(made_op) is str and op == made_op):
            return None  # another node than the one noted (one made of it, returned)
        value: Any = made.attrs.get(shape.number)
        return float(value) if _number(value) else None


# How far an op's slopes on either side of the point may part before it is a kink there
# (`_kinked`): a smooth op's part by about h times its second derivative, a kink's by
# its jump (|x| at 0: 2).
KINK = 1e-2


def _kinked(high: float, low: float, middle: float, h: float) -> bool:
    """Whether the op's output bends at the point its re-runs moved around (`middle`, its
    number there; `high` and `low`, at ±h): the slopes up and down part as no smooth op's
    do, so no one local derivative is the right one (|x| at 0, whose slopes are 1 and -1
    and whose central quotient 0 is no more right than the learner's 1).

    Example: `_kinked(1e-6, 1e-6, 0.0, 1e-6) is True`; `_kinked(1e-12, 1e-12, 0.0, 1e-6)`
    (x² at 0) is False."""
    up, down = (high - middle) / h, (middle - low) / h
    return abs(up - down) > KINK * max(1.0, abs(up), abs(down))


def _swapped(arg: Any, copies: dict[int, PInstance]) -> Any:
    kind = type(arg)
    if kind is PInstance:
        return copies.get(id(arg), arg)
    if kind is list:
        return [copies.get(id(item), item) if type(item) is PInstance else item for item in arg]
    if kind is tuple:
        return tuple(
            copies.get(id(item), item) if type(item) is PInstance else item for item in arg
        )
    return arg
