"""`logging`'s handlers, formatters and loggers are told apart by what they are, never by
a name a program chooses (`getLogger('Formatter')`), and what a program puts in a
logger's `handlers` list is refused with words, never a host error's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import printed_lines, run_in_cpython_with_stderr

END = "\nv = Value(1.0)\nv.backward()\n"


@pytest.mark.parametrize(
    "statement",
    [
        # A logger named as a formatter or a handler is a logger, not one of them.
        "h = logging.StreamHandler()\nh.setFormatter(logging.getLogger('Formatter'))",
        "lg.addHandler(logging.getLogger('StreamHandler'))",
        "lg.addHandler(logging.getLogger('NullHandler'))",
        "logging.basicConfig(handlers=[logging.getLogger('StreamHandler')])",
    ],
)
def test_a_logger_named_as_a_handler_or_formatter_is_none_of_them(statement: str) -> None:
    source = f"import logging\nlg = logging.getLogger('a')\n{statement}\nlg.warning('x')\n"
    with pytest.raises(EngineError, match=r"logging\.Formatter here|is a logging\.StreamHandler"):
        trace_source(source + END)


@pytest.mark.parametrize(
    "item", ["3", "logging", "lg", "logging.Formatter('%(message)s')", "logging.getLogger('x')"]
)
def test_what_a_program_puts_in_a_loggers_handlers_is_refused_with_words(item: str) -> None:
    source = f"import logging\nlg = logging.getLogger('a')\nlg.handlers.append({item})\n"
    with pytest.raises(EngineError) as raised:
        trace_source(source + "lg.warning('x')\n" + END)
    message = str(raised.value)
    assert "line 4" in message and "is no handler" in message
    assert "operation failed" not in message and "members" not in message


def test_handlers_and_formatters_print_as_cpythons() -> None:
    body = (
        "import logging, io, sys\nh = logging.StreamHandler()\n"
        "print(h, logging.StreamHandler(sys.stdout), logging.StreamHandler(io.StringIO()))\n"
        "h.setLevel(logging.ERROR)\nn = logging.NullHandler()\nn.setLevel(15)\n"
        "print([h, n], repr(h))\n"
    )
    source = body + END
    assert printed_lines(trace_source(source)) == run_in_cpython_with_stderr(source)
    formatter = "import logging\nprint(logging.Formatter('%(message)s'))\n" + END
    assert printed_lines(trace_source(formatter)) == ["<logging.Formatter object>"]
    assert re.fullmatch(
        r"<logging.Formatter object at 0x[0-9a-f]+>", run_in_cpython_with_stderr(formatter)[0]
    )


WARN = """
import logging
lg = logging.getLogger('lib')
for i in range(2):
    lg.warn('old %d', i)
logging.warn('module')
import warnings
warnings.simplefilter('ignore')
lg.warn('quiet')
"""


def test_warn_is_cpythons_deprecated_alias_with_its_warning(tmp_path: Path) -> None:
    """`logger.warn` (and `logging.warn`) logs as `warning` after CPython's
    DeprecationWarning, shown as a warning is (once per line, through the filters)."""
    script = tmp_path / "main.py"
    script.write_text(WARN)
    run = subprocess.run(
        [sys.executable, "-u", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        check=True,
        env={"PATH": os.environ.get("PATH", "")},
    )
    theirs = run.stdout.replace(str(script), "/program/main.py").splitlines()
    assert "DeprecationWarning: The 'warn' method is deprecated" in theirs[0]
    assert printed_lines(trace_source(WARN + END)) == theirs


def test_a_message_whose_str_raises_is_refused_naming_its_exception_once() -> None:
    # CPython prints '--- Logging error ---' and a traceback and goes on: refused here,
    # with the program's exception said as CPython says it (it was "ValueError: ValueError").
    source = (
        "import logging\nclass M:\n    def __str__(self):\n        raise ValueError('bad')\n"
        "try:\n    logging.warning(M())\nexcept ValueError:\n    print('never caught')\n"
    )
    with pytest.raises(EngineError, match=re.escape("could not be formatted (ValueError: bad)")):
        trace_source(source + END)


@pytest.mark.parametrize("call", ["addHandler", "removeHandler"])
def test_adding_a_handler_charges_for_the_handlers_it_looks_at(call: str) -> None:
    # Each call walks the logger's handlers (is it there already?): 100 calls on 20,000
    # handlers are 200,000 steps (they were 100, and a million such calls ran 20 s).
    source = (
        "import logging\nlg = logging.getLogger('a')\nh = logging.NullHandler()\n"
        f"lg.handlers.extend([h] * 20000)\nfor i in range(100):\n    lg.{call}(h)\n"
        "    lg.handlers.append(h)\n"
    )
    trace_source(source.replace("range(100)", "range(1)") + END, limits=Limits(max_steps=100_000))
    with pytest.raises(EngineError, match="BACKPROP_MAX_STEPS"):
        trace_source(source + END, limits=Limits(max_steps=100_000))


def test_remove_handler_removes_its_first_place_only_as_cpythons() -> None:
    body = (
        "import logging\nlg = logging.getLogger('a')\nh = logging.StreamHandler()\n"
        "lg.handlers.extend([h, h])\nlg.removeHandler(h)\nprint(len(lg.handlers))\n"
        "lg.warning('once')\n"
    )
    source = body + END
    assert printed_lines(trace_source(source)) == run_in_cpython_with_stderr(source)


def test_a_loggers_handlers_may_be_replaced_by_a_list_as_cpythons() -> None:
    # `logging.getLogger().handlers = []` (a notebook's reset before `basicConfig`) was
    # refused as a write of the interpreter's own table.
    body = (
        "import logging\nlogging.basicConfig(format='first %(message)s')\n"
        "logging.warning('a')\nlogging.getLogger().handlers = []\n"
        "logging.basicConfig(format='second %(message)s')\nlogging.warning('b')\n"
        "mine = []\nlg = logging.getLogger('x')\nlg.handlers = mine\n"
        "lg.addHandler(logging.NullHandler())\nprint(len(mine), lg.handlers is mine)\n"
    )
    source = body + END
    assert printed_lines(trace_source(source)) == run_in_cpython_with_stderr(source)
    with pytest.raises(EngineError, match="handlers is set to a list here"):
        trace_source("import logging\nlogging.getLogger().handlers = ()\n" + END)


@pytest.mark.parametrize(
    ("made", "kind"),
    [("logging.StreamHandler()", "StreamHandler"), ("logging.Formatter()", "Formatter")],
)
def test_a_copy_of_a_handler_or_formatter_is_refused_in_words_not_as_a_module(
    made: str, kind: str
) -> None:
    # CPython copies them; here they were "cannot pickle 'module' object", the words of
    # the interpreter's own table they are kept in.
    source = f"import logging, copy\nx = copy.copy({made})\n" + END
    with pytest.raises(EngineError, match=re.escape(f"copying a logging.{kind} is not")):
        trace_source(source)


@pytest.mark.parametrize("name", ["os", "micrograd", "a"])
def test_a_loggers_missing_attribute_is_refused_as_a_loggers_whatever_its_name(
    name: str,
) -> None:
    # A logger named `os` was refused with os's words (it reaches the machine's files),
    # one named `micrograd` with micrograd's catchable AttributeError.
    source = (
        f"import logging\nlg = logging.getLogger({name!r})\ntry:\n    x = lg.listdir\n"
        "except AttributeError:\n    print('caught')\n"
    )
    with pytest.raises(EngineError, match=re.escape(f"the logger '{name}' has no attribute")):
        trace_source(source + END)


def test_a_write_to_a_null_handler_is_refused_as_a_handlers() -> None:
    source = "import logging\nh = logging.NullHandler()\nh.level = 10\n" + END
    with pytest.raises(EngineError, match=re.escape("setting .level of a NullHandler is not")):
        trace_source(source)
