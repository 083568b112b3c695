"""What an adversarial probe found (issue 8), at the API: text that is not valid
UTF-8, bodies FastAPI cannot decode, clients that refuse gzip."""

from __future__ import annotations

import json
import sys

import httpx
import pytest
from service_helpers import NEURON, assert_error_shape, assert_still_serving

from backprop_animator.app.request_limits import nests_deeper_than
from backprop_animator.app.schemas import Trace

pytestmark = pytest.mark.anyio

SURROGATE_LABEL = "x = Value(1.0, label='\\ud800')\ny = x * 2\ny.backward()"


async def test_a_label_with_a_lone_surrogate_is_traced_in_a_thread_with_it_replaced(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/api/trace", json={"source": SURROGATE_LABEL})

    assert response.status_code == 200, response.text
    assert response.json()["nodes"][0]["label"] == "\ufffd"


async def test_a_label_with_a_lone_surrogate_is_traced_in_a_worker_with_it_replaced(
    limited_client: httpx.AsyncClient,
) -> None:
    response = await limited_client.post("/api/trace", json={"source": SURROGATE_LABEL})

    assert response.status_code == 200, response.text
    assert response.json()["nodes"][0]["label"] == "\ufffd"


async def test_a_label_with_a_lone_surrogate_exports(client: httpx.AsyncClient) -> None:
    response = await client.get("/export", params={"source": SURROGATE_LABEL})

    assert response.status_code == 200, response.text
    assert "\ufffd" in response.text


async def test_an_error_quoting_a_lone_surrogate_label_keeps_the_error_shape(
    client: httpx.AsyncClient,
) -> None:
    source = "x = Value(1e-200, label='\\udcff')\nx ** -1.5"
    response = await client.post("/api/trace", json={"source": source})

    error = assert_error_shape(response, 400)
    assert "\ufffd**-1.5" in str(error["message"])
    await assert_still_serving(client)


async def test_a_source_holding_a_lone_surrogate_is_refused_with_the_error_shape(
    client: httpx.AsyncClient,
) -> None:
    body = json.dumps({"source": "x = Value(1.0)  # \ud800\nx * 2"})  # ASCII, with \ud800

    response = await client.post(
        "/api/trace", content=body, headers={"Content-Type": "application/json"}
    )

    assert_error_shape(response, 400)
    await assert_still_serving(client)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"source": "x", "n": ' + b"9" * 5_000 + b"}", "more than 4,300 digits"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"source": "x = Value(1.0)\\n\xff"}', "not UTF-8: byte 29 is 0xff"),
    ],
    ids=["5000-digit-number", "deeply-nested", "invalid-utf8"],
)
async def test_a_body_fastapi_cannot_decode_is_explained_in_the_error_shape(
    client: httpx.AsyncClient, body: bytes, words: str
) -> None:
    response = await client.post(
        "/api/trace", content=body, headers={"Content-Type": "application/json"}
    )

    error = assert_error_shape(response, 400)
    assert words in str(error["message"])
    await assert_still_serving(client)


async def test_a_deeply_nested_body_is_refused_unread_while_a_trace_has_raised_the_limit(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A trace running meanwhile (a thread, the event loop) raises Python's recursion limit
    # for its own depth (engine.run): the JSON decoder, which recurses in C, then overflowed
    # the C stack on this body and killed the process (seen once in the suite), so nothing
    # parses it now: neither FastAPI nor the error handler that explains a body.
    def parsed(*args: object, **kwargs: object) -> None:
        raise AssertionError("a body nested this deep was handed to the JSON decoder")

    monkeypatch.setattr(json, "loads", parsed)
    body = b'{"source": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # as `_recursion_room` does for a deep program's trace
    try:
        response = await client.post(
            "/api/trace", content=body, headers={"Content-Type": "application/json"}
        )
    finally:
        sys.setrecursionlimit(saved)

    monkeypatch.undo()
    error = assert_error_shape(response, 400)
    assert "nested too deeply" in str(error["message"])
    await assert_still_serving(client)


def test_nesting_is_counted_outside_strings_only() -> None:
    assert not nests_deeper_than(b'{"source": "' + b"[" * 1_000 + b'"}', 64)
    assert not nests_deeper_than(b'{"s": "\\"' + b"[" * 100 + b'"}', 2)  # an escaped quote
    assert nests_deeper_than(b"[" * 65, 64)
    assert not nests_deeper_than(b"[" * 64 + b"]" * 64 + b"[" * 64, 64)
    assert nests_deeper_than(b'[{"a": [' * 22, 64)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_nesting_is_counted_in_the_encoding_the_json_decoder_reads(encoding: str) -> None:
    # The decoder reads UTF-16 and UTF-32 too: U+5C41 is `41 5C` in UTF-16-LE, a byte
    # scan's escape of the closing quote after it (then every bracket after was "in a
    # string"), and U+225B holds a quote byte and a bracket byte.
    for text in ('["\u5c41",' + "[" * 1_000, '["\u225b\u5c22",' + "[" * 1_000):
        body = text.encode(encoding)
        assert body.decode(json.detect_encoding(body)) == text  # what the decoder reads
        assert nests_deeper_than(body, 64)
    assert not nests_deeper_than('{"s": "\u5c41[[["}'.encode(encoding), 2)


@pytest.mark.parametrize(
    "accept_encoding", ["gzip;q=0", "gzip; q=0.0, identity", "br, *;q=0", "identity"]
)
async def test_a_client_that_refuses_gzip_gets_none(
    client: httpx.AsyncClient, accept_encoding: str
) -> None:
    big = "x = 0.5\ny = x\n" + "y = y + 2*x\n" * 1_000
    for request in (
        client.build_request("POST", "/api/trace", json={"source": big}),
        client.build_request("POST", "/api/trace", json={"source": NEURON}),
        client.build_request("GET", "/"),
    ):
        request.headers["Accept-Encoding"] = accept_encoding
        response = await client.send(request)

        assert response.status_code == 200
        assert "content-encoding" not in response.headers


@pytest.mark.parametrize("accept_encoding", ["gzip", "deflate, gzip;q=0.5"])
async def test_a_client_that_accepts_gzip_gets_it(
    client: httpx.AsyncClient, accept_encoding: str
) -> None:
    request = client.build_request("POST", "/api/trace", json={"source": NEURON})
    request.headers["Accept-Encoding"] = accept_encoding

    response = await client.send(request)

    assert response.headers["content-encoding"] == "gzip"
    assert len(response.json()["frames"]) == 16


async def test_a_trace_with_an_underflow_matches_the_published_schema(
    client: httpx.AsyncClient,
) -> None:
    source = "x = Value(200.0)\no = tanh(x)\no.backward()"
    response = await client.post("/api/trace", json={"source": source, "granularity": "expanded"})

    trace = Trace.model_validate_json(response.content)
    assert [node.op for node in trace.nodes if node.underflow] == ["**-1"]
