"""The multi-pass trace (SPEC §11): every `backward()` a program calls, and every
statement that changes `.data` or `.grad` in between, recorded while the program runs.

The recorder adopts each graph node as it is made (an engine `Value`, or an instance of
the program's own Value-like class, mirrored by an engine `Value` for the trace), and
at each `backward()`:

- build frames for the op nodes this pass's output reaches that no earlier pass showed
  (in creation order, with the line that made them);
- one sort frame (the output's gradient is seeded with 1; `changes` says from what);
- one backward frame per rule that runs, with each `+=` it makes. An engine `Value`'s
  rules are watched through its tape; a program's own class is watched where its
  `_backward` closures write `.grad`, so its contributions are its own numbers.

Between passes, writes to `.data` and `.grad` become `update` frames: all the writes one
statement makes (counting from the outermost running statement that does not itself
call `backward()`) form one frame, so a whole `for p in params: p.data -= lr * p.grad`
loop or one `zero_grad()` call is a single frame.

Printed lines are kept with the frame that follows them (`frames[k].prints`): a line
printed before a node was made goes with that node's build frame even though build
frames are emitted when their pass starts; lines printed after the last frame go on it.
"""

from __future__ import annotations

import gc
import math
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import chain, compress, filterfalse, islice, repeat
from operator import attrgetter, is_, is_not, itemgetter
from typing import Any

from backprop_animator.engine import ops
from backprop_animator.engine.errors import (
    NO_RESULT,
    EngineError,
    not_finite_reason,
    rule_failure,
)
from backprop_animator.engine.interpreter.objects import (
    ENUM_KEY,
    GRAD_NAMES,
    MISSING,
    NUMBER_NAMES,
    OPERAND_NAMES,
    RULE_NAMES,
    RULE_WORDS,
    BoundMethod,
    Function,
    PClass,
    PInstance,
    PSet,
    Shape,
    held_operands,
    held_rule,
    holds_unit,
    missing_part,
)
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MAX_INT,
    ProgramError,
    ProgramExit,
    State,
)
from backprop_animator.engine.lab import mistake_text, mistakes
from backprop_animator.engine.lab.engine_check import (
    PathFault,
    check_run,
    contribution_dicts,
    order_fault,
    path_fault,
    pull_fault,
)
from backprop_animator.engine.lab.op_rerun import MAX_CALLS, OpCall, Reruns, note, note_record
from backprop_animator.engine.lab.right_engine import (
    OP_WORDS,
    RERUN_LOCALS,
    Locals,
    RightEngine,
    agrees,
    keeps_exponent,
    right_locals,
    sum_rounding,
    table_knows,
    take_kink,
)
from backprop_animator.engine.lab.sort_steps import Step, appended, step_frames
from backprop_animator.engine.lab.sort_steps import sort_steps as sort_steps_of
from backprop_animator.engine.limits import NODES_PER_TIME_CHECK, Limits, past_deadline
from backprop_animator.engine.trace import columns, narrate, underflow
from backprop_animator.engine.trace.sentences import SAID, SENTENCES, Said
from backprop_animator.engine.trace.text import clean_text
from backprop_animator.engine.value import (
    Value,
    as_micrograds_zero,
    creation_order,
    no_rule,
    topological_order,
)

SCHEMA_ONE = 1  # one pass: a straight-line program's shape (SPEC §3)
SCHEMA_TWO = 2  # several passes or updates (SPEC §11)
_SEQ = attrgetter("_seq")  # creation order
_PREV = attrgetter("_prev")
_PHASE = itemgetter("phase")
_new_said = tuple.__new__  # a `Said` of all three fields, without the NamedTuple's `__new__`
_PASS = itemgetter("pass")
_CHANGING = frozenset(("update", "sort"))  # the phases whose frames keep `changes`
_CONST, _LABEL, _OP, _DATA, _GRAD = map(attrgetter, ("_const", "label", "_op", "data", "grad"))
_HOLDERS = frozenset((Value, PInstance, list, tuple, dict))  # what `kept_names` walks
MAX_LABEL = 100  # labels longer than this are cut in the trace
# A backward frame's key, the recorder's own (never in a trace): the frame of the same
# run of a rule that this one goes on with, after other nodes' rules ran inside it.
RESUMES = " resumes"
# A stretch of a rule whose op a table knows, cut by the rules it calls: its right locals,
# judged once its run has ended (`say_stretch_factors`), taken out of the frame there.
STRETCH_RIGHT = " stretch right"
# What one node of a `backward()` pass on the engine's Value costs in interpreter steps.
# Its rules run outside the interpreter, but every node a pass visits becomes a frame of
# the trace, and `for _ in range(n): out.backward()` repeats them all: charging them keeps
# the frames, and the time to make them, within BACKPROP_MAX_STEPS (1,000,000 steps allow
# 50,000 node visits, half a second of tracing on the 2-core machine).
BACKWARD_STEPS_PER_NODE = 20
# Likewise every write to a node's `.data` or `.grad` between passes is a change an update
# frame lists: `for i in range(n): x.data = float(i)` may not list millions of them.
STEPS_PER_WRITE = 4
# What a pass of the program's own class costs at least, in steps per node it reaches:
# the recorder's own work on each (the sort it checks the program's against, the names
# it derives, the right engine's pass) is some 15 us a node, which a backward() that
# walks the graph itself pays in its own steps (20 or more a node), and one that does
# next to nothing (`self.grad = 1.0`) did not: 300 of them on a chain of 900 nodes were
# 4 s of CPU for 26,000 steps. The steps its backward() spent count toward it.
OWN_PASS_STEPS_PER_NODE = 10
# Values the naming walk at the end of a run looks at, at most (`GroupNames`).
NAMING_BUDGET = 200_000
# The longest path the naming walks write (`MLP.layers[1].neurons[0]`): an object deeper
# than that is named by its class, a node left unnamed. Each object the walk reaches
# keeps its path, so without a bound a chain of 150,000 objects (`a.n = x` in a loop)
# would make paths of 150,000 steps each: gigabytes, after the program's own bounds.
MAX_PATH = 200


# The bug lab's mistakes change the built-in engine (SPEC §13): a program's own class
# runs its own rules, so they cannot change it.
OWN_RULES_REFUSE_MISTAKE = (
    "this program's output is a node of its own Value class ({name}), so it runs its own "
    "rules and sort: the bug lab's mistakes change the built-in engine's. Write the bug "
    "into your class instead; Check your engine shows where it parts from a right one"
)
HAND_WALK_REFUSES_MISTAKE = (
    "this program calls the engine's rules itself (o._backward(), node by node) and never "
    "backward(): the bug lab's mistakes change backward()'s sort and rules, which it does "
    "not run. Call o.backward() to see a mistake, or walk the nodes in a wrong order "
    "yourself: the trace shows what that order gives"
)
# A re-run of an op's call (`op_rerun`) that runs a pass or a node's rule: refused (its
# derivative is then none), as a write to a node is.
DETACHED_PASS = "a re-run may not run a pass or a node's rule"


def _wrote_gradients(frames: list[dict[str, Any]], nodes: set[Value]) -> bool:
    """Whether an update frame among `frames` wrote the gradient of one of `nodes`."""
    return any(
        field == "grad" and node in nodes
        for frame in frames
        if frame["phase"] == "update"
        for node, field, _, _ in frame["changes"]
    )


def _held_then(writes: dict[Value, list[tuple[int, Any]]], node: Value, seq: int) -> Any:
    """`node.data` as it was when the node numbered `seq` was made, by `writes`."""
    mine = writes.get(node)
    if mine:
        later = bisect_right(mine, seq, key=itemgetter(0))
        if later < len(mine):
            return mine[later][1]  # what the first later write replaced
    return node.data


class Recorder:
    """Watches one running program and turns what it did into the trace."""

    # A run where the objects that made the nodes keep their operands beside them (the
    # "Hacker's guide" gates: `hold_units`); off in every other run.
    holder_pass = False
    # For `engine_check`, made when the first is found (most programs have none): nodes
    # whose set of operands merged two the op was given (`merged_operands`), each with
    # the operands as the op took them, and nodes whose rule was set on one of their
    # operands (`rule_kept_on`), each with that operand and the line that set it.
    merged: dict[Value, tuple[Value, ...]] | None = None
    kept_on: dict[Value, tuple[Value, int]] | None = None
    # And for the words, each operand such a rule was set on last: its node, the line,
    # the rule (`kept_rule`).
    kept_by: dict[Value, tuple[Value, int, Any]] | None = None
    # Nodes whose op no table knows, with the call of the program's that made each
    # (`op_rerun.note`), and the right engine as it was before the first pass that met
    # one, with every pass's inputs since: run again with the re-runs' derivatives once
    # the program has ended (`numeric_reruns`). `detached`: those re-runs are running.
    op_calls: list[OpCall] | None = None
    replay: tuple[RightEngine, list[tuple[Any, ...]]] | None = None
    detached = False
    machine: Any = None  # (set by `engine.run`: the re-runs' calls)

    def __init__(self, state: State, limits: Limits) -> None:
        self.state = state
        self.limits = limits
        self.owner_of: dict[Value, Any] = {}
        self.positions: dict[Value, tuple[int, int]] = {}
        self.instance_of: dict[Value, PInstance] = {}
        # The right engine beside the learner's own (SPEC §14), once a class's pass runs.
        self.right = RightEngine()
        self.rule_locals: dict[Value, Any] = {}  # `right_locals` of the rules run this pass
        self.rule_skipped: dict[Value, list[Value]] = {}  # operands they left out (`unrequired`)
        # The gradient check's runs (`engine.lab.program_gradcheck`), all off in a trace:
        # `Rerun` numbers the nodes, keeps each pass's leaf gradients, moves one leaf
        # and stops at the pass whose output it reads.
        self.rerun: Rerun | None = None
        self.ids: dict[Value, str] = {}
        self.count = 0
        # Nodes made with no operands yet (`out._prev.add(self)` to come): where, what op.
        self.unfilled: list[tuple[PInstance, Any, tuple[int, int], list[Any] | None]] = []
        self.unfilled_op: dict[int, str] = {}  # (`fill_operands`; by id: unhashable nodes)
        self.held_made_at: dict[Value, tuple[int, int]] = {}  # and a holder's (`relink`)
        self.helper_lines: dict[PClass, set[int]] = {}  # (`linked_at`)
        # Each holder of a node's operands (`Shape.held`: `out.grad_fn`), by its id: its
        # node, for a loop over the holder's operands (`for p in fn.inputs`, `loop_write`).
        self.held_by: dict[int, PInstance] = {}
        self.shown: set[Value] = set()
        self.frames: list[dict[str, Any]] = []
        # Where the frames since the last pass begin (update frames waiting for the
        # build frames that belong before them), and when each update frame opened.
        self.pass_end = 0
        self.update_seq: dict[int, int] = {}
        # Every write to an engine Value's `.data` (when, and the number it replaced), for
        # the build text of a node made before it: the text shows the numbers as they were
        # when the node was made, and a program may change `.data` before the pass that
        # shows the node. Most programs never do, so nothing is kept per node.
        self.data_writes: dict[Value, list[tuple[int, Any]]] = {}
        self.last_data_write = -1
        # (the same of the nodes of a program's own class, their mirrors: `born_locals`)
        self.own_data_writes: dict[Value, list[tuple[int, Any]]] = {}
        self.passes: list[tuple[Value, list[Value], float]] = []
        self.pending: list[tuple[int, str]] = []
        self.printed = False  # whether the program printed anything at all
        self.partial = ""
        self.last: Any = None
        # An object whose `.backward()` ran though no graph node (the error names its lack)
        self.unshaped: PInstance | None = None
        self.unshaped_at: tuple[int, int] | None = None
        # Update frames: the statement that is grouping writes, and its open frame.
        self.anchor: Any = None
        self._anchor_count = 0
        self._update: dict[str, Any] | None = None
        self._update_anchor: Any = None
        # A program-class pass in progress: its sort frame, rule order, open rule.
        self.pass_output: Value | None = None
        # how the program called it (`user_pass`'s `call`)
        self.sort_frame: dict[str, Any] | None = None
        self.rule_order: list[Value] = []
        self.in_rule: dict[str, Any] | None = None
        # A rule's `child.grad += …` whose `grad` is a property: the node, the factor read
        # off the statement, its write (`+=`) and its line, for the setter's own write to keep.
        # And the gradient the statement read and the sum it handed the setter.
        self.setter_write: tuple[PInstance, Any, str, int, Any, Any] | None = None
        self.received: dict[Value, int] = {}
        # By pass index: the seed of a pass of no rule (`pass_of_no_rule`), the gradient
        # the program gave its output, which the gradient check's quotients are scaled by.
        self.no_rule_seeds: dict[int, float | int] = {}
        # By pass index: the program's own backward() of the pass (`pass_code`).
        self.backward_code: dict[int, dict[str, int | None]] = {}
        # A pass whose backward() ran no rule but wrote gradients itself: its sort frame
        # holds those writes, so the trace keeps sort frames' `changes` (schema 2).
        self.sort_writes = False
        # A rule the learner's backward() runs in its own loop, with no `_backward` of
        # the node's (`child.grad += local * v.grad` for each child of v, microgpt's
        # `_local_grads`): its writes so far, one backward frame once v's are done
        # (`loop_rule`, `close_loop_rule`).
        self.loop_rule: dict[str, Any] | None = None
        self.loop_lines: dict[Value, dict[str, int]] = {}  # where each such rule wrote
        self.held_rules: set[Value] = set()  # or its op's record's rule (`held_rule_lines`)
        # Such rules that a deeper call's writes broke into (`c._bw()` in the loop, a
        # recursion), innermost last: a write at the depth of one, by its node, goes on
        # with it (`loop_write`).
        self.loop_stack: list[dict[str, Any]] = []
        # The op node's rule that ran last, if it wrote nothing (a `grad_fn` returning its
        # shares): writes the pass's own loop then makes for that node go on with it.
        self.empty_rule: dict[str, Any] | None = None
        self.rule_runs: dict[Value, int] = {}  # how often each op node's rule ran, this pass
        self.start_left_overs()
        # The call depth of a pass's first rule, and whether another ran deeper or
        # shallower: a backward() that runs the rules as its recursion reaches each
        # node, with no sort first (`walk_text`).
        self.rule_depth: int | None = None
        self.walked = False
        # How the pass running was called, where it is no `o.backward()` (`narrate.pass_call`).
        self.pass_how: str | None = None
        # Whether some rule ran other nodes' rules between its writes: its frames after
        # the first carry `RESUMES`, the first one's, for the engine check (`finish`).
        self.resumed = False
        self.start_hand_walk()
        self.names = narrate.Names()
        # Each pass's names and the nodes its output reached (`passes[].names`).
        self.pass_names: list[tuple[narrate.Names, list[Value]]] = []
        # The bug lab (SPEC §13): the built-in engine made wrong in every pass, and the
        # right engine's gradients beside it (the last pass that reached each node, and
        # per pass); `sort_steps` shows each pass's sort call by call.
        self.mistake: str | None = None
        self.sort_steps = False
        # The program's global variables (engine.run): unlabelled values are named by
        # where the program keeps them.
        self.globals_: dict[str, Any] = {}
        self.correct: dict[Value, float] = {}
        self.pass_correct: list[dict[Value, float]] = []
        # A straight-line program (SPEC §2, `engine.interpreter.straight_line`) or a graph
        # built in Python: one pass, written in schema 1's shape (no groups, no pass
        # numbers), its errors placed at the node that meets them.
        self.plain = False
        # A trace the page narrates (`engine.trace_columns`): the frames the built-in
        # engine's sentences say carry `sentences.Said` instead of a text.
        self.said_later = False
        self.underflowed: set[Value] = set()  # nodes whose data or a gradient underflowed
        self.changed_frames: list[dict[str, Any]] = []  # (`frames_with_ids`)

    def start_hand_walk(self) -> None:
        """Rules called by hand (`__init__`), none yet; and a hand pass's walk
        (`open_hand_pass`), none yet: the nodes its first node reaches, their gradients
        then, and the frames up to its last rule's."""
        # A program whose only backward pass is its rules called by hand, node by node
        # (`o.grad = 1.0; o._backward(); n._backward()`, a lecture's first steps): the first
        # run counts those calls (`hand_rules`) and, having no pass, is run again with
        # `hand_pass`, where each walk of such calls is a pass: the first call opens it, a
        # new walk or the program's end closes it (`open_hand_pass`, `close_hand_pass`).
        self.hand_pass = False
        self.hand_rules = 0
        # The spans of backward() methods that each run their own node's rule alone
        # (DeZero's step 7 before its recursion: `y.backward(); b.backward(); …`): in a
        # hand pass's run, calls like another, whose writes are the walk's (`StepPass`).
        self.step_spans: frozenset[tuple[int, int]] = frozenset()
        self.hand_record: str | None = None  # the class of the op's record run by hand
        self.hand_reachable: list[Value] = []
        self.hand_start: dict[Value, float] = {}
        self.hand_reached: set[Value] = set()  # and those its first node reaches
        self.hand_end = 0  # the frames up to its last rule's
        self.engine_walked = False  # a walk of the engine's own Values (`engine_rule`)
        # The roots of functions the `expanded` granularity built from primitives, each
        # with the number taken before it was built (`expanded_rules`).
        self.expansions: dict[Value, int] = {}

    def start_left_overs(self) -> None:
        """What finds the rules a pass runs of an earlier pass's nodes (a tape nothing
        cleared, run again), empty (`__init__`)."""
        # The pass that first reached each node (its build frame's); and, of a pass of the
        # program's own class, what its output reaches (as a set once a rule of an earlier
        # pass's node runs) and the rules it ran of nodes it does not reach that an
        # earlier pass did (`stale_pass`: a tape never cleared, run again).
        self.first_pass: dict[Value, int] = {}
        self.pass_reachable: list[Value] = []
        self.pass_reach: set[Value] | None = None
        self.stale_runs: list[tuple[Value, int]] = []
        # Each frame of such a run (by the frame's id: the frames outlive the run), with
        # the pass that first reached its node: the check's sort row reads them here
        # (`engine_check._sort`), the one place a rule is found left over.
        self.stale_frames: dict[int, int] = {}
        # The sort frames (by id) of passes whose backward() wrote every gradient itself
        # and left one that parts from the right engine's, each with the node named.
        self.walk_faults: dict[int, Value] = {}
        self.path_faults: dict[int, PathFault] = {}
        # A number taken from the creation order as each pass of the program's own class
        # opens, and the last pass's: a node made after that one is of no earlier pass's
        # graph, which spares the usual rule the look-up (`end_rule`).
        self.pass_opened = -1
        self.older_than = -1
        # The passes whose order of rules `user_pass` found right (`own_order_fault`), each
        # with the count of `relinks` when its graph was sorted: the check's sort row
        # takes the answer where no node's operands were set again since (`finish`).
        self.right_orders: dict[int, int] = {}
        self.relinks = 0  # nodes whose operands were set after they were made (`relink`)
        self.pass_relinks = 0

    def adopt_plain(self, node: Value, where: tuple[int, int]) -> None:
        """Take a node a straight-line program made, checked already, made at `where`."""
        if node._prev:
            self.positions[node] = where

    def adopt_graph(self, output: Value) -> None:
        """Take a graph built in Python (`engine.trace_value`): its gradients start at 0."""
        names = narrate.Names()
        # In the order the engine (or the lab's mistaken one) will walk: the first value
        # it would meet that is not a finite number is the one named.
        for node in mistakes.backward_order(output, self.mistake)[0]:
            if not math.isfinite(node.data):
                # Programs are checked as they run; a graph built in Python may not be.
                raise self.placed(
                    node,
                    f"{names(node)} is not a finite number ({node.data}); strict JSON has no "
                    "inf or nan",
                )
            node.grad = 0.0

    def placed(self, node: Value, message: str) -> EngineError:
        """The error `message` about `node`: at the place the node was made in a plain
        trace; a real program's error is placed by the statement it passes through."""
        if self.plain:
            return EngineError(message, *self.positions.get(node, (None, None)))
        return ProgramError(message)

    # Adopting nodes

    def adopt(self, result: Any, mark: int) -> None:
        """Adopt the engine nodes an operation made (those numbered after `mark`)."""
        if self.detached:
            return  # a re-run's (`op_rerun`): no node
        if type(result) is not Value:
            return
        owners = self.owner_of
        if result._seq <= mark or result in owners:
            return
        state = self.state
        owner = state.owner
        position = state.position
        positions = self.positions
        count = self.count
        # Usually the operation made one node (`a * b`), and the walk ends with it.
        node = result
        stack: list[Value] = []
        while True:
            count += 1
            data = node.data
            if type(data) is not float:
                check_number(data, node._op or "Value")
            elif data - data != 0.0:
                raise not_finite(node._op or "Value", data)
            owners[node] = owner
            node.grad = 0  # an int, as micrograd's Value starts it (`print(v)` matches)
            if data == 0.0:
                as_micrograds_zero(node)
            if self.rerun is not None:
                self.rerun.made(node, count, self)
            children = node._prev
            if children:
                positions[node] = position
                for child in children:
                    if child._seq > mark and child not in owners:
                        stack.append(child)
            while stack:
                node = stack.pop()
                if node not in owners:  # else reached twice (`a + a` made in one operation)
                    break
            else:
                break
        self.count = count
        if count > self.limits.max_nodes:
            raise ProgramError(
                self.limits.exceeded("max_nodes", "the graph has too many nodes").message
            )

    def register_instance(
        self,
        instance: PInstance,
        args: list[Any] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """Adopt a new object of the program's own Value-like class as a graph node;
        `args` and `kwargs` are its constructor's (where its operands come in order)."""
        if self.detached:
            return  # a re-run's object (`op_rerun`): no node
        attrs = instance.attrs
        shape = instance.cls.shape
        assert shape is not None
        # (No program code runs here: what `operands_of` gives stays what it was.)
        children = shape.operands_of(attrs)
        mirrors = self.operand_mirrors(children)
        op = attrs.get(shape.op)
        if type(op) is str:
            # Cut as a foreign engine's op is (engine.foreign): it is in every text about
            # the node. A class's ops are few (`+`, `*`, `tanh`): each is cut once.
            name = _OP_NAMES.get(op)
            if name is None:
                name = clean_text(cut_label(op))
                if len(_OP_NAMES) < MAX_OP_NAMES and len(op) <= MAX_LABEL:
                    _OP_NAMES[op] = name
        else:
            name = enum_op_name(op)
            if name:
                name = self.worded_op(name)
            elif type(op) is tuple:
                name = self.tuple_op(op)
            elif type(op) is PInstance and op.cls.shape is None:
                name = clean_text(cut_label(op.cls.name))  # an op object (`Sigmoid()`)
        state = self.state
        merged: tuple[Value, ...] = ()
        if mirrors:
            if op is None:
                name = self.op_unkept(instance, name)
            mirrors, merged = self.taken_operands(children, mirrors, args, kwargs)
        elif (type(children) is PSet and not children.items) or (
            (type(children) is list or type(children) is dict) and not children
        ):
            making = state.making
            args = making[1] if making is not None and type(children) is not list else None
            self.unfilled.append((instance, children, state.position, args))
            if op is None and shape.op not in attrs and making is not None:
                made = self.op_made(instance)
                if made:
                    self.unfilled_op[id(instance)] = made  # (held by `unfilled`)
        mirror = Value(0.0, tuple(mirrors), name, "")
        instance.mirror = mirror
        if merged:
            if self.merged is None:
                self.merged = {}
            self.merged[mirror] = merged
        if shape.held:
            holder = attrs.get(shape.operands)
            if type(holder) is PInstance:
                self.held_by[id(holder)] = instance  # (kept alive by the node)
        self.instance_of[mirror] = instance
        self.count = count = self.count + 1
        self.owner_of[mirror] = state.owner
        if self.rerun is not None:
            self.rerun.made(mirror, count, self)
        if mirrors:
            self.positions[mirror] = state.position
            if type(name) is str and not self.table_answers(name, mirrors):
                self.note_call(instance, mirror)
        elif shape.held:
            self.held_made_at[mirror] = state.position
        if self.count > self.limits.max_nodes:
            raise ProgramError(
                self.limits.exceeded("max_nodes", "the graph has too many nodes").message
            )

    def table_answers(self, op: str, operands: Sequence[Value]) -> bool:
        """Whether `right_locals` will answer a node of `op` over `operands` without a
        re-run of its call: a table knows `op`, or the node is `x ** k` keeping k, a
        leaf, as its second operand (`Value(x.data ** k.data, (x, k), f'**{k.data}')`),
        read off k's number as the program holds it (its mirror's is not yet synced)."""
        if table_knows(op, len(operands)):
            return True
        if len(operands) != 2 or operands[1]._prev:
            return False
        exponent = self.instance_of.get(operands[1])
        shape = exponent.cls.shape if exponent is not None else None
        if exponent is None or shape is None:
            return False
        return keeps_exponent(op, exponent.attrs.get(shape.number))

    def note_call(self, instance: PInstance, node: Value) -> None:
        """A node whose op no table knows: the call of the program's that made it, noted
        for a re-run once the program has ended (`op_rerun`), for the first `MAX_CALLS`."""
        calls = self.op_calls
        if calls is None:
            calls = self.op_calls = []
        if len(calls) >= MAX_CALLS or self.holder_pass or self.rerun is not None:
            return
        shape = instance.cls.shape
        instance_of = self.instance_of
        operands = [instance_of.get(child) for child in node._prev]
        if shape is None or any(operand is None for operand in operands):
            return
        found = note(instance, node, operands, shape.number, self.state.charge)  # type: ignore[arg-type]
        if found is not None:
            calls.append(found)

    def note_record(self, instance: PInstance, node: Value, record: PInstance) -> None:
        """A node whose op no table knows, made by the record of its op it keeps (DeZero's
        `Function.__call__`, whose `self` is the record): that call, noted for a re-run
        (`op_rerun.note_record`) as `note_call` notes a function's."""
        calls = self.op_calls
        if calls is None:
            calls = self.op_calls = []
        if len(calls) >= MAX_CALLS or self.holder_pass or self.rerun is not None:
            return
        if any(call.node is node for call in calls):
            return  # (noted when its record first gave it operands)
        shape = instance.cls.shape
        operands = [self.instance_of.get(child) for child in node._prev]
        if shape is None or any(operand is None for operand in operands):
            return
        found = note_record(
            instance,
            node,
            operands,  # type: ignore[arg-type]
            shape.number,
            record,
            self.state.charge,
        )
        if found is not None:
            calls.append(found)

    def worded_op(self, word: str) -> str:
        """The op an Enum member's word names (`ops.OP_OF_WORD`: `'mul'` is `*`, `'TANH'`
        `tanh`), else the word itself; `'pow'` is `**k` with its exponent when `__pow__`
        (or `pow`) is making the node, else the word."""
        known = ops.OP_OF_WORD.get(word.lower())
        if known is None:
            return word
        if known == "**":
            making = self.state.making
            if making is None or making[0] != "**":
                return word
            args = making[1]
            return ops.power_op(args[1] if len(args) > 1 else None)
        return known

    def tuple_op(self, op: tuple[Any, ...]) -> str:
        """An op kept as a tuple of its word and its number (`("pow", k)`, a dispatching
        engine's `local_grads()` reading `op[1]`): the op the word names, a power with
        that number as its exponent; "" for any other tuple.

        Example: `("pow", 2)` -> `**2`, `("mul",)` -> `*`, `(1, 2)` -> "".
        """
        if not 1 <= len(op) <= 2 or type(op[0]) is not str:
            return ""
        word = clean_text(cut_label(op[0]))
        if len(op) == 2 and ops.OP_OF_WORD.get(word.lower()) == "**":
            return ops.power_op(op[1])
        return self.worded_op(word)

    def op_unkept(self, instance: PInstance, name: str) -> str:
        """The op of a node made with operands whose op attribute holds none: the one the
        method making it stands for, where its class keeps no op attribute at all
        (`op_made`), else the one a function it keeps is named for (`function_op`)."""
        shape = instance.cls.shape
        assert shape is not None
        if shape.op not in instance.attrs:
            name = self.op_made(instance)
        return name or function_op(instance.attrs, self.state.charge)

    def op_made(self, instance: PInstance) -> str:
        """The op of a node whose class keeps none: the one the method making it stands
        for (`__mul__`: `*`, `tanh`; `__pow__`: `**k` with its exponent), else none."""
        making = self.state.making
        cls = instance.cls
        shape = cls.shape
        if shape is None or cls.lookup(shape.op) is not MISSING:
            return ""
        # A class of its own for each op (`class Mul(Node)`, `Sigmoid(Node)`): its name
        # names the op, wherever it is made (`Sigmoid(z)` at the top level, a `Mul`
        # made by `__neg__`), but `**` with its exponent from the method making it.
        named = op_of_subclass(cls, making is not None)
        if making is None:
            return named
        op, args = making
        made = ops.power_op(args[1] if len(args) > 1 else None) if op == "**" else op
        return made if not named or (named == "**" and made.startswith("**")) else named

    def operand_mirrors(self, children: Any) -> list[Value]:
        mirrors: list[Value] = []
        kind = type(children)
        if kind is PSet:
            children = children.items  # what its `len` and `for` read, without its dunders
        elif kind is dict:
            kind = list  # its keys (`{c: 1}`, child → local derivative), as `for` reads them
        if kind is PSet or kind is list or kind is tuple:
            walk = len(children) // ITEMS_PER_STEP
            if walk:  # (usually 0: two operands)
                self.state.charge(walk)  # the walk below
            for child in children:
                if type(child) is PInstance:  # the usual operand, a node already
                    mirror = child.mirror
                    if mirror is not None:
                        mirrors.append(mirror)
                        continue
                if type(child) is tuple and child:
                    child = child[0]  # `(node, local)` pairs, as some classes keep them
                    if type(child) is PInstance and child.mirror is None:
                        child = self.record_node(child)
                elif type(child) is PInstance and child.mirror is None:
                    self.state.charge(len(child.attrs) // ITEMS_PER_STEP)  # its attributes
                    child = held_node(child)  # the same pair as an object: `Operand(val, deriv)`
                if type(child) is PInstance and child.mirror is not None:
                    mirrors.append(child.mirror)
        return mirrors

    def taken_operands(
        self,
        children: Any,
        mirrors: list[Value],
        args: list[Any] | None,
        kwargs: dict[str, Any] | None,
    ) -> tuple[list[Value], tuple[Value, ...]]:
        """A new node's operands (`mirrors`, read off `children`) in the order the op took
        them, repeats kept (`a * a` has `{a}` in a set, one key in a dict): the mirror's
        edges and names are then the engine Value's for the same op; and those a set that
        hashes by value merged away, as the constructor was given them (`merged_operands`,
        else none)."""
        ordered = self.ordered_operands(mirrors, args, kwargs)
        if ordered is not None:
            return ordered, ()
        if type(children) is PSet:
            return mirrors, merged_operands(mirrors, args, kwargs) or ()
        making = self.state.making
        if type(children) is dict and making is not None:
            return repeated_operands(mirrors, making[1]), ()
        return mirrors, ()

    def record_node(self, record: PInstance) -> PInstance | None:
        """The node a function of PyTorch's `next_functions` pairs stands for (`(function,
        input_nr)`): the node whose record of its op it is (`grad_fn`, `held_by`), else
        the one node it owns (`AccumulateGrad(variable)`, a leaf's), else None."""
        node = self.held_by.get(id(record))
        if node is not None:
            shape = node.cls.shape
            if shape is not None and node.attrs.get(shape.operands) is record:
                return node
        self.state.charge(len(record.attrs) // ITEMS_PER_STEP)  # its attributes
        found: PInstance | None = held_node(record)
        return found

    def move(self, node: Value, by: float) -> None:
        """Move a node's data by `by` (the gradient check's re-runs): an engine Value's
        own, or the program's own object's number attribute, whose mirror follows."""
        instance = self.instance_of.get(node)
        if instance is None:
            node.data = node.data + by
            return
        shape = instance.cls.shape
        assert shape is not None
        attrs = instance.attrs
        attrs[shape.number] = as_number(attrs.get(shape.number), "data") + by
        self.sync(node)

    def ordered_operands(
        self,
        mirrors: list[Value],
        args: list[Any] | None,
        kwargs: dict[str, Any] | None = None,
    ) -> list[Value] | None:
        """The constructor's tuple or list of operands (`Value(x, (self, other))`) when it
        holds exactly the nodes of `mirrors`, perhaps in another order or with repeats;
        `args` and `kwargs` are the constructor's arguments, looked at in that order."""
        wanted: set[Value] | None = None
        given: Iterable[Any] = args or ()
        if kwargs:
            given = [*given, *kwargs.values()]
        for arg in given:
            kind = type(arg)
            if (kind is not tuple and kind is not list) or len(arg) > 8:
                continue
            ordered = []
            for item in arg:
                if type(item) is not PInstance or item.mirror is None:
                    break
                ordered.append(item.mirror)
            else:
                if ordered == mirrors:  # the usual case, the same nodes in the same order
                    return ordered  # (a Value compares by identity: no program code runs)
                if wanted is None:
                    wanted = set(mirrors)
                if set(ordered) == wanted:
                    return ordered
        return None

    def fill_operands(self) -> None:
        """Before a pass: the nodes whose empty set or list of operands the program filled
        after making them (`out._prev.add(self)`) get their edges, made where the node was;
        the others are leaves (a pass has begun since they were made). Where its class
        keeps no op, such a node's is the one the method that made it stands for
        (`unfilled_op`, `op_made` while it ran: rad.py's `out = Var(x)`, then
        `out.predecessors.append(...)` in `__mul__`, a `*`); a leaf never uses it. A set
        filled so is looked at for a merge with the arguments of the op's method that made
        its node, kept with it (`merged_later`)."""
        for instance, children, position, args in self.unfilled:
            shape = instance.cls.shape
            if instance.mirror is None or shape is None:
                continue
            if shape.held:  # `children` is the holder, which may have got them since
                if instance.attrs.get(shape.operands) is children:
                    self.relink(instance, refill=False)
                    if instance.mirror._prev:
                        self.positions[instance.mirror] = position
                continue
            if shape.operands_of(instance.attrs) is not children:
                continue  # replaced since, which `relink` followed
            if children.items if type(children) is PSet else children:
                self.relink(instance, args=args)
                mirror = instance.mirror
                if mirror._prev:
                    self.positions[mirror] = position
                    if not mirror._op and id(instance) in self.unfilled_op:
                        mirror._op = self.unfilled_op[id(instance)]
        self.unfilled.clear()
        self.unfilled_op.clear()

    def renamed(self, instance: PInstance) -> None:
        """A node's op was set after it was made (`out = Value(x)`, then `out._prev = {a,
        b}` and `out._op = '+'` in the method making it): its mirror's op follows, as its
        edges do (`relink`). A text op only, cut as `register_instance` cuts one, written
        while an op's method runs (`__add__`, `tanh`…) on a node that is none of its
        operands (`self.op = '+'` in `__add__` is an engine keeping on each input the op
        it went into, not the op that made it)."""
        shape = instance.cls.shape
        mirror = instance.mirror
        assert shape is not None and mirror is not None
        making = self.state.making
        if making is None:
            return
        self.state.charge(len(making[1]) // ITEMS_PER_STEP)  # the look at its arguments
        if any(arg is instance for arg in making[1]):
            return
        op = instance.attrs.get(shape.op)
        if type(op) is str:
            name = _OP_NAMES.get(op)
            mirror._op = clean_text(cut_label(op)) if name is None else name

    def rule_kept_on(self, node: PInstance, holder: PInstance, rule: Any) -> None:
        """The rule of `node` (a closure its op's method made) was set on `holder`, one of
        that method's operands (`self.backward_fn = fn`, `Machine.rule_on_operand`):
        `node` keeps no rule of its own, and the check's op row, not its sort, says so;
        `holder`'s frames say whose rule it runs (`kept_rule`)."""
        mirror, held_by = node.mirror, holder.mirror
        if mirror is not None and held_by is not None:
            line = self.state.position[0]
            if self.kept_on is None:
                self.kept_on = {}
                self.kept_by = {}
            assert self.kept_by is not None
            self.kept_on[mirror] = (held_by, line)
            self.kept_by[held_by] = (mirror, line, rule)

    def kept_rule(self, node: Value, owner: PInstance) -> tuple[Value, int] | None:
        """The node whose rule `node` holds and the line that set it there, where the rule
        `owner` (its object) holds is the one that node's op set on it (`rule_kept_on`);
        None where it holds its own."""
        kept = self.kept_by.get(node) if self.kept_by is not None else None
        shape = owner.cls.shape
        if kept is None or shape is None or owner.attrs.get(shape.rule) is not kept[2]:
            return None
        return kept[0], kept[1]

    def relink(
        self, instance: PInstance, refill: bool = True, args: list[Any] | None = None
    ) -> None:
        """A node's operands were set after it was made: its mirror's edges follow (and
        `merged_later` looks at a set of them: `args`, the arguments of the op's method
        that made it, where that has returned: `fill_operands`). Of
        a node whose operands a holder keeps (`Shape.held`, `out._ctx = ctx`), the op is
        named then (`held_op`); a holder with no operands yet is looked at again before
        the next pass (`fill_operands`; not while that runs: `refill`)."""
        shape = instance.cls.shape
        mirror = instance.mirror
        assert shape is not None and mirror is not None
        children = shape.operands_of(instance.attrs)
        mirrors = self.operand_mirrors(children)
        if type(children) is dict and mirrors:
            making = self.state.making
            if args is None and making is not None and not any(a is instance for a in making[1]):
                args = making[1]  # (the method making it, as `merged_later` reads it)
            if args is not None:
                mirrors = repeated_operands(mirrors, args)
        mirror._prev = tuple(mirrors)
        self.relinks += 1
        if type(children) is PSet:
            self.merged_later(instance, mirror, mirrors, args)
        holder = instance.attrs.get(shape.operands) if shape.held else None
        if type(holder) is PInstance:
            self.held_by[id(holder)] = instance  # (kept alive by the node)
        if mirrors:
            self.positions[mirror] = self.linked_at(instance, mirror)
            if shape.held and not mirror._op:
                mirror._op = self.held_op(instance, holder)
                if type(holder) is PInstance and not self.table_answers(mirror._op, mirrors):
                    self.note_record(instance, mirror, holder)
            elif not mirror._op and shape.op not in instance.attrs:
                # no op of its own: the method making it names it, as `register_instance`
                mirror._op = self.op_made(instance)
        elif refill and holder is not None:  # (a holder: `shape.held`)
            self.unfilled.append((instance, holder, self.linked_at(instance, mirror), None))

    def linked_at(self, instance: PInstance, mirror: Value) -> tuple[int, int]:
        """Where the build frame of a node whose holder of operands was set after it was
        made points: the statement setting it, unless that is in a method of the node's
        own class that makes no op (DeZero's `output.set_creator(self)`, whose `self.creator
        = func` every build frame pointed at, whatever the op), where the node was made is
        the program's line for it (`outputs = [Variable(y) for y in ys]` in
        `Function.__call__`). An op's method (`out.operation = op` in `__add__`) keeps its
        line."""
        position = self.state.position
        made = self.held_made_at.get(mirror)
        if made is None:
            return position
        cls = instance.cls
        helpers = self.helper_lines.get(cls)
        if helpers is None:  # (once a class: its methods' lines, as many as its body's)
            helpers = self.helper_lines[cls] = {
                line
                for base in cls.mro
                for value in base.namespace.values()
                if type(value) is Function and value.makes is None and value.span[0] > 0
                for line in range(value.span[0], value.span[1] + 1)
            }
        return made if position[0] in helpers else position

    def merged_later(
        self, instance: PInstance, mirror: Value, mirrors: list[Value], args: list[Any] | None
    ) -> None:
        """A node's set of operands set after it was made, in the method making it
        (`out._prev = set([self, other])` in `__add__`, or filled by `out._prev.add(self)`
        there: `args`, that method's arguments): where it holds fewer than the method was
        given (`merged_arguments`), the set merged them, and the check's op row says what
        that lost, as it does for a constructor's (`merged_operands`)."""
        if args is None:
            making = self.state.making
            if making is not None and not any(arg is instance for arg in making[1]):
                args = making[1]
        given = None if args is None else merged_arguments(mirrors, args, instance.cls.shape)
        if given is not None:
            if self.merged is None:
                self.merged = {}
            self.merged[mirror] = given
        elif self.merged is not None:
            self.merged.pop(mirror, None)  # (set again, merging nothing now)

    def held_op(self, instance: PInstance, holder: Any) -> str:
        """The op of a node whose operands a holder keeps (`Shape.held`), where its class
        keeps none: the op its op class's name stands for (`Mul`, `MulBackward`: `*`;
        the holder's class where it is a subclass, a `Function`'s, or a class it holds,
        `ctx.fn`, `(Mul, (a, b))`: read as they are), but `**` with its exponent, or any
        other, from the method making it (`op_made`: `__truediv__` making `x * y**-1`
        is no `/` of its `**` node), else the class's own name (`Sigmoid`)."""
        shape = instance.cls.shape
        assert shape is not None
        if shape.op in instance.attrs or instance.cls.lookup(shape.op) is not MISSING:
            return ""  # the class keeps its op, which names it (`register_instance`)
        cls = held_op_class(holder)
        named = op_of_class(cls.name) if cls is not None and not cls.builtin else None
        made = self.op_made(instance)
        if named is None or (named == "**" and made.startswith("**")):
            return made or (clean_text(cut_label(cls.name)) if cls is not None else "")
        return named

    def left_grad(self, node: Value) -> float:
        """The gradient the program left on `node` as a pass ends, for the gradient
        check: a node of its own class's attribute, read as it is (a `backward()` that
        writes the gradients itself, a recursion with no rule per node, reaches the
        drawings only after the pass), where it is a number; else the drawing's."""
        instance = self.instance_of.get(node)
        if instance is not None:
            shape = instance.cls.shape
            value = instance.attrs.get(shape.grad) if shape is not None else None
            if type(value) is float and math.isfinite(value):
                return value
            if type(value) is int and -MAX_FLOAT_INT < value < MAX_FLOAT_INT:
                return float(value)  # (not a bool; an int past a float's range is not read)
        return float(node.grad)

    def sync(self, node: Value) -> None:
        """Copy a program-class node's data, grad and label onto its mirror."""
        instance = self.instance_of.get(node)
        if instance is not None:
            sync_mirror(instance, node)

    def sync_all(self, nodes: Iterable[Value]) -> None:
        """`sync` of every node of `nodes`, in one loop (every node of each pass)."""
        instance_of = self.instance_of
        for node in nodes:
            instance = instance_of.get(node)
            if instance is None:
                continue
            sync_mirror(instance, node)

    # Prints and update frames

    def print(self, text: str) -> None:
        if self.detached:
            return  # a re-run's (`op_rerun`): printed once, by the program
        self.printed = True
        # A program's strings may hold lone surrogates ('\ud800'); what it prints leaves
        # the engine in the trace, so it is made valid UTF-8 here (engine.trace.text).
        # Lines end where CPython's `str.splitlines` ends them (`print(..., end="\r")`
        # ends one too); a last "\r" waits, as the next print may begin with "\n".
        text = clean_text(text)
        if text.isprintable() and not self.partial.endswith("\r"):
            self.partial += text  # no line ends here (`print(x, end="")`, a progress bar)
            return
        pieces = (self.partial + text).splitlines(keepends=True)
        last = pieces[-1] if pieces else ""
        if last.endswith("\r") or last == last.splitlines()[0]:
            self.partial = pieces.pop() if pieces else ""
        else:
            self.partial = ""
        mark = next(creation_order)
        self.pending.extend((mark, piece.splitlines()[0]) for piece in pieces)

    def open_anchor(self, line: int, text: str) -> None:
        self._anchor_count += 1
        self.anchor = (self._anchor_count, line, text)

    def write(self, obj: Any, field: str, before: Any, after: Any) -> Any:
        """A program statement sets `.data` or `.grad` of a graph node to `after`: the
        value to store (a gradient check's re-run may move it, `Rerun.wrote`)."""
        if self.detached:  # a re-run of an op's call (`op_rerun`): no write to a node
            raise ProgramError(f"a re-run may not set the {field} of a node")
        node = obj if type(obj) is Value else obj.mirror
        if field == "data":
            # The write's place on the clock that numbers the nodes: every node made so
            # far is older than it, every node made later newer.
            seq = next(creation_order)
            if node is obj:
                self.last_data_write = seq
                self.data_writes.setdefault(obj, []).append((seq, before))
            else:
                # A node of the program's own class: what it held, for `born_locals`
                # alone (its build frame shows the numbers as they are).
                self.own_data_writes.setdefault(node, []).append((seq, before))
        if self.rerun is not None and field == "data":
            after = self.rerun.wrote(node, after)
        self.record_write(obj, node, field, before, after)
        return after

    def record_write(self, obj: Any, node: Value, field: str, before: Any, after: Any) -> None:
        if (
            field == "grad"
            and (self.pass_output is None or (self.hand_pass and self.in_rule is None))
            and (type(obj) is PInstance or self.hand_pass)
        ):
            self.right.touched.add(node)  # between passes: the right engine starts there too
        if self.pass_output is not None:
            if self.in_rule is not None and field == "grad" and type(obj) is PInstance:
                statement = self.setter_write
                if statement is not None and statement[0] is obj:
                    self.setter_write = None  # the statement's one write, through its setter
                    _, local, write, line, read, handed = statement
                    # What the statement itself added (`handed - read`), its factor judged by
                    # that: a setter that adds what it is given (`self._grad += v`) adds the
                    # gradient already there again, which is no fault of the rule's factor.
                    share = None
                    if write != "=" and type(read) in (int, float) and type(handed) in (int, float):
                        share = float(handed) - float(read)
                    self.contribution(obj, local, before, after, write, line, share)
                else:
                    self.contribution(obj, None, before, after, "=")
                return
            if self.sort_frame is not None and field == "grad":
                self.sort_frame["changes"].append(
                    (node, field, as_number(before, field), as_number(after, field))
                )
                return
        if type(before) not in (int, float, bool) or type(after) not in (int, float, bool):
            if field != "grad" or (before is not None and type(before) not in (int, float, bool)):
                return
            if after is not None and type(after) not in (int, float, bool):
                return
            # No gradient yet (`self.grad = None`, as PyTorch has it) is drawn as 0: a
            # backward() that writes `p.grad = g` into a None writes g all the same.
            before, after = as_number(before, field), as_number(after, field)
        self.state.charge(STEPS_PER_WRITE)
        anchor = self.anchor
        frame = self._update
        if frame is None or self._update_anchor is not anchor or self.frames[-1] is not frame:
            line, text = (anchor[1], anchor[2]) if anchor is not None else self.position_text()
            frame = {"phase": "update", "changes": [], "line": line, "text": text}
            self.update_seq[id(frame)] = next(creation_order)
            self.emit(frame, len(self.passes))
            self._update = frame
            self._update_anchor = anchor
        frame["changes"].append((node, field, before, after))
        if field == "data" and before == after:
            # A write that changes nothing (an update with a zero gradient): the frame
            # says which value stayed, and why, when the gradient was 0.
            frame.setdefault("still", []).append((node, node.grad))

    def position_text(self) -> tuple[int, str]:
        return self.state.position[0], ""

    def emit(self, frame: dict[str, Any], pass_index: int, before_seq: int | None = None) -> None:
        frame["pass"] = pass_index
        pending = self.pending
        if pending:
            if before_seq is None:
                frame["prints"] = [text for _, text in pending]
                pending.clear()
            else:
                count = 0
                while count < len(pending) and pending[count][0] < before_seq:
                    count += 1
                if count:
                    frame["prints"] = [text for _, text in pending[:count]]
                    del pending[:count]
        self.frames.append(frame)

    # Passes

    def begin_pass(
        self, output: Value, reachable: list[Value], steps: list[Step] | None = None
    ) -> dict[str, Any]:
        """The pass's build frames, then its sort: `steps` (SPEC §9) the sort's calls,
        shown before the seed; the bug lab's mistake (`self.mistake`) says its own sort."""
        index = len(self.passes)
        moved = moved_labels(reachable)
        kept = self.globals_
        if self.holder_pass:  # a Wengert list's nodes are not named by where its tape is
            kept = {name: value for name, value in kept.items() if not is_tape(value)}
        named = kept_names(kept, reachable, moved, charge=self.state.charge)
        self.names = names = narrate.Names(named, moved)
        if self.merged:
            names.given = merged = self.merged
            # (an operand the set dropped is no node of the pass: its number, as it is now;
            # of this pass's ops alone, not of every op the program ever made)
            self.sync_all(
                [operand for node in reachable if node in merged for operand in merged[node]]
            )
        self.pass_names.append((names, reachable))
        if self.instance_of:
            self.sync_all(reachable)
        shown = self.shown
        fresh = sorted(filterfalse(shown.__contains__, reachable), key=_SEQ)
        first_pass = self.first_pass
        if len(shown) > len(first_pass):
            # Some node is shown that no pass reached (a rule ran on it, a tape's, its pass's
            # output not reaching it): the first pass that reaches it is its first all the
            # same (`end_rule`: a later pass's run of its rule is this one's, left over).
            first_pass.update(dict.fromkeys(filterfalse(first_pass.__contains__, reachable), index))
        else:
            first_pass.update(dict.fromkeys(fresh, index))  # (none of them there yet)
        # Update frames since the last pass wait here, so that each build frame goes
        # before the updates the program made after it: frames in the program's order.
        frames = self.frames
        waiting = frames[self.pass_end :]
        del frames[self.pass_end :]
        positions = self.positions
        update_seq = self.update_seq
        said_later = self.said_later
        said_build = self.said_build
        # Nodes made after the last write to any `.data` show the numbers they have now.
        last_write = self.last_data_write
        for node in fresh:
            if node._prev:
                seq = node._seq
                while waiting and update_seq.get(id(waiting[0]), -1) < seq:
                    frames.append(waiting.pop(0))
                frame: dict[str, Any] = {
                    "phase": "build",
                    "node": node,
                    "text": said_build(node, names, seq)
                    if said_later
                    else narrate.build_text(node, names)
                    if last_write < seq
                    else self.build_text(node, names),
                }
                position = positions.get(node)
                if position is not None:
                    frame["line"] = position[0]
                if self.pending:
                    self.emit(frame, index, before_seq=seq)
                else:
                    frame["pass"] = index
                    frames.append(frame)
        frames.extend(waiting)
        self.shown.update(reachable)
        mistake = self.mistake
        text: str | Said
        if self.said_later:
            text = SAID
        elif mistake is None:
            text = narrate.sort_text(output, len(reachable), names)
        else:
            text = mistake_text.sort_text(output, len(reachable), names, mistake)
        sort: dict[str, Any] = {"phase": "sort", "text": text, "changes": [], "node": output}
        if steps is not None:
            identity = {node: node for node in reachable}  # ids come with `frames_to_ids`
            append_first = mistake == "append-first"
            for frame in step_frames(steps, identity, names, append_first=append_first):
                self.emit(frame, index)
        if steps is not None or (self.plain and self.sort_steps):
            # Schema 1 marks the seed of a sort asked for step by step, with no steps or some.
            sort = {"phase": "sort", "step": "seed", **sort}
        self.emit(sort, index)
        self.received = {}
        return sort

    def build_text(self, node: Value, names: narrate.Names) -> str:
        """The build frame's sentence with the numbers as they were when `node` was made."""
        seq = node._seq
        if self.last_data_write < seq or node in self.instance_of:
            return narrate.build_text(node, names)
        children = node._prev
        now = (node.data, tuple([child.data for child in children]))
        born = (self.data_then(node, seq), tuple([self.data_then(c, seq) for c in children]))
        if now == born:
            return narrate.build_text(node, names)
        node.data = born[0]
        for child, data in zip(children, born[1], strict=True):
            child.data = data
        try:
            return narrate.build_text(node, names)
        finally:
            for child, data in zip(children, now[1], strict=True):
                child.data = data
            node.data = now[0]

    def born_locals(self, node: Value) -> Locals | None:
        """`node`'s right locals with its operands' numbers as they were when it was made,
        None where none was written since (`engine_check.check_run`'s `born`)."""
        writes = self.own_data_writes
        if not writes:
            return None
        seq = node._seq
        children = node._prev
        now = tuple([child.data for child in children])
        then = tuple([_held_then(writes, child, seq) for child in children])
        if now == then:
            return None
        data = node.data
        node.data = _held_then(writes, node, seq)
        for child, number in zip(children, then, strict=True):
            child.data = number
        try:
            found = right_locals(node, children)
        finally:
            for child, number in zip(children, now, strict=True):
                child.data = number
            node.data = data
        return None if found is None else found[0]

    def said_build(self, node: Value, names: narrate.Names, seq: int) -> Said:
        """What the page needs to write a build frame's text (`build_text`) itself; in a
        real program, with the numbers `build_text` would show, for the encoder to check."""
        if self.plain:
            return narrate.build_said(node, names)  # nothing writes a straight-line program's data
        symbolic, swapped = narrate.build_blanks(node, names)
        children = names.given.get(node, node._prev) if names.given else node._prev
        numbers: tuple[float, ...]
        if self.last_data_write < seq or node in self.instance_of:
            if len(children) == 2:  # the usual two operands, without a list to unpack
                numbers = (node.data, children[0].data, children[1].data)
            else:
                numbers = (node.data, *[child.data for child in children])
        else:
            numbers = (self.data_then(node, seq), *[self.data_then(c, seq) for c in children])
        return _new_said(Said, (symbolic, swapped, numbers))  # (`Said(…)`, once per build)

    def said_grad(self, node: Value) -> Said:
        """A rule frame that adds nothing, for the page to write: in a real program with
        the gradient its text shows, for the encoder to check."""
        # (`Said(None, False, (node.grad,))` without its `__new__`: once per such frame)
        return SAID if self.plain else _new_said(Said, (None, False, (node.grad,)))

    def data_then(self, node: Value, seq: int) -> Any:
        """`node.data` as it was when the node numbered `seq` was made."""
        writes = self.data_writes.get(node)
        if writes:
            later = bisect_right(writes, seq, key=itemgetter(0))
            if later < len(writes):
                return writes[later][1]  # what the first later write replaced
        return node.data

    def engine_pass(self, output: Value) -> None:
        """`v.backward()` on an engine Value: sort, seed, run every rule, watching.

        With the bug lab's `mistake` (SPEC §8, §13) the engine sorts and writes as that
        mistaken engine does, and the right engine's gradients of the pass, from the
        same gradients it started with, are kept beside (`correct_grad`).
        """
        if self.detached:  # a re-run of an op's call (`op_rerun`): no pass, no rule
            raise ProgramError(DETACHED_PASS)
        self.end_hand_walk()
        if self.pass_output is not None:
            raise ProgramError("backward() cannot be called inside another backward()")
        if self.rerun is not None:
            self.rerun.pass_starts(output, len(self.passes), self.state.steps)
        mistake = self.mistake
        if mistake is None:
            topo = topological_order(output)
            order: Iterable[Value] = reversed(topo)
        else:
            topo, order = mistakes.backward_order(output, mistake)
        state = self.state
        # A mistaken engine runs the pass twice: the right engine's beside its own.
        runs = 1 if mistake is None else 2
        if not self.plain:  # a straight-line program is bounded by its nodes alone
            state.steps += BACKWARD_STEPS_PER_NODE * len(topo) * runs
        if state.steps > state.step_limit:
            error = self.limits.exceeded(
                "max_steps",
                f"the program ran too many steps (backward() counts {BACKWARD_STEPS_PER_NODE} "
                f"for each node it visits, each a frame of the animation; this one visits "
                f"{len(topo):,})",
            )
            raise ProgramError(error.message)
        smallest = underflow.SMALLEST_NORMAL
        data_underflowed = underflow.data_underflowed
        # `-smallest < x < smallest` is `abs(x) < smallest` without a call, for every node.
        self.underflowed.update(
            node for node in topo if -smallest < node.data < smallest and data_underflowed(node)
        )
        if mistake is not None:
            self.correct_pass(output, topo)
        steps = None
        if self.sort_steps and mistake != "no-sort":  # no sort, no steps: it did not sort
            steps = sort_steps_of(output, append_first=mistake == "append-first")
        sort = self.begin_pass(output, topo, steps)
        sort["changes"].append((output, "grad", output.grad, 1.0))
        output.grad = 1.0 if self.plain else 1  # micrograd seeds with the int 1
        index = len(self.passes)
        backward_frame = self.backward_frame
        first_frame = len(self.frames)
        story: list[mistake_text.Run] = []
        frames = self.frames
        leaf_rule = no_rule
        time_check = NODES_PER_TIME_CHECK
        for node in order:
            time_check -= 1
            if not time_check:  # the engine's rules charge no steps: read the clock
                time_check = NODES_PER_TIME_CHECK
                if past_deadline():
                    error = self.limits.exceeded("time_limit", "the backward pass took too long")
                    raise ProgramError(error.message)
            if mistake is None and not node._prev and node._backward is leaf_rule:
                # A leaf of the engine: its rule does nothing, so there is nothing to watch.
                frame: dict[str, Any] = {
                    "phase": "backward",
                    "node": node,
                    "text": self.said_grad(node)
                    if self.said_later
                    else narrate.leaf_text(node, self.names),
                    "contributions": (0.0, (), None, None),
                }
                if self.pending:
                    self.emit(frame, index)
                else:
                    frame["pass"] = index
                    frames.append(frame)
                continue
            upstream = node.grad
            tape: list[tuple[Value, float, float, float]] = []
            node._tape = tape
            try:
                node._backward()
            except (ArithmeticError, ValueError, TypeError) as error:
                raise self.rule_failed(node, error) from None
            finally:
                node._tape = None
            if mistake is not None:
                if mistake == "assign":
                    tape = mistakes.overwrite(tape)
                story.append(mistake_text.Run(node, upstream, tape))
            backward_frame(node, tape, index)
        if mistake is not None:
            # A mistaken engine's words come from its story, once the whole pass is known.
            told = mistake_text.Story(mistake, story, self.correct, self.names, output)
            rules = [f for f in self.frames[first_frame:] if f["phase"] == "backward"]
            for frame, text in zip(rules, told.texts(), strict=True):
                frame["text"] = text + frame.pop("note", "")  # the underflow note, if any
        self.passes.append((output, topo, output.data))
        self.pass_end = len(self.frames)
        if self.rerun is not None:
            self.rerun.pass_ends(topo, len(self.passes) - 1, self)

    def correct_pass(self, output: Value, topo: list[Value]) -> None:
        """The right engine's pass from `output`, from the gradients the nodes have now:
        kept in `self.correct` (and per pass), the gradients put back as they were."""
        right_topo = topo if self.mistake == "assign" else topological_order(output)
        saved = [node.grad for node in right_topo]
        output.grad = 1.0 if self.plain else 1
        try:
            for node in reversed(right_topo):
                try:
                    node._backward()
                except (ArithmeticError, ValueError, TypeError) as error:
                    raise self.rule_failed(node, error) from None
            found = {node: node.grad for node in right_topo}
        finally:
            for node, grad in zip(right_topo, saved, strict=True):
                node.grad = grad
        for node, grad in found.items():
            if not math.isfinite(grad):
                raise self.placed(
                    node,
                    f"the right engine's gradient of {self.names(node)} is not a finite number; "
                    "differentiation is exact, floating point is not",
                )
        self.correct.update(found)
        self.pass_correct.append(found)

    def rule_failed(self, node: Value, error: Exception) -> EngineError:
        return self.placed(node, rule_failure(self.names(node), node._op, error))

    def backward_frame(
        self,
        node: Value,
        tape: list[tuple[Value, float, float, float]],
        index: int,
        said: bool = True,
    ) -> dict[str, Any]:
        """One rule's frame of the built-in engine's pass (a program-class rule's is
        `own_rule_frame`); `said`: the page may say it (not a rule run again by hand)."""
        upstream = 0.0
        lost: list[int] | None = None  # the contributions lost to underflow, by index
        if tape:
            isfinite = math.isfinite
            upstream = float(node.grad)
            assign = self.mistake == "assign"
            smallest = underflow.SMALLEST_NORMAL
            for i, (child, local, delta, before) in enumerate(tape):
                if not (isfinite(local) and isfinite(delta if assign else before + delta)):
                    raise self.not_finite(node, child)
                if (
                    -smallest < delta < smallest or -smallest < local < smallest
                ) and underflow.contribution_underflowed(node, child, local, node.grad, delta):
                    lost = [*(lost or ()), i]
        said_later = self.said_later and lost is None and said
        text = ""
        if said_later:
            self.count_received(tape)
        elif self.mistake is None:
            text = narrate.backward_text(node, self.names, tape, self.received)
        # else a mistaken engine's words come once the pass is known (`engine_pass`)
        note = ""
        if lost is not None:
            self.underflowed.add(node)
            note = narrate.underflow_text([tape[i][0] for i in lost], self.names)
            if self.mistake is None:
                text += note
        # The contributions become dicts once the nodes have their ids (`frames_to_ids`).
        frame: dict[str, Any] = {
            "phase": "backward",
            "node": node,
            "text": (SAID if tape else self.said_grad(node)) if said_later else text,
            "contributions": (upstream, tape, None, lost),
        }
        if note and self.mistake is not None:
            frame["note"] = note  # goes after the mistaken engine's words (`engine_pass`)
        if self.pending:
            self.emit(frame, index)
        else:
            frame["pass"] = index
            self.frames.append(frame)
        return frame

    def not_finite(self, node: Value, child: Value) -> EngineError:
        """The error for a rule that passes on a gradient that is not a finite number."""
        return self.placed(
            node,
            f"the gradient flowing from {self.names(node)} into {self.names(child)} "
            "is not a finite number; differentiation is exact, floating point is not",
        )

    def own_rule_frame(
        self,
        node: Value,
        owner: PInstance,
        tape: list[tuple[Value, float, float, float]],
        writes: list[tuple[str, int, float | None, float]],
        stretch: tuple[bool, Value | None, bool] | None,
        run: int,
        stale: int | None = None,
    ) -> dict[str, Any]:
        """One frame of a rule of the program's own class (`owner`'s, whose mirror is
        `node`): `writes` say how each `+=` of `tape` was written (`"+="` or `"="`, its
        line, the local read off it, after). `stretch`, for a rule that runs other
        nodes' rules between its writes: whether this frame goes on with an earlier one,
        whose rule runs inside it next, and whether these are the writes of a loop of the
        program's own that adds the shares the rule returned (`loop_write`). `run`: which
        run of this node's rule in the pass it is (a learner's order may run one twice).
        `stale`: the earlier pass whose graph the node is of, where this pass's output
        does not reach it (`stale_pass`). A learner's own class's rules are its own:
        their contributions are not marked for underflow (docs/TRACE.md), and no mistake
        of the bug lab's runs with them (`open_own_pass`)."""
        if not tape and not node._prev and stretch is None and stale is None and self.said_later:
            said = self.said_leaf_frame(node, owner)
            if said is not None:
                return said
        upstream = 0.0
        if tape:
            upstream = float(node.grad)
            for child, local, delta, before in tape:
                after = before + delta
                # `math.isfinite` of both, without its calls (`x - x` is 0.0 for a finite
                # number, NaN for inf and NaN).
                if local - local or after - after:
                    raise self.not_finite(node, child)
        operands = node._prev
        found = right_locals(node, operands)
        # At a kink (relu or abs of exactly 0) any subgradient is right: the right
        # engine takes the factor this rule wrote, where it is one (`take_kink`; a rule
        # that wrote nothing has no factor to take).
        kink = False
        if found is not None and tape and len(operands) == 1:
            learner = [(c[0], w[2]) for c, w in zip(tape, writes)]  # noqa: B905 (as long)
            found, kink = take_kink(node, found, learner)
        # The gradient's name as the learner's code writes it (`a.gradient += …`).
        shape = owner.cls.shape
        rule_locals = self.rule_locals
        if tape or node not in rule_locals:
            # (a later stretch of a rule with no writes keeps what its first found)
            if shape is not None and shape.requires is not None and found is not None:
                found = self.unrequired(node, found, tape)
            rule_locals[node] = found
        right = found[0] if found else None
        grad = shape.said if shape is not None else "grad"
        text = ""
        said_later = False
        names = self.names
        kept_from = self.kept_rule(node, owner) if self.kept_by else None
        if stretch is not None:
            resumed, then, returned = stretch
            worked = self.loop_lines[node]["line"] if node in self.held_rules else None
            text = narrate.rule_stretch_text(
                node, names, tape, writes, self.received, resumed, then, grad, right, returned,
                kept_from, worked,
            )  # fmt: skip
        else:
            # The page says it only where the built-in rule's sentence is the right one,
            # whose words say `.grad`: not at a kink (the built-in words say micrograd's
            # choice there), not for a second run (they do not say it ran before), not
            # for a node called a constant here, drawn as a leaf (`node_dicts`).
            said_later = (
                self.said_later
                and kept_from is None
                and not kink
                and grad == "grad"
                and run == 1
                and stale is None
                and not node._const
                and narrate.said_as_built_in(node, tape, writes, right)
            )
            if said_later:
                received = self.received  # `count_received(tape)`, inline
                for entry in tape:
                    child = entry[0]
                    received[child] = received.get(child, 0) + 1
            else:
                held = self.held_rules
                text = narrate.own_rule_text(
                    node,
                    names,
                    tape,
                    writes,
                    self.received,
                    right,
                    grad,
                    kink,
                    # (a rule its op's record keeps: where it works out the shares)
                    self.loop_lines[node]["line"] if held and node in held else None,
                    kept_from,
                    self.merged.get(node) if self.merged is not None else None,
                )
                if kink and right is not None:
                    text += narrate.kink_text(node, names, right[0][1])
                if not tape and right:
                    text += self.unset_rule_text(node, owner, right, grad)
                if run > 1:
                    text += narrate.again_text(node, names, run)
        if stale is not None:
            output = self.pass_output
            assert output is not None
            adds = any(entry[2] != 0 for entry in tape)
            text += narrate.stale_text(node, names, stale, len(self.passes), output, adds)
        # The contributions become dicts once the nodes have their ids (`frames_to_ids`).
        # a rule that wrote nothing (every leaf's, in a loop over the whole order) keeps
        # no lists of its own: the trace's frames outlive the run, and each object kept
        # is one more the collector walks while it runs.
        return self.rule_frame(
            node,
            (SAID if tape else self.said_grad(node)) if said_later else text,
            (upstream, tape, writes, None) if tape else NO_WRITES,
        )

    def said_leaf_frame(self, node: Value, owner: PInstance) -> dict[str, Any] | None:
        """A leaf's rule that wrote nothing (`lambda: None`), said by the page: what
        `own_rule_frame`'s general path comes to for it, without its calls (every leaf of
        every pass of a loop over the whole order); None where the page does not say it."""
        shape = owner.cls.shape
        if node._const or (shape is not None and shape.said != "grad"):
            return None
        if node not in self.rule_locals:
            self.rule_locals[node] = ([], "registry")  # `right_locals` of no operands
        return self.rule_frame(node, self.said_grad(node), NO_WRITES)

    def unset_rule_text(self, node: Value, owner: PInstance, right: Locals, grad: str) -> str:
        """Of an op node whose rule wrote nothing: where that rule is one `__init__` made
        (`self._backward = lambda: None`, a leaf's), the op's own rule was never set on the
        node (`out._backward = _backward` left out), and its operands get nothing; "" for
        another rule (one that wrote nothing of its own accord)."""
        shape = owner.cls.shape
        rule = owner.attrs.get(shape.rule if shape is not None else "_backward")
        if (
            type(rule) is not Function
            or rule.name != "<lambda>"  # a `def` in `__init__` may be the op's own rule
            or ".__init__.<locals>." not in rule.qualname
        ):
            return ""
        if not any(local for _, local in right) or not node.grad:
            return ""
        set_on = self.kept_on.get(node) if self.kept_on is not None else None
        return narrate.unset_rule_text(node, self.names, rule.span[0], right, grad, set_on)

    def unrequired(
        self, node: Value, found: tuple[Locals, str], tape: list[tuple[Value, float, float, float]]
    ) -> tuple[Locals, str]:
        """`found` (the right locals of `node`'s rule) without the operands that need no
        gradient (their `requires_grad`, or `_requires_grad`, false: `Shape.requires`) and
        that this rule's writes left out (`if other.requires_grad: other.grad += …`): a
        share nothing reads is owed to none, so the rule is right without it, and the right
        engine computes no gradient for such a node either (`RightEngine.run_pass`'s
        `skipped`). Those operands are kept in `rule_skipped` until a later stretch of the
        same run writes them (a loop that adds the shares its rule returned). A write that
        added exactly 0 leaves the share out as well: a mask of the flag, `other.grad +=
        other._backward * self.data * out.grad` with `_backward` 0.0 where no gradient is
        required (enum_ops_engine)."""
        locals_, reference = found
        instance_of = self.instance_of
        written = {entry[0] for entry in tape if entry[2] != 0}
        kept: Locals = []
        skipped: list[Value] = []
        for child, local in locals_:
            if child not in written:
                instance = instance_of.get(child)
                shape = instance.cls.shape if instance is not None else None
                if shape is not None and shape.requires is not None:
                    flag = instance.attrs.get(shape.requires)  # type: ignore[union-attr]
                    if flag is False or (type(flag) is int and flag == 0):
                        skipped.append(child)
                        continue
            kept.append((child, local))
        if skipped:
            self.rule_skipped[node] = skipped
            return kept, reference
        self.rule_skipped.pop(node, None)
        return found

    def rule_frame(self, node: Value, text: str | Said, contributions: Any) -> dict[str, Any]:
        """A program-class rule's backward frame, in the pass (`own_rule_frame`)."""
        frame: dict[str, Any] = {
            "phase": "backward",
            "node": node,
            "text": text,
            "contributions": contributions,
        }
        if self.pending:
            self.emit(frame, len(self.passes))
        else:
            frame["pass"] = len(self.passes)
            self.frames.append(frame)
        return frame

    def count_received(self, tape: list[tuple[Value, float, float, float]]) -> None:
        """Each child's `+=`s in the pass, counted as a text would (`backward_text`) for
        a rule the page says: a later text with its own words reads the counts."""
        received = self.received
        for entry in tape:
            received[entry[0]] = received.get(entry[0], 0) + 1

    def user_pass(
        self,
        instance: PInstance,
        run: Callable[[], Any],
        code: Any = None,
        free: bool = False,
        holder: str | None = None,
    ) -> Any:
        """`o.backward()` where o is an object of the program's own Value class; `code`
        the program's function it runs (its lines go with the pass: `pass_code`); `free`:
        called as a function of o, `backprop(o)`, not as o's method; `holder`: the class
        of the object it was called on instead, a tape's (`tape.backward()`)."""
        span = _span_of(code)
        if span in self.step_spans:
            return run()  # one step of a walk by hand: its write is the rule (`hand_write`)
        self.end_hand_walk()
        if self.pass_output is not None:
            return run()
        if self.holder_pass and self.hand_pass:  # (no other run: one look-up a pass)
            return self.record_pass(instance, run, code, free, holder)
        output = instance.mirror
        assert output is not None
        if span is not None and self.one_step_before(instance, output):
            raise StepPass(span)
        reachable, sort = self.open_own_pass(instance, output, steps=self.sort_steps)
        self.pass_how = _pass_how(code, free, holder)
        self.pass_code(code)
        self.sort_frame = sort
        start = dict(zip(reachable, map(float, map(_GRAD, reachable)), strict=True))
        self.rule_locals = {}
        self.rule_skipped = {}
        # A backward() that raises an exception the program catches (a guard against a
        # second pass, Druudik/minigrad's RuntimeError) is still a pass: it ends here.
        failed: ProgramError | ProgramExit | None = None
        result = None
        before = self.state.steps
        try:
            result = run()
        except ProgramError as error:
            if error.kind is None:
                raise  # a bound: nothing may catch it, the run ends
            failed = error
        except ProgramExit as ended:  # `unittest.main()` in it: the pass, then the program
            failed = ended
        finally:
            self.pass_output = None
            self.sort_frame = None
            self.in_rule = None
        # The recorder's look at every node the output reaches (its order, its names, the
        # right engine's pass beside it), paid for where the pass's own steps did not: a
        # backward() that runs one rule, called again and again on a long chain.
        spent = self.state.steps - before
        self.state.charge(max(0, OWN_PASS_STEPS_PER_NODE * len(reachable) - spent))
        # The last rule the program's own loop ran, with the pass's output: a rule left
        # over from an earlier pass (a tape nothing cleared) names it (`own_rule_frame`).
        self.pass_output = output
        self.close_loop_rule()
        self.pass_output = None
        shape = instance.cls.shape
        grad = shape.said if shape is not None else "grad"  # the gradient as the class says it
        # The order the rules ran, each node once (a learner's walk with no sort may run
        # a rule twice: its frames show both runs).
        topo = list(reversed(dict.fromkeys(self.rule_order)))
        writes_itself = self.pass_words(output, reachable, sort, topo, grad)
        self.shown.update(topo)  # a rule may run on a node its _prev no longer reaches
        # The right engine starts where the learner's first rule found the gradients:
        # after what their backward() wrote before it (a seed, gradients set to 0). A
        # backward() that runs no rule of a node's (`narrate.no_rule_text`) wrote
        # everything there: only its zeroing and its seed, up to its first other write,
        # are a start.
        no_rule_ran = not self.rule_order
        for node, field, _, after in sort["changes"]:
            if field == "grad":
                if no_rule_ran and node is not output and after != 0:
                    break
                start[node] = after
                self.right.touched.add(node)  # written in this pass: it starts there
        # (A backward() that raised before its first rule was done: as far as it went.)
        if not (self.rule_order or writes_itself or self.walked or self.resumed or failed):
            self.no_rule_run(output, reachable, sort, start.get(output, 0), grad)
        if self.rule_order and not (self.walked or self.resumed):
            # The sort frame's words say a proper order and a seed of 1: only where so.
            # The usual pass ran every rule once in the reverse of the recorder's own
            # depth-first sort (`reachable`, the same walk over the same operands): a
            # right order and a depth-first one, with no walk of the graph to say so.
            # Only where no node's operands were set after it was made (`relink`): each
            # node's operands are then older nodes, so the graph has no cycle, which
            # `own_order_fault` alone would find.
            usual = not self.relinks and self.rule_order == reachable[::-1]
            fault = (
                None if usual else own_order_fault(self.rule_order, reachable, output, self.kept_on)
            )
            if self.sort_steps and fault is None:
                self.own_sort_steps(output, reachable if usual else topo, sort)
            if fault is None:
                self.right_orders[len(self.passes)] = self.pass_relinks
            seed = start[output]
            if (
                fault is not None
                or seed != 1
                or not (usual or depth_first(topo[::-1], reachable, output))
            ):
                sort["text"] = narrate.own_sort_text(
                    output, len(reachable), self.names, fault, seed, grad, self.pass_how
                )
        if self.stale_runs:  # rules of earlier passes' nodes, run again: said after the sort's
            self.say_stale_runs(output, len(reachable), sort, start.get(output, 0.0), grad)
        # (the pass has just run: what the program left on its nodes is read as it is)
        self.close_own_pass(output, topo, reachable, start, len(self.frames), now=True)
        if writes_itself:
            self.judge_own_writes(output, reachable, sort, start)
        if failed is not None:
            raise failed
        return result

    def pass_words(
        self,
        output: Value,
        reachable: list[Value],
        sort: dict[str, Any],
        topo: list[Value],
        grad: str,
    ) -> bool:
        """The sort frame's words for what a pass of the program's own class did, first
        (`user_pass`): whether its backward() wrote the gradients itself."""
        how = self.pass_how
        writes_itself = not self.rule_order and len(sort["changes"]) > 1
        if writes_itself:
            # backward() wrote the gradients itself (`narrate.no_rule_text`): no rule
            # frames, every write in this frame, which the trace keeps (schema 2).
            changed = {node for node, field, b, a in sort["changes"] if b != a}
            sort["text"] = narrate.no_rule_text(self.names(output), len(changed), how)
            self.sort_writes = True
        elif self.walked:
            # No order was worked out first: each rule ran as the walk reached its node.
            sort["text"] = narrate.walk_text(self.names(output), len(reachable), how)
        elif type(sort["text"]) is Said and len(topo) != len(reachable):
            # The page counts the pass's topo; the sentence counts what the output reaches.
            sort["text"] = narrate.sort_text(output, len(reachable), self.names, grad)
        elif grad != "grad" and (
            type(sort["text"]) is Said
            or sort["text"] == narrate.sort_text(output, len(reachable), self.names)
        ):
            # The usual words' seed says `.grad`: a gradient under another name is said here.
            sort["text"] = narrate.sort_text(output, len(reachable), self.names, grad)
        return writes_itself

    def say_stale_runs(
        self, output: Value, count: int, sort: dict[str, Any], seed: float, grad: str
    ) -> None:
        """The sort frame's words, of a pass that ran rules of earlier passes' nodes
        again (`stale_runs`): said after what the pass's own rules did."""
        text = sort["text"]
        if type(text) is not str or text == narrate.sort_text(output, count, self.names, grad):
            # the usual words (or the page's, `Said`): what the pass's own rules did
            text = narrate.own_sort_text(output, count, self.names, None, seed, grad, self.pass_how)
        more = narrate.stale_sort_text(output, self.names, self.stale_runs, len(self.passes))
        head, each, tail = text.rpartition(narrate.EACH_FRAME)
        sort["text"] = head + more + each + tail if each else text + more

    def one_step_before(self, instance: PInstance, output: Value) -> bool:
        """Whether the last pass ran its output's rule alone, `output` (`instance`'s node)
        one of that node's operands and an op's, the nodes keeping the record of the op
        that made them: the program walks the graph itself, a backward() a node (DeZero's
        step 7, `y.backward(); b.backward(); a.backward()`, each running its node's
        `creator.backward` once). (A class with no records, whose backward() runs its own
        `_backward()` alone, a learner's that forgot the sort, keeps its passes, as CPython
        counts its backward() calls, the first one's sort judged.)"""
        if not self.passes or self.hand_pass or (self.rerun is not None and not self.rerun.first):
            return False
        shape = instance.cls.shape
        if shape is None or not shape.held:
            return False
        last, topo, _ = self.passes[-1]
        return topo == [last] and output in last._prev and bool(output._prev)

    def hand_write(self, owner: Any, child: PInstance) -> bool:
        """`x.grad = f.backward(y.grad)` outside any rule or pass, where `f` is the
        record of y's op and x one of y's operands: the program runs y's rule by hand
        (DeZero's steps 6 and 7). True where it is a hand pass's rule run (`user_rule`
        runs the write); else counted as a rule called by hand (`hand_rules`)."""
        if self.in_rule is not None or type(owner) is not PInstance:
            return False
        node = owner.mirror
        shape = owner.cls.shape
        if node is None or shape is None or not shape.held:
            return False
        if self.unfilled:
            self.fill_operands()  # (the records of ops set after their nodes were made)
        if child.mirror not in node._prev:
            return False
        if not self.hand_pass:
            if self.pass_output is None and not self.passes:
                self.hand_rules += 1
            return False
        record = owner.attrs.get(shape.operands)
        if type(record) is PInstance:
            self.hand_record = record.cls.name  # (`open_hand_pass`'s words)
            if node not in self.loop_lines:
                self.held_rule_lines(owner, node)  # its rule's lines: the record's backward()
        return True

    def no_rule_run(
        self, output: Value, reachable: list[Value], sort: dict[str, Any], seed: Any, grad: str
    ) -> None:
        """A pass whose backward() ran no node's rule and wrote no gradient but the seed
        (an order it never filled, a loop over the wrong list), where the output reaches
        an op node: a sort that runs none of the rules. Its words say which rule never
        ran, not a depth-first sort's, and the check's sort row names it at the sort
        frame (`walk_faults`), as a backward() whose own writes part from the chain rule."""
        if not any(node._prev for node in reachable):
            return  # a graph of leaves alone: no rule to run
        fault = own_order_fault([], reachable, output, self.kept_on)
        if fault is None:
            return
        text = narrate.own_sort_text(
            output, len(reachable), self.names, fault, seed, grad, self.pass_how
        )
        sort["text"] = text.removesuffix(narrate.EACH_FRAME) + narrate.no_rule_runs(
            self.names(output)
        )
        self.walk_faults[id(sort)] = fault[0]

    def judge_own_writes(
        self,
        output: Value,
        reachable: list[Value],
        sort: dict[str, Any],
        start: dict[Value, float],
    ) -> None:
        """A pass whose backward() wrote every gradient itself (`narrate.no_rule_text`) has
        no rule to judge and no order of rules: it is judged whole, by the gradients it
        wrote (the sort frame's `changes`; `start`, where it found them). Right where each
        gradient it wrote is the right engine's (which carries every gradient from pass to
        pass), or where what this pass added to each is the chain rule's derivative of
        the output, from a seed of 1 (an engine that hands each operand the share that
        just arrived adds that, whatever its nodes kept from an earlier pass). Else the
        node nearest the output (the last made) whose gradient parts from the right
        engine's is named, in the sort frame's words and in the check's sort row
        (`walk_faults`, by the sort frame's id)."""
        begin: dict[Value, float] = {}
        end = dict(start)
        # Only the nodes the pass reaches: its backward() may zero gradients the output
        # does not reach (every parameter's), which it owes nothing.
        reach = set(reachable)
        for node, field, before, after in sort["changes"]:
            if field == "grad" and node in end and node in reach:
                begin.setdefault(node, before)
                end[node] = after
        right, unknown = self.right.grads, self.right.unknown
        # Only the gradients it wrote: an engine laid out as PyTorch's writes the leaves'
        # alone, and keeps the others' in a table of its own.
        parted = [
            node
            for node in begin
            if node in right and node not in unknown and not agrees(end[node], right[node])
        ]
        if not parted:
            return
        fresh = dict.fromkeys(reachable, 0.0)
        fresh[output] = 1.0
        found = self.right.pass_locals.get(len(self.passes) - 1, {})
        for node in reversed(reachable):
            locals_ = found.get(node)
            if locals_ is None and node._prev:
                break  # an op with no right rule: nothing to say what it should add
            for child, local in locals_ or ():
                fresh[child] += local * fresh[node]
        else:
            if all(agrees(end[n] - begin[n], fresh[n]) for n in begin):
                return
        node = max(parted, key=_SEQ)
        # Handed down every path: the op whose share parts from the chain rule is named,
        # not the walk (`engine_check.path_fault`).
        # Each node written once, after every node that uses it: read as a table of
        # shares summed per node (`engine_check.pull_fault`), else as a walk.
        pulled, fault = pull_fault(sort["changes"], reachable, found, output)
        if not pulled:
            fault = path_fault(sort["changes"], reachable, found, output)
        sort["text"] += narrate.parted_writes_text(node, self.names, end[node], right[node], output)
        if fault is None:
            self.walk_faults[id(sort)] = node
        else:
            self.path_faults[id(sort)] = fault
            sort["text"] += narrate.path_fault_text(fault, self.names)

    def pass_code(self, code: Any) -> None:
        """Where the program's own `backward()` of this pass is written, for the page's
        code panel (`passes[].backward`, docs/TRACE.md); `call`, the line that runs the
        nodes' rules, is filled in by the first rule it runs (`user_rule`)."""
        if type(code) is BoundMethod:
            code = code.function
        if type(code) is Function and code.span[0] > 0:  # not a library's own function
            line, end_line = code.span
            self.backward_code[len(self.passes)] = {
                "line": line,
                "end_line": end_line,
                "call": None,
            }

    def own_sort_steps(self, output: Value, topo: list[Value], sort: dict[str, Any]) -> None:
        """`sort_steps` on a pass of the program's own class, after its backward() ran,
        whose rules ran in the reverse of `topo`, a right order: the calls of the recursive
        depth-first walk whose appends are `topo`, before the pass's seed frame, as the
        built-in engine's pass shows them (leaves whose rules the program does not run
        may be missing from `topo`: the walk appends them too). The walk takes a node's
        operands in their order; where that walk's appends are not `topo` (a sort of the
        program's own that takes them in another order), in the order `topo` places them
        (every node there). Where neither walk gives `topo` (no depth-first sort made it),
        the seed alone, whose sentence says the program's own order."""
        steps = sort_steps_of(output)
        walked = appended(steps)
        if len(walked) > len(topo):  # leaves whose rules the program did not run
            ran = set(topo)
            if any(node._prev for node in walked if node not in ran):
                return
            walked = [node for node in walked if node in ran]
        if walked != topo:
            place = {node: at for at, node in enumerate(topo)}
            if len(place) != len(topo) or any(
                child not in place for node in topo for child in node._prev
            ):
                return
            steps = sort_steps_of(output, order=place.__getitem__)
            if appended(steps) != topo:
                return
        identity = {node: node for _, node, _ in steps}  # ids come with `frames_to_ids`
        frames = step_frames(steps, identity, self.names)
        index = len(self.passes)
        for frame in frames:
            frame["pass"] = index
        prints = sort.pop("prints", None)
        if prints is not None:  # printed before the sort began: before its first call
            frames[0]["prints"] = prints
        at = len(self.frames) - 1
        while self.frames[at] is not sort:
            at -= 1
        self.frames[at:at] = frames

    def open_own_pass(
        self, instance: PInstance | None, output: Value, *, steps: bool = False
    ) -> tuple[list[Value], dict[str, Any]]:
        """A pass of the program's own class begins at `output`: what it reaches, and its
        sort frame (after the build frames it brings); with `steps` (`sort_steps`) the
        sort frame is the seed step (`own_sort_steps` puts the walk's calls before it).
        `instance` None: a walk of the engine's own Values by hand (`engine_rule`)."""
        if self.detached:  # a re-run of an op's call (`op_rerun`): no pass, no rule
            raise ProgramError(DETACHED_PASS)
        if self.mistake is not None:
            if instance is None:
                raise ProgramError(HAND_WALK_REFUSES_MISTAKE)
            raise ProgramError(OWN_RULES_REFUSE_MISTAKE.format(name=instance.cls.name))
        if self.rerun is not None:
            self.sync(output)
            self.rerun.pass_starts(output, len(self.passes), self.state.steps)
        if self.unfilled:
            self.fill_operands()
        if not output._prev and instance is not None:
            unheld_refusal(instance)
        reachable = topological_order(output)
        self.pass_relinks = self.relinks
        self.pass_output = output
        self.pass_reachable = reachable
        self.pass_reach = None
        self.stale_runs = []
        self.older_than, self.pass_opened = self.pass_opened, next(creation_order)
        self.rule_order = []
        self.rule_depth = None
        self.walked = False
        self.empty_rule = None
        self.rule_runs = {}
        return reachable, self.begin_pass(output, reachable, [] if steps else None)

    def close_own_pass(
        self,
        output: Value,
        topo: list[Value],
        reachable: list[Value],
        start: dict[Value, float],
        end: int,
        seed: float = 1.0,
        now: bool = False,
    ) -> None:
        """The pass is done: the right engine's pass beside it, from `start` and `seed`
        (the output's gradient as it starts); the frames after `end` belong to the next
        pass. `now`: it has just run (a walk by hand is closed later, when the program may
        have changed its gradients since), so the gradient check takes the gradients the
        nodes hold (`Recorder.left_grad`)."""
        skipped = self.rule_skipped
        if self.holder_pass and self.hand_pass:
            # The seed a program gives the unit its gates' backward() calls start from (a
            # loss's gradient, `pull`) is the pass's, as the chain rule's start (and the
            # gradient check's: `holder_seeds`).
            seed = self.holder_seeds[len(self.passes)] = start.get(output, 1.0)
        left_out = (
            {child for children in skipped.values() for child in children} if skipped else None
        )
        if self.op_calls:
            # A node no table knows may be in it: its inputs kept (`numeric_reruns`).
            if self.replay is None:
                self.replay = (self.right.copy(), [])
            self.replay[1].append(
                (
                    len(self.passes),
                    output,
                    list(reachable),
                    dict(start),
                    dict(self.rule_locals),
                    left_out,
                    seed,
                    set(self.right.touched),
                )
            )
        self.right.run_pass(
            len(self.passes), output, reachable, start, self.rule_locals, left_out, seed
        )
        self.passes.append((output, topo, output.data))
        self.pass_end = end
        if self.rerun is not None:
            self.rerun.pass_ends(reachable, len(self.passes) - 1, self, now)

    def user_rule(self, instance: PInstance, run: Callable[[], Any]) -> Any:
        """One `node._backward()` call inside a program-class pass: one backward frame.
        Outside a pass, a call by hand: counted, or with `hand_pass` the hand pass's."""
        node = instance.mirror
        if self.detached and node is not None:  # (a re-run's: `DETACHED_PASS`)
            raise ProgramError(DETACHED_PASS)
        in_rule = self.in_rule
        if in_rule is not None:
            if node is None or in_rule["node"] is node:
                return run()
            return self.nested_rule(instance, node, run)
        hand_pass = self.hand_pass
        if self.pass_output is None:
            if node is None or self.passes:
                return run()
            if not hand_pass:
                self.hand_rules += 1
                return run()
            self.open_hand_pass(instance, node)
        elif hand_pass and (node is self.pass_output or node not in self.hand_reached):
            # The walk's first node again (seeded anew), or a node it does not reach (a
            # graph built again): the program starts a new walk.
            self.close_hand_pass()
            self.open_hand_pass(instance, node)
        assert node is not None
        if self.loop_rule is not None or self.loop_stack:
            self.close_loop_rule()
        state = self.state
        code = self.backward_code.get(len(self.passes))
        if code is not None and code["call"] is None:
            code["call"] = state.position[0]  # the statement calling the rule
        # `rule_runs_at(state.depth)`, once per rule run.
        depth = state.depth
        first_depth = self.rule_depth
        if first_depth is None:
            self.rule_depth = depth
        elif depth != first_depth:
            self.walked = True
        rule: dict[str, Any] = {"node": node, "owner": instance, "tape": [], "writes": []}
        if hand_pass:
            rule["line"] = state.position[0]  # where the program called it
            result = self.run_rule(rule, run)
            self.hand_end = len(self.frames)
            return result
        # `run_rule`, inline: once per rule run of every pass.
        sync_mirror(instance, node)
        self.in_rule = rule
        self.sort_frame = None  # the seed is done once the first rule runs
        try:
            result = run()
        finally:
            self.in_rule = None
        self.end_rule(rule)
        return result

    def engine_rule(self, node: Value) -> None:
        """`v._backward()` of an engine Value, called by the program (the micrograd
        lecture's `o.grad = 1.0; o._backward(); n._backward()`), as `user_rule` takes one
        of the program's own class: outside a pass, counted (`hand_rules`: the run is made
        again with `hand_pass`) and its writes updates; with `hand_pass`, a call of the
        walk (`open_hand_pass`), its frame the engine's rule's, watched on the node's tape
        as the engine's pass watches it. The rule of a function the `expanded`
        granularity built from primitives (`tanh`) is every rule of that expansion, as
        the program's one op is (`expanded_rules`)."""
        if self.detached:  # (a re-run's: `DETACHED_PASS`)
            raise ProgramError(DETACHED_PASS)
        rules = self.expanded_rules(node) if node in self.expansions else (node,)
        self.state.charge(BACKWARD_STEPS_PER_NODE * len(rules))
        walking = self.hand_pass and self.in_rule is None
        if self.pass_output is None:
            if self.passes or not node._prev:  # (a leaf's rule writes nothing)
                self.rules_as_updates(rules)
                return
            if not walking:
                self.hand_rules += 1
                self.rules_as_updates(rules)
                return
            self.open_hand_pass(None, node)
            self.engine_walked = True
        elif not walking:
            self.rules_as_updates(rules)  # (in a rule of the program's own class)
            return
        elif node is self.pass_output or node not in self.hand_reached:
            if not node._prev:
                return  # a leaf of no graph of the walk's: its rule writes nothing
            # The walk's first node again, or a node it does not reach: a new walk.
            self.close_hand_pass()
            self.open_hand_pass(None, node)
        for each in rules:
            self.walk_rule(each)

    def walk_rule(self, node: Value) -> None:
        """One engine node's rule run in a walk by hand: its frame, at the call's line."""
        tape = self.run_engine_rule(node)
        runs = self.rule_runs
        run = runs[node] = runs.get(node, 0) + 1
        self.rule_order.append(node)
        if tape or node not in self.rule_locals:
            self.rule_locals[node] = right_locals(node, node._prev)
        again = run > 1 and bool(node._prev)
        frame = self.backward_frame(node, tape, len(self.passes), said=not again)
        if again:  # a second run of the rule adds its share once more: said so
            frame["text"] += narrate.again_text(node, self.names, run)
        frame["line"] = self.state.position[0]  # where the program called it
        self.hand_end = len(self.frames)

    def expanded_rules(self, root: Value) -> list[Value]:
        """The op nodes of the expansion `root` ends (`tanh` built from primitives, the
        nodes made after `expansions[root]`), outputs first, as the engine's pass runs
        them. Bounded: the walk stops at the nodes made before it (the op's operand)."""
        mark = self.expansions[root]
        order: list[Value] = []
        visited = {root}
        stack: list[tuple[Value, Iterator[Value]]] = [(root, iter(root._prev))]
        while stack:
            node, children = stack[-1]
            for child in children:
                if child._seq > mark and child not in visited:
                    visited.add(child)
                    stack.append((child, iter(child._prev)))
                    break
            else:
                stack.pop()
                order.append(node)
        return [node for node in reversed(order) if node._prev]

    def run_engine_rule(self, node: Value) -> list[tuple[Value, float, float, float]]:
        """Run an engine node's rule, its writes watched on its tape."""
        tape: list[tuple[Value, float, float, float]] = []
        node._tape = tape
        try:
            node._backward()
        except (ArithmeticError, ValueError, TypeError) as error:
            raise self.rule_failed(node, error) from None
        finally:
            node._tape = None
        return tape

    def rules_as_updates(self, rules: Iterable[Value]) -> None:
        """Engine nodes' rules called by hand outside a walk: their writes are the
        statement's updates, as the program's own writes are."""
        for node in rules:
            for child, _, delta, before in self.run_engine_rule(node):
                after = before + delta
                if after - after:  # (not `math.isfinite(after)`)
                    raise self.not_finite(node, child)
                self.record_write(child, child, "grad", before, after)

    def tape_rule(self, instance: PInstance, span: tuple[int, int], run: Callable[[], Any]) -> Any:
        """A node's rule kept where its node is not (a tape), called in a pass: a run of
        its rule, as `user_rule`; its lines (`span`) are where the node's rule is written
        (`node_dicts`, the check's rows), as a rule its node keeps has them."""
        node = instance.mirror
        if node is not None and span[0] > 0 and node not in self.loop_lines:
            self.loop_lines[node] = {"line": span[0], "end_line": span[1]}
        return self.user_rule(instance, run)

    def run_rule(self, rule: dict[str, Any], run: Callable[[], Any]) -> Any:
        sync_mirror(rule["owner"], rule["node"])
        self.in_rule = rule
        self.sort_frame = None  # the seed is done once the first rule runs
        try:
            result = run()
        finally:
            self.in_rule = None
        self.end_rule(rule)
        return result

    def nested_rule(self, instance: PInstance, node: Value, run: Callable[[], Any]) -> Any:
        """A rule that runs another node's rule (a recursion, `for c in self._prev:
        c._backward()`): what the outer one wrote so far is its frame, the inner one has
        its own, and what the outer one writes after it is a frame of its own again."""
        outer = self.in_rule
        assert outer is not None
        self.walked = True
        if outer["tape"]:
            self.end_rule(outer, then=node)
        try:
            return self.run_rule({"node": node, "owner": instance, "tape": [], "writes": []}, run)
        finally:
            outer["tape"], outer["writes"] = [], []
            sync_mirror(outer["owner"], outer["node"])
            self.in_rule = outer

    def end_rule(self, rule: dict[str, Any], then: Value | None = None) -> None:
        """A rule's backward frame, once: again only for writes made since the last, a
        frame that goes on with the first (`RESUMES`). `then`: the node whose rule runs
        next, inside this one, which goes on after it."""
        tape = rule["tape"]
        node = rule["node"]
        if not tape:
            if "shown" in rule:
                return
            if (
                not node._prev
                and then is None
                and self.said_later
                and "first" not in rule
                and "line" not in rule
                and not node._const
            ):
                # A leaf's rule that wrote nothing (`lambda: None`), said by the page: what
                # the path below and `own_rule_frame` come to for it, without their calls
                # (every leaf of every pass of a loop over the whole order).
                shape = rule["owner"].cls.shape
                if shape is None or shape.said == "grad":
                    rule["shown"] = True
                    self.rule_order.append(node)
                    if node not in self.rule_locals:
                        self.rule_locals[node] = ([], "registry")  # `right_locals` of none
                    rule["first"] = self.rule_frame(node, self.said_grad(node), NO_WRITES)
                    self.empty_rule = None
                    return
        rule["shown"] = True
        first = rule.get("first")
        self.rule_order.append(node)  # its mirror followed each write (`contribution`)
        stretch = None
        if first is not None or then is not None:
            stretch = (first is not None, then, "returned" in rule)
        run = 1
        stale = None
        if first is None and node._prev and not self.hand_pass:
            runs = self.rule_runs
            run = runs[node] = runs.get(node, 0) + 1
            if node._seq < self.older_than:  # made before the last pass opened
                made = self.first_pass.get(node)
                if made is not None and made < len(self.passes):  # an earlier pass's node
                    stale = self.stale_pass(node, made)
        now = node.grad
        # A rule that wrote its own node's gradient is said from where that one began.
        node.grad = rule.get("upstream", now)
        try:
            frame = self.own_rule_frame(
                node, rule["owner"], tape, rule["writes"], stretch, run, stale
            )
        finally:
            node.grad = now
        if "line" in rule:
            frame["line"] = rule["line"]
        if stretch is not None and tape:
            # A table's op's right locals, judged once the run has ended
            # (`say_stretch_factors`): kept on its first frame that writes alone (a rule
            # over n operands is n frames, n lists of n kept the run's whole length).
            if STRETCH_RIGHT not in rule:
                found = self.rule_locals.get(node)
                rule[STRETCH_RIGHT] = bool(found)
                if found:
                    frame[STRETCH_RIGHT] = found[0]
            elif rule[STRETCH_RIGHT]:
                frame[STRETCH_RIGHT] = None
        if stale is not None:
            self.stale_frames[id(frame)] = stale
        if first is None:
            rule["first"] = frame
            self.empty_rule = rule if not tape and node._prev else None
        else:
            frame[RESUMES] = first
            self.resumed = True
            self.empty_rule = None

    def stale_pass(self, node: Value, made: int) -> int | None:
        """`made`, the earlier pass that first reached `node`, where the running pass's
        output does not reach it (a rule left on a tape, or in a list of nodes, that
        nothing cleared: a right engine does not run it here), else None. Kept in
        `stale_runs`."""
        reach = self.pass_reach
        if reach is None:
            reach = self.pass_reach = set(self.pass_reachable)
        if node in reach:
            return None  # a graph used again (backward() twice on one output)
        self.stale_runs.append((node, made))
        return made

    def loop_write(self, owner: Any, child: PInstance) -> dict[str, Any] | None:
        """A write into `child.grad` in a pass, outside any rule, whose term is
        `<local> * owner.grad`: when `child` is one of `owner`'s operands, the learner's
        backward() is running `owner`'s rule in a loop of its own. The rule it belongs
        to (opened here, or `owner`'s still open, or gone on with after a deeper call's
        writes: a loop that calls itself for each child), else None."""
        if type(owner) is not PInstance or owner is child or self.hand_pass:
            return None  # (a hand pass's own writes between its calls stay updates)
        if owner.mirror is None:  # the holder of a node's operands (`fn = t.grad_fn`)
            held = self.held_by.get(id(owner))
            shape = held.cls.shape if held is not None else None
            if shape is None or held is None or held.attrs.get(shape.operands) is not owner:
                return None
            owner = held
        node = owner.mirror
        if node is None or child.mirror not in node._prev:
            return None
        depth = self.state.depth
        rule = self.loop_rule
        if rule is not None and rule["node"] is node and rule["depth"] == depth:
            return rule
        if rule is not None:
            self.loop_rule = None
            self.loop_segment_done(rule)
            if depth > rule["depth"]:  # a call inside the rule's loop writes: it goes on after
                self.end_rule(rule, then=node)
                rule["tape"], rule["writes"] = [], []
                self.loop_stack.append(rule)
            else:
                self.end_rule(rule)
            rule = None
        stack = self.loop_stack
        while stack and stack[-1]["depth"] > depth:
            stack.pop()  # their calls have returned
        if stack and stack[-1]["depth"] == depth:
            outer = stack.pop()
            if outer["node"] is node:
                rule = outer  # back from the call: the same run of the rule goes on
        empty = self.empty_rule
        if rule is None and empty is not None and empty["node"] is node:
            # `for c, g in zip(v._prev, v.grad_fn(v.grad)): c.grad += g`: the shares v's
            # rule returned, written: that run of its rule goes on (one run, not two).
            rule = {"node": node, "owner": owner, "tape": [], "writes": [], "depth": depth}
            rule["first"], rule["shown"], rule["returned"] = empty["first"], True, True
            first = empty["first"]
            if type(first["text"]) is str and first["text"].endswith(narrate.WROTE_NONE):
                # Its run wrote nothing: it returned the shares this loop adds.
                line = self.rule_line(node)
                first["text"] = narrate.returned_text(node, self.names, line)
        if rule is None:
            rule = {"node": node, "owner": owner, "tape": [], "writes": [], "depth": depth}
            self.rule_runs_at(depth)
            if node in self.held_rules or node not in self.loop_lines:
                self.held_rule_lines(owner, node)
        sync_mirror(owner, node)
        self.sort_frame = None  # the seed is done once the first rule runs
        self.loop_rule = rule
        return rule

    def rule_runs_at(self, depth: int) -> None:
        """A rule of the pass starts at this call depth: one at another depth than the
        first's means the rules run as a recursion reaches them (`walk_text`)."""
        if self.rule_depth is None:
            self.rule_depth = depth
        elif depth != self.rule_depth:
            self.walked = True

    def close_loop_rule(self) -> None:
        """The rule the program's own loop was running is done: its backward frame."""
        self.loop_stack.clear()
        rule = self.loop_rule
        if rule is None:
            return
        self.loop_rule = None
        self.loop_segment_done(rule)
        self.end_rule(rule)

    def held_rule_lines(self, owner: PInstance, node: Value) -> None:
        """A rule run in the program's own loop, of a node that keeps the record of its op
        (`ctx.parents`, `grad_fn.inputs`): where that record works out the shares the loop
        writes (`held_rule`: `def backward(ctx, grad_output)` of `Mul`) is the node's rule,
        kept in `loop_lines` (`held_rules`), rather than the loop's write. Each pass's
        first such write stands for the call of a rule (`passes[k].backward.call`), the
        line the code panel marks in backward()."""
        if node not in self.held_rules:
            shape = owner.cls.shape
            if shape is None or not shape.held:
                return
            function = held_rule(owner.attrs.get(shape.operands))
            if function is None:
                return
            self.loop_lines[node] = {"line": function.span[0], "end_line": function.span[1]}
            self.held_rules.add(node)
        code = self.backward_code.get(len(self.passes))
        if code is not None and code["call"] is None:
            code["call"] = self.state.position[0]

    def loop_segment_done(self, rule: dict[str, Any]) -> None:
        """Where a rule run in the program's own loop wrote, its stretches together (for a
        rule of the record of its node's op, `held_rules`, where that record's is)."""
        lines = [line for _, line, _, _ in rule["writes"]]
        if lines and rule["node"] not in self.held_rules:
            known = self.loop_lines.get(rule["node"])
            if known is not None:
                lines += [known["line"], known["end_line"]]
            self.loop_lines[rule["node"]] = {"line": min(lines), "end_line": max(lines)}

    def open_hand_pass(self, instance: PInstance | None, output: Value) -> None:
        """A pass of a program that runs its rules by hand, from the first node of the
        walk: its build frames and, in place of a sort, a frame that says so. `instance`
        None: the engine's own Values (`engine_rule`)."""
        reachable, sort = self.open_own_pass(instance, output)
        # The walk's look at every node its output reaches (its order, the right engine's
        # pass beside it), paid for: a rule run by hand again and again opens a walk each
        # time, the program's own steps one a call.
        self.state.charge(len(reachable))
        shape = instance.cls.shape if instance is not None else None
        rule = shape.rule if shape is not None else "_backward"
        holder = self.calling_holder if self.holder_pass else None
        if holder is not None:  # the rule is the backward() of the object that made it
            text = narrate.by_holder_text(len(reachable), self.names(output), holder.cls.name)
            sort["text"] = text
        elif self.hand_record is not None:  # a record's backward() (`hand_write`)
            sort["text"] = narrate.by_record_text(
                len(reachable), self.names(output), self.hand_record, bool(self.step_spans)
            )
        else:
            sort["text"] = narrate.by_hand_text(len(reachable), self.names(output), rule)
        # No seed here: the program gave its output the gradient it has (a change that
        # changes nothing, so that the page shows that one rather than a seed of 1).
        grad: Any = output.grad
        if instance is not None:
            grad = instance.attrs.get(shape.grad if shape is not None else "grad")
        seeded = as_number(grad, "grad")
        sort["changes"].append((output, "grad", seeded, seeded))
        self.sort_writes = True  # kept in a trace of one pass too
        self.sort_frame = None  # the program seeded its output before its first call
        self.hand_reachable = reachable
        self.hand_reached = set(reachable)
        self.hand_start = {node: float(node.grad) for node in reachable}
        self.rule_locals = {}
        self.rule_skipped = {}

    def hold_units(self) -> None:
        """Make this a run where the objects that made the nodes keep their operands
        (`holder_pass`): a gate of the "Hacker's guide" keeps the units it was given
        and the one it made (`self.u0`, `self.u1`, `self.utop`), its `backward()` is that
        unit's rule, and the program calls those itself (a pass run by hand)."""
        self.holder_pass = True
        self.hand_pass = True
        # Each node made while a method of an object that is no node ran: that object,
        # the node and where it was made, until `fill_holders` looks at them.
        self.held_made: list[tuple[PInstance, PInstance, tuple[int, int]]] = []
        # By the holder's id, the holder and the node it made that it keeps (its output).
        self.holder_output: dict[int, tuple[PInstance, PInstance]] = {}
        self.calling_holder: PInstance | None = None  # whose backward() opens the pass
        self.record_ops: dict[Value, tuple[str, tuple[int, int]]] = {}  # (`made_op`)
        self.closure_made: list[PInstance] = []  # (`made_op`, until `fill_closures`)
        self.holder_seeds: dict[int, float] = {}  # by pass: a gate pass's seed, if not 1

    def made_in_holder(self, holder: PInstance, instance: PInstance) -> None:
        """A node was made while a method of `holder`, an object that is no node, ran
        (`holder_pass`): its operands are found when a pass needs them (`fill_holders`)."""
        self.held_made.append((holder, instance, self.state.position))

    def made_in_init(self, holder: PInstance, mark: int) -> None:
        """`holder` was just made, and its `__init__` made nodes (`made_in_holder` since
        `mark`): its parameters, no op's output (`self.a = Unit(1.0, 0.0)`). Forgotten
        here, so that the last of them is never taken for an output of the others."""
        made = self.held_made
        mark = min(mark, len(made))
        made[mark:] = [entry for entry in made[mark:] if entry[0] is not holder]

    def own_operands(self, instance: PInstance) -> None:
        """A node of a class `unit_shape` shaped (`holder_pass`), just made: the older
        nodes it keeps as its own attributes are its operands (a tape's node object,
        `Multiply(left, right)`, `Sin(arg)`), as a holder's are (`kept_operands`), its
        op named by its class (`holder_op`: `Multiply` `*`). A unit keeping none (the
        gates' `Unit`, a Wengert list's `Var`) stays a leaf."""
        mirror = instance.mirror
        if mirror is None or mirror._prev:
            return
        operands = kept_operands(instance, instance, mirror._seq, self.state.charge)
        if operands:
            mirror._prev = tuple(operands)
            self.positions[mirror] = self.state.position
            if not mirror._op:
                mirror._op = holder_op(instance.cls.name)

    def fill_holders(self) -> None:
        """The nodes made by objects that keep them (`made_in_holder`) get their operands:
        where the object still keeps the node as an attribute, the nodes it keeps beside
        it that are older (the units a gate was given, the parameters an object made in
        its `__init__`, its own earlier output), in the order of its attributes, a
        tuple's or list's items in theirs. (A node made in the object's `__init__` is no
        output: `made_in_init`.) The node's op is named by the
        object's class (`holder_op`: `MultiplyGate` is `*`). A node that finds none
        stays a leaf, and so does a node an object made before the newest it keeps
        (it kept the units of the newest one only). Older operands only: no cycle can
        come of it."""
        made, self.held_made = self.held_made, []
        charge = self.state.charge
        linked: set[int] = set()  # the holders whose newest kept node is linked
        for holder, instance, position in reversed(made):
            mirror = instance.mirror
            if mirror is None or mirror._prev or id(holder) in linked:
                continue
            attrs = holder.attrs
            charge(1 + len(attrs) // ITEMS_PER_STEP)  # the walks below
            if not any(value is instance for value in attrs.values()):
                continue  # not kept (a helper's node), or replaced since
            # Its earlier nodes since the last walk stay leaves: the units they were made
            # of are replaced by this one's (a gate used twice before its backward()).
            linked.add(id(holder))
            operands = kept_operands(holder, instance, mirror._seq, charge)
            if not operands:
                continue
            mirror._prev = tuple(operands)
            self.positions[mirror] = position
            if not mirror._op:
                mirror._op = holder_op(holder.cls.name)
            self.holder_output[id(holder)] = (holder, instance)

    def made_op(self, instance: PInstance) -> None:
        """A node made with no operands while an op's method ran (`out = Var(x * y)` in
        `__mul__`, `holder_pass`): the op it is and where it was made, should a record
        link it (`fill_records`)."""
        assert instance.mirror is not None
        op = self.op_made(instance)
        if op:
            self.record_ops[instance.mirror] = (op, self.state.position)
            self.closure_made.append(instance)

    def fill_records(self) -> None:
        """Before a pass of `holder_pass`: the records of a Wengert list link their nodes,
        `TAPE.append((out, [(self, 1.0), (other, 1.0)]))`: a tuple or list, in a list the
        program keeps in a global variable (or an attribute of one), whose first item is
        a node with no operands yet and whose other items hold older nodes (a node, or a
        tuple or list of nodes or of `(node, local)` pairs), which are its operands in
        that order; its op is the method's that made it (`made_op`). Charged a step for
        every `ITEMS_PER_STEP` items looked at; no program code runs."""
        charge = self.state.charge
        lists = []
        for value in self.globals_.values():
            if type(value) is list:
                lists.append(value)
            elif type(value) is PInstance and value.mirror is None:
                charge(1 + len(value.attrs) // ITEMS_PER_STEP)
                lists.extend(v for v in value.attrs.values() if type(v) is list)
        for records in lists:
            charge(1 + len(records) // ITEMS_PER_STEP)
            for record in records:
                kind = type(record)
                if (kind is not tuple and kind is not list) or len(record) < 2:
                    continue
                out = record[0]
                if type(out) is not PInstance or out.mirror is None or out.mirror._prev:
                    continue
                mirror = out.mirror
                operands = record_operands(record, mirror._seq, charge)
                if operands:
                    mirror._prev = tuple(operands)
                    made = self.record_ops.get(mirror)
                    if made is not None:
                        self.positions[mirror] = made[1]  # the line of the op that made it
                        if not mirror._op:
                            mirror._op = made[0]

    def fill_closures(self) -> None:
        """Before a pass of `holder_pass`: a node made with no operands while an op's
        method ran (`made_op`), that keeps a function that method made (`out.backward =
        backward`, reverse mode as a Hugging Face post on automatic differentiation
        writes it: the class's own `backward(adjoint)` a leaf's, each op's closure the
        node's), has for operands the older nodes among that method's variables, which
        the function closes over (`self`, `other`), in their order; its op is the
        method's. A node that keeps none stays a leaf. Older operands only: no cycle can
        come of it. Charged a step for every `ITEMS_PER_STEP` attributes and variables
        looked at; no program code runs."""
        made, self.closure_made = self.closure_made, []
        charge = self.state.charge
        for instance in made:
            mirror = instance.mirror
            if mirror is None or mirror._prev:
                continue
            attrs = instance.attrs
            charge(1 + len(attrs) // ITEMS_PER_STEP)
            for value in attrs.values():
                if type(value) is not Function or value.closure is None:
                    continue
                frame = value.closure
                if frame.parent is None:
                    break  # a function of the module's: its variables are the program's
                charge(len(frame.vars) // ITEMS_PER_STEP)
                operands = older_nodes(frame.vars.values(), instance, mirror._seq, charge)
                if operands:
                    mirror._prev = tuple(operands)
                    made_at = self.record_ops.get(mirror)
                    if made_at is not None:
                        self.positions[mirror] = made_at[1]  # the line of the op that made it
                        if not mirror._op:
                            mirror._op = made_at[0]
                break

    def record_pass(
        self,
        instance: PInstance,
        run: Callable[[], Any],
        code: Any,
        free: bool = False,
        holder: str | None = None,
    ) -> Any:
        """`backward(out)` (`out.backward()`) in a run of `holder_pass`: a pass where the
        objects that made its nodes, or a Wengert list's records, give `out` operands
        (`fill_holders`, `fill_records`), run as any pass of the program's own class
        (not by hand); else a call like another, kept for the refusal's words."""
        if self.held_made:
            self.fill_holders()
        self.fill_records()
        if self.closure_made:
            self.fill_closures()
        output = instance.mirror
        if output is None or not output._prev:
            if self.unshaped is None:
                self.unshaped = instance
                self.unshaped_at = self.state.position  # (the call's statement)
            return run()
        self.hand_pass = False  # its rules and writes are a pass's (`loop_write`)
        try:
            return self.user_pass(instance, run, code, free, holder)
        finally:
            self.hand_pass = True

    def holder_rule(self, holder: PInstance, function: Function, run: Callable[[], Any]) -> Any:
        """`gate.backward()`, called on an object that is no node (`holder_pass`): where
        the object keeps the node it made and that node's operands (`fill_holders`), a
        run of that node's rule, its lines the method's; else a call like another, the
        object kept for the refusal's words should no pass come of the program."""
        if self.detached:  # a re-run of an op's call (`op_rerun`): no pass, no rule
            raise ProgramError(DETACHED_PASS)
        if self.held_made:
            self.fill_holders()
        found = self.holder_output.get(id(holder))
        if found is None or found[1].mirror is None or found[1].mirror._prev == ():
            output = tape_output(holder, self.state.charge)
            if output is not None:  # `tape.backward()`: a pass over the nodes it keeps
                self.hand_pass = False  # its rules and writes are a pass's (`loop_write`)
                try:
                    return self.user_pass(output, run, function, holder=holder.cls.name)
                finally:
                    self.hand_pass = True
            if self.unshaped is None:
                self.unshaped = holder
                self.unshaped_at = self.state.position  # (the call's statement)
            return run()
        outer = self.calling_holder
        self.calling_holder = holder
        try:
            return self.tape_rule(found[1], function.span, run)
        finally:
            self.calling_holder = outer

    def end_hand_walk(self) -> None:
        """A `backward()` called while a walk by hand is open: the walk ends there. (The
        first run found no such call, but a second run may differ where the program
        reads `time`'s clock, which counts the work of each run.)"""
        if self.hand_pass and self.pass_output is not None and self.in_rule is None:
            self.close_hand_pass()

    def close_hand_pass(self) -> None:
        """The hand pass ends (the program ends or starts a new walk): the pass is the
        rules it called, in the order it called them, checked against the right
        engine's; the frames after its last rule belong to the next pass."""
        output = self.pass_output
        assert output is not None
        self.pass_output = None
        topo = list(reversed(dict.fromkeys(self.rule_order)))
        self.shown.update(topo)
        self.close_own_pass(output, topo, self.hand_reachable, self.hand_start, self.hand_end)
        # What the program wrote since the walk's last rule (a zeroing, the next seed)
        # belongs to the next walk: the right engine starts there too.
        for frame in self.frames[self.hand_end :]:
            frame["pass"] = len(self.passes)
            for node, field, _, _ in frame.get("changes", ()):
                if field == "grad":
                    self.right.touched.add(node)

    def contribution(
        self,
        child: PInstance,
        local: Any,
        before: Any,
        after: Any,
        write: str,
        line: int | None = None,
        share: float | None = None,
    ) -> None:
        """One write of a rule of the program's own class into a child's `.grad`, kept as
        the learner wrote it (SPEC §14): `write` is `"+="`, `"-="` or `"="`, `local` the
        factor read off the code or None, `delta` is after − before; `line` the
        statement's (by default the one running: not a `grad` property's setter, which
        writes it). A `-=` adds minus the product: its local derivative is minus the
        factor, kept so (`delta` = local × upstream as for a `+=`). `share`: what the
        statement itself added, where a `grad` property's setter wrote something else
        (the factor is judged by it; `delta` stays what the gradient became)."""
        rule = self.in_rule
        mirror = child.mirror
        assert rule is not None and mirror is not None
        node: Value = rule["node"]
        owner: PInstance = rule["owner"]  # the instance whose mirror `node` is
        shape = owner.cls.shape
        upstream = owner.attrs.get(shape.grad if shape is not None else "grad")
        # `as_number`'s usual case, a finite float, without the calls: once per write.
        if type(upstream) is not float or upstream - upstream:  # (`sync_mirror`'s test)
            upstream = as_number(upstream, "grad")
        node.grad = upstream
        # The gradient the rule passes on is its node's as the rule found it, even where
        # the rule then writes it (`out.grad = local * out.grad`, `out.grad = 0`).
        upstream = rule.setdefault("upstream", upstream)
        before_number = before if type(before) is float and not before - before else None
        if before_number is None:
            before_number = as_number(before, "grad")
        after_number = after if type(after) is float and not after - after else None
        if after_number is None:
            after_number = as_number(after, "grad")
        delta = after_number - before_number
        kind = type(local)
        read = local if kind is float else float(local) if kind is int or kind is bool else None
        adds = write != "="
        if read is not None and write == "-=":
            read = 0.0 - read  # (not -read: a factor of 0 stays 0.0, never -0.0)
        added = delta if adds else after_number
        judged = added if share is None else share
        if (
            read is not None
            # `_times_upstream(read, upstream, judged, 0.0)`, without its call: once per write.
            and not ((product := read * upstream) == judged and not product - product)
            and not abs(product - judged) <= 1e-9 * max(abs(product), abs(judged), 1e-300)
            and not (
                adds  # a tiny share added to a large gradient: the sum's rounding
                and _times_upstream(
                    read, upstream, judged, sum_rounding(before_number, after_number)
                )
            )
        ):
            # `other.data * other.grad`: a factor, but of some other node's gradient.
            read = None
        if read is not None:
            effective = read
        else:  # what the write amounts to as a factor of the upstream gradient
            effective = added / upstream if upstream else 0.0
            if not math.isfinite(effective):  # a subnormal upstream gradient
                effective = 0.0
        mirror.grad = after_number  # the mirror follows at once: no sync needed
        # A rule may write a node its output does not reach (a class that hashes by value
        # merged it away in a set): the trace shows it all the same.
        if mirror not in self.shown:
            # With what it was made of, which nothing else may show (y of `y = a + b`,
            # merged away from `x * y`: a and b, whose gradients y's rule never writes).
            for shown in topological_order(mirror):
                if shown not in self.shown:
                    self.sync(shown)
                    self.shown.add(shown)
        rule["tape"].append((mirror, effective, delta, before_number))
        if line is None:
            line = self.state.position[0]
        rule["writes"].append((write, line, read, after_number))

    # The trace

    def release(self) -> None:
        """Cut the links between the run's nodes once its trace is written (nothing runs
        after): reference counting then frees the run at once.

        Otherwise every node is in a reference cycle (an engine `Value`'s `_backward`
        closes over the node; an own class's `out._backward = _backward` closes over the
        call frame that holds `out`), and a program's own cycles (a nested `build_topo`)
        hold whole graphs: the collector had to walk about 140,000 objects after each
        20-step course loop, 80-150 ms of a later trace's time (a gen-1 collection).
        """
        for instance in self.instance_of.values():
            attrs = instance.attrs
            for value in attrs.values():
                if type(value) is Function and value.closure is not None:
                    value.closure.vars.clear()  # the frame that made the node's rule
            attrs.clear()
            # A program's own cycle may still hold the object (a nested `visit` of its
            # sort, with its `topo` list): then the collector meets only the object, as
            # a new empty dict is not tracked and its mirror is freed now.
            instance.attrs = {}
            instance.mirror = None
        # The engine's own Values (a mirror's rule is no closure: it is freed as it is).
        for node in filterfalse(self.instance_of.__contains__, self.owner_of):
            node._prev = ()
            node._backward = no_rule
            node._tape = None
        self.globals_.clear()
        # And the recorder's own tables of them: it is in a cycle too (the interpreter's
        # compiled program refers to it and it to the program's globals).
        vars(self).clear()

    def finish(self, source: str, granularity: str, globals_: dict[str, Any]) -> dict[str, Any]:
        if self.pass_output is not None:  # a hand pass runs to the program's end
            self.close_hand_pass()
        if not self.passes:
            if self.hand_rules:
                raise HandPass
            self.implicit_pass(globals_)
        self.say_stretch_factors()
        found = self.numeric_reruns() if self.replay is not None else None
        if not found:
            return self.finished(source, granularity, globals_)
        self.say_measured(found)
        token = RERUN_LOCALS.set(found)
        try:
            self.replay_right(found)
            return self.finished(source, granularity, globals_)
        finally:
            RERUN_LOCALS.reset(token)

    def say_measured(self, found: dict[Value, Locals]) -> None:
        """The rule frames of nodes whose op no table knows, now that the re-runs have
        `found` their right local derivatives: each factor that is not the right one is
        named beside it, as a table's op's is as its rule runs (`narrate.measured_text`),
        a run cut into stretches judged whole (`say_factors`)."""
        for run in self.runs_of_frames(lambda frame: frame["node"] in found):
            self.say_factors(run, found[run[0]["node"]], narrate.measured_text)

    def say_stretch_factors(self) -> None:
        """The stretches of the rules of ops a table knows, cut by the rules they call
        (`rule_stretch_text`, their right locals kept as `STRETCH_RIGHT`), now that each
        run has ended: each factor that is not the right one, as a whole rule's frame
        names it (`narrate.parted_text`, `say_factors`)."""
        for run in self.runs_of_frames(lambda frame: STRETCH_RIGHT in frame):
            right = run[0][STRETCH_RIGHT]
            for frame in run:
                del frame[STRETCH_RIGHT]
            self.say_factors(run, right, narrate.parted_text)

    def runs_of_frames(self, keep: Callable[[dict[str, Any]], bool]) -> list[list[dict[str, Any]]]:
        """The backward frames of the program's own rules that `keep` keeps, that wrote
        and have words of their own, by run: a run cut into stretches by the rules it
        calls (`end_rule`'s `RESUMES`) is its frames, in order."""
        runs: dict[int, list[dict[str, Any]]] = {}
        for frame in self.frames:
            if (
                frame["phase"] == "backward"
                and type(frame["text"]) is str
                and frame["contributions"][1]
                and frame["node"] in self.instance_of
                and keep(frame)
            ):
                runs.setdefault(id(frame.get(RESUMES, frame)), []).append(frame)
        return list(runs.values())

    def say_factors(
        self, run: list[dict[str, Any]], right: Locals, say: Callable[..., str]
    ) -> None:
        """Each factor of a rule's `run` (its frames) that is not the `right` one, said
        (`say`) at the last of its frames that writes that operand's share; one it never
        writes, at its last frame. A stretch was judged alone: an operand written in
        another stretch was said to get 0."""
        node = run[0]["node"]
        shape = self.instance_of[node].cls.shape
        grad = shape.said if shape is not None else "grad"
        upstream = run[0]["contributions"][0]
        tape = [entry for frame in run for entry in frame["contributions"][1]]
        writes = [entry for frame in run for entry in frame["contributions"][2]]
        tape = narrate.kept_as_added(tape, writes, right, upstream)
        last = {entry[0]: frame for frame in run for entry in frame["contributions"][1]}
        # Each frame is handed its operands' writes alone: a rule over n operands, cut
        # after each write, is n frames, and the whole run's writes each took n² steps.
        said: dict[int, Locals] = {}
        for local in right:
            said.setdefault(id(last.get(local[0], run[-1])), []).append(local)
        at: dict[Value, list[int]] = {}
        for i, entry in enumerate(tape):
            at.setdefault(entry[0], []).append(i)
        for frame in run:
            mine = said.get(id(frame))
            if mine:
                picked = sorted(i for child in {r[0] for r in mine} for i in at.get(child, ()))
                frame["text"] += say(
                    node,
                    self.names,
                    [tape[i] for i in picked],
                    [writes[i] for i in picked],
                    mine,
                    upstream,
                    grad,
                )

    def numeric_reruns(self) -> dict[Value, Locals]:
        """The local derivatives of the nodes whose op no table knows that some pass
        met, by re-runs of the calls that made them (`op_rerun`), detached."""
        assert self.replay is not None and self.op_calls
        wanted = {
            node
            for inputs in self.replay[1]
            for node, found in inputs[4].items()
            if found is None and node._prev
        }
        wanted.update(
            node for inputs in self.replay[1] for node in inputs[2] if node not in inputs[4]
        )
        if not wanted or self.machine is None:
            return {}
        instance_of = self.instance_of
        reruns = Reruns(
            self.state,
            self.machine.call_function,
            self.detach,
            lambda node: [instance_of[child] for child in node._prev],
        )
        return reruns.derivatives(self.op_calls, wanted)

    @contextmanager
    def detach(self) -> Iterator[None]:
        """The re-runs' switch: no nodes, no output, no write to a node (`Machine.detached`),
        and the statement bookkeeping they touch put back."""
        kept = (self.anchor, self._anchor_count, self.last, self._update, self._update_anchor)
        frames, count = len(self.frames), self.count
        # What the trace reads of the program once it has ended, put back as it was: the
        # names of its globals, and each node's own attributes (a label the written-in
        # fast path of a store sets without the machine's `set_attr`).
        names = dict(self.globals_)
        attrs = [(i, dict(i.attrs)) for i in self.instance_of.values() if type(i.attrs) is dict]
        self.state.charge(len(names) + len(attrs))
        self.detached = self.machine.detached = True
        try:
            yield
        finally:
            self.detached = self.machine.detached = False
            self.anchor, self._anchor_count, self.last, self._update, self._update_anchor = kept
            del self.frames[frames:]
            self.count = count
            _put_back(self.globals_, names)
            for instance, held in attrs:
                _put_back(instance.attrs, held)

    def replay_right(self, found: dict[Value, Locals]) -> None:
        """The right engine's passes again, from where it was before the first pass that
        met a node no table knows, with the derivatives the re-runs `found`."""
        assert self.replay is not None
        right, passes = self.replay
        for index, output, reachable, start, known, left_out, seed, touched in passes:
            for node, locals_ in known.items():
                if locals_ is None and node in found:
                    known[node] = (found[node], "numeric")
            right.touched = touched
            right.run_pass(index, output, reachable, start, known, left_out, seed)
        right.touched = self.right.touched
        self.right = right

    def finished(self, source: str, granularity: str, globals_: dict[str, Any]) -> dict[str, Any]:
        """The trace of the finished run (`finish`'s, its passes closed)."""
        if self.partial:
            self.pending.append((next(creation_order), self.partial.splitlines()[0]))
            self.partial = ""
        included: set[Value] = set(self.shown)  # every node some pass's output reached
        by_creation = sorted(included, key=_SEQ)
        if self.instance_of:
            self.sync_all(by_creation)
        self.ids = ids = {node: f"n{i}" for i, node in enumerate(by_creation)}
        groups = GroupNames(globals_)
        frames = self.frames_with_ids(ids, source)
        resumes = resumed_frames(frames) if self.resumed else None
        names, renamed = self.node_names(ids)
        last_output, last_topo, _ = self.passes[-1]
        last_topo_ids = [ids[node] for node in last_topo]
        several = (
            len(self.passes) > 1 or self.sort_writes or any(f["phase"] == "update" for f in frames)
        )
        check = None
        if self.right.pass_locals:
            # A program with its own Value class: where it parts from a right engine, read
            # off the frames as the recorder keeps them (their nodes, their rules' writes).
            pass_locals = self.right.pass_locals
            check = check_run(
                by_creation,
                frames,
                [output for output, _, _ in self.passes],
                [pass_locals.get(i, {}) for i in range(len(self.passes))],
                ids,
                self.rule_line,
                resumes,
                self.stale_frames,
                self.walk_faults,
                # (a graph whose operands were set again since its pass may reach others)
                {i for i, relinks in self.right_orders.items() if relinks == self.relinks},
                merged=self.merged,
                kept_on=self.kept_on,
                path_faults=self.path_faults,
                born=self.born_locals,
            )
            said = self.gradient_said()
            if said != "grad":
                check["grad"] = said  # its gradient's name, which the page's rows quote
        if self.said_later and not self.plain:
            # The page's encoding, made from the frames as they are (by each node's index):
            # the trace's ids, node dicts and contribution dicts are for schema 1 and 2.
            return self.columns(
                source,
                granularity,
                by_creation,
                ids,
                groups,
                names,
                renamed,
                frames,
                several,
                check,
            )
        self.frames_to_ids(frames, ids)
        if self.plain:
            return self.plain_trace(source, granularity, by_creation, ids, frames, names)
        trace: dict[str, Any] = {
            "schema": SCHEMA_TWO if several else SCHEMA_ONE,
            "source": source,
            "granularity": granularity,
            "nodes": self.node_dicts(by_creation, ids, groups, names),
            "edges": [
                {"source": ids[child], "target": target}
                for node in by_creation
                if node._prev
                for target in (ids[node],)
                for child in node._prev
            ],
            "topo": last_topo_ids,
            "output": ids[last_output],
            "frames": frames,
            "passes": [
                {
                    "output": ids[output],
                    # The last pass's order is the trace's `topo`: a copy, not a second lookup.
                    "topo": list(last_topo_ids) if topo is last_topo else [ids[n] for n in topo],
                    "data": float(data),
                    "names": pass_renamed,
                }
                | ({"backward": self.backward_code[i]} if i in self.backward_code else {})
                for i, ((output, topo, data), pass_renamed) in enumerate(
                    zip(self.passes, renamed, strict=True)
                )
            ],
            "ops": ops.page_facts({node._op for node in by_creation if node._prev}),
        }
        if self.mistake is not None:
            trace["mistake"] = self.mistake
            # Each pass's right gradients: a pass's frames compare with its own.
            for entry, found in zip(trace["passes"], self.pass_correct, strict=True):
                entry["correct_grads"] = {ids[node]: float(grad) for node, grad in found.items()}
        if check is not None:
            trace["engine_check"] = check
        return trace

    def columns(
        self,
        source: str,
        granularity: str,
        by_creation: list[Value],
        ids: dict[Value, str],
        groups: GroupNames,
        names: dict[Value, str],
        renamed: list[dict[str, str]],
        frames: list[dict[str, Any]],
        several: bool,
        check: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """A real program's trace in the page's columns encoding (`engine.trace.columns`:
        what `to_columns` makes of the trace `finish` writes otherwise, field for field),
        made from the recorder's own tables: every node by its index, the frames' nodes
        and rules' contributions as the recorder keeps them."""
        was_enabled = gc.isenabled()
        gc.disable()  # a few long lists and the frames' columns, none in a cycle
        try:
            order = {node: i for i, node in enumerate(by_creation)}
            edges = [
                i
                for node in by_creation
                if node._prev
                for target in (order[node],)
                for child in node._prev
                for i in (order[child], target)
            ]
            last_output, last_topo, _ = self.passes[-1]
            nodes = self.node_columns(by_creation, groups, names)
            out: dict[str, Any] = {
                "encoding": columns.ENCODING,
                "version": columns.VERSION,
                "schema": SCHEMA_TWO if several else SCHEMA_ONE,
                "source": source,
                "granularity": granularity,
                "nodes": nodes,
                "edges": edges,
                "topo": [order[node] for node in last_topo],
                "output": order[last_output],
                "passes": [
                    {
                        "output": order[output],
                        # The usual pass sorts what the trace's `topo` holds: null says so.
                        "topo": None
                        if topo is last_topo or topo == last_topo
                        else [order[node] for node in topo],
                        "data": float(data),
                        "names": pass_renamed,
                    }
                    | ({"backward": self.backward_code[i]} if i in self.backward_code else {})
                    for i, ((output, topo, data), pass_renamed) in enumerate(
                        zip(self.passes, renamed, strict=True)
                    )
                ],
                "ops": ops.page_facts({node._op for node in by_creation if node._prev}),
                "sentences": SENTENCES,
                "rules": columns.rules_of(nodes["op"]),
            }
            index = {node_id: i for i, node_id in enumerate(ids.values())}
            return columns.with_frames(
                out,
                frames,
                index,
                [names[node] for node in by_creation],
                {} if check is None else {"engine_check": check},
                order,
                self.changed_frames,
            )
        finally:
            if was_enabled:
                gc.enable()

    def rule_line(self, node: Value) -> int | None:
        """The line of a node's rule, as its trace node's `rule` says (`node_dicts`)."""
        instance = self.instance_of.get(node)
        if instance is None:
            return None
        rule = rule_lines(instance) or self.loop_lines.get(node)
        return rule["line"] if rule else None

    def frames_to_ids(self, frames: list[dict[str, Any]], ids: dict[Value, str]) -> None:
        """The frames as schema 1 and 2 write them: each node by its id, each rule's
        contributions as dicts (`engine_check.contribution_dicts`)."""
        assign = self.mistake == "assign"
        for frame in frames:
            node = frame.get("node")
            if node is not None:
                frame["node"] = ids[node]
                if frame["phase"] == "backward":
                    frame["contributions"] = contribution_dicts(frame["contributions"], ids, assign)

    def gradient_said(self) -> str:
        """The gradient's attribute as the program's own class writes it (`Shape.said`:
        `gradient`, `derivative`, `_grad`), the first pass's output's; `grad` for none."""
        for output, _, _ in self.passes:
            instance = self.instance_of.get(output)
            if instance is not None and instance.cls.shape is not None:
                return instance.cls.shape.said
        return "grad"

    def plain_trace(
        self,
        source: str,
        granularity: str,
        by_creation: list[Value],
        ids: dict[Value, str],
        frames: list[dict[str, Any]],
        names: dict[Value, str],
    ) -> dict[str, Any]:
        """A straight-line program's trace, or a Python-built graph's: schema 1's (SPEC
        §3), with its one pass (SPEC §11)."""
        output, topo, data = self.passes[0]
        trace: dict[str, Any] = {
            "schema": SCHEMA_ONE,
            "source": clean_text(source),
            "granularity": granularity,
            "nodes": self.node_dicts(by_creation, ids, GroupNames({}), names),
            "edges": [
                {"source": ids[child], "target": ids[node]}
                for node in by_creation
                for child in node._prev
            ],
            "topo": [ids[node] for node in topo],
            "output": ids[output],
            "frames": frames,
            "ops": ops.page_facts({node._op for node in by_creation if node._prev}),
        }
        if self.mistake is not None:
            trace["mistake"] = self.mistake
        trace["passes"] = [
            {"output": trace["output"], "topo": trace["topo"], "data": float(data), "names": {}}
        ]
        return trace

    def node_names(self, ids: dict[Value, str]) -> tuple[dict[Value, str], list[dict[str, str]]]:
        """Each node's name as the last pass that reaches it calls it, and per pass the
        nodes that pass's texts call otherwise (by id): a value named by its data."""
        final: dict[Value, str] = {}
        per_pass: list[dict[Value, str]] = []
        for (_, topo, _), (names, reachable) in zip(self.passes, self.pass_names, strict=True):
            # An engine pass reaches exactly the nodes it ran (the same list): one walk; a
            # program-class pass, mostly the same nodes: each once.
            nodes = topo if reachable is topo else dict.fromkeys(chain(reachable, topo))
            called = dict(zip(nodes, map(names, nodes), strict=True))
            per_pass.append(called)
            final.update(called)
        if len(final) < len(ids):  # nodes a learner's rule wrote that no output reaches
            names = self.names
            for node in ids:
                if node not in final:
                    final[node] = names(node)
        renamed = [
            {ids[node]: name for node, name in called.items() if name != final[node]}
            for called in per_pass
        ]
        return final, renamed

    def implicit_pass(self, globals_: dict[str, Any]) -> None:
        last = self.last
        if type(last) is Value:
            made = self.newest_engine_node() if self.alone(last) else None
            self.result_pass(last if made is None else made)
            if made is not None:
                self.say_alone(last, made)
            return
        if type(last) is PInstance and last.mirror is not None and not self.holder_pass:
            newest = self.newest_own_node() if self.alone(last.mirror) else None
            self.pass_of_no_rule(last if newest is None else newest)
            if newest is not None and newest.mirror is not None:
                self.say_alone(last.mirror, newest.mirror)
            return
        if self.unshaped is not None:
            if not self.holder_pass and holds_unit(self.unshaped, itself=True):
                raise HolderPass  # its units drawn as nodes, its gates' rules run by hand
            raise ProgramError(
                f"backward() was called on a {self.unshaped.cls.name}, which is not a graph "
                f"node here: {missing_part(self.unshaped.attrs)}",
                *(self.unshaped_at or (None, None)),
            )
        pulled = graph_pulled_backwards(globals_)
        if pulled is not None:
            node, field = pulled
            raise ProgramError(
                f"the program's {node.cls.name} objects each list the nodes made from them "
                f"({field}), and grad() pulls each gradient from those when asked: a graph, "
                "but not one drawn here. The trace follows each node to its operands: keep "
                "them on the node it makes (out._prev = (self, other)), with node.grad, and "
                "a backward() that pushes each node's gradient into its operands' grad"
            )
        unshaped = graph_without_gradients(globals_)
        if unshaped is not None:
            head = (
                f"the program's {unshaped.cls.name} objects hold a number and their operands, "
                f"a graph, but not one drawn here: {missing_part(unshaped.attrs)}. "
            )
            if not names_a_gradient(globals_, unshaped):
                raise ProgramError(
                    head + "Nothing in the program computes a gradient yet (no grad, no "
                    "backward()): a forward pass alone has no backward pass to draw. Give "
                    "each node a grad and a rule (out._backward) that adds into its operands' "
                    "grad, and call .backward() on the output"
                )
            raise ProgramError(
                head + "Gradients kept apart from the nodes (a dict a function of the "
                "program fills) are not traced: give each node its own gradient, node.grad, "
                "and a backward() that adds into it"
            )
        apart = graph_kept_apart(globals_)
        if apart is not None and carried_forward(apart[0], apart[2], globals_):
            value, number, gradient = apart
            raise ProgramError(
                f"the program's {value.cls.name} objects carry a derivative ({gradient}) "
                f"forward with their number ({number}): dual numbers, forward mode, which "
                "has no graph and no backward pass to draw. This traces reverse mode: keep "
                "each node's operands on the node it makes (out._prev = (self, other)), a "
                "grad, and call .backward() on the output"
            )
        if apart is not None:
            value, number, gradient = apart
            raise ProgramError(
                f"the program's {value.cls.name} objects hold a number ({number}) and a "
                f"gradient ({gradient}) but not their operands, and no backward() pass of "
                "them was seen: a graph kept elsewhere (records of objects on a tape, a "
                "pass of another name) is not drawn here (a list of `(node, inputs)` tuples "
                "is read as one). Keep each node's operands on the node it makes (out._prev "
                "= (self, other)) and call .backward() on the output"
            )
        keys = graph_of_dicts(globals_) if last is None else None
        if keys is not None:
            raise ProgramError(
                f"the program's nodes are dicts ({', '.join(map(repr, keys))}…): a graph, "
                "but not one drawn here. The trace reads a node as an object of a class of "
                "the program (class Value, with data, grad, _prev and _backward set on the "
                "node each op makes): make the nodes such objects and call .backward() on "
                "the output"
            )
        named = pass_of_another_shape(globals_) if last is None else None
        if named is not None:
            instance, method = named
            raise ProgramError(
                f"the program's {instance.cls.name} objects have a pass, {method}(), but are "
                f"no graph nodes here: {missing_part(instance.attrs)}. A node is read by its "
                "number (data, value…), its gradient (grad…) and its operands (_prev, "
                "_children…) or its rule (_backward…), set on the node it makes"
            )
        hidden = graph_in_functions(globals_)
        if hidden is not None:
            instance, number, rule = hidden
            raise ProgramError(
                f"the program's {instance.cls.name} objects hold a number ({number}) and a "
                f"function ({rule}), but no gradient of their own, and their operands only "
                "inside that function: a graph, but not one drawn here. The trace follows "
                "each node to its operands: keep them on the node it makes (out._prev = "
                "(self, other)), with node.grad, and a backward() that pushes each node's "
                "gradient into its operands' grad"
            )
        newest = self.newest_own_node()
        if newest is not None:
            self.pass_of_no_rule(newest)
            return
        made = self.newest_engine_node()
        if made is not None:
            self.engine_pass_of_no_rule(made)
            return
        unpassed = no_pass_reason(globals_)
        if unpassed is not None:
            raise ProgramError(unpassed)
        if last is None:
            raise ProgramError(NO_RESULT)
        raise ProgramError(
            "the program's result is not a Value. In a program with functions, loops, "
            "classes or other Python, numbers stay numbers (x = 2.0 is not a leaf): make "
            "inputs with Value(2.0) and call .backward() on the output"
        )

    def alone(self, node: Value) -> bool:
        """Whether the program's result `node` is a node alone: no operands, no node's
        operand (`d = V(5.0)` last, a gradient kept as a node, `a.grad = V(3.0)`). A
        program's graph beside it is what the learner means (`implicit_pass`)."""
        if node._prev:
            return False
        if self.unfilled:
            self.fill_operands()  # (the records of ops set after their nodes were made)
        nodes = self.owner_of.keys() | self.instance_of.keys()
        self.state.charge(1 + len(nodes) // ITEMS_PER_STEP)
        return not any(node in made._prev for made in nodes if made._prev)

    def say_alone(self, lone: Value, output: Value) -> None:
        """The last pass's sort frame says that its output is not the program's result,
        `lone`, a node alone, but the node with operands it made last."""
        index = len(self.passes) - 1
        sort = next(
            f
            for f in reversed(self.frames)
            if f["phase"] == "sort" and f["pass"] == index and f.get("step", "seed") == "seed"
        )
        text = sort["text"]
        if type(text) is not str:  # the page's own sentence (`Said`): the words here
            count = len(self.passes[index][1])
            text = narrate.sort_text(output, count, self.names)
        self.sync(lone)  # (of no pass: a node of the program's class, as it is now)
        name = self.names(lone)
        if name == self.names.data(lone):  # unlabelled, kept nowhere: named by its number
            name = f"a node of {name}"
        sort["text"] = text + narrate.alone_text(name, self.names(output))

    def newest_own_node(self) -> PInstance | None:
        """The program's own node made last that has operands (what a program making no
        pass and keeping no result built last: a test's graph), if any."""
        newest: PInstance | None = None
        seq = -1
        self.state.charge(1 + len(self.instance_of) // ITEMS_PER_STEP)
        for node, instance in self.instance_of.items():
            if node._prev and node._seq > seq:
                newest, seq = instance, node._seq
        return newest

    def newest_engine_node(self) -> Value | None:
        """The engine's Value with operands the program made last, if any."""
        instance_of = self.instance_of
        self.state.charge(1 + len(self.owner_of) // ITEMS_PER_STEP)
        made = [node for node in self.owner_of if node._prev and node not in instance_of]
        return max(made, key=_SEQ) if made else None

    def result_pass(self, output: Value) -> None:
        """The pass on the Value result of a program that calls no backward() (SPEC §2):
        the engine's, unless the program worked out gradients itself before it (a
        gradient written of a node the result reaches, not the result's own seed: `c.grad
        = 1.0; a.grad = b.data * c.grad; c`), whose gradients are then the program's, as
        CPython leaves them: a pass of no rule (`engine_pass_of_no_rule`). (A gradient
        set to 0, `x.grad = 0.0` before the result, is no gradient worked out: the
        engine's pass adds onto it as micrograd's `backward()` would.)"""
        written = {
            node
            for frame in self.frames
            if frame["phase"] == "update"
            for node, field, _, after in frame["changes"]
            if field == "grad" and node is not output and after != 0
        }
        if written and not written.isdisjoint(topological_order(output)):
            self.engine_pass_of_no_rule(output)
        else:
            self.engine_pass(output)

    def engine_pass_of_no_rule(self, output: Value) -> None:
        """A program of the engine's Values that calls no backward() and whose result is
        none (it works out the gradients itself, `a.grad = b.data * c.grad` last, or
        ends with no Value): one pass from the node it made last that runs no rule, as
        `pass_of_no_rule` for a class of the program's. (A mistaken engine runs no rule
        either: its gradients are the right ones.)"""
        index = len(self.passes)
        if self.rerun is not None:
            self.rerun.pass_starts(output, index, self.state.steps)
        reachable = topological_order(output)
        sort = self.begin_pass(output, reachable)
        sort["text"] = narrate.no_pass_text(
            len(reachable), self.names(output), _wrote_gradients(self.frames, set(reachable))
        )
        sort["changes"].append((output, "grad", output.grad, output.grad))
        # (kept as it is: an integer no float holds is refused at the line that wrote it,
        # `held_changes`, not float()ed here, an OverflowError out of the trace)
        self.no_rule_seeds[index] = output.grad
        self.sort_writes = True  # (the sort frame keeps its changes, as a hand pass's)
        if self.mistake is not None:
            found = {node: node.grad for node in reachable}
            self.correct.update(found)
            self.pass_correct.append(found)
        self.passes.append((output, [], output.data))
        self.pass_end = len(self.frames)
        if self.rerun is not None:
            self.rerun.pass_ends(reachable, index, self)

    def pass_of_no_rule(self, instance: PInstance) -> None:
        """A program of its own class that makes no pass and calls no rule (it works out
        the gradients itself, `a.grad = b.data * c.grad`, or never asks for them: a test
        of the forward pass): one pass from `instance`'s node that runs no rule, its
        sort frame saying so, the gradients the program wrote the update frames before
        it. The right engine starts it from the gradients the nodes had before the
        program first wrote one."""
        output = instance.mirror
        assert output is not None
        written: dict[Value, float] = {}
        for frame in self.frames:
            if frame["phase"] == "update":
                for node, field, before, _ in frame["changes"]:
                    if field == "grad" and node not in written:
                        written[node] = _as_float(before, field)  # (one set unseen: vars())
        reachable, sort = self.open_own_pass(instance, output)
        sort["text"] = narrate.no_pass_text(
            len(reachable), self.names(output), _wrote_gradients(self.frames, set(reachable))
        )
        self.sort_writes = True  # (`open_hand_pass`: the sort frame keeps its changes)
        seeded = self.no_rule_seeds[len(self.passes)] = float(output.grad)
        sort["changes"].append((output, "grad", seeded, seeded))
        start = {node: written.get(node, float(node.grad)) for node in reachable}
        self.right.touched.update(reachable)
        # A right engine starts where the program did: from the gradient it gave the
        # output (none, 0, where it never asks for gradients).
        self.close_own_pass(output, [], reachable, start, len(self.frames), seeded)

    def frames_with_ids(self, ids: dict[Value, str], source: str = "") -> list[dict[str, Any]]:
        """The frames as the trace has them (update frames that change nothing left out,
        their changes and the sort's by id, prints carried), but each frame's node and
        each rule's contributions as the recorder keeps them (`frames_to_ids`)."""
        frames = self.frames
        count = len(frames)
        phases = list(map(_PHASE, frames))
        carried: list[str] = []
        # The frames that keep `changes`, in order, for the columns' first data
        # (`columns._first_data`), which then walks these alone.
        changed: list[dict[str, Any]] = []
        self.changed_frames = changed
        last_pass = len(self.passes) - 1
        # A one-pass trace keeps schema 1's shape: its sort frame has no `changes`.
        one_pass = len(self.passes) == 1 and not self.sort_writes and "update" not in phases
        plain = self.plain
        printed = self.printed
        todo: Sequence[int] = range(count)
        if not plain:
            # Only these frames change here (found without a bytecode per frame): updates
            # and sorts, a frame after the last pass (the pass it belongs to is the last),
            # one with prints (kept its last field); and the frame after one left out,
            # which takes its prints (below). Nearly every frame is a build or a rule's.
            at = range(count)
            todo = sorted(
                {
                    *compress(at, map(_CHANGING.__contains__, phases)),
                    *compress(at, map(last_pass.__lt__, map(_PASS, frames))),
                    *(
                        compress(at, map(dict.__contains__, frames, repeat("prints")))
                        if printed
                        else ()
                    ),
                }
            )
        kept: list[bool] | None = None  # each frame's, once one is left out
        i, j, waiting = -1, 0, len(todo)
        while True:
            if carried and i + 1 < count:
                i += 1  # the next frame takes the prints of those left out
            elif j < waiting:
                i = todo[j]
            else:
                break
            while j < waiting and todo[j] <= i:
                j += 1
            frame = frames[i]
            phase = phases[i]
            if phase == "update" or (phase == "sort" and frame.get("step", "seed") == "seed"):
                # A write that changed nothing (zero_grad on zero gradients) is no change.
                changes = [
                    {"node": ids[node], "field": field, "before": float(b), "after": float(a)}
                    for node, field, b, a in held_changes(frame, ids, source)
                    if node in ids and (phase == "sort" or b != a)
                ]
                still = frame.pop("still", None)
                if phase == "update" and not changes:
                    carried.extend(frame.get("prints", ()))
                    if kept is None:
                        kept = [True] * count
                    kept[i] = False
                    continue
                frame["changes"] = changes
                if phase == "update":
                    frame["text"] = update_text(frame["text"], changes, self.still_text(still))
                if phase == "sort":
                    if one_pass:
                        del frame["changes"]
                    if plain:
                        del frame["node"]
                if "changes" in frame:
                    changed.append(frame)
            if plain:
                del frame["pass"]
            elif frame["pass"] > last_pass:
                frame["pass"] = last_pass
            if carried:
                frame["prints"] = carried + frame.get("prints", [])
                carried = []
            if printed and "prints" in frame:
                frame["prints"] = frame.pop("prints")  # keep it the frame's last field
        out = list(frames if kept is None else compress(frames, kept))
        leftover = carried + [text for _, text in self.pending]
        if leftover and out:
            out[-1]["prints"] = out[-1].get("prints", []) + leftover  # (last: a new key, or last)
        return out

    def still_text(self, still: list[tuple[Value, Any]] | None) -> str:
        """What an update frame says of the values it wrote without changing them:
        `1 stays as it was: its gradient is 0 (w2)`; "" for none."""
        if not still:
            return ""
        count = len(still)
        text = f"{count} {'stays as it was' if count == 1 else 'stay as they were'}"
        if all(grad == 0 for _, grad in still):
            shown = [self.names(node) for node, _ in still[:3]]
            more = f" and {count - 3} more" if count > 3 else ""
            why = "its gradient is 0" if count == 1 else "their gradients are 0"
            text += f": {why} ({', '.join(shown)}{more})"
        return text

    def node_dicts(
        self,
        by_creation: list[Value],
        ids: dict[Value, str],
        groups: GroupNames,
        names: dict[Value, str],
    ) -> list[dict[str, Any]]:
        instance_of = self.instance_of
        owner_of = self.owner_of
        right = self.right
        right_grads, unknown, numeric = right.grads, right.unknown, right.numeric
        not_required = right.not_required
        loop_lines = self.loop_lines
        correct = self.correct if self.mistake is not None else None
        plain = self.plain
        underflowed = self.underflowed
        engine_walked = self.engine_walked
        group_of: dict[int, str] = {}  # by the owner's id: the owners stay alive meanwhile
        spans: dict[tuple[int, int], dict[str, int]] = {}  # `rule_lines`, one dict a rule
        out: list[dict[str, Any]] = []
        append = out.append
        for node in by_creation:
            if node._prev:
                kind = "op"
            elif node._const and node not in instance_of:
                kind = "const"
            else:
                kind = "leaf"
            owner = owner_of.get(node)
            group = group_of.get(id(owner))
            if group is None:
                group = group_of[id(owner)] = groups.name(owner)
            label = clean_text(node.label) if node.label else node.label
            entry = {
                "id": ids[node],
                "label": label if not label or len(label) <= MAX_LABEL else cut_label(label),
                "name": names[node],
                "op": node._op,
                "kind": kind,
                "data": float(node.data),
                "grad": float(node.grad),
                "group": group,
            }
            if plain:
                del entry["group"]  # schema 1's nodes have no groups
            if node in underflowed:  # only then, so other nodes keep SPEC §3's fields
                entry["underflow"] = True
            if correct is not None:
                # A mistaken engine's trace: the right engine's gradient, to compare.
                entry["correct_grad"] = float(correct[node])
            instance = instance_of.get(node)
            if instance is not None:
                rule = rule_lines(instance, spans) or loop_lines.get(node)
                if rule is not None:
                    entry["rule"] = rule
                own_right = right_grads.get(node)
                if not_required and node in not_required:
                    entry["requires_grad"] = False  # no gradient owed: none computed
                elif own_right is not None and node not in unknown:
                    entry["correct_grad"] = float(own_right)
                    if node in numeric:
                        entry["reference"] = "numeric"
            elif engine_walked and node in right_grads and node not in unknown:
                entry["correct_grad"] = float(right_grads[node])  # (a walk by hand)
            append(entry)
        return out

    def node_columns(
        self, by_creation: list[Value], groups: GroupNames, names: dict[Value, str]
    ) -> dict[str, Any]:
        """The encoding's `nodes` of a real program (`columns._node_columns` of what
        `node_dicts` writes, field for field), in one walk of the nodes."""
        instance_of = self.instance_of
        right = self.right
        right_grads, unknown, numeric = right.grads, right.unknown, right.numeric
        loop_lines = self.loop_lines
        underflowed = self.underflowed
        # Each column is read off every node with `map` (no bytecode a node) where it can
        # be; only the nodes that need more (a label, a constant, an object of the
        # program's class) are walked, by index (`compress`).
        at = range(len(by_creation))
        operands = list(map(_PREV, by_creation))
        kinds = [2 if prev else 0 for prev in operands]  # `columns.KINDS`: "op", "leaf"
        for i in compress(at, map(_CONST, by_creation)):
            if not operands[i] and by_creation[i] not in instance_of:
                kinds[i] = 1  # "const"
        # A group by its owner (by id: the owners stay alive meanwhile), named once each.
        owners = list(map(self.owner_of.get, by_creation))
        keys = list(map(id, owners))
        group_of = {
            key: groups.name(owner) for key, owner in dict(zip(keys, owners, strict=True)).items()
        }
        labels = list(map(_LABEL, by_creation))
        for i in compress(at, labels):
            label = clean_text(labels[i])
            labels[i] = label if len(label) <= MAX_LABEL else cut_label(label)
        instances = list(map(instance_of.get, by_creation))
        spans: dict[tuple[int, int], dict[str, int]] = {}  # `rule_lines`, one dict a rule
        rule_column: list[dict[str, int] | None] = [None] * len(by_creation)
        correct_column: list[float | None] = [None] * len(by_creation)
        references: list[int] = []  # nodes whose right gradient is numeric
        unrequired: list[int] = []  # nodes that need no gradient, left out (`node_dicts`)
        not_required = right.not_required
        for i in compress(at, map(is_not, instances, repeat(None))):
            node, instance = by_creation[i], instances[i]
            assert instance is not None
            rule_column[i] = rule_lines(instance, spans) or loop_lines.get(node)
            own_right = right_grads.get(node)
            if not_required and node in not_required:
                unrequired.append(i)
            elif own_right is not None and node not in unknown:
                correct_column[i] = float(own_right)
                if node in numeric:
                    references.append(i)
        if self.engine_walked:  # the engine's own Values a walk by hand reached
            for i in compress(at, map(is_, instances, repeat(None))):
                node = by_creation[i]
                if node in right_grads and node not in unknown:
                    correct_column[i] = float(right_grads[node])
        more: dict[str, dict[str, Any]] = {}
        if underflowed or references or unrequired:
            flagged = compress(at, map(underflowed.__contains__, by_creation))
            for i in sorted({*flagged, *references, *unrequired}):
                extra: dict[str, Any] = {"underflow": True} if by_creation[i] in underflowed else {}
                if i in references:
                    extra["reference"] = "numeric"
                if i in unrequired:
                    extra["requires_grad"] = False
                more[str(i)] = extra
        out: dict[str, Any] = {
            "label": labels,
            "name": [
                None if name == label else name
                for name, label in zip(map(names.__getitem__, by_creation), labels, strict=True)
            ],
            "op": list(map(_OP, by_creation)),
            "kind": kinds,
            "data": list(map(float, map(_DATA, by_creation))),
            "grad": list(map(float, map(_GRAD, by_creation))),
            "group": list(map(group_of.__getitem__, keys)),
        }
        if any(map(is_not, rule_column, repeat(None))):
            out["rule"] = rule_column
        if any(map(is_not, correct_column, repeat(None))):
            out["correct_grad"] = correct_column
        if more:
            out["more"] = more
        return out


def held_op_class(holder: Any) -> PClass | None:
    """The op class of the record a node keeps of the op that made it (`Shape.held`): a
    class the record holds (`ctx.fn`, `(Mul, (a, b))`), else the record's own class
    where it is a subclass of one of the program's (`Mul(Function)`, `MulBackward(Node)`,
    not a `Context` of every op); None for any other. Bounded: a few of its attributes
    or items, read as they are."""
    cls: PClass | None = None
    if type(holder) is PInstance:
        values = islice(holder.attrs.values(), MAX_OPERANDS_LOOKED_AT)  # (not all of them)
        cls = next((v for v in values if type(v) is PClass), None)
        if cls is None and any(not base.builtin for base in holder.cls.mro[1:]):
            cls = holder.cls
    elif type(holder) is tuple or type(holder) is list:
        cls = next((v for v in holder[:MAX_OPERANDS_LOOKED_AT] if type(v) is PClass), None)
    return cls


def rule_lines(
    instance: PInstance, spans: dict[tuple[int, int], dict[str, int]] | None = None
) -> dict[str, int] | None:
    """Where a program-class node's own `_backward` is written: `{"line", "end_line"}`.

    The function it holds when the program ends (a `def` or `lambda` of the program,
    or a bound method of its class), else its class's method of that name; None for
    anything else (`None`, a built-in). `spans`: the dicts given so far, by the lines
    they hold, given again (every node an op makes has its own closure of one `def`).
    """
    shape = instance.cls.shape
    name = shape.rule if shape is not None else "_backward"
    rule = instance.attrs.get(name)
    if rule is None:  # a method of its class, one for every op (`if self._op == '+':`)
        rule = instance.cls.lookup(name)
    if type(rule) is BoundMethod:
        rule = rule.function
    if type(rule) is not Function or rule.span[0] <= 0:
        return None
    span = rule.span
    if spans is not None:
        lines = spans.get(span)
        if lines is None:
            lines = spans[span] = {"line": span[0], "end_line": span[1]}
        return lines
    return {"line": span[0], "end_line": span[1]}


class GroupNames:
    """The call path a node was made in: `MLP.layers[1].neurons[0]`, `neuron()`, or ``.

    An object's path is found from the program's global variables through attributes
    and list items, the root named by its class (the shortest path wins); an object not
    reachable that way is named by its class alone. A plain function call adds
    `name()` to the path of whatever called it.
    """

    def __init__(self, globals_: dict[str, Any], budget: int = NAMING_BUDGET) -> None:
        paths: dict[int, str] = {}
        queue: deque[tuple[PInstance, str]] = deque()
        for value in globals_.values():
            if type(value) is PInstance and value.mirror is None and id(value) not in paths:
                paths[id(value)] = value.cls.name
                queue.append((value, value.cls.name))
        # The walk looks at `budget` values at most: a program holding a million numbers
        # in a list attribute is not walked a million times over to name its neurons.
        while queue and budget > 0:
            obj, path = queue.popleft()
            for attr, value in obj.attrs.items():
                budget -= 1
                # (a key no string: `vars(obj)[1] = x`, the live `__dict__` written)
                if type(attr) is not str or len(path) + len(attr) >= MAX_PATH:
                    continue  # (the budget still counts it: a wide object is no cheaper)
                if type(value) is PInstance:
                    if value.mirror is None and id(value) not in paths:
                        paths[id(value)] = f"{path}.{attr}"
                        queue.append((value, f"{path}.{attr}"))
                elif type(value) in (list, tuple):
                    for i, child in enumerate(value[:budget]):
                        known = type(child) is not PInstance or id(child) in paths
                        if not known and child.mirror is None:
                            paths[id(child)] = f"{path}.{attr}[{i}]"
                            queue.append((child, f"{path}.{attr}[{i}]"))
                    budget -= len(value)
        self.paths = paths

    def name(self, owner: Any) -> str:
        if owner is None:
            return ""
        if type(owner) is tuple:
            parent, function = owner
            prefix = self.name(parent)
            return f"{prefix}.{function}()" if prefix else f"{function}()"
        return self.paths.get(id(owner)) or owner.cls.name


def moved_labels(reachable: list[Value]) -> set[Value]:
    """The labelled nodes whose variable took their label on to a node made from them:
    `loss` of `loss = loss + d*d` in a loop, each sum but the last (`x = x.tanh()`, `h =
    h * 2` too). Such a node is named as if it had no label (by where the program keeps
    it, else its operands, a leaf by its number), so that no node and its operand share
    a name (`loss.grad += 1` in `loss`'s own rule). The trace's `label` stays the name
    the node was first assigned to."""
    moved: set[Value] = set()
    for node in filter(_LABEL, reachable):
        label = node.label
        for child in node._prev:
            if child.label == label and child is not node:
                moved.add(child)
    return moved


def kept_names(
    globals_: dict[str, Any],
    reachable: list[Value],
    moved: Collection[Value] = (),
    budget: int = NAMING_BUDGET,
    charge: Callable[[int], None] = lambda steps: None,
) -> dict[Value, str]:
    """Where the program keeps the unlabelled values of a pass, as their names (issue 23):
    `layers[0].neurons[1].w[2]` for a parameter of `model = MLP(...)`, `w` for a global.

    The walk goes from the global variables through the attributes of the program's own
    objects and through lists, tuples and dicts (at most `budget` items), breadth first,
    so the shortest path wins; a path through an object wins over a bare global, which
    may be a loop's variable left on the last value it took. With one object at the root
    of every path, its variable is left out. Labelled values keep their labels. A
    tuple that holds a function of the program's (a tape's `(out, run)`) names none.

    The walk runs at each pass, and `charge` (the run's steps) is charged a step for
    every `ITEMS_PER_STEP` items it looked at: a global holding 200,000 numbers made
    each `b.backward()` of a two-node graph tens of milliseconds of walking for its 40
    steps, and 200 such passes 3 to 10 seconds of a 32,000-step run.
    """
    # Once per global of each pass that can hold a node: most globals are the program's
    # functions, classes and modules, passed over without a bytecode each (`compress`).
    # A program whose globals hold none (its values all in functions' locals) names none.
    holders = list(
        compress(globals_.items(), map(_HOLDERS.__contains__, map(type, globals_.values())))
    )
    if not holders:
        return {}
    wanted = set(map(id, filterfalse(_LABEL, reachable)))  # (the unlabelled)
    if moved:  # (and those whose label moved on: `moved_labels`)
        wanted.update(map(id, moved))
    if not wanted:
        return {}
    found: dict[int, tuple[Value, str]] = {}
    bare: dict[int, tuple[Value, str]] = {}
    seen: set[int] = set()
    queue: deque[tuple[Any, str]] = deque()
    roots: set[str] = set()
    for name, value in holders:
        kind = type(value)  # (the node of a Value or of an object with a mirror, no call)
        if kind is Value:
            node = value
        elif kind is PInstance and value.mirror is not None:
            node = value.mirror
        else:
            node = None
        if node is not None:
            if id(node) in wanted:
                bare.setdefault(id(node), (node, name))
        elif kind in (PInstance, list, tuple, dict) and id(value) not in seen:
            seen.add(id(value))
            queue.append((value, name))
    allowed = budget
    while queue and budget > 0:
        obj, path = queue.popleft()
        kind = type(obj)
        # Each item's step (`.w`, `['a']`, `[2]`) is written only where a path takes it:
        # most items are numbers, or nodes this pass does not want named.
        items: Any
        if kind is PInstance:
            items, step = obj.attrs.items(), ".{}"
        elif kind is dict:
            items, step = ((key, child) for key, child in obj.items() if type(key) is str), "[{!r}]"
        elif kind is tuple and any(type(item) is Function for item in obj):
            # A tape's entry, `(out, run)`: a node kept with its rule for backward(), not
            # where the program keeps it to use (`TAPE[3][0]`); named as if not kept.
            budget -= len(obj)
            continue
        else:
            items, step = enumerate(obj), "[{}]"
        for key, child in items:
            budget -= 1
            if budget <= 0:
                break
            if len(path) + (len(key) if type(key) is str else 0) >= MAX_PATH:
                continue
            held = type(child)
            if held is Value:  # the node it holds, as above: once per item walked
                node = child
            elif held is PInstance and child.mirror is not None:
                node = child.mirror
            else:
                node = None
            if node is not None:
                if id(node) in wanted and id(node) not in found:
                    found[id(node)] = (node, path + step.format(key))
                    roots.add(path.split(".", 1)[0].split("[", 1)[0])
            elif held in (PInstance, list, tuple, dict) and id(child) not in seen:
                seen.add(id(child))
                queue.append((child, path + step.format(key)))
    charge((allowed - budget) // ITEMS_PER_STEP)
    for key, entry in bare.items():
        found.setdefault(key, entry)
    one_root = len(roots) == 1 and (root := next(iter(roots)))
    names: dict[Value, str] = {}
    for node, path in found.values():
        if one_root and path.startswith(f"{root}.") and "." in path:
            path = path[len(root) + 1 :]
        names[node] = path
    return names


def repeated_operands(mirrors: list[Value], args: list[Any]) -> list[Value]:
    """A node's operands kept as a dict's keys (`{self: other.data, other: self.data}`),
    as the op's method that made it took them (`args`): where it was given the same node
    twice (`a * a`, one key), that node twice, in the method's order (the rule's writes
    are then judged against both shares: the dict kept one); else `mirrors` as they are.
    Bounded: the method's first 8 arguments, read as they are."""
    given = [arg.mirror for arg in args[:8] if type(arg) is PInstance and arg.mirror is not None]
    if len(given) > len(mirrors) and set(given) == set(mirrors):
        return given
    return mirrors


def merged_operands(
    mirrors: list[Value], args: list[Any] | None, kwargs: dict[str, Any] | None
) -> tuple[Value, ...] | None:
    """The constructor's tuple or list of operands (`Value(x, (self, other))`) where the
    node's set of them (`_prev = set(_children)`) holds fewer: the set merged an operand
    with another it holds, equal by the class's `__eq__` and `__hash__` (a class that
    hashes by value), as CPython's set does. None where no such tuple is given.

    Example: `x + y` of two nodes of equal data, `_prev == {x}`: `(x, y)`.
    """
    given: Iterable[Any] = args or ()
    if kwargs:
        given = [*given, *kwargs.values()]
    held: set[Value] | None = None
    for arg in given:
        kind = type(arg)
        # (a set merging some of them holds fewer than were given: most ops hold as many)
        if (kind is not tuple and kind is not list) or not len(mirrors) < len(arg) <= 8:
            continue
        ordered = []
        for item in arg:
            if type(item) is not PInstance or item.mirror is None:
                break
            ordered.append(item.mirror)
        else:
            if held is None:
                held = set(mirrors)
            if held < set(ordered):
                return tuple(ordered)
    return None


def merged_arguments(
    mirrors: list[Value], args: list[Any], shape: Shape | None
) -> tuple[Value, ...] | None:
    """The nodes an op's method was given (`self` and `other` of `__add__`, in its order)
    where the node's set of operands, set in that method (`out._prev = set([self,
    other])`), holds fewer: each one it lacks has the number of one it holds, as a class
    hashing by value merges them (`x * y` of two 6.0s keeps x). None where it lacks none,
    or lacks one of another number (an argument that is no operand: `gate` of `mix(self,
    other, gate)`). Bounded: the first 8 arguments, their numbers compared as they are
    (plain numbers only: no code of the program runs).

    Example: `x + y` of two 6.0s, `_prev == {x}`: `(x, y)`; of 6.0 and 5.0: None.
    """
    if shape is None:
        return None
    nodes = [arg for arg in args[:8] if type(arg) is PInstance and arg.mirror is not None]
    if len(nodes) <= len(mirrors):
        return None
    held = set(mirrors)
    given = [arg.mirror for arg in nodes]
    if not held < set(given):
        return None
    numbers = [arg.attrs.get(shape.number) for arg in nodes]
    if any(type(n) is not float and type(n) is not int for n in numbers):
        return None
    kept = {n for n, mirror in zip(numbers, given, strict=True) if mirror in held}
    if any(n not in kept for n, mirror in zip(numbers, given, strict=True) if mirror not in held):
        return None
    return tuple(given)


def graph_without_gradients(globals_: dict[str, Any]) -> PInstance | None:
    """An object the program's globals name that has a number and operands that are
    objects of its class (sidsite's `Variable(value, local_gradients)`) but is no graph
    node here, for a refusal that says what it lacks."""
    for value in globals_.values():
        if type(value) is not PInstance or value.mirror is not None:
            continue
        attrs = value.attrs
        if not any(name in attrs for name in NUMBER_NAMES):
            continue
        for name in OPERAND_NAMES:
            operands = attrs.get(name)
            if type(operands) is PSet:  # micrograd's `_prev = set(_children)`
                operands = list(islice(operands.items, MAX_OPERANDS_LOOKED_AT))
            elif type(operands) is dict:  # its keys: child → local derivative
                operands = list(islice(operands, MAX_OPERANDS_LOOKED_AT))
            if isinstance(operands, (tuple, list)) and any(
                _is_instance_of(operand, value) for operand in operands[:MAX_OPERANDS_LOOKED_AT]
            ):
                return value
    return None


def graph_in_functions(globals_: dict[str, Any]) -> tuple[PInstance, str, str] | None:
    """An object the program's globals name that holds a number and, under a rule's
    name (or a name of its own with `grad` or `backward` in it), a function of the
    program, but no gradient and no operands (breandan/picograd's `Var(val, grad_fn=lambda:
    [(self, 1.0), (other, 1.0)])`, its gradients a dict each node works out): the object,
    its number's name and its function's, for a refusal that says where the graph is.
    Bounded: the globals once, `MAX_KEYS_LOOKED_AT` attributes of each."""
    for value in globals_.values():
        if type(value) is not PInstance or value.mirror is not None:
            continue
        attrs = value.attrs
        number = next((name for name in NUMBER_NAMES if name in attrs), None)
        if number is None or any(name in attrs for name in (*GRAD_NAMES, *OPERAND_NAMES)):
            continue
        for name, held in islice(attrs.items(), MAX_KEYS_LOOKED_AT):
            if type(held) is Function and (
                name in RULE_NAMES or "grad" in name.lower() or "backward" in name.lower()
            ):
                return value, number, name
    return None


def names_a_gradient(globals_: dict[str, Any], node: PInstance) -> bool:
    """Whether a function of the program, global or a method along `node`'s class's MRO,
    has a gradient's name (`grad`, `backward`, `deriv`, `adjoint` in it): where none has,
    a graph without gradients is a tutorial's forward pass pasted alone (its `Value` with
    `_prev` and `_op`, before `grad`), not gradients kept apart (sidsite's
    `get_gradients`). Bounded: 4,096 globals, `MAX_KEYS_LOOKED_AT` names of each class."""
    functions = chain(
        islice(globals_.items(), 4096),
        *(
            islice(cls.namespace.items(), MAX_KEYS_LOOKED_AT)
            for cls in node.cls.mro
            if not cls.builtin
        ),
    )
    for name, held in functions:
        if type(held) is Function and any(part in name.lower() for part in GRADIENT_PARTS):
            return True
    return False


# Parts of a function's name that say it computes gradients (`names_a_gradient`)
GRADIENT_PARTS = ("grad", "backward", "deriv", "adjoint", "backprop")

MAX_OPERANDS_LOOKED_AT = 8
MAX_KEYS_LOOKED_AT = 64


def pass_of_another_shape(globals_: dict[str, Any]) -> tuple[PInstance, str] | None:
    """An object the program's globals name that holds a float and whose class of the
    program's defines a method named as a pass (`backpropagate()`: `RULE_WORDS`), where
    no global is a graph node here: for a refusal that says what its objects lack, where
    a program without one has no result to speak of."""
    found = None
    for value in globals_.values():
        if type(value) is Value or (type(value) is PInstance and value.mirror is not None):
            return None  # a graph of its own: the program has no result, as it says
        if found is not None or type(value) is not PInstance:
            continue
        if any(type(attr) is float for attr in value.attrs.values()):
            method = next(
                (
                    name
                    for cls in value.cls.mro
                    for name, member in cls.namespace.items()
                    if type(member) is Function and any(w in name.lower() for w in RULE_WORDS)
                ),
                None,
            )
            found = (value, method) if method is not None else None
    return found


def graph_of_dicts(globals_: dict[str, Any]) -> tuple[str, ...] | None:
    """The keys that make a dict the program's globals name a graph node of its own (a
    number, a gradient and operands or a rule: `{"data": 2.0, "grad": 0.0, "prev": (a, b),
    "back": ...}`), where no global is a graph node here: for a refusal that says why a
    graph of dicts is not drawn, where a program without one has no result to speak of."""
    found = None
    for value in islice(globals_.values(), 4096):
        if type(value) is Value or (type(value) is PInstance and value.mirror is not None):
            return None  # a graph of its own: the program has no result, as it says
        if found is not None or type(value) is not dict or len(value) > MAX_KEYS_LOOKED_AT:
            continue
        if any(type(key) is not str for key in value):
            continue  # (only a str key is looked up here: no key's `__eq__` of the program)
        number = next((name for name in NUMBER_NAMES if name in value), None)
        gradient = next((name for name in GRAD_NAMES if name in value), None)
        links = next((name for name in (*OPERAND_NAMES, *RULE_NAMES) if name in value), None)
        if number is not None and gradient is not None and links is not None:
            found = (number, gradient, links)
    return found


def carried_forward(value: PInstance, gradient: str, globals_: dict[str, Any]) -> bool:
    """Whether an object with a number and a gradient but no operands (`graph_kept_apart`)
    is a dual number of forward mode (`Num(value, derivative)`, `Dual(f, d)`): its
    "gradient" is named as a derivative is (`derivative`, `d`; a `grad` is a reverse
    mode's), its class and its bases of the program have no method named for a pass
    (`backward`, `backprop`: `RULE_WORDS`), and neither it nor the program's globals keep
    a list of the program's objects or of records holding one first (a tape: an adjoint
    course's `tape` of `Block`s, a Wengert list's `(out, inputs)`). Bounded by its
    classes' namespaces, its own attributes and 4,096 globals, each list's first item."""
    if gradient not in FORWARD_DERIVATIVE_NAMES:
        return False
    for item in chain(value.attrs.values(), islice(globals_.values(), 4096)):
        if type(item) is list and item:
            first = item[0]
            if (type(first) is tuple or type(first) is list) and first:
                first = first[0]
            if type(first) is PInstance:
                return False
    return not any(
        type(member) is Function and any(word in name.lower() for word in RULE_WORDS)
        for cls in value.cls.mro
        if not cls.builtin
        for name, member in cls.namespace.items()
        if type(name) is str
    )


# What a dual number of forward mode calls the derivative it carries (`carried_forward`)
FORWARD_DERIVATIVE_NAMES = ("derivative", "d")


def graph_kept_apart(globals_: dict[str, Any]) -> tuple[PInstance, str, str] | None:
    """An object the program's globals name that has a number and a gradient but no
    operands of its own (an adjoint course's `AdjFloat(val, adj)`, whose operands only a
    tape of `Block` objects keeps), with the names of its number and its gradient: for a
    refusal that says what is missing. Both hold numbers, and a class of the program's
    along its MRO defines an operator (`__add__`…) that would make the nodes: a record
    whose `d` is a dict, a list or a count is no node. (A look at a few objects: the
    first with a number and a gradient answers.)"""
    for value in islice((v for v in globals_.values() if type(v) is PInstance), 64):
        if value.mirror is not None:
            continue
        attrs = value.attrs
        number = next((name for name in NUMBER_NAMES if name in attrs), None)
        gradient = next((name for name in GRAD_NAMES if name in attrs), None)
        if number is None or gradient is None:
            continue
        if not (_a_number(attrs[number]) and _a_number(attrs[gradient])):
            continue
        if not any(
            name in cls.namespace for cls in value.cls.mro if not cls.builtin for name in OPERATORS
        ):
            continue
        if any(name in attrs for name in OPERAND_NAMES):
            return None  # (operands of its own: `graph_without_gradients`'s, or a leaf's)
        return value, number, gradient
    return None


# The operator methods that make a node of a class's objects (`graph_kept_apart`)
OPERATORS = (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__pow__", "__neg__",
)  # fmt: skip


def no_pass_reason(globals_: dict[str, Any]) -> str | None:
    """Why a program whose globals hold objects of its own Value-like class has no pass
    to draw, where no `backward()` ran, no rule was called by hand and no node was made
    of others (a program that made one runs, its hand-set gradients shown:
    `pass_of_no_rule`): a tutorial's first steps pasted alone (its class before `grad`
    and `_backward`, or leaves alone). None where no global is such an object.
    Bounded: 4,096 globals, each object's class's MRO.

    Example: `class Value` with `data` and `__add__` only, `d = a + b` -> "…hold a number
    (data) but neither a gradient nor their operands…".
    """
    for value in islice(globals_.values(), 4096):
        if type(value) is not PInstance:
            continue
        name = value.cls.name
        if value.mirror is not None:
            return (
                f"the program's {name} objects are graph nodes, but none was made from "
                "others by an operation and no backward() pass of them ran: there is no "
                "graph to draw. Combine them with operators (c = a * b) and call "
                ".backward() on the output"
            )
        attrs = value.attrs
        number = next((key for key in NUMBER_NAMES if key in attrs), None)
        if number is None or not _a_number(attrs[number]):
            continue
        if any(key in attrs for key in (*GRAD_NAMES, *OPERAND_NAMES, *RULE_NAMES)):
            continue
        if any(op in cls.namespace for cls in value.cls.mro if not cls.builtin for op in OPERATORS):
            return (
                f"the program's {name} objects hold a number ({number}) but neither a "
                "gradient nor their operands: what their operators make keeps nothing of how "
                "it was made, so there is no graph. Keep each node's operands on the node it "
                "makes (out._prev = (self, other)), a grad, and call .backward() on the output"
            )
    return None


def _a_number(value: Any) -> bool:
    return type(value) is float or type(value) is int


def graph_pulled_backwards(globals_: dict[str, Any]) -> tuple[PInstance, str] | None:
    """An object the program's globals name with a number, a `grad` method of its class,
    and a list of (local derivative, node made from it) pairs (a course's `Var` whose
    `grad()` sums `weight * var.grad()` over its children), and that list's attribute:
    for a refusal that says how its graph runs the other way."""
    for value in globals_.values():
        if type(value) is not PInstance or value.mirror is not None:
            continue
        attrs = value.attrs
        if "grad" in attrs or not any(name in attrs for name in NUMBER_NAMES):
            continue
        if type(value.cls.lookup("grad")) is not Function:
            continue
        for name in OPERAND_NAMES:
            pairs = attrs.get(name)
            if type(pairs) is list and any(
                type(pair) is tuple
                and len(pair) == 2
                and type(pair[1]) is PInstance
                and pair[1].cls is value.cls
                for pair in pairs[:MAX_OPERANDS_LOOKED_AT]
            ):
                return value, name
    return None


def _is_instance_of(operand: Any, node: PInstance) -> bool:
    """`operand` is, or pairs first, an object of `node`'s class (`(a, 1)` pairs too)."""
    if type(operand) is tuple and operand:
        operand = operand[0]
    return type(operand) is PInstance and operand.cls is node.cls


def resumed_frames(frames: list[dict[str, Any]]) -> dict[int, int]:
    """Each frame that goes on with an earlier run of the same rule (`RESUMES`, taken out
    of the frame here), by index: the index of that run's first frame."""
    index_of = {id(frame): i for i, frame in enumerate(frames)}
    found: dict[int, int] = {}
    for i, frame in enumerate(frames):
        first = frame.pop(RESUMES, None)
        if first is not None:
            found[i] = index_of[id(first)]
    return found


def update_text(statement: str, changes: list[dict[str, Any]], still: str = "") -> str:
    """`p.data += -0.05 * p.grad: 41 data values change`, `zero_grad(): 41 gradients set to 0`;
    `still` says what was written unchanged: `…: 40 data values change, 1 stays as it was:
    its gradient is 0 (w2)`."""
    parts = []
    for field, noun in (("grad", "gradient"), ("data", "data value")):
        mine = [c for c in changes if c["field"] == field]
        if not mine:
            continue
        one = len(mine) == 1
        plural = noun if one else noun + "s"
        if all(c["after"] == 0.0 for c in mine):
            parts.append(f"{len(mine)} {plural} set to 0")
        else:
            parts.append(f"{len(mine)} {plural} {'changes' if one else 'change'}")
    summary = " and ".join(parts)
    if still:
        summary += f", {still}"
    statement = statement.rstrip(":")
    return f"{statement}: {summary}" if statement else summary[:1].upper() + summary[1:]


def held_node(holder: PInstance) -> Any:
    """The node an operand's holder object keeps (AnuarTB/micrograd's `Operand(val=node,
    deriv=2.0)`, a `(node, local)` pair as an object): its one attribute that is a graph
    node, else None."""
    nodes = [v for v in holder.attrs.values() if type(v) is PInstance and v.mirror is not None]
    return nodes[0] if len(nodes) == 1 else None


def unheld_refusal(instance: PInstance) -> None:
    """Refuse a pass from a node whose class keeps its operands in a record of its op
    (`Shape.held`) that holds one, but no operands where they are looked for (`ctx.ins`):
    drawn, it would be a graph of one node, its gradients nowhere."""
    shape = instance.cls.shape
    if shape is None or not shape.held:
        return
    record = instance.attrs.get(shape.operands)
    if (type(record) is not PInstance or record.mirror is not None) and type(record) not in (
        tuple,
        list,
    ):
        return  # a leaf (None), or a function (`grad_fn` a closure)
    if held_operands(record) is not None:
        return
    raise ProgramError(
        f"backward() was called on a {instance.cls.name} whose {shape.operands} holds no "
        f"operands here: keep them in it as one of {', '.join(OPERAND_NAMES[:6])}… "
        f"({shape.operands}.parents = (a, b)), or as a tuple ((Mul, (a, b)))"
    )


def op_of_class(name: str) -> str | None:
    """The op an op class's name stands for: `Mul`, `MulBackward0`, `MulFunction`: `*`
    (the names `OP_OF_METHOD` knows, `mul`, `tanh`…, and the words an op is named by,
    `OP_WORDS`: a tutorial's `Multiply(Node)`, `Divide`, `Subtract`), else None."""
    key = name.lower()
    for suffix in ("backward0", "backward", "function", "fn", "op"):
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)]
            break
    return ops.OP_OF_METHOD.get(key) or OP_WORDS.get(key)


def function_op(attrs: dict[str, Any], charge: Callable[[int], None]) -> str:
    """The op a node that keeps none stands for, named by a function of the program's it
    keeps (`Node(func=mul, parents=[a, b])`, a DAG whose functions carry their own
    vector-Jacobian products, `mul.make_vjp`): the op its name stands for (`mul` `*`,
    `exp`: `op_of_class`), else "". Its attributes read as they are, a step for every
    `ITEMS_PER_STEP` of them."""
    charge(len(attrs) // ITEMS_PER_STEP)
    for value in attrs.values():
        if type(value) is Function and value.closure is not None:
            named = op_of_class(value.name)
            if named:
                return named
    return ""


def op_of_subclass(cls: PClass, making: bool) -> str:
    """The op a node class that is a subclass of another of the program's stands for
    (one class for each op: `Mul(Node)` `*`, `Sigmoid(Node)` `sigmoid`: `op_of_class`);
    where no method making the node names one (`making` false), a subclass of a node
    class (`Gaussian(Node)`) is an op of the program's own, its name; else ""."""
    bases = [base for base in cls.mro[1:] if not base.builtin]
    if not bases:
        return ""  # the node class itself (`Value`, `Tensor`)
    name = cls.name
    named = _OP_OF_SUBCLASS.get(name)
    if named is None:
        named = op_of_class(name) or ""
        if len(_OP_OF_SUBCLASS) < MAX_OP_NAMES and len(name) <= MAX_LABEL:
            _OP_OF_SUBCLASS[name] = named
    if named or making or all(base.shape is None for base in bases):
        return named
    return clean_text(cut_label(name))


def tape_output(holder: PInstance, charge: Callable[[int], None]) -> PInstance | None:
    """The node a tape of node objects ends with (`tape.nodes[-1]`, seeded by its
    `backward()`): of the nodes with operands that `holder` keeps in a list attribute,
    the newest; None where it keeps none. Bounded: `charge` pays for the items."""
    newest: PInstance | None = None
    seq = -1
    for value in holder.attrs.values():
        if type(value) is not list:
            continue
        charge(1 + len(value) // ITEMS_PER_STEP)
        for item in value:
            node = item.mirror if type(item) is PInstance else None
            if node is not None and node._prev and node._seq > seq:
                newest, seq = item, node._seq
    return newest


def kept_operands(
    holder: PInstance, made: PInstance, seq: int, charge: Callable[[int], None]
) -> list[Value]:
    """The nodes `holder` keeps as attributes, a tuple's or list's items too, that are
    older than `seq` (`made`, the node they are the operands of, left out), in the
    order of its attributes (`Recorder.fill_holders`, `own_operands`). Bounded:
    `charge` pays for the attributes and items looked at."""
    attrs = holder.attrs
    charge(1 + len(attrs) // ITEMS_PER_STEP)
    return older_nodes(attrs.values(), made, seq, charge)


def older_nodes(
    values: Iterable[Any], made: PInstance, seq: int, charge: Callable[[int], None]
) -> list[Value]:
    """The nodes among `values`, a tuple's or list's items too, that are older than `seq`
    (`made` left out), in their order (`kept_operands`, `Recorder.fill_closures`)."""
    operands: list[Value] = []
    for value in values:
        kind = type(value)
        items = value if kind is tuple or kind is list else (value,)
        if len(items) > 1:
            charge(len(items) // ITEMS_PER_STEP)
        for item in items:
            if type(item) is not PInstance or item is made:
                continue
            node = item.mirror
            if node is not None and node._seq < seq:
                operands.append(node)
    return operands


def is_tape(value: Any) -> bool:
    """Whether `value` is a Wengert list (`fill_records`): a list whose first item is a
    record, a tuple or list of two items or more whose first is a node."""
    if type(value) is not list or not value:
        return False
    first = value[0]
    return (
        (type(first) is tuple or type(first) is list)
        and len(first) > 1
        and type(first[0]) is PInstance
        and first[0].mirror is not None
    )


def record_operands(record: Sequence[Any], seq: int, charge: Callable[[int], None]) -> list[Value]:
    """The operands a Wengert list's record gives its first item (`fill_records`): the
    nodes older than `seq` among its other items, each a node or a tuple or list of
    nodes or of `(node, local)` pairs, in order; none where an item holds a node that
    is not older (no cycle can come of it). Bounded: `charge` pays for the items."""
    operands: list[Value] = []
    for item in record[1:MAX_OPERANDS_LOOKED_AT]:
        kind = type(item)
        items = item if kind is tuple or kind is list else (item,)
        if len(items) > ITEMS_PER_STEP:
            charge(len(items) // ITEMS_PER_STEP)
        for entry in items:
            if type(entry) is tuple or type(entry) is list:
                entry = entry[0] if entry else None
            if type(entry) is not PInstance or entry.mirror is None:
                continue
            if entry.mirror._seq >= seq:
                return []
            operands.append(entry.mirror)
    return operands


def holder_op(name: str) -> str:
    """The op of a node an object of class `name` made and keeps with its operands
    (`Recorder.fill_holders`): the op the class's name stands for, a `Gate`, `Node` or
    `Op` ending left off (`MultiplyGate` `*`, `AddGate` `+`, `SigmoidGate` `sigmoid`,
    `MulGate` `*`: `op_of_class`, or a word of `OP_WORDS`), else the class's name."""
    key = name.lower()
    for suffix in ("gate", "node", "op"):
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)].rstrip("_")
            break
    known = op_of_class(key) or OP_WORDS.get(key)
    return known if known is not None else clean_text(cut_label(name))


def enum_op_name(op: Any) -> str:
    """An op kept as an Enum member (`Op.ADD`), named as a learner reads it: the member's
    value where it is a string (`'+'`, `'ADD'`), else its name; "" for any other object."""
    if type(op) is not PInstance or not any(ENUM_KEY in base.namespace for base in op.cls.mro):
        return ""
    value, name = op.attrs.get("value"), op.attrs.get("name")
    text = value if type(value) is str else name
    return clean_text(cut_label(text)) if type(text) is str else ""


def cut_label(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def check_number(data: Any, what: str) -> None:
    if type(data) not in (int, float, bool):
        raise ProgramError(f"{what}: a node's data must be a number")
    if type(data) is int and not -MAX_INT <= data <= MAX_INT:
        raise ProgramError(f"{what}: this integer is larger than 2**63")
    if type(data) is float and not math.isfinite(data):
        raise not_finite(what, data)


def not_finite(what: str, data: float) -> ProgramError:
    return ProgramError(not_finite_reason(what, data))


def own_order_fault(
    order: list[Value],
    reachable: list[Value],
    output: Value,
    kept_on: dict[Value, tuple[Value, int]] | None = None,
) -> tuple[Value, Value | None, int] | None:
    """Where the order a learner's backward() ran its rules in (`order`, one entry per
    run) is not a right one, by the rule of the check's sort row (`engine_check.
    order_fault`): (node, the first made of its consumers still waiting, 1), (node,
    None, its runs) for a rule that ran again, (node, None, 0) for one that never ran;
    None where it is right. A node whose rule is kept on an operand (`kept_on`) has no
    rule of its own to order: its op's row names it."""
    # `is_op` is read as a truth value: a node's operands are one (no call of ours per node).
    is_op: Callable[[Value], Any] = _PREV
    if kept_on:
        is_op = partial(_own_rule, kept_on)
    fault = order_fault(order, reachable, _PREV, is_op, output, _SEQ)
    return None if fault is None else fault[1:]


def _own_rule(kept_on: dict[Value, tuple[Value, int]], node: Value) -> bool:
    return bool(node._prev) and node not in kept_on


def depth_first(order: list[Value], reachable: list[Value], output: Value) -> bool:
    """Whether `order`, the nodes in the order their rules ran (each once, a right
    order), is a depth-first sort's walked backwards: the reverse of the post-order
    a recursive `build_topo` from `output` appends, over each node's children in
    operand order (`reachable`, `topological_order`) or in the reverse of it (an
    explicit stack that pushes them in order), both over the nodes whose rules ran
    (a backward() may skip the leaves'). Else the sort frame does not say depth-first:
    Kahn's algorithm, a breadth-first order, an order of the program's own."""
    ran = set(order)
    reached = set(reachable)
    walked = list(filter(reached.__contains__, reversed(order)))
    if list(filter(ran.__contains__, reachable)) == walked:
        return True
    post: list[Value] = []
    visited = {output}
    # Each entry's iterator goes on where it stopped (`topological_order`'s walk).
    stack: list[tuple[Value, Iterator[Value]]] = [(output, reversed(output._prev))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if child not in visited:
                visited.add(child)
                stack.append((child, reversed(child._prev)))
                break
        else:
            stack.pop()
            if node in ran:
                post.append(node)
    return post == walked


def _times_upstream(local: float, upstream: float, added: float, rounding: float) -> bool:
    """Whether a write added `local` times the rule's own node's gradient, within the
    rounding of the write's own sum (`rounding`: a tiny share added to a large gradient
    keeps few of its digits in `after - before`)."""
    product = local * upstream
    if product == added and -INF < product < INF:
        return True  # the usual write: no difference to weigh
    return abs(product - added) <= 1e-9 * max(abs(product), abs(added), 1e-300) + rounding


INF = math.inf
# A program-class rule's contributions where it wrote nothing (`own_rule_frame`): no
# upstream gradient, no `+=`, no writes, none lost; shared, as nothing changes them.
NO_WRITES: tuple[float, tuple[()], tuple[()], None] = (0.0, (), (), None)
# `register_instance`'s name of each op string met so far, in every trace of this
# process: a class's ops are few, but a program may make an op of any string (hence
# the bound, and only short ones: a long string is not kept alive after its trace).
_OP_NAMES: dict[str, str] = {}
_OP_OF_SUBCLASS: dict[str, str] = {}  # `op_of_subclass`, by class name
MAX_OP_NAMES = 256


def _drawn_grad(node: Value) -> float:
    return float(node.grad)


# The ints a float holds (`float(2**1024)` overflows): `Recorder.left_grad`.
MAX_FLOAT_INT = 2**1023


def sync_mirror(instance: PInstance, node: Value) -> None:
    """Copy `instance`'s data, grad and label onto `node`, its mirror (`Recorder.sync`;
    a label of `'None'` is none):
    a finite float, the usual case, taken without `as_number`'s call. Once per node of
    each pass and once per rule run, so the instance comes with it where the caller has
    it (`user_rule`), not looked up again."""
    attrs = instance.attrs
    shape = instance.cls.shape
    assert shape is not None
    data = attrs.get(shape.number)
    # A finite float (`x - x` is 0.0 for each, NaN for inf and NaN): fewer bytecodes
    # than `-INF < x < INF`, at every node of every pass and every rule run.
    if type(data) is not float or data - data:
        data = as_number(data, "data")
    node.data = data
    grad = attrs.get(shape.grad)
    if type(grad) is not float or grad - grad:
        grad = as_number(grad, "grad")
    node.grad = grad
    label = attrs.get("label")
    # `label='None'`, a class's default for no label (a placeholder, not a name: "None =
    # a*b" reads as Python's None), is no label: the node is named as unlabelled ones are.
    if type(label) is str and label and label != "None":
        node.label = label


def as_number(value: Any, field: str) -> float:
    """A node's `.data` or `.grad` as the trace keeps it: a finite float."""
    if type(value) is float and -INF < value < INF:
        return value  # nearly every one: nothing to check or convert
    if value is None and field == "grad":
        return 0.0  # no gradient yet (`self.grad = None`, as PyTorch has it): drawn as 0
    if type(value) is complex:
        # `(1 - b) ** a` with 1 - b < 0 (a `__rsub__` that forgot its sign, say): Python
        # makes a negative number to a fractional power complex, and carries on.
        raise ProgramError(
            f"a node's .{field} is the complex number {value!r}: a negative number to a "
            "fractional power is complex in Python, and only real numbers are traced"
        )
    if type(value) is PInstance and field == "grad" and value.cls.shape is not None:
        # A gradient kept as a node of the program's own class, as Grokking Deep
        # Learning's `Tensor` keeps it (`grad = Tensor(1)`, `self.grad += grad`): its
        # number is its own number (not a node's again: that would have no end).
        value = value.attrs.get(value.cls.shape.number)
    if type(value) not in (int, float, bool):
        raise ProgramError(f"a node's .{field} must be a number to be traced")
    number = _as_float(value, field)
    if not math.isfinite(number):
        raise ProgramError(
            f"a node's .{field} is not a finite number ({number}); strict JSON has no inf or nan"
        )
    return number


def _as_float(value: int | float | bool, field: str) -> float:
    """`float(value)`, an integer no float holds (`a.grad = 10**400`, which CPython keeps
    as it is) refused with a sentence, as a number that is not finite is."""
    try:
        return float(value)
    except OverflowError:
        bits = int(value).bit_length()
        raise ProgramError(
            f"a node's .{field} is an integer too large for a float (of {bits:,} bits); the "
            "trace holds floats"
        ) from None


def held_changes(
    frame: dict[str, Any], ids: dict[Value, str], source: str
) -> list[tuple[Value, str, Any, Any]]:
    """A frame's changes, each number of a node in the trace (`ids`) one a float holds: an
    integer none holds (`a.grad = 10**400`, kept as it is by CPython) is refused at the
    frame's statement, in `source`."""
    changes: list[tuple[Value, str, Any, Any]] = frame["changes"]
    for node, field, before, after in changes:
        if (type(before) is int or type(after) is int) and node in ids:
            try:
                float(before), float(after)
            except OverflowError:
                big = before if type(before) is int and abs(before) > abs(after) else after
                line = frame.get("line")
                # (by the line ends CPython counts: a string's U+2028 is none)
                lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
                text = lines[line - 1] if line and line <= len(lines) else ""
                raise ProgramError(
                    f"a node's .{field} is an integer too large for a float (of "
                    f"{big.bit_length():,} bits); the trace holds floats",
                    line,
                    len(text) - len(text.lstrip()) + 1 if line else None,
                ) from None
    return changes


def _put_back(now: dict[str, Any], was: dict[str, Any]) -> None:
    """`now` as `was` again, where anything was bound, rebound or unbound since (by
    identity: a program's `__eq__` runs no code here)."""
    if len(now) != len(was) or any(now.get(key, was) is not value for key, value in was.items()):
        now.clear()
        now.update(was)


class HandPass(BaseException):
    """A run with no pass called node rules by hand: it is run again with `hand_pass`.
    Not an `Exception`, so no statement or handler of the program can catch it."""


class StepPass(HandPass):
    """A run whose backward() ran its own node's rule alone, then was called on that
    node's operand (`Recorder.one_step_before`): it is run again with `hand_pass`, calls
    of that backward() (`spans`) calls like another (`Recorder.step_spans`)."""

    def __init__(self, span: tuple[int, int]) -> None:
        super().__init__()
        self.spans = frozenset({span})


def _pass_how(code: Any, free: bool, holder: str | None) -> str | None:
    """How a pass running the program's function `code` was called, where it is no
    `o.backward()` (`narrate.pass_call`'s words): `backprop({own})`, `{operand}.backprop()`,
    `the Tape's backward()`."""
    if type(code) is BoundMethod:
        code = code.function
    if type(code) is not Function or (code.name == "backward" and not (free or holder)):
        return None
    if holder is not None:
        return f"the {holder}'s {code.name}()"
    return f"{code.name}({{own}})" if free else f"{{operand}}.{code.name}()"


def _span_of(code: Any) -> tuple[int, int] | None:
    """The lines of the program's function a pass runs (`user_pass`'s `code`), or None."""
    if type(code) is BoundMethod:
        code = code.function
    return code.span if type(code) is Function and code.span[0] > 0 else None


class HolderPass(HandPass):
    """A run with no pass called `backward()` on objects that are no nodes but keep
    objects holding a number and a gradient (the "Hacker's guide" gates and units): it
    is run again with `holder_pass` (`Recorder.hold_units`)."""


class PassReached(BaseException):
    """A re-run reached the pass it was run for: it stops there (`Rerun.pass_starts`).
    Not an `Exception`, so no statement or handler of the program can catch it."""


class Rerun:
    """What the gradient check asks of one run of a program (SPEC §13).

    The first run numbers every node as it is made (`numbers`), keeps each pass's leaf
    gradients (`grads`) and when each pass started, and when each write to a node's
    data happened (`writes`, on the clock that numbers nodes, `_seq`). A re-run moves
    the leaf numbered `target` by `by` at the point where pass `at_pass` first reads
    it: when it is made, or as the `after_writes`-th write to its data stores (the
    last write before that read), and stops as pass `at_pass` starts, keeping its
    output's data (`reached`): its work is the first run's steps until then (`steps_at`).
    Up to the move, a re-run is the first run again.
    """

    def __init__(
        self, target: int = -1, by: float = 0.0, at_pass: int = -1, after_writes: int = 0
    ) -> None:
        self.first = target < 0
        self.numbers: dict[Value, int] = {}
        self.grads: list[dict[Value, float]] = []
        self.starts: list[int] = []
        self.writes: dict[Value, list[int]] = {}
        self.steps_at: list[int] = []  # the first run's interpreter steps as each pass starts
        self.target = target
        self.by = by
        self.at_pass = at_pass
        self.after_writes = after_writes
        self.node: Value | None = None
        self.written = 0
        self.reached: float | None = None
        self.steps = 0  # the interpreter steps the run took (`engine.run.trace_program`)

    def forget(self) -> None:
        """Before the first run runs again (`HandPass`): what it kept, counted anew."""
        assert self.first
        self.numbers.clear()
        self.grads.clear()
        self.starts.clear()
        self.writes.clear()
        self.steps_at.clear()

    def made(self, node: Value, number: int, recorder: Recorder) -> None:
        if self.first:
            self.numbers[node] = number
        elif number == self.target:
            self.node = node
            if self.after_writes == 0:
                # A node of the program's own class is moved once its `__init__` is
                # done (`register_instance` calls this then), through its attribute.
                recorder.move(node, self.by)

    def wrote(self, node: Value, after: Any) -> Any:
        """A write of `after` to `node.data`: the value to store."""
        if self.first:
            self.writes.setdefault(node, []).append(next(creation_order))
        elif node is self.node:
            self.written += 1
            if self.written == self.after_writes:
                return as_number(after, "data") + self.by
        return after

    def pass_starts(self, output: Value, index: int, steps: int) -> None:
        if self.first:
            self.starts.append(next(creation_order))
            self.steps_at.append(steps)
        elif index == self.at_pass:
            self.reached = float(output.data)
            raise PassReached

    def pass_ends(
        self, nodes: list[Value], index: int, recorder: Recorder, now: bool = False
    ) -> None:
        """Pass `index` ended (`now`: just now, what its nodes hold read as it is): its
        leaves' gradients, kept by the first run."""
        if self.first:
            grad = recorder.left_grad if now else _drawn_grad
            self.grads.append({node: grad(node) for node in nodes if not node._prev})

    def writes_before_read(
        self, leaf: Value, parents: list[Value], pass_index: int, lazy: bool = False
    ) -> int:
        """How many writes to `leaf.data` come before pass `pass_index` first reads it:
        when the first of its `parents` in that pass is made (or the pass starts). With
        `lazy` (a run of `holder_pass`, where a tape's `forward()` works out each node's
        number after the node is made), a parent reads it when its own number was last
        written before the pass, or when it was made if never."""
        start = self.starts[pass_index]
        if lazy:
            reads = []
            for parent in parents:
                written = self.writes.get(parent, [])
                before = bisect_right(written, start)
                reads.append(written[before - 1] if before else parent._seq)
            first_read = min(reads, default=start)
        else:
            first_read = min((parent._seq for parent in parents), default=start)
        return bisect_right(self.writes.get(leaf, []), first_read)
