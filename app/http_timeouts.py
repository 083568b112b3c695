"""Timeouts uvicorn does not have: a request's head must arrive in time, and an answer
must be read in time; and the HTTP parser `backprop-animator serve` runs them on.

Uvicorn closes idle keep-alive connections, but once a client has sent one byte of
a request it waits for the rest for ever: a client trickling a header a byte at a
time ("slowloris") holds its connection open indefinitely, and enough of them hold
every connection the server has. `HeadTimeoutHttpToolsProtocol` and
`HeadTimeoutH11Protocol` are uvicorn's own HTTP/1.1 protocols (httptools' C parser,
and h11's pure-Python one) with one timer more: from the first byte of a request (or
the moment the connection opens) to the end of its headers, at most `HEAD_TIMEOUT`
seconds, after which the connection is closed. A body's timeout is the app's
(`app.request_limits`), which can still answer with an error.

A head may also not grow past `MAX_REQUEST_HEAD_BYTES`: h11 has that limit built in
(uvicorn's `h11_max_incomplete_event_size`), httptools has none, so its protocol
counts what arrives before a head's end and answers 431 past it.

The other way round, a client that asks for a large answer and never reads it would
hold that answer in memory for ever, since uvicorn waits for the socket to drain
without a limit. The answer goes out in pieces (`app.chunked.ChunkedBodyMiddleware`),
so only one piece at a time sits in the connection's buffer; once that buffer is full
(the transport has paused writing), the client must read enough to resume it within
`WRITE_TIMEOUT` seconds, or the connection is dropped with what it still held.

A request uvicorn cannot parse is answered in the API's error shape (JSON), as every
other error is, rather than uvicorn's plain text.

`server_protocol()` is what `backprop-animator serve` passes to `uvicorn.run(http=...)`:
the httptools protocol, which costs a small request a fraction of h11's parsing
time (issue 24), or the h11 one where httptools is not installed.
"""

from __future__ import annotations

import asyncio
import http
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# Seconds from a connection's first byte (or the end of the previous response) to
# the end of a request's headers; browsers send a whole head in one packet.
HEAD_TIMEOUT = 10.0
# Seconds a full send buffer may wait for the client to read some of it.
WRITE_TIMEOUT = 15.0
# The most a request line and headers may weigh. Well past what the app takes (a query
# string over 16 KiB is the app's 414, in its own error shape); h11's default (16 KiB)
# would cut such a request off before the app could say why.
MAX_REQUEST_HEAD_BYTES = 1024 * 1024


def error_body(message: str) -> bytes:
    """The API's error shape as bytes: `{"error": {"message", "line", "column"}}`."""
    error = {"message": message, "line": None, "column": None}
    return json.dumps({"error": error}).encode("utf-8")


def not_http_message(msg: str) -> str:
    return f"{msg.rstrip('.')}: the request is not valid HTTP/1.1."


class SlowClientTimeouts(asyncio.Protocol):
    """The timers both protocols share; mixed in before uvicorn's protocol class.

    The head timer starts with the connection; the subclass starts it again when a
    request head is awaited and stops it once the head has arrived; the write timer
    runs while the transport is paused.
    """

    head_timeout = HEAD_TIMEOUT
    write_timeout = WRITE_TIMEOUT
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _head_timer: asyncio.TimerHandle | None = None
    _write_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._stop_write_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:
            self._write_timer = self.loop.call_later(self.write_timeout, self._read_too_slow)

    def resume_writing(self) -> None:
        self._stop_write_timer()
        super().resume_writing()

    def _stop_write_timer(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None

    def _read_too_slow(self) -> None:
        # abort(), not close(): close() would wait to send the buffer it is dropping.
        self._write_timer = None
        self.transport.abort()

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


class HeadTimeoutH11Protocol(SlowClientTimeouts, H11Protocol):
    def data_received(self, data: bytes) -> None:
        waiting_for_a_request = self.cycle is None or self.cycle.response_complete
        if waiting_for_a_request and self._head_timer is None:
            self._start_head_timer()
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # a whole request head arrived
            self._stop_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._stop_head_timer()  # idle now: uvicorn's keep-alive timeout takes over

    def send_400_response(self, msg: str) -> None:
        body = error_body(not_http_message(msg))
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self.transport.close()


def server_protocol() -> type[asyncio.Protocol]:
    """The protocol `serve` runs: httptools' with the timeouts, or h11's without httptools."""
    try:
        from backprop_animator.app.httptools_protocol import HeadTimeoutHttpToolsProtocol
    except ImportError:  # httptools is not installed (uvicorn's "standard" extra)
        return HeadTimeoutH11Protocol
    return HeadTimeoutHttpToolsProtocol


def raw_response(
    status: int, body: bytes, default_headers: list[tuple[bytes, bytes]] | None = None
) -> bytes:
    """A whole HTTP/1.1 response that closes the connection, as bytes: for answers given
    before (or instead of) a request reaches the app."""
    phrase = http.HTTPStatus(status).phrase.encode("ascii")
    lines = [b"HTTP/1.1 %d %s" % (status, phrase)]
    lines += [name + b": " + value for name, value in default_headers or []]
    lines += [
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"connection: close",
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
