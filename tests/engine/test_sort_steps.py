"""The sort step by step (SPEC §9): counts, order and depth against a recursive `build`.

The reference is the recursive function itself, run over a trace's graph (children in
the order `edges` lists them); it shares no code with `engine.lab.sort_steps`.
"""

from __future__ import annotations

import ast
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backprop_animator.app.schemas import Trace
from backprop_animator.engine import EngineError, trace_source
from backprop_animator.engine.rules import rule_sources
from tests.engine.helpers import HYPOTHESIS, NEURON, assert_trace_invariants
from tests.engine.test_properties import Program, programs, traced

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()\n"


def recursive_build(
    trace: dict[str, Any], *, append_first: bool = False
) -> list[tuple[str, str, int]]:
    """(step, node, depth) of every call of the article's recursive sort."""
    children: dict[str, list[str]] = {node["id"]: [] for node in trace["nodes"]}
    for edge in trace["edges"]:
        children[edge["target"]].append(edge["source"])
    steps: list[tuple[str, str, int]] = []
    visited: set[str] = set()

    def build(v: str, depth: int) -> None:
        if v in visited:
            steps.append(("skip", v, depth))
            return
        visited.add(v)
        steps.append(("visit", v, depth))
        if append_first:
            steps.append(("append", v, depth))
        for child in children[v]:
            build(child, depth + 1)
        if not append_first:
            steps.append(("append", v, depth))

    build(trace["output"], 0)
    return steps


def sort_frames(trace: dict[str, Any]) -> list[dict[str, Any]]:
    return [frame for frame in trace["frames"] if frame["phase"] == "sort"]


def steps_of(trace: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(f["step"], f["node"], f["depth"]) for f in sort_frames(trace)[:-1]]


def test_the_neuron_sort_is_21_frames_and_the_whole_trace_36() -> None:
    trace = trace_source(NEURON, sort_steps=True)

    assert len(sort_frames(trace)) == 21
    assert len(trace["frames"]) == 5 + 21 + 10


def test_a_plus_a_sort_is_6_frames_with_one_skip_of_a() -> None:
    trace = trace_source(A_PLUS_A, sort_steps=True)
    a, b = trace["nodes"][0]["id"], trace["nodes"][1]["id"]

    assert [(f["step"], f.get("node"), f.get("depth")) for f in sort_frames(trace)] == [
        ("visit", b, 0),
        ("visit", a, 1),
        ("append", a, 1),
        ("skip", a, 1),
        ("append", b, 0),
        ("seed", None, None),
    ]


def test_sort_steps_are_off_by_default_and_the_neuron_stays_16_frames() -> None:
    trace = trace_source(NEURON)

    assert len(trace["frames"]) == 16
    assert [set(frame) for frame in sort_frames(trace)] == [{"phase", "text"}]


def test_the_seed_frame_is_last_of_the_sort_and_says_what_is_seeded() -> None:
    seed = sort_frames(trace_source(NEURON, sort_steps=True))[-1]

    assert set(seed) == {"phase", "step", "text"}
    assert seed["step"] == "seed"
    assert "o.grad = 1" in seed["text"]


def test_every_step_says_what_build_does() -> None:
    frames = sort_frames(trace_source(A_PLUS_A, sort_steps=True))

    assert frames[0]["text"].startswith("build(b) at depth 0: not visited yet")
    assert "already visited" in frames[3]["text"]
    assert frames[4]["text"].startswith("topo.append(b)")
    assert "number 2 of 2" in frames[4]["text"]


@settings(HYPOTHESIS, max_examples=80)
@given(programs(), st.sampled_from(["packed", "expanded"]))
def test_steps_follow_the_recursive_build_with_its_counts(
    program: Program, granularity: str
) -> None:
    plain = traced(program, granularity)
    trace = trace_source(program.source(), granularity, sort_steps=True)
    nodes, edges = len(trace["nodes"]), len(trace["edges"])
    steps = steps_of(trace)

    assert steps == recursive_build(trace)
    kinds = [step for step, _, _ in steps]
    assert kinds.count("visit") == kinds.count("append") == nodes
    assert kinds.count("skip") == 1 + edges - nodes
    assert [node for step, node, _ in steps if step == "append"] == trace["topo"]
    without_sort = [f for f in trace["frames"] if f["phase"] != "sort"]
    assert without_sort == [f for f in plain["frames"] if f["phase"] != "sort"]
    Trace.model_validate(trace)


@settings(HYPOTHESIS, max_examples=60)
@given(programs())
def test_with_append_first_each_node_is_appended_before_its_children_are_visited(
    program: Program,
) -> None:
    traced(program)
    trace = trace_source(program.source(), sort_steps=True, mistake="append-first")
    steps = steps_of(trace)

    assert steps == recursive_build(trace, append_first=True)
    for i, (step, node, depth) in enumerate(steps):
        if step == "visit":
            assert steps[i + 1] == ("append", node, depth)
    assert [node for step, node, _ in steps if step == "append"] == trace["topo"]


def test_no_sort_with_sort_steps_has_only_the_seed() -> None:
    trace = trace_source(NEURON, "expanded", sort_steps=True, mistake="no-sort")

    frames = sort_frames(trace)
    assert [frame["step"] for frame in frames] == ["seed"]
    assert frames[0]["text"].startswith("No sort happened")


@pytest.mark.parametrize("source", [NEURON, A_PLUS_A])
def test_sort_steps_keep_every_other_invariant(source: str) -> None:
    trace = trace_source(source, sort_steps=True)
    steps = sort_frames(trace)
    single = {**trace, "frames": [f for f in trace["frames"] if f not in steps[:-1]]}
    single["frames"] = [
        {"phase": "sort", "text": f["text"]} if f.get("step") == "seed" else f
        for f in single["frames"]
    ]

    assert_trace_invariants(single)


def test_a_chain_deeper_than_pythons_recursion_limit_sorts_step_by_step() -> None:
    source = "x = 1.0\n" + "x = x * 1.0\n" * 3000
    trace = trace_source(source, sort_steps=True)

    depths = [frame["depth"] for frame in sort_frames(trace)[:-1]]
    assert max(depths) == 3000


def test_the_code_panel_gets_the_recursive_sort_and_each_mistaken_line() -> None:
    rules = rule_sources()

    for key in ("build", "mistake:assign", "mistake:append-first", "mistake:no-sort"):
        ast.parse(rules[key])  # real Python, as the panel shows it
    build = rules["build"].splitlines()
    assert "topo.append(v)" in build[-1], "the right sort appends after the loop"
    wrong = rules["mistake:append-first"].splitlines()
    loop = next(i for i, line in enumerate(wrong) if "for child" in line)
    assert any("topo.append(v)" in line for line in wrong[:loop]), "the mistake appends first"
    assert "self.grad = local * out.grad" in rules["mistake:assign"]
    assert "self.grad += delta" in rules["accumulate"]
    assert "topological_order" not in rules["mistake:no-sort"]


@settings(HYPOTHESIS, max_examples=40)
@given(programs(), st.sampled_from(["assign", "append-first", "no-sort"]))
def test_sort_steps_change_only_the_sort_of_a_mistaken_trace(
    program: Program, mistake: str
) -> None:
    traced(program)
    try:
        plain = trace_source(program.source(), mistake=mistake)
    except EngineError:
        return  # a mistaken pass may overflow where the right one does not
    stepped = trace_source(program.source(), mistake=mistake, sort_steps=True)

    assert [f for f in stepped["frames"] if f["phase"] != "sort"] == [
        f for f in plain["frames"] if f["phase"] != "sort"
    ]
    assert {k: v for k, v in stepped.items() if k != "frames"} == {
        k: v for k, v in plain.items() if k != "frames"
    }
    assert sort_frames(stepped)[-1]["text"] == sort_frames(plain)[0]["text"]
