"""POST and GET /api/trace: the trace of SPEC §3, cacheable GETs, large traces."""

from __future__ import annotations

import gzip
from urllib.parse import quote

import httpx
import pytest
from service_helpers import NEURON

from backprop_animator.app.schemas import Trace
from backprop_animator.engine.examples import EXAMPLES, Example

pytestmark = pytest.mark.anyio

ARTICLE_LEAF_GRADS = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5}


def leaf_grads(trace: dict[str, object]) -> dict[str, float]:
    nodes = trace["nodes"]
    assert isinstance(nodes, list)
    return {node["label"]: node["grad"] for node in nodes if node["kind"] == "leaf"}


def long_program(statements: int) -> str:
    """`x = 0.5; y = x` then `statements` lines `y = y + k*x`: 3 nodes a line."""
    return "x = 0.5\ny = x\n" + "".join(f"y = y + {k % 7 + 1}*x\n" for k in range(statements))


async def test_post_trace_returns_the_articles_neuron(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/trace", json={"source": NEURON})

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    trace = response.json()
    assert trace["schema"] == 1
    assert trace["granularity"] == "packed"
    assert trace["source"] == NEURON
    assert len(trace["frames"]) == 16
    assert leaf_grads(trace) == pytest.approx(ARTICLE_LEAF_GRADS)


async def test_post_trace_expands_tanh_when_asked(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/trace", json={"source": NEURON, "granularity": "expanded"})

    trace = response.json()
    assert trace["granularity"] == "expanded"
    assert (len(trace["nodes"]), len(trace["frames"])) == (18, 29)
    assert leaf_grads(trace) == pytest.approx(ARTICLE_LEAF_GRADS)


@pytest.mark.parametrize("granularity", ["packed", "expanded"])
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.id)
async def test_every_example_trace_matches_the_documented_schema(
    client: httpx.AsyncClient, example: Example, granularity: str
) -> None:
    payload = {"source": example.source, "granularity": granularity}
    response = await client.post("/api/trace", json=payload)

    assert response.status_code == 200, response.text
    trace = Trace.model_validate_json(response.content)
    assert trace.passes is not None
    own_sort = trace.engine_check.sort.verdict if trace.engine_check else "right"
    # Several passes repeat the sort and backward frames; a learner's wrong sort may run a
    # rule twice (SPEC §14).
    if trace.schema_version == 1 and own_sort == "right":
        assert len(trace.frames) == sum(n.kind == "op" for n in trace.nodes) + 1 + len(trace.nodes)


async def test_get_trace_answers_the_same_bytes_as_post(client: httpx.AsyncClient) -> None:
    posted = await client.post("/api/trace", json={"source": NEURON, "granularity": "expanded"})
    got = await client.get("/api/trace", params={"source": NEURON, "granularity": "expanded"})

    assert got.status_code == 200
    assert got.content == posted.content


async def test_get_trace_is_cacheable_with_an_etag(client: httpx.AsyncClient) -> None:
    first = await client.get("/api/trace", params={"source": NEURON})
    again = await client.get("/api/trace", params={"source": NEURON})

    assert first.headers["etag"] == again.headers["etag"]
    assert first.headers["etag"].startswith('W/"')
    assert "max-age" in first.headers["cache-control"]


async def test_get_trace_answers_304_when_the_etag_matches(client: httpx.AsyncClient) -> None:
    etag = (await client.get("/api/trace", params={"source": NEURON})).headers["etag"]

    response = await client.get(
        "/api/trace", params={"source": NEURON}, headers={"If-None-Match": f'"other", {etag}'}
    )

    assert response.status_code == 304
    assert response.content == b""
    assert response.headers["etag"] == etag


async def test_get_trace_answers_200_when_the_etag_is_stale(client: httpx.AsyncClient) -> None:
    response = await client.get(
        "/api/trace", params={"source": NEURON}, headers={"If-None-Match": 'W/"stale"'}
    )

    assert response.status_code == 200
    assert response.json()["source"] == NEURON


async def test_traces_differ_by_etag_when_the_source_differs(client: httpx.AsyncClient) -> None:
    one = await client.get("/api/trace", params={"source": "a = Value(1.0)\na + a"})
    two = await client.get("/api/trace", params={"source": "a = Value(2.0)\na + a"})

    assert one.headers["etag"] != two.headers["etag"]


async def test_get_trace_reads_a_url_encoded_source(client: httpx.AsyncClient) -> None:
    source = "a = Value(2.0); b = a * a  # a² \u00e9\nb.backward()"

    response = await client.get(f"/api/trace?source={quote(source)}&granularity=packed")

    assert response.status_code == 200
    assert response.json()["source"] == source


async def test_large_source_in_a_worker_gives_the_same_trace_as_in_a_thread(
    client: httpx.AsyncClient, limited_client: httpx.AsyncClient
) -> None:
    # The limited app sends every source to its worker process, the default app
    # traces this one in a thread.
    source = "a = Value(3.0)\nb = a + a\nb.backward()\n"

    in_thread = await client.post("/api/trace", json={"source": source})
    in_worker = await limited_client.post("/api/trace", json={"source": source})

    assert in_worker.status_code == 200
    assert in_worker.content == in_thread.content


async def test_large_trace_is_sent_gzipped(client: httpx.AsyncClient) -> None:
    source = long_program(1_000)
    request = client.build_request("POST", "/api/trace", json={"source": source})
    request.headers["Accept-Encoding"] = "gzip"

    response = await client.send(request, stream=True)
    raw = b"".join([chunk async for chunk in response.aiter_raw()])

    assert response.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in response.headers["vary"].lower()
    assert len(raw) < len(gzip.decompress(raw)) / 4
    assert gzip.decompress(raw).startswith(b'{"schema":1,')


async def test_large_trace_is_sent_plain_to_clients_without_gzip(
    client: httpx.AsyncClient,
) -> None:
    source = long_program(1_000)

    response = await client.post(
        "/api/trace", json={"source": source}, headers={"Accept-Encoding": "identity"}
    )

    assert response.status_code == 200
    assert "content-encoding" not in response.headers
    assert response.json()["source"] == source
