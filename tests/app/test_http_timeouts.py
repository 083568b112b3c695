"""Slow clients are cut off: a request head that trickles in is closed, a body that
does not arrive is answered 408, and an answer that is not read is dropped after the
write timeout with at most one piece of it buffered. A request that is not HTTP gets
the API's JSON error shape. Each holds with both HTTP parsers `serve` may run:
httptools (its default) and h11 (without httptools)."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from starlette.types import Message, Receive, Scope, Send

from backprop_animator.app.chunked import CHUNK_BYTES, ChunkedBodyMiddleware
from backprop_animator.app.http_timeouts import (
    HeadTimeoutH11Protocol,
    SlowClientTimeouts,
    server_protocol,
)
from backprop_animator.app.httptools_protocol import HeadTimeoutHttpToolsProtocol, HeadWithBody
from backprop_animator.app.request_limits import RequestLimitsMiddleware

pytestmark = pytest.mark.anyio


BIG = 32 * 1024 * 1024  # far more than the kernel's socket buffers hold


async def hello(scope: Scope, receive: Receive, send: Send) -> None:
    body = b"x" * BIG if scope["path"] == "/big" else b"hello"
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def quick(protocol: type[SlowClientTimeouts]) -> type[Any]:
    """`protocol` with short timeouts, counting what it buffered and dropped."""

    class Quick(protocol):  # type: ignore[misc, valid-type]
        head_timeout = 0.2
        write_timeout = 0.3
        max_head_bytes = 64 * 1024  # httptools' own limit (h11's is uvicorn's setting)
        # The most the transport ever buffered for a client, and the connections dropped.
        most_buffered = 0
        dropped = 0

        def pause_writing(self) -> None:
            Quick.most_buffered = max(Quick.most_buffered, self.transport.get_write_buffer_size())
            super().pause_writing()

        def _read_too_slow(self) -> None:
            Quick.dropped += 1
            super()._read_too_slow()

    return Quick


QuickHeadTimeout = quick(HeadTimeoutH11Protocol)
QuickHttpTools = quick(HeadTimeoutHttpToolsProtocol)
PROTOCOLS = {"h11": QuickHeadTimeout, "httptools": QuickHttpTools}


@pytest.fixture(params=sorted(PROTOCOLS))
def protocol(request: pytest.FixtureRequest) -> type[Any]:
    return PROTOCOLS[request.param]


@pytest.fixture
async def server_port(protocol: type[Any]) -> AsyncIterator[int]:
    config = uvicorn.Config(
        ChunkedBodyMiddleware(hello),
        port=0,
        http=protocol,
        lifespan="off",
        log_level="warning",
        h11_max_incomplete_event_size=64 * 1024,
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


async def test_an_answer_nobody_reads_is_dropped_with_one_piece_buffered(
    server_port: int, protocol: type[Any]
) -> None:
    protocol.most_buffered = protocol.dropped = 0
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and never read
    client.setblocking(False)
    await asyncio.get_running_loop().sock_connect(client, ("127.0.0.1", server_port))
    client.send(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    for _ in range(100):
        if protocol.dropped:
            break
        await asyncio.sleep(0.05)
    client.close()

    assert protocol.dropped == 1
    # What uvicorn held for this client: about one piece, never the 32 MB answer.
    assert 0 < protocol.most_buffered <= 2 * CHUNK_BYTES


async def test_an_answer_read_slowly_but_steadily_arrives_whole(
    server_port: int, protocol: type[Any]
) -> None:
    protocol.dropped = 0
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    writer.write(b"GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    await writer.drain()
    received = 0
    while chunk := await asyncio.wait_for(reader.read(1 << 20), timeout=10):
        received += len(chunk)
    writer.close()
    assert received > BIG
    assert protocol.dropped == 0


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


async def read_answer(reader: asyncio.StreamReader) -> tuple[bytes, dict[str, object]]:
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, json.loads(body)["error"]


async def test_a_request_head_past_the_size_limit_is_refused_in_the_error_shape(
    server_port: int, protocol: type[Any]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    # Just past the limit (64 KiB here), quickly: only the size is wrong. Nothing more is
    # sent, so the server has read it all when it closes (else the kernel resets).
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"p" * 66_000)
    await writer.drain()

    head, error = await read_answer(reader)
    writer.close()

    expected = b"HTTP/1.1 431" if protocol is QuickHttpTools else b"HTTP/1.1 400"
    assert head.startswith(expected)
    assert b"content-type: application/json" in head.lower()
    assert (error["line"], error["column"]) == (None, None)
    if protocol is QuickHttpTools:
        assert "longer than 65,536 bytes" in str(error["message"])


async def test_requests_on_a_kept_alive_connection_each_get_their_whole_answer(
    server_port: int,
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    for method in (b"GET", b"HEAD", b"GET"):
        writer.write(method + b" / HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=10)
        assert head.startswith(b"HTTP/1.1 200")
        if method == b"GET":  # chunked: "5\r\nhello\r\n0\r\n\r\n"
            body = await asyncio.wait_for(reader.readuntil(b"0\r\n\r\n"), timeout=10)
            assert b"hello" in body
    writer.close()
    await writer.wait_closed()


async def test_pipelined_requests_are_answered_in_order(server_port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server_port)
    writer.write(
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 2
        + b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    writer.close()
    assert answer.count(b"HTTP/1.1 200") == 3
    assert answer.count(b"hello") == 3


class RecordingTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


async def test_a_response_head_leaves_with_its_body_in_one_write() -> None:
    transport = RecordingTransport()
    cycle_transport = HeadWithBody(transport, asyncio.get_running_loop())

    cycle_transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
    assert transport.writes == []
    cycle_transport.write(b"hello")
    cycle_transport.write(b" again")

    assert transport.writes == [b"HTTP/1.1 200 OK\r\n\r\nhello", b" again"]
    await asyncio.sleep(0)  # the turn's end sends nothing more
    assert len(transport.writes) == 2


async def test_a_head_without_a_body_leaves_at_the_end_of_the_turn_or_on_close() -> None:
    transport = RecordingTransport()
    HeadWithBody(transport, asyncio.get_running_loop()).write(b"HTTP/1.1 304 Not Modified\r\n\r\n")
    await asyncio.sleep(0)
    assert transport.writes == [b"HTTP/1.1 304 Not Modified\r\n\r\n"]

    closing = RecordingTransport()
    cycle_transport = HeadWithBody(closing, asyncio.get_running_loop())
    cycle_transport.write(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n")
    cycle_transport.close()
    assert closing.writes == [b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n"]
    assert closing.closed


def test_serve_runs_httptools_and_falls_back_to_h11_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert server_protocol() is HeadTimeoutHttpToolsProtocol

    # As if httptools were not installed: importing its protocol fails.
    monkeypatch.setitem(sys.modules, "backprop_animator.app.httptools_protocol", None)
    assert server_protocol() is HeadTimeoutH11Protocol
