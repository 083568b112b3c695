"""Trace a program or check its gradients and encode the answer as JSON bytes, or render
its standalone page, in this process or a worker process.

`encode_trace` is shared by the server's threads and worker processes and by the
CLI, so all three give the same bytes for the same program. `encode_export` renders
the page `GET /export` downloads, so that heavy work (tracing, rendering, gzip) never
happens in the server's process. `serve_traces` is a worker process's main loop.
This module's own imports are the engine, orjson and the standard library, but a
worker process also imports the `backprop_animator` package around it, whose
`animate` brings the notebook API, the export module and Jinja; the page's templates
are read on the first export. Not here: scheduling and time limits (`app.worker_pool`).
"""

from __future__ import annotations

import ast
import dataclasses
import gc
import gzip
import hashlib
import os
import signal
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any, Literal, NamedTuple

import orjson

from backprop_animator.engine import (
    EngineError,
    Limits,
    enginecheck_source,
    gradcheck_source,
    trace_columns,
    trace_source,
    trace_with_check,
)
from backprop_animator.engine.trace.text import clean_strings


class EncodedTrace(NamedTuple):
    body: bytes
    etag: str
    gzipped: bool = False


class Job(NamedTuple):
    """What a thread or worker process is asked to do: trace a program, render its
    standalone page (`kind="export"`), check its gradients (`kind="gradcheck"`) or its
    own engine (`kind="enginecheck"`);
    `options` are that call's keyword arguments (`mistake`, `sort_steps`, `encoding` for a trace;
    those, `gradcheck`, `frame` and `max_trace_bytes` for an export; `scheme`, `h`,
    `leaves`, `mistake` for a gradient check), as pairs so a job pickles and compares
    by value.

    Example: `Job("export", "a = Value(3.0); a + a", "packed", (("frame", 2),))`.
    """

    kind: Literal["trace", "export", "gradcheck", "enginecheck"]
    source: str
    granularity: str = "packed"
    options: tuple[tuple[str, Any], ...] = ()
    # Seconds the engine may run for this job (what is left of the request's time
    # limit once it has waited for a thread or a worker); None: the limits' own.
    time_limit: float | None = None
    # For a worker process: the `time.monotonic()` (one clock for every process of the
    # machine) the engine must stop by. The time the job spends in the pipe, and behind
    # the worker's collection of its last job's garbage, comes off `time_limit`.
    ends_at: float | None = None


# What a worker sends back: the trace, an engine error (message, line, column), or
# the traceback of an engine bug.
Reply = (
    tuple[Literal["ok"], EncodedTrace]
    | tuple[Literal["error"], tuple[str, int | None, int | None]]
    | tuple[Literal["crash"], str]
)


# A worker's first message, once its imports are done.
READY = "ready"
# The least time the engine is given for a job, however little of the request's is left:
# enough for it to answer with its own error rather than none.
MIN_ENGINE_TIME = 0.05
# How much lower a worker's scheduling priority is than the server's (POSIX nice).
WORKER_NICENESS = 5


# Large traces are compressed where they are encoded, off the server's process; level 1
# is five times faster than 9 on trace JSON and only a quarter bigger.
GZIP_MIN_BYTES = 64 * 1024
GZIP_LEVEL = 1


def encode_trace(
    source: str,
    granularity: str,
    limits: Limits,
    gzip_large: bool = False,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
    encoding: str = "objects",
    tree: ast.Module | None = None,
) -> EncodedTrace:
    """The trace as compact, strict JSON (no NaN), and an ETag that hashes those bytes;
    gzipped if asked and large. `mistake` and `sort_steps`: docs/LAB.md; `encoding`
    `"columns"`: the page's encoding (`engine.trace.columns`, docs/TRACE.md); `tree`: the
    program parsed already (`engine.trace_source`).

    Example: `encode_trace("a = Value(3.0); a + a", "packed", Limits()).body`
    starts with `b'{"schema":1,'`.
    """
    trace = (trace_columns if encoding == "columns" else trace_source)(
        source, granularity, limits, mistake=mistake, sort_steps=sort_steps, tree=tree
    )
    return encode_json(trace, gzip_large)


def encode_gradcheck(
    source: str,
    granularity: str,
    limits: Limits,
    gzip_large: bool = False,
    *,
    scheme: str = "forward",
    h: tuple[float, ...] | None = None,
    leaves: tuple[str, ...] | None = None,
    mistake: str | None = None,
    pass_index: int = 0,
    tree: ast.Module | None = None,
) -> EncodedTrace:
    """The gradient check (`engine.gradcheck_source`) as JSON bytes, like a trace."""
    check = gradcheck_source(
        source,
        granularity,
        limits,
        scheme=scheme,
        h=h,
        leaves=leaves,
        mistake=mistake,
        pass_index=pass_index,
        tree=tree,
    )
    return encode_json(check, gzip_large)


def dump_json(answer: dict[str, Any]) -> bytes:
    """An engine answer as compact, strict JSON bytes.

    orjson: the same compact JSON as the standard library, about ten times faster,
    which is most of a large trace's time in this process. The engine guarantees finite
    numbers and valid UTF-8; should a string still hold a lone surrogate (which orjson
    refuses), every string is cleaned rather than the request failing.
    """
    try:
        return orjson.dumps(answer)
    except orjson.JSONEncodeError:
        return orjson.dumps(clean_strings(answer))


def encode_json(trace: dict[str, Any], gzip_large: bool = False) -> EncodedTrace:
    """An engine answer as compact JSON bytes with their ETag, gzipped if asked and large."""
    body = dump_json(trace)
    # Weak: the same trace may travel gzipped or not.
    etag = f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'
    if gzip_large and len(body) >= GZIP_MIN_BYTES:
        return EncodedTrace(gzip.compress(body, GZIP_LEVEL, mtime=0), etag, gzipped=True)
    return EncodedTrace(body, etag)


def encode_export(
    source: str,
    granularity: str,
    limits: Limits,
    gzip_page: bool = False,
    *,
    frame: int = 0,
    quiz: bool = False,
    max_trace_bytes: int | None = None,
    mistake: str | None = None,
    sort_steps: bool = False,
    gradcheck: bool = False,
) -> EncodedTrace:
    """The standalone page of `source` as UTF-8 bytes (gzipped if `gzip_page`).

    A trace whose JSON passes `max_trace_bytes` is refused before the page is
    rendered: the page is that JSON plus about 230 kB of player. `gradcheck` embeds
    the program's gradient check for the page's panel.
    """
    from backprop_animator.app.export import render_standalone, standalone_title
    from backprop_animator.engine.rules import rule_sources

    trace, check = trace_with_check(
        source, granularity, limits, mistake=mistake, sort_steps=sort_steps, gradcheck=gradcheck
    )
    size = len(dump_json(trace))
    if max_trace_bytes is not None and size > max_trace_bytes:
        raise EngineError(
            f"the exported page would hold {size:,} bytes of trace (the limit is "
            f"{max_trace_bytes:,}; set BACKPROP_MAX_EXPORT_BYTES to change it); "
            "export a smaller program"
        )
    document = render_standalone(
        trace,
        rule_sources(),
        title=standalone_title(source),
        frame=frame,
        quiz=quiz,
        mistake=mistake,
        sort_steps=sort_steps,
        gradcheck=check,
    ).encode("utf-8")
    etag = f'W/"{hashlib.sha256(document).hexdigest()[:32]}"'
    if gzip_page:
        return EncodedTrace(gzip.compress(document, GZIP_LEVEL, mtime=0), etag, gzipped=True)
    return EncodedTrace(document, etag)


def run_job(
    job: Job, limits: Limits, gzip_large: bool = False, tree: ast.Module | None = None
) -> EncodedTrace:
    """Do `job` and encode its answer (see `encode_trace`, `encode_export`,
    `encode_gradcheck`); `tree` is its program parsed already, in this process."""
    options = dict(job.options)
    if job.ends_at is not None and job.time_limit is not None:
        left = max(MIN_ENGINE_TIME, job.ends_at - time.monotonic())
        job = job._replace(time_limit=min(job.time_limit, left))
    if job.time_limit is not None:
        said = limits.said_time_limit or limits.time_limit  # (the limit the server was set to)
        limits = dataclasses.replace(limits, time_limit=job.time_limit, said_time_limit=said)
    if job.kind == "export":
        return encode_export(job.source, job.granularity, limits, gzip_large, **options)
    if job.kind == "gradcheck":
        return encode_gradcheck(
            job.source, job.granularity, limits, gzip_large, **options, tree=tree
        )
    if job.kind == "enginecheck":
        check = enginecheck_source(job.source, job.granularity, limits, tree=tree)
        return encode_json(check, gzip_large)
    return encode_trace(job.source, job.granularity, limits, gzip_large, **options, tree=tree)


def serve_traces(connection: Connection, limits: Limits) -> None:
    """Answer `(job, gzip_large)` requests on `connection` until it closes."""
    # Ctrl-C in a terminal reaches the whole process group; the server stops workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Heavy traces yield the cores to the server process, which answers small traces
    # and every other request: they get slower, the small ones stay fast.
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    # What the imports made lives as long as the worker: kept out of every collection.
    gc.freeze()
    connection.send(READY)
    while True:
        try:
            job, gzip_large = connection.recv()
        except EOFError:
            return
        try:
            connection.send(("ok", run_job(job, limits, gzip_large)))
        except EngineError as error:
            # Answered before the run it stopped is freed: the error's traceback holds the
            # run, and freeing a long program's compiled closures takes a tenth of a
            # second, which the request's deadline does not leave.
            connection.send(("error", (error.message, error.line, error.column)))
        except Exception:
            connection.send(("crash", traceback.format_exc()))
        collect_between_jobs()


def collect_between_jobs() -> None:
    """Free the cycles a finished job left (its program's closures and frames), once
    its answer is sent. Left to the collector's own timing, they were walked in a full
    collection in the middle of a later job: 1.2 million objects, half a second no clock
    of the engine could interrupt, so that a hostile program's 400 became the pool's 503.
    A job sent meanwhile waits in the pipe; its `ends_at` counts that time."""
    gc.collect()
