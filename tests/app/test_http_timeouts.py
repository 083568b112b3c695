"""Slow clients are cut off: a request head that trickles in is closed, a body that
does not arrive is answered 408."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import uvicorn
from starlette.types import Message, Receive, Scope, Send

from backprop_animator.app.http_timeouts import HeadTimeoutH11Protocol
from backprop_animator.app.request_limits import RequestLimitsMiddleware

pytestmark = pytest.mark.anyio


async def hello(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


class QuickHeadTimeout(HeadTimeoutH11Protocol):
    head_timeout = 0.2


@pytest.fixture
async def server_port() -> AsyncIterator[int]:
    config = uvicorn.Config(
        hello, port=0, http=QuickHeadTimeout, lifespan="off", log_level="warning"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task


async def test_a_request_head_that_trickles_in_is_closed(server_port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    await writer.drain()

    # The server closes the connection; without the timeout this read would wait on.
    assert await asyncio.wait_for(reader.read(), timeout=10) == b""
    writer.close()
    await writer.wait_closed()


async def test_a_slow_head_after_a_kept_alive_response_is_closed_too(server_port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    await writer.drain()
    first = await asyncio.wait_for(reader.readuntil(b"0\r\n\r\n"), timeout=10)
    assert first.startswith(b"HTTP/1.1 200")

    writer.write(b"GET / HTTP/1.1\r\nHo")
    await writer.drain()

    assert await asyncio.wait_for(reader.read(), timeout=10) == b""
    writer.close()
    await writer.wait_closed()


async def test_a_body_that_does_not_arrive_in_time_is_a_408() -> None:
    app = RequestLimitsMiddleware(
        hello, max_body_bytes=1_000, max_query_bytes=100, body_timeout=0.1
    )
    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/trace",
        "query_string": b"",
        "headers": [(b"content-type", b"application/json")],
    }
    arrived = False

    async def receive() -> Message:
        nonlocal arrived
        if not arrived:
            arrived = True
            return {"type": "http.request", "body": b'{"source": ', "more_body": True}
        await asyncio.Event().wait()  # the rest never comes
        raise AssertionError("unreachable")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await asyncio.wait_for(app(scope, receive, send), timeout=10)

    assert sent[0]["status"] == 408
    assert b"did not arrive within 0.1 seconds" in sent[1]["body"]
