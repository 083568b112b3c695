"""`POST /api/enginecheck`: a program with its own Value class in, where it parts from a
right engine out (SPEC §14): each op's rule, the sort and the accumulation, with the
first frame where each goes wrong. It runs where traces run (`app.worker_pool`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from backprop_animator.app.errors import error_responses
from backprop_animator.app.routes.traces import WorkerPoolDep, accepts_gzip, json_response
from backprop_animator.app.schemas import EngineCheck, EngineCheckRequest
from backprop_animator.app.worker import Job

router = APIRouter(prefix="/api", tags=["enginecheck"])

ENGINECHECK_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "A verdict per op of the learner's class, on the sort and on +=."},
    **error_responses(
        {
            400: "The program is not valid or is over a limit.",
            413: "The request body is too large.",
            422: "A field is missing or has a wrong value.",
            503: "The server is busy, or the check took too long.",
        }
    ),
}


@router.post("/enginecheck", response_model=EngineCheck, responses=ENGINECHECK_RESPONSES)
async def create_enginecheck(
    request: Request, body: EngineCheckRequest, pool: WorkerPoolDep
) -> Response:
    """Run the program's own engine beside a right one and say where they part; a
    program on the built-in engine is answered all right."""
    job = Job("enginecheck", body.source, body.granularity)
    encoded = await pool.run(job, accepts_gzip(request), is_disconnected=request.is_disconnected)
    return json_response(encoded)
