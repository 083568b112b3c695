"""The `backprop-animator` command: `serve` the app, `trace` a program to JSON,
`gradcheck` its gradients, `enginecheck` its own Value class, `export` it as one
standalone HTML file.

`trace` prints exactly the bytes `POST /api/trace` answers (`gradcheck`: those of
`POST /api/gradcheck`, `enginecheck`: those of `POST /api/enginecheck`); `export` writes
the same file `GET /export` downloads. Bad input exits with status 2 and the error on
stderr, like a usage error. SOURCE is the program text
itself, or `-` to read it from standard input. Each command imports what it needs
when it runs, so `trace` and `--version` do not load the web stack.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from backprop_animator.app import __version__
from backprop_animator.app.atomic_file import write_text_atomically

if TYPE_CHECKING:
    from backprop_animator.engine import Limits

EXIT_BAD_INPUT = 2


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from backprop_animator.app.http_timeouts import MAX_REQUEST_HEAD_BYTES, server_protocol
    from backprop_animator.app.settings import Settings

    # Each uvicorn worker has its own trace workers: share the cores between them.
    cores = os.cpu_count() or 1
    os.environ.setdefault("BACKPROP_TRACE_WORKERS", str(max(1, cores // args.workers)))
    try:
        settings = Settings.from_env()
    except ValueError as error:
        return fail(error)
    uvicorn.run(
        "backprop_animator.app.main:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        # httptools where installed, else h11 (whose own head limit this raises, so
        # the app can refuse long URLs with a 414 in its error shape); either way a
        # request's head must arrive within a few seconds (slow clients are closed).
        http=server_protocol(),
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
        # A line per request costs about a tenth of /healthz: off unless asked.
        access_log=args.access_log or settings.access_log,
    )
    return 0


def trace(args: argparse.Namespace) -> int:
    from backprop_animator.app.worker import encode_trace
    from backprop_animator.engine import EngineError

    try:
        source, limits = read_program(args)
        encoded = encode_trace(
            source,
            args.granularity,
            limits,
            mistake=args.mistake,
            sort_steps=args.sort_steps,
            encoding=args.encoding,
        )
    except (ValueError, EngineError) as error:
        return fail(error, args.source)
    return write_stdout(encoded.body + b"\n")


def gradcheck(args: argparse.Namespace) -> int:
    from backprop_animator.app.worker import encode_gradcheck
    from backprop_animator.engine import EngineError

    try:
        source, limits = read_program(args)
        encoded = encode_gradcheck(
            source,
            args.granularity,
            limits,
            scheme=args.scheme,
            h=None if args.h is None else tuple(args.h),
            leaves=None if args.leaves is None else tuple(args.leaves),
            mistake=args.mistake,
            pass_index=args.pass_index,
        )
    except (ValueError, EngineError) as error:
        return fail(error, args.source)
    return write_stdout(encoded.body + b"\n")


def enginecheck(args: argparse.Namespace) -> int:
    from backprop_animator.app.worker import Job, run_job
    from backprop_animator.engine import EngineError

    try:
        source, limits = read_program(args)
        encoded = run_job(Job("enginecheck", source, args.granularity), limits)
    except (ValueError, EngineError) as error:
        return fail(error, args.source)
    return write_stdout(encoded.body + b"\n")


def export(args: argparse.Namespace) -> int:
    from backprop_animator.app.export import render_standalone, standalone_title
    from backprop_animator.engine import EngineError, trace_with_check
    from backprop_animator.engine.rules import rule_sources

    try:
        source, limits = read_program(args)
        trace, check = trace_with_check(
            source,
            args.granularity,
            limits,
            mistake=args.mistake,
            sort_steps=args.sort_steps,
            gradcheck=args.gradcheck,
        )
    except (ValueError, EngineError) as error:
        return fail(error, args.source)
    document = render_standalone(
        trace,
        rule_sources(),
        title=args.title or standalone_title(source),
        frame=args.frame,
        theme=args.theme,
        quiz=args.quiz,
        mistake=args.mistake,
        sort_steps=args.sort_steps,
        gradcheck=check,
    )
    if args.output == "-":
        return write_stdout(document.encode("utf-8"))
    try:
        write_text_atomically(args.output, document)
    except (OSError, ValueError) as error:
        return fail(error)
    return 0


def read_program(args: argparse.Namespace) -> tuple[str, Limits]:
    """The program (`-` reads standard input) and the limits; ValueError for a bad limit,
    `EngineError` for a program past the source limit.

    Standard input is read only up to one character past the limit, so a huge input
    is refused without being held in memory.
    """
    from backprop_animator.engine import Limits

    limits = Limits.from_env()
    if args.source != "-":
        return args.source, limits
    if sys.stdin is None:
        raise ValueError("standard input is closed; pass the program as SOURCE instead of -")
    source = sys.stdin.read(limits.max_source_chars + 1)
    if source.startswith("\ufeff"):
        # A file saved with a UTF-8 byte order mark (Notepad's): CPython skips it reading a
        # program from a file or from its standard input, and so does this.
        source = source[1:] + sys.stdin.read(1)
    if len(source) > limits.max_source_chars:
        raise limits.exceeded(
            "max_source_chars",
            f"the program on standard input is longer than {limits.max_source_chars:,} characters",
        )
    return source, limits


def write_stdout(data: bytes) -> int:
    """Write to standard output; a closed or broken one is an error (status 2), not a crash."""
    if sys.stdout is None:
        return fail(OSError("standard output is closed; use -o FILE or redirect it"))
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    except (BrokenPipeError, ValueError) as error:
        # The reader went away (`| head`): point stdout at /dev/null so the
        # interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return fail(OSError(f"standard output was closed while writing ({error})"))
    return 0


def fail(error: Exception, source: str = "-") -> int:
    """The error on stderr, status 2. A SOURCE that failed and names a file that exists
    (`trace model.py`) was meant as that file: the message says how to pass it, since
    SOURCE is the program's text (SPEC §5) and a file is read only from `-`."""
    message = f"backprop-animator: {error}"
    if source != "-" and "\n" not in source and len(source) < 4096 and _is_file(source):
        message += (
            f"\n(SOURCE is the program's text, not a file name; to trace the file {source}, "
            f"pass - and redirect it: backprop-animator ... - < {source})"
        )
    print(message, file=sys.stderr)
    return EXIT_BAD_INPUT


def _is_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):  # a NUL or a surrogate in the name
        return False


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
    serve_parser.add_argument(
        "--access-log",
        action="store_true",
        help="log a line per request (default: off; also BACKPROP_ACCESS_LOG=1)",
    )
    serve_parser.set_defaults(run=serve)

    trace_parser = commands.add_parser("trace", help="print the trace of a program as JSON")
    trace_parser.add_argument("source", metavar="SOURCE", help="the program, or - for stdin")
    trace_parser.add_argument("--granularity", choices=["packed", "expanded"], default="packed")
    trace_parser.add_argument(
        "--encoding",
        choices=["objects", "columns"],
        default="objects",
        help="objects: the trace of SPEC §3; columns: the page's encoding (docs/TRACE.md)",
    )
    add_lab_options(trace_parser)
    trace_parser.set_defaults(run=trace)

    check_parser = commands.add_parser(
        "gradcheck", help="print each leaf's gradient against difference quotients, as JSON"
    )
    check_parser.add_argument("source", metavar="SOURCE", help="the program, or - for stdin")
    check_parser.add_argument("--granularity", choices=["packed", "expanded"], default="packed")
    check_parser.add_argument(
        "--scheme",
        choices=["forward", "central"],
        default="forward",
        help="forward: (f(x+h) - f(x))/h; central: (f(x+h) - f(x-h))/2h",
    )
    check_parser.add_argument(
        "--h", type=float, nargs="+", metavar="H", help="step sizes (default 1e-1 ... 1e-14)"
    )
    check_parser.add_argument(
        "--leaves", nargs="+", metavar="LABEL", help="check only these leaves (default: all)"
    )
    check_parser.add_argument("--mistake", choices=MISTAKE_CHOICES, help=MISTAKE_HELP)
    check_parser.add_argument(
        "--pass",
        dest="pass_index",
        type=non_negative_int,
        default=0,
        metavar="K",
        help="the backward pass to check (0-based; default 0)",
    )
    check_parser.set_defaults(run=gradcheck)

    engine_parser = commands.add_parser(
        "enginecheck",
        help="check the program's own Value class against a right engine, as JSON",
    )
    engine_parser.add_argument("source", metavar="SOURCE", help="the program, or - for stdin")
    engine_parser.add_argument("--granularity", choices=["packed", "expanded"], default="packed")
    engine_parser.set_defaults(run=enginecheck)

    export_parser = commands.add_parser(
        "export", help="write a standalone HTML page that plays the program offline"
    )
    export_parser.add_argument("source", metavar="SOURCE", help="the program, or - for stdin")
    export_parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE.html",
        help="where to write the page (- for stdout)",
    )
    export_parser.add_argument("--granularity", choices=["packed", "expanded"], default="packed")
    export_parser.add_argument(
        "--frame", type=non_negative_int, default=0, metavar="K", help="open at frame K (0-based)"
    )
    export_parser.add_argument("--theme", choices=["auto", "light", "dark"], default="auto")
    export_parser.add_argument("--title", help="the page title (default: from the program)")
    export_parser.add_argument(
        "--quiz", action="store_true", help="ask the learner for each gradient before showing it"
    )
    add_lab_options(export_parser)
    export_parser.add_argument(
        "--gradcheck", action="store_true", help="embed the gradient check and open its panel"
    )
    export_parser.set_defaults(run=export)

    from backprop_animator.app.lti.cli import add_commands as add_lti_commands

    add_lti_commands(commands)
    return parser


# The bug lab's mistakes (engine.lab.mistakes.MISTAKES, spelled out so --help needs no engine).
MISTAKE_CHOICES = ["assign", "append-first", "no-sort"]
MISTAKE_HELP = "run the engine made wrong: = for +=, append before the children, or no sort"


def add_lab_options(parser: argparse.ArgumentParser) -> None:
    """`--mistake` and `--sort-steps`, shared by `trace` and `export`."""
    parser.add_argument("--mistake", choices=MISTAKE_CHOICES, help=MISTAKE_HELP)
    parser.add_argument(
        "--sort-steps", action="store_true", help="show the sort call by call (visit/skip/append)"
    )


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    return status
