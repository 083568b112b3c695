"""Every kind of bad request is a 4xx in the one error shape, and the server keeps serving.

The cases follow SPEC §4; programs are refused with 400 and a line and column where
the problem has one, requests the API cannot read with 400 or 422, unknown paths and
methods with 404 and 405.
"""

from __future__ import annotations

import httpx
import pytest
from service_helpers import NEURON, assert_error_shape, assert_still_serving

pytestmark = pytest.mark.anyio

# (case, source, where it is: (line, column) or None when the whole program is at fault)
BAD_PROGRAMS = [
    ("syntax error", "x = (1 +\n", (1, 5)),
    ("unknown name", "a = Value(1.0)\nb = a * w3\n", (2, 9)),
    ("attribute access", "a = Value(1.0)\nb = a.__class__\n", (2, 5)),
    ("import", "import shutil\n", (1, 1)),
    ("import other than Value", "from os import system\n", (1, 1)),
    ("with open (no files)", "with open('f') as f:\n    pass\n", (1, 6)),
    ("no Value at the end", "xs = [1.0 for i in range(3)]\n", None),
    ("subscript", "a = Value(1.0)\nb = a[0]\n", (2, 5)),
    ("string operand", "a = Value(1.0)\nb = a + 'text'\n", (2, 5)),
    ("non-constant exponent", "a = Value(2.0)\nb = a ** a\n", (2, 5)),
    ("log of a negative number", "a = Value(-1.0)\nb = log(a)\n", (2, 5)),
    ("exp overflow", "a = Value(1000.0)\nb = exp(a)\n", (2, 5)),
    ("huge power", "a = Value(10.0)\nb = a ** 400\n", (2, 5)),
    ("huge plain-number power", "a = Value(1.0)\nb = a * 9 ** 9 ** 9\n", (2, 9)),
    ("division by zero", "a = Value(1.0)\nb = a / 0\n", (2, 5)),
    ("call of a builtin", "open('/etc/passwd')\n", (1, 1)),
    ("dunder method", "a = Value(1.0)\nb = a.__add__(a)\n", (2, 5)),
    ("endless loop", "while True:\n    pass\n", (2, 5)),
    ("yield in an expression", "def g():\n    print((yield))\n", (2, 5)),
    ("deep parentheses", "(" * 300 + "Value(1.0)" + ")" * 300, (1, 201)),
    ("empty program", "", None),
    ("null byte", "a = Value(1.0)\x00\n", (1, 15)),
]


@pytest.mark.parametrize(
    ("source", "where"), [case[1:] for case in BAD_PROGRAMS], ids=[case[0] for case in BAD_PROGRAMS]
)
async def test_trace_refuses_a_bad_program_with_its_position(
    client: httpx.AsyncClient, source: str, where: tuple[int, int] | None
) -> None:
    response = await client.post("/api/trace", json={"source": source})

    error = assert_error_shape(response, 400)
    if where is None:
        assert (error["line"], error["column"]) == (None, None)
    else:
        assert (error["line"], error["column"]) == where
    await assert_still_serving(client)


@pytest.mark.parametrize(
    ("source", "where"),
    [case[1:] for case in BAD_PROGRAMS[:6]],
    ids=[case[0] for case in BAD_PROGRAMS[:6]],
)
async def test_get_trace_refuses_a_bad_program_the_same_way(
    client: httpx.AsyncClient, source: str, where: tuple[int, int] | None
) -> None:
    posted = await client.post("/api/trace", json={"source": source})
    got = await client.get("/api/trace", params={"source": source})

    assert_error_shape(got, 400)
    assert got.json() == posted.json()
    assert "etag" not in got.headers


async def test_trace_refuses_a_statement_too_long_to_nest(client: httpx.AsyncClient) -> None:
    source = "a = Value(1.0)\nb = " + "-" * 5_000 + "a\n"

    error = assert_error_shape(await client.post("/api/trace", json={"source": source}), 400)

    assert "BACKPROP_MAX_DEPTH" in str(error["message"])
    await assert_still_serving(client)


async def test_trace_refuses_a_source_over_the_default_length_limit(
    client: httpx.AsyncClient,
) -> None:
    source = "a = Value(1.0)\n" + "#" * 100_000

    error = assert_error_shape(await client.post("/api/trace", json={"source": source}), 400)

    assert "BACKPROP_MAX_SOURCE_CHARS" in str(error["message"])
    assert "100,000" in str(error["message"])


@pytest.mark.parametrize(
    ("source", "variable"),
    [
        ("a = Value(1.0)\n" + "# padding\n" * 40, "BACKPROP_MAX_SOURCE_CHARS"),
        ("a = Value(1.0)\n" + "a = a * 2\n" * 25, "BACKPROP_MAX_NODES"),
        ("a = Value(1.0)\nb = " + "tanh(" * 20 + "a" + ")" * 20 + "\n", "BACKPROP_MAX_DEPTH"),
    ],
    ids=["too long", "too many nodes", "too deep"],
)
async def test_trace_names_the_limit_a_program_breaks(
    limited_client: httpx.AsyncClient, source: str, variable: str
) -> None:
    response = await limited_client.post("/api/trace", json={"source": source})

    error = assert_error_shape(response, 400)
    assert variable in str(error["message"])
    await assert_still_serving_small(limited_client)


async def assert_still_serving_small(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/trace", json={"source": "a = Value(3.0)\na + a"})
    assert response.status_code == 200, response.text


async def test_trace_refuses_a_body_that_is_not_json(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/api/trace", content=b'{"source": ', headers={"Content-Type": "application/json"}
    )

    error = assert_error_shape(response, 400)
    assert "not valid JSON" in str(error["message"])
    await assert_still_serving(client)


async def test_trace_refuses_a_body_without_a_json_content_type(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/api/trace", content=b'{"source": "a = Value(1.0)"}')

    assert_error_shape(response, 422)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"source": NEURON, "granularity": "fine"}, "'granularity' in the body"),
        ({"granularity": "packed"}, "'source' in the body"),
        ({"source": 42}, "'source' in the body"),
        ([NEURON], "The request body"),
        ("just text", "The request body"),
    ],
    ids=["wrong granularity", "missing source", "source not a string", "a list", "a string"],
)
async def test_trace_names_the_field_it_cannot_accept(
    client: httpx.AsyncClient, payload: object, field: str
) -> None:
    response = await client.post("/api/trace", json=payload)

    error = assert_error_shape(response, 422)
    assert str(error["message"]).startswith(field)
    await assert_still_serving(client)


async def test_trace_refuses_a_lone_surrogate_in_the_json(client: httpx.AsyncClient) -> None:
    body = b'{"source": "a = Value(1.0)  # \\ud800\\na"}'

    response = await client.post(
        "/api/trace", content=body, headers={"Content-Type": "application/json"}
    )

    assert 400 <= response.status_code < 500
    assert_error_shape(response, response.status_code)
    await assert_still_serving(client)


async def test_get_trace_requires_a_source(client: httpx.AsyncClient) -> None:
    error = assert_error_shape(await client.get("/api/trace"), 422)

    assert str(error["message"]).startswith("'source' in the query")


async def test_get_trace_refuses_an_unknown_granularity(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/trace", params={"source": NEURON, "granularity": "x"})

    assert_error_shape(response, 422)


async def test_unknown_path_is_a_404_in_the_error_shape(client: httpx.AsyncClient) -> None:
    error = assert_error_shape(await client.get("/api/nothing-here"), 404)

    assert "/api/nothing-here" in str(error["message"])


async def test_wrong_method_is_a_405_that_keeps_the_allow_header(
    client: httpx.AsyncClient,
) -> None:
    response = await client.delete("/api/trace")

    error = assert_error_shape(response, 405)
    assert "DELETE" in str(error["message"])
    # Starlette names the methods of the first route on the path only.
    assert "POST" in response.headers["allow"]


async def test_unknown_static_file_is_a_404_in_the_error_shape(
    client: httpx.AsyncClient,
) -> None:
    assert_error_shape(await client.get("/static/no-such-file.js"), 404)


async def test_a_body_sent_without_a_json_content_type_is_told_to_send_json(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/api/trace",
        content=b'{"source": "x = 1.0"}',
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )

    error = assert_error_shape(response, 422)
    assert "Content-Type: application/json" in str(error["message"])


async def test_a_page_may_ask_for_a_refused_program_as_an_answer_not_a_failed_request(
    client: httpx.AsyncClient,
) -> None:
    source = "a = Value(1.0)\nb = a * w3\n"
    refused = await client.post("/api/trace", json={"source": source})
    answered = await client.post("/api/trace?refusal_status=200", json={"source": source})

    assert refused.status_code == 400
    assert answered.status_code == 200
    assert answered.json() == refused.json()


@pytest.mark.parametrize("value", ["201", "500", "", "200 ", "yes"])
async def test_only_refusal_status_200_changes_the_status_of_a_refusal(
    client: httpx.AsyncClient, value: str
) -> None:
    response = await client.post(f"/api/trace?refusal_status={value}", json={"source": "1 +"})
    assert_error_shape(response, 400)


async def test_refusal_status_leaves_requests_the_api_cannot_read_as_they_were(
    client: httpx.AsyncClient,
) -> None:
    unreadable = await client.post("/api/trace?refusal_status=200", json={"granularity": "x"})
    assert_error_shape(unreadable, 422)
