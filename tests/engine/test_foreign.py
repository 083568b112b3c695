"""Graphs of other micrograd-compatible engines (engine/foreign.py): mirrored children
first, each rule watched once, the foreign gradients left as one clean backward pass
leaves them; and foreign code that misbehaves, where every failure is an `EngineError`
and a rule that fails leaves the foreign gradients as they were."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from backprop_animator.engine import EngineError, Limits, trace_value
from backprop_animator.engine.foreign import copy_grads_back, mirror_graph
from tests.engine.helpers import assert_trace_invariants


class Node:
    """The least a micrograd-style node has; rules and ops are set by each test."""

    def __init__(
        self, data: Any, children: tuple[Node, ...] = (), op: Any = "", label: Any = ""
    ) -> None:
        self.data = data
        self.grad = 0.0
        self._prev = set(children)
        self._op = op
        self.label = label
        self._backward: Callable[[], None] = lambda: None


def unary(child: Node, op: Any, local: float) -> Node:
    out = Node(child.data * local, (child,), op)

    def _backward() -> None:
        child.grad += local * out.grad

    out._backward = _backward
    return out


def times(a: Node, b: Node) -> Node:
    out = Node(a.data * b.data, (a, b), "*")

    def _backward() -> None:
        a.grad += b.data * out.grad
        b.grad += a.data * out.grad

    out._backward = _backward
    return out


def test_the_mirror_is_made_children_first_with_the_foreign_data_ops_and_labels() -> None:
    a, b = Node(2.0, label="a"), Node(-3.0, label="b")
    c = times(a, b)
    c.label = "c"

    mirror, originals = mirror_graph(c, max_nodes=10)

    assert (mirror.data, mirror._op, mirror.label) == (-6.0, "*", "c")
    assert {child.label for child in mirror._prev} == {"a", "b"}
    assert list(originals.values())[-1] is c  # the output last: children come first
    assert set(originals.values()) == {a, b, c}


def test_each_rule_is_watched_once_and_its_locals_are_the_gradients_it_adds() -> None:
    a, b = Node(2.0, label="a"), Node(-3.0, label="b")
    trace = trace_value(times(a, b))

    backward = next(frame for frame in trace["frames"] if frame.get("contributions"))
    locals_ = {step["local"] for step in backward["contributions"]}
    assert locals_ == {-3.0, 2.0}
    assert (a.grad, b.grad) == (-3.0, 2.0)


def test_a_child_used_twice_is_one_edge_with_the_summed_local() -> None:
    a = Node(3.0, label="a")
    out = Node(6.0, (a, a), "+")

    def _backward() -> None:
        a.grad += out.grad
        a.grad += out.grad

    out._backward = _backward
    trace = trace_value(out)

    assert len(trace["edges"]) == 1
    backward = next(frame for frame in trace["frames"] if frame.get("contributions"))
    assert [step["local"] for step in backward["contributions"]] == [2.0]
    assert a.grad == 2.0


def test_stale_foreign_gradients_end_as_one_clean_backward_pass_leaves_them() -> None:
    a, b = Node(2.0, label="a"), Node(-3.0, label="b")
    c = times(a, b)
    a.grad, b.grad, c.grad = 100.0, 100.0, 100.0

    trace_value(c)

    assert (a.grad, b.grad, c.grad) == (-3.0, 2.0, 1.0)


def test_copy_grads_back_sets_each_foreign_node_to_its_mirror_s_grad() -> None:
    a = Node(2.0)
    mirror, originals = mirror_graph(a, max_nodes=1)
    mirror.grad = 4.5

    copy_grads_back(originals)

    assert a.grad == 4.5


def test_a_graph_over_the_node_limit_is_an_engine_error() -> None:
    x = Node(1.0)
    chain = unary(unary(x, "*", 2.0), "*", 2.0)  # three nodes

    trace_value(chain, limits=Limits(max_nodes=3))
    with pytest.raises(EngineError, match="more than 2 nodes"):
        trace_value(chain, limits=Limits(max_nodes=2))


class Endless:
    """A node whose `_prev` makes a new node each time it is read: a graph with no
    bottom (a lazy engine's bug, or a hostile one), and one whose `_prev` never ends."""

    made = 0

    def __init__(self, endless_children: bool = False) -> None:
        Endless.made += 1
        if Endless.made > 100_000:
            raise RuntimeError("the walk never stopped")
        self.data, self.grad, self._op, self.label = 1.0, 0.0, "+", ""
        self._backward: Callable[[], None] = lambda: None
        self.endless_children = endless_children

    @property
    def _prev(self) -> Any:
        if self.endless_children:
            return (Endless() for _ in iter(int, 1))  # never ends
        return (Endless(),)


@pytest.mark.parametrize("wide", [False, True], ids=["deep", "wide"])
def test_a_graph_with_no_end_stops_at_the_node_limit(wide: bool) -> None:
    # Mirrored nodes alone were counted, and a node is mirrored once its children are:
    # a graph with no bottom grew the walk's stack until memory ran out.
    Endless.made = 0
    with pytest.raises(EngineError, match=r"more than 1,000 nodes .*BACKPROP_MAX_NODES"):
        trace_value(Endless(wide), limits=Limits(max_nodes=1_000))
    assert Endless.made < 5_000


def test_a_cycle_is_an_engine_error() -> None:
    a = Node(1.0)
    b = Node(1.0, (a,), "*")
    a._prev = {b}
    with pytest.raises(EngineError, match="cycle"):
        trace_value(b)


def test_an_object_that_is_no_node_is_named_with_what_it_lacks() -> None:
    with pytest.raises(EngineError, match="float is not a micrograd-style node: it has no data"):
        trace_value(Node(1.0, (2.0,), "*"))  # type: ignore[arg-type]


@pytest.mark.parametrize("op", ["", "sin", None, "ReLU", 3, "x" * 5_000])
def test_an_op_we_do_not_know_is_narrated_as_a_rule_that_was_watched(op: Any) -> None:
    x = Node(2.0, label="x")
    trace = trace_value(unary(x, op, 0.5))

    backward = next(frame for frame in trace["frames"] if frame["phase"] == "backward")
    assert "x.grad += 0.5 × 1 → 0.5" in backward["text"]
    assert x.grad == 0.5
    op_node = next(node for node in trace["nodes"] if node["kind"] == "op")
    assert op_node["op"] and len(op_node["op"]) <= 100
    assert_trace_invariants(trace)


def test_an_unnamed_op_is_shown_as_a_question_mark() -> None:
    trace = trace_value(unary(Node(2.0), None, 3.0))
    assert [node["op"] for node in trace["nodes"]] == ["", "?"]


def test_a_binary_op_we_do_not_know_names_both_operands() -> None:
    a, b = Node(2.0, label="a"), Node(3.0, label="a")
    out = Node(6.0, (a, b), "hypot")
    trace = trace_value(out)
    build = trace["frames"][0]["text"]
    assert "hypot(a, a)" in build


@pytest.mark.parametrize("op", ["**", "**x", "**(x)"])
def test_a_power_with_the_exponent_as_an_operand_is_another_engines_op(op: str) -> None:
    # Our `**k` has its exponent in the op; this `a ** x` has it as a second child, so
    # neither the name `a**k` nor the rule k·a^(k−1) fits: it is watched like any op.
    a, x = Node(2.0, label="a"), Node(3.0, label="x")
    out = Node(8.0, (a, x), op)

    def _backward() -> None:
        a.grad += x.data * a.data ** (x.data - 1) * out.grad
        x.grad += math.log(a.data) * out.data * out.grad

    out._backward = _backward
    trace = trace_value(out)
    operands = ", ".join(n["name"] for n in trace["nodes"] if n["kind"] == "leaf")
    if op == "**":  # `**` alone is written between its two operands, as Python writes it
        assert trace["nodes"][-1]["name"] == "a**x"
        assert trace["frames"][0]["text"] == "a**x = 2**3 = 8"
    else:
        assert trace["nodes"][-1]["name"] == f"{op}({operands})"
        assert f"{op}({operands}) = {op}(" in trace["frames"][0]["text"]
    backward = trace["frames"][2]["text"]
    assert "a rule of its own engine" in backward and "k·x" not in backward
    assert "a.grad += 12 × 1 → 12" in backward
    assert trace["ops"] == {}
    assert_trace_invariants(trace)


@pytest.mark.parametrize(
    "error", [RuntimeError("boom"), KeyError("w"), AttributeError("no"), RecursionError()]
)
def test_a_foreign_rule_that_raises_is_an_engine_error_and_leaves_grads_alone(
    error: BaseException,
) -> None:
    x = Node(2.0, label="x")
    out = Node(4.0, (x,), "sq")
    out.grad = 7.0
    x.grad = 5.0

    def _backward() -> None:
        x.grad += 1.0
        raise error

    out._backward = _backward

    with pytest.raises(EngineError) as caught:
        trace_value(out)

    assert type(error).__name__ in caught.value.message
    assert (out.grad, x.grad) == (7.0, 5.0)


def test_a_foreign_rule_that_leaves_a_grad_that_is_not_a_number_is_an_engine_error() -> None:
    x = Node(2.0)
    out = Node(2.0, (x,), "bad")

    def _backward() -> None:
        x.grad = "two"

    out._backward = _backward
    with pytest.raises(EngineError, match="is not a number"):
        trace_value(out)


@pytest.mark.parametrize(
    ("data", "words"),
    [(10**400, "too large for a float"), (1j, "not a number"), (object(), "not a number")],
    ids=["big-int", "complex", "object"],
)
def test_foreign_data_that_is_not_a_float_is_an_engine_error(data: Any, words: str) -> None:
    with pytest.raises(EngineError, match=words):
        trace_value(Node(1.0, (Node(data),), "*"))


def test_a_prev_that_is_not_iterable_is_an_engine_error() -> None:
    out = Node(1.0)
    out._prev = 3  # type: ignore[assignment]
    with pytest.raises(EngineError, match="_prev"):
        trace_value(out)


def test_a_property_that_raises_is_an_engine_error() -> None:
    class Exploding(Node):
        @property
        def label(self) -> str:
            raise LookupError("no label today")

        @label.setter
        def label(self, value: str) -> None:
            pass

    with pytest.raises(EngineError, match="LookupError"):
        trace_value(unary(Exploding(1.0), "*", 2.0))


def test_a_foreign_label_with_a_lone_surrogate_is_replaced_in_the_trace() -> None:
    x = Node(2.0, label="x\ud800")
    trace = trace_value(unary(x, "*", 2.0))
    assert trace["nodes"][0]["label"] == "x\ufffd"
    assert all("\ud800" not in frame["text"] for frame in trace["frames"])


@pytest.mark.parametrize(("op", "result"), [("-", 3.0), ("/", 2.5), ("**", 25.0)])
def test_two_operands_kept_in_a_set_are_shown_in_the_order_that_makes_the_number(
    op: str, result: float
) -> None:
    """A set does not keep `a - b`'s order (its objects' addresses do): of the two
    orders, the one that makes the node's number is the one shown, whatever the set gives."""
    for _ in range(8):  # new objects each time: other addresses, other set orders
        a, b = Node(5.0, label="a"), Node(2.0, label="b")
        out = Node(result, (a, b), op)
        trace = trace_value(out)
        assert trace["nodes"][-1]["name"] == f"a{op}b"
