"""Oversized requests are refused before any route reads them: 413 and 414."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from service_helpers import assert_error_shape, assert_still_serving

from backprop_animator.app.settings import Settings

pytestmark = pytest.mark.anyio


async def test_body_over_the_limit_is_a_413(client: httpx.AsyncClient) -> None:
    too_big = Settings().max_body_bytes + 1

    response = await client.post("/api/trace", json={"source": "#" * too_big})

    error = assert_error_shape(response, 413)
    assert f"{Settings().max_body_bytes:,} bytes" in str(error["message"])
    await assert_still_serving(client)


async def test_streamed_body_over_the_limit_is_a_413(client: httpx.AsyncClient) -> None:
    # No Content-Length: the body arrives in chunks and is counted as it comes.
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"source": "'
        for _ in range(Settings().max_body_bytes // 65_536 + 1):
            yield b"#" * 65_536
        yield b'"}'

    response = await client.post(
        "/api/trace", content=chunks(), headers={"Content-Type": "application/json"}
    )

    assert "content-length" not in response.request.headers
    assert_error_shape(response, 413)
    await assert_still_serving(client)


async def test_body_within_the_limit_reaches_the_route(client: httpx.AsyncClient) -> None:
    # Six bytes a character is the worst JSON can do; the limit leaves room for it.
    source = "a = Value(1.0)\na\n#" + "\u00e9" * 1_000
    body = '{"source": "' + source.replace("\n", "\\n").replace("\u00e9", "\\u00e9") + '"}'

    response = await client.post(
        "/api/trace", content=body.encode(), headers={"Content-Type": "application/json"}
    )

    assert response.status_code == 200, response.text


async def test_invalid_content_length_is_a_400(client: httpx.AsyncClient) -> None:
    request = client.build_request("POST", "/api/trace", json={"source": "a = Value(1.0)"})
    request.headers["Content-Length"] = "lots"

    assert_error_shape(await client.send(request), 400)


async def test_query_string_over_the_limit_is_a_414(client: httpx.AsyncClient) -> None:
    source = "a = Value(1.0)\n" + "#" * Settings().max_query_bytes

    response = await client.get("/api/trace", params={"source": source})

    error = assert_error_shape(response, 414)
    assert "POST" in str(error["message"])
    await assert_still_serving(client)


async def test_long_query_string_on_a_page_is_a_414_too(client: httpx.AsyncClient) -> None:
    response = await client.get("/", params={"source": "#" * Settings().max_query_bytes})

    assert_error_shape(response, 414)
