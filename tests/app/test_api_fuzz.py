"""Random unicode, lone surrogates included, thrown at every endpoint that takes text:
the answer is a trace, a page or an error in the documented shape, never a 5xx.

The fuzzed app gets a generous time limit, so a busy test machine cannot turn a slow
answer into a 503: what is tested here is that nothing crashes.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from service_helpers import client_for

from backprop_animator.app.main import create_app
from backprop_animator.app.settings import Settings

# Every code point, surrogates (category Cs) included.
ANY_CHARACTER = st.characters(codec=None, exclude_categories=())
TEXT = st.text(ANY_CHARACTER, max_size=60)
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class FuzzClient:
    """A client on an app running in its own event loop, called from plain functions
    (hypothesis drives synchronous tests)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.app = create_app(Settings(trace_workers=1, trace_time_limit=60))
        self.lifespan = self.app.router.lifespan_context(self.app)
        self.loop.run_until_complete(self.lifespan.__aenter__())
        self.client = client_for(self.app)

    def get(self, url: str) -> httpx.Response:
        return self.loop.run_until_complete(self.client.get(url))

    def post(self, url: str, content: bytes) -> httpx.Response:
        headers = {"Content-Type": "application/json"}
        return self.loop.run_until_complete(self.client.post(url, content=content, headers=headers))

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.run_until_complete(self.lifespan.__aexit__(None, None, None))
        self.loop.close()


@pytest.fixture(scope="module")
def fuzz_client() -> Iterator[FuzzClient]:
    client = FuzzClient()
    try:
        yield client
    finally:
        client.close()


def programs(text: str) -> list[str]:
    """The text as a program, as a label, as a comment, and spliced into the neuron."""
    return [
        text,
        f"x = Value(2.0, label={text!r})\ny = x * x + 1\ny.backward()",
        f"x = Value(1e-200, label={text!r})\nx ** -1.5",
        f"x = Value(1.0)  # {text}\nx * 2",
        f"x = Value(1.0)\ny = x * {text}",
    ]


def assert_answered(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert sorted(response.json()["error"]) == ["column", "line", "message"]
    else:
        assert response.content


def ascii_json(payload: object) -> bytes:
    # json.dumps escapes every non-ASCII character, lone surrogates included (\ud800).
    return json.dumps(payload).encode("ascii")


def query(**fields: str) -> str:
    # Lone surrogates go out as the bytes UTF-8 would give them, which are not UTF-8.
    return "&".join(
        f"{name}={urllib.parse.quote(value.encode('utf-8', 'surrogatepass'))}"
        for name, value in fields.items()
    )


@FUZZ
@given(text=TEXT, granularity=st.sampled_from(["packed", "expanded"]))
@example(text="\ud800", granularity="packed")
@example(text="\udcff\ud83d\ude00", granularity="expanded")
def test_post_trace_never_answers_5xx(fuzz_client: FuzzClient, text: str, granularity: str) -> None:
    for source in programs(text):
        payload = {"source": source, "granularity": granularity}
        response = fuzz_client.post("/api/trace", ascii_json(payload))
        assert_answered(response)


@FUZZ
@given(text=TEXT, granularity=TEXT)
@example(text="\ud800", granularity="\udfff")
def test_get_trace_and_export_never_answer_5xx(
    fuzz_client: FuzzClient, text: str, granularity: str
) -> None:
    for source in programs(text)[:3]:
        for path in ("/api/trace", "/export"):
            response = fuzz_client.get(f"{path}?{query(source=source)}")
            assert_answered(response)
    response = fuzz_client.get(f"/api/trace?{query(source=text, granularity=granularity)}")
    assert_answered(response)


@FUZZ
@given(body=st.binary(max_size=200) | TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")))
def test_any_post_body_never_answers_5xx(fuzz_client: FuzzClient, body: bytes) -> None:
    response = fuzz_client.post("/api/trace", body)
    assert_answered(response)
