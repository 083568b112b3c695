"""The player page (`/`) and the embeddable player (`/embed`), rendered from Jinja templates.

Both read `?source=...&frame=...` themselves in the browser; the server passes only
the version. `/embed` is the one place another site may frame.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from backprop_animator.app import __version__
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.app.security import EMBED_POLICY

router = APIRouter(tags=["pages"], include_in_schema=False)
templates = Jinja2Templates(directory=find_asset_dir("templates"))


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
async def read_player(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "index.html", {"version": __version__})


@router.api_route("/embed", methods=["GET", "HEAD"], response_class=HTMLResponse)
async def read_embed(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(
        request,
        "embed.html",
        {"version": __version__},
        headers={"Content-Security-Policy": EMBED_POLICY},
    )
