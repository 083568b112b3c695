"""Large answers leave in pieces, so a slow reader's socket buffers one piece, not all.

An app sends a response body as one message; uvicorn writes it to the transport at
once, and what the client has not read yet is copied into the transport's buffer. Split
into `CHUNK_BYTES` pieces, each `send` waits for the buffer to drain below its high
water mark before the next piece is written, so a client that stops reading holds at
most one piece in the buffer (and is dropped after `app.http_timeouts.WRITE_TIMEOUT`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CHUNK_BYTES = 64 * 1024


class ChunkedBodyMiddleware:
    def __init__(self, app: ASGIApp, chunk_bytes: int = CHUNK_BYTES) -> None:
        self.app = app
        self.chunk_bytes = chunk_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = self.chunk_bytes

        async def send_in_pieces(message: Message) -> None:
            body = message.get("body", b"")
            if message["type"] != "http.response.body" or len(body) <= size:
                await send(message)
                return
            view = memoryview(body)
            more = message.get("more_body", False)
            for start in range(0, len(body), size):
                last = start + size >= len(body)
                piece = bytes(view[start : start + size])
                await send(
                    {"type": "http.response.body", "body": piece, "more_body": more or not last}
                )

        await self.app(scope, receive, send_in_pieces)
