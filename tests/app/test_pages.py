"""The player page, the embed page, static files, and the API docs."""

from __future__ import annotations

import base64
import hashlib
import re

import httpx
import pytest

from backprop_animator.app.paths import find_asset_dir

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("path", ["/", "/embed", "/?source=a%20%2B%20a&frame=3"])
async def test_pages_render_html(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "<html" in response.text.lower()


async def test_static_files_are_served_from_the_static_folder(
    client: httpx.AsyncClient,
) -> None:
    files = [path for path in find_asset_dir("static").rglob("*") if path.is_file()]
    if not files:
        pytest.skip("static/ has no files yet")
    sample = files[0]
    relative = sample.relative_to(find_asset_dir("static")).as_posix()

    response = await client.get(f"/static/{relative}")

    assert response.status_code == 200
    assert response.content == sample.read_bytes()
    assert response.headers["x-content-type-options"] == "nosniff"


async def test_openapi_documents_the_trace_and_error_shapes(client: httpx.AsyncClient) -> None:
    response = await client.get("/openapi.json")

    assert response.status_code == 200
    document = response.json()
    schemas = document["components"]["schemas"]
    assert {"Trace", "Node", "Edge", "BuildFrame", "SortFrame", "BackwardFrame"} <= set(schemas)
    assert "schema" in schemas["Trace"]["properties"]
    post = document["paths"]["/api/trace"]["post"]["responses"]
    assert post["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Trace")
    for status in ("400", "413", "422", "503"):
        assert post[status]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    assert {"/api/trace", "/api/examples", "/api/rules", "/healthz"} <= set(document["paths"])


async def test_docs_page_allows_exactly_its_own_inline_script(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs")

    assert response.status_code == 200
    (script,) = re.findall(r"<script>(.*?)</script>", response.text, flags=re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    policy = response.headers["content-security-policy"]
    assert f"'sha256-{digest}'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy


async def test_docs_page_loads_swagger_ui_from_this_server_only(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/docs")

    assets = re.findall(r'(?:src|href)="([^"]+)"', response.text)
    assert assets, "the docs page links no assets"
    for url in assets:
        assert url.startswith("/static/vendor/swagger-ui/") or url == "/static/favicon.svg", url
        assert (await client.get(url)).status_code == 200, url


@pytest.mark.parametrize("path", ["/", "/embed"])
async def test_pages_answer_head_requests_like_get(client: httpx.AsyncClient, path: str) -> None:
    head = await client.head(path)
    get = await client.get(path)

    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-security-policy"] == get.headers["content-security-policy"]


async def test_health_check_answers_head(client: httpx.AsyncClient) -> None:
    assert (await client.head("/healthz")).status_code == 200
