"""The lab on real programs (SPEC §13): the bug lab's mistakes and the sort step by step
in every pass of a program with functions, loops, classes and training steps.

Every number is compared with a reference run by CPython itself: the same program
executed with `RefValue` below, a small engine written for these tests alone (operands
kept in order, each mistake written out as SPEC §8 says), which also keeps what the
right engine gives in each pass from the same gradients.
"""

from __future__ import annotations

import ast
import math
import random
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from backprop_animator.engine import EngineError, gradcheck_source, program_examples, trace_source
from backprop_animator.engine.lab.sort_steps import RECURSIVE_SORT
from backprop_animator.engine.parse import first_real_statement, is_straight_line


class RefValue:
    """A reference engine: micrograd's rules, operands in order, a mistake switch."""

    mistake: ClassVar[str | None] = None
    passes: ClassVar[list[dict[str, tuple[float, float]]]] = []  # label -> (grad, right)
    labelled: ClassVar[dict[str, RefValue]] = {}  # the leaves made with a label, by label

    def __init__(
        self, data: float, _children: tuple[Any, ...] = (), _op: str = "", label: str = ""
    ):
        self.data = data
        self.grad = 0.0
        self._prev = _children
        self._op = _op
        self.label = label
        self._locals: Callable[[], list[float]] = list
        if label:
            RefValue.labelled[label] = self

    @staticmethod
    def of(x: Any) -> RefValue:
        return x if isinstance(x, RefValue) else RefValue(x)

    def __add__(self, other: Any) -> RefValue:
        other = RefValue.of(other)
        out = RefValue(self.data + other.data, (self, other), "+")
        out._locals = lambda: [1.0, 1.0]
        return out

    def __mul__(self, other: Any) -> RefValue:
        other = RefValue.of(other)
        out = RefValue(self.data * other.data, (self, other), "*")
        out._locals = lambda: [other.data, self.data]
        return out

    def __pow__(self, k: float) -> RefValue:
        out = RefValue(self.data**k, (self,), f"**{k}")
        out._locals = lambda: [k * self.data ** (k - 1)]
        return out

    def tanh(self) -> RefValue:
        t = math.tanh(self.data)
        out = RefValue(t, (self,), "tanh")
        out._locals = lambda: [1 - t**2]
        return out

    def relu(self) -> RefValue:
        out = RefValue(max(0.0, self.data), (self,), "ReLU")
        out._locals = lambda: [float(out.data > 0)]
        return out

    def __neg__(self) -> RefValue:
        return self * -1

    def __sub__(self, other: Any) -> RefValue:
        return self + (-RefValue.of(other))

    def __rsub__(self, other: Any) -> RefValue:
        return RefValue.of(other) + (-self)

    def __radd__(self, other: Any) -> RefValue:
        return self + other

    def __rmul__(self, other: Any) -> RefValue:
        return self * other

    def __truediv__(self, other: Any) -> RefValue:
        return self * RefValue.of(other) ** -1

    def rule(self, assign: bool) -> None:
        for child, local in zip(self._prev, self._locals(), strict=True):
            if assign:
                child.grad = local * self.grad
            else:
                child.grad += local * self.grad

    def order(self, mistake: str | None) -> list[RefValue]:
        topo: list[RefValue] = []
        visited: set[int] = set()

        def build(v: RefValue, first: bool) -> None:
            if id(v) in visited:
                return
            visited.add(id(v))
            if first:
                topo.append(v)
            for child in v._prev:
                build(child, first)
            if not first:
                topo.append(v)

        build(self, mistake in ("append-first", "no-sort"))
        return topo if mistake == "no-sort" else topo[::-1]

    def backward(self) -> None:
        mistake = RefValue.mistake
        nodes = self.order(None)
        start = {id(v): v.grad for v in nodes}
        self.grad = 1.0
        for v in nodes:
            v.rule(assign=False)
        right = {id(v): v.grad for v in nodes}
        for v in nodes:
            v.grad = start[id(v)]
        self.grad = 1.0
        for v in self.order(mistake):
            v.rule(assign=mistake == "assign")
        RefValue.passes.append(
            {v.label: (v.grad, right[id(v)]) for v in nodes if v.label and not v._prev}
        )


def run_reference(source: str, mistake: str | None) -> tuple[dict[str, RefValue], list[Any]]:
    """The program run by CPython with the reference engine: its labelled leaves, passes."""
    RefValue.mistake = mistake
    RefValue.passes = []
    RefValue.labelled = {}
    random.seed(0)
    namespace: dict[str, Any] = {"Value": RefValue}
    body = "\n".join(
        line
        for line in source.splitlines()
        if not line.startswith(("from backprop_animator", "from micrograd"))
    )
    # the tests' own programs (`dont_inherit`: as a script, not under this module's `__future__`)
    exec(compile(body, "<program>", "exec", dont_inherit=True), namespace)
    return RefValue.labelled, RefValue.passes


def pass_end_grads(trace: dict[str, Any]) -> list[dict[str, float]]:
    """Each pass's leaf gradients as its last write left them, by label."""
    label = {node["id"]: node["label"] for node in trace["nodes"] if node["kind"] == "leaf"}
    out: list[dict[str, float]] = [{} for _ in trace["passes"]]
    for frame in trace["frames"]:
        for c in frame.get("contributions", []):
            if c["to"] in label:
                out[frame["pass"]][label[c["to"]]] = c["after"]
    return out


def recursive_build(
    edges: dict[str, list[str]], output: str, *, append_first: bool
) -> list[tuple[str, str, int]]:
    """The calls of the article's recursive `build(v)` from `output` (SPEC §9)."""
    calls: list[tuple[str, str, int]] = []
    visited: set[str] = set()

    def build(v: str, depth: int) -> None:
        if v in visited:
            calls.append(("skip", v, depth))
            return
        visited.add(v)
        calls.append(("visit", v, depth))
        if append_first:
            calls.append(("append", v, depth))
        for child in edges.get(v, []):
            build(child, depth + 1)
        if not append_first:
            calls.append(("append", v, depth))

    build(output, 0)
    return calls


# A weight shared across a batch: the article's `=` for `+=` lesson in a training loop.
SHARED_WEIGHT = """\
w = Value(0.5, label='w')
b = Value(0.1, label='b')
xs = [1.0, -2.0, 3.0]
ys = [1.0, -1.0, 1.0]
for step in range(3):
    loss = sum(((w * x + b).tanh() - y) ** 2 for x, y in zip(xs, ys))
    w.grad = 0.0
    b.grad = 0.0
    loss.backward()
    for p in (w, b):
        p.data -= 0.05 * p.grad
loss
"""

# A function called twice, a reused intermediate and no zero_grad between the passes.
FUNCTION_REUSE = """\
def neuron(x, w, b):
    n = x * w + b
    return n.tanh()

x = Value(0.8, label='x')
w = Value(-1.5, label='w')
b = Value(0.4, label='b')
h = neuron(x, w, b)
e = h * h + h
for i in range(2):
    e.backward()
"""

# A generator making the terms, a list and a class holding the parameters.
GENERATOR_CLASS = """\
class Line:
    def __init__(self):
        self.w = Value(0.3, label='w')
        self.c = Value(-0.2, label='c')

    def __call__(self, x):
        return self.w * x + self.c

    def parameters(self):
        return [self.w, self.c]

def squares(model, points):
    for x, y in points:
        d = model(x) - y
        yield d * d

model = Line()
points = [(1.0, 2.0), (2.0, 3.5), (-1.0, 0.0)]
for epoch in range(2):
    loss = sum(squares(model, points))
    for p in model.parameters():
        p.grad = 0.0
    loss.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad
"""

PROGRAMS = {
    "shared-weight": SHARED_WEIGHT,
    "function-reuse": FUNCTION_REUSE,
    "generator-class": GENERATOR_CLASS,
}
MISTAKES = [None, "assign", "append-first", "no-sort"]


@pytest.mark.parametrize("mistake", MISTAKES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_pass_of_a_mistaken_engine_gives_the_reference_s_numbers(
    name: str, mistake: str | None
) -> None:
    source = PROGRAMS[name]
    trace = trace_source(source, mistake=mistake)
    leaves, passes = run_reference(source, mistake)

    assert len(trace["passes"]) == len(passes)
    by_label = {n["label"]: n for n in trace["nodes"] if n["kind"] == "leaf" and n["label"]}
    ends = pass_end_grads(trace)
    for k, (reference, entry) in enumerate(zip(passes, trace["passes"], strict=True)):
        for label, (grad, right) in reference.items():
            if label in ends[k]:  # a leaf the pass wrote into
                assert math.isclose(ends[k][label], grad, rel_tol=1e-12, abs_tol=1e-15)
            if mistake is not None:
                # Each pass's right gradients, from the gradients that pass started with.
                ours = entry["correct_grads"][by_label[label]["id"]]
                assert math.isclose(ours, right, rel_tol=1e-12, abs_tol=1e-15)
    # The updates applied the gradients the mistaken engine really computed.
    for label, node in by_label.items():
        value = leaves[label]
        assert math.isclose(node["data"], value.data, rel_tol=1e-12, abs_tol=1e-15)
        assert math.isclose(node["grad"], value.grad, rel_tol=1e-12, abs_tol=1e-15)
    if mistake is None:
        assert "mistake" not in trace
        assert all("correct_grad" not in n for n in trace["nodes"])
    else:
        assert trace["mistake"] == mistake
        assert all(isinstance(n["correct_grad"], float) for n in trace["nodes"])


def test_assign_on_a_shared_weight_loses_contributions_pass_after_pass() -> None:
    trace = trace_source(SHARED_WEIGHT, mistake="assign")
    w = next(n["id"] for n in trace["nodes"] if n["label"] == "w")
    ends = pass_end_grads(trace)
    for k, entry in enumerate(trace["passes"]):
        # Three uses of w per pass: = keeps only the last one's contribution.
        assert not math.isclose(ends[k]["w"], entry["correct_grads"][w])
    overwrites = [
        f for f in trace["frames"] if f["phase"] == "backward" and "overwrote" in f["text"]
    ]
    assert {f["pass"] for f in overwrites} == {0, 1, 2}
    assert all(
        c["after"] == c["delta"] for f in trace["frames"] for c in f.get("contributions", [])
    )


def test_no_sort_lists_each_pass_s_rules_in_the_order_they_ran() -> None:
    trace = trace_source(FUNCTION_REUSE, mistake="no-sort")
    for k, entry in enumerate(trace["passes"]):
        ran = [f["node"] for f in trace["frames"] if f["phase"] == "backward" and f["pass"] == k]
        assert entry["topo"] == ran
        assert ran[0] == entry["output"]
    sorts = [f for f in trace["frames"] if f["phase"] == "sort"]
    assert len(sorts) == 2 and all(f["text"].startswith("No sort happened") for f in sorts)


@pytest.mark.parametrize("mistake", [None, "append-first"])
def test_sort_steps_show_every_pass_s_sort_call_by_call(mistake: str | None) -> None:
    trace = trace_source(GENERATOR_CLASS, sort_steps=True, mistake=mistake)
    edges: dict[str, list[str]] = {}
    for edge in trace["edges"]:
        edges.setdefault(edge["target"], []).append(edge["source"])
    assert "build(v)" in RECURSIVE_SORT
    for k, entry in enumerate(trace["passes"]):
        steps = [f for f in trace["frames"] if f["phase"] == "sort" and f["pass"] == k]
        assert steps[-1]["step"] == "seed" and steps[-1]["changes"][-1]["after"] == 1.0
        calls = steps[:-1]
        # The reference: the article's recursive build from this pass's output.
        expected = recursive_build(edges, entry["output"], append_first=mistake is not None)
        assert [(f["step"], f["node"], f["depth"]) for f in calls] == expected
        appended = [node for step, node, _ in expected if step == "append"]
        assert entry["topo"] == appended
        assert len({node for _, node, _ in expected}) == len(entry["topo"])


def test_a_one_pass_real_program_with_sort_steps_keeps_the_seed_last() -> None:
    source = "def f(a):\n    return a * a + a\nx = Value(3.0, label='x')\ny = f(x)\ny.backward()\n"
    trace = trace_source(source, sort_steps=True)
    sorts = [f for f in trace["frames"] if f["phase"] == "sort"]
    assert [f["step"] for f in sorts] == [
        "visit", "visit", "visit", "append", "skip", "append", "skip", "append", "seed"
    ]  # fmt: skip
    assert sorts[-1]["node"] == trace["output"]


def test_a_leaf_reached_late_is_not_called_a_loss() -> None:
    # Issue 23, 7: on a + a, append-first gets every gradient right; a's late 1 is no loss.
    trace = trace_source("a = Value(2.0, label='a')\nb = a + a\n", mistake="append-first")
    texts = " ".join(f["text"] for f in trace["frames"] if f["phase"] == "backward")
    assert "too late" not in texts
    assert all(n["grad"] == n["correct_grad"] for n in trace["nodes"])


def test_the_gradient_check_of_a_mistaken_engine_runs_every_run_with_it() -> None:
    for k in range(3):
        check = gradcheck_source(
            SHARED_WEIGHT, mistake="assign", pass_index=k, scheme="central", h=[1e-5]
        )
        trace = trace_source(SHARED_WEIGHT, mistake="assign")
        ends = pass_end_grads(trace)
        row = next(c for c in check["checks"] if c["label"] == "w")
        assert row["analytic"] == ends[k]["w"]  # the mistaken engine's gradient
        w = next(n["id"] for n in trace["nodes"] if n["label"] == "w")
        # The numbers tell the truth: the program's derivative is the right engine's.
        right = trace["passes"][k]["correct_grads"][w]
        assert math.isclose(row["rows"][0]["numeric"], right, rel_tol=1e-6)


def test_a_mistake_on_a_program_of_its_own_class_is_refused_with_a_sentence() -> None:
    with pytest.raises(EngineError, match="its own Value class") as caught:
        trace_source(program_examples.OWN_ENGINE_FORK, mistake="assign")
    assert "Check your engine" in caught.value.message
    assert caught.value.line is not None
    with pytest.raises(EngineError, match="its own Value class"):
        gradcheck_source(program_examples.OWN_ENGINE_FORK, mistake="no-sort")


def test_a_class_not_at_the_top_still_refuses_a_mistake_when_its_node_runs_backward() -> None:
    source = program_examples.OWN_ENGINE_FORK
    nested = "if True:\n" + "".join(f"    {line}\n" for line in source.splitlines())
    with pytest.raises(EngineError, match="its own Value class"):
        trace_source(nested, mistake="append-first")


@pytest.mark.parametrize("source", ["a = Value(2.0)\nb = a * a\nb.backward()\n", "pass\n", ""])
def test_a_straight_line_program_has_no_first_real_statement(source: str) -> None:
    tree = ast.parse(source)
    assert first_real_statement(tree) is None
    assert is_straight_line(tree)


def test_a_real_program_without_lab_options_still_traces() -> None:
    source = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + a\nc.backward()\nc.backward()\n"
    trace = trace_source(source)
    assert len(trace["passes"]) == 2
    a = next(node for node in trace["nodes"] if node["label"] == "a")
    assert a["grad"] == -7.0  # the article's warning: a second backward() accumulates
