"""`POST /api/trace` and `GET /api/trace`: a program in, its trace (SPEC §3) out.

Both send the bytes the worker pool encoded. GET is for permalinks and caches: a trace
depends only on its source, its options and the server's version, so it carries an
ETag and answers `If-None-Match` with 304.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from backprop_animator.app.content_coding import accepts_gzip as accepts_gzip_coding
from backprop_animator.app.errors import error_responses
from backprop_animator.app.schemas import (
    ENCODING_DESCRIPTION,
    Encoding,
    Granularity,
    Mistake,
    Trace,
    TraceRequest,
)
from backprop_animator.app.worker import EncodedTrace
from backprop_animator.app.worker_pool import WorkerPool

router = APIRouter(prefix="/api", tags=["traces"])

CACHE_CONTROL = "public, max-age=3600"

TRACE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The trace: every frame of the animation (schema 1 or 2 below; with "
        "`encoding` `columns`, the same trace in the page's columns encoding, docs/TRACE.md)."
    },
    **error_responses(
        {
            400: "The program is not valid or breaks a limit; or the body is not JSON.",
            413: "The request body is too large.",
            414: "The query string is too long: use POST.",
            422: "A field is missing or has a wrong value.",
            503: "The server is busy, or the trace took too long.",
        }
    ),
}


async def get_worker_pool(request: Request) -> WorkerPool:
    """The app's pool. Async, so FastAPI calls it in the event loop: a plain `def`
    dependency would send every request through its thread pool and back."""
    pool: WorkerPool = request.app.state.worker_pool
    return pool


WorkerPoolDep = Annotated[WorkerPool, Depends(get_worker_pool)]


def accepts_gzip(request: Request) -> bool:
    # The same test as the app's GZip middleware, which compresses everything else.
    return accepts_gzip_coding(request.headers.get("accept-encoding", ""))


def json_response(encoded: EncodedTrace, headers: dict[str, str] | None = None) -> Response:
    """The encoded JSON (a trace or a gradient check) as a response, gzipped if it is."""
    response = Response(encoded.body, media_type="application/json", headers=headers)
    if encoded.gzipped:
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Vary"] = "Accept-Encoding"
    return response


@router.post("/trace", response_model=Trace, responses=TRACE_RESPONSES)
async def create_trace(request: Request, body: TraceRequest, pool: WorkerPoolDep) -> Response:
    """Trace a program: build the graph, sort it, run backward, one frame per step."""
    encoded = await pool.trace(
        body.source,
        body.granularity,
        accepts_gzip(request),
        is_disconnected=request.is_disconnected,
        mistake=body.mistake,
        sort_steps=body.sort_steps,
        encoding=body.encoding,
    )
    return json_response(encoded)


@router.get(
    "/trace",
    response_model=Trace,
    responses={**TRACE_RESPONSES, 304: {"description": "Not modified (If-None-Match)."}},
)
async def read_trace(
    request: Request,
    pool: WorkerPoolDep,
    source: Annotated[str, Query(description="The program, URL-encoded.")],
    granularity: Annotated[Granularity, Query()] = "packed",
    mistake: Annotated[Mistake | None, Query(description="A bug-lab mistake (SPEC §8).")] = None,
    sort_steps: Annotated[bool, Query(description="`1`: the sort call by call (SPEC §9).")] = False,
    encoding: Annotated[Encoding, Query(description=ENCODING_DESCRIPTION)] = "objects",
) -> Response:
    """The same trace as `POST /api/trace`, cacheable."""
    encoded = await pool.trace(
        source,
        granularity,
        accepts_gzip(request),
        is_disconnected=request.is_disconnected,
        mistake=mistake,
        sort_steps=sort_steps,
        encoding=encoding,
    )
    headers = {"ETag": encoded.etag, "Cache-Control": CACHE_CONTROL}
    if etag_matches(request.headers.get("if-none-match", ""), encoded.etag):
        return Response(status_code=304, headers=headers)
    return json_response(encoded, headers)


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Weak comparison, as `If-None-Match` asks for (RFC 9110 §13.1.2).

    Example: `etag_matches('"x", W/"abc"', 'W/"abc"') is True`.
    """
    opaque = etag.removeprefix("W/")
    candidates = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in candidates or opaque in candidates
