"""`GET /export`: a program in, one self-contained HTML file out, as a download.

The file plays with no server and no network (see `app.export`); it is for course
sites that host static files only, and so a course never depends on this server.
Errors are the API's: the same 4xx body as `/api/trace`.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import orjson
from fastapi import APIRouter, Query, Response

from app.errors import error_responses
from app.export import bundle, render_standalone, standalone_title
from app.routes.traces import TracerDep
from app.schemas import Granularity
from engine.rules import rule_sources

router = APIRouter(tags=["export"])

FILENAME = "backprop-animator.html"


@router.get(
    "/export",
    response_class=Response,
    responses={
        200: {"description": "The standalone page.", "content": {"text/html": {}}},
        **error_responses(
            {
                400: "The program is not valid or breaks a limit.",
                414: "The query string is too long.",
                422: "A parameter has a wrong value.",
                503: "The server is busy, or the trace took too long.",
            }
        ),
    },
)
async def read_export(
    tracer: TracerDep,
    source: Annotated[str, Query(description="The program, URL-encoded.")],
    granularity: Annotated[Granularity, Query()] = "packed",
    frame: Annotated[int, Query(ge=0, description="Where it opens (0-based).")] = 0,
    quiz: Annotated[
        bool, Query(description="Ask the learner for each gradient first (SPEC §10).")
    ] = False,
) -> Response:
    """Download the player for one program as a single HTML file that works offline."""
    encoded = await tracer.trace(source, granularity)
    trace = orjson.loads(encoded.body)
    document = await asyncio.to_thread(
        render_standalone,
        trace,
        rule_sources(),
        title=standalone_title(source),
        frame=frame,
        quiz=quiz,
    )
    headers = {
        "Content-Disposition": f'attachment; filename="{FILENAME}"',
        # The file's own policy (it is read from disk later), and no framing here.
        "Content-Security-Policy": f"{bundle().policy}; frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
    }
    return Response(document, media_type="text/html; charset=utf-8", headers=headers)
