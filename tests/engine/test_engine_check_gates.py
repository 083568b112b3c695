"""Check your engine (SPEC §14) on engines whose rules skip a share behind a gate: a node
that does not require a gradient (`requires_grad=False`, PyTorch's way, on an input or a
constant) needs no share, so a rule that leaves it out (`if other.requires_grad: other.grad
+= …`) is right, and the right engine computes no gradient for it either (the node says
`requires_grad: false` and has no `correct_grad`). A gate that skips a node that does
require a gradient stays wrong. Every program runs here as CPython runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import trace_columns, trace_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

REAL_CODE = Path(__file__).resolve().parent / "real_code"

# `{gate_self}`/`{gate_other}`: the condition each rule writes its operand's share under.
GATED = """\
class Value:
    def __init__(self, data, _children=(), _op='', requires_grad=True):
        self.data = data
        self.grad = 0.0
        self.{flag} = requires_grad
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other, requires_grad=False)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            if {gate_self}:
                self.grad += out.grad
            if {gate_other}:
                other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other, requires_grad=False)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            if {gate_self}:
                self.grad += other.data * out.grad
            if {gate_other}:
                other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


x = Value(3.0)
w = Value(-2.0)
y = x * w + 1.0
z = y * 2.0
z.backward()
print(x.grad, w.grad, y.grad, z.grad)
"""


def gated(gate_self: str, gate_other: str, flag: str = "requires_grad") -> str:
    return (
        GATED.replace("{flag}", flag)
        .replace("{gate_self}", gate_self)
        .replace("{gate_other}", gate_other)
    )


def by_name(trace: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {node["name"]: node for node in trace["nodes"]}


def traced(source: str) -> dict[str, Any]:
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    return trace


@pytest.mark.parametrize("flag", ["requires_grad", "_requires_grad"])
def test_a_gate_that_skips_a_constants_share_is_right(flag: str) -> None:
    source = gated(f"self.{flag}", f"other.{flag}", flag)
    trace = traced(source)
    # CPython: x.grad -4.0, w.grad 6.0, y.grad 2.0, z.grad 1.0.
    assert run_in_cpython(source) == ["-4.0 6.0 2.0 1.0"]
    check = trace["engine_check"]
    assert {row["op"]: row["verdict"] for row in check["rules"]} == {"*": "right", "+": "right"}
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    nodes = by_name(trace)
    for name, grad in [("x", -4.0), ("w", 6.0), ("x*w", 2.0), ("y", 2.0), ("z", 1.0)]:
        assert nodes[name]["grad"] == nodes[name]["correct_grad"] == grad
        assert "requires_grad" not in nodes[name]
    for constant in ("1", "2"):  # never written, and no right engine computes them either
        assert nodes[constant]["grad"] == 0.0
        assert "correct_grad" not in nodes[constant]
        assert nodes[constant]["requires_grad"] is False
    # No sentence blames the rule for the share it rightly left out.
    texts = " ".join(f["text"] for f in trace["frames"] if f["phase"] == "backward")
    assert "right local derivative" not in texts
    # The page's encoding carries the same.
    columns = trace_columns(source)
    kept = columns["nodes"]["more"]
    index = [n["id"] for n in trace["nodes"]].index(nodes["2"]["id"])
    assert kept[str(index)] == {"requires_grad": False}
    assert columns["nodes"]["correct_grad"][index] is None


def test_a_gate_that_skips_a_node_that_requires_a_gradient_stays_wrong() -> None:
    # Each rule asks the wrong operand: x's share is skipped because 2 needs none.
    source = gated("other.requires_grad", "self.requires_grad")
    trace = traced(source)
    assert run_in_cpython(source) == ["0.0 0.0 0.0 1.0"]
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert rows["*"]["verdict"] == "wrong"
    first = rows["*"]["first"]
    nodes = {node["id"]: node for node in trace["nodes"]}
    assert nodes[first["child"]]["name"] == "y"  # y requires a gradient: its share is owed
    assert (first["learner"], first["correct"]) == (0.0, 2.0)
    assert by_name(trace)["x"]["correct_grad"] == -4.0


def test_a_gate_on_a_flag_that_is_true_stays_wrong() -> None:
    # The constant is made needing a gradient: skipping its share is a bug again.
    source = (
        gated("self.requires_grad", "other.requires_grad")
        .replace("Value(other, requires_grad=False)", "Value(other)")
        .replace(
            "if other.requires_grad:\n                other.grad += self.data",
            "if False:\n                other.grad += self.data",
        )
    )
    trace = traced(source)
    rows = {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]}
    assert rows["*"] == "wrong"
    nodes = by_name(trace)
    assert nodes["2"]["correct_grad"] == -5.0
    assert "requires_grad" not in nodes["2"]


def test_an_engine_that_writes_every_share_keeps_its_constants_right_gradient() -> None:
    # No gate: the constants' gradients are written, and checked, as before.
    source = gated("True", "True")
    trace = traced(source)
    nodes = by_name(trace)
    assert nodes["2"]["grad"] == nodes["2"]["correct_grad"] == -5.0
    assert "requires_grad" not in nodes["2"]
    assert all(row["verdict"] == "right" for row in trace["engine_check"]["rules"])


def test_a_pytorch_style_engine_that_gates_every_share_is_right() -> None:
    source = (REAL_CODE / "requires_grad_engine.py").read_text("utf-8")
    trace = traced(source)
    check = trace["engine_check"]
    assert all(row["verdict"] == "right" for row in check["rules"])
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    nodes = trace["nodes"]
    # Every node that needs a gradient has the right one, and it is the learner's.
    for node in nodes:
        if "requires_grad" in node:
            assert "correct_grad" not in node and node["grad"] == 0.0
        else:
            assert node["correct_grad"] == pytest.approx(node["grad"], rel=1e-12, abs=1e-15)
    # The constants wrapped on the way, and `-y` made of constants alone, need none; so
    # does `loss = Tensor(0.0)`, named by its number since `loss` moved on to the sums.
    unrequired = {node["name"] for node in nodes if "requires_grad" in node}
    assert {"0", "0.6", "0.6*−1"} <= unrequired
    assert {n["label"] for n in nodes if "requires_grad" in n and n["name"] == "0"} == {"loss"}
    assert not unrequired & {"w", "b", "err"}


def masked(mask: str) -> str:
    """GATED with its gates written as a mask the flag sets, as enum_ops_engine's
    `_backward` is: each share multiplied by 1.0 or 0.0, always written."""
    source = gated("{gate}", "{gate}").replace(
        "        self.requires_grad = requires_grad\n",
        f"        self.requires_grad = requires_grad\n        self.mask = {mask}\n",
    )
    for who in ("self", "other"):
        source = source.replace(
            f"            if {{gate}}:\n                {who}.grad += ",
            f"            {who}.grad += {who}.mask * ",
        )
    assert "{gate}" not in source
    return source


def test_a_mask_that_zeroes_a_constants_share_is_right() -> None:
    # The share written, times 0.0 where no gradient is required: `*` and `+` were wrong
    # ("the right local derivative for 2 is 7, not 0"), a right engine accused.
    source = masked("1.0 if requires_grad else 0.0")
    trace = traced(source)
    assert run_in_cpython(source) == ["-4.0 6.0 2.0 1.0"]
    check = trace["engine_check"]
    assert {row["op"]: row["verdict"] for row in check["rules"]} == {"*": "right", "+": "right"}
    nodes = by_name(trace)
    for name, grad in [("x", -4.0), ("w", 6.0), ("x*w", 2.0), ("y", 2.0), ("z", 1.0)]:
        assert nodes[name]["grad"] == nodes[name]["correct_grad"] == grad
    for constant in ("1", "2"):
        assert "correct_grad" not in nodes[constant]
        assert nodes[constant]["requires_grad"] is False


def test_a_mask_that_zeroes_a_share_that_is_required_stays_wrong() -> None:
    source = masked("0.0 if requires_grad else 1.0")
    trace = traced(source)
    assert run_in_cpython(source) == ["0.0 0.0 0.0 1.0"]
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert rows["*"]["verdict"] == "wrong"
    assert by_name(trace)["x"]["correct_grad"] == -4.0
