"""What a thread or worker process does with a job (app/worker.py): the bytes, the ETag,
gzip for large answers, the export page, and a worker process's loop of replies."""

from __future__ import annotations

import gc
import gzip
import hashlib
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection

import orjson
import pytest

from backprop_animator.app.export import json_block, standalone_title
from backprop_animator.app.worker import (
    GZIP_MIN_BYTES,
    READY,
    EncodedTrace,
    Job,
    encode_export,
    encode_gradcheck,
    encode_json,
    encode_trace,
    run_job,
    serve_traces,
)
from backprop_animator.engine import EngineError, Limits, gradcheck_source, trace_source

SMALL = "a = Value(3.0)\nb = a + a\nb.backward()\n"
PARABOLA = "x = Value(3.0)\nf = 3*x**2 - 4*x + 5\n"


def weak_etag(body: bytes) -> str:
    return f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'


def test_a_trace_is_the_engine_s_trace_as_compact_json_with_a_hash_of_it() -> None:
    encoded = encode_trace(SMALL, "packed", Limits())

    assert encoded.body == orjson.dumps(trace_source(SMALL))
    assert encoded.etag == weak_etag(encoded.body)
    assert not encoded.gzipped


def test_the_same_program_gives_the_same_bytes_and_another_gives_another_etag() -> None:
    first = encode_trace(SMALL, "packed", Limits())

    assert encode_trace(SMALL, "packed", Limits()) == first
    assert encode_trace(SMALL, "expanded", Limits()).etag != first.etag
    assert encode_trace(SMALL, "packed", Limits(), sort_steps=True).etag != first.etag


def test_lab_options_reach_the_engine() -> None:
    encoded = encode_trace(SMALL, "packed", Limits(), mistake="assign", sort_steps=True)

    assert orjson.loads(encoded.body) == trace_source(SMALL, mistake="assign", sort_steps=True)


def test_small_answers_stay_plain_even_when_gzip_is_allowed() -> None:
    encoded = encode_json({"a": 1}, gzip_large=True)

    assert (encoded.body, encoded.gzipped) == (b'{"a":1}', False)


def test_large_answers_are_gzipped_only_when_allowed_and_keep_the_plain_etag() -> None:
    answer = {"text": "x" * GZIP_MIN_BYTES}
    plain = encode_json(answer)
    zipped = encode_json(answer, gzip_large=True)

    assert not plain.gzipped and zipped.gzipped
    assert gzip.decompress(zipped.body) == plain.body
    assert zipped.etag == plain.etag == weak_etag(plain.body)


def test_a_string_json_cannot_hold_is_cleaned_rather_than_refused() -> None:
    encoded = encode_json({"label": "x\ud800"})

    assert orjson.loads(encoded.body) == {"label": "x\ufffd"}


def test_a_gradient_check_is_the_engine_s_check_as_json() -> None:
    encoded = encode_gradcheck(PARABOLA, "packed", Limits(), h=(1e-3,), leaves=("x",))

    assert orjson.loads(encoded.body) == gradcheck_source(PARABOLA, h=[1e-3], leaves=["x"])


def test_an_export_is_a_whole_page_holding_the_trace() -> None:
    page = encode_export(SMALL, "packed", Limits(), frame=2)

    document = page.body.decode("utf-8")
    assert document.startswith("<!doctype html>")
    assert f"<title>{standalone_title(SMALL)}</title>" in document
    trace = json_block(trace_source(SMALL))
    assert f'<script type="application/json" id="backprop-trace">{trace}</script>' in document
    assert page.etag == weak_etag(page.body)


def test_an_export_is_gzipped_when_asked() -> None:
    plain = encode_export(SMALL, "packed", Limits())
    zipped = encode_export(SMALL, "packed", Limits(), gzip_page=True)

    assert zipped.gzipped and gzip.decompress(zipped.body) == plain.body


def test_an_export_over_its_trace_budget_is_refused_naming_the_variable() -> None:
    size = len(encode_trace(SMALL, "packed", Limits()).body)

    encode_export(SMALL, "packed", Limits(), max_trace_bytes=size)
    with pytest.raises(EngineError, match="BACKPROP_MAX_EXPORT_BYTES") as caught:
        encode_export(SMALL, "packed", Limits(), max_trace_bytes=size - 1)
    assert f"{size:,} bytes of trace" in caught.value.message


def test_a_job_run_on_what_is_left_of_its_limit_names_the_limit_the_server_was_set_to() -> None:
    # A request that waited for a worker runs on what is left of its time limit, less a
    # margin (`Job.time_limit`): the learner was told "the limit is 1.64987 s" where the
    # server's limit is 2.5 s.
    endless = "i = 0\nwhile True:\n    i += 1\n"
    with pytest.raises(EngineError) as caught:
        run_job(Job("trace", endless, "packed", time_limit=0.2), Limits(time_limit=2.5))
    assert "the limit is 2.5 s; set BACKPROP_TRACE_TIME_LIMIT" in caught.value.message
    assert caught.value.line in (2, 3)  # the loop turn or its body, as the clock falls
    with pytest.raises(EngineError) as caught:
        trace_source(endless, limits=Limits(time_limit=0.2))
    assert "the limit is 0.2 s;" in caught.value.message


@pytest.mark.parametrize(
    ("job", "direct"),
    [
        (
            Job("trace", SMALL, "expanded", (("sort_steps", True),)),
            lambda: encode_trace(SMALL, "expanded", Limits(), sort_steps=True),
        ),
        (
            Job("gradcheck", PARABOLA, "packed", (("scheme", "central"),)),
            lambda: encode_gradcheck(PARABOLA, "packed", Limits(), scheme="central"),
        ),
        (
            Job("export", SMALL, "packed", (("frame", 1),)),
            lambda: encode_export(SMALL, "packed", Limits(), frame=1),
        ),
    ],
    ids=["trace", "gradcheck", "export"],
)
def test_a_job_runs_by_its_kind_with_its_options(job: Job, direct: object) -> None:
    assert callable(direct)
    assert run_job(job, Limits()) == direct()


@pytest.fixture
def worker() -> Iterator[Connection]:
    """`serve_traces` in a process of its own, as the worker pool starts it."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=serve_traces, args=(theirs, Limits()), daemon=True)
    process.start()
    theirs.close()
    try:
        assert ours.poll(60), "the worker process did not start"
        assert ours.recv() == READY
        yield ours
    finally:
        ours.close()
        process.join(10)
        if process.is_alive():
            process.kill()
            process.join()
        assert process.exitcode == 0  # the loop ends when our end of the pipe closes


def ask(worker: Connection, job: Job) -> tuple[str, object]:
    worker.send((job, False))
    assert worker.poll(60), "the worker did not answer"
    reply: tuple[str, object] = worker.recv()
    return reply


def test_a_worker_process_answers_jobs_errors_and_bugs_in_turn(worker: Connection) -> None:
    assert ask(worker, Job("trace", SMALL)) == ("ok", encode_trace(SMALL, "packed", Limits()))

    assert ask(worker, Job("trace", "a = Value(1.0)\nb = a * w3\n")) == (
        "error",
        ("name 'w3' is not defined", 2, 9),
    )

    kind, details = ask(worker, Job("trace", SMALL, "packed", (("no_such_option", 1),)))
    assert kind == "crash"
    assert isinstance(details, str) and "TypeError" in details and "no_such_option" in details

    kind, encoded = ask(worker, Job("trace", SMALL))  # a crash does not end the loop
    assert kind == "ok" and isinstance(encoded, EncodedTrace)


def test_a_job_that_waited_in_the_pipe_stops_by_its_end_not_a_full_time_limit_later() -> None:
    # A worker still collecting its last job's garbage (or reading a long job from the
    # pipe) starts late; the pool's deadline does not move, so neither may the engine's.
    endless = "i = 0\nwhile True:\n    i += 1\n"
    started = time.monotonic()
    with pytest.raises(EngineError) as caught:
        run_job(
            Job("trace", endless, time_limit=20.0, ends_at=started + 0.3),
            Limits(time_limit=2.5),
        )
    assert time.monotonic() - started < 5
    assert "the limit is 2.5 s; set BACKPROP_TRACE_TIME_LIMIT" in caught.value.message
    with pytest.raises(EngineError):  # an end already past still gives the engine a moment
        run_job(Job("trace", endless, time_limit=20.0, ends_at=started - 60), Limits())
    assert time.monotonic() - started < 10


class Pipe:
    """Our end of a worker's pipe, in this process: the jobs to send, what came back."""

    def __init__(self, jobs: list[Job], events: list[str]) -> None:
        self.jobs = jobs
        self.events = events

    def recv(self) -> tuple[Job, bool]:
        if not self.jobs:
            raise EOFError
        return self.jobs.pop(0), False

    def send(self, message: object) -> None:
        self.events.append(message if message == READY else message[0])  # type: ignore[index]


def test_a_worker_frees_each_job_s_garbage_after_sending_its_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Left to the collector's own timing, a job's cycles (a million objects of a long
    # program's compiled closures) were walked in the middle of a later job: half a
    # second no clock of the engine could stop, and the pool's 503 in place of its 400.
    events: list[str] = []
    monkeypatch.setattr(os, "nice", lambda _: 0)
    monkeypatch.setattr(gc, "freeze", lambda: events.append("freeze"))

    def collect(*_: object) -> int:
        events.append("collect")
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    jobs = [
        Job("trace", SMALL),
        Job("trace", "b = a * w3\n"),
        Job("trace", SMALL, "packed", (("no_such_option", 1),)),
    ]
    with monkeypatch.context() as patched:
        patched.setattr(signal, "signal", lambda *_: None)
        serve_traces(Pipe(jobs, events), Limits())  # type: ignore[arg-type]
    assert events == ["freeze", READY, "ok", "collect", "error", "collect", "crash", "collect"]
