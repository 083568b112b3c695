"""The gradient check on a real program (SPEC §13, §14): functions, loops, classes, a
learner's own engine, several passes.

Where a straight-line program's graph can be recomputed node by node (`engine.lab.gradcheck`),
a real program is its own function: the check runs it again with one leaf moved, in the
interpreter itself, and reads pass k's output. So the numeric derivative is the true
derivative of the program (its control flow may change with the move), and the analytic
gradient is whatever the program's engine computed: the built-in one's, or a learner's
own class's, which is where numerical differentiation earns its keep.

- The leaves are pass k's (`kind: leaf`, in node-id order); `leaves` selects by label,
  name or id.
- A leaf is moved by ±h at the point where pass k first reads it: the first run notes
  when each node is made and each write to a leaf's data happens, and the move is made
  when the leaf is made or as the last write to its data before pass k's first node
  that reads it stores its value (an optimizer step's, in a training loop).
- The analytic gradient is the leaf's gradient as pass k leaves it.
- The work is the interpreter steps of all re-runs, bounded by `max_gradcheck_work`:
  told before the first re-run from the first run's steps, and held as they run (a
  re-run may take more steps than the first run, where the leaf moved changes what
  the program does): together they run at most `RERUN_SHARE` times that many steps.

Example: for the article's engine with tanh's rule wrong (`BUGGY_DERIVATIVE`), leaf a's
analytic gradient is 0.6562 while the central difference gives 0.8949.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.limits import Limits, past_deadline
from backprop_animator.engine.run import trace_program
from backprop_animator.engine.trace.recorder import Recorder, Rerun

# How many times `max_gradcheck_work` the re-runs of one check may run in all, counted
# as they run: the work told before them is the first run's steps for each re-run, and
# a re-run that takes more (a program that loops 300,000 times once a leaf has moved)
# ran 14 million steps in 26 re-runs of a 100-step program, bounded by the clock alone.
RERUN_SHARE = 2


def gradcheck_program(
    tree: ast.Module,
    source: str,
    granularity: str,
    limits: Limits,
    *,
    scheme: str,
    steps: Sequence[float],
    leaves: Sequence[str] | None,
    pass_index: int,
    mistake: str | None = None,
) -> dict[str, Any]:
    """The check's answer, `{"output", "checks": [{"node", "label", "analytic", "rows"}]}`,
    as for a straight-line program (`engine.lab.gradcheck`). With a bug-lab `mistake` every
    run uses that engine: the analytic gradient is the one it computes, and the passes
    before k update with its gradients, as the program ran."""
    first = Rerun()
    recorded: list[Recorder] = []
    trace = trace_program(tree, source, granularity, limits, recorded, first, mistake=mistake)
    assert trace is not None
    recorder = recorded[0]
    passes = trace["passes"]
    if not 0 <= pass_index < len(passes):
        raise no_such_pass(len(passes), pass_index)
    ids = recorder.ids
    by_id = {node["id"]: node for node in trace["nodes"]}
    grads = first.grads[pass_index]
    pass_leaves = sorted(
        (node for node in grads if node in ids and by_id[ids[node]]["kind"] == "leaf"),
        key=lambda node: int(ids[node][1:]),
    )
    checked = _selected(pass_leaves, ids, by_id, leaves)
    runs_per_leaf = len(steps) * (2 if scheme == "central" else 1)
    budget = limits.max_gradcheck_work
    # A re-run stops as pass k starts: its steps are the first run's until then, so an
    # earlier pass of a training loop costs less (it was charged the whole loop).
    per_run = first.steps_at[pass_index] if pass_index < len(first.steps_at) else 0
    per_run = per_run or recorder.state.steps
    spent = per_run * (len(checked) * runs_per_leaf + (scheme == "forward"))
    if spent > budget:
        raise limits.exceeded(
            "max_gradcheck_work",
            f"this check would run about {spent:,} interpreter steps ({len(checked):,} "
            f"leaves × {runs_per_leaf} runs × {per_run:,} steps a run); check "
            "fewer leaves or h values, or an earlier pass",
        )
    unmoved = float(passes[pass_index]["data"])
    # A pass the program runs through its gates from a seed of its own (a loss's
    # gradient, `s.grad = 2 * error`), or a pass of no rule whose gradients it worked out
    # from the one it gave its output (`c.grad = 2.0; a.grad = b.data * c.grad`): its
    # leaves' gradients are that seed times the output's derivative, and so is the
    # difference quotient compared with them. (A pass of no rule seeded with 0, a forward
    # pass's test asking for no gradient, keeps the quotient itself: not 0 = 0 everywhere.)
    seed = recorder.no_rule_seeds.get(pass_index) or 1.0
    if recorder.holder_pass:
        seed = recorder.holder_seeds.get(pass_index, seed)
    checks = []
    reached = recorder.passes[pass_index][1]  # the nodes pass k ran (its graph)
    # every run as the first ran: its engine, its pass (and whether gates hold its nodes)
    runs = (mistake, recorder.hand_pass, recorder.holder_pass, recorder.step_spans)
    parents: dict[Any, list[Any]] = {}
    for node in reached:
        for child in node._prev:
            parents.setdefault(child, []).append(node)
    left = [RERUN_SHARE * budget]  # (the steps the re-runs may still run)
    for leaf in checked:
        number = first.numbers[leaf]
        after_writes = first.writes_before_read(
            leaf, parents.get(leaf, []), pass_index, lazy=recorder.holder_pass
        )
        analytic = grads[leaf]
        rows = []
        for h in steps:
            move = (number, after_writes, pass_index)
            up = _output(tree, source, granularity, limits, move, h, by_id[ids[leaf]], runs, left)
            if scheme == "central":
                down = _output(
                    tree, source, granularity, limits, move, -h, by_id[ids[leaf]], runs, left
                )
                numeric = seed * ((up - down) / (2 * h))
            else:
                numeric = seed * ((up - unmoved) / h)
            error = abs(numeric - analytic)
            if not (math.isfinite(numeric) and math.isfinite(error)):
                advice = "smaller" if h >= 1 else "larger"
                raise EngineError(
                    f"at h = {h!r} the difference quotient for {_name(by_id[ids[leaf]])} is "
                    f"not a finite number; floating point cannot hold it (try {advice} h values)"
                )
            rows.append({"h": h, "numeric": numeric, "error": error})
        node = by_id[ids[leaf]]
        checks.append(
            {"node": node["id"], "label": node["label"], "analytic": analytic, "rows": rows}
        )
    return {"output": passes[pass_index]["output"], "checks": checks}


def _output(
    tree: ast.Module,
    source: str,
    granularity: str,
    limits: Limits,
    move: tuple[int, int, int],
    by: float,
    leaf: dict[str, Any],
    runs: tuple[str | None, bool, bool, frozenset[tuple[int, int]]],
    left: list[int],
) -> float:
    """Pass k's output data when the program runs with the leaf moved by `by`; `move`
    is (the leaf's number, the writes to its data before pass k reads it, k), `runs`
    (the bug lab's mistake, whether its pass is run by hand, whether objects that made
    its nodes keep their operands, its backward() methods run as steps by hand) as the
    first run's; `left[0]`, the steps the check's re-runs may still run, less this
    one's."""
    number, after_writes, pass_index = move
    mistake, hand_pass, holder_pass, step_spans = runs
    rerun = Rerun(number, by, pass_index, after_writes)
    capped = left[0] < limits.max_steps
    try:
        trace_program(
            tree,
            source,
            granularity,
            replace(limits, max_steps=max(1, left[0])) if capped else limits,
            None,
            rerun,
            mistake=mistake,
            hand_pass=hand_pass,
            holder_pass=holder_pass,
            step_spans=step_spans,
        )
    except EngineError as error:
        if capped and rerun.steps > left[0]:
            raise limits.exceeded(
                "max_gradcheck_work",
                "the gradient check's re-runs ran twice the interpreter steps its work may "
                f"take (moving {_name(leaf)} by {by:g}, the program runs longer than it first "
                "did); check fewer leaves or h values, or an earlier pass",
            ) from None
        if past_deadline():
            # (a re-run met the check's deadline, whichever part of a run it was in: the
            # reading of its text said "the program took too long to read")
            raise limits.exceeded(
                "time_limit",
                "the gradient check took too long: it runs the program again up to the "
                "pass for each leaf and h value; check fewer leaves or h values, or an "
                "earlier pass",
            ) from None
        raise EngineError(
            f"moving {_name(leaf)} by {by:g}, the program fails: {error.message}",
            error.line,
            error.column,
        ) from None
    left[0] -= rerun.steps
    if rerun.reached is None:
        raise EngineError(
            f"moving {_name(leaf)} by {by:g}, the program no longer reaches backward pass "
            f"{pass_index}; try smaller h values"
        )
    return rerun.reached


def _selected(
    pass_leaves: list[Any],
    ids: dict[Any, str],
    by_id: dict[str, dict[str, Any]],
    wanted: Sequence[str] | None,
) -> list[Any]:
    if wanted is None:
        return pass_leaves
    names = set()
    for name in wanted:
        if not isinstance(name, str):
            raise EngineError(f"leaves must be labels, not {name!r}")
        names.add(name)

    def keys(leaf: Any) -> set[str]:
        node = by_id[ids[leaf]]
        return {node["id"], node["label"], node["name"]} - {""}

    known = set().union(*(keys(leaf) for leaf in pass_leaves)) if pass_leaves else set()
    unknown = sorted(names - known)
    if unknown:
        listed = ", ".join(repr(name) for name in unknown[:5])
        shown = ", ".join(repr(by_id[ids[leaf]]["name"]) for leaf in pass_leaves[:20])
        raise EngineError(
            f"no leaf of this pass is called {listed}; its leaves are {shown or 'none'}"
        )
    return [leaf for leaf in pass_leaves if keys(leaf) & names]


def _name(node: dict[str, Any]) -> str:
    return repr(node["label"] or node["name"]) if (node["label"] or node["name"]) else node["id"]


def no_such_pass(count: int, pass_index: int) -> EngineError:
    """The error for a pass the program does not have: `no_such_pass(1, 2)` says "the
    program has 1 backward pass: pass must be 0, not 2"."""
    if count == 1:
        return EngineError(f"the program has 1 backward pass: pass must be 0, not {pass_index}")
    return EngineError(
        f"the program has {count} backward passes: pass must be 0 to {count - 1}, not {pass_index}"
    )
