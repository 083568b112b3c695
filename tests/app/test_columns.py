"""The columns encoding (engine/trace/columns.py, docs/TRACE.md): the page reads back the
very trace the engine made, every number and every character of every text.

Each trace of a corpus (the examples, the straight-line corpus in its modes, 300 graphs
built in Python, the real-code and public programs, random programs) is encoded here,
decoded by the page's own module (`static/js/passes/columns.js`) under Node, and compared
with the trace as JSON schema 1 or 2 gives it.
"""

from __future__ import annotations

import contextlib
import gzip
import json
from pathlib import Path
from typing import Any, cast

import httpx
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backprop_animator.app.worker import encode_trace
from backprop_animator.engine import (
    EngineError,
    trace_columns,
    trace_source,
    trace_value,
)
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.trace.columns import to_columns
from backprop_animator.engine.trace.sentences import SENTENCES, first_add
from tests.engine import straight_line_corpus as corpus
from tests.engine.test_properties import Program, programs
from tests.support.checkout import CHECKOUT
from tests.support.node import NodeScript
from tests.support.programs import fanout_program, mlp_program
from tests.support.traces import ROOMY, same_program, traced

COLUMNS_JS = CHECKOUT / "static" / "js" / "passes" / "columns.js"
ENGINE_TESTS = Path(__file__).parent.parent / "engine"
# The default limits with a roomy clock: the numbers are what is compared, and the
# public programs (8,000 nodes, traced twice here) meet the 1.8 s default on a busy
# 2-core machine (test_public_code.py raises it alike, with the same `ROOMY`).
LIMITS = ROOMY

# Answers {encodings, wants, which, decode}: decodes each encoding (unless `decode` is
# false: then it is already what the page holds) and compares it with its trace as JSON
# gives it, `wants[which[i]]`; for each, null or where the first difference is. It
# compares what JSON.stringify would write of the page's reading: numbers as numbers (1.0
# is written 1; a Python int past 2**53 is a double to both), booleans, strings and null
# by type and value, an object's keys as a set (a key whose value is undefined left out,
# an object's toJSON() read), lists by length and order. Done in Node, where the decoded
# trace is: writing millions of values out as JSON and walking them again in Python took
# most of a public program's test. One Node a test process answers them all.
DECODE = """
import({module}).then(({{ fromColumns }}) => {{
  const differ = (back, want) => {{
    if (want === null || typeof want !== "object") {{
      if (back === want && (typeof back !== "number" || typeof want === "number")) return null;
      return [`${{JSON.stringify(back) ?? String(back)}} != ${{JSON.stringify(want)}}`];
    }}
    if (Array.isArray(want)) {{
      if (!Array.isArray(back)) return [`${{typeof back}} where a list of ${{want.length}} is`];
      if (back.length !== want.length)
        return [`${{back.length}} items where ${{want.length}} are`];
      for (let i = 0; i < want.length; i++) {{
        const found = differ(back[i], want[i]);
        if (found) return (found.push(`[${{i}}]`), found);
      }}
      return null;
    }}
    // What JSON.stringify would write of it: a frame whose text is made when read.
    if (typeof back?.toJSON === "function") back = back.toJSON();
    if (back === null || typeof back !== "object" || Array.isArray(back))
      return [`${{JSON.stringify(back)}} where an object is`];
    const keys = Object.keys(want);
    const backKeys = Object.keys(back).filter((key) => back[key] !== undefined);
    const missing = keys.filter((key) => back[key] === undefined);
    if (missing.length || backKeys.length !== keys.length) {{
      const extra = backKeys.filter((key) => !Object.hasOwn(want, key));
      return [`keys: missing ${{JSON.stringify(missing)}}, extra ${{JSON.stringify(extra)}}`];
    }}
    for (const key of keys) {{
      const found = differ(back[key], want[key]);
      if (found) return (found.push(`.${{key}}`), found);
    }}
    return null;
  }};
  serve(({{ encodings, wants, which, decode }}) =>
    encodings.map((columns, i) => {{
      const found = differ(decode ? fromColumns(columns) : columns, wants[which[i]]);
      if (!found) return null;
      const message = found.shift();
      return `trace${{found.reverse().join("")}}: ${{message}}`;
    }}),
  );
}});
"""
DECODER = NodeScript(DECODE.format(module=json.dumps(COLUMNS_JS.as_uri())))


def differences(
    encodings: list[Any], wants: list[Any], which: list[int], *, decode: bool = True
) -> list[str | None]:
    """For each encoding, the page's decoder's reading of it against `wants[which[i]]`
    (`decode=False`: compare the encodings themselves): None where they are the same,
    else where the first difference is."""
    asked = {"encodings": encodings, "wants": wants, "which": which, "decode": decode}
    return cast("list[str | None]", DECODER.ask(asked))


def assert_round_trip(
    traces: list[dict[str, Any]], encodings: list[dict[str, Any]] | None = None
) -> None:
    """Every trace comes back from the page's decoder as its JSON says it (numbers as
    numbers: JSON.stringify writes 1.0 as 1; texts character for character).
    `encodings`: the traces as `trace_columns` made them; else `to_columns` of each."""
    # Each trace sent once, however many encodings of it are compared with it.
    index: dict[int, int] = {}
    wants = []
    for trace in traces:
        if id(trace) not in index:
            index[id(trace)] = len(wants)
            wants.append(trace)
    if encodings is None:
        encodings = [to_columns(trace) for trace in traces]
    which = [index[id(trace)] for trace in traces]
    found = [difference for difference in differences(encodings, wants, which) if difference]
    assert not found, f"{len(found)} traces read back otherwise, the first at {found[0]}"


def assert_programs_round_trip(
    programs: list[tuple[str, str, dict[str, Any]]], *, kept: bool = False
) -> int:
    """Each (source, granularity, options) the engine traces comes back whole from both
    encoders: `trace_columns`, which leaves a straight-line program's texts to the page
    without writing them, and `to_columns` of the finished trace, which checks each.
    `kept`: the traces of `tests.support.traces`, shared with other tests of the program."""
    traces, encodings = [], []
    for source, granularity, options in programs:
        try:
            if kept:
                trace = traced(trace_source, source, granularity, LIMITS, **options)
            else:
                trace = trace_source(source, granularity, LIMITS, **options)
        except EngineError as refusal:
            refused = refusal
            # Made wrong on purpose (log(0), a mistake asked of a program with its own
            # Value class...): refused by both, with the same message.
            with pytest.raises(EngineError) as error:
                trace_columns(source, granularity, LIMITS, **options)
            assert str(error.value) == str(refused)
            continue
        traces.append(trace)
        if kept:
            encodings.append(traced(trace_columns, source, granularity, LIMITS, **options))
        else:
            encodings.append(trace_columns(source, granularity, LIMITS, **options))
    assert len(traces) >= len(programs) // 3
    # Both encodings of every trace, decoded by one start of the page's decoder.
    assert_round_trip(traces + traces, encodings + [to_columns(trace) for trace in traces])
    return len(traces)


@pytest.mark.parametrize(
    ("back", "want"),
    [
        ({"a": [1, True]}, {"a": [1, 1]}),
        ({"a": [1, 1]}, {"a": [1, True]}),
        ([1.5, "x"], [1.5, "y"]),
        ([None], [0]),
        ({"a": 1}, {"a": 1, "b": 2}),
        ([[1, 2]], [[1, 2, 3]]),
        ("1", 1),
    ],
)
def test_the_comparison_finds_every_difference_and_says_where(back: Any, want: Any) -> None:
    [found] = differences([back], [want], [0], decode=False)
    assert found is not None and found.startswith("trace"), found


def test_the_comparison_takes_numbers_as_json_stringify_writes_them() -> None:
    back = {"a": [1, 10_000_000_000_000_000_000, 0.5], "b": {"c": None, "d": "x"}}
    want = {"b": {"d": "x", "c": None}, "a": [1.0, 1e19, 0.5]}
    assert differences([back], [want], [0], decode=False) == [None]
    [found] = differences(
        [{"a": [1, {"b": [2, 3]}]}], [{"a": [1, {"b": [2, 4]}]}], [0], decode=False
    )
    assert found == "trace.a[1].b[1]: 3 != 4"


def test_the_examples_come_back_whole_in_both_granularities() -> None:
    assert_programs_round_trip(
        [
            (example.source, granularity, {"mistake": mistake, "sort_steps": steps})
            for example in EXAMPLES
            for granularity in ("packed", "expanded")
            for mistake, steps in ((None, False), ("assign", False), (None, True))
        ]
    )


def test_the_straight_line_corpus_comes_back_whole() -> None:
    modes = (
        (None, False, "packed"),
        (None, False, "expanded"),
        (None, True, "packed"),
        ("assign", False, "packed"),
        ("append-first", True, "expanded"),
        ("no-sort", False, "packed"),
    )
    assert_programs_round_trip(
        [
            (corpus.program(index), granularity, {"mistake": mistake, "sort_steps": steps})
            for index in range(0, corpus.PROGRAMS, 5)
            for mistake, steps, granularity in modes
        ]
    )


def test_a_running_sum_and_an_op_of_two_rules_come_back_whole() -> None:
    # Sums named by their operands once `loss` moved on (`name` no longer the label), and
    # a check row whose line is the wrong rule's, not the op's first node's.
    from tests.engine.test_narrate import OWN_RUNNING_SUM, RUNNING_SUM

    two_rules = (ENGINE_TESTS / "learner_bugs" / "rmul_written_apart.py").read_text()
    straight = "a = Value(2.0)\nb = a * 3\nb = b + a\nb = b * b\n"  # the straight-line language
    sources = [RUNNING_SUM, OWN_RUNNING_SUM, two_rules, straight]
    assert_programs_round_trip(
        [(source, granularity, {}) for source in sources for granularity in ("packed", "expanded")]
    )
    columns = trace_columns(two_rules, "packed", LIMITS)
    mul = next(row for row in columns["engine_check"]["rules"] if row["op"] == "*")
    assert (mul["line"], mul["verdict"]) == (35, "wrong")
    names = trace_columns(RUNNING_SUM, "packed", LIMITS)["nodes"]["name"]
    assert "0+d*d" in names and "0" in names


def test_an_op_no_table_knows_comes_back_with_its_numeric_reference() -> None:
    # SPEC §14: a node whose op no table knows, differentiated by a re-run of its method
    # (engine/lab/op_rerun.py): its `correct_grad`, `reference` and check row, both ways.
    from tests.engine.test_op_rerun import CUBE, CUBE_TAIL, FOO, program

    foo = program(FOO, CUBE_TAIL.replace(".cube()", ".foo()"))
    cube = program(CUBE.format(factor="3 * self.data**2"), CUBE_TAIL)
    # A cube whose rule forgets the 3: its rule's frame names the measured derivative.
    wrong = program(CUBE.format(factor="self.data**2"), CUBE_TAIL)
    programs = [(foo, "packed", {}), (cube, "expanded", {}), (wrong, "packed", {})]
    assert assert_programs_round_trip(programs) == 3
    columns = trace_columns(foo, "packed", LIMITS)
    row = next(row for row in columns["engine_check"]["rules"] if row["op"] == "foo")
    assert row["verdict"] == "wrong"
    assert columns["engine_check"] == trace_source(foo, "packed", LIMITS)["engine_check"]


def test_a_pass_that_adds_to_gradients_the_last_left_comes_back_whole() -> None:
    # No zero_grad between two backward() calls: pass 2's first += into each leaf says
    # what it held (sentences.held_add), in the engine's words and the page's alike.
    source = "a = Value(2.0)\nb = Value(-3.0)\nc = a*b + a\nc.backward()\nc.backward()\n"
    assert assert_programs_round_trip([(source, "packed", {})]) == 1
    texts = [f["text"] for f in trace_source(source, "packed", LIMITS)["frames"]]
    assert sum(text.count("already, sum") for text in texts) == 3  # a*b, a and b


def test_an_op_whose_set_merged_an_operand_comes_back_named_as_written() -> None:
    # A class that hashes by value: `x * y`'s set kept x alone, and the node was `*(x)`
    # ("*(x) = *(2) = 4"); named as written, `x*y = 2 × 2`, in the page's reading too.
    sources = [
        (ENGINE_TESTS / "learner_bugs" / f"{name}.py").read_text()
        for name in ("hash_merges_operands", "hash_merges_products")
    ]
    assert assert_programs_round_trip([(source, "packed", {}) for source in sources]) == 2
    texts = [f["text"] for f in trace_source(sources[1], "packed", LIMITS)["frames"]]
    assert "z = x+y = 6 + 6 = 12" in texts


def test_a_rule_held_for_another_node_comes_back_whole() -> None:
    # `self._backward = _backward` in `__mul__` (and `other._backward` in `__add__`): the
    # operand's frame says whose rule it ran, in the page's reading too.
    sources = [
        (ENGINE_TESTS / "learner_bugs" / f"{name}.py").read_text()
        for name in ("rule_on_self", "rule_on_other")
    ]
    assert assert_programs_round_trip([(source, "packed", {}) for source in sources]) == 2
    for source, (holder, maker) in zip(sources, [("s", "s*c"), ("p", "y")], strict=True):
        texts = [f["text"] for f in trace_source(source, "packed", LIMITS)["frames"]]
        assert any(text.startswith(f"{holder} (") for text in texts)
        said = next(text for text in texts if text.startswith(f"{holder} ("))
        assert f"the rule that ran is {maker}'s, set on {holder} on line " in said
        assert "its own rule" not in said


def test_graphs_built_in_python_come_back_whole() -> None:
    traces = []
    for index in range(corpus.GRAPHS):
        with contextlib.suppress(EngineError):  # nan or inf: refused, as they should be
            traces.append(trace_value(corpus.graph(index), "packed", LIMITS))
    assert len(traces) > 200
    assert_round_trip(traces)


REAL_PROGRAMS = sorted((ENGINE_TESTS / "real_code").glob("*.py")) + sorted(
    (ENGINE_TESTS / "public_code").glob("*.py")
)


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(path, marks=same_program(path), id=f"{path.parent.name}/{path.stem}")
        for path in REAL_PROGRAMS
    ],
)
def test_real_programs_come_back_whole(path: Path) -> None:
    """One program a test: the public ones are up to 18,000 nodes, traced twice here
    (each trace kept for the program's other tests: test_public_code.py...)."""
    assert assert_programs_round_trip([(path.read_text(), "packed", {})], kept=True) == 1, "refused"


def test_the_real_programs_are_there() -> None:
    assert len([path for path in REAL_PROGRAMS if path.parent.name == "real_code"]) >= 8
    assert len([path for path in REAL_PROGRAMS if path.parent.name == "public_code"]) >= 50


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    drawn=st.lists(
        st.tuples(programs(), st.sampled_from(["packed", "expanded"])), min_size=25, max_size=25
    )
)
def test_random_programs_come_back_whole(drawn: list[tuple[Program, str]]) -> None:
    """Twenty-five random programs at a time: the page's decoder starts once for them."""
    assert_programs_round_trip(
        [(program.source(), granularity, {}) for program, granularity in drawn]
    )


def test_a_big_straight_line_trace_is_a_fifth_and_says_every_text_again() -> None:
    """The 20,000-node network of the benchmarks: no text and no derivable number travels."""
    for source in (mlp_program(20_000), fanout_program(20_000)):
        trace = trace_source(source, "packed", LIMITS)
        columns = trace_columns(source, "packed", LIMITS)
        checked = to_columns(trace)
        # The same but for products of two equal numbers (`2 × 2`): the engine marks
        # every product written the other way, the check only those that read otherwise.
        assert set(checked["frames"]["swapped"]) <= set(columns["frames"]["swapped"])
        del checked["frames"]["swapped"], columns["frames"]["swapped"]
        assert columns == checked
        frames = columns["frames"]
        assert "text" not in frames, "every text is said again by the page"
        assert not any(key.startswith("kept_") for key in frames)
        size = len(orjson.dumps(columns))
        assert size < len(orjson.dumps(trace)) / 4
    assert_programs_round_trip([(mlp_program(2_000), "packed", {})])


def test_big_numbers_and_updates_without_a_pass_come_back() -> None:
    """A number JSON.stringify writes without an exponent, and an update frame with
    nothing but its usual keys (its `changes` must travel all the same)."""
    assert_programs_round_trip(
        [("v = Value(-1e-5)\nu = (v*v) ** -2\nu.backward()", "expanded", {})]
    )
    trace = trace_source("a = Value(3.0)\nb = a * 2\nb.backward()\n", "packed", LIMITS)
    change = {"node": "n0", "field": "data", "before": 3.0, "after": 2.0}
    trace["frames"].append({"phase": "update", "changes": [change], "line": 3, "text": "a moves"})
    assert to_columns(trace)["frames"]["more"][str(len(trace["frames"]) - 1)] == {
        "changes": [change]
    }


def test_the_sentences_are_the_narrations_own() -> None:
    """The table the page fills is made from the functions the engine writes texts with."""
    assert SENTENCES["first_add"] == "{child}.grad += {local} × {upstream} → {after}"
    assert first_add("x1", "−3", "0.5", "−1.5") == "x1.grad += −3 × 0.5 → −1.5"
    trace = trace_source(EXAMPLES[0].source, "packed", LIMITS)
    backward = [f for f in trace["frames"] if f["phase"] == "backward"]
    assert backward[0]["text"].startswith("o (tanh, grad 1): ")


@pytest.mark.anyio
async def test_the_api_answers_columns_when_asked(client: httpx.AsyncClient) -> None:
    source = EXAMPLES[0].source
    plain = (await client.post("/api/trace", json={"source": source})).json()
    asked = {"source": source, "encoding": "columns"}
    columns = (await client.post("/api/trace", json=asked)).json()
    assert plain["schema"] == 1 and "encoding" not in plain
    assert columns["encoding"] == "columns" and columns["version"] == 1
    got = await client.get("/api/trace", params=asked)
    assert got.json() == columns and got.headers["etag"]
    usual = await client.get("/api/trace", params={"source": source})
    assert got.headers["etag"] != usual.headers["etag"]
    wrong = await client.post("/api/trace", json={"source": source, "encoding": "rows"})
    assert wrong.status_code == 422
    assert differences([columns], [plain], [0]) == [None]


def test_a_large_columns_trace_is_gzipped_where_it_is_encoded() -> None:
    encoded = encode_trace(mlp_program(2_000), "packed", LIMITS, True, encoding="columns")
    assert encoded.gzipped
    assert json.loads(gzip.decompress(encoded.body))["encoding"] == "columns"
