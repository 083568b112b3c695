"""The worker pool: threads for small sources, worker processes for large ones, time limits."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator

import pytest

from backprop_animator.app.errors import ServiceError
from backprop_animator.app.settings import Settings
from backprop_animator.app.worker import WORKER_NICENESS, encode_trace
from backprop_animator.app.worker_pool import ClientGone, WorkerPool
from backprop_animator.engine import EngineError, Limits

pytestmark = pytest.mark.anyio

GENEROUS = Limits(max_source_chars=2_000_000, max_nodes=1_000_000)
SMALL = "a = Value(3.0)\nb = a + a\nb.backward()\n"


def slow_program(statements: int = 40_000) -> str:
    """About three nodes a statement: seconds of work for a worker."""
    return "x = 0.5\ny = x\n" + "y = y + 2*x\n" * statements


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    """One worker, every source goes to it, and only 0.3 s per trace."""
    pool = WorkerPool(
        Settings(limits=GENEROUS, trace_workers=1, inline_max_chars=0, trace_time_limit=0.3)
    )
    await pool.start()
    try:
        yield pool
    finally:
        await pool.close()


async def trace_when_ready(pool: WorkerPool, source: str, seconds: float = 10) -> bytes:
    """Retries while the pool says it is busy, for at most `seconds`."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return (await pool.trace(source, "packed")).body
        except ServiceError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.05)


async def test_worker_gives_the_bytes_the_engine_encodes(pool: WorkerPool) -> None:
    encoded = await pool.trace(SMALL, "expanded")

    assert encoded == encode_trace(SMALL, "expanded", GENEROUS)


async def test_worker_passes_engine_errors_on_with_their_position(pool: WorkerPool) -> None:
    with pytest.raises(EngineError) as raised:
        await pool.trace("a = Value(1.0)\nb = a * w3\n", "packed")

    assert (raised.value.line, raised.value.column) == (2, 9)
    assert "w3" in raised.value.message


async def test_trace_over_the_time_limit_is_refused_and_its_worker_replaced(
    pool: WorkerPool,
) -> None:
    (stuck_pid,) = pool.worker_pids

    with pytest.raises(ServiceError) as raised:
        await pool.trace(slow_program(), "packed")

    assert raised.value.status_code == 503
    assert "BACKPROP_TRACE_TIME_LIMIT" in raised.value.message
    assert raised.value.headers == {"Retry-After": "1"}
    assert stuck_pid not in pool.worker_pids
    assert stuck_pid is not None and not pid_alive(stuck_pid)
    assert b'"schema":1' in await trace_when_ready(pool, SMALL)


async def test_trace_waiting_too_long_for_a_worker_is_told_to_retry(pool: WorkerPool) -> None:
    slow = asyncio.create_task(pool.trace(slow_program(), "packed"))
    await asyncio.sleep(0.01)

    with pytest.raises(ServiceError) as raised:
        await pool.trace(SMALL, "packed")

    assert raised.value.status_code == 503
    assert raised.value.headers == {"Retry-After": "1"}
    with pytest.raises(ServiceError):
        await slow


async def test_worker_that_dies_is_replaced(pool: WorkerPool) -> None:
    (pid,) = pool.worker_pids
    assert pid is not None
    os.kill(pid, signal.SIGKILL)

    with pytest.raises(ServiceError) as raised:
        await pool.trace(SMALL, "packed")

    assert "stopped unexpectedly" in raised.value.message
    assert b'"schema":1' in await trace_when_ready(pool, SMALL)
    assert pid not in pool.worker_pids


async def test_small_sources_are_traced_without_a_worker() -> None:
    pool = WorkerPool(Settings(trace_workers=1, inline_max_chars=100))
    # Never started: a small source must not need a worker.
    encoded = await pool.trace(SMALL, "packed")

    assert encoded == encode_trace(SMALL, "packed", Limits())


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


DENSE = "b = Value(0.1)\n" + ("b = " + "tanh(" * 160 + "b" + ")" * 160 + "\n") * 2


def test_a_short_but_dense_program_is_not_cheap_enough_for_a_thread() -> None:
    pool = WorkerPool(Settings(trace_workers=1))

    assert len(DENSE) < pool.settings.inline_max_chars
    assert not pool.is_cheap(DENSE, "expanded")
    assert not pool.is_cheap(DENSE, "packed")
    assert pool.is_cheap(SMALL, "expanded")


@pytest.mark.parametrize(
    "source",
    [
        "for i in range(10**9):\n    pass",
        "x = Value(1.0)\ny = 10**10**10 * x",
        "f = lambda x: x\nf(Value(1.0))",
        "x = [Value(1.0)] * 1000\nsum(x)",
        "x = Value(1.0)\nx.data",
        "x = Value(1.0\n",
        "s = 'ab' * 5000\nx = Value(1.0)",
    ],
    ids=["loop", "number-power", "lambda", "list", "attribute", "syntax-error", "string-repeat"],
)
def test_programs_whose_work_the_syntax_cannot_bound_go_to_a_worker(source: str) -> None:
    assert not WorkerPool(Settings(trace_workers=1)).is_cheap(source, "packed")


async def test_a_dense_program_is_traced_in_a_worker() -> None:
    unstarted = WorkerPool(Settings(limits=GENEROUS, trace_workers=1, trace_time_limit=0.3))
    # Never started: the dense program must wait for a worker, not run in a thread.
    with pytest.raises(ServiceError, match="busy"):
        await unstarted.trace(DENSE, "expanded")

    patient = WorkerPool(Settings(limits=GENEROUS, trace_workers=1, trace_time_limit=60))
    await patient.start()
    try:
        encoded = await patient.trace(DENSE, "expanded")
    finally:
        await patient.close()
    assert encoded == encode_trace(DENSE, "expanded", GENEROUS)


async def test_a_trace_in_a_thread_still_answers_within_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def stuck(*args: object) -> None:
        import time

        time.sleep(0.5)

    monkeypatch.setattr("backprop_animator.app.worker_pool.run_job", stuck)
    pool = WorkerPool(Settings(trace_workers=1, trace_time_limit=0.1))

    with pytest.raises(ServiceError) as raised:
        await pool.trace(SMALL, "packed")

    assert raised.value.status_code == 503
    assert "BACKPROP_TRACE_TIME_LIMIT" in raised.value.message


async def test_a_client_that_has_gone_costs_no_trace(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []
    monkeypatch.setattr(
        "backprop_animator.app.worker_pool.Worker.call",
        lambda worker, job, gzip_large: calls.append(job),
    )

    async def gone() -> bool:
        return True

    with pytest.raises(ClientGone):
        await pool.trace(slow_program(), "packed", is_disconnected=gone)
    with pytest.raises(ClientGone):
        await pool.export(SMALL, "packed", 0, is_disconnected=gone)

    assert calls == []
    monkeypatch.undo()
    assert b'"schema":1' in await trace_when_ready(pool, SMALL)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX scheduling priorities")
async def test_workers_run_at_a_lower_priority_than_the_server(pool: WorkerPool) -> None:
    (pid,) = pool.worker_pids
    assert pid is not None
    server = os.getpriority(os.PRIO_PROCESS, 0)

    assert os.getpriority(os.PRIO_PROCESS, pid) == min(server + WORKER_NICENESS, 19)
