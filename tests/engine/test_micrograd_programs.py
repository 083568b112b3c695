"""micrograd's `nn.py` and the article's complete code, pasted as they are, give CPython's
numbers: every parameter, every loss, every gradient, pass after pass.

`nn.py` is read from the installed `micrograd` package (MIT licence, test extra) rather
than copied here; the article's code is read from the article beside the repository.
"""

from __future__ import annotations

import pytest

from backprop_animator.engine import trace_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython
from tests.engine.test_article import article_expanded_code, article_packed_code, article_text
from tests.support.programs import nn_source, nn_training

TRAINING = nn_training()


def test_nn_py_is_pasted_with_its_imports() -> None:
    assert nn_source().startswith("import random\nfrom micrograd.engine import Value\n")


@pytest.mark.parametrize("neuron_sum", ["generator", "list"])
def test_an_mlp_from_nn_py_trains_with_cpythons_numbers(neuron_sum: str) -> None:
    nn = nn_source()
    if neuron_sum == "list":  # an older nn.py sums a list instead of a generator
        nn = nn.replace(
            "sum((wi*xi for wi,xi in zip(self.w, x)), self.b)",
            "sum([wi*xi for wi,xi in zip(self.w, x)], self.b)",
        )
    source = nn + TRAINING
    trace = trace_source(source)

    assert_same_output(printed_lines(trace), run_in_cpython(source))
    assert len(trace["passes"]) == 6
    losses = [float(line.split()[1]) for line in printed_lines(trace)[:6]]
    assert [p["data"] for p in trace["passes"]] == pytest.approx(losses, rel=1e-12)


def test_the_mlp_groups_each_node_by_the_neuron_that_made_it() -> None:
    trace = trace_source(nn_source() + TRAINING)
    groups = {node["group"] for node in trace["nodes"]}

    assert "MLP.layers[0].neurons[3]" in groups
    assert "MLP.layers[2].neurons[0]" in groups
    assert "" in groups  # the loss, made at the top level
    assert not any(g.startswith("MLP.layers[3]") for g in groups)


def article_value_class() -> str:
    text = article_text()
    start = text.index("import math\n\nclass Value:")
    end = text.index("print([v.label for v in topo])", start) + len(
        "print([v.label for v in topo])"
    )
    return text[start:end] + "\n\n"


def article_drawing_code() -> str:
    text = article_text()
    start = text.index("from graphviz import Digraph")
    end = text.index("return dot", start) + len("return dot")
    return text[start:end] + "\n\n"


GRADS = "\nprint(x1.grad, w1.grad, x2.grad, w2.grad, b.grad, n.grad, o.data)\n"


def test_the_articles_complete_code_runs_with_its_own_value_class() -> None:
    source = article_value_class() + article_drawing_code() + article_packed_code()
    trace = trace_source(source + GRADS)

    assert len(trace["nodes"]) == 10
    assert len(trace["frames"]) == 16
    *_, grads = printed_lines(trace)
    reference = run_in_cpython(
        article_value_class() + article_packed_code().replace("draw_dot(o)", "") + GRADS
    )
    assert_same_output([grads], reference[-1:])
    assert [float(g) for g in grads.split()][:5] == pytest.approx([-1.5, 1.0, 0.5, 0.0, 0.5])


def test_the_articles_code_prints_its_topological_order_in_insertion_order() -> None:
    trace = trace_source(article_value_class() + article_packed_code())

    topo_line = printed_lines(trace)[0]
    assert topo_line == str(["x1", "w1", "x1*w1", "x2", "w2", "x2*w2", "x1w1+x2w2", "b", "n", "o"])
    labels = {node["id"]: node["label"] for node in trace["nodes"]}
    assert str([labels[i] for i in trace["topo"]]) == topo_line


def test_the_articles_expanded_code_shows_the_two_contributions_into_e() -> None:
    trace = trace_source(article_value_class() + article_expanded_code())

    assert len(trace["nodes"]) == 18
    assert len(trace["frames"]) == 29
    e = next(node["id"] for node in trace["nodes"] if node["label"] == "e")
    into_e = [
        c
        for f in trace["frames"]
        if f["phase"] == "backward"
        for c in f["contributions"]
        if c["to"] == e
    ]
    assert [c["delta"] for c in into_e] == pytest.approx([-0.1036, 0.1464], abs=1e-4)
    assert into_e[-1]["after"] == pytest.approx(0.0429, abs=1e-4)


def test_the_articles_class_is_watched_plus_equals_by_plus_equals() -> None:
    trace = trace_source(article_value_class() + article_packed_code())

    products = [
        f
        for f in trace["frames"]
        if f["phase"] == "backward"
        and next(n for n in trace["nodes"] if n["id"] == f["node"])["op"] == "*"
    ]
    for frame in products:
        for contribution in frame["contributions"]:
            assert contribution["delta"] == contribution["local"] * contribution["upstream"]
