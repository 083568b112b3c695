"""GET /api/examples, GET /api/rules and GET /healthz."""

from __future__ import annotations

import httpx
import pytest

from backprop_animator.app import __version__
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.rules import rule_sources

pytestmark = pytest.mark.anyio


async def test_examples_lists_the_engines_examples_in_order(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/examples")

    assert response.status_code == 200
    examples = response.json()
    assert [example["id"] for example in examples] == [example.id for example in EXAMPLES]
    assert set(examples[0]) == {"id", "title", "description", "source", "granularity"}


async def test_every_listed_example_traces(client: httpx.AsyncClient) -> None:
    examples = (await client.get("/api/examples")).json()

    for example in examples:
        payload = {"source": example["source"], "granularity": example["granularity"]}
        response = await client.post("/api/trace", json=payload)
        assert response.status_code == 200, (example["id"], response.text)


async def test_rules_give_the_engines_source_of_every_primitive(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/api/rules")

    assert response.status_code == 200
    rules = response.json()
    assert rules == rule_sources()
    assert {"+", "*", "tanh", "exp", "relu", "log", "sigmoid"} <= set(rules)
    assert "_backward" in rules["*"]


async def test_health_says_ok_with_the_version(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": __version__}
