"""`GET /healthz`: the process is up and answering; for load balancers and probes."""

from __future__ import annotations

from fastapi import APIRouter

from backprop_animator.app import __version__
from backprop_animator.app.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health)
async def read_health() -> Health:
    return Health(status="ok", version=__version__)


@router.head("/healthz", include_in_schema=False)
async def check_health() -> None:
    """The same check for load balancers that probe with HEAD."""
