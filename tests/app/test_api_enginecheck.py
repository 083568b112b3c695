"""`POST /api/enginecheck` and `backprop-animator enginecheck` (SPEC §14): a learner's own
Value class against a right engine, the same answer over HTTP, in the CLI and in the
trace's `engine_check`."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from service_helpers import assert_error_shape

from backprop_animator.app.schemas import EngineCheck
from backprop_animator.engine import enginecheck_source, program_examples, trace_source
from tests.app.test_cli import run

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]


async def test_the_check_finds_a_lost_share_and_matches_the_trace(
    client: httpx.AsyncClient,
) -> None:
    source = program_examples.BUGGY_ASSIGN
    response = await client.post("/api/enginecheck", json={"source": source})

    assert response.status_code == 200, response.text
    check = response.json()
    EngineCheck.model_validate(check)
    assert check == trace_source(source)["engine_check"] == enginecheck_source(source)
    assert check["accumulation"]["verdict"] == "wrong"
    assert [rule["verdict"] for rule in check["rules"]] == ["right", "right", "right"]


async def test_a_tape_nothing_clears_is_named_with_the_pass_and_line(
    client: httpx.AsyncClient,
) -> None:
    # The sort row's `first` of a rule left over from an earlier pass has `pass` and
    # `line`, which the schema (extra fields forbidden) must know.
    source = (ROOT / "tests" / "engine" / "learner_bugs" / "tape_never_cleared.py").read_text()
    response = await client.post("/api/enginecheck", json={"source": source})

    assert response.status_code == 200, response.text
    check = response.json()
    EngineCheck.model_validate(check)
    assert check == trace_source(source)["engine_check"]
    assert check["sort"]["first"] == {
        "frame": 15, "node": "n5", "consumer": None, "pass": 0, "line": 26
    }  # fmt: skip


async def test_a_program_on_the_built_in_engine_is_all_right(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/enginecheck", json={"source": "x = 2.0\ny = x * x + x\n"})

    assert response.status_code == 200, response.text
    check = response.json()
    assert {rule["op"] for rule in check["rules"]} == {"*", "+"}
    assert all(rule["verdict"] == "right" and rule["line"] is None for rule in check["rules"])
    assert check["sort"] == check["accumulation"] == {"verdict": "right", "first": None}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"source": "x = ("}, 400),
        ({"source": "class V:\n    pass\nV().backward()\n"}, 400),
        ({"source": 3}, 422),
        ({}, 422),
    ],
)
async def test_bad_input_is_a_clear_error(
    client: httpx.AsyncClient, body: dict[str, object], status: int
) -> None:
    assert_error_shape(await client.post("/api/enginecheck", json=body), status)


def test_the_cli_prints_the_same_check() -> None:
    source = program_examples.BUGGY_DERIVATIVE
    result = run("enginecheck", "-", stdin=source)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == enginecheck_source(source)
    bad = run("enginecheck", "x = (")
    assert bad.returncode == 2 and "line 1" in bad.stderr


def test_the_export_and_animate_carry_the_check() -> None:
    # Every host plays the trace, and the check travels in it (`engine_check`).
    from backprop_animator import animate
    from backprop_animator.app.export import render_standalone
    from backprop_animator.engine.rules import rule_sources
    from tests.app.test_export import data_block
    from tests.app.test_notebook import inner_document, trace_in

    source = program_examples.BUGGY_NO_SORT
    expected = enginecheck_source(source)
    page = render_standalone(trace_source(source), rule_sources(), title="No sort")
    assert data_block(page, "backprop-trace")["engine_check"] == expected
    notebook = inner_document(animate(source)._repr_html_())
    assert trace_in(notebook)["engine_check"] == expected
    assert expected["sort"]["verdict"] == "wrong"


async def test_an_op_no_table_knows_is_judged_by_a_rerun_of_its_method(
    client: httpx.AsyncClient,
) -> None:
    # SPEC §14: `foo` (3 sin x) is known by no table; its method, run again on a moved
    # copy of its operand, gives the right 3 cos x, which its rule (cos x) is not.
    from tests.engine.test_op_rerun import CUBE_TAIL, FOO, program

    source = program(FOO, CUBE_TAIL.replace(".cube()", ".foo()"))
    response = await client.post("/api/enginecheck", json={"source": source})

    assert response.status_code == 200, response.text
    check = response.json()
    EngineCheck.model_validate(check)
    assert check == trace_source(source)["engine_check"]
    foo = next(row for row in check["rules"] if row["op"] == "foo")
    assert foo["verdict"] == "wrong"
    assert abs(foo["first"]["correct"] - 1.6209069175765478) < 1e-8
