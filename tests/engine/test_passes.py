"""The multi-pass trace (SPEC §11): passes, update frames, groups, prints, and its size."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backprop_animator.engine import EngineError, trace_source
from backprop_animator.engine import program_examples as programs
from tests.engine.cpython import (
    assert_same_output,
    printed_lines,
    run_in_cpython,
    run_in_cpython_with_passes,
)
from tests.engine.helpers import nodes_by_id
from tests.support.programs import nn_source, nn_training

TWICE = """a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = a * b + a
c.backward()
c.backward()
"""


def by_label(trace: dict[str, Any], label: str) -> dict[str, Any]:
    return next(node for node in trace["nodes"] if node["label"] == label)


def test_two_backward_calls_accumulate_to_minus_seven() -> None:
    trace = trace_source(TWICE)

    assert trace["schema"] == 2
    assert by_label(trace, "a")["grad"] == -7.0
    assert by_label(trace, "b")["grad"] == 6.0
    assert [p["data"] for p in trace["passes"]] == [-4.0, -4.0]
    assert trace["passes"][0]["topo"] == trace["passes"][1]["topo"] == trace["topo"]


def test_the_second_pass_shows_the_intermediate_node_accumulating_too() -> None:
    trace = trace_source(TWICE)
    second = [f for f in trace["frames"] if f["pass"] == 1]
    product = next(n["id"] for n in trace["nodes"] if n["op"] == "*")

    assert [f["phase"] for f in second] == ["sort"] + ["backward"] * 4  # nothing rebuilt
    into_product = [
        c
        for f in second
        if f["phase"] == "backward"
        for c in f["contributions"]
        if c["to"] == product
    ]
    assert [(c["before"], c["after"]) for c in into_product] == [(1.0, 2.0)]
    assert second[0]["changes"] == [
        {"node": trace["output"], "field": "grad", "before": 1.0, "after": 1.0}
    ]


def test_zero_grad_between_passes_is_one_update_frame() -> None:
    source = TWICE.replace(
        "c.backward()\nc.backward()",
        ("c.backward()\nfor p in [a, b, c]:\n    p.grad = 0.0\nc.backward()"),
    )
    trace = trace_source(source)
    updates = [f for f in trace["frames"] if f["phase"] == "update"]

    assert len(updates) == 1
    assert updates[0]["line"] == 5
    assert updates[0]["pass"] == 1
    assert {c["field"] for c in updates[0]["changes"]} == {"grad"}
    assert len(updates[0]["changes"]) == 3
    # The unnamed product a*b was not cleared, so it still accumulates: -2 + -3 = -5.
    assert by_label(trace, "a")["grad"] == -5.0
    assert updates[0]["text"] == "for p in [a, b, c]: 3 gradients set to 0"


def test_an_update_text_agrees_in_number_with_its_count() -> None:
    source = (
        "w = Value(0.5, label='w')\n"
        "for step in range(2):\n"
        "    loss = (w * 2.0 - 3.0) ** 2\n"
        "    w.grad = 0.0\n"
        "    loss.backward()\n"
        "    w.data -= 0.05 * w.grad\n"
    )
    texts = [f["text"] for f in trace_source(source)["frames"] if f["phase"] == "update"]
    assert "w.data -= 0.05 * w.grad: 1 data value changes" in texts
    assert "w.grad = 0.0: 1 gradient set to 0" in texts


def test_each_frame_belongs_to_a_pass_and_frames_come_in_pass_order() -> None:
    trace = trace_source(TWICE)
    passes = [frame["pass"] for frame in trace["frames"]]
    assert passes == sorted(passes)
    assert set(passes) == {0, 1}


def test_a_program_with_one_pass_keeps_schema_one_plus_its_pass() -> None:
    trace = trace_source("def f(x):\n    return x * x\na = Value(3.0)\no = f(a)\no.backward()\n")
    assert trace["schema"] == 1
    assert trace["passes"] == [
        {"output": trace["output"], "topo": trace["topo"], "data": 9.0, "names": {}}
    ]
    assert not any(f["phase"] == "update" for f in trace["frames"])
    assert "changes" not in next(f for f in trace["frames"] if f["phase"] == "sort")


def test_a_straight_line_program_gets_its_one_pass_too() -> None:
    trace = trace_source("a = Value(3.0)\nb = a + a\nb.backward()\n")
    assert trace["passes"] == [{"output": "n1", "topo": ["n0", "n1"], "data": 6.0, "names": {}}]


def test_build_frames_carry_the_line_that_made_their_node() -> None:
    source = "def f(x):\n    y = x * 2\n    return y + 1\no = f(Value(1.0))\no.backward()\n"
    trace = trace_source(source)
    assert [f["line"] for f in trace["frames"] if f["phase"] == "build"] == [2, 3]


def test_printed_lines_go_with_the_frame_they_precede() -> None:
    source = (
        "a = Value(1.0)\nprint('before b')\nb = a * 2\nprint('before c')\nc = b + 1\n"
        "c.backward()\nprint('after', a.grad)\n"
    )
    trace = trace_source(source)
    frames = trace["frames"]
    b = by_label(trace, "b")["id"]
    c = by_label(trace, "c")["id"]
    build_b = next(f for f in frames if f["phase"] == "build" and f["node"] == b)
    build_c = next(f for f in frames if f["phase"] == "build" and f["node"] == c)

    assert build_b["prints"] == ["before b"]
    assert build_c["prints"] == ["before c"]
    assert frames[-1]["prints"] == ["after 2"]  # as micrograd: its gradients stay ints


def test_nodes_are_every_node_any_pass_reached_once_with_final_values() -> None:
    source = (
        "w = Value(1.0, label='w')\nfor k in range(3):\n    loss = w * w\n    w.grad = 0.0\n"
        "    loss.backward()\n    w.data -= 0.25 * w.grad\n"
    )
    trace = trace_source(source)
    labels = [n["label"] for n in trace["nodes"]]

    assert labels.count("w") == 1
    assert labels.count("loss") == 3
    assert by_label(trace, "w")["data"] == pytest.approx(0.125)
    assert [p["data"] for p in trace["passes"]] == [1.0, 0.25, 0.0625]
    steps = [f for f in trace["frames"] if f["phase"] == "update" and f["line"] == 6]
    assert [(c["before"], c["after"]) for f in steps for c in f["changes"]] == [
        (1.0, 0.5),
        (0.5, 0.25),
        (0.25, 0.125),
    ]
    ids = nodes_by_id(trace)
    assert all(c["node"] in ids for f in steps for c in f["changes"])


def test_a_six_step_mlp_training_stays_under_a_kilobyte_per_node() -> None:
    source = nn_source() + nn_training(7, prints=False)
    trace = trace_source(source)
    size = len(json.dumps(trace, separators=(",", ":")))

    assert size / len(trace["nodes"]) < 1024
    updates = [f for f in trace["frames"] if f["phase"] == "update"]
    clears = [f for f in updates if f["text"].startswith("model.zero_grad()")]
    steps = [f for f in updates if f not in clears]
    # The first zero_grad() finds every gradient at 0: it changes nothing, so no frame.
    # A write that changes nothing is no change (a dead ReLU's weights stay put).
    assert len(steps) == 6 and len(clears) == 5
    assert all(f["changes"] for f in updates)
    assert all(c["before"] != c["after"] for f in updates for c in f["changes"])
    assert all(c["field"] == "grad" and c["after"] == 0 for f in clears for c in f["changes"])
    assert all(c["field"] == "data" for f in steps for c in f["changes"])


def test_the_forgot_zero_grad_example_ends_at_minus_seven() -> None:
    trace = trace_source(programs.FORGOT_ZERO_GRAD)
    assert printed_lines(trace) == [
        "after one pass, a.grad = -2.0",
        "after two passes, a.grad = -7.0",
    ]


def test_the_zero_grad_example_clears_every_gradient_in_one_update_frame() -> None:
    trace = trace_source(programs.WITH_ZERO_GRAD)
    updates = [f for f in trace["frames"] if f["phase"] == "update"]
    assert len(updates) == 1 and len(updates[0]["changes"]) == 4
    assert printed_lines(trace) == ["a.grad = -2.0"]


def test_the_mlp_training_example_prints_cpythons_losses() -> None:
    source = programs.MLP_TRAINING
    reference = run_in_cpython(
        source.replace(
            "from micrograd.engine import Value",
            "from backprop_animator.engine.value import Value",
        )
    )
    assert_same_output(printed_lines(trace_source(source)), reference)


def test_the_own_engine_example_is_traced_with_its_own_rules() -> None:
    trace = trace_source(programs.OWN_ENGINE)
    assert len(trace["frames"]) == 16
    assert printed_lines(trace)[1] == "Value(x1: data=2.0000, grad=-1.5000)"


def test_a_program_class_node_points_at_the_lines_of_its_own_rule() -> None:
    trace = trace_source(programs.OWN_ENGINE)
    lines = programs.OWN_ENGINE.split("\n")

    def written(node: dict[str, Any]) -> list[str]:
        rule = node["rule"]
        return [line.strip() for line in lines[rule["line"] - 1 : rule["end_line"]]]

    by_op: dict[str, list[str]] = {}
    for node in trace["nodes"]:
        body = written(node)
        if node["kind"] == "leaf":
            assert body == ["self._backward = lambda: None"], node
        else:
            assert body[0] == "def _backward():", node
            assert by_op.setdefault(node["op"], body) == body, "one rule per op"
    assert set(by_op) == {"*", "+", "tanh"}
    assert any("(1 - t**2)" in line for line in by_op["tanh"])
    assert all(line.startswith(("def", "self.grad", "other.grad")) for line in by_op["*"])


def test_a_rule_that_is_a_method_or_replaced_points_at_the_one_the_node_holds_at_the_end() -> None:
    source = """\
class V:
    def __init__(self, data, prev=()):
        self.data, self.grad, self._prev, self._op = data, 0.0, prev, ""
        self._backward = self.nothing

    def nothing(self):
        pass

    def add_grad(self, amount):
        self.grad += amount

    def __mul__(self, other):
        out = V(self.data * other.data, (self, other))
        out._op = "*"
        def first():
            self.grad += other.data * out.grad
        out._backward = first
        out._backward = lambda: (
            self.add_grad(other.data * out.grad),
            other.add_grad(self.data * out.grad),
        )
        return out

    def backward(self):
        self.grad = 1.0
        self._backward()
        for child in self._prev:
            child._backward()

a, b = V(2.0), V(-3.0)
(a * b).backward()
"""
    nodes = trace_source(source)["nodes"]
    assert [node.get("rule") for node in nodes] == [
        {"line": 6, "end_line": 7},  # a bound method: where the method is written
        {"line": 6, "end_line": 7},
        {"line": 18, "end_line": 21},  # the lambda that replaced `first`
    ]
    assert [node["grad"] for node in nodes] == [-3.0, 2.0, 1.0]


def test_the_engines_own_values_have_no_rule_lines() -> None:
    for source in (programs.FORGOT_ZERO_GRAD, nn_source() + nn_training(prints=False)):
        assert all("rule" not in node for node in trace_source(source)["nodes"])


def test_numbers_with_several_passes_are_told_to_become_values() -> None:
    with pytest.raises(EngineError, match="numbers stay numbers") as caught:
        trace_source("a = 2.0\nb = -3.0\nc = a * b + a\nc.backward()\nc.backward()\n")
    assert (caught.value.line, caught.value.column) == (4, 1)


def test_every_sort_frame_names_its_pass_output() -> None:
    trace = trace_source(TWICE)
    sorts = [f for f in trace["frames"] if f["phase"] == "sort"]
    assert [f["node"] for f in sorts] == [p["output"] for p in trace["passes"]]


def test_frames_follow_the_program_and_build_texts_use_the_numbers_of_their_time() -> None:
    # The node is made, then a parameter moves, then the pass runs: the build frame comes
    # first and says what was computed then (0.5 × 2 = 1), not with today's data.
    trace = trace_source("w = Value(0.5, label='w')\ny = w * 2.0\nw.data = 10.0\ny.backward()\n")

    phases = [frame["phase"] for frame in trace["frames"]]
    assert phases[:3] == ["build", "update", "sort"]
    assert "0.5 × 2 = 1" in trace["frames"][0]["text"]
    assert trace["frames"][1]["changes"][0]["after"] == 10.0


def test_an_update_that_changes_nothing_is_not_a_frame() -> None:
    trace = trace_source(
        "w = Value(0.5, label='w')\nw.grad = 0.0\ny = w * 3.0\ny.backward()\ny.backward()\n"
    )
    assert [frame["phase"] for frame in trace["frames"]].count("update") == 0


def test_an_update_says_which_value_stayed_and_why() -> None:
    # Issue 23, 8: a parameter whose gradient is 0 is written unchanged by the step.
    source = (
        "x = Value(0.0, label='x')\nw = Value(2.0, label='w')\nb = Value(1.0, label='b')\n"
        "o = x * w + b\no.backward()\nfor p in (w, b):\n    p.data -= 0.1 * p.grad\n"
    )
    trace = trace_source(source)
    (update,) = [f for f in trace["frames"] if f["phase"] == "update"]
    assert update["text"] == (
        "for p in (w, b): 1 data value changes, 1 stays as it was: its gradient is 0 (w)"
    )
    assert [c["node"] for c in update["changes"]] == ["n2"]  # b's; w's write changed nothing
    assert "still" not in update


HOOKED = """
class Value:
    def __init__(self, data, _children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = _children
        self.hooks = []

    def register_backward_hook(self, fn):
        self.hooks.append(fn)

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        self.grad = 1.0
        self._backward()
        for hook in self.hooks:
            hook(self)


a, b = Value(2.0), Value(-3.0)
a.register_backward_hook(print)
y = a * b
y.register_backward_hook(lambda v: print('hook', v.grad))
y.backward()
print(a.grad, b.grad)
"""


def test_a_nodes_method_named_with_a_pass_word_that_does_no_pass_work_is_no_pass() -> None:
    # `register_backward_hook` keeps a hook: it writes no gradient and runs no rule, so it
    # is no pass (each call was one, with its own sort frame and no rule); the words'
    # methods that do a pass's work still are, in CPython's count too.
    lines, numbers, _ = run_in_cpython_with_passes(HOOKED)
    trace = trace_source(HOOKED)
    assert printed_lines(trace) == lines == ["hook 1.0", "-3.0 2.0"]
    assert [one["data"] for one in trace["passes"]] == numbers == [-6.0]
    runs = HOOKED.replace("def backward(", "def run_backward(").replace(
        "y.backward()", "y.run_backward()"
    )
    lines, numbers, _ = run_in_cpython_with_passes(runs)
    assert [one["data"] for one in trace_source(runs)["passes"]] == numbers == [-6.0]
