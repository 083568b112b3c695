"""The trace's structure (SPEC §3): counts, order, contributions, ids, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from backprop_animator.engine import EngineError, Limits, Value, trace_source, trace_value
from backprop_animator.engine.examples import EXAMPLES
from tests.engine.helpers import (
    NEURON,
    REPO,
    assert_trace_invariants,
    node_labelled,
)
from tests.support.foreign import ForeignValue, foreign_neuron

PROGRAMS = {
    "neuron": (NEURON, "packed"),
    "neuron-expanded": (NEURON, "expanded"),
    "a-plus-a": ("a = Value(3.0)\nb = a + a\nb.backward()\n", "packed"),
    "fork": ("x = 3.0\ny = x*x + x\n", "packed"),
    "shared-subexpression": ("a = 1.5\nb = -0.5\nc = a*b\nd = c*c + c/a - b\n", "packed"),
    "every-function": (
        "x = 0.7\ny = log(sigmoid(x) + exp(x)) * relu(x) + tanh(x) ** 2 - 1 / x\n",
        "packed",
    ),
    "every-function-expanded": (
        "x = 0.7\ny = log(sigmoid(x) + exp(x)) * relu(x) + tanh(x) ** 2 - 1 / x\n",
        "expanded",
    ),
    "single-leaf": ("x = 2.0\nx\n", "packed"),
}


def programs() -> list[Any]:
    return [
        pytest.param(source, granularity, id=name)
        for name, (source, granularity) in PROGRAMS.items()
    ]


@pytest.mark.parametrize(("source", "granularity"), programs())
def test_traces_keep_every_invariant_of_the_spec(source: str, granularity: str) -> None:
    assert_trace_invariants(trace_source(source, granularity))


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_every_example_keeps_every_invariant_of_the_spec(example: Any) -> None:
    assert_trace_invariants(trace_source(example.source, example.granularity))


def test_ids_are_n0_onwards_in_creation_order() -> None:
    trace = trace_source("a = 1.0\nb = 2.0\nc = a * b\nd = c + a\n")
    assert [(node["id"], node["label"]) for node in trace["nodes"]] == [
        ("n0", "a"),
        ("n1", "b"),
        ("n2", "c"),
        ("n3", "d"),
    ]


def test_ids_have_no_gaps_where_unused_nodes_were_left_out() -> None:
    trace = trace_source("a = 1.0\nunused = a * 5\nb = a + 1\n")
    assert [node["id"] for node in trace["nodes"]] == ["n0", "n1", "n2"]


def test_topo_follows_operand_order_depth_first() -> None:
    trace = trace_source("a = 1.0\nb = 2.0\nc = a * b\nd = c + a\n")
    labels = {node["id"]: node["label"] for node in trace["nodes"]}
    assert [labels[node_id] for node_id in trace["topo"]] == ["a", "b", "c", "d"]


def test_sort_frame_seeds_the_output_gradient() -> None:
    trace = trace_source("a = 1.0\nb = a * 3\n")
    sort = next(frame for frame in trace["frames"] if frame["phase"] == "sort")
    assert "node" not in sort
    assert "1" in sort["text"]
    first_backward = trace["frames"][trace["frames"].index(sort) + 1]
    assert first_backward["node"] == trace["output"]
    assert first_backward["contributions"][0]["upstream"] == 1.0


def test_leaf_and_constant_frames_have_no_contributions() -> None:
    trace = trace_source("a = 1.0\nb = a * 3\n")
    for frame in trace["frames"][-2:]:
        assert frame["contributions"] == []
    assert "leaf" in trace["frames"][-1]["text"]
    assert "constant" in trace["frames"][-2]["text"]


def test_the_same_source_gives_the_same_bytes_twice() -> None:
    first = json.dumps(trace_source(NEURON, "expanded"))
    second = json.dumps(trace_source(NEURON, "expanded"))
    assert first == second


def test_the_same_source_gives_the_same_bytes_in_processes_with_different_hash_seeds() -> None:
    script = (
        "import json, sys; from backprop_animator.engine import trace_source; "
        "sys.stdout.write(json.dumps(trace_source(sys.stdin.read(), 'expanded')))"
    )
    outputs = []
    for seed in ("1", "2"):
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", script],
            input=NEURON + "p = o * x1 + o * w1\n",
            capture_output=True,
            text=True,
            cwd=REPO,
            env=environment,
            check=True,
        )
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0] == json.dumps(trace_source(NEURON + "p = o * x1 + o * w1\n", "expanded"))


def test_traces_are_strict_json() -> None:
    for example in EXAMPLES:
        text = json.dumps(trace_source(example.source, example.granularity), allow_nan=False)
        assert json.loads(text)["schema"] in (1, 2)


def test_narration_of_a_fork_gives_the_running_sum() -> None:
    # y = x*x + x at x = 3: x gets 1 from +, then 3 and 3 from *: 1 -> 4 -> 7.
    trace = trace_source("x = 3.0\ny = x*x + x\n")
    product = next(
        frame
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        and frame["node"] != trace["output"]
        and frame["contributions"]
    )
    assert "2nd" in product["text"] and "3rd" in product["text"]
    assert "1 + 3 = 4" in product["text"]
    assert "4 + 3 = 7" in product["text"]


def test_narration_of_the_expanded_neuron_sums_into_e() -> None:
    trace = trace_source(NEURON, "expanded")
    e_id = node_labelled(trace, "e")["id"]
    second = [
        frame
        for frame in trace["frames"]
        if any(c["to"] == e_id for c in frame.get("contributions", []))
    ][1]
    assert "2nd" in second["text"]
    assert "−0.1036 + 0.1464 = 0.04289" in second["text"]


def test_build_text_shows_the_numbers_of_the_operation() -> None:
    trace = trace_source("a = 2.0\nb = -3.0\nc = a * b\n")
    build = trace["frames"][0]
    assert "2 × −3 = −6" in build["text"]


# Graphs built in Python


def creation_ordered(output: Value) -> list[Value]:
    """Every node below `output`, by a walk of our own, in creation order."""
    seen: dict[int, Value] = {}
    stack = [output]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen[id(node)] = node
            stack.extend(node._prev)
    return sorted(seen.values(), key=lambda node: node._seq)


def test_edges_of_a_python_graph_match_its_children() -> None:
    a, b = Value(1.5, label="a"), Value(-2.0, label="b")
    c = a * b
    d = (c + a) * c.tanh() + b**2
    trace = trace_value(d)

    values = creation_ordered(d)
    ids = {id(node): trace_id["id"] for node, trace_id in zip(values, trace["nodes"], strict=True)}
    assert [node.data for node in values] == [node["data"] for node in trace["nodes"]]
    expected = Counter((ids[id(child)], ids[id(node)]) for node in values for child in node._prev)
    assert Counter((e["source"], e["target"]) for e in trace["edges"]) == expected
    assert_trace_invariants(trace)


def test_trace_value_leaves_the_final_gradients_on_the_python_graph() -> None:
    a, b = Value(1.5), Value(-2.0)
    out = a * b + a
    trace_value(out)
    assert (a.grad, b.grad, out.grad) == (-1.0, 1.5, 1.0)


def test_trace_value_refuses_a_graph_with_a_value_that_is_not_finite() -> None:
    big = Value(1e308)
    with pytest.raises(EngineError, match="finite"):
        trace_value(big * 10)


def test_trace_value_refuses_something_that_is_not_a_node() -> None:
    with pytest.raises(EngineError):
        trace_value(3.0)


def test_a_deep_python_chain_traces() -> None:
    x = Value(0.5, label="x")
    y = x
    for _ in range(5_000):
        y = y * 1.0
    trace = trace_value(y)
    assert len(trace["nodes"]) == 10_001
    assert node_labelled(trace, "x")["grad"] == 1.0


def test_trace_value_of_a_foreign_micrograd_graph_gives_the_article_gradients() -> None:
    o, leaves = foreign_neuron()

    trace = trace_value(o)

    assert len(trace["nodes"]) == 10
    assert len(trace["frames"]) == 16
    assert [leaves[name].grad for name in ("x1", "w1", "x2", "w2", "b")] == pytest.approx(
        [-1.5, 1.0, 0.5, 0.0, 0.5], abs=1e-12
    )
    assert_trace_invariants(trace)


def test_trace_value_of_a_foreign_a_plus_a_gives_two() -> None:
    a = ForeignValue(3.0)
    b = a + a
    trace = trace_value(b)
    assert a.grad == 2.0
    assert [node["grad"] for node in trace["nodes"]] == [2.0, 1.0]


def test_a_local_derivative_that_overflows_is_explained_in_words_at_its_line() -> None:
    with pytest.raises(EngineError) as caught:
        trace_source("x = Value(1e-200)\ny = x ** -1.5\n")

    assert "too large for a float" in caught.value.message
    assert "34" not in caught.value.message  # no errno leaking from the C library
    assert (caught.value.line, caught.value.column) == (2, 5)


def test_a_python_built_graph_may_leave_labels_unset() -> None:
    a = Value(2.0, label=None)
    trace = trace_value(a * a)
    assert [node["label"] for node in trace["nodes"]] == [None, ""]
    assert len(trace["passes"]) == 1 and trace["passes"][0]["output"] == trace["output"]


def test_a_python_built_graph_names_the_first_non_finite_value_its_engine_meets() -> None:
    a = Value(2.0, label="a")
    b, c = a * float("nan"), a * float("inf")
    with pytest.raises(EngineError) as caught:
        trace_value(b + c, mistake="no-sort")
    assert caught.value.message.startswith("a*nan+a*inf is not a finite number")


def test_a_raised_depth_limit_lets_a_long_straight_line_chain_run() -> None:
    chain = "+".join(["x"] * 450)
    limits = Limits(max_depth=5000)
    assert len(trace_source(f"x = Value(1.0)\ny = {chain}\n", limits=limits)["nodes"]) == 450
    with pytest.raises(EngineError) as caught:
        trace_source(f"x = Value(1.0)\ny = nope + ({chain})\n", limits=limits)
    assert (caught.value.line, caught.value.column, caught.value.message) == (
        2,
        5,
        "name 'nope' is not defined",
    )
