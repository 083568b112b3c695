"""Security headers on every response, and the Content-Security-Policy of each kind of page.

Pages run only our own scripts and styles (no inline script, no inline style
attribute), may not be framed, and talk only to this origin. A route that needs
another policy sets its own `Content-Security-Policy` and then owns its framing
too: `/embed` allows any site to frame it, `/docs` adds the hash of Swagger UI's one
inline script (its files are vendored under `static/vendor/swagger-ui/`).
"""

from __future__ import annotations

import base64
import hashlib

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def content_security_policy(**overrides: str) -> str:
    """The page policy with some directives replaced (underscores become dashes).

    Example: `content_security_policy(frame_ancestors="*")` ends with `frame-ancestors *`.
    """
    directives = {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "connect-src": "'self'",
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    directives.update({name.replace("_", "-"): value for name, value in overrides.items()})
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def csp_hash(text: str) -> str:
    """A CSP source that allows exactly one inline block with this text (its UTF-8 SHA-256).

    Example: `csp_hash("go()")` -> `"'sha256-…'"`, for `script-src` of `<script>go()</script>`.
    """
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return f"'sha256-{digest}'"


PAGE_POLICY = content_security_policy()
EMBED_POLICY = content_security_policy(frame_ancestors="*")


class SecurityHeadersMiddleware:
    """Adds the headers to every HTTP response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = PAGE_POLICY
                    headers["X-Frame-Options"] = "DENY"
            await send(message)

        await self.app(scope, receive, send_with_headers)
