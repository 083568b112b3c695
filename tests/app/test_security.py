"""Security headers: on every response, errors included; framing only for /embed."""

from __future__ import annotations

import httpx
import pytest

from backprop_animator.app.security import content_security_policy, csp_hash

pytestmark = pytest.mark.anyio


def directives(policy: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/healthz"),
        ("GET", "/api/examples"),
        ("POST", "/api/trace"),
        ("GET", "/no-such-page"),
        ("GET", "/openapi.json"),
    ],
)
async def test_every_response_carries_the_security_headers(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    response = await client.request(method, path, json={"source": "x +"})

    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert response.headers["x-frame-options"] == "DENY"
    policy = directives(response.headers["content-security-policy"])
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"


async def test_the_player_page_forbids_inline_scripts_and_styles(
    client: httpx.AsyncClient,
) -> None:
    policy = directives((await client.get("/")).headers["content-security-policy"])

    assert "unsafe-inline" not in policy["script-src"] + policy["style-src"]
    assert policy["object-src"] == "'none'"
    assert policy["img-src"] == "'self' data:"


async def test_the_api_docs_page_sets_its_own_policy_and_still_may_not_be_framed(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/docs")

    assert response.status_code == 200
    assert response.headers["x-frame-options"] == "DENY"
    policy = directives(response.headers["content-security-policy"])
    assert policy["frame-ancestors"] == "'none'"
    assert "'sha256-" in policy["script-src"]


async def test_embed_page_may_be_framed_by_any_site(client: httpx.AsyncClient) -> None:
    response = await client.get("/embed")

    assert "x-frame-options" not in response.headers
    policy = directives(response.headers["content-security-policy"])
    assert policy["frame-ancestors"] == "*"
    assert policy["script-src"] == "'self'"


async def test_api_allows_cross_origin_calls_without_credentials(
    client: httpx.AsyncClient,
) -> None:
    response = await client.options(
        "/api/trace",
        headers={
            "Origin": "https://course.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )

    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in response.headers


def test_content_security_policy_replaces_only_the_named_directives() -> None:
    policy = directives(content_security_policy(frame_ancestors="*", img_src="'self'"))

    assert policy["frame-ancestors"] == "*"
    assert policy["img-src"] == "'self'"
    assert policy["default-src"] == "'self'"


def test_csp_hash_is_the_base64_sha256_of_the_utf8_text() -> None:
    # The SHA-256 of nothing, as CSP Level 3's examples write it.
    assert csp_hash("") == "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    # UTF-8 bytes C3 A9, as `printf 'é' | openssl dgst -sha256 -binary | base64` gives.
    assert csp_hash("é") == "'sha256-SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw/biumnEw='"
