"""SPEC §15: how a program ends. An uncaught exception is a 400 with CPython's message,
line and call chain; `sys.exit()` ends the program as CPython's SystemExit does.
An exception raised with no words (`raise ValueError`, `raise Exception()`) ends
CPython's traceback with its class name alone, never `ValueError: ValueError`."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.cpython import printed_lines

RAISED = [
    ("raise Exception", "line 2, column 1: Exception"),
    ("raise ValueError()", "line 2, column 1: ValueError"),
    ("raise ValueError('')", "line 2, column 1: ValueError"),
    ("raise KeyError()", "line 2, column 1: KeyError"),
    ("class E(Exception):\n    pass\nraise E", "line 4, column 1: E"),
    ("def g():\n    raise NotImplementedError\ng()", "line 3, column 5: NotImplementedError"),
    ("raise ValueError('bad')", "line 2, column 1: ValueError: bad"),
]


@pytest.mark.parametrize(("statement", "message"), RAISED)
def test_an_exception_without_words_ends_with_its_class_alone(statement: str, message: str) -> None:
    with pytest.raises(EngineError) as raised:
        trace_source("def f(): pass\n" + statement)
    said = str(raised.value)
    assert said == message or said.startswith(message + " (in ")


def test_a_script_that_ends_with_sys_exit_runs_as_it_is() -> None:
    # SPEC §15: real code as people write it, `sys.exit(main())` included: the program
    # ends there (what CPython prints: `4.0`, then nothing more), `finally` blocks run,
    # `except Exception` does not catch it and `except SystemExit` does, as CPython's.
    script = (
        "import sys\nfrom micrograd.engine import Value\n"
        "def main():\n    a = Value(2.0)\n    b = a * a\n    b.backward()\n    print(a.grad)\n"
        "try:\n    sys.exit(4)\nexcept SystemExit as e:\n    print('caught', e.code)\n"
        "if __name__ == '__main__':\n"
        "    try:\n        sys.exit(main())\n"
        "    except Exception:\n        print('no Exception catches it')\n"
        "    finally:\n        print('finally')\n"
        "print('never')\n"
    )
    trace = trace_source(script)
    assert printed_lines(trace) == ["caught 4", "4.0", "finally"]
    assert len(trace["passes"]) == 1


@pytest.mark.parametrize(("status", "said"), [("1", "1"), ("'bye'", "bye"), ("2.5", "2.5")])
def test_sys_exit_with_an_error_status_is_a_400_saying_it(status: str, said: str) -> None:
    program = f"import sys\nv = Value(1.0) * 2\nv.backward()\nsys.exit({status})\n"
    with pytest.raises(EngineError, match=f"SystemExit: {said}"):
        trace_source(program)


def test_raise_system_exit_is_cpythons_and_ends_a_script_with_success() -> None:
    script = (
        "from micrograd.engine import Value\n"
        "def main():\n    a = Value(2.0)\n    b = a * a\n    b.backward()\n    print(a.grad)\n"
        "    return 0\n"
        "try:\n    raise SystemExit(5)\n"
        "except SystemExit as e:\n    print('caught', e.code, repr(e))\n"
        "try:\n    raise SystemExit\nexcept Exception:\n    print('no Exception catches it')\n"
        "except BaseException as e:\n"
        "    print(type(e).__name__, isinstance(e, Exception), e.code)\n"
        "if __name__ == '__main__':\n    raise SystemExit(main())\nprint('never')\n"
    )
    assert printed_lines(trace_source(script)) == [
        "caught 5 SystemExit(5)",
        "SystemExit False None",
        "4.0",
    ]


def test_raise_system_exit_with_an_error_status_is_a_400_saying_it() -> None:
    with pytest.raises(EngineError, match="SystemExit: 3"):
        trace_source("v = Value(1.0) * 2\nv.backward()\nraise SystemExit(3)\n")
