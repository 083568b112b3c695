"""SPEC §3 and §14 together: a learner's engine whose own numbers stay finite, beside a
right engine whose gradient overflows the float range (a share the learner's wrong rule
left out, of 1e300 × 1e10). The trace stays strict JSON: that node has no
`correct_grad` (as a node under an op with no right derivative has none), never
`Infinity` nor the `null` a JSON encoder would put in its place."""

from __future__ import annotations

import json

from backprop_animator.engine import enginecheck_source, trace_source

OVERFLOWING_RIGHT = """
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
            other.grad += 0.0 * out.grad
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
a = V(1e300)
b = V(1e-300)
k = V(1e10)
d = a * b
c = d * k
c.backward()
"""


def test_a_right_gradient_past_the_float_range_is_left_out_not_infinite() -> None:
    trace = trace_source(OVERFLOWING_RIGHT)
    json.dumps(trace, allow_nan=False)  # strict JSON, as SPEC §3 asks
    by_label = {node["label"]: node for node in trace["nodes"]}
    assert "correct_grad" not in by_label["b"]  # 1e300 × 1e10: no float holds it
    assert by_label["a"]["correct_grad"] == 1e-290
    assert (by_label["k"]["correct_grad"], by_label["k"]["grad"]) == (1.0, 0.0)
    assert by_label["d"]["correct_grad"] == by_label["d"]["grad"] == 1e10
    assert by_label["c"]["correct_grad"] == 1.0
    check = enginecheck_source(OVERFLOWING_RIGHT)
    assert [rule["verdict"] for rule in check["rules"]] == ["wrong"]
    json.dumps(check, allow_nan=False)
