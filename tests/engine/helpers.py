"""Small readers of a trace dict, shared by the engine tests.

They only look things up; every expected number is computed in the tests themselves.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

from backprop_animator.engine.examples import NEURON as NEURON  # the article's neuron, as a program
from tests.support.checkout import CHECKOUT

REPO = Path(__file__).resolve().parents[2]
# The article sits beside the repository, not in the wheel: found from the checkout.
SEED_ARTICLE = CHECKOUT.parent / "shared" / "seed" / "000_49d6e919cbaaa8c6.txt"

# Deterministic in CI: the same examples on every run, nothing written to disk.
HYPOTHESIS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def nodes_by_id(trace: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {node["id"]: node for node in trace["nodes"]}


def node_labelled(trace: dict[str, Any], label: str) -> dict[str, Any]:
    """The one node with this label (fails if there are none or several)."""
    matches = [node for node in trace["nodes"] if node["label"] == label]
    assert len(matches) == 1, f"expected one node labelled {label!r}, found {len(matches)}"
    return matches[0]


def leaf_grads(trace: dict[str, Any]) -> dict[str, float]:
    """`{label: grad}` of the leaves (not constants)."""
    return {node["label"]: node["grad"] for node in trace["nodes"] if node["kind"] == "leaf"}


def output_node(trace: dict[str, Any]) -> dict[str, Any]:
    return nodes_by_id(trace)[trace["output"]]


def phases(trace: dict[str, Any]) -> list[str]:
    return [frame["phase"] for frame in trace["frames"]]


def contributions_to(trace: dict[str, Any], node_id: str) -> list[dict[str, Any]]:
    """Every `+=` into `node_id`, in the order the backward pass made them."""
    return [
        contribution
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        for contribution in frame["contributions"]
        if contribution["to"] == node_id
    ]


def ops(trace: dict[str, Any]) -> list[str]:
    """The ops of the op nodes in creation order, e.g. `['*', '+']`."""
    return [node["op"] for node in trace["nodes"] if node["kind"] == "op"]


def constants(trace: dict[str, Any]) -> list[float]:
    return [node["data"] for node in trace["nodes"] if node["kind"] == "const"]


def assert_trace_invariants(trace: dict[str, Any]) -> None:
    """Everything SPEC §3 says must hold of any trace (§11's for a schema 2 trace).

    A learner's own engine whose sort is wrong (SPEC §14, `engine_check`) runs its rules
    in its own order, as often as it does: only what holds of every pass is checked.
    """
    own_sort = trace.get("engine_check", {}).get("sort", {}).get("verdict")
    if trace["schema"] == 2 or own_sort == "wrong":
        assert_multi_pass_invariants(trace)
        return
    nodes = {node["id"]: node for node in trace["nodes"]}
    frames = trace["frames"]
    op_ids = [node["id"] for node in trace["nodes"] if node["kind"] == "op"]

    assert len(nodes) == len(trace["nodes"]), "node ids are unique"
    assert trace["output"] in nodes
    assert len(frames) == len(op_ids) + 1 + len(nodes)

    builds = [frame for frame in frames if frame["phase"] == "build"]
    assert [frame["node"] for frame in builds] == op_ids, "one build frame per op, in order"
    assert [frame["phase"] for frame in frames] == (
        ["build"] * len(op_ids) + ["sort"] + ["backward"] * len(nodes)
    )

    assert sorted(trace["topo"]) == sorted(nodes), "topo is a permutation of the nodes"
    position = {node_id: i for i, node_id in enumerate(trace["topo"])}
    for edge in trace["edges"]:
        assert position[edge["source"]] < position[edge["target"]], "children before parents"
    assert trace["topo"][-1] == trace["output"]

    backwards = [frame for frame in frames if frame["phase"] == "backward"]
    assert [frame["node"] for frame in backwards] == trace["topo"][::-1]

    for node in trace["nodes"]:
        kind_is_op = node["kind"] == "op"
        assert kind_is_op == (node["op"] != ""), "only op nodes have an op"
        assert node["kind"] in ("leaf", "const", "op")
        has_children = any(edge["target"] == node["id"] for edge in trace["edges"])
        assert has_children == kind_is_op

    last_after: dict[str, float] = {}
    for frame in backwards:
        upstream = nodes[frame["node"]]["grad"]
        children = Counter(e["source"] for e in trace["edges"] if e["target"] == frame["node"])
        assert Counter(c["to"] for c in frame["contributions"]) == children
        for c in frame["contributions"]:
            assert c["upstream"] == upstream
            assert c["before"] == last_after.get(c["to"], 0.0), "+= starts from the running sum"
            if "write" in c:  # a program's own class (SPEC §14): as the learner's code wrote it
                # SPEC §14's two writes; a `-=` is a `+=` that `subtracts` (local: minus)
                assert c["write"] in ("+=", "=") and isinstance(c["line"], int)
                assert c.get("subtracts", True) is True and (
                    "subtracts" not in c or c["write"] == "+="
                )
                assert c["delta"] == c["after"] - c["before"]
            else:
                assert c["delta"] == c["local"] * c["upstream"]
                assert c["after"] == c["before"] + c["delta"]
            last_after[c["to"]] = c["after"]
        assert isinstance(frame["text"], str) and frame["text"]
        if "mistake" not in trace:  # the text calls the node what the trace says it is
            assert frame["text"].startswith(nodes[frame["node"]]["name"]), frame["text"]

    for node_id, node in nodes.items():
        expected = 1.0 if node_id == trace["output"] else last_after[node_id]
        assert node["grad"] == expected, "final grads are the last `after` of each node"

    json.dumps(trace, allow_nan=False)


def assert_multi_pass_invariants(trace: dict[str, Any]) -> None:
    """What SPEC §11 says must hold of a trace with several passes or update frames."""
    nodes = {node["id"]: node for node in trace["nodes"]}
    assert len(nodes) == len(trace["nodes"]), "node ids are unique"
    passes = trace["passes"]
    assert passes, "a trace has at least one pass"
    assert trace["output"] == passes[-1]["output"] and trace["topo"] == passes[-1]["topo"]
    frames = trace["frames"]
    assert [f["pass"] for f in frames] == sorted(f["pass"] for f in frames)
    assert {f["pass"] for f in frames} <= set(range(len(passes)))
    built = [f["node"] for f in frames if f["phase"] == "build"]
    assert len(built) == len(set(built)), "no node is built twice"
    assert set(built) == {n["id"] for n in trace["nodes"] if n["kind"] == "op"}
    for index, run in enumerate(passes):
        assert run["output"] in nodes
        assert sorted(run["topo"]) == sorted(set(run["topo"]))
        mine = [f for f in frames if f["pass"] == index]
        assert [f["phase"] for f in mine].count("sort") == 1
        backwards = [f["node"] for f in mine if f["phase"] == "backward"]
        if trace.get("engine_check", {}).get("sort", {}).get("verdict") == "wrong":
            # A learner's sort: rules in its own order, some twice, some never.
            assert set(backwards) == set(run["topo"])
        else:
            assert backwards == run["topo"][::-1]
        for frame in mine:  # the texts call each node what the trace says this pass does
            if frame["phase"] == "backward":
                name = run["names"].get(frame["node"], nodes[frame["node"]]["name"])
                assert frame["text"].startswith(name), (name, frame["text"])
    for frame in frames:
        assert isinstance(frame["text"], str) and frame["text"]
        for change in frame.get("changes", []):
            assert change["node"] in nodes and change["field"] in ("data", "grad")
        for contribution in frame.get("contributions", []):
            assert contribution["to"] in nodes
            if "write" in contribution:  # a program's own class: delta is after − before
                assert contribution["delta"] == contribution["after"] - contribution["before"]
            else:
                assert contribution["after"] == contribution["before"] + contribution["delta"]
    json.dumps(trace, allow_nan=False)
