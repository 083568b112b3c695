"""`animate()` for Jupyter and scripts: sources, engine Values, foreign micrograd graphs."""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from service_helpers import NEURON

import backprop_animator
from app.notebook import Animation, animate
from engine import EngineError, Value

ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}
PAYLOAD = "</script><img src=x onerror=alert(1)>"


class Micro:
    """A tiny micrograd-style engine, written here so the test owns the foreign side."""

    def __init__(
        self, data: float, _children: tuple[Micro, ...] = (), _op: str = "", label: str = ""
    ) -> None:
        self.data = data
        self.grad = 0.0
        self._backward: Callable[[], None] = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __add__(self, other: Micro) -> Micro:
        out = Micro(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Micro) -> Micro:
        out = Micro(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> Micro:
        t = math.tanh(self.data)
        out = Micro(t, (self,), "tanh")

        def _backward() -> None:
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out


def micro_neuron() -> tuple[Micro, dict[str, Micro]]:
    leaves = {
        name: Micro(value, label=name)
        for name, value in [("x1", 2.0), ("x2", 0.0), ("w1", -3.0), ("w2", 1.0)]
    }
    leaves["b"] = Micro(6.8813735870195432, label="b")
    n = leaves["x1"] * leaves["w1"] + leaves["x2"] * leaves["w2"] + leaves["b"]
    o = n.tanh()
    o.label = "o"
    return o, leaves


def inner_document(fragment: str) -> str:
    match = re.search(r'srcdoc="([^"]*)"', fragment)
    assert match, "no srcdoc"
    return html.unescape(match.group(1))


def trace_in(document: str) -> Any:
    match = re.search(
        r'<script type="application/json" id="backprop-trace">(.*?)</script>', document, re.S
    )
    assert match
    return json.loads(match.group(1))


def grads_by_label(trace: dict[str, Any]) -> dict[str, float]:
    return {node["label"]: node["grad"] for node in trace["nodes"] if node["label"]}


def test_repr_html_is_self_contained() -> None:
    fragment = animate(NEURON)._repr_html_()

    assert re.search(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:|//|/static)""", fragment) is None
    document = inner_document(fragment)
    assert re.search(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:|//|/)""", document) is None
    assert "connect-src &#39;none&#39;" in document
    assert len(trace_in(document)["frames"]) == 16


def test_two_players_in_one_notebook_share_no_ids() -> None:
    first, second = animate(NEURON)._repr_html_(), animate(NEURON)._repr_html_()

    first_ids = set(re.findall(r'\bid="([^"]+)"', first))
    second_ids = set(re.findall(r'\bid="([^"]+)"', second))
    assert first_ids and second_ids
    assert first_ids.isdisjoint(second_ids)
    assert 'sandbox="allow-scripts"' in first


def test_save_writes_the_standalone_page(tmp_path: Path) -> None:
    animation = animate(NEURON, granularity="expanded", frame=28)

    path = animation.save(tmp_path / "neuron.html")

    document = path.read_text(encoding="utf-8")
    assert document == animation.to_html()
    assert len(trace_in(document)["frames"]) == 29
    assert '{"frame":28,"theme":"auto"}' in document


def test_animate_takes_an_engine_value_built_in_python() -> None:
    a = Value(3.0, label="a")

    animation = animate(a + a)

    assert [node["grad"] for node in animation.trace["nodes"]] == [2.0, 1.0]
    assert "4 frames" in repr(animation)


def test_foreign_micrograd_graph_traces_with_the_article_gradients() -> None:
    output, leaves = micro_neuron()

    animation = animate(output)

    grads = grads_by_label(animation.trace)
    for label, grad in ARTICLE_LEAF_GRADS.items():
        assert math.isclose(grads[label], grad, abs_tol=1e-12), label
        assert math.isclose(leaves[label].grad, grad, abs_tol=1e-12), label
    assert len(animation.trace["frames"]) == 16
    assert animation.title == "backprop-animator: o"


def test_foreign_rules_show_their_local_derivatives_as_contributions() -> None:
    output, _ = micro_neuron()
    trace = animate(output).trace
    label_of = {node["id"]: node["label"] for node in trace["nodes"]}
    tanh_id = next(node["id"] for node in trace["nodes"] if node["op"] == "tanh")
    x1w1_id = next(
        frame["node"]
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        and {label_of[c["to"]] for c in frame["contributions"]} == {"x1", "w1"}
    )

    frames = {frame["node"]: frame for frame in trace["frames"] if frame["phase"] == "backward"}
    (tanh_step,) = frames[tanh_id]["contributions"]
    assert tanh_step["upstream"] == 1.0
    assert math.isclose(tanh_step["local"], 0.5, abs_tol=1e-12)
    contributions = {label_of[c["to"]]: c for c in frames[x1w1_id]["contributions"]}
    assert math.isclose(contributions["x1"]["local"], -3.0)
    assert math.isclose(contributions["x1"]["delta"], -1.5, abs_tol=1e-12)
    assert math.isclose(contributions["w1"]["local"], 2.0)
    assert (contributions["x1"]["before"], contributions["x1"]["after"]) == (
        0.0,
        contributions["x1"]["delta"],
    )


def test_a_foreign_a_plus_a_shows_one_contribution_of_two() -> None:
    a = Micro(3.0, label="a")

    trace = animate(a + a).trace

    (step,) = [frame for frame in trace["frames"] if frame.get("contributions")]
    assert [(c["local"], c["delta"]) for c in step["contributions"]] == [(2.0, 2.0)]
    assert a.grad == 2.0


def test_hostile_labels_cannot_escape_the_notebook_output() -> None:
    fragment = animate(f"a = Value(1.0, label='{PAYLOAD}')\nb = a * 2")._repr_html_()

    assert "<img" not in fragment
    assert "<img" not in inner_document(fragment)
    assert PAYLOAD in {node["label"] for node in trace_in(inner_document(fragment))["nodes"]}


def test_animate_refuses_what_is_neither_a_program_nor_a_value() -> None:
    with pytest.raises(TypeError, match="not int"):
        animate(42)


def test_animate_reports_a_bad_program_with_its_position() -> None:
    with pytest.raises(EngineError) as caught:
        animate("a = Value(1.0)\nb = a * w3")

    assert (caught.value.line, caught.value.column) == (2, 9)


def test_the_package_re_exports_animate() -> None:
    assert backprop_animator.animate is animate
    assert backprop_animator.Animation is Animation


def test_a_save_that_fails_leaves_the_existing_file_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "neuron.html"
    target.write_text("kept", encoding="utf-8")
    animation = animate(NEURON)
    animation.title = "\ud800"  # cleaned in the page: the save itself must fail
    animation.to_html = lambda: "<p>\ud800"  # type: ignore[method-assign]

    with pytest.raises(UnicodeEncodeError):
        animation.save(target)

    assert target.read_text(encoding="utf-8") == "kept"
    assert list(tmp_path.iterdir()) == [target]


def test_a_title_with_a_lone_surrogate_is_saved_replaced(tmp_path: Path) -> None:
    path = animate(NEURON, title="neuron \udcff").save(tmp_path / "neuron.html")
    assert "<title>neuron \ufffd</title>" in path.read_text(encoding="utf-8")
