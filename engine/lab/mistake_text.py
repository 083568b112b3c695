"""The words of a mistaken engine's frames: what it did, and where it went wrong.

Pure string work, like `engine.trace.narrate`, over the rules a mistaken backward pass ran
(`Run`: the node, its gradient when its rule ran, the writes the rule made) and the
gradients the right engine gives (`correct`). The texts name the place the lesson is:
the write that overwrote another (`assign`), the rule that ran before its gradient
arrived (`append-first`, `no-sort`), the contribution that came too late (`no-sort`).

Example: `a + a` with `assign` reads
`a + a (+, grad 1): pass the gradient on unchanged. a.grad = 1 × 1 → 1;
a.grad = 1 × 1 → 1: this 2nd write overwrote the 1 already there; += would have made it 2.`
"""

from __future__ import annotations

from dataclasses import dataclass

from backprop_animator.engine.lab.mistakes import Tape
from backprop_animator.engine.trace.narrate import Names, fmt, ordinal, rule_text
from backprop_animator.engine.trace.sentences import operand
from backprop_animator.engine.value import Value

SORT_TEXTS = {
    "assign": (
        "Depth-first sort: {count}, each after its children. Seed {operand}.grad = 1. "
        "The mistake is in the rules: each writes child.grad = … where += belongs."
    ),
    "append-first": (
        "Depth-first sort with the append before the loop over the children: {count}, "
        "each placed before its children. Seed {operand}.grad = 1, then walk the order "
        "backwards, so children's rules run before their parents'."
    ),
    "no-sort": (
        "No sort happened. Seed {operand}.grad = 1, then walk depth-first from "
        "{output}, running each node's rule the first time the walk reaches it."
    ),
}


@dataclass(frozen=True)
class Run:
    """One rule a mistaken backward pass ran: the node, its grad then, its writes."""

    node: Value
    upstream: float
    tape: Tape


def sort_text(output: Value, count: int, name: Names, mistake: str) -> str:
    nodes = f"{count} {'node' if count == 1 else 'nodes'}"
    said = name(output)
    return SORT_TEXTS[mistake].format(count=nodes, output=said, operand=operand(said))


class Story:
    """Narrates a mistaken pass; it knows the whole run, so it can say what is yet to come."""

    def __init__(
        self,
        mistake: str,
        runs: list[Run],
        correct: dict[Value, float],
        name: Names,
        output: Value,
    ) -> None:
        self.mistake = mistake
        self.runs = runs
        self.correct = correct
        self.name = name
        self.output = output
        self.ran_at = {run.node: i for i, run in enumerate(runs)}
        # For `no-sort`: the contributions each node got after its own rule had run.
        self.late: dict[Value, list[tuple[float, Value]]] = {}
        for i, run in enumerate(runs):
            for child, _, delta, _ in run.tape:
                if self.ran_at.get(child, len(runs)) < i:
                    self.late.setdefault(child, []).append((delta, run.node))

    def texts(self) -> list[str]:
        """One text per run, in order."""
        writes: dict[Value, int] = {}
        return [self._text(i, run, writes) for i, run in enumerate(self.runs)]

    def _text(self, index: int, run: Run, writes: dict[Value, int]) -> str:
        node, name = run.node, self.name
        right = self.correct[node]
        if not node._prev:
            what = "constant" if node._const else "leaf"
            text = f"{name(node)} is a {what}: its rule does nothing. grad = {fmt(run.upstream)}"
            if node.grad != right:  # the pass is over: node.grad is where it ends
                text += f", where the right engine has {fmt(right)}"
            return text + "."
        rule = rule_text(node._op)
        upstream = fmt(run.upstream)
        steps = [self._write(index, upstream, entry, writes) for entry in run.tape]
        text = f"{name(node)} ({node._op}, grad {upstream}): {rule}. " + "; ".join(steps) + "."
        warning = self._warning(index, run, right)
        return f"{text} {warning}" if warning else text

    def _write(
        self,
        index: int,
        upstream: str,
        entry: tuple[Value, float, float, float],
        writes: dict[Value, int],
    ) -> str:
        """One write of a rule, `upstream` being the rule's node's grad as the text shows it."""
        child, local, delta, before = entry
        name = self.name
        writes[child] = count = writes.get(child, 0) + 1
        if self.mistake == "assign":
            text = f"{operand(name(child))}.grad = {fmt(local)} × {upstream} → {fmt(delta)}"
            if count > 1:
                text += (
                    f": this {ordinal(count)} write overwrote the {fmt(before)} already there; "
                    f"+= would have made it {fmt(before + delta)}"
                )
            return text
        text = f"{operand(name(child))}.grad += {fmt(local)} × {upstream} → {fmt(before + delta)}"
        ran = self.ran_at.get(child)
        # A leaf's rule does nothing: a late contribution to it is lost to no one.
        if ran is not None and ran < index and child._prev:
            text += (
                f", too late: {name(child)}'s rule already ran, so this {fmt(delta)} "
                "never reaches below it"
            )
        return text

    def _warning(self, index: int, run: Run, right: float) -> str:
        node, name = run.node, self.name
        if self.mistake == "append-first" and node is self.output:
            return (
                f"{name(node)} was appended first, so its rule runs last: the rules below "
                "it have already run, and what it passes on goes no further."
            )
        if run.upstream == right:
            return ""
        if self.mistake == "assign":
            return (
                f"{name(node)} passes on {fmt(run.upstream)}, not the right engine's "
                f"{fmt(right)}: a write into {operand(name(node))}.grad overwrote part of it."
            )
        if self.mistake == "append-first":
            return (
                f"Too early: the right engine's {operand(name(node))}.grad is {fmt(right)} here, "
                "but its parents come after it in reversed(topo), so their rules have not run."
            )
        late = [f"{fmt(delta)} from {name(parent)}" for delta, parent in self.late.get(node, [])]
        if not late:
            return (
                f"{name(node)} passes on {fmt(run.upstream)}, which came from a rule that ran "
                f"too early (the right engine passes on {fmt(right)})."
            )
        missing = " and ".join(late) + (" has" if len(late) == 1 else " have")
        return (
            f"Too early: {name(node)} passes on {fmt(run.upstream)}, but {missing} not "
            f"arrived yet (the right engine passes on {fmt(right)})."
        )
