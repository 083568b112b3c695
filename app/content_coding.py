"""Whether a client accepts gzip, read from `Accept-Encoding` as RFC 9110 §12.5.3 says.

Starlette's GZipMiddleware only looks for the letters "gzip" in the header, so
`gzip;q=0` — "never send me gzip" — would still get it. A coding with q=0 is
refused; `*` stands for every coding not named; no header at all accepts anything
but is answered uncompressed, as is usual.

Examples: `accepts_gzip("gzip, br") is True`, `accepts_gzip("gzip;q=0") is False`,
`accepts_gzip("*;q=0.5") is True`, `accepts_gzip("br, *;q=0") is False`.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Receive, Scope, Send


def accepts_gzip(accept_encoding: str) -> bool:
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        coding, *parameters = (part.strip() for part in item.split(";"))
        if not coding:
            continue
        weight = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[coding.lower()] = weight
    if "gzip" in weights:
        return weights["gzip"] > 0
    if "x-gzip" in weights:
        return weights["x-gzip"] > 0
    return weights.get("*", 0.0) > 0


class NegotiatedGZipMiddleware(GZipMiddleware):
    """Starlette's GZipMiddleware, skipped for clients that refuse gzip (`gzip;q=0`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not accepts_gzip(
            Headers(scope=scope).get("accept-encoding", "")
        ):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
