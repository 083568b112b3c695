"""`POST /api/gradcheck`: a program in, its leaf gradients against difference quotients out.

SPEC §7. The check runs where traces run (`app.worker_pool`: a thread for cheap programs,
a worker process within the time limit for the rest); the engine bounds its work
with `BACKPROP_MAX_GRADCHECK_WORK`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from backprop_animator.app.errors import error_responses
from backprop_animator.app.routes.traces import WorkerPoolDep, accepts_gzip, json_response
from backprop_animator.app.schemas import Gradcheck, GradcheckRequest
from backprop_animator.app.worker import Job

router = APIRouter(prefix="/api", tags=["gradcheck"])

GRADCHECK_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "One check per leaf: the analytic gradient and a row per h."},
    **error_responses(
        {
            400: "The program is not valid, a leaf is unknown, the work is over the limit, "
            "or a difference quotient is not a finite number.",
            413: "The request body is too large.",
            422: "A field is missing or has a wrong value (h not positive, too many h…).",
            503: "The server is busy, or the check took too long.",
        }
    ),
}


@router.post("/gradcheck", response_model=Gradcheck, responses=GRADCHECK_RESPONSES)
async def create_gradcheck(
    request: Request, body: GradcheckRequest, pool: WorkerPoolDep
) -> Response:
    """Check every leaf's gradient against forward or central differences over a sweep of h."""
    options = {
        "scheme": body.scheme,
        "h": None if body.h is None else tuple(body.h),
        "leaves": None if body.leaves is None else tuple(body.leaves),
        "mistake": body.mistake,
        "pass_index": body.pass_index,
    }
    job = Job("gradcheck", body.source, body.granularity, tuple(options.items()))
    encoded = await pool.run(job, accepts_gzip(request), is_disconnected=request.is_disconnected)
    return json_response(encoded)
