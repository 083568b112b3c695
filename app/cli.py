"""The `backprop-animator` command: `serve` the app, `trace` a program to JSON.

`trace` prints exactly the bytes `POST /api/trace` answers. Bad input exits with
status 2 and the error on stderr, like a usage error. SOURCE is the program text
itself, or `-` to read it from standard input. Each command imports what it needs
when it runs, so `trace` and `--version` do not load the web stack.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from app import __version__

EXIT_BAD_INPUT = 2
# h11 (uvicorn's default HTTP parser) drops connections whose request line and headers
# pass its buffer; a larger one lets the app refuse long URLs with a 414 in its own
# error shape instead.
MAX_REQUEST_HEAD_BYTES = 1024 * 1024


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.settings import Settings

    # Each uvicorn worker has its own trace workers: share the cores between them.
    cores = os.cpu_count() or 1
    os.environ.setdefault("BACKPROP_TRACE_WORKERS", str(max(1, cores // args.workers)))
    try:
        Settings.from_env()
    except ValueError as error:
        return fail(error)
    uvicorn.run(
        "app.main:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
    )
    return 0


def trace(args: argparse.Namespace) -> int:
    from app.worker import encode_trace
    from engine import EngineError, Limits

    try:
        limits = Limits.from_env()
    except ValueError as error:
        return fail(error)
    source = sys.stdin.read() if args.source == "-" else args.source
    try:
        encoded = encode_trace(source, args.granularity, limits)
    except EngineError as error:
        return fail(error)
    sys.stdout.buffer.write(encoded.body + b"\n")
    return 0


def fail(error: Exception) -> int:
    print(f"backprop-animator: {error}", file=sys.stderr)
    return EXIT_BAD_INPUT


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="backprop-animator",
        description="Scrub through backpropagation step by step.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve_parser = commands.add_parser("serve", help="run the web app")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--workers", type=positive_int, default=1, metavar="N")
    serve_parser.set_defaults(run=serve)

    trace_parser = commands.add_parser("trace", help="print the trace of a program as JSON")
    trace_parser.add_argument("source", metavar="SOURCE", help="the program, or - for stdin")
    trace_parser.add_argument("--granularity", choices=["packed", "expanded"], default="packed")
    trace_parser.set_defaults(run=trace)
    return parser


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    return status
