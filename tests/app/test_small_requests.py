"""Small requests take the short way (issue 24): no thread pool on the way in, the
article's neuron traced in the event loop, larger cheap programs in a thread, the rest
in a worker; the program parsed by the app once at most; and `serve` writes no
access log line unless asked."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import httpx
import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from service_helpers import NEURON

from backprop_animator.app import cli
from backprop_animator.app.errors import ServiceError
from backprop_animator.app.http_timeouts import server_protocol
from backprop_animator.app.routes.traces import get_worker_pool
from backprop_animator.app.settings import Settings
from backprop_animator.app.worker import encode_trace
from backprop_animator.app.worker_pool import WorkerPool
from backprop_animator.engine import Limits
from tests.support.harness import free_port
from tests.support.programs import dense_program

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]
# About 150 nodes by the estimate: cheap, but more than the loop takes.
MIDDLING = "b = Value(0.1)\nb = " + "tanh(" * 12 + "b" + ")" * 12 + "\nb.backward()\n"


def test_the_worker_pool_dependency_is_async() -> None:
    assert inspect.iscoroutinefunction(get_worker_pool)


def dependencies(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from dependencies(sub)


def api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    """The app's FastAPI routes, those of included routers too."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from api_routes(included.routes)


async def test_every_route_and_dependency_of_the_api_runs_in_the_event_loop(
    default_app: FastAPI,
) -> None:
    # A plain `def` endpoint or dependency would run in FastAPI's thread pool.
    checked = set()
    for route in api_routes(default_app.routes):
        if not route.path.startswith(("/api", "/healthz")):
            continue
        for call in [route.dependant.call, *dependencies(route.dependant)]:
            assert inspect.iscoroutinefunction(call), f"{route.path}: {call} is not async"
            checked.add(call)
    assert get_worker_pool in checked
    assert len(checked) >= 8


async def test_a_small_trace_takes_no_thread_at_all(
    client: httpx.AsyncClient, default_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    hops: list[object] = []
    real_run_sync = anyio.to_thread.run_sync

    async def counting_run_sync(*args: Any, **kwargs: Any) -> Any:
        hops.append(args[0])
        return await real_run_sync(*args, **kwargs)

    async def no_thread(*args: object) -> None:
        raise AssertionError("the neuron went to a thread")

    monkeypatch.setattr(anyio.to_thread, "run_sync", counting_run_sync)
    monkeypatch.setattr(default_app.state.worker_pool, "_run_in_thread", no_thread)
    monkeypatch.setattr(default_app.state.worker_pool, "_run_in_worker", no_thread)

    for request in (
        client.build_request("POST", "/api/trace", json={"source": NEURON}),
        client.build_request("GET", "/api/trace", params={"source": NEURON}),
        client.build_request("POST", "/api/gradcheck", json={"source": NEURON}),
        client.build_request("POST", "/api/enginecheck", json={"source": NEURON}),
        client.build_request("GET", "/healthz"),
    ):
        response = await client.send(request)
        assert response.status_code == 200, response.text

    assert hops == []


def test_where_programs_run() -> None:
    pool = WorkerPool(Settings(trace_workers=1))

    assert pool.place(NEURON, "packed") == "loop"
    assert pool.place(NEURON, "expanded") == "loop"
    assert pool.place(MIDDLING, "expanded") == "thread"
    assert pool.place(dense_program(), "expanded") == "worker"
    assert pool.place("x = Value(1.0)\n" + "#" * 3_000, "packed") == "worker"  # long
    assert pool.place("for i in range(3):\n    pass", "packed") == "worker"
    assert pool.place(NEURON, "packed", "gradcheck") == "loop"
    assert pool.place(MIDDLING, "expanded", "gradcheck") == "worker"


def test_a_cheap_program_that_may_raise_its_recursion_limit_runs_in_a_worker() -> None:
    """Straight-line but for an import, and naming `setrecursionlimit` (here in a string):
    its run would raise the process's recursion limit to 121,000 (`engine.run._stack`),
    under which another thread's `json.loads` of a text nested 120,000 deep segfaults."""
    pool = WorkerPool(Settings(trace_workers=1))
    cheap = "from math import pi\na = Value(2.0)\n" + "a = a * 1.01\n" * 40
    assert pool.place(cheap, "packed") == "thread"
    for named in ('"setrecursionlimit"\n', "import sys\nsys.setrecursionlimit\n"):
        for kind in ("trace", "gradcheck", "enginecheck"):
            assert pool.place(named + cheap, "packed", kind) == "worker"


async def test_traces_in_the_loop_and_in_a_thread_give_the_engines_bytes() -> None:
    pool = WorkerPool(Settings(trace_workers=1))  # never started: no worker needed
    try:
        for source in (NEURON, MIDDLING):
            encoded = await pool.trace(source, "expanded")
            assert encoded == encode_trace(source, "expanded", Limits())
    finally:
        await pool.close()


async def test_a_trace_in_a_thread_answers_at_its_time_limit_not_when_the_thread_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def stuck(*args: object) -> None:
        time.sleep(0.5)

    monkeypatch.setattr("backprop_animator.app.worker_pool.run_job", stuck)
    pool = WorkerPool(Settings(trace_workers=1, trace_time_limit=0.1))
    assert pool.place(MIDDLING, "expanded") == "thread"

    started = time.monotonic()
    with pytest.raises(ServiceError, match="BACKPROP_TRACE_TIME_LIMIT"):
        await pool.trace(MIDDLING, "expanded")
    assert time.monotonic() - started < 0.45  # answered before the thread finished
    await pool.close()


async def test_a_trace_in_the_loop_that_outlasts_the_time_limit_is_answered_as_too_slow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def slow(*args: object) -> None:
        time.sleep(0.2)

    monkeypatch.setattr("backprop_animator.app.worker_pool.run_job", slow)
    pool = WorkerPool(Settings(trace_workers=1, trace_time_limit=0.1))

    with pytest.raises(ServiceError) as raised:
        await pool.trace(NEURON, "packed")
    assert raised.value.status_code == 503
    assert raised.value.headers == {"Retry-After": "1"}


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every `ast.parse` from now on, named by the module that asked for it."""
    calls: list[str] = []
    real_parse = ast.parse

    def parse(*args: Any, **kwargs: Any) -> ast.AST:
        caller = sys._getframe(2).f_globals.get("__name__", "?")
        calls.append(caller)
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(ast, "parse", parse)
    return calls


async def test_the_app_parses_a_small_program_once_to_place_it(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting_parses(monkeypatch)

    response = await client.post("/api/trace", json={"source": NEURON})

    assert response.status_code == 200
    assert [c for c in calls if not c.startswith("backprop_animator.engine")] == [
        "backprop_animator.app.work_estimate"
    ]


async def test_the_app_does_not_parse_a_long_program_it_sends_to_a_worker(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting_parses(monkeypatch)
    source = "x = Value(0.5)\ny = x\n" + "y = y * x\n" * 300  # 3,000 characters

    response = await client.post("/api/trace", json={"source": source})

    assert response.status_code == 200
    assert calls == []  # the worker process parses it


async def test_a_small_program_is_parsed_once_per_request(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting_parses(monkeypatch)

    await client.post("/api/trace", json={"source": NEURON})

    assert len(calls) == 1


def serve_kwargs(monkeypatch: pytest.MonkeyPatch, *args: str) -> dict[str, Any]:
    """What `serve` hands uvicorn, without starting it."""
    seen: dict[str, Any] = {}
    monkeypatch.setenv("BACKPROP_TRACE_WORKERS", "1")  # serve sets it if unset
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: seen.update(kwargs))
    assert cli.main(["serve", *args]) == 0
    return seen


def test_serve_runs_httptools_without_an_access_log_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BACKPROP_ACCESS_LOG", raising=False)
    kwargs = serve_kwargs(monkeypatch)

    assert kwargs["access_log"] is False
    assert kwargs["http"] is server_protocol()


def test_serve_logs_each_request_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACKPROP_ACCESS_LOG", raising=False)
    assert serve_kwargs(monkeypatch, "--access-log")["access_log"] is True
    monkeypatch.setenv("BACKPROP_ACCESS_LOG", "1")
    assert serve_kwargs(monkeypatch)["access_log"] is True


def serve_and_get_health(*args: str) -> str:
    """Run `backprop-animator serve`, ask `/healthz` twice, stop it; what it printed."""
    port = free_port()
    env = {**os.environ, "BACKPROP_TRACE_WORKERS": "1"}
    env.pop("BACKPROP_ACCESS_LOG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "backprop_animator", "serve", "--port", str(port), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        answered = 0
        while answered < 2:
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the server did not answer"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    answered += 1
            except OSError:
                time.sleep(0.1)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=20)
    return output


@pytest.mark.parametrize(("args", "lines"), [((), 0), (("--access-log",), 2)])
def test_the_server_writes_an_access_log_line_only_when_asked(
    args: tuple[str, ...], lines: int
) -> None:
    output = serve_and_get_health(*args)

    assert "Uvicorn running on" in output or "Application startup complete" in output, output
    assert output.count('"GET /healthz HTTP/1.1" 200') == lines, output
