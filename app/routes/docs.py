"""`GET /docs`: Swagger UI for the OpenAPI document at `/openapi.json`.

Swagger UI's files are vendored from the npm registry (`static/vendor/swagger-ui/`),
so the docs work offline and load nothing from another origin. Its page has one
inline script, so this route sets its own Content-Security-Policy: this origin plus
the hash of that exact script.
"""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from backprop_animator.app.security import content_security_policy, csp_hash

router = APIRouter(include_in_schema=False)

SWAGGER_JS = "/static/vendor/swagger-ui/swagger-ui-bundle.js"
SWAGGER_CSS = "/static/vendor/swagger-ui/swagger-ui.css"
FAVICON = "/static/favicon.svg"


def inline_script_hashes(html: str) -> list[str]:
    """CSP sources for the inline `<script>` elements of `html`.

    Example: `<script>go()</script>` -> `["'sha256-…'"]` of the bytes `go()`.
    """
    scripts = re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)
    return [csp_hash(script) for script in scripts]


@router.get("/docs", response_class=HTMLResponse)
async def read_docs(request: Request) -> HTMLResponse:
    page = get_swagger_ui_html(
        openapi_url=request.app.openapi_url,
        title=f"{request.app.title} — API",
        swagger_js_url=SWAGGER_JS,
        swagger_css_url=SWAGGER_CSS,
        swagger_favicon_url=FAVICON,
    )
    html = bytes(page.body).decode()
    page.headers["Content-Security-Policy"] = content_security_policy(
        script_src=" ".join(["'self'", *inline_script_hashes(html)]),
        # Swagger UI sets style attributes as it renders.
        style_src="'self' 'unsafe-inline'",
    )
    # Owning its policy, the route owns its framing too: like every page but /embed, none.
    page.headers["X-Frame-Options"] = "DENY"
    return page
