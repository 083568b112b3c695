"""The bug lab: the engine made wrong in exactly the three ways the article warns about.

SPEC §8. Each mistake changes one thing and keeps everything else, so the numbers a
trace shows are the numbers that mistaken engine really computes:

- `assign`: every rule writes `child.grad = local * out.grad` instead of `+=`, in
  operand order (self first, then other). `a + a` leaves `a.grad == 1.0`.
- `append-first`: the depth-first sort appends a node *before* visiting its children;
  backward still walks `reversed(topo)`, so rules run before their gradient arrives.
- `no-sort`: no sort at all; backward walks depth-first from the output and calls each
  node's rule the first time it gets there. Right on trees, wrong on a reused node.

Not here: the frames and their words (`engine.trace.recorder`, `engine.lab.mistake_text`).

Example: for `c = a * b; d = c + a`, `backward_order(d, "no-sort")` is
`([d, c, a, b], [d, c, a, b])`: topo is the order the rules run, which is preorder.
"""

from __future__ import annotations

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.lab.sort_steps import (
    RECURSIVE_SORT_APPEND_FIRST,
    appended,
    sort_steps,
)
from backprop_animator.engine.value import Value, topological_order

MISTAKES = ("assign", "append-first", "no-sort")

Tape = list[tuple[Value, float, float, float]]  # (child, local, delta, before) per write

# What each mistake changes, as code the page's code panel shows next to the right one.
MISTAKE_SOURCES = {
    "assign": '''\
def _accumulate(self, local, out):
    """MISTAKE: `=` where `+=` belongs."""
    self.grad = local * out.grad   # overwrites what other parents added
''',
    "append-first": RECURSIVE_SORT_APPEND_FIRST,
    "no-sort": '''\
def backward(self):
    """MISTAKE: no topological sort."""
    self.grad = 1.0
    visited = set()

    def walk(v):
        if v in visited:
            return
        visited.add(v)
        v._backward()             # runs before every parent has added in
        for child in v._prev:
            walk(child)

    walk(self)
''',
}


def check_mistake(mistake: str | None) -> None:
    """Refuse anything that is not one of `MISTAKES` (or None, the right engine)."""
    if mistake is not None and mistake not in MISTAKES:
        choices = ", ".join(repr(name) for name in MISTAKES)
        raise EngineError(f"mistake must be one of {choices} (or none), not {mistake!r}")


def backward_order(output: Value, mistake: str | None) -> tuple[list[Value], list[Value]]:
    """`(topo, the order the rules run)` for the right engine or a mistaken one.

    The right engine (and `assign`, whose sort is right) runs `reversed(topo)`;
    `append-first` runs the reverse of a preorder; `no-sort` runs the preorder itself
    and reports it as `topo`.
    """
    check_mistake(mistake)
    if mistake in (None, "assign"):
        topo = topological_order(output)
        return topo, topo[::-1]
    preorder = appended(sort_steps(output, append_first=True))
    if mistake == "append-first":
        return preorder, preorder[::-1]
    return preorder, preorder


def overwrite(tape: Tape) -> Tape:
    """Turn the `+=`s one rule just made into the `assign` mistake's `=`s.

    The rule ran as written (its tape holds each write's child, local derivative, delta
    and the child's gradient before); the writes are undone, newest first, and redone
    as `child.grad = delta` in the same order. Returns the tape of the `=`s, whose
    `before` is what each write overwrote.

    Example: `a + a` with upstream 1: tape [(a, 1, 1, 0), (a, 1, 1, 1)] leaves
    `a.grad == 1` and returns [(a, 1, 1, 0), (a, 1, 1, 1)]: the second write found 1.
    """
    for child, _, _, before in reversed(tape):
        child.grad = before
    written: Tape = []
    for child, local, delta, _ in tape:
        written.append((child, local, delta, child.grad))
        child.grad = delta
    return written
