"""The worker pool: traces, gradient checks and exports without stalling the event loop:
the smallest programs in the event loop itself, other cheap ones in a thread, the rest
(and every export) in worker processes, each job within a time limit.

Parsing and JSON-encoding a 20,000-node trace hold the GIL for hundreds of
milliseconds, so in a thread they would stall every other request; in a worker
process they do not. Which programs are cheap is judged from their syntax tree
(`app.work_estimate`), not their length: a short program can nest a hundred
expanded `tanh`s. A thread cannot be stopped, so only programs whose work is
bounded that way run in one; the time limit still holds for them, as an answer.
The smallest of them (at most `loop_max_nodes` by the estimate, the article's neuron
among them) take well under two milliseconds, less than the hand-off to a thread and
back costs a request, so they run in the event loop with nothing in between; the
estimate bounds how long that keeps the loop from other requests (`app.settings`).

Workers are plain `multiprocessing` processes rather than a
`ProcessPoolExecutor` because a trace that overruns its limit has to be stopped:
that one worker is killed and replaced, which `ProcessPoolExecutor` (Python 3.11)
cannot do without breaking the pool and every trace running in it.
"""

from __future__ import annotations

import ast
import asyncio
import logging
import multiprocessing
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any, Literal

from backprop_animator.app.errors import ServiceError
from backprop_animator.app.settings import Settings
from backprop_animator.app.work_estimate import estimate_with_tree
from backprop_animator.app.worker import (
    MIN_ENGINE_TIME,
    READY,
    EncodedTrace,
    Job,
    Reply,
    run_job,
    serve_traces,
)
from backprop_animator.engine import EngineError, Limits
from backprop_animator.engine.run import names_recursion_limit

logger = logging.getLogger(__name__)

# Where a job runs: the event loop, a thread, or a worker process.
Place = Literal["loop", "thread", "worker"]

# Answers `await request.is_disconnected()`: True once the client has gone.
DisconnectCheck = Callable[[], Awaitable[bool]]


class ClientGone(ServiceError):
    """The client left before its trace started; nobody will read this answer."""

    def __init__(self) -> None:
        super().__init__(503, "The client disconnected before its trace started.")


class Worker:
    """One worker process and our end of its pipe; it traces one program at a time.

    Its methods block: call them in a thread.
    """

    def __init__(self, context: SpawnContext, limits: Limits) -> None:
        self.connection, child_end = context.Pipe()
        self.process: SpawnProcess = context.Process(
            target=serve_traces,
            args=(child_end, limits),
            name="backprop-trace-worker",
            daemon=True,
        )
        self.process.start()
        child_end.close()

    def wait_ready(self) -> None:
        """Returns once the new process has imported the engine."""
        greeting = self.connection.recv()
        if greeting != READY:
            raise RuntimeError(f"a trace worker started with {greeting!r}")

    def call(self, job: Job, gzip_large: bool) -> Reply:
        self.connection.send((job, gzip_large))
        reply: Reply = self.connection.recv()
        return reply

    def kill(self) -> None:
        # A blocked `call` then sees the pipe close and ends; the garbage collector
        # closes our end once that thread lets go of it.
        self.process.kill()
        self.process.join()


class WorkerPool:
    """Runs the routes' jobs (traces, gradient checks, exports) in a thread or a worker
    process; one per app, started and closed by its lifespan."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # Spawn, not fork: the server has threads, and forking a threaded process
        # can copy a lock another thread holds.
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[Worker] = asyncio.Queue()
        self._workers: set[Worker] = set()
        self._starting: set[asyncio.Task[None]] = set()
        # The threads that trace cheap programs, and a slot for each: a slot is given
        # back when its thread is done, not when its request gave up on it.
        self._threads = ThreadPoolExecutor(settings.inline_threads, "backprop-inline")
        self._thread_slots = asyncio.Semaphore(settings.inline_threads)

    @property
    def worker_pids(self) -> set[int | None]:
        return {worker.process.pid for worker in self._workers}

    async def start(self) -> None:
        """Starts the workers and returns once they can take traces."""
        await asyncio.gather(*(self._add_worker() for _ in range(self.settings.trace_workers)))

    async def close(self) -> None:
        for task in self._starting:
            task.cancel()
        for worker in self._workers:
            worker.kill()
        self._workers.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def trace(
        self,
        source: str,
        granularity: str,
        accepts_gzip: bool = False,
        *,
        is_disconnected: DisconnectCheck | None = None,
        mistake: str | None = None,
        sort_steps: bool = False,
        encoding: str = "objects",
    ) -> EncodedTrace:
        """The encoded trace, or raises `EngineError` / `ServiceError` (busy, too slow).

        Large traces come back gzipped when `accepts_gzip`; small ones are left to the
        app's GZip middleware. `is_disconnected` is asked before a worker starts, so a
        client that has gone costs no trace. `mistake` and `sort_steps`: docs/LAB.md;
        `encoding`: `objects` (schema 1 or 2) or `columns` (docs/TRACE.md).
        """
        options: dict[str, Any] = {"mistake": mistake, "sort_steps": sort_steps}
        if encoding != "objects":
            options["encoding"] = encoding  # the usual job's key stays as it was
        job = Job("trace", source, granularity, tuple(options.items()))
        return await self.run(job, accepts_gzip, is_disconnected=is_disconnected)

    async def export(
        self,
        source: str,
        granularity: str,
        frame: int,
        accepts_gzip: bool = False,
        *,
        quiz: bool = False,
        is_disconnected: DisconnectCheck | None = None,
        mistake: str | None = None,
        sort_steps: bool = False,
        gradcheck: bool = False,
    ) -> EncodedTrace:
        """The standalone page as bytes, made in a worker (see `run`); `gradcheck` embeds
        the program's gradient check for the page's panel."""
        options = {
            "frame": frame,
            "quiz": quiz,
            "max_trace_bytes": self.settings.max_export_trace_bytes,
            "mistake": mistake,
            "sort_steps": sort_steps,
            "gradcheck": gradcheck,
        }
        job = Job("export", source, granularity, tuple(options.items()))
        return await self.run(job, accepts_gzip, is_disconnected=is_disconnected)

    async def run(
        self,
        job: Job,
        accepts_gzip: bool = False,
        *,
        is_disconnected: DisconnectCheck | None = None,
    ) -> EncodedTrace:
        """Do a job in the event loop or a thread if it is a cheap trace, gradient check or
        engine check (`place`), else in a worker process. A gradient check's own work is
        bounded by BACKPROP_MAX_GRADCHECK_WORK.

        An export always goes to a worker: even a small program's page is a quarter of
        a megabyte of templates, JSON and gzip.
        """
        if job.kind != "export":
            # The tree the estimate read is the one the engine traces: one parse.
            place, tree = self.place_and_tree(job.source, job.granularity, job.kind)
            if place == "loop":
                return self._run_in_loop(job, tree)
            if place == "thread":
                return await self._run_in_thread(job, tree)
        return await self._run_in_worker(job, accepts_gzip, is_disconnected)

    def place(self, source: str, granularity: str, kind: str = "trace") -> Place:
        """Where a job on `source` runs. Cheap (`is_cheap`) and at most `loop_max_nodes`
        nodes by the estimate: the event loop; cheap: a thread; else a worker. The source's
        length is checked first, so a long program is never parsed here."""
        return self.place_and_tree(source, granularity, kind)[0]

    def place_and_tree(
        self, source: str, granularity: str, kind: str = "trace"
    ) -> tuple[Place, ast.Module | None]:
        """`place`, and the syntax tree it read for a job that runs here (None for a
        worker's, which parses for itself in its own process)."""
        if len(source) > self.settings.inline_max_chars:
            return "worker", None
        estimate, tree = estimate_with_tree(source, granularity)
        most = self.settings.inline_max_nodes
        if kind == "gradcheck":
            most = self.settings.inline_max_gradcheck_nodes
        if estimate is None or estimate > most:
            return "worker", None
        if tree is None or names_recursion_limit(tree):
            # Its run may raise Python's recursion limit, the whole process's, to 121,000
            # (`engine.run._stack`): C code any other thread here runs that recursion
            # limit bounds (`json.loads` nested 120,000 deep) would pass its 8 MiB stack,
            # a segfault. So it runs in a worker, alone, as `engine.run` expects.
            return "worker", None
        return ("loop" if estimate <= self.settings.loop_max_nodes else "thread"), tree

    def is_cheap(self, source: str, granularity: str, kind: str = "trace") -> bool:
        """Short, straight-line, and at most `inline_max_nodes` nodes by the estimate
        (`inline_max_gradcheck_nodes` for a gradient check, which re-runs the graph)."""
        return self.place(source, granularity, kind) != "worker"

    def _run_in_loop(self, job: Job, tree: ast.Module | None = None) -> EncodedTrace:
        """Run the job here and now: its work is bounded by the estimate, so it holds the
        loop for a millisecond or two. Should it still outlast the time limit (a machine
        starved of CPU), the answer is the one a thread's job gets then."""
        limit = self.settings.trace_time_limit
        loop = asyncio.get_running_loop()
        started = loop.time()
        encoded = run_job(
            job._replace(time_limit=engine_time(limit)), self.settings.limits, False, tree
        )
        if loop.time() - started > limit:
            raise self._too_slow(limit)
        return encoded

    async def _run_in_thread(self, job: Job, tree: ast.Module | None = None) -> EncodedTrace:
        """Wait for a thread slot and run the job in it, all within the time limit; the
        engine is given what is left of it, so the thread stops on its own."""
        limit = self.settings.trace_time_limit
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        try:
            async with asyncio.timeout_at(deadline):
                await self._thread_slots.acquire()
        except TimeoutError:
            raise self._busy() from None
        job = job._replace(time_limit=engine_time(deadline - loop.time()))
        try:
            future = loop.run_in_executor(
                self._threads, run_job, job, self.settings.limits, False, tree
            )
        except BaseException:
            self._thread_slots.release()
            raise
        future.add_done_callback(lambda _: self._thread_slots.release())
        try:
            async with asyncio.timeout_at(deadline):
                return await asyncio.shield(future)
        except TimeoutError:
            # The thread finishes on its own (its work is bounded); the client is told now.
            raise self._too_slow(limit) from None

    async def _run_in_worker(
        self, job: Job, accepts_gzip: bool, is_disconnected: DisconnectCheck | None
    ) -> EncodedTrace:
        limit = self.settings.trace_time_limit
        deadline = asyncio.get_running_loop().time() + limit
        try:
            async with asyncio.timeout_at(deadline):
                worker = await self._idle.get()
        except TimeoutError:
            raise self._busy() from None
        if is_disconnected is not None:
            try:
                gone = await is_disconnected()
            except BaseException:
                self._idle.put_nowait(worker)
                raise
            if gone:
                self._idle.put_nowait(worker)
                raise ClientGone()
        left = deadline - asyncio.get_running_loop().time()
        job = job._replace(
            time_limit=engine_time(left), ends_at=time.monotonic() + left - ENGINE_TIME_MARGIN
        )
        try:
            async with asyncio.timeout_at(deadline):
                reply = await asyncio.to_thread(worker.call, job, accepts_gzip)
        except TimeoutError:
            self._replace(worker)
            raise self._too_slow(limit) from None
        except (EOFError, OSError):
            self._replace(worker)
            raise ServiceError(503, "A trace worker stopped unexpectedly; try again.") from None
        except BaseException:
            # Cancelled mid-trace: the pipe may still receive this trace's reply.
            self._replace(worker)
            raise
        self._idle.put_nowait(worker)
        return unpack_reply(reply)

    @staticmethod
    def _busy() -> ServiceError:
        return ServiceError(
            503,
            "The server is busy tracing other programs; try again in a moment.",
            {"Retry-After": "1"},
        )

    @staticmethod
    def _too_slow(limit: float) -> ServiceError:
        # Retry-After: the program may fit once the server is less busy.
        return ServiceError(
            503,
            f"Tracing did not finish within the {limit:g} s time limit "
            "(BACKPROP_TRACE_TIME_LIMIT); try a smaller program.",
            {"Retry-After": "1"},
        )

    async def _add_worker(self) -> None:
        worker = Worker(self._context, self.settings.limits)
        self._workers.add(worker)
        await asyncio.to_thread(worker.wait_ready)
        self._idle.put_nowait(worker)

    def _replace(self, worker: Worker) -> None:
        worker.kill()
        self._workers.discard(worker)
        # The newcomer joins the idle queue once ready, so no request waits on its start.
        task = asyncio.create_task(self._add_worker())
        self._starting.add(task)
        task.add_done_callback(self._forget_start)

    def _forget_start(self, task: asyncio.Task[None]) -> None:
        self._starting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("a replacement trace worker failed to start", exc_info=task.exception())


# The engine stops this much before the request's deadline, so that its own answer
# ("the program ran for too long", a 400 naming the limit) arrives before the pool's.
ENGINE_TIME_MARGIN = 0.15


def engine_time(remaining: float) -> float:
    """Seconds the engine may run when `remaining` are left of a request's time limit."""
    return max(MIN_ENGINE_TIME, remaining - ENGINE_TIME_MARGIN)


def unpack_reply(reply: Reply) -> EncodedTrace:
    """A worker's reply as a result, or the error it stands for."""
    match reply:
        case ("ok", EncodedTrace() as encoded):
            return encoded
        case ("error", (str() as message, line, column)):
            raise EngineError(message, line, column)
        case _:
            raise RuntimeError(f"a trace worker failed:\n{reply[1]}")
