"""The article's numbers, each as a named test.

Expected values come from the article's figures and from the chain rule worked by
hand here (`math`), never from the engine under test.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

import pytest

from backprop_animator.engine import Value, trace_source, trace_value
from tests.engine.helpers import (
    NEURON,
    SEED_ARTICLE,
    contributions_to,
    leaf_grads,
    node_labelled,
    output_node,
    phases,
)

X1, X2, W1, W2, B = 2.0, 0.0, -3.0, 1.0, 6.8813735870195432
ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}


def hand_leaf_grads() -> dict[str, float]:
    """do/dleaf for o = tanh(x1*w1 + x2*w2 + b), by the chain rule."""
    dn = 1 - math.tanh(X1 * W1 + X2 * W2 + B) ** 2
    return {"x1": W1 * dn, "w1": X1 * dn, "x2": W2 * dn, "w2": X2 * dn, "b": dn}


def assert_article_leaf_grads(trace: dict[str, Any]) -> None:
    grads = leaf_grads(trace)
    assert grads == pytest.approx(ARTICLE_LEAF_GRADS, abs=1e-12)
    assert grads == pytest.approx(hand_leaf_grads(), rel=1e-12, abs=1e-15)


def article_text() -> str:
    if not SEED_ARTICLE.exists():
        pytest.skip(f"the article is not beside the repository ({SEED_ARTICLE} is absent)")
    return SEED_ARTICLE.read_text(encoding="utf-8")


def article_packed_code() -> str:
    """The article's complete example, from `x1 = Value(2.0` to its `draw_dot(o)`."""
    text = article_text()
    start = text.index("x1 = Value(2.0")
    end = text.index("draw_dot(o)", start) + len("draw_dot(o)")
    return text[start:end] + "\n"


def article_expanded_code() -> str:
    """The same example with the article's expanded lines in place of `o = n.tanh()`."""
    text = article_text()
    start = text.index("e   = (n * 2).exp()")
    end = text.index("o.backward()", start)
    expanded_lines = text[start:end]
    packed = article_packed_code()
    tanh_line = re.search(r"^o = n\.tanh\(\).*\n", packed, flags=re.MULTILINE)
    assert tanh_line is not None, "the article's packed example has no `o = n.tanh()` line"
    return packed.replace(tanh_line.group(0), expanded_lines)


def article_topo_labels(after: str) -> list[str]:
    """The label list the article prints after the sentence starting `after`."""
    text = article_text()
    start = text.index("[", text.index(after))
    end = text.index("]", start) + 1
    labels = ast.literal_eval(text[start:end])
    assert isinstance(labels, list)
    return labels


def test_neuron_has_ten_nodes() -> None:
    assert len(trace_source(NEURON)["nodes"]) == 10


def test_neuron_has_sixteen_frames_five_build_one_sort_ten_backward() -> None:
    frame_phases = phases(trace_source(NEURON))
    assert len(frame_phases) == 16
    assert frame_phases == ["build"] * 5 + ["sort"] + ["backward"] * 10


def test_neuron_leaf_gradients_match_the_article() -> None:
    assert_article_leaf_grads(trace_source(NEURON))


def test_neuron_output_is_half_root_two() -> None:
    assert output_node(trace_source(NEURON))["data"] == pytest.approx(math.sqrt(2) / 2, rel=1e-12)


def test_neuron_bias_node_n_has_gradient_one_half() -> None:
    trace = trace_source(NEURON)
    tanh_node = output_node(trace)
    n_id = next(edge["source"] for edge in trace["edges"] if edge["target"] == tanh_node["id"])
    n = next(node for node in trace["nodes"] if node["id"] == n_id)
    assert n["data"] == pytest.approx(0.8813735870, abs=1e-10)
    assert n["grad"] == pytest.approx(0.5, abs=1e-12)


def test_expanded_neuron_has_eighteen_nodes_and_twenty_nine_frames() -> None:
    trace = trace_source(NEURON, "expanded")
    assert len(trace["nodes"]) == 18
    assert phases(trace) == ["build"] * 10 + ["sort"] + ["backward"] * 18


def test_expanded_neuron_has_the_same_leaf_gradients() -> None:
    assert_article_leaf_grads(trace_source(NEURON, "expanded"))


def test_expanded_neuron_e_receives_two_contributions_that_sum_to_0_0429() -> None:
    trace = trace_source(NEURON, "expanded")
    e = node_labelled(trace, "e")
    into_e = contributions_to(trace, e["id"])

    e_data = math.exp(2 * (X1 * W1 + X2 * W2 + B))
    through_den = -(e_data - 1) / (e_data + 1) ** 2  # o = num * den**-1, den = e + 1
    through_num = 1 / (e_data + 1)  # num = e - 1
    assert [c["delta"] for c in into_e] == pytest.approx([through_den, through_num], rel=1e-12)
    assert [c["delta"] for c in into_e] == pytest.approx([-0.1036, 0.1464], abs=5e-5)
    assert into_e[0]["before"] == 0.0
    assert into_e[1]["before"] == into_e[0]["after"]
    assert into_e[1]["after"] == pytest.approx(0.0429, abs=5e-5)
    assert e["grad"] == into_e[1]["after"]


def test_a_plus_a_gives_a_gradient_of_two_from_two_contributions() -> None:
    trace = trace_source("a = Value(3.0)\nb = a + a\nb.backward()\n")
    a = node_labelled(trace, "a")
    into_a = contributions_to(trace, a["id"])
    assert a["grad"] == 2.0
    assert [(c["before"], c["delta"], c["after"]) for c in into_a] == [
        (0.0, 1.0, 1.0),
        (1.0, 1.0, 2.0),
    ]


def test_a_plus_a_draws_two_edges_from_a() -> None:
    trace = trace_source("a = Value(3.0)\nb = a + a\nb.backward()\n")
    a, b = node_labelled(trace, "a"), node_labelled(trace, "b")
    assert trace["edges"] == [{"source": a["id"], "target": b["id"]}] * 2


def test_articles_pasted_code_gives_the_article_leaf_gradients() -> None:
    assert_article_leaf_grads(trace_source(article_packed_code()))


def test_articles_pasted_code_matches_the_program_form() -> None:
    pasted = trace_source(article_packed_code())
    program = trace_source(NEURON)
    assert leaf_grads(pasted) == pytest.approx(leaf_grads(program), rel=1e-12, abs=1e-15)
    assert len(pasted["frames"]) == len(program["frames"]) == 16


def test_articles_pasted_code_keeps_its_labels() -> None:
    trace = trace_source(article_packed_code())
    labels = [node["label"] for node in trace["nodes"]]
    expected = article_topo_labels("The topological order printed is 10 nodes")
    assert sorted(labels) == sorted(expected)


def test_articles_pasted_expanded_code_gives_eighteen_nodes_and_the_same_gradients() -> None:
    trace = trace_source(article_expanded_code())
    assert len(trace["nodes"]) == 18
    assert len(trace["frames"]) == 29
    assert_article_leaf_grads(trace)
    expected = article_topo_labels("The order becomes 18 nodes")
    assert sorted(node["label"] for node in trace["nodes"]) == sorted(expected)


def test_articles_pasted_expanded_code_matches_the_expanded_granularity() -> None:
    pasted = trace_source(article_expanded_code())
    expanded = trace_source(NEURON, "expanded")
    assert leaf_grads(pasted) == pytest.approx(leaf_grads(expanded), rel=1e-12, abs=1e-15)
    pasted_e = contributions_to(pasted, node_labelled(pasted, "e")["id"])
    expanded_e = contributions_to(expanded, node_labelled(expanded, "e")["id"])
    assert [c["delta"] for c in pasted_e] == pytest.approx([c["delta"] for c in expanded_e])


def test_trace_value_of_a_neuron_built_in_python_matches_the_article() -> None:
    x1, x2 = Value(X1, label="x1"), Value(X2, label="x2")
    w1, w2 = Value(W1, label="w1"), Value(W2, label="w2")
    b = Value(B, label="b")
    o = (x1 * w1 + x2 * w2 + b).tanh()

    trace = trace_value(o)

    assert len(trace["nodes"]) == 10
    assert len(trace["frames"]) == 16
    assert_article_leaf_grads(trace)
    assert (x1.grad, w1.grad, x2.grad, w2.grad, b.grad) == pytest.approx(
        (-1.5, 1.0, 0.5, 0.0, 0.5), abs=1e-12
    )


def test_trace_value_resets_gradients_left_by_an_earlier_backward() -> None:
    a = Value(3.0, label="a")
    b = a + a
    b.backward()
    b.backward()  # micrograd accumulates: a.grad is now 4
    assert a.grad == 4.0

    trace = trace_value(b)

    assert leaf_grads(trace) == {"a": 2.0}
    assert a.grad == 2.0
