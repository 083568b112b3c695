"""Check your engine (SPEC §14) against learners' real bugs: one engine, each bug written
into it once (a mutant), run here and in CPython. Each mutant must run as CPython runs
it, and the check must name what was broken (the op whose rule was changed, or the sort,
or `+=`) and nothing else, with `correct_grad` the right engine's on the same graph: the
unbroken engine's gradients, which are micrograd's."""

from __future__ import annotations

import math
from typing import Any

import pytest
from micrograd.engine import Value as MicrogradValue

from backprop_animator.engine import trace_source
from backprop_animator.engine.ops import op_key
from tests.engine.cpython import (
    assert_same_output,
    leaves_of,
    printed_lines,
    run_in_cpython_with_passes,
)
from tests.engine.helpers import assert_trace_invariants

# A learner's engine: `_prev` a tuple (CPython orders a set of nodes by address, which
# decides the numbers of a bug that depends on the order), a recursive sort.
ENGINE = """\
import math


class Value:
    def __init__(self, data, children=(), op=''):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(children)
        self._op = op
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def __pow__(self, k):
        out = Value(self.data**k, (self,), f'**{k}')

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(max(self.data, 0.0), (self,), 'relu')

        def _backward():
            self.grad += (out.data > 0) * out.grad

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


# x and h are used twice, b twice by one op; every op's rule runs with an upstream
# gradient other than 1.
x = Value(0.6)
w = Value(-1.2)
b = Value(0.4)
h = x * w + b
s = b + b
y = (h.tanh() * x + s) ** 2
z = (h.exp() + 0.5 * y).relu() * h
z.backward()
print(x.grad, w.grad, b.grad)
"""

SORT_LOOP = "        for v in reversed(topo):\n            v._backward()\n"
VISIT = (
    "            if v not in visited:\n                visited.add(v)\n"
    "                for child in v._prev:\n                    build(child)\n"
    "                topo.append(v)\n"
)
# name: (what the learner wrote in place of what, the ops whose rule is wrong, sort, +=)
MUTANTS: dict[str, tuple[tuple[str, str], set[str], str, str]] = {
    "mul: self.data for other.data": (
        ("self.grad += other.data * out.grad", "self.grad += self.data * out.grad"),
        {"*"}, "right", "right",
    ),
    "pow: no k": (
        ("k * self.data ** (k - 1) * out.grad", "self.data ** (k - 1) * out.grad"),
        {"**"}, "right", "right",
    ),
    "pow: no k - 1": (
        ("k * self.data ** (k - 1) * out.grad", "k * self.data ** k * out.grad"),
        {"**"}, "right", "right",
    ),
    "tanh: 1 - t": (("(1 - t**2) * out.grad", "(1 - t) * out.grad"), {"tanh"}, "right", "right"),
    "tanh: on the input": (
        ("(1 - t**2) * out.grad", "(1 - self.data**2) * out.grad"),
        {"tanh"}, "right", "right",
    ),
    "exp: self.data for out.data": (
        ("self.grad += out.data * out.grad", "self.grad += self.data * out.grad"),
        {"exp"}, "right", "right",
    ),
    "relu: the wrong comparison": (
        ("(out.data > 0) * out.grad", "(out.data < 0) * out.grad"), {"relu"}, "right", "right",
    ),
    "add: no * out.grad": (("self.grad += out.grad", "self.grad += 1.0"), {"+"}, "right", "right"),
    "add: -= for +=": (
        ("other.grad += out.grad", "other.grad -= out.grad"), {"+"}, "right", "right",
    ),
    "mul: = for +=": (
        ("self.grad += other.data * out.grad", "self.grad = other.data * out.grad"),
        set(), "right", "wrong",
    ),
    # b + b: the rule's first write adds one share, its `=` then writes both over it.
    "add: = for += in one line": (
        ("other.grad += out.grad", "other.grad = out.grad"), set(), "right", "wrong",
    ),
    "no reversed": (
        (SORT_LOOP, SORT_LOOP.replace("reversed(topo)", "topo")), set(), "wrong", "right",
    ),
    "appended before its children": (
        (VISIT, VISIT.replace("                topo.append(v)\n", "").replace(
            "visited.add(v)\n", "visited.add(v)\n                topo.append(v)\n")),
        set(), "wrong", "right",
    ),
    "no visited set": (
        (VISIT, "            for child in v._prev:\n                build(child)\n"
         "            topo.append(v)\n"),
        set(), "wrong", "right",
    ),
    # h's rule runs, tanh(h)'s and exp(h)'s never: rules that never run, not h's run
    # before theirs (`order_fault`: a consumer that never runs is not waited for).
    "only the output's children": (
        (SORT_LOOP, "        self._backward()\n        for v in self._prev:\n"
         "            v._backward()\n"),
        set(), "wrong", "right",
    ),
}  # fmt: skip


def mutant(name: str) -> str:
    (old, new), *_ = MUTANTS[name]
    assert ENGINE.count(old) == 1, old
    return ENGINE.replace(old, new)


def micrograd_grads() -> list[float]:
    """The program's graph in micrograd's own Value: its leaves' and nodes' gradients."""
    m = MicrogradValue
    x, w, b = m(0.6), m(-1.2), m(0.4)
    h = x * w + b
    t = m(math.tanh(h.data), (h,), "tanh")
    t._backward = lambda: setattr(h, "grad", h.grad + (1 - t.data**2) * t.grad)
    y = (t * x + (b + b)) ** 2
    e = m(math.exp(h.data), (h,), "exp")
    e._backward = lambda: setattr(h, "grad", h.grad + e.data * e.grad)
    z = (e + 0.5 * y).relu() * h
    z.backward()
    return [x.grad, w.grad, b.grad, h.grad, y.grad]


def leaf_pairs(trace: dict[str, Any]) -> list[tuple[float, float]]:
    return sorted((n["data"], n["grad"]) for n in trace["nodes"] if n["kind"] != "op")


def assert_runs_as_cpython(source: str, trace: dict[str, Any]) -> None:
    lines, _, outputs = run_in_cpython_with_passes(source)
    assert_same_output(printed_lines(trace), lines)
    for mine, theirs in zip(leaf_pairs(trace), leaves_of(outputs), strict=True):
        assert math.isclose(mine[1], theirs[1], rel_tol=1e-9, abs_tol=1e-12), (mine, theirs)


@pytest.fixture(scope="module")
def right_trace() -> dict[str, Any]:
    trace = trace_source(ENGINE)
    assert_runs_as_cpython(ENGINE, trace)
    return trace


def test_the_engine_unbroken_is_right_everywhere(right_trace: dict[str, Any]) -> None:
    check = right_trace["engine_check"]
    assert {rule["op"]: rule["verdict"] for rule in check["rules"]} == dict.fromkeys(
        ["*", "+", "tanh", "**", "exp", "relu"], "right"
    )
    assert check["sort"] == check["accumulation"] == {"verdict": "right", "first": None}
    nodes = {n["name"]: n for n in right_trace["nodes"]}
    for name, grad in zip(["x", "w", "b", "h", "y"], micrograd_grads(), strict=True):
        assert math.isclose(nodes[name]["grad"], grad, rel_tol=1e-12)
        assert nodes[name]["correct_grad"] == nodes[name]["grad"]


@pytest.mark.parametrize("name", MUTANTS)
def test_each_bug_is_found_where_it_was_written(name: str, right_trace: dict[str, Any]) -> None:
    source = mutant(name)
    _, wrong_rules, sort, accumulation = MUTANTS[name]
    trace = trace_source(source)
    assert_runs_as_cpython(source, trace)
    check = trace["engine_check"]
    nodes = {n["id"]: n for n in trace["nodes"]}
    verdicts = {rule["op"]: rule["verdict"] for rule in check["rules"]}
    assert {op for op, verdict in verdicts.items() if verdict == "wrong"} == wrong_rules
    if sort == "right":  # (a rule that never ran is unchecked)
        assert "unchecked" not in verdicts.values()
    assert (check["sort"]["verdict"], check["accumulation"]["verdict"]) == (sort, accumulation)
    frames = trace["frames"]
    for rule in check["rules"]:
        if rule["verdict"] == "wrong":  # the first frame is a backward frame of that op
            frame = frames[rule["first"]["frame"]]
            assert frame["phase"] == "backward"
            assert op_key(nodes[frame["node"]]["op"]) == rule["op"]
    for part in (check["sort"], check["accumulation"]):
        if part["verdict"] == "wrong":
            frame = frames[part["first"]["frame"]]
            assert frame["phase"] == "backward"
            ran = [f["node"] for f in frames if f["phase"] == "backward"]
            if part["first"]["node"] in ran:
                assert frame["node"] == part["first"]["node"]
            else:  # a rule that never ran: named at the pass's last rule
                assert frame is [f for f in frames if f["phase"] == "backward"][-1]
                assert part is check["sort"] and part["first"]["consumer"] is None
    # The same graph, the same data: the right engine's gradients are the unbroken one's.
    right = {n["id"]: n["grad"] for n in right_trace["nodes"]}
    for node in trace["nodes"]:
        assert math.isclose(node["correct_grad"], right[node["id"]], rel_tol=1e-12), node
    # And the bug shows: some gradient parts from the right one.
    assert any(not math.isclose(n["grad"], n["correct_grad"]) for n in trace["nodes"])
    assert_trace_invariants(trace)


# `b + b` and `a * a` accumulated through temporaries: each `=` keeps what is there.
TEMPORARIES = {
    "+": (
        "            self.grad += out.grad\n            other.grad += out.grad\n",
        "            s = self.grad + out.grad\n            self.grad = s\n"
        "            o = other.grad + out.grad\n            other.grad = o\n",
    ),
    "*": (
        "            self.grad += other.data * out.grad\n"
        "            other.grad += self.data * out.grad\n",
        "            s = self.grad + other.data * out.grad\n            self.grad = s\n"
        "            o = other.grad + self.data * out.grad\n            other.grad = o\n",
    ),
}


@pytest.mark.parametrize("op", TEMPORARIES)
def test_a_child_used_twice_accumulated_through_temporaries_is_right(
    op: str, right_trace: dict[str, Any]
) -> None:
    old, new = TEMPORARIES[op]
    program = "a = Value(1.5)\nb = Value(-2.0)\nc = a * a + b\nd = (b + b) * c + a\nd.backward()\n"
    source = ENGINE[: ENGINE.index("# x and h")].replace(old, new) + program
    trace = trace_source(source)
    assert_runs_as_cpython(source, trace)
    check = trace["engine_check"]
    assert {rule["op"]: rule["verdict"] for rule in check["rules"]} == {"*": "right", "+": "right"}
    assert check["accumulation"] == {"verdict": "right", "first": None}
    assert all(n["grad"] == pytest.approx(n["correct_grad"]) for n in trace["nodes"])


def test_an_overwrite_of_a_share_the_same_rule_added_is_lost() -> None:
    # `other.grad = out.grad` in __add__, then `s = b + b`: the rule's `+=` gives b one
    # share (1.5), the `=` writes one share over the sum. b had −3 before, minus twice
    # the share: the `=` moved it by 3, both shares at once, yet −3 is lost (the check
    # once took that for an accumulation).
    old, new = MUTANTS["add: = for += in one line"][0]
    program = "b = Value(0.5)\ns = b + b\nz = s * 1.5 + b * -3.0\nz.backward()\nprint(b.grad)\n"
    source = ENGINE[: ENGINE.index("# x and h")].replace(old, new) + program
    trace = trace_source(source)
    assert_runs_as_cpython(source, trace)
    nodes = {n["name"]: n for n in trace["nodes"]}
    assert (nodes["b"]["grad"], nodes["b"]["correct_grad"]) == (1.5, 0.0)
    first = trace["engine_check"]["accumulation"]["first"]
    frame = trace["frames"][first["frame"]]
    assert (first["node"], first["child"]) == (nodes["s"]["id"], nodes["b"]["id"])
    writes = [c for c in frame["contributions"] if c["to"] == nodes["b"]["id"]]
    assert [(c["write"], c["before"], c["after"]) for c in writes] == [
        ("+=", -3.0, -1.5),
        ("=", -1.5, 1.5),
    ]
    assert first["lost"] == -1.5
    assert "already there is lost" in frame["text"]


# A gradient carried from earlier passes (7.4) and a share of 1e-11 added to it: the
# sum keeps four of the share's digits in after − before. The rule is right all the same.
ABSORBED = (
    ENGINE[: ENGINE.index("# x and h")]
    + "a = Value(2.0)\nb = Value(-1.0)\nc = a * b\nd = c * Value(9.0455088762366e-12)\n"
    "a.grad = 7.37788582118128\nd.backward()\nprint(a.grad, b.grad)\n"
)
MUL_SELF = "            self.grad += other.data * out.grad\n"


@pytest.mark.parametrize(
    "write",
    [
        MUL_SELF,  # the factor read off the code
        "            g = out.grad\n            self.grad += other.data * g\n",  # measured
        "            s = self.grad + other.data * out.grad\n            self.grad = s\n",
    ],
    ids=["read", "measured", "through a temporary"],
)
def test_a_tiny_share_added_to_a_large_gradient_is_right(write: str) -> None:
    source = ABSORBED.replace(MUL_SELF, write)
    trace = trace_source(source)
    assert_runs_as_cpython(source, trace)
    check = trace["engine_check"]
    assert check["rules"] == [{"op": "*", "line": check["rules"][0]["line"], "verdict": "right",
                               "first": None}]  # fmt: skip
    assert check["accumulation"]["verdict"] == "right"
    c_frame = next(f for f in trace["frames"] if f["phase"] == "backward" and f["node"] == "n2")
    assert "not −1" not in c_frame["text"]  # never "the right local derivative is −1, not −1"
    if write == MUL_SELF:
        assert c_frame["contributions"][0]["local"] == -1.0
    # A wrong factor is still wrong there: the share is doubled, far past the rounding.
    wrong = ABSORBED.replace(MUL_SELF, "            self.grad += 2 * other.data * out.grad\n")
    rule = trace_source(wrong)["engine_check"]["rules"][0]
    assert (rule["verdict"], rule["first"]["learner"]) == ("wrong", -2.0)
