"""The FastAPI app: routes, error shape, security headers, compression, limits.

`create_app(settings)` builds one; the module-level `app` is what
`backprop-animator serve` and `uvicorn app.main:app` run, with settings from the
environment. The app keeps no state between requests, so it scales out as uvicorn
workers or replicas behind a load balancer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response

from backprop_animator.app import __version__
from backprop_animator.app.chunked import ChunkedBodyMiddleware
from backprop_animator.app.content_coding import NegotiatedGZipMiddleware
from backprop_animator.app.errors import error_response, install_error_handlers
from backprop_animator.app.lti import routes as lti_routes
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.app.request_limits import RequestLimitsMiddleware
from backprop_animator.app.routes import (
    docs,
    enginecheck,
    examples,
    exports,
    gradcheck,
    health,
    pages,
    traces,
)
from backprop_animator.app.security import SecurityHeadersMiddleware
from backprop_animator.app.settings import Settings
from backprop_animator.app.worker_pool import WorkerPool

DESCRIPTION = """\
Reverse-mode automatic differentiation, one step at a time. Send a small program
(a subset of Python over scalar `Value`s) and get back its **trace**: the graph, the
topological order and one frame per step of build, sort and backward.

Every error, whatever its cause, is `{"error": {"message", "line", "column"}}`.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = WorkerPool(settings)
        app.state.worker_pool = pool
        try:
            await pool.start()
            yield
        finally:
            await pool.close()

    app = FastAPI(
        title="backprop-animator",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    install_error_handlers(app)
    for module in (traces, gradcheck, enginecheck, examples, exports, health, pages, docs):
        app.include_router(module.router)
    lti_routes.install(app)
    app.mount("/static", StaticFiles(directory=find_asset_dir("static")), name="static")

    # The last added runs first: limits see the raw request, headers go on everything.
    app.add_middleware(
        RequestLimitsMiddleware,
        max_body_bytes=settings.max_body_bytes,
        max_query_bytes=settings.max_query_bytes,
    )
    # No cookies or credentials anywhere, so any site may call the API and load the
    # player's modules (the script-tag embed needs both).
    app.add_middleware(
        JSONCORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST"], allow_headers=["*"]
    )
    app.add_middleware(NegotiatedGZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(SecurityHeadersMiddleware)
    # Outermost: every body, compressed or not, leaves in pieces a slow reader can hold.
    app.add_middleware(ChunkedBodyMiddleware)
    return app


class JSONCORSMiddleware(CORSMiddleware):
    """Starlette's CORS middleware, with a refused preflight in the API's error shape."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        refused = bytes(response.body).decode("utf-8", "replace")
        headers = {
            name: value
            for name, value in response.headers.items()
            if name.lower() not in ("content-length", "content-type")
        }
        return error_response(
            response.status_code,
            f"{refused}: this cross-origin request is not allowed (the API takes GET and POST).",
            headers=headers,
        )


app = create_app()
