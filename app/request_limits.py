"""Refuse oversized requests before they reach a route: long query strings (414) and
large bodies (413), with or without a `Content-Length`; and slow ones (408), whose
body does not arrive within `body_timeout` seconds.

The limits follow the engine's source limit, so any program the engine would accept
fits; anything bigger is refused here without being read to the end.
"""

from __future__ import annotations

import asyncio
import json
import re

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backprop_animator.app.errors import error_response

# Seconds a request's body may take to arrive, from the end of its headers.
BODY_TIMEOUT = 10.0
# The deepest a JSON body may nest (the API's own bodies nest two or three levels). A
# deeper one is refused before anything parses it: the JSON decoder recurses in C, and
# while a trace runs, Python's recursion limit is the trace's, raised far above the
# default (`engine.run`), so a body nested 100,000 deep would overflow the C stack.
MAX_JSON_DEPTH = 64
NESTED_TOO_DEEPLY = "The request body is JSON nested too deeply to read; send a flat JSON object."
# A JSON string (skipped whole, escapes and all, closed or not) or a bracket.
_JSON_TOKENS = re.compile(rb'"(?:[^"\\]+|\\.)*"?|[\[\]{}]')


def nests_deeper_than(body: bytes, limit: int) -> bool:
    """Whether the JSON text `body` opens more than `limit` brackets at once (brackets
    in strings do not count), found by a scan in C, with no recursion.

    Example: `nests_deeper_than(b'[[1], {"a": "[[["}]', 2)` -> False.
    """
    body = _as_utf8(body)
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for token in _JSON_TOKENS.finditer(body):
        first = body[token.start()]
        if first == 0x5B or first == 0x7B:  # [ {
            depth += 1
            if depth > limit:
                return True
        elif first == 0x5D or first == 0x7D:  # ] }
            depth -= 1
    return False


def _as_utf8(body: bytes) -> bytes:
    """`body` in UTF-8, as the JSON decoder reads it: it takes UTF-16 and UTF-32 too
    (`json.detect_encoding`), whose bytes can hold a quote or a backslash inside another
    character (U+5C41 is `41 5C` in UTF-16-LE: an escape of the quote after it, read as
    bytes), so those are scanned as the text they are. A body that does not decode is
    one the decoder refuses before reading a bracket: scanned as it is."""
    encoding = json.detect_encoding(body)
    if encoding.startswith("utf-8"):  # no byte of a multi-byte character is ASCII
        return body
    try:
        return body.decode(encoding, "surrogatepass").encode("utf-8", "surrogatepass")
    except UnicodeError:
        return body


class RequestLimitsMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        max_query_bytes: int,
        body_timeout: float = BODY_TIMEOUT,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_query_bytes = max_query_bytes
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if len(scope["query_string"]) > self.max_query_bytes:
            response = error_response(
                414,
                f"The query string is longer than {self.max_query_bytes:,} bytes; "
                "send long programs with POST /api/trace.",
            )
            await response(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "0")
        if not declared.isdigit():
            await error_response(400, "The Content-Length header is not a number.")(
                scope, receive, send
            )
            return
        if int(declared) > self.max_body_bytes:
            await self._refuse_body(scope, receive, send)
            return
        body = b""
        more_body = True
        try:
            async with asyncio.timeout(self.body_timeout):
                while more_body:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    more_body = message.get("more_body", False)
                    if len(body) > self.max_body_bytes:
                        await self._refuse_body(scope, receive, send)
                        return
        except TimeoutError:
            response = error_response(
                408,
                f"The request body did not arrive within {self.body_timeout:g} seconds.",
                headers={"Connection": "close"},
            )
            await response(scope, receive, send)
            return

        if nests_deeper_than(body, MAX_JSON_DEPTH):
            await error_response(400, NESTED_TOO_DEEPLY)(scope, receive, send)
            return
        # Kept for the error handlers, which explain a body FastAPI could not parse.
        scope.setdefault("state", {})["body"] = body
        replayed = False

        async def replay_body() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay_body, send)

    async def _refuse_body(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, f"The request body is larger than {self.max_body_bytes:,} bytes."
        )
        await response(scope, receive, send)
