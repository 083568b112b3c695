"""Check your engine (SPEC §14): where a learner's own Value class parts from a right one.

`check_engine` reads a finished trace (its frames as the learner's rules wrote them) and
the right engine's local derivatives for each pass (`engine.lab.right_engine`), and answers
three questions, each with the first frame where the answer is no:

- `rules`: for every op of the learner's class used in the graph, whether the factor
  each rule multiplied the upstream gradient by (read off the code, or the write's
  delta over the upstream gradient) is the right local derivative on every use, within
  1e-6 relative. `unchecked` where no use could be checked (an op neither the registry
  nor the numeric table knows and no re-run of its call differentiated, `op_rerun`,
  an upstream gradient of 0 with a factor not read off the code, or a rule that wrote
  nothing while its backward()'s loop wrote its children's gradients: `_loop_wrote`).
- `sort`: whether every rule of an op node ran once, after the rules of all of its
  consumers in the same pass (`consumer` names one still waiting; None where the
  rule ran twice or never), and no rule of a node of an earlier pass's graph that the
  pass's output does not reach (a tape nothing cleared: `pass` and `line` name it).
- `accumulation`: whether a child written twice kept both contributions: an `=` that
  found a gradient already there lost it, in a rule or in the pass's own loop between
  two rules (`_overwritten`).

A trace of the built-in engine (no class of the program's own) is answered all right,
but for a walk of its Values by hand (`v._backward()` called by the program), which is
checked as a learner's class's (`Recorder.engine_rule`).

Example (`=` in `__mul__`, `a = Value(2.0); b = Value(3.0); d = a * b + a`):
`{"rules": [{"op": "*", "verdict": "right", …}, {"op": "+", …}], "sort": {"verdict":
"right", "first": None}, "accumulation": {"verdict": "wrong", "first": {"frame": 4,
"node": "n2", "child": "n0", "lost": 1.0}}}`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from functools import partial
from itertools import compress
from operator import itemgetter
from typing import Any, TypeVar

from backprop_animator.engine.lab.right_engine import (
    ROUNDING,
    Locals,
    agrees,
    numeric_rounding,
    right_locals,
    row_op,
    sum_rounding,
    worded_power,
)
from backprop_animator.engine.ops import op_key
from backprop_animator.engine.trace.sentences import SAID
from backprop_animator.engine.value import Value

N = TypeVar("N", bound=Hashable)  # a node: a trace id, or a Value (`order_fault`)
_PHASE = itemgetter("phase")


def check_engine(trace: dict[str, Any]) -> dict[str, Any]:
    """The answer of `POST /api/enginecheck` for a trace of the built-in engine (no class
    of the program's own): every op right. A program's own class is checked as its trace
    is written (`check_run`)."""
    ops = sorted({op_key(node["op"]) for node in trace["nodes"] if node["kind"] == "op"})
    return {
        "rules": [{"op": op, "line": None, "verdict": "right", "first": None} for op in ops],
        "sort": {"verdict": "right", "first": None},
        "accumulation": {"verdict": "right", "first": None},
    }


# A backward frame's contributions as the recorder keeps them until the trace is written:
# (upstream, tape, writes, lost): the tape's (child, local, delta, before) per write, and
# for a rule of the program's own class its writes' (write, line, factor read, after);
# None for the built-in engine's rule, whose `lost` lists the writes lost to underflow.
Raw = tuple[float, Sequence[tuple[Value, float, float, float]], Any, Any]


def contribution_dicts(
    raw: Raw, ids: dict[Value, str] | None, assign: bool = False
) -> list[dict[str, Any]]:
    """A rule's contributions as the trace writes them (SPEC §3, §14), each child by its id
    in `ids` (None: the child itself, as `check_run` reads them). `assign`: the bug lab's
    `=` leaves the delta alone (SPEC §8)."""
    upstream, tape, writes, lost = raw
    if writes is None:
        contributions = [
            {
                "to": child if ids is None else ids[child],
                "local": float(local),
                "upstream": upstream,
                "delta": float(delta),
                "before": float(before),
                "after": float(delta if assign else before + delta),
            }
            for child, local, delta, before in tape
        ]
        for index in lost or ():
            contributions[index]["underflow"] = True
        return contributions
    # A program-class rule: as the learner's code wrote it (SPEC §14).
    contributions = [
        {
            "to": child if ids is None else ids[child],
            "local": read,
            "upstream": upstream,
            "delta": delta,
            "before": before,
            "after": after,
            "write": write,
            "line": line,
        }
        for (child, _, delta, before), (write, line, read, after) in zip(tape, writes, strict=True)
    ]
    for index, entry in enumerate(writes):
        if entry[0] == "-=":  # SPEC §14 has two writes: `+=` (it adds)
            contributions[index]["write"] = "+="
            contributions[index]["subtracts"] = True
    return contributions


def check_run(
    nodes: list[Value],
    frames: list[dict[str, Any]],
    outputs: list[Value],
    right: list[dict[Value, Locals | None]],
    ids: dict[Value, str],
    rule_line: Callable[[Value], int | None],
    resumes: dict[int, int] | None = None,
    stale_frames: dict[int, int] | None = None,
    walk_faults: dict[int, Value] | None = None,
    right_orders: Collection[int] = (),
    merged: dict[Value, tuple[Value, ...]] | None = None,
    kept_on: dict[Value, tuple[Value, int]] | None = None,
    path_faults: dict[int, PathFault] | None = None,
    born: Callable[[Value], Locals | None] | None = None,
) -> dict[str, Any]:
    """Where a program's own Value class parts from a right engine, read off the
    recorder's own tables as its trace is written: `nodes` every node of the trace in the
    order they were made (their operands as the trace's edges), `frames` the trace's
    frames with their nodes and their rules' contributions as the recorder keeps them
    (`Raw`), `outputs` each pass's output, `right` the right engine's locals of each
    pass (`engine.lab.right_engine`), `ids` each node's id in the answer, `rule_line` the
    line of a node's rule. `resumes`: the backward frames that go on with an earlier
    frame's run of the same rule (a rule that ran other nodes' rules between its writes),
    by index, each with the index of that run's first frame: a run is checked as one
    rule, at its first frame. `stale_frames`: the frames (by the id of the frame dict) of
    the runs of a rule of an earlier pass's node that the running pass's output does not
    reach, each with the pass that first reached the node (`Recorder.stale_pass`, the one
    place such a rule is found: the frames' words and this row say the same rules).
    `walk_faults`: the sort frames (by the id of the frame dict) of passes whose
    backward() wrote every gradient itself (no rule ran) and left one that parts from
    the right engine's, each with the node it names (`Recorder.judge_own_writes`).
    `right_orders`: passes whose order of rules the recorder found right already
    (`order_fault` of the very order and graph this would look at, `Recorder.user_pass`),
    not looked at again. `merged`: the nodes whose set of operands merged two the op was
    given (a class that hashes by value), each with the operands as the op took them
    (`recorder.merged_operands`): the op's row is wrong where that lost a rule (`_merge_lost`).
    `kept_on`: the nodes whose rule was set on one of their operands (`self.backward_fn =
    fn` in `__mul__`), each with that operand and the line: the op's row is wrong there
    (`_kept_elsewhere`), and the sort orders no rule of such a node. `path_faults`: the
    sort frames (by id) of passes whose backward() wrote every gradient itself, down
    every path, and handed an operand a share no right local derivative gives, or wrote
    it over a gradient already there (`path_fault`): that op's row, or the `+=` row, is
    wrong there, not the sort. `born`: a node's right locals with its operands' numbers
    as they were when it was made, None where they are the same now (a rule that kept
    its factors then, microgpt's `local_grads`, whose operand's data the program wrote
    since, `p.data = 0`, is right by them: `_rules`)."""
    # (picked out without a bytecode a frame: most frames are rules' or builds')
    phases = list(map(_PHASE, frames))
    backwards = list(compress(enumerate(frames), map("backward".__eq__, phases)))
    stale_at: dict[int, int] = {}  # by frame index (a joined run keeps its first frame's)
    if stale_frames:
        for index, frame in backwards:
            made = stale_frames.get(id(frame))
            if made is not None:
                stale_at[index] = made
    if resumes:
        backwards = _runs(backwards, resumes)
    unsure = _numbers_apart(nodes, rule_line)
    if unsure:
        right = [
            {node: None if node in unsure else found for node, found in by.items()} for by in right
        ]
    # (a node an op's method hung another node's rule on runs that rule, not its own)
    holders = {holder for holder, _ in kept_on.values()} if kept_on else set()
    rules, row_of = _rules(
        nodes, frames, right, backwards, ids, rule_line, merged or {}, holders, born
    )
    if merged:
        _merges_lost(merged, row_of, backwards, ids, rule_line)
    if kept_on:
        _kept_elsewhere(kept_on, row_of, backwards, ids)
    overwrite = _own_path_faults(path_faults, frames, row_of, ids) if path_faults else None
    is_op: Callable[[Value], bool] = row_of.__contains__
    if kept_on:
        is_op = partial(_has_own_rule, row_of, kept_on)
    walked: dict[int, tuple[int, Value]] = {}  # by pass: (sort frame index, node)
    if walk_faults:
        for index, frame in enumerate(frames):
            node = walk_faults.get(id(frame))
            if node is not None:
                walked.setdefault(frame["pass"], (index, node))
    return {
        "rules": rules,
        "sort": _sort(
            outputs,
            is_op,
            backwards,
            ids,
            right,
            rule_line,
            stale_at,
            right_orders,
            walked,
        ),
        "accumulation": _earliest(
            _earliest(_accumulation(backwards, right, ids), _overwritten(frames, ids, phases)),
            overwrite,
        ),
    }


def _numbers_apart(nodes: list[Value], rule_line: Callable[[Value], int | None]) -> set[Value]:
    """The products of one operand and a number kept nowhere (`Value(self.data * k,
    (self,), '*')`) whose rule, on the same line, was made with numbers that do not agree
    (out / operand): k is no constant of that method (a square written as `*` of one
    operand gives its operand), so none of its uses is judged by it. A method used with
    one number, or used once, is judged by it.

    Example: `a.scale(3.0)` and `b.scale(3.0)` agree; `a.double()` of a `*` whose data
    is a.data ** 2, used at a = 2 and a = 5, gives 2 and 5: both unchecked."""
    by_line: dict[int | None, list[Value]] = {}
    for node in nodes:
        if node._op == "*" and len(node._prev) == 1:
            by_line.setdefault(rule_line(node), []).append(node)
    apart: set[Value] = set()
    for uses in by_line.values():
        numbers = [
            float(node.data) / float(node._prev[0].data)
            for node in uses
            if float(node._prev[0].data) != 0
        ]
        if numbers and not all(agrees(k, numbers[0]) for k in numbers):
            apart.update(uses)
    return apart


def _own_path_faults(
    path_faults: dict[int, PathFault],
    frames: list[dict[str, Any]],
    row_of: dict[Value, dict[str, Any]],
    ids: dict[Value, str],
) -> dict[str, Any] | None:
    """The op rows of the nodes whose share to an operand parts from the chain rule in a
    backward() that writes every gradient itself (`path_fault`, by its sort frame's id):
    wrong at that frame, with the share it gave (`learner`) and the right one; and the
    first such share written over a gradient already there, the `+=` row's `first`."""
    overwrite = None
    for index, frame in enumerate(frames):
        fault = path_faults.get(id(frame))
        if fault is None:
            continue
        kind, node, child, learner, correct = fault
        if node not in ids or child not in ids:
            continue
        if kind in ("=", "lost"):
            if overwrite is None:
                overwrite = {"frame": index, "node": ids[node], "child": ids[child]}
                overwrite["lost"] = learner
            continue
        row = row_of.get(node)
        if row is None or row["first"] is not None:
            continue
        row["verdict"] = "wrong"
        row["first"] = {
            "frame": index,
            "node": ids[node],
            "child": ids[child],
            "learner": learner,
            "correct": correct,
        }
    return overwrite


def _has_own_rule(
    row_of: dict[Value, Any], kept_on: dict[Value, tuple[Value, int]], node: Value
) -> bool:
    return node in row_of and node not in kept_on


def _kept_elsewhere(
    kept_on: dict[Value, tuple[Value, int]],
    row_of: dict[Value, dict[str, Any]],
    backwards: Backwards,
    ids: dict[Value, str],
) -> None:
    """The op rows of nodes whose rule their op's method set on an operand (`kept_on`:
    `self.backward_fn = fn`, for `out`'s): the node's own rule does nothing, whatever
    the operand's then does with it (it keeps the rule of the last op it went into). Named
    at the first run of that operand's rule, else at the pass's last rule: `learner` 0,
    what the node's own rule gives its first operand, `correct` the right local
    derivative, `kept_on` the operand, and the row's `line` the line that set it, unless
    the row names an earlier frame of another node already (one of the node's own, where
    its rule did nothing, is this fault seen there)."""
    runs: dict[Value, int] = {}
    for index, frame in backwards:
        runs.setdefault(frame["node"], index)
    if not backwards:
        return
    for node in sorted(kept_on, key=_made):
        row = row_of.get(node)
        holder, line = kept_on[node]
        if row is None or node not in ids or holder not in ids:
            continue
        found = right_locals(node, node._prev)
        if found is None or not found[0]:
            continue
        child, correct = found[0][0]
        at = runs.get(holder, backwards[-1][0])
        first = row["first"]
        # An earlier frame of the node's own (its rule, `__init__`'s, passing nothing on)
        # is this fault seen sooner: named so, with the line that set the rule elsewhere.
        if first is not None and first["frame"] <= at and first["node"] != ids[node]:
            continue
        row["first"] = {
            "frame": at if first is None else min(first["frame"], at),
            "node": ids[node],
            "child": ids[child],
            "learner": 0.0,
            "correct": correct,
            "kept_on": ids[holder],
        }
        row["line"] = line
        row["verdict"] = "wrong"


def _earliest(row: dict[str, Any], overwrite: dict[str, Any] | None) -> dict[str, Any]:
    """The `+=` row: a rule's write that lost a gradient, or backward()'s own write over
    one (`_overwritten`), whichever the pass met first."""
    first = row["first"]
    if overwrite is None or (first is not None and first["frame"] < overwrite["frame"]):
        return row
    return {"verdict": "wrong", "first": overwrite}


def _overwritten(
    frames: list[dict[str, Any]], ids: dict[Value, str], phases: list[str] | None = None
) -> dict[str, Any] | None:
    """The first gradient a pass's own code wrote over between its rules, outside any rule
    (`v.grad = 1.0` before each `v._backward()` in the loop, `v.grad = 0` after it): a node
    a rule of the pass had written, set to another number, where that counted: a leaf's
    (its gradient is the answer), before a later rule of the pass ran, or a node whose own
    rule then passed on the number written. What was there is lost as a rule's `=` loses
    it (`{"frame", "node", "child", "lost"}`, the node its own child: no rule wrote it).
    Not a write before the pass's first rule (a zero_grad, the seed) nor after its last
    (an optimizer's step), nor a walk's reset of a node whose share is passed on already
    (a recursion down every path that sets each inner node back to 0 once it has, and
    adds the next path's share to that 0 before it passes it on)."""
    if phases is None:
        phases = list(map(_PHASE, frames))
    if not _written_between_rules(frames, phases):
        return None  # (the walk below would find none: every pass of a training loop)
    leaves = {name for node, name in ids.items() if not node._prev}
    given: set[str] = set()  # the nodes a rule of the running pass has written
    running = None
    leaf: dict[str, Any] | None = None  # a leaf's gradient written over
    inner: dict[str, dict[str, Any]] = {}  # an inner node's, by its id, the first each
    for index, frame in enumerate(frames):
        if frame.get("pass") != running:
            running, leaf = frame.get("pass"), None
            given.clear()
            inner.clear()
        phase = frame["phase"]
        if phase == "backward":
            if leaf is not None:
                return leaf  # a rule of the pass ran after the write: it counted
            over = inner.get(ids.get(frame["node"], ""))
            if over is not None and _passed_on(frame["contributions"], over["after"]):
                del over["after"]
                return over
            for child in _written(frame["contributions"]):
                name = ids.get(child, "")
                given.add(name)
                inner.pop(name, None)  # a share after the write: a walk's next path
        elif phase == "update" and given:
            for found in _writes_over(frame["changes"], given, index):
                if found["node"] in leaves:
                    leaf = leaf or {k: v for k, v in found.items() if k != "after"}
                else:
                    inner.setdefault(found["node"], found)
    return None


def _written_between_rules(frames: list[dict[str, Any]], phases: list[str]) -> bool:
    """Whether an update frame that writes a gradient may follow a rule of its own pass
    (`phases`: each frame's): only such a frame can write over what a rule gave
    (`_overwritten`, whose walk keeps the nodes a pass's rules wrote from its first rule
    on, and forgets them where the pass changes, so the nearest rule frame before the
    write must be of its pass). Found by the list's own search, with no bytecode a frame:
    a pass has a few update frames (the zeroing, the optimizer's step)."""
    last = len(phases) - 1
    from_the_end = phases[::-1]
    index = -1
    while True:
        try:
            index = phases.index("update", index + 1)
        except ValueError:
            return False
        frame = frames[index]
        if not any(change["field"] == "grad" for change in frame["changes"]):
            continue
        try:
            rule = last - from_the_end.index("backward", last - index)
        except ValueError:
            continue  # no rule before it
        if frames[rule].get("pass") == frame.get("pass"):
            return True


def _written(contributions: Raw | list[dict[str, Any]]) -> Iterable[Value]:
    if isinstance(contributions, tuple):  # as the recorder keeps them: the tape's children
        return (entry[0] for entry in contributions[1])
    return (c["to"] for c in contributions)


def _passed_on(contributions: Raw | list[dict[str, Any]], written: float) -> bool:
    """Whether a rule's upstream gradient is the number the pass wrote over its node's."""
    if isinstance(contributions, tuple):
        upstream = contributions[0]
    elif contributions:
        upstream = contributions[0]["upstream"]
    else:
        return False
    return type(upstream) in (float, int) and agrees(upstream, written)


def _writes_over(
    changes: list[dict[str, Any]], given: set[str], index: int
) -> Iterable[dict[str, Any]]:
    for change in changes:
        before, after = change["before"], change["after"]
        if (
            change["field"] == "grad"
            and change["node"] in given
            and type(before) in (float, int)  # (a program's own `self.grad = 0` is an int)
            and type(after) in (float, int)
            and before != 0
            and not agrees(after, before)
        ):
            node = change["node"]
            yield {"frame": index, "node": node, "child": node, "lost": before, "after": after}


def _view(contributions: Raw | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A frame's contributions as dicts, each child as itself (`contribution_dicts`): a
    rule's that `_runs` joined are so already."""
    if type(contributions) is tuple:
        return contribution_dicts(contributions, None)
    return contributions  # type: ignore[return-value]


def _operands(node: Value) -> Sequence[Value]:
    return node._prev


def _correct(
    right: list[dict[Value, Locals | None]], pass_index: int, node: Value, ids: dict[Value, str]
) -> Locals | None:
    """The right locals of `node` in pass `pass_index`, of the operands the trace has."""
    found = right[pass_index].get(node) if pass_index < len(right) else None
    if not found:
        return found
    for child, _ in found:
        if child not in ids:
            return [(c, local) for c, local in found if c in ids]
    return found


def _written_right(contributions: list[dict[str, Any]], correct: Locals, node: Value) -> bool:
    """Whether a rule wrote one contribution per operand, in the operands' order, each
    with the right factor read off the code, and none to its own node: the usual rule,
    right with no sum to work out."""
    if len(contributions) != len(correct):
        return False
    for c, (child, local) in zip(contributions, correct, strict=True):
        if c["local"] != local or c["to"] is not child or child is node:
            return False
    return True


def _written_right_raw(raw: Raw, correct: Locals, node: Value) -> bool:
    """`_written_right` of a rule's contributions as the recorder keeps them."""
    _, tape, writes, _ = raw
    if len(tape) != len(correct):
        return False
    if writes is None:
        for (to, local, _, _), (child, right) in zip(tape, correct, strict=True):
            if float(local) != right or to is not child or child is node:
                return False
        return True
    for (to, _, _, _), (_, _, read, _), (child, right) in zip(tape, writes, correct, strict=True):
        if read != right or to is not child or child is node:
            return False
    return True


Backwards = list[tuple[int, dict[str, Any]]]  # (index in `frames`, frame)


def _row_key(node: Value) -> str:
    """What a node's row is found by: its op as written (`**2`, `**3`), but an exp written
    with its exponent (`e^0.5`) is exp's where its node is e to its operand, else its own
    (two such nodes may be written alike: e to 0.5, e to minus −0.5; `row_op`)."""
    written = node._op
    if written.startswith("e^"):
        return row_op(written, node.data, list(node._prev))
    return written


def _row_name(key: str) -> str:
    """The op a row found by `key` (`_row_key`) is named by: the registry's (`op_key`), but
    a power written with a caret (`^2`, `^3`: `f'^{other}'`) is one row `^`, as `**2` and
    `**3` are one row `**`, and one named in a word with its exponent (`pow 2`, `pow 3`:
    `f'pow {k}'`) one row of that word (`pow`)."""
    if key.startswith("^"):
        return "^"
    word = worded_power(key)
    if word is not None:
        return word
    return key if key.startswith("e^") else op_key(key)


def _op_rows(
    nodes: list[Value], rule_line: Callable[[Value], int | None], holders: Collection[Value]
) -> tuple[dict[str, dict[str, Any]], dict[Value, dict[str, Any]]]:
    """An unchecked row per op of the graph, by op, in the order its first node was made,
    and each op node's row. A row's `line` is that of the first of its nodes that runs its
    own op's rule: a node of `holders` runs another op's, set on it by that op's method
    (`(a + b) * c` with `self._backward = …` in `__mul__`: the sum a + b holds the product's
    rule, on the product's line), and gives none."""
    rows: dict[str, dict[str, Any]] = {}
    row_of: dict[Value, dict[str, Any]] = {}  # each op node's row
    row_by_op: dict[str, dict[str, Any]] = {}  # by the node's op as it is (`**2`, `**3`)
    lined: set[str] = set()  # the rows whose line a node gave (which may be None)
    for node in nodes:  # every op of the graph, in the order its nodes were made
        if node._prev:
            written = _row_key(node)
            row = row_by_op.get(written)
            if row is None:
                op = _row_name(written)
                row = rows.get(op)
                if row is None:
                    row = rows[op] = {"op": op, "line": None, "verdict": "unchecked", "first": None}
                row_by_op[written] = row
            if row["op"] not in lined and node not in holders:
                lined.add(row["op"])
                row["line"] = rule_line(node)
            row_of[node] = row
    return rows, row_of


def _rules(
    nodes: list[Value],
    frames: list[dict[str, Any]],
    right: list[dict[Value, Locals | None]],
    backwards: Backwards,
    ids: dict[Value, str],
    rule_line: Callable[[Value], int | None],
    merged: dict[Value, tuple[Value, ...]],
    holders: Collection[Value] = (),
    born: Callable[[Value], Locals | None] | None = None,
) -> tuple[list[dict[str, Any]], dict[Value, dict[str, Any]]]:
    """The rows of the rules, and each op node's row (the op nodes, for `_sort`). A row's
    `line` is its first node's rule's (`_op_rows`), a wrong row's that of the rule its
    first frame ran (an op two methods make has a rule on each one's line). The writes of a node's
    rule to an operand its set merged away (`merged`) are no factor of an operand it has
    (what the merge lost is `_merges_lost`'s). A node of `holders` keeps a rule another
    op's method set on it (`kept_on`): its frames run that rule, none of its own op's,
    and judge nothing of its op (the other op's row says so: `_kept_elsewhere`)."""
    rows, row_of = _op_rows(nodes, rule_line, holders)
    checked = dict.fromkeys(rows, False)
    no_locals: dict[Value, Locals | None] = {}
    pass_right = no_locals  # the right locals of the last frame's pass
    right_at: int | None = None
    for index, frame in backwards:
        node = frame["node"]
        row = row_of.get(node)
        if row is None or row["first"] is not None or node in holders:
            continue  # a leaf's rule, or already wrong: the first frame is the one to show
        pass_index = frame["pass"]
        if pass_index != right_at:
            pass_right = right[pass_index] if pass_index < len(right) else no_locals
            right_at = pass_index
        correct = pass_right.get(node)
        if correct is None:
            continue
        raw = frame["contributions"]
        if type(raw) is tuple and raw[1] and raw[2] is not None and len(raw[1]) == len(correct):
            # The usual rule of a learner's class, one right `+=` per operand in order (as
            # `_written_right`, read off its tape and writes): no call made for it.
            # (`zip` without `strict=`, a dict at each call: the lengths are equal here)
            for (to, _, _, _), (_, _, read, _), (child, local) in zip(  # noqa: B905
                raw[1], raw[2], correct
            ):
                if read != local or to is not child or child is node or child not in ids:
                    break
            else:
                checked[row["op"]] = True
                continue
        correct = _correct(right, pass_index, node, ids)  # (of the operands the trace has)
        assert correct is not None
        if type(raw) is tuple and raw[1] and _written_right_raw(raw, correct, node):
            checked[row["op"]] = True  # the usual rule, read as the recorder keeps it
            continue
        contributions = _view(raw)
        if not contributions and _loop_wrote(frames, index, node._prev, ids):
            continue  # backward() wrote the children's gradients itself: no rule to judge
        if _written_right(contributions, correct, node):
            checked[row["op"]] = True  # the usual rule
            continue
        if any(c["to"] is node for c in contributions):
            # The rule wrote its own node's gradient (`out.grad = 0` once it is passed
            # on): no local derivative of an operand; `+=`'s row says what it lost.
            contributions = [c for c in contributions if c["to"] is not node]
            if _written_right(contributions, correct, node):
                checked[row["op"]] = True
                continue
        frame = {**frame, "contributions": contributions}
        found = _learner_locals(contributions, frame, right, ids)
        if found is None:
            continue
        mine, slack = found
        right_sum: dict[Value, float] = {}
        for child, local in correct:
            right_sum[child] = right_sum.get(child, 0.0) + local
        checked[row["op"]] = True
        children: Any = right_sum  # and any child the learner wrote that the right one does not
        if not mine.keys() <= right_sum.keys():
            children = _judged_children(mine, right_sum, node, merged.get(node, ()))
        for child in children:
            learner, want = mine.get(child, 0.0), right_sum.get(child, 0.0)
            if (
                learner != want  # (equal numbers agree: the usual case, with no call)
                and not agrees(learner, want)
                and abs(learner - want) > slack.get(child, 0.0)  # (before the call below)
                # (a numeric right derivative is only as good as its difference's rounding)
                and abs(learner - want) > slack.get(child, 0.0) + numeric_rounding(node, child)
                and not _right_when_made(born, node, child, learner)
            ):
                row["first"] = {
                    "frame": _write_frame(contributions, child, index),
                    "node": ids[node],
                    "child": ids[child],
                    "learner": learner,
                    "correct": want,
                }
                # The rule the verdict is about: an op two methods make (`__mul__` and
                # `__rmul__` written apart) has a rule on each one's line.
                row["line"] = rule_line(node)
                break
    for op, row in rows.items():
        if row["first"] is not None:
            row["verdict"] = "wrong"
        elif checked[op]:
            row["verdict"] = "right"
    return list(rows.values()), row_of


def _right_when_made(
    born: Callable[[Value], Locals | None] | None, node: Value, child: Value, learner: float
) -> bool:
    """Whether the learner's factor is the right one with the operands' numbers as they
    were when `node` was made (`born`), the program having written one since."""
    locals_ = born(node) if born is not None else None
    if locals_ is None:
        return False
    return agrees(learner, math.fsum(local for c, local in locals_ if c is child))


def _judged_children(
    mine: dict[Value, float], right_sum: dict[Value, float], node: Value, dropped: Sequence[Value]
) -> list[Value]:
    """The children whose factors are judged where the learner's rule wrote one the right
    one does not: every right one, and that child, but not an operand with no real
    derivative here (`x ** y`'s y at a negative x) nor one a set merged away (`dropped`),
    whose share the op's own rule writes."""
    operands = _operands(node)
    return [
        *right_sum,
        *(
            c
            for c in mine
            if c not in right_sum
            and all(c is not o for o in operands)
            and all(c is not o for o in dropped)
        ),
    ]


def _merges_lost(
    merged: dict[Value, tuple[Value, ...]],
    row_of: dict[Value, dict[str, Any]],
    backwards: Backwards,
    ids: dict[Value, str],
    rule_line: Callable[[Value], int | None],
) -> None:
    """The op rows of nodes whose set of operands merged one away and lost by it
    (`_merge_lost`), at the first run that shows it, unless a row names an earlier frame."""
    last_run = {(f["pass"], f["node"]): index for index, f in backwards}
    for index, frame in backwards:
        node = frame["node"]
        given = merged.get(node)
        row = row_of.get(node)
        if given is None or row is None:
            continue
        first = row["first"]
        if first is not None and first["frame"] <= index:
            continue
        lost = _merge_lost(node, given, frame["pass"], index, last_run, ids)
        if lost is not None:
            row["first"] = lost
            row["line"] = rule_line(node)
            row["verdict"] = "wrong"


def _merge_lost(
    node: Value,
    given: tuple[Value, ...],
    pass_index: int,
    index: int,
    last_run: dict[tuple[int, Value], int],
    ids: dict[Value, str],
) -> dict[str, Any] | None:
    """Where a node's set of operands merged one the op was given (`given`, in the op's
    order) with an equal one it holds, and that lost something: the operand merged away
    has operands of its own and its rule does not run after this node's (frame `index`)
    in the pass, so nothing of the node's gradient reaches what it was made of. The
    row's `first` then names that operand (`child`) and the one it was merged with
    (`merged`): `learner` 0, the share the learner's graph passes through it, `correct`
    its right local derivative in the op as written. None where nothing was lost (a
    leaf merged away: the rule writes its gradient all the same)."""
    held = node._prev
    for child in given:
        if any(child is o for o in held) or not child._prev or child not in ids:
            continue
        if last_run.get((pass_index, child), -1) > index:
            continue  # its rule ran after this one's: what it was given went on
        found = right_locals(node, given)
        if found is None:
            return None
        correct = math.fsum(local for c, local in found[0] if c is child)
        kept = next((o for o in held if o.data == child.data), held[0] if held else None)
        if kept is None or kept not in ids:
            return None
        first = {"frame": index, "node": ids[node], "child": ids[child], "learner": 0.0}
        return {**first, "correct": correct, "merged": ids[kept]}
    return None


def _write_frame(contributions: list[dict[str, Any]], child: Value, index: int) -> int:
    """The frame a wrong factor of a run (first frame `index`) is shown at: the frame with
    the run's first write to `child` (`shown_at`, of a joined run: a rule that returned
    the shares a loop then adds, or one cut by the rules it calls, a recursive walk's,
    whose first frame writes another operand's share), else, for a share never written,
    the run's last frame that writes (where its frames say so: `Recorder.say_measured`)."""
    shown = [c.get("shown_at", index) for c in contributions]
    return next(
        (at for at, c in zip(shown, contributions, strict=True) if c["to"] is child),
        max(shown, default=index),
    )


def _loop_wrote(
    frames: list[dict[str, Any]], index: int, children: Any, ids: dict[Value, str]
) -> bool:
    """Whether the program's own statements (update frames), between the rule frame at
    `index` and the next one of its pass, wrote a gradient of one of that node's
    children: a backward() whose loop writes what the rule only returned (`p.grad = g`
    for each `g` of `v._grad_fn(v.grad)`), so the rule wrote nothing of its own."""
    pass_index = frames[index]["pass"]
    written = {ids[child] for child in children}  # an update's changes name nodes by id
    for frame in frames[index + 1 :]:
        if frame["phase"] != "update" or frame["pass"] != pass_index:
            return False
        for change in frame["changes"]:
            if change["field"] == "grad" and change["node"] in written:
                return True
    return False


def _runs(backwards: Backwards, resumes: dict[int, int]) -> Backwards:
    """Each run of a rule as one frame: the frames that go on with an earlier one's run
    (`resumes`) join it, their writes after its own."""
    runs: Backwards = []
    at: dict[int, int] = {}  # a run's first frame index -> its place in `runs`
    for index, frame in backwards:
        first = resumes.get(index)
        if first is None or first not in at:
            at[index] = len(runs)
            runs.append((index, frame))
        else:
            place = at[first]
            head = runs[place][1]
            joined = [
                *_shown_at(head["contributions"], first),
                *_shown_at(frame["contributions"], index),
            ]
            runs[place] = (first, {**head, "contributions": joined})
    return runs


def _shown_at(contributions: Raw | list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    """A joined run's contributions, each with the frame that shows it (`shown_at`: the
    `+=` row's frame is the one its write is in), on copies: the trace's own are not
    changed."""
    return [c if "shown_at" in c else {**c, "shown_at": index} for c in _view(contributions)]


def _learner_locals(
    contributions: list[dict[str, Any]],
    frame: dict[str, Any],
    right: list[dict[Value, Locals | None]],
    ids: dict[Value, str],
) -> tuple[dict[Value, float], dict[Value, float]] | None:
    """Each child's factor in one rule, all its writes together: read off the code where
    it could be, else what the write added (or wrote, for an `=` that did not keep the
    old gradient) over the upstream gradient; None when that cannot be known (an
    upstream gradient of 0, a factor too large for a float). And each child's slack:
    how far a factor measured from what a sum added may be off by that sum's rounding."""
    mine: dict[Value, float] = {}
    slack: dict[Value, float] = {}
    kept: list[bool] | None = None  # asked only of a factor not read off the code
    for i, c in enumerate(contributions):
        local = c["local"]
        if local is None:
            upstream = c["upstream"]
            if upstream == 0:
                return None
            if kept is None:
                kept = _kept(frame, right, ids)
            adds = c["write"] != "=" or (c["before"] != 0 and kept[i])  # `+=`, `-=`
            local = (c["delta"] if adds else c["after"]) / upstream
            if not math.isfinite(local):
                return None
            if adds:
                rounding = sum_rounding(c["before"], c["after"]) / abs(upstream)
                slack[c["to"]] = slack.get(c["to"], 0.0) + rounding
        mine[c["to"]] = mine.get(c["to"], 0.0) + local
    return mine, slack


def _sort(
    outputs: list[Value],
    is_op: Callable[[Value], bool],
    backwards: Backwards,
    ids: dict[Value, str],
    right: list[dict[Value, Locals | None]],
    rule_line: Callable[[Value], int | None],
    stale_at: dict[int, int] | None = None,
    right_orders: Collection[int] = (),
    walked: dict[int, tuple[int, Value]] | None = None,
) -> dict[str, Any]:
    """The sort's row: the first pass whose order of rules is not a right one
    (`order_fault`), or that ran the rule of a node of an earlier pass's graph that its
    output does not reach (`stale_at`: the recorder's, by frame index, each with the pass
    that first reached the node: a rule a right engine does not run there), at the first
    frame that shows it. A stale rule is named with the pass whose node it is (`pass`,
    0-based) and the line of its rule (`line`)."""
    by_pass: dict[int, tuple[list[int], list[Value]]] = {}  # frame indexes, nodes
    frame_at: dict[int, dict[str, Any]] = {}  # by index, once a pass has a rule left over
    indexes: list[int] = []
    order: list[Value] = []
    at_pass = None  # the pass of the last frame (a pass's frames follow each other)
    for index, frame in backwards:
        if frame["pass"] != at_pass:
            at_pass = frame["pass"]
            if at_pass not in by_pass:
                by_pass[at_pass] = ([], [])
            indexes, order = by_pass[at_pass]
        indexes.append(index)
        order.append(frame["node"])
    for pass_index, output in enumerate(outputs):
        frames = by_pass.get(pass_index)
        if frames is None:
            # No rule of a node ran (its backward() adds the shares itself): no order, and
            # the pass judged whole, by the gradients it left (`walked`).
            if walked and pass_index in walked:
                index, node = walked[pass_index]
                first = {"frame": index, "node": ids[node], "consumer": None}
                return {"verdict": "wrong", "first": first}
            continue
        indexes, order = frames
        stale = None
        if stale_at:
            frame_at = frame_at or dict(backwards)
            for place, index in enumerate(indexes):
                made = stale_at.get(index)
                # A rule left over that adds nothing (its node's gradient 0, zeroed since):
                # no gradient parts from a right engine's by it; the next one may.
                if made is not None and _changed(frame_at[index]["contributions"]):
                    stale = place, made
                    break
        if stale is None and (
            pass_index in right_orders or _right_order(order, None, _operands, is_op, output)
        ):
            continue  # the usual pass, found right with no walk of its graph first
        fault = order_fault(order, _reached(output), _operands, is_op, output, _made)
        if stale is not None and (fault is None or fault[0] is None or stale[0] < fault[0]):
            place, made = stale
            left = order[place]
            first = {"frame": indexes[place], "node": ids[left], "consumer": None, "pass": made}
            line = rule_line(left)
            if line is not None:  # (a rule whose line is known: every one a tape keeps)
                first["line"] = line
            return {"verdict": "wrong", "first": first}
        if fault is not None:
            at, node, consumer, _ = fault
            # A rule that never ran is named at the pass's last rule.
            index = indexes[-1 if at is None else at]
            return {
                "verdict": "wrong",
                "first": {
                    "frame": index,
                    "node": ids[node],
                    "consumer": None if consumer is None else ids[consumer],
                },
            }
    return {"verdict": "right", "first": None}


def _changed(contributions: Raw | list[dict[str, Any]]) -> bool:
    """Whether a rule's writes changed a gradient (as the recorder keeps them, or joined)."""
    if type(contributions) is tuple:
        return any(delta != 0 for _, _, delta, _ in contributions[1])
    return any(c["delta"] != 0 for c in _view(contributions))


def order_fault(
    order: Sequence[N],
    reached: Collection[N],
    children: Callable[[N], Iterable[N]],
    is_op: Callable[[N], bool],
    output: N,
    made: Callable[[N], Any],
) -> tuple[int | None, N, N | None, int] | None:
    """Where the order a pass ran its rules in (`order`, one entry per run) is not a
    right one: the first op node whose rule ran before that of one of its consumers
    (those in `reached`, the pass's graph) that runs later, ran again, or never ran. A
    consumer whose rule never runs is that fault, not its operands': they wait for
    nothing that comes (a loop over `topo[:-1]` never runs the output's rule). The one
    rule of the check's sort row (over trace ids) and of the sort frame's words (over
    Values, `recorder.Recorder.user_pass`), so that both name the same node and consumer.

    The answer is (the place in `order` of the run found wrong, or None for a rule that
    never ran; the node; the first made (`made`) of its consumers still waiting, or
    None; the node's runs: 1 for a consumer still waiting, all of its runs for a rule
    that ran again, 0 for one that never ran), or None where the order is right.

    Example: the rules of `c = a * b; d = c + a` run d, a, c, b: `order_fault([d, a, c,
    b], …)` is None (a leaf's rule passes nothing on); run c, d, a, b it is (0, c, d, 1).
    """
    if _right_order(order, reached, children, is_op, output):
        return None
    consumers: dict[N, list[N]] = {}
    for parent in reached:
        for child in children(parent):
            consumers.setdefault(child, []).append(parent)
    ran: set[N] = set()
    runs = set(order)
    for at, node in enumerate(order):
        if is_op(node):
            if node in ran:
                # A second run adds the node's share to its children once more.
                return at, node, None, order.count(node)
            if node != output:
                waiting = [c for c in consumers.get(node, ()) if c not in ran and c in runs]
                if waiting:
                    return at, node, min(waiting, key=made), 1
        ran.add(node)
    never = [node for node in reached if is_op(node) and node not in ran]
    if never:
        return None, min(never, key=made), None, 0
    return None


def _right_order(
    order: Sequence[N],
    reached: Collection[N] | None,
    children: Callable[[N], Iterable[N]],
    is_op: Callable[[N], bool],
    output: N,
) -> bool:
    """Whether `order_fault` finds the order right, asked of the usual pass (every rule
    once, after its consumers') by one look at each edge: True only where it is; False
    where it may not be, and `order_fault`'s walk says where. By place in `order`: a
    consumer that ran first has the lower place, and `is_op` is asked only of a node
    whose consumer did not run first or that never ran.

    `reached` None: the nodes whose rules ran stand for the pass's graph, where they
    hold every node `output` reaches but leaves whose rules did not run (every operand of
    a node that ran ran too, or has no operands and is no op): those that `reached`
    lacks only add consumers to wait for, so an order right with them is right."""
    place = {node: at for at, node in enumerate(order)}
    if len(place) != len(order):
        return False  # a rule ran twice (maybe a leaf's, which is no fault: the walk says)
    if reached is None and output not in place:
        return False
    find = place.get
    for parent in place if reached is None else reached:
        at = find(parent)
        if at is None and is_op(parent):
            return False  # a rule that never ran
        for child in children(parent):
            later = find(child)
            if later is not None and at is not None and at < later:
                continue  # the consumer's rule ran first
            if child != output and is_op(child):
                return False  # a consumer still waiting at the child's rule, or none ran
            if later is None and reached is None and children(child):
                return False  # a node whose rule did not run, with operands not walked
    return True


def _made(node: Value) -> int:
    return node._seq  # the order ids are given in: n0, n1, … as the nodes were made


def _reached(output: Value) -> set[Value]:
    seen = {output}
    stack = [output]
    while stack:
        for child in stack.pop()._prev:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def _kept(
    frame: dict[str, Any], right: list[dict[Value, Locals | None]], ids: dict[Value, str]
) -> list[bool]:
    """For each write of one rule, whether an `=` kept what was there: it wrote the old
    gradient plus a right share (`self.grad = tmp` with `tmp = self.grad + …`), an
    accumulation all the same. A child the op uses twice (`a * a`, `b + b`) has a share
    per use: an `=` keeps the gradient where it adds one of them, or all that the rule's
    earlier writes to that child have not added yet, never a share they added already
    (`b.grad += g` then `b.grad = 2 * g` loses the first)."""
    contributions = frame["contributions"]
    kept = [False] * len(contributions)
    if all(c.get("write") != "=" for c in contributions):
        return kept  # the usual rule: `+=` only
    locals_ = _correct(right, frame["pass"], frame["node"], ids)
    if not locals_:
        return kept
    writes = [(c["to"], c["write"], c["before"], c["after"]) for c in contributions]
    return kept_writes(writes, locals_, contributions[0]["upstream"])


def kept_writes(
    writes: Sequence[tuple[Any, str, float, float]],
    locals_: Sequence[tuple[Any, float]],
    upstream: float,
) -> list[bool]:
    """`_kept` of one rule's writes, (child, `"+="`, `"-="` or `"="`, before, after), given the
    right local derivative of each operand position and the upstream gradient (the
    narration's too: `narrate.own_rule_text`)."""
    kept = [False] * len(writes)
    shares: dict[Any, list[float]] = {}
    for to, local in locals_:
        shares.setdefault(to, []).append(local * upstream)
    added: dict[Any, float] = {}  # what the rule's writes so far added to each child
    for i, (child, write, before, after) in enumerate(writes):
        delta = after - before
        if write == "=" and child in shares:
            rest = sum(shares[child]) - added.get(child, 0.0)
            rounding = sum_rounding(before, after)
            kept[i] = any(
                agrees(delta, share) or abs(delta - share) <= rounding
                for share in (rest, *shares[child])
            )
        if write != "=" or kept[i]:  # `+=`, `-=` (its delta is what it added)
            added[child] = added.get(child, 0.0) + delta
    return kept


def added_again(c: dict[str, Any]) -> bool:
    """Whether a `+=` (or `-=`) whose factor was read off the code added something else to
    a gradient that was not 0: the statement's own sum went through a `grad` property
    whose setter adds what it is given (`self._grad += v`), so the gradient already there
    was added again. (The recorder reads a factor off any other write only where it
    agrees, within the same rounding, with what the write added.)"""
    local, before = c["local"], c["before"]
    if local is None or before == 0 or c.get("write", "=") == "=":
        return False
    return added_other(local, c["upstream"], c["delta"], before, c["after"])


def added_other(local: float, upstream: float, delta: float, before: float, after: float) -> bool:
    """`added_again` of a `+=` that read `local` off the code: whether it added something
    else than `local` times `upstream`, beyond the rounding of its own sum."""
    product = local * upstream
    if product == delta and -INF < product < INF:
        return False  # the usual write: what it added is the product itself
    rounding = ROUNDING * max(abs(before), abs(after))  # `sum_rounding`, without its call
    return not abs(product - delta) <= 1e-9 * max(abs(product), abs(delta), 1e-300) + rounding


INF = math.inf


def _accumulation(
    backwards: Backwards, right: list[dict[Value, Locals | None]], ids: dict[Value, str]
) -> dict[str, Any]:
    """The `+=` row: the first write that lost a gradient already there, at the frame
    that shows that write (in a run of several frames, the one it is in)."""
    for index, frame in backwards:
        contributions = frame["contributions"]
        if type(contributions) is tuple:  # as the recorder keeps them: read so
            upstream, tape, writes, _ = contributions
            if writes is None:
                continue  # the built-in engine's rule: `+=` only, nothing lost
            if frame["text"] is SAID:
                # Left to the page (`engine.trace_columns`) as the built-in rule's words:
                # only where every write is a `+=` whose factor was read off the code and
                # none added again (`narrate.said_as_built_in`, on these very numbers).
                continue
            # (`zip` without `strict=`, a dict at each call: a tape and its writes are
            # appended together, `Recorder.contribution`)
            for (child, _, delta, before), (write, _, read, after) in zip(  # noqa: B905
                tape, writes
            ):
                if write == "=":
                    break
                if (
                    before != 0
                    and read is not None
                    and added_other(read, upstream, delta, before, after)
                ):
                    first = {"frame": index, "node": ids[frame["node"]], "child": ids[child]}
                    return {"verdict": "wrong", "first": {**first, "lost": before}}
            else:
                continue  # the usual rule: `+=` only, nothing lost
            contributions = _view(contributions)
        else:
            for c in contributions:
                if c.get("write") == "=":
                    break
                if c["before"] != 0 and added_again(c):  # (a first write starts from 0)
                    shown = c.get("shown_at", index)  # (in a joined run, its own frame)
                    first = {"frame": shown, "node": ids[frame["node"]], "child": ids[c["to"]]}
                    return {"verdict": "wrong", "first": {**first, "lost": c["before"]}}
            else:
                continue  # the usual rule: `+=` only, nothing lost
        kept = _kept({**frame, "contributions": contributions}, right, ids)
        for c, keeps in zip(contributions, kept, strict=True):
            if (c.get("write") == "=" and c["before"] != 0 and not keeps) or added_again(c):
                first = {
                    "frame": c.get("shown_at", index),  # the frame that shows this write
                    "node": ids[frame["node"]],
                    "child": ids[c["to"]],
                    "lost": c["before"],
                }
                return {"verdict": "wrong", "first": first}
    return {"verdict": "right", "first": None}


# What `path_fault` finds: `("op" or "=", node, operand, a, b)`.
PathFault = tuple[str, Value, Value, float, float]


def path_fault(
    changes: Iterable[tuple[Value, str, Any, Any]],
    reachable: list[Value],
    found: dict[Value, Locals | None],
    output: Value,
) -> PathFault | None:
    """Where a backward() that writes every gradient itself by handing each operand its
    share down every path (`def backward(self, grad): self.grad += grad; ...
    child.backward(grad * local)`, or once every consumer has paid, with the gradient it
    has then) parts from the chain rule: `("op", node, operand, learner's local, right
    local)` at the first write whose share is no right local derivative times what the
    node got or has, or `("=", node, operand, lost, 0.0)` at the first that wrote its
    share over a gradient already there; else None. The writes are read as a walk down
    from the output: each write's node is the operand of the nearest node of the walk so
    far that has it (one whose share agrees first, where several do), so a pass that is
    no such walk, or that right locals agree with everywhere, names nothing
    (`Recorder.judge_own_writes` then names the node that ends wrong, as before).

    Example: z = x * y at x = 2, y = 3, whose rule gives y the share 3 (x's number where
    y's is right): the writes z 0→1, x 0→3, y 0→3 give `("op", z, y, 3.0, 2.0)`.

    Bounded: the walk keeps where each node is held on it (`_walk_onto`), so a write
    looks at the walk's nodes that hold its node alone, not at every node that uses it
    (x used by 8,000 products, written once down each path, is no 64 million looks);
    each op's right locals are read once (`_LocalsIndex`); past a budget of the writes'
    and the edges' count it names nothing."""
    changes = list(changes)
    consumers: dict[Value, list[Value]] = {}
    budget = 4 * len(changes)
    for node in reachable:
        for child in node._prev:
            consumers.setdefault(child, []).append(node)
        budget += len(node._prev)
    pushes = budget - 2 * len(changes)  # (the walk's steps down: its operands held)
    stack: list[tuple[Value, float, float]] = []  # (node, what it got, what it has)
    # Where each node is held on the walk: the places of the walk's nodes that have it
    # as an operand, in the walk's order (once an operand: a DAG's path)
    held_at: dict[Value, list[int]] = {}
    fault: PathFault | None = None
    index = _LocalsIndex(found)
    for node, field, before, after in changes:
        if field != "grad" or (node not in consumers and node is not output):
            continue
        delta = after - before
        if not stack:
            if node is not output:
                return None
            pushes -= _walk_onto(stack, held_at, (node, delta, after))
            continue
        places = held_at.get(node, [])[::-1]  # (the nearest first)
        budget -= len(places) + 1
        if not places or budget < 0:
            return None
        chosen, shares = _share_giver(stack, places, index, node, delta)
        parent, got, _ = stack[chosen]
        if fault is None and shares and got:
            over = (agrees(after, s * got) and not agrees(delta, s * got) for s in shares)
            if before and any(over):
                fault = ("=", parent, node, before, 0.0)  # `=` where `+=` is right
            elif chosen == places[0] and not _agrees_any(delta, shares, got, stack[chosen][2]):
                fault = ("op", parent, node, delta / got, shares[0])
        while len(stack) > chosen + 1:  # (the walk back up to the node that handed it)
            for child in stack.pop()[0]._prev:
                held_at[child].pop()
        pushes -= _walk_onto(stack, held_at, (node, delta, after))
        if pushes < 0:
            return None
    return fault


def _walk_onto(
    stack: list[tuple[Value, float, float]],
    held_at: dict[Value, list[int]],
    entry: tuple[Value, float, float],
) -> int:
    """`path_fault`'s walk one node further down (`entry`), its operands held there: the
    work, one for each operand."""
    place = len(stack)
    stack.append(entry)
    held = entry[0]._prev
    for child in held:
        held_at.setdefault(child, []).append(place)
    return len(held)


def pull_fault(
    changes: Iterable[tuple[Value, str, Any, Any]],
    reachable: list[Value],
    found: dict[Value, Locals | None],
    output: Value,
) -> tuple[bool, PathFault | None]:
    """Whether a backward() wrote each node's gradient once, its whole gradient, after
    every node that uses it (the shares summed in a table of its own: `cg[prev] =
    cg.get(prev, 0) + share`, then `node.grad += cg[node]` in reverse topological order),
    and where such a pass parts from the chain rule, each share the right local
    derivative times the gradient the learner's pass gave the node that uses it:
    `("lost", consumer, node, what was lost, 0.0)` at the first node whose write is the
    sum of those shares but one, or only one (a share written with `=`), `("=", consumer,
    node, what it held, 0.0)` at the first that wrote that sum over its gradient, `("op",
    consumer, node, learner's local, right local)` at the first whose one user's share
    parts. A node written twice, or before a node that uses it, is no such pass (`False`,
    `path_fault` reads it).

    Example: d = a * b + a, the table's `cg[prev] = share`: a gets b's 3 from `*` and its
    1 from `+` is lost, `(True, ("lost", d, a, 1.0, 0.0))`."""
    consumers: dict[Value, list[Value]] = {}
    for node in reachable:
        for child in node._prev:
            consumers.setdefault(child, []).append(node)
    got: dict[Value, float] = {}
    fault: PathFault | None = None
    index = _LocalsIndex(found)  # (a user's locals read once: a blend of n, n looks)
    for node, field, before, after in changes:
        if field != "grad" or (node not in consumers and node is not output):
            continue
        users = list(dict.fromkeys(consumers.get(node, ())))
        if node in got or any(user not in got for user in users):
            return False, None  # written twice, or before a node that uses it
        got[node] = after - before
        if node is not output:
            over = _pull_over(node, got, users, index, before, after)
            if over is not None:
                got[node] = after  # `=`: what it wrote is what it hands on
                fault = fault or over
            fault = fault or _pull_share(node, got, users, index)
    return True, fault


def _pull_over(
    node: Value,
    got: dict[Value, float],
    users: list[Value],
    index: _LocalsIndex,
    before: float,
    after: float,
) -> PathFault | None:
    """`("=", user, node, before, 0.0)` where `pull_fault`'s node wrote its right sum
    over a gradient already there (`node.grad = cg[node]`), else None."""
    if not before or not users:
        return None
    shares = [local * got[user] for user in users for local in index.shares(user, node) or ()]
    total = math.fsum(shares)
    if shares and agrees(after, total) and not agrees(after - before, total):
        return ("=", users[0], node, before, 0.0)
    return None


def _pull_share(
    node: Value, got: dict[Value, float], users: list[Value], index: _LocalsIndex
) -> PathFault | None:
    """`pull_fault`'s reading of one node's write, every node that uses it written."""
    shares: list[tuple[Value, float]] = []
    for user in users:
        locals_ = index.shares(user, node)
        if locals_ is None:
            return None  # an op with no right rule: nothing to judge it by
        shares += [(user, local * got[user]) for local in locals_]
    total = math.fsum(share for _, share in shares)
    if not shares or agrees(got[node], total):
        return None
    for user, share in shares if len(shares) > 1 else ():
        if share and agrees(got[node], total - share):
            return ("lost", user, node, share, 0.0)
    for kept, share in shares if len(shares) > 1 else ():  # one kept, each other lost
        if agrees(got[node], share):
            lost = next(user for user, _ in shares if user is not kept)
            return ("lost", lost, node, total - share, 0.0)
    if len(users) == 1 and got[users[0]]:
        right = math.fsum(index.shares(users[0], node) or ())
        return ("op", users[0], node, got[node] / got[users[0]], right)
    return None


def _agrees_any(delta: float, shares: list[float], got: float, has: float) -> bool:
    return any(agrees(delta, s * got) or agrees(delta, s * has) for s in shares)


class _LocalsIndex:
    """Each op node's right locals by operand (`found`'s, read once a node): the shares a
    write of `path_fault` or `pull_fault` is judged by, looked up, not scanned, so an op
    of n operands, each written once, costs n, not n² (a `blend` of 3,000 nodes).

    Example: `found = {z: [(x, 3.0), (y, 2.0)]}`: `shares(z, y) == [2.0]`,
    `shares(w, y) is None` (no right rule of w's op)."""

    def __init__(self, found: dict[Value, Locals | None]) -> None:
        self.found = found
        self.tables: dict[Value, dict[Value, list[float]] | None] = {}

    def shares(self, user: Value, node: Value) -> list[float] | None:
        """The right locals of `node` in `user`'s op (none where it holds none), or None
        where `user`'s op has no right rule."""
        tables = self.tables
        if user in tables:
            table = tables[user]
        else:
            locals_ = self.found.get(user)
            table = None
            if locals_ is not None:
                table = {}
                for child, local in locals_:
                    table.setdefault(child, []).append(local)
            tables[user] = table
        return None if table is None else table.get(node, [])


def _share_giver(
    stack: list[tuple[Value, float, float]],
    places: list[int],
    index: _LocalsIndex,
    node: Value,
    delta: float,
) -> tuple[int, list[float]]:
    """The place on the walk of the node that handed `node` its share `delta` (the
    nearest whose right local agrees with it, else the nearest), and the right locals of
    `node` in that node's op (none for an op with no right rule)."""
    for i in places:
        parent, got, has = stack[i]
        shares = index.shares(parent, node)
        if shares is None:
            return i, []  # an op with no right rule: nothing to judge it by
        if _agrees_any(delta, shares, got, has):
            return i, shares
    return places[0], index.shares(stack[places[0]][0], node) or []
