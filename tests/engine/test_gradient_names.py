"""A learner's own class that keeps its gradient under another name than `grad`
(`gradient`, `_grad` with no property, `derivative`: `objects.GRAD_NAMES`) is traced as
one that keeps it in `grad` (SPEC §14): each write of its rules is the `+=` or the `=`
the code made, with the factor read off it and its line, and the words quote the
learner's own attribute (`a.gradient += −3 × 1`). Every number is compared with CPython
running the program, and every write and verdict with the same engine written with
`grad`."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from backprop_animator.engine import enginecheck_source, trace_columns, trace_source
from tests.engine.cpython import (
    assert_same_output,
    gradient_names,
    leaves_of,
    printed_lines,
    run_in_cpython,
    run_in_cpython_with_passes,
)
from tests.engine.helpers import assert_trace_invariants

# An engine whose gradient attribute is `{g}`; `{mul}` is `__mul__`'s rule body.
ENGINE = """\
import math


class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.{g} = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.{g} += out.{g}
            other.{g} += 1.0 * out.{g}

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
{mul}

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.{g} += (1 - t**2) * out.{g}

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
        self.{g} = 1.0
        for v in reversed(topo):
            v._backward()


a = Value(2.0)
b = Value(-3.0)
c = a * b
d = c + a
e = d.tanh()
e.backward()
print(a.{g}, b.{g}, c.{g}, d.{g})
"""
RIGHT_MUL = (
    "            self.{g} += other.data * out.{g}\n            other.{g} += out.{g} * self.data"
)
ASSIGN_MUL = (
    "            self.{g} = other.data * out.{g}\n            other.{g} = out.{g} * self.data"
)
OTHER_NAMES = ("gradient", "_grad", "derivative", "adjoint", "adj", "g")


def program(name: str, mul: str = RIGHT_MUL) -> str:
    return ENGINE.replace("{mul}", mul).replace("{g}", name)


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if line.strip() == text)


def backward_frames(trace: dict[str, Any]) -> list[dict[str, Any]]:
    return [frame for frame in trace["frames"] if frame["phase"] == "backward"]


def rule_of(trace: dict[str, Any], op: str) -> dict[str, Any]:
    """The backward frame of the (first) node of `op`."""
    node = next(node["id"] for node in trace["nodes"] if node["op"] == op)
    return next(frame for frame in backward_frames(trace) if frame["node"] == node)


def writes(trace: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [frame["contributions"] for frame in backward_frames(trace)]


@pytest.mark.parametrize("name", OTHER_NAMES)
def test_a_gradient_under_another_name_is_written_as_grad_is(name: str) -> None:
    source = program(name)
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    # Each write is the `+=` the code made, with its factor and its line.
    mul = rule_of(trace, "*")
    first, second = mul["contributions"]
    assert (first["write"], first["local"]) == ("+=", -3.0)
    assert first["line"] == line_of(source, f"self.{name} += other.data * out.{name}")
    assert (second["write"], second["local"]) == ("+=", 2.0)
    assert second["line"] == line_of(source, f"other.{name} += out.{name} * self.data")
    # The same writes, factors and lines as the engine written with `grad`, the same
    # gradients and the same verdicts of Check your engine.
    same = trace_source(program("grad"))
    assert writes(trace) == writes(same)
    assert trace["nodes"] == same["nodes"]
    check = trace["engine_check"]
    assert check == enginecheck_source(source)
    assert check.pop("grad") == name  # the name the page's rows quote
    assert check == same["engine_check"]
    assert all(rule["verdict"] == "right" for rule in check["rules"])
    # The words quote the learner's attribute where they quote the code.
    texts = " ".join(frame["text"] for frame in backward_frames(trace))
    assert f"a.{name} += −3 × " in texts and f"b.{name} += 2 × " in texts
    assert ".grad +=" not in texts
    # So does the sort frame's seed, in the page's encoding too (its sentence says .grad).
    (sort,) = [frame["text"] for frame in trace["frames"] if frame["phase"] == "sort"]
    assert sort.startswith("Depth-first sort: 5 nodes") and f"Seed e.{name} = 1," in sort
    columns = trace_columns(source)
    assert f"Seed e.{name} = 1," in " ".join(columns["frames"]["text"].values())
    assert_trace_invariants(trace)


@pytest.mark.parametrize("name", OTHER_NAMES)
def test_an_overwrite_under_another_name_is_an_overwrite(name: str) -> None:
    # The bug: `=` where `+=` belongs, in `__mul__`; a is used twice, so its 1 from d
    # is lost.
    source = program(name, ASSIGN_MUL)
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    mul = rule_of(trace, "*")
    first, second = mul["contributions"]
    assert (first["write"], first["local"], first["before"] != 0) == ("=", -3.0, True)
    assert first["line"] == line_of(source, f"self.{name} = other.data * out.{name}")
    assert (second["write"], second["local"]) == ("=", 2.0)
    assert second["line"] == line_of(source, f"other.{name} = out.{name} * self.data")
    assert f"a.{name} = −3 × " in mul["text"] and "already there is lost" in mul["text"]
    assert not re.search(r"\.grad\b", mul["text"])
    same = trace_source(program("grad", ASSIGN_MUL))
    assert writes(trace) == writes(same)
    check = trace["engine_check"]
    assert check == enginecheck_source(source)
    assert check.pop("grad") == name
    assert check == same["engine_check"]
    assert check["accumulation"]["verdict"] == "wrong"
    assert check["accumulation"]["first"]["child"] == next(
        node["id"] for node in trace["nodes"] if node["name"] == "a"
    )
    assert {rule["op"]: rule["verdict"] for rule in check["rules"]} == {
        "*": "right", "+": "right", "tanh": "right",
    }  # fmt: skip


def test_a_wrong_factor_under_another_name_is_named_in_its_words() -> None:
    source = program("gradient").replace("(1 - t**2) * out.gradient", "(1 - t) * out.gradient")
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    tanh = rule_of(trace, "tanh")
    (write,) = tanh["contributions"]
    assert write["write"] == "+=" and write["local"] == pytest.approx(1 - math.tanh(-4.0))
    assert (
        "d.gradient += " in tanh["text"] and "The right local derivative for d is" in tanh["text"]
    )
    rules = {rule["op"]: rule["verdict"] for rule in trace["engine_check"]["rules"]}
    assert rules == {"*": "right", "+": "right", "tanh": "wrong"}


TRAINING = """\
class Node:
    def __init__(self, value, parents=(), op=''):
        self.value = value
        self.gradient = 0.0
        self.parents = parents
        self._op = op
        self._backward = lambda: None

    def __mul__(self, other):
        out = Node(self.value * other.value, (self, other), '*')

        def _backward():
            self.gradient += other.value * out.gradient
            other.gradient += self.value * out.gradient

        out._backward = _backward
        return out

    def __add__(self, other):
        out = Node(self.value + other.value, (self, other), '+')

        def _backward():
            self.gradient += out.gradient
            other.gradient += out.gradient

        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for p in v.parents:
                    visit(p)
                order.append(v)

        visit(self)
        self.gradient = 1.0
        for v in reversed(order):
            v._backward()


w, b = Node(0.5), Node(0.1)
for step in range(6):
    x = Node(float(step))
    loss = w * x * x + b
    w.gradient, b.gradient = 0.0, 0.0
    loss.backward()
    w.value -= 0.01 * w.gradient
    b.value -= 0.01 * b.gradient
    print(step, w.value, b.value, w.gradient, b.gradient)
"""


def test_a_training_loop_under_another_name_is_written_each_pass() -> None:
    # Many passes: the rules' blocks are generated code (`codegen`) after their first runs.
    trace = trace_source(TRAINING)
    assert_same_output(printed_lines(trace), run_in_cpython(TRAINING))
    every = [c for frame in backward_frames(trace) for c in frame["contributions"]]
    assert len(every) == 6 * 6
    assert all(c["write"] == "+=" and c["local"] is not None for c in every)
    assert trace["engine_check"]["accumulation"]["verdict"] == "right"
    assert all(rule["verdict"] == "right" for rule in trace["engine_check"]["rules"])
    texts = [frame["text"] for frame in backward_frames(trace) if frame["contributions"]]
    assert all(".gradient += " in text and ".grad " not in text for text in texts)
    same = trace_source(TRAINING.replace("gradient", "grad"))
    assert writes(trace) == writes(same)
    assert trace["engine_check"] == {**same["engine_check"], "grad": "gradient"}


def test_another_attribute_of_that_name_in_a_grad_class_is_an_attribute() -> None:
    # The class keeps its gradient in `grad`: its `gradient` and `derivative` are the
    # learner's own attributes (a list updated in place, as CPython's `+=` does, and a
    # number), no gradient writes.
    source = (
        program("grad")
        .replace(
            "        self.grad = 0.0\n",
            "        self.grad = 0.0\n        self.gradient = []\n        self.derivative = 0\n",
        )
        .replace(
            "            self.grad += out.grad\n",
            "            self.grad += out.grad\n            self.gradient += [out.grad]\n"
            "            self.derivative += 1.0 * out.grad\n",
        )
        .replace("e.backward()\n", "kept = c.gradient\ne.backward()\n")
    )
    source += "print(c.gradient, c.derivative, a.derivative)\nprint(kept is c.gradient, kept)\n"
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    assert "grad" not in trace["engine_check"]  # its gradient is `grad`
    lineless = [[{k: v for k, v in c.items() if k != "line"} for c in w] for w in writes(trace)]
    same = writes(trace_source(program("grad")))
    assert lineless == [[{k: v for k, v in c.items() if k != "line"} for c in w] for w in same]


LOOP_RULES = """\
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __add__(self, other):
        return Value(self.data + other.data, (self, other), (1, 1))

    def backward(self):
        topo = []
        visited = set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for c in v._children:
                    build(c)
                topo.append(v)

        build(self)
        self.grad = 1
        for v in reversed(topo):
            for c, lg in zip(v._children, v._local_grads):
                c.grad += lg * v.grad


a = Value(3.0)
b = Value(4.0)
z = (a * b + a) * Value(4.0)
z.backward()
print(a.grad, b.grad)
"""


@pytest.mark.parametrize(
    "write", ["c.grad += lg * v.grad", "c.grad += lg"], ids=["right", "upstream forgotten"]
)
def test_rules_run_in_backwards_own_loop_under_another_name(write: str) -> None:
    # microgpt's engine, its gradient kept in `derivative`: each v's writes in the loop
    # are v's rule (the loop, or the `v.derivative` of the term, says whose), as with `grad`.
    with_grad = LOOP_RULES.replace("c.grad += lg * v.grad", write)
    source = with_grad.replace(".grad", ".derivative")
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    same = trace_source(with_grad)
    assert writes(trace) == writes(same) and len(backward_frames(trace)) == 3
    assert trace["engine_check"] == {**same["engine_check"], "grad": "derivative"}
    texts = " ".join(frame["text"] for frame in backward_frames(trace))
    assert ".derivative += " in texts and not re.search(r"\.grad\b", texts)


# Names no list holds: found by the class's shape (`expressions.own_gradient_names`), the
# one attribute `__init__` zeroes whose name holds `grad`, or the one a pass seeds with 1.
OWN_NAMES = ("backwards_grad", "partial_grad", "dvalue", "dL")


@pytest.mark.parametrize("name", OWN_NAMES)
def test_a_gradient_named_in_words_of_its_own_is_found_by_its_shape(name: str) -> None:
    source = program(name)
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    same = trace_source(program("grad"))
    assert writes(trace) == writes(same) and trace["nodes"] == same["nodes"]
    assert trace["engine_check"] == {**same["engine_check"], "grad": name}
    texts = " ".join(frame["text"] for frame in backward_frames(trace))
    assert f"a.{name} += −3 × " in texts and not re.search(r"\.grad\b", texts)


GRAD_IN_WORDS = """\
class Node:
    def __init__(self, value, parents=(), op=""):
        self.value = value
        self.backwards_grad = 0.0
        self.parents = parents
        self.op = op
        self.rule = lambda: None

    def __add__(self, other):
        out = Node(self.value + other.value, (self, other), "+")
        def rule():
            self.backwards_grad += out.backwards_grad
            other.backwards_grad += out.backwards_grad
        out.rule = rule
        return out

    def __mul__(self, other):
        out = Node(self.value * other.value, (self, other), "*")
        def rule():
            self.backwards_grad += other.value * out.backwards_grad
            other.backwards_grad += self.value * out.backwards_grad
        out.rule = rule
        return out

    def backward(self):
        order, seen = [], set()
        def visit(n):
            if n not in seen:
                seen.add(n)
                for p in n.parents:
                    visit(p)
                order.append(n)
        visit(self)
        self.backwards_grad = 1.0
        for n in reversed(order):
            n.rule()

a = Node(2.0); b = Node(-3.0); c = Node(10.0)
d = a * b + c
e = d * a
e.backward()
print(a.backwards_grad, b.backwards_grad, c.backwards_grad)
"""


def test_a_node_with_a_gradient_and_a_rule_in_words_of_its_own_is_traced() -> None:
    # `backwards_grad` and a rule under `rule`: was refused ("it has no `grad` attribute")
    trace = trace_source(GRAD_IN_WORDS)
    assert_same_output(printed_lines(trace), run_in_cpython(GRAD_IN_WORDS))
    check = trace["engine_check"]
    assert check["grad"] == "backwards_grad"
    assert {rule["op"]: rule["verdict"] for rule in check["rules"]} == {"*": "right", "+": "right"}
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    a = next(node for node in trace["nodes"] if node["name"] == "a")
    assert a["grad"] == a["correct_grad"] == -2.0
    same = trace_source(GRAD_IN_WORDS.replace("backwards_grad", "grad"))
    assert writes(trace) == writes(same) and trace["nodes"] == same["nodes"]


@pytest.mark.parametrize("name", ["backwards_grad", "dvalue"])
def test_cpythons_run_counts_the_passes_of_a_gradient_named_in_words_of_its_own(
    name: str,
) -> None:
    # The tests' CPython helper reads the program's own name for a gradient as the engine
    # does (`gradient_names`): each `backward()` a pass, each leaf's gradient read.
    source = GRAD_IN_WORDS.replace("backwards_grad", name)
    lines, numbers, outputs = run_in_cpython_with_passes(source)
    trace = trace_source(source)
    assert lines == printed_lines(trace) and gradient_names(source)[-1] == name
    assert numbers == [one["data"] for one in trace["passes"]] == [8.0]
    ours = sorted((n["data"], n["grad"]) for n in trace["nodes"] if n["kind"] == "leaf")
    assert (
        leaves_of(outputs, gradient_names(source))
        == ours
        == [(-3.0, 4.0), (2.0, -2.0), (10.0, 2.0)]
    )
    assert leaves_of(outputs) == []  # (no name the engine's list holds)


def test_an_attribute_zeroed_beside_a_known_gradient_stays_an_attribute() -> None:
    # The class keeps its gradient in `grad`: a `grad_steps` counter zeroed beside it is
    # no gradient, nor is `dvalue` where no pass seeds it.
    source = (
        program("grad")
        .replace(
            "        self.grad = 0.0\n",
            "        self.grad = 0.0\n        self.grad_steps = 0\n",
        )
        .replace(
            "            self.grad += out.grad\n",
            "            self.grad += out.grad\n            self.grad_steps += 1\n",
        )
    )
    source += "print(a.grad_steps, b.grad_steps)\n"
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    assert "grad" not in trace["engine_check"]
    same = writes(trace_source(program("grad")))
    lineless = [[{k: v for k, v in c.items() if k != "line"} for c in w] for w in writes(trace)]
    assert lineless == [[{k: v for k, v in c.items() if k != "line"} for c in w] for w in same]
