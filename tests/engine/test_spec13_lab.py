"""SPEC §13's lab options on a program of the learner's own Value class, as docs/LAB.md
writes them down: a mistake is refused with a sentence that says its rules are its own;
`sort_steps` shows, before each pass's seed, the calls of the recursive depth-first walk
whose appends are the order the learner's own sort made (checked after its backward()
ran), and only the seed where no such walk makes that order."""

from __future__ import annotations

from typing import Any

import pytest

from backprop_animator.engine import EngineError, trace_source

OWN = """
class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None
    def __mul__(self, other):
        out = V(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def backward(self):
        topo = []
        seen = set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
a = V(2.0)
b = V(3.0)
c = a * b
c.backward()
d = c * a
d.backward()
"""


@pytest.mark.parametrize("mistake", ["assign", "append-first", "no-sort"])
def test_a_mistake_on_the_learners_engine_is_refused_saying_its_rules_are_its_own(
    mistake: str,
) -> None:
    with pytest.raises(EngineError, match="its own rules") as refused:
        trace_source(OWN, mistake=mistake)
    assert refused.value.line is not None


def without_steps(trace: dict[str, Any]) -> dict[str, Any]:
    """The trace with its sort steps taken out: the seed frames back to sort frames."""
    frames = []
    for frame in trace["frames"]:
        if frame.get("step") in ("visit", "skip", "append"):
            continue
        frames.append({key: value for key, value in frame.items() if key != "step"})
    return {**trace, "frames": frames}


def steps_of(trace: dict[str, Any], index: int) -> list[tuple[str, str, int]]:
    return [
        (frame["step"], frame["node"], frame["depth"])
        for frame in trace["frames"]
        if frame.get("pass") == index and frame.get("step") in ("visit", "skip", "append")
    ]


def test_sort_steps_show_the_learners_depth_first_sort_call_by_call_in_every_pass() -> None:
    plain = trace_source(OWN)
    stepped = trace_source(OWN, sort_steps=True)
    assert without_steps(stepped) == plain
    for index, run in enumerate(stepped["passes"]):
        steps = steps_of(stepped, index)
        assert [node for step, node, _ in steps if step == "append"] == run["topo"]
        assert steps[0] == ("visit", run["output"], 0)
        sorts = [f for f in stepped["frames"] if f.get("pass") == index and f["phase"] == "sort"]
        assert sorts[-1]["step"] == "seed"
        assert len(sorts) == len(steps) + 1
    # d = c * a: a is reached twice, the second call returns at once.
    assert [step for step, _, _ in steps_of(stepped, 1)].count("skip") == 1


def test_a_learners_sort_that_takes_the_operands_the_other_way_round_is_walked_so() -> None:
    source = OWN.replace("for c in v._prev:", "for c in reversed(list(v._prev)):")
    stepped = trace_source(source, sort_steps=True)
    for index, run in enumerate(stepped["passes"]):
        appends = [node for step, node, _ in steps_of(stepped, index) if step == "append"]
        assert appends == run["topo"]
    assert without_steps(stepped) == trace_source(source)


def test_a_learners_order_no_depth_first_walk_makes_gets_the_seed_alone() -> None:
    # Kahn's sort, breadth first from the output: a right order, not a depth-first one.
    kahn = OWN.replace(
        """        topo = []
        seen = set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()""",
        """        nodes, todo = [self], [self]
        while todo:
            v = todo.pop(0)
            for c in sorted(v._prev, key=lambda n: n.data):
                if c not in nodes:
                    nodes.append(c)
                    todo.append(c)
        waiting = {id(v): 0 for v in nodes}
        for v in nodes:
            for c in v._prev:
                waiting[id(c)] += 1
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop(0)
            v._backward()
            for c in sorted(v._prev, key=lambda n: n.data):
                waiting[id(c)] -= 1
                if waiting[id(c)] == 0:
                    ready.append(c)""",
    )
    # d = c * (e * f): breadth first runs d, c, e*f, then the leaves; a depth-first
    # walk's order would put e*f right after e and f, or c right after a and b.
    kahn = kahn.replace(
        "d = c * a\nd.backward()", "e, f = V(4.0), V(5.0)\nd = c * (e * f)\nd.backward()"
    )
    stepped = trace_source(kahn, sort_steps=True)
    assert steps_of(stepped, 0) != []  # c = a * b: one order, which the walk makes
    assert steps_of(stepped, 1) == []
    seeds = [f for f in stepped["frames"] if f.get("pass") == 1 and f.get("step") == "seed"]
    assert len(seeds) == 1


def test_leaves_whose_rules_the_learner_does_not_run_are_still_appended_by_the_walk() -> None:
    # The rule runs only on nodes with operands: the pass's topo has no leaves.
    source = OWN.replace(
        "            v._backward()", "            if v._prev:\n                v._backward()"
    )
    stepped = trace_source(source, sort_steps=True)
    for index, run in enumerate(stepped["passes"]):
        appends = [node for step, node, _ in steps_of(stepped, index) if step == "append"]
        assert [node for node in appends if node in run["topo"]] == run["topo"]
        assert len(appends) > len(run["topo"])
