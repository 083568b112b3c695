"""Trace a program (or check its gradients) and encode the answer as JSON bytes, in this
process or a worker process.

`encode_trace` is shared by the server's threads and worker processes and by the
CLI, so all three give the same bytes for the same program. `serve_traces` is a
worker process's main loop. This module imports only the engine and the standard
library, so worker processes start quickly. Not here: scheduling and time limits
(`app.tracing`).
"""

from __future__ import annotations

import gzip
import hashlib
import signal
import traceback
from multiprocessing.connection import Connection
from typing import Any, Literal, NamedTuple

import orjson

from engine import EngineError, Limits, gradcheck_source, trace_source


class EncodedTrace(NamedTuple):
    body: bytes
    etag: str
    gzipped: bool = False


class Job(NamedTuple):
    """What a thread or worker process is asked to do: trace a program, or check its
    gradients (`kind="gradcheck"`); `options` are that call's keyword arguments
    (`mistake`, `sort_steps`; `scheme`, `h`, `leaves`), as sorted pairs so a job pickles
    and compares by value.

    Example: `Job("trace", "a = Value(3.0); a + a", "packed", (("mistake", "assign"),))`.
    """

    kind: Literal["trace", "gradcheck"]
    source: str
    granularity: str = "packed"
    options: tuple[tuple[str, Any], ...] = ()


# What a worker sends back: the trace, an engine error (message, line, column), or
# the traceback of an engine bug.
Reply = (
    tuple[Literal["ok"], EncodedTrace]
    | tuple[Literal["error"], tuple[str, int | None, int | None]]
    | tuple[Literal["crash"], str]
)


# A worker's first message, once its imports are done.
READY = "ready"


# Large traces are compressed where they are encoded, off the server's process; level 1
# is five times faster than 9 on trace JSON and only a quarter bigger.
GZIP_MIN_BYTES = 64 * 1024
GZIP_LEVEL = 1


def run_job(job: Job, limits: Limits, gzip_large: bool = False) -> EncodedTrace:
    """Do `job` and encode its answer (see `encode_trace`)."""
    options = dict(job.options)
    if job.kind == "gradcheck":
        return encode_json(gradcheck_source(job.source, job.granularity, limits, **options))
    return encode_trace(job.source, job.granularity, limits, gzip_large, **options)


def encode_trace(
    source: str,
    granularity: str,
    limits: Limits,
    gzip_large: bool = False,
    *,
    mistake: str | None = None,
    sort_steps: bool = False,
) -> EncodedTrace:
    """The trace as compact, strict JSON (no NaN), and an ETag that hashes those bytes;
    gzipped if asked and large.

    Example: `encode_trace("a = Value(3.0); a + a", "packed", Limits()).body`
    starts with `b'{"schema":1,'`.
    """
    trace = trace_source(source, granularity, limits, mistake=mistake, sort_steps=sort_steps)
    return encode_json(trace, gzip_large)


def encode_json(answer: dict[str, Any], gzip_large: bool = False) -> EncodedTrace:
    """An engine answer as compact JSON bytes with their ETag, gzipped if asked and large."""
    # orjson: the same compact JSON as the standard library, about ten times faster,
    # which is most of a large trace's time in this process. The engine guarantees
    # finite numbers, so strict JSON needs no further check.
    body = orjson.dumps(answer)
    # Weak: the same trace may travel gzipped or not.
    etag = f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'
    if gzip_large and len(body) >= GZIP_MIN_BYTES:
        return EncodedTrace(gzip.compress(body, GZIP_LEVEL, mtime=0), etag, gzipped=True)
    return EncodedTrace(body, etag)


def serve_traces(connection: Connection, limits: Limits) -> None:
    """Answer `(job, gzip_large)` requests on `connection` until it closes."""
    # Ctrl-C in a terminal reaches the whole process group; the server stops workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    connection.send(READY)
    while True:
        try:
            job, gzip_large = connection.recv()
        except EOFError:
            return
        reply: Reply
        try:
            reply = ("ok", run_job(job, limits, gzip_large))
        except EngineError as error:
            reply = ("error", (error.message, error.line, error.column))
        except Exception:
            reply = ("crash", traceback.format_exc())
        connection.send(reply)
