"""The engine check's sort row takes the recorder's own answer for a pass whose order of
rules `user_pass` found right (`Recorder.right_orders`) instead of working it out again:
the row must be the very one the check works out without it, also where the program sets
a node's operands again after the pass (then the recorder's answer is not taken). And
`user_pass` takes the usual order (every rule once, in the reverse of its own sort) as
right without walking it, but walks a graph whose operands were set again before it."""

from __future__ import annotations

from typing import Any

import pytest

from backprop_animator.engine import Limits, trace_columns
from backprop_animator.engine.lab import engine_check
from backprop_animator.engine.trace import recorder

LIMITS = Limits(max_steps=10**7, time_limit=60.0)

ENGINE = """
class V:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._backward = lambda: None

    def __mul__(self, other):
        out = V(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

"""

TWO_PASSES = (
    ENGINE
    + """
a = V(2.0)
b = V(3.0)
for _ in range(2):
    c = a * b
    d = c * a
    a.grad = 0.0
    b.grad = 0.0
    d.backward()
"""
)

# After its pass, `a` is made an op node that uses `c`: in the graph as the trace ends,
# `c`'s rule ran before that of a node that uses it. The recorder found the pass's order
# right over the graph as the pass sorted it; the check reads the graph at the end.
OPERANDS_SET_AFTER = (
    ENGINE
    + """
a = V(2.0)
b = V(3.0)
c = a * b
d = c * a
d.backward()
a._prev = {c}
"""
)


def rows_both_ways(source: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each check the trace makes: (its answer, the answer without the recorder's
    `right_orders`, the passes it took from the recorder)."""
    seen: list[Any] = []
    real: Any = engine_check.check_run  # (called with the recorder's arguments as they come)

    def check_twice(*args: Any, **kwargs: Any) -> dict[str, Any]:
        found: dict[str, Any] = real(*args, **kwargs)
        seen.append((found, real(*args[:-1], (), **kwargs), set(args[-1])))
        return found

    monkeypatch.setattr(recorder, "check_run", check_twice)
    trace_columns(source, limits=LIMITS)
    return seen


def test_a_pass_found_right_by_the_recorder_is_not_walked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    [(found, again, taken)] = rows_both_ways(TWO_PASSES, monkeypatch)
    assert taken == {0, 1}
    assert found == again
    assert found["sort"] == {"verdict": "right", "first": None}


def test_operands_set_after_the_pass_make_the_check_look_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    [(found, again, taken)] = rows_both_ways(OPERANDS_SET_AFTER, monkeypatch)
    assert found["sort"]["verdict"] == "wrong"  # as the graph at the end has it
    assert found == again
    assert taken == set()


# Operands set again before the pass (`relink`): the graph may then have a cycle, which
# only `own_order_fault`'s walk finds, so the usual order is not taken on sight.
RELINKED_BEFORE = (
    ENGINE
    + """
a = V(2.0)
b = V(3.0)
c = a * b
c._prev = {a, b}
c.backward()
"""
)


def order_walks(source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any]]:
    """How often `user_pass` walked a pass's order (`own_order_fault`), and the trace."""
    walks: list[int] = []
    real: Any = recorder.own_order_fault

    def counted(*args: Any) -> Any:
        walks.append(1)
        return real(*args)

    monkeypatch.setattr(recorder, "own_order_fault", counted)
    trace = trace_columns(source, limits=LIMITS)
    return len(walks), trace


def test_the_usual_order_is_right_without_a_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    walks, trace = order_walks(TWO_PASSES, monkeypatch)
    assert walks == 0  # every rule once, in the reverse of the recorder's own sort
    assert trace["engine_check"]["sort"] == {"verdict": "right", "first": None}
    frames = trace["frames"]
    sorts = [str(k) for k, phase in enumerate(frames["phase"]) if phase == "s"]
    assert len(sorts) == 2
    assert not set(sorts) & frames.get("text", {}).keys()  # the usual words: the page's


def test_a_relinked_graph_is_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walks, trace = order_walks(RELINKED_BEFORE, monkeypatch)
    assert walks == 1
    assert trace["engine_check"]["sort"] == {"verdict": "right", "first": None}
