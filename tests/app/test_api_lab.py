"""The bug lab, the sort steps and the gradient check over HTTP (SPEC §7, §8, §9)."""

from __future__ import annotations

import httpx
import pytest
from service_helpers import NEURON, assert_error_shape, assert_still_serving

from backprop_animator.app.schemas import Gradcheck, Trace
from backprop_animator.engine import program_examples, trace_source
from backprop_animator.engine.rules import rule_sources

pytestmark = pytest.mark.anyio

A_PLUS_A = "a = Value(3.0)\nb = a + a\nb.backward()\n"
PARABOLA = "x = Value(3.0)\nf = 3*x**2 - 4*x + 5\n"


async def test_post_trace_runs_the_assign_mistake_and_echoes_it(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/trace", json={"source": A_PLUS_A, "mistake": "assign"})

    assert response.status_code == 200, response.text
    trace = response.json()
    assert trace["mistake"] == "assign"
    a = trace["nodes"][0]
    assert (a["grad"], a["correct_grad"]) == (1.0, 2.0)
    Trace.model_validate(trace)


async def test_get_trace_takes_mistake_and_sort_steps_from_the_query(
    client: httpx.AsyncClient,
) -> None:
    params = {"source": NEURON, "mistake": "append-first", "sort_steps": "1"}
    response = await client.get("/api/trace", params=params)

    assert response.status_code == 200, response.text
    assert response.json() == trace_source(NEURON, mistake="append-first", sort_steps=True)


async def test_get_traces_with_different_options_have_different_etags(
    client: httpx.AsyncClient,
) -> None:
    plain = await client.get("/api/trace", params={"source": A_PLUS_A})
    mistaken = await client.get("/api/trace", params={"source": A_PLUS_A, "mistake": "assign"})

    assert plain.headers["etag"] != mistaken.headers["etag"]


async def test_post_trace_with_sort_steps_gives_the_neuron_21_sort_frames(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/api/trace", json={"source": NEURON, "sort_steps": True})

    frames = response.json()["frames"]
    assert sum(frame["phase"] == "sort" for frame in frames) == 21
    assert [f["step"] for f in frames if f["phase"] == "sort"][-1] == "seed"


async def test_without_options_the_trace_is_unchanged(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/trace", json={"source": NEURON})

    assert response.json() == trace_source(NEURON)
    assert len(response.json()["frames"]) == 16


@pytest.mark.parametrize(
    "body",
    [
        {"source": A_PLUS_A, "mistake": "Assign"},
        {"source": A_PLUS_A, "mistake": 1},
        {"source": A_PLUS_A, "mistake": ["assign"]},
        {"source": A_PLUS_A, "sort_steps": "maybe"},
        {"source": A_PLUS_A, "sort_steps": {"a": 1}},
    ],
    ids=["mistake-case", "mistake-number", "mistake-list", "sort-steps-word", "sort-steps-dict"],
)
async def test_post_trace_refuses_bad_lab_options(
    client: httpx.AsyncClient, body: dict[str, object]
) -> None:
    response = await client.post("/api/trace", json=body)

    error = assert_error_shape(response, 422)
    assert "mistake" in str(error["message"]) or "sort_steps" in str(error["message"])
    await assert_still_serving(client)


@pytest.mark.parametrize(
    "query",
    [{"mistake": "<script>"}, {"mistake": ""}, {"sort_steps": "2"}],
    ids=["mistake-html", "mistake-empty", "sort-steps-two"],
)
async def test_get_trace_refuses_bad_lab_options(
    client: httpx.AsyncClient, query: dict[str, str]
) -> None:
    response = await client.get("/api/trace", params={"source": A_PLUS_A, **query})

    assert_error_shape(response, 422)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/trace", {"mistake": "assign"}),
        ("/api/trace", {"sort_steps": True}),
        ("/api/gradcheck", {"mistake": "assign", "pass": 1, "h": [1e-6]}),
    ],
    ids=["mistake", "sort-steps", "gradcheck-mistake"],
)
async def test_lab_options_take_a_real_program(
    client: httpx.AsyncClient, path: str, body: dict[str, object]
) -> None:
    source = (
        "w = Value(2.0, label='w')\nfor i in range(2):\n    y = w * w + w\n"
        "    w.grad = 0.0\n    y.backward()\n    w.data -= 0.1 * w.grad\n"
    )
    response = await client.post(path, json={"source": source, **body})

    assert response.status_code == 200, response.text
    result = response.json()
    if path == "/api/gradcheck":
        # `=` keeps the last of w's three writes (w.data, 2 - 0.1 * 2 after the first
        # update), where the program's derivative 2w + 1 is 4.6.
        assert [c["analytic"] for c in result["checks"]] == [1.8]
        assert abs(result["checks"][0]["rows"][0]["numeric"] - 4.6) < 1e-3
    elif "mistake" in body:
        assert result["mistake"] == "assign"
        assert [p["correct_grads"]["n0"] for p in result["passes"]] == [5.0, 4.6]
    else:
        steps = [f.get("step") for f in result["frames"] if f["phase"] == "sort"]
        assert steps.count("seed") == 2 and steps.count("skip") == 4


async def test_a_mistake_on_a_program_of_its_own_class_is_refused_at_its_class(
    client: httpx.AsyncClient,
) -> None:
    source = program_examples.OWN_ENGINE_FORK
    response = await client.post("/api/trace", json={"source": source, "mistake": "assign"})

    error = assert_error_shape(response, 400)
    assert "own Value class" in str(error["message"])
    assert error["line"] == 1 + source[: source.index("class ")].count("\n")


async def test_gradcheck_gives_the_article_numbers(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/gradcheck", json={"source": PARABOLA, "h": [0.001]})

    assert response.status_code == 200, response.text
    result = response.json()
    assert list(result) == ["output", "checks"]
    (check,) = result["checks"]
    assert (check["label"], check["analytic"]) == ("x", 14.0)
    assert check["rows"][0]["numeric"] == pytest.approx(14.003)
    Gradcheck.model_validate(result)


async def test_gradcheck_defaults_to_the_forward_sweep_over_every_leaf(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/api/gradcheck", json={"source": NEURON})

    checks = response.json()["checks"]
    assert [check["label"] for check in checks] == ["x1", "x2", "w1", "w2", "b"]
    assert all(len(check["rows"]) == 14 for check in checks)


async def test_gradcheck_takes_scheme_leaves_granularity_and_mistake(
    client: httpx.AsyncClient,
) -> None:
    body = {
        "source": NEURON,
        "granularity": "expanded",
        "scheme": "central",
        "h": [1e-5],
        "leaves": ["b"],
        "mistake": "no-sort",
    }
    response = await client.post("/api/gradcheck", json=body)

    assert response.status_code == 200, response.text
    (check,) = response.json()["checks"]
    assert check["label"] == "b"
    assert check["rows"][0]["numeric"] == pytest.approx(0.5, abs=1e-6)
    assert check["analytic"] != pytest.approx(0.5), "the mistaken engine's gradient disagrees"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"source": PARABOLA, "h": [0]}, 422),
        ({"source": PARABOLA, "h": [-0.1]}, 422),
        ({"source": PARABOLA, "h": []}, 422),
        ({"source": PARABOLA, "h": [0.1] * 65}, 422),
        ({"source": PARABOLA, "h": [True]}, 422),
        ({"source": PARABOLA, "h": ["0.1"]}, 422),
        ({"source": PARABOLA, "h": 0.1}, 422),
        ({"source": PARABOLA, "scheme": "backward"}, 422),
        ({"source": PARABOLA, "leaves": "x"}, 422),
        ({"source": PARABOLA, "leaves": [1]}, 422),
        ({"source": PARABOLA, "mistake": "none"}, 422),
        ({"h": [0.1]}, 422),
        ({"source": PARABOLA, "leaves": ["nope"]}, 400),
        ({"source": "x = Value(3.0)\nf = x * y\n", "h": [0.1]}, 400),
        ({"source": "x = 700.0\ny = exp(x)\n", "h": [100.0]}, 400),
    ],
    ids=[
        "h-zero",
        "h-negative",
        "h-empty",
        "h-too-many",
        "h-bool",
        "h-string",
        "h-not-a-list",
        "scheme",
        "leaves-not-a-list",
        "leaves-number",
        "mistake",
        "no-source",
        "unknown-leaf",
        "unknown-name",
        "overflow",
    ],
)
async def test_gradcheck_refuses_bad_input_in_the_error_shape(
    client: httpx.AsyncClient, body: dict[str, object], status: int
) -> None:
    response = await client.post("/api/gradcheck", json=body)

    assert_error_shape(response, status)
    await assert_still_serving(client)


async def test_gradcheck_refuses_an_infinite_h_written_as_a_huge_literal(
    client: httpx.AsyncClient,
) -> None:
    body = b'{"source": "x = Value(3.0)\\nf = x * x", "h": [1e999]}'
    response = await client.post(
        "/api/gradcheck", content=body, headers={"content-type": "application/json"}
    )

    assert_error_shape(response, 422)


async def test_gradcheck_names_the_unknown_leaf(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/gradcheck", json={"source": NEURON, "leaves": ["w3"]})

    error = assert_error_shape(response, 400)
    assert "'w3'" in str(error["message"])


async def test_gradcheck_points_at_the_line_of_a_bad_program(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/gradcheck", json={"source": "x = 1.0\ny = x +\n"})

    error = assert_error_shape(response, 400)
    assert error["line"] == 2


async def test_gradcheck_over_the_work_limit_is_refused_naming_it(
    client: httpx.AsyncClient,
) -> None:
    # 150 leaves and 299 nodes: 150 × 14 × 299 is over the default 500,000.
    names = [f"x{i}" for i in range(150)]
    source = "".join(f"{name} = 1.0\n" for name in names) + "y = " + " * ".join(names) + "\n"
    response = await client.post("/api/gradcheck", json={"source": source})

    error = assert_error_shape(response, 400)
    assert "BACKPROP_MAX_GRADCHECK_WORK" in str(error["message"])
    await assert_still_serving(client)


async def test_a_large_gradcheck_runs_in_a_worker_process(
    limited_client: httpx.AsyncClient,
) -> None:
    response = await limited_client.post("/api/gradcheck", json={"source": PARABOLA, "h": [1e-3]})

    assert response.status_code == 200, response.text
    assert response.json()["checks"][0]["rows"][0]["numeric"] == pytest.approx(14.003)


async def test_a_worker_reports_a_bad_gradcheck_in_the_error_shape(
    limited_client: httpx.AsyncClient,
) -> None:
    response = await limited_client.post(
        "/api/gradcheck", json={"source": PARABOLA, "leaves": ["nope"]}
    )

    assert_error_shape(response, 400)


async def test_examples_include_each_mistake_sort_steps_and_the_gradient_check(
    client: httpx.AsyncClient,
) -> None:
    examples = (await client.get("/api/examples")).json()

    mistakes = {example["mistake"] for example in examples if "mistake" in example}
    assert mistakes == {"assign", "append-first", "no-sort"}
    assert any(example.get("gradcheck") for example in examples)
    assert any(example.get("sort_steps") for example in examples)
    for example in examples:
        body = {
            "source": example["source"],
            "granularity": example["granularity"],
            "mistake": example.get("mistake"),
            "sort_steps": example.get("sort_steps", False),
        }
        response = await client.post("/api/trace", json=body)
        assert response.status_code == 200, (example["id"], response.text)


async def test_rules_include_the_recursive_sort_and_the_mistaken_code(
    client: httpx.AsyncClient,
) -> None:
    rules = (await client.get("/api/rules")).json()

    assert rules == rule_sources()
    assert {"build", "mistake:assign", "mistake:append-first", "mistake:no-sort"} <= set(rules)


async def test_export_carries_the_lab_options_and_embeds_the_gradient_check(
    client: httpx.AsyncClient,
) -> None:
    params = {"source": A_PLUS_A, "mistake": "assign", "sort_steps": "1", "gradcheck": "1"}
    response = await client.get("/export", params=params)

    assert response.status_code == 200, response.text
    document = response.text
    assert '"mistake":"assign"' in document
    assert '"sort_steps":true' in document
    assert '"gradcheck":{"output":"n1","checks":' in document


async def test_export_refuses_a_bad_mistake(client: httpx.AsyncClient) -> None:
    response = await client.get("/export", params={"source": A_PLUS_A, "mistake": "oops"})

    assert_error_shape(response, 422)


async def test_gradcheck_checks_a_real_programs_pass_by_running_it_again(
    client: httpx.AsyncClient,
) -> None:
    source = "a = Value(2.0, label='a')\nfor i in range(3):\n    a = a * 2\n    a.backward()\n"
    body = {"source": source, "scheme": "central", "h": [1e-6], "pass": 2}
    response = await client.post("/api/gradcheck", json=body)

    assert response.status_code == 200, response.text
    check = Gradcheck.model_validate(response.json())
    (leaf,) = check.checks
    # Pass 2's output is the leaf times 2, three times over: d/da = 8. With no zero_grad
    # the gradients of the three passes pile up (2, then 8, then 26): the check says so.
    assert leaf.label == "a" and leaf.analytic == 26.0
    assert leaf.rows[0].numeric == pytest.approx(8.0, rel=1e-8)
    bad = await client.post("/api/gradcheck", json={**body, "pass": 3})
    assert "pass must be 0 to 2" in str(assert_error_shape(bad, 400)["message"])
    assert_error_shape(await client.post("/api/gradcheck", json={**body, "pass": -1}), 422)
