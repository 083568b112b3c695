"""Check your engine (SPEC §14) on learners' engines whose backward() writes the
gradients itself, or keeps them behind a property or as None at first
(`tests/engine/real_code/`): each runs as CPython runs it, its `correct_grad`s are what
micrograd gives on the same graph (run here in CPython), the check claims no rule wrong
that it could not judge, and the page's summary counts exactly the nodes the graph
outlines (its own code, run by Node, over every program of `real_code/` and
`public_code/`).

The three that contradicted themselves: `grad_none_engine` (the loop's first write of
each gradient, into None, was not recorded: three nodes outlined at 0 beside "0
gradients end wrong", and every rule "wrong" with a factor of 0); `property_engine`
(`self.grad += …` through a property setter was taken for an `=` that lost a share);
`recursive_backward` (no rule, no sort: "5 gradients end wrong" beside no outline).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from micrograd.engine import Value

from backprop_animator.engine import trace_columns, trace_source
from tests.engine.cpython import assert_same_output, printed_lines
from tests.support.checkout import CHECKOUT
from tests.support.node import NodeScript
from tests.support.traces import ROOMY, same_program, traced

REAL_CODE = Path(__file__).resolve().parent / "real_code"
PUBLIC_CODE = Path(__file__).resolve().parent / "public_code"
LEARNER_BUGS = Path(__file__).resolve().parent / "learner_bugs"


def run_learner_program(source: str) -> tuple[list[str], dict[str, Any]]:
    """The program as CPython runs it, with its own class: what it prints, and its
    top-level names (the tests' own programs, never a user's)."""
    import contextlib
    import io

    out = io.StringIO()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<program>", "exec"), namespace)
    return out.getvalue().splitlines(), namespace


def micrograd_grad_none() -> dict[str, float]:
    """grad_none_engine's graph, `y = (x * w + x).tanh()`: micrograd 0.1.0 has no tanh,
    so its gradients of `s = x * w + x` times dy/ds = 1 - tanh(s)**2."""
    x, w = Value(0.3), Value(-2.0)
    xw = x * w
    s = xw + x
    s.backward()
    scale = 1 - math.tanh(s.data) ** 2
    return {
        "x": x.grad * scale,
        "w": w.grad * scale,
        "x*w": xw.grad * scale,
        "x*w+x": s.grad * scale,
        "y": 1.0,
    }


def micrograd_property() -> dict[str, float]:
    """property_engine's graph, `c = log(a * b + a)`: micrograd has no log, so its
    gradients of `d = a * b + a` times dc/dd = 1 / d."""
    a, b = Value(2.0), Value(3.0)
    m = a * b
    d = m + a
    d.backward()
    scale = 1 / d.data
    return {
        "a": a.grad * scale,
        "b": b.grad * scale,
        "mul(a, b)": m.grad * scale,
        "add(mul(a, b), a)": d.grad * scale,
        "c": 1.0,
    }


def micrograd_recursive() -> dict[str, float]:
    """recursive_backward's two passes in micrograd, the program's own writes between
    them (`x.grad = y.grad = 0.0`) included: z and the products keep the first pass's
    gradients, which micrograd passes on in the second."""
    x, y, four = Value(2.0), Value(-3.0), Value(4.0)
    xy = x * y
    x4 = x * four
    z = xy + x4
    z.backward()
    x.grad = y.grad = 0.0
    w = z * z
    w.backward()
    return {"x": x.grad, "y": y.grad, "x*y": xy.grad, "4": four.grad, "x*4": x4.grad}


def learner_grads(program: str, namespace: dict[str, Any]) -> dict[str, float]:
    """The gradients the learner's engine left, as CPython ran it, by the trace's names."""
    if program == "grad_none_engine":
        x, w = namespace["x"], namespace["w"]
        return {"x": x.grad, "w": w.grad}
    if program == "property_engine":
        return {"a": namespace["a"].grad, "b": namespace["b"].grad, "c": namespace["c"].grad}
    x, y, z = namespace["x"], namespace["y"], namespace["z"]
    return {"x": x.grad, "y": y.grad, "z": z.grad}


CASES = {
    # program: (its right gradients by node name, the names whose gradient ends wrong)
    "grad_none_engine": (micrograd_grad_none, set()),
    "property_engine": (micrograd_property, set()),
    "recursive_backward": (micrograd_recursive, {"x", "y", "x*y", "4", "x*4"}),
}


def _differs(a: float, b: float) -> bool:  # mistakes.js's `differs`
    return abs(a - b) > 1e-6 * max(1.0, abs(a), abs(b))


@pytest.mark.parametrize("program", sorted(CASES))
def test_the_check_agrees_with_cpython_and_micrograd(program: str) -> None:
    source = (REAL_CODE / f"{program}.py").read_text()
    trace = trace_source(source)
    printed, namespace = run_learner_program(source)
    assert_same_output(printed_lines(trace), printed)
    by_name = {node["name"]: node for node in trace["nodes"]}
    # The learner's gradients: the trace's are CPython's.
    for name, grad in learner_grads(program, namespace).items():
        assert math.isclose(by_name[name]["grad"], grad, rel_tol=1e-12), name
    # The right engine's: micrograd's on the same graph, where the check has one.
    right, wrong = CASES[program]
    for name, grad in right().items():
        correct = by_name[name].get("correct_grad")
        if correct is not None:
            assert math.isclose(correct, grad, rel_tol=1e-9), (name, correct, grad)
    # The gradients that end wrong: the nodes the page outlines at the end.
    ends_wrong = {
        node["name"]
        for node in trace["nodes"]
        if "correct_grad" in node and _differs(node["grad"], node["correct_grad"])
    }
    assert ends_wrong == wrong
    check = trace["engine_check"]
    assert all(rule["verdict"] != "wrong" for rule in check["rules"]), check["rules"]
    assert check["sort"]["verdict"] == "right"
    assert check["accumulation"]["verdict"] == "right"


def test_a_loop_that_writes_what_each_rule_returns_is_judged_per_rule() -> None:
    # grad_none_engine: each `_grad_fn` returns its shares and backward()'s loop over v's
    # operands writes them (`p.grad = g if p.grad is None else p.grad + g`): v's rule, as
    # a `+=` in that loop is. It was left unjudged (every row "unchecked", the writes
    # updates), so the same loop with `p.grad = g`, which loses a share, had "+=: right".
    source = (REAL_CODE / "grad_none_engine.py").read_text()
    trace = trace_source(source)
    check = trace["engine_check"]
    assert {rule["op"]: rule["verdict"] for rule in check["rules"]} == {
        "*": "right", "+": "right", "tanh": "right"
    }  # fmt: skip
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    assert not [frame for frame in trace["frames"] if frame["phase"] == "update"]
    texts = [frame["text"] for frame in trace["frames"] if frame["phase"] == "backward"]
    # The choice that takes the sum is a `+=`, as `p.grad = p.grad + g` is (it said "the
    # 0.9151 already there is lost", then "x.grad = 0.9151 + −1.83 → −0.9151", an `=`
    # whose share was judged right only where it was right); the first one into None,
    # the choice's `g`, a write from 0.
    assert texts[5] == (
        "x*w (*, grad 0.9151): the loop on line 55 adds the shares its rule returned. "
        "x.grad += −1.83; 2nd +=, sum 0.9151 + −1.83 = −0.9151; w.grad = 0.2745."
    )
    lossy = source.replace("p.grad = g if p.grad is None else p.grad + g", "p.grad = g")
    assert lossy != source
    trace = trace_source(lossy)
    ids = {node["name"]: node["id"] for node in trace["nodes"]}
    first = trace["engine_check"]["accumulation"]["first"]
    assert (first["node"], first["child"]) == (ids["x*w"], ids["x"])
    assert math.isclose(first["lost"], 1 - math.tanh(-0.3) ** 2, rel_tol=1e-12)
    assert printed_lines(trace) == run_learner_program(lossy)[0]
    # The row's frame is the one that shows the write (the run's second: its first is
    # the call of `_grad_fn`, which wrote nothing, where the row's button landed).
    assert trace["frames"][first["frame"]]["text"] == (
        "x*w (*, grad 0.9151): the loop on line 55 adds the shares its rule returned. "
        "x.grad = −1.83: the 0.9151 already there is lost; w.grad = 0.2745."
    )


def test_a_rule_that_adds_through_a_grad_property_keeps_its_plus_equals() -> None:
    # property_engine: `self.grad += other.value * out.grad` runs the setter's
    # `self._grad = g`; the write is the statement's `+=` on the statement's line, its
    # factor read off the code.
    source = (REAL_CODE / "property_engine.py").read_text()
    trace = trace_source(source)
    writes = [
        (c["write"], c["local"], source.splitlines()[c["line"] - 1].strip())
        for frame in trace["frames"]
        if frame["phase"] == "backward"
        for c in frame["contributions"]
    ]
    assert writes == [
        ("+=", None, "self.grad += out.grad / self.value"),
        ("+=", 1.0, "self.grad += out.grad"),
        ("+=", 1.0, "other.grad += out.grad"),
        ("+=", 3.0, "self.grad += other.value * out.grad"),
        ("+=", 2.0, "other.grad += self.value * out.grad"),
    ]
    verdicts = {rule["op"]: rule["verdict"] for rule in trace["engine_check"]["rules"]}
    # `mul` and `add` are the registry's `*` and `+` (right_engine.OP_WORDS).
    assert verdicts == {"mul": "right", "add": "right", "log": "right"}


# The page's own code: for each trace, the summary's words, the count in them, and the
# nodes the graph outlines at the end of each pass (parted-marks.js's `partedAt`). One
# Node a test process answers every test's traces (tests/support/node.py).
SUMMARIES = """
import {{ createTimeline, stateAt }} from {timeline};
import {{ fromColumns }} from {columns};
import {{ partedAt }} from {mistakes};
import {{ engineSummary }} from {view};
serve((traces) => {{
  const out = {{}};
  for (const [name, columns] of Object.entries(traces)) {{
    const timeline = createTimeline(fromColumns(columns));
    const check = timeline.trace.engine_check;
    const {{ summary }} = engineSummary(check, timeline);
    const ends = timeline.passes
      ? timeline.passes.filter((p) => p.end > p.start).map((p) => p.end - 1)
      : [timeline.frameCount - 1];
    const outlined = new Set();
    for (const k of ends)
      for (const entry of partedAt(timeline, stateAt(timeline, k)))
        outlined.add(timeline.trace.nodes[entry.node].id);
    out[name] = {{ summary, outlined: [...outlined].sort() }};
  }}
  return out;
}});
"""
_JS = CHECKOUT / "static" / "js"  # the checkout's page (the tests run from a copy)
_MODULES = {
    "timeline": _JS / "passes" / "timeline.js",
    "columns": _JS / "passes" / "columns.js",
    "mistakes": _JS / "lab" / "mistakes.js",
    "view": _JS / "lab" / "engine-check-view.js",
}
PAGE = NodeScript(
    SUMMARIES.format(**{k: json.dumps(v.as_uri()) for k, v in _MODULES.items()}), timeout=300
)


def summaries_by_the_page(traces: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = PAGE.ask(traces)
    return found


def _count_in(summary: str) -> int:
    """The number of gradients the summary says end wrong (0 where it names none)."""
    import re

    found = re.search(r"(\d+) gradients? (?:ends?|differs?)", summary)
    return int(found.group(1)) if found else 0


# Every real and public program, a test each in its program's group (`same_program`):
# under xdist it runs in the worker that made the program's columns trace for
# test_columns.py, and finds it there (as 8 tests of 25 programs, about half of them were
# traced again in the other worker).
PROGRAMS = sorted([*REAL_CODE.glob("*.py"), *PUBLIC_CODE.glob("*.py")])
# The programs without a Value class of their own (the built-in engine's, or micrograd's
# as imported): nothing to check, so their traces have no `engine_check`. Every other
# program's has one (a group of 25 asked at least 10 before).
WITHOUT_A_CHECK = {
    "bobronium_micrograd_readme_example",
    "exceptions",
    "integers_with_masks",
    "library_and_decorators",
    "match_patterns",
    "micrograd_nn_import",
    "micrograd_readme_example",
    "micrograd_test_engine_without_torch",
    "micrograd_trace_graph_notebook",
    "moons_without_numpy",
    "walrus",
}


def traces_with_a_check(paths: list[Path]) -> dict[str, Any]:
    traces = {}
    for path in paths:
        # A generous clock: a loaded machine must not stop a program the page runs. The
        # trace test_columns.py makes of it too (tests/support/traces.py).
        columns = traced(trace_columns, path.read_text(), "packed", ROOMY)
        if "engine_check" in columns:
            traces[path.stem] = columns
    return traces


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(path, marks=same_program(path), id=f"{path.parent.name}/{path.stem}")
        for path in PROGRAMS
    ],
)
def test_every_programs_summary_counts_the_nodes_the_graph_outlines(path: Path) -> None:
    traces = traces_with_a_check([path])
    assert (path.stem in traces) == (path.stem not in WITHOUT_A_CHECK), (
        f"{path.stem}: a check where none was (or none where one was): WITHOUT_A_CHECK"
    )
    for name, page in summaries_by_the_page(traces).items():
        assert _count_in(page["summary"]) == len(page["outlined"]), (name, page)
        if not page["outlined"]:
            assert "outlined" not in page["summary"], (name, page)


def test_the_summaries_say_what_a_recursive_pass_and_hand_set_gradients_did() -> None:
    named = (
        "recursive_backward",
        "grad_none_engine",
        "nn_zero_to_hero_micrograd_lecture_first_half",
    )
    pages = summaries_by_the_page(
        traces_with_a_check([path for path in PROGRAMS if path.stem in named])
    )
    recursive = pages["recursive_backward"]
    ids = {
        n["name"]: n["id"]
        for n in trace_source((REAL_CODE / "recursive_backward.py").read_text())["nodes"]
    }
    assert recursive["outlined"] == sorted(ids[name] for name in CASES["recursive_backward"][1])
    assert "rules cannot be judged one by one" in recursive["summary"]
    assert "every gradient is right" in pages["grad_none_engine"]["summary"]
    # A lecture that sets gradients by hand after its first backward(): the engine left
    # them right, and nothing is outlined (its summary said "yet 3 gradients differ").
    assert pages["nn_zero_to_hero_micrograd_lecture_first_half"]["outlined"] == []
    assert (
        "every gradient is right"
        in pages["nn_zero_to_hero_micrograd_lecture_first_half"]["summary"]
    )


def test_the_summary_of_a_set_that_merged_an_operand_away_says_so() -> None:
    # `x = a*b` and `y = c*d`, both 6, hashed by data: `x + y`'s set keeps x, and c and d
    # get nothing. They are cut off the graph the right engine walks too, so nothing is
    # outlined; the summary said "every gradient the check could compare ends as a right
    # engine's does", though c.grad prints 0 where 4 is right. Both spellings: the set
    # made in the constructor, and `out._prev = set([self, other])` after it.
    source = (LEARNER_BUGS / "hash_merges_products.py").read_text()
    later = source.replace(
        "out = Value(self.data + other.data, (self, other), '+')",
        "out = Value(self.data + other.data)\n        out._prev = set([self, other])\n"
        "        out._op = '+'",
    )
    assert later != source
    traces = {
        name: traced(trace_columns, text, "packed", ROOMY)
        for name, text in (("constructor", source), ("later", later))
    }
    for name, page in summaries_by_the_page(traces).items():
        assert page["outlined"] == [], name
        assert "merged two equal nodes (the + row below)" in page["summary"], name
        assert "ends as a right engine's does" not in page["summary"], name
