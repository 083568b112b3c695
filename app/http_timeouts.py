"""Read timeouts uvicorn does not have: a request's head must arrive in time.

Uvicorn closes idle keep-alive connections, but once a client has sent one byte of
a request it waits for the rest for ever: a client trickling a header a byte at a
time ("slowloris") holds its connection open indefinitely, and enough of them hold
every connection the server has. `HeadTimeoutH11Protocol` is uvicorn's own HTTP/1.1
protocol with one timer more: from the first byte of a request (or the moment the
connection opens) to the end of its headers, at most `HEAD_TIMEOUT` seconds, after
which the connection is closed. A body's timeout is the app's
(`app.request_limits`), which can still answer with an error.

Used by `backprop-animator serve` (`uvicorn.run(..., http=HeadTimeoutH11Protocol)`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

# Seconds from a connection's first byte (or the end of the previous response) to
# the end of a request's headers; browsers send a whole head in one packet.
HEAD_TIMEOUT = 10.0


class HeadTimeoutH11Protocol(H11Protocol):
    head_timeout = HEAD_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()

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

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

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
