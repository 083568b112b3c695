"""The service's settings, read once from the environment at start-up.

The engine's limits come from `engine.Limits.from_env()`; the rest says how the
service spends its time: how many worker processes trace large programs, how long one
trace may take, which sources are small enough to trace in the server's own process
(in its event loop, or in a thread), and whether each request is logged.

Environment variables (unset or empty: the default):
- `BACKPROP_TRACE_WORKERS`: worker processes for large traces (default: the cores, at
  most 4; `serve --workers N` shares the cores between its N processes);
- `BACKPROP_TRACE_TIME_LIMIT`: seconds one trace may take, waiting included (1.8);
- `BACKPROP_MAX_EXPORT_BYTES`: the most trace JSON an exported page may hold;
- `BACKPROP_ACCESS_LOG`: `1` (or `true`, `yes`, `on`) logs a line per request, as
  `serve --access-log` does; off by default, since formatting and writing that line
  costs each request tens of microseconds, about a tenth of `/healthz` (more on a slow
  terminal; docs/PERFORMANCE.md, "HTTP: small requests").
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from backprop_animator.engine import Limits

# A JSON string can spend six bytes on one character (`\u00e9`); the rest is the
# envelope around the source.
BYTES_PER_SOURCE_CHAR = 6
BODY_ENVELOPE_BYTES = 1024


def default_trace_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 4))


@dataclass(frozen=True)
class Settings:
    limits: Limits = field(default_factory=Limits)
    # Worker processes for large traces (BACKPROP_TRACE_WORKERS).
    trace_workers: int = field(default_factory=default_trace_workers)
    # Seconds one trace may take, waiting for a worker included
    # (BACKPROP_TRACE_TIME_LIMIT); SPEC §4 promises an answer within 2 s.
    trace_time_limit: float = 1.8
    # Sources up to this many characters, and estimated to build at most this many
    # nodes (`app.work_estimate`), are traced in the server's process: they take a few
    # milliseconds, less than handing them to a process would.
    inline_max_chars: int = 2_000
    inline_max_nodes: int = 400
    # Those estimated at most this many nodes are traced in the event loop itself,
    # without a thread hand-off (the article's neuron: 24). A straight-line program of
    # 100 nodes takes about 1.5 ms at worst on a 2-core machine (an expanded `tanh`
    # chain with a bug-lab mistake), so the loop never waits longer than that on one;
    # larger cheap ones go to a thread (`inline_threads`), where the loop keeps its
    # turns at the interpreter lock.
    loop_max_nodes: int = 100
    # A gradient check re-runs its graph once per leaf and h, so only graphs this small
    # are checked in a thread; the rest go to a worker like large traces.
    inline_max_gradcheck_nodes: int = 60
    # Threads that trace at once; the rest wait (within their time limit) rather than
    # crowd the event loop out of the GIL.
    inline_threads: int = 2
    # An export's trace JSON may weigh this much (BACKPROP_MAX_EXPORT_BYTES): the
    # default fits a 20,000-node graph, whose page takes about 1.2 s to make.
    max_export_trace_bytes: int = 12_000_000
    # GET /api/trace?source=... and page permalinks; long programs go by POST.
    max_query_bytes: int = 16_384
    # A log line per request (BACKPROP_ACCESS_LOG, or `serve --access-log`).
    access_log: bool = False

    @property
    def max_body_bytes(self) -> int:
        return self.limits.max_source_chars * BYTES_PER_SOURCE_CHAR + BODY_ENVELOPE_BYTES

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The limits and the variables above; unset ones keep their defaults.

        Example: `{"BACKPROP_TRACE_WORKERS": "1"}` -> `Settings(trace_workers=1, ...)`.
        """
        environ = os.environ if environ is None else environ
        workers = _read_number(environ, "BACKPROP_TRACE_WORKERS", int, minimum=1)
        time_limit = _read_number(environ, "BACKPROP_TRACE_TIME_LIMIT", float, minimum=0.1)
        export_bytes = _read_number(environ, "BACKPROP_MAX_EXPORT_BYTES", int, minimum=1)
        access_log = _read_switch(environ, "BACKPROP_ACCESS_LOG")
        return cls(
            limits=Limits.from_env(environ),
            trace_workers=default_trace_workers() if workers is None else int(workers),
            trace_time_limit=cls.trace_time_limit if time_limit is None else time_limit,
            max_export_trace_bytes=(
                cls.max_export_trace_bytes if export_bytes is None else int(export_bytes)
            ),
            access_log=cls.access_log if access_log is None else access_log,
        )


def _read_number(
    environ: Mapping[str, str], name: str, kind: type[int] | type[float], minimum: float
) -> float | None:
    """`environ[name]` as a number of `kind`, at least `minimum`; None when unset.

    Example: `{"BACKPROP_TRACE_WORKERS": "0"}` -> ValueError naming the variable.
    """
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = kind(raw)
    except ValueError:
        value = None
    if value is None or not value >= minimum:
        what = "whole number" if kind is int else "number"
        raise ValueError(f"{name} must be a {what} of at least {minimum}, not {raw!r}")
    return value


SWITCH_WORDS = {"1": True, "true": True, "yes": True, "on": True}
SWITCH_WORDS |= {"0": False, "false": False, "no": False, "off": False}


def _read_switch(environ: Mapping[str, str], name: str) -> bool | None:
    """`environ[name]` as on or off; None when unset.

    Example: `{"BACKPROP_ACCESS_LOG": "yes"}` -> True; `"maybe"` -> ValueError naming it.
    """
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    if raw.lower() not in SWITCH_WORDS:
        raise ValueError(f"{name} must be 1 or 0 (true or false), not {raw!r}")
    return SWITCH_WORDS[raw.lower()]
