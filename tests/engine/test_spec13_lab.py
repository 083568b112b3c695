"""SPEC §13's lab options on a program of the learner's own Value class, as docs/LAB.md
writes them down: a mistake is refused with a sentence that says its rules are its own;
`sort_steps` leaves the trace as it is (the sort is the learner's code, whose `build`
calls are not recorded one by one)."""

from __future__ import annotations

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


def test_sort_steps_leave_a_trace_of_the_learners_engine_as_it_is() -> None:
    plain = trace_source(OWN)
    stepped = trace_source(OWN, sort_steps=True)
    assert stepped == plain
    sorts = [f for f in stepped["frames"] if f["phase"] == "sort"]
    assert len(sorts) == len(stepped["passes"]) == 2
    assert all("step" not in f for f in sorts)
