"""Slow clients are cut off: a request head that trickles in is closed, a body that
does not arrive is answered 408, and an answer that is not read is dropped after the
write timeout with at most one piece of it buffered. A request that is not HTTP gets
the API's JSON error shape."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator

import pytest
import uvicorn
from starlette.types import Message, Receive, Scope, Send

from backprop_animator.app.chunked import CHUNK_BYTES, ChunkedBodyMiddleware
from backprop_animator.app.http_timeouts import HeadTimeoutH11Protocol
from backprop_animator.app.request_limits import RequestLimitsMiddleware

pytestmark = pytest.mark.anyio


BIG = 32 * 1024 * 1024  # far more than the kernel's socket buffers hold


async def hello(scope: Scope, receive: Receive, send: Send) -> None:
    body = b"x" * BIG if scope["path"] == "/big" else b"hello"
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


class QuickHeadTimeout(HeadTimeoutH11Protocol):
    head_timeout = 0.2
    write_timeout = 0.3
    # The most the transport ever buffered for a client, and the connections dropped.
    most_buffered = 0
    dropped = 0

    def pause_writing(self) -> None:
        QuickHeadTimeout.most_buffered = max(
            QuickHeadTimeout.most_buffered, self.transport.get_write_buffer_size()
        )
        super().pause_writing()

    def _read_too_slow(self) -> None:
        QuickHeadTimeout.dropped += 1
        super()._read_too_slow()


@pytest.fixture
async def server_port() -> AsyncIterator[int]:
    config = uvicorn.Config(
        ChunkedBodyMiddleware(hello),
        port=0,
        http=QuickHeadTimeout,
        lifespan="off",
        log_level="warning",
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


async def test_an_answer_nobody_reads_is_dropped_with_one_piece_buffered(server_port: int) -> None:
    QuickHeadTimeout.most_buffered = QuickHeadTimeout.dropped = 0
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and never read
    client.setblocking(False)
    await asyncio.get_running_loop().sock_connect(client, ("127.0.0.1", server_port))
    client.send(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    for _ in range(100):
        if QuickHeadTimeout.dropped:
            break
        await asyncio.sleep(0.05)
    client.close()

    assert QuickHeadTimeout.dropped == 1
    # What uvicorn held for this client: about one piece, never the 32 MB answer.
    assert 0 < QuickHeadTimeout.most_buffered <= 2 * CHUNK_BYTES


async def test_an_answer_read_slowly_but_steadily_arrives_whole(server_port: int) -> None:
    QuickHeadTimeout.dropped = 0
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    writer.write(b"GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    await writer.drain()
    received = 0
    while chunk := await asyncio.wait_for(reader.read(1 << 20), timeout=10):
        received += len(chunk)
    writer.close()
    assert received > BIG
    assert QuickHeadTimeout.dropped == 0


async def test_a_request_that_is_not_http_gets_the_json_error_shape(server_port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    writer.write(b"NOT HTTP AT ALL\r\n\r\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")
    assert b"content-type: application/json" in head.lower()
    error = json.loads(body)["error"]
    assert "not valid HTTP" in error["message"]
    assert (error["line"], error["column"]) == (None, None)
