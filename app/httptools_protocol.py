"""Uvicorn's httptools protocol with `app.http_timeouts`' timers and a head size limit.

httptools (llhttp, in C) parses a small request in a fraction of the time h11 takes
in Python: about 0.1 ms less a request on a 2-core machine (issue 24). It tells the protocol
where a request starts and where its head ends through callbacks
(`on_message_begin`, `on_headers_complete`), so the head timer runs between those;
and since llhttp has no limit of its own on a head's size, what arrives while a head
is awaited is counted and a head past `MAX_REQUEST_HEAD_BYTES` is answered 431.

Importing this module raises ImportError when httptools is not installed
(`app.http_timeouts.server_protocol` then falls back to h11).
"""

from __future__ import annotations

import asyncio
import http

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from backprop_animator.app.http_timeouts import (
    MAX_REQUEST_HEAD_BYTES,
    SlowClientTimeouts,
    error_body,
    not_http_message,
    raw_response,
)


class HeadTimeoutHttpToolsProtocol(SlowClientTimeouts, HttpToolsProtocol):
    max_head_bytes = MAX_REQUEST_HEAD_BYTES
    # Bytes received while the current head was awaited (the timer was running).
    _head_bytes = 0

    def data_received(self, data: bytes) -> None:
        waiting_for_a_request = self.cycle is None or self.cycle.response_complete
        if waiting_for_a_request and self._head_timer is None:
            self._start_head_timer()
        if self._head_timer is not None:
            self._head_bytes += len(data)
        super().data_received(data)
        # Still awaiting the head's end (the parser has seen no `on_headers_complete`).
        if self._head_timer is not None and self._head_bytes > self.max_head_bytes:
            self._refuse_head()

    def on_message_begin(self) -> None:
        # A request pipelined behind one still running starts its own clock here.
        if self._head_timer is None:
            self._start_head_timer()
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        self._head_bytes = 0
        cycle = self.cycle
        super().on_headers_complete()
        if self.cycle is not cycle:  # a request to answer (not an upgrade)
            self.cycle.transport = HeadWithBody(self.transport, self.loop)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Idle now: uvicorn's keep-alive timeout takes over; a head already begun behind
        # this response restarts the clock with its next bytes (`data_received`).
        self._stop_head_timer()

    def send_400_response(self, msg: str) -> None:
        body = error_body(not_http_message(msg))
        self.transport.write(raw_response(400, body, self.server_state.default_headers))
        self.transport.close()

    def _refuse_head(self) -> None:
        self._stop_head_timer()
        status = http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
        message = (
            f"The request line and headers are longer than {self.max_head_bytes:,} bytes; "
            "send long programs in the body of POST /api/trace."
        )
        self.logger.warning("A request head over %d bytes was refused.", self.max_head_bytes)
        if not self.transport.is_closing():
            self.transport.write(
                raw_response(status, error_body(message), self.server_state.default_headers)
            )
            self.transport.close()


class HeadWithBody(asyncio.Transport):
    """The transport as one response's cycle sees it: its first write (the head) waits
    for the next (the body, or its first piece), so that both leave in one send.

    Uvicorn writes a response's head and body separately; each write is a system call
    and a packet that wakes the client, about 0.1 ms on a small answer on a 2-core VM
    (issue 24: `/healthz` 0.25 -> 0.16 ms with one write). Only the head is held, never the body,
    so a large answer still goes out piece by piece under the transport's flow control.
    A head with no body (HEAD, 304) leaves at the end of the loop's turn, or when the
    cycle closes the connection.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._held: bytes | None = None
        self._first = True

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._first:
            self._first = False
            self._held = bytes(data)
            self._loop.call_soon(self.flush)
            return
        if self._held is not None:
            data, self._held = self._held + data, None
        self._transport.write(data)

    def flush(self) -> None:
        held, self._held = self._held, None
        if held is not None and not self._transport.is_closing():
            self._transport.write(held)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._held = None
        self._transport.abort()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + len(self._held or b"")
