"""`GET /export`: a program in, one self-contained HTML file out, as a download.

The file plays with no server and no network (see `app.export`); it is for course
sites that host static files only, and so a course never depends on this server.
Errors are the API's: the same 4xx body as `/api/trace`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from backprop_animator.app.errors import error_responses
from backprop_animator.app.export import bundle
from backprop_animator.app.routes.traces import WorkerPoolDep, accepts_gzip
from backprop_animator.app.schemas import Granularity, Mistake

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
    request: Request,
    pool: WorkerPoolDep,
    source: Annotated[str, Query(description="The program, URL-encoded.")],
    granularity: Annotated[Granularity, Query()] = "packed",
    frame: Annotated[int, Query(ge=0, description="Where it opens (0-based).")] = 0,
    quiz: Annotated[
        bool, Query(description="Ask the learner for each gradient first (SPEC §10).")
    ] = False,
    mistake: Annotated[Mistake | None, Query(description="A bug-lab mistake (SPEC §8).")] = None,
    sort_steps: Annotated[bool, Query(description="`1`: the sort call by call (SPEC §9).")] = False,
    gradcheck: Annotated[
        bool, Query(description="`1`: embed the gradient check (SPEC §7) for its panel.")
    ] = False,
) -> Response:
    """Download the player for one program as a single HTML file that works offline."""
    # Tracing, rendering and gzip all happen in a worker process (`app.worker`).
    page = await pool.export(
        source,
        granularity,
        frame,
        accepts_gzip(request),
        quiz=quiz,
        is_disconnected=request.is_disconnected,
        mistake=mistake,
        sort_steps=sort_steps,
        gradcheck=gradcheck,
    )
    headers = {
        "Content-Disposition": f'attachment; filename="{FILENAME}"',
        # The file's own policy (it is read from disk later), and no framing here.
        "Content-Security-Policy": f"{bundle().policy}; frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
    }
    if page.gzipped:
        headers |= {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return Response(page.body, media_type="text/html; charset=utf-8", headers=headers)
