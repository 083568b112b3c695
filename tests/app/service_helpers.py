"""Helpers the service tests share: the article's neuron, a client, the error shape."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from backprop_animator.engine.examples import (
    NEURON as NEURON,  # the article's neuron, shared by these tests
)


def client_for(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def assert_still_serving(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/trace", json={"source": NEURON})
    assert response.status_code == 200, response.text
    assert len(response.json()["frames"]) == 16


def assert_error_shape(response: httpx.Response, status_code: int) -> dict[str, object]:
    """The body is exactly `{"error": {"message", "line", "column"}}`; returns the inner dict."""
    assert response.status_code == status_code, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert list(body) == ["error"]
    error: dict[str, object] = body["error"]
    assert sorted(error) == ["column", "line", "message"]
    assert isinstance(error["message"], str) and error["message"]
    assert error["line"] is None or isinstance(error["line"], int)
    assert error["column"] is None or isinstance(error["column"], int)
    return error
