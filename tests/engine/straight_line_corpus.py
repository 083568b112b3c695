"""A fixed corpus of straight-line programs (SPEC §2), and a digest of what the engine
answers for each in every mode: the safety net that keeps their traces byte for byte
while the engine underneath them changes.

The programs come from a seeded generator: leaves made by assignment and by
`Value(..., label=...)`, the five operators with numbers on either side, unary minus,
every function as a call and as a method, augmented assignment, labels set afterwards,
tuple unpacking, imports, docstrings, `print`/`draw_dot` lines, one `backward()` or
none, and one program in four made wrong on purpose (an unknown name, a Value
exponent, a division by zero, a log of a negative number, an unsupported operator, a
second `backward()`...). Each is answered in six modes: packed, expanded, each bug-lab
mistake, sort steps, and a gradient check; the digest is the SHA-256 of the trace's
JSON, or of the error's message, line and column.

`python -m tests.engine.straight_line_corpus` writes the digests (only when a change
to the traces is meant); `tests/engine/test_straight_line_corpus.py` compares them.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from backprop_animator.engine import EngineError, gradcheck_source, trace_source

DIGESTS = Path(__file__).parent / "golden" / "straight-line-corpus.json"
PROGRAMS = 1000
MODES = ("packed", "expanded", "assign", "append-first", "no-sort", "sort_steps", "gradcheck")

_FUNCTIONS = ("tanh", "exp", "relu", "log", "sigmoid")
_NUMBERS = ("2", "0.5", "-1.5", "3e-1", "1", "2.0", "0", "10", "1e-3")
_EXPONENTS = ("2", "3", "-1", "0.5", "-2", "1.5", "0")
_MISTAKES = (
    "undefined",
    "value_exponent",
    "divide_zero",
    "log_negative",
    "floor_div",
    "two_backwards",
    "label_number",
    "unpack",
    "reserved",
    "method_args",
    "number_method",
    "no_result",
    "plain_result",
    "renamed_import",
    "not",
    "backward_args",
    "overflow",
    "bool",
)


def _expression(rng: random.Random, names: list[str], depth: int) -> str:
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(names) if rng.random() < 0.75 else rng.choice(_NUMBERS)
    kind = rng.randrange(6)
    inner = _expression(rng, names, depth - 1)
    positive = f"(({inner})**2 + 0.5)"  # keeps log, sqrt-like powers and / defined
    if kind <= 1:
        other = _expression(rng, names, depth - 1)
        op = rng.choice("+-*/")
        return f"({inner} {op} {positive if op == '/' and rng.random() < 0.9 else other})"
    if kind == 2:
        exponent = rng.choice(_EXPONENTS)
        return f"({positive if '.' in exponent or '-' in exponent else inner})**{exponent}"
    function = rng.choice(_FUNCTIONS)
    argument = positive if function == "log" else inner
    if function == "exp":
        argument = f"tanh({inner})"  # no overflow
    if kind == 3:
        return f"{function}({argument})"
    if kind == 4:
        return f"({argument} + {rng.choice(names)}).{function}()"
    return f"-{inner}" if rng.random() < 0.8 else f"+{inner}"


def program(index: int) -> str:
    """The corpus's program number `index`."""
    rng = random.Random(index)
    lines: list[str] = []
    if rng.random() < 0.2:
        lines.append("from micrograd.engine import Value")
    if rng.random() < 0.1:
        lines.append('"""A program of the corpus."""')
    names: list[str] = []
    for i in range(rng.randint(1, 4)):
        name = f"x{i}"
        value = rng.choice(("2.0", "-3.0", "0.5", "1", "-0.25", "0.0", "6.8813735870195432"))
        style = rng.randrange(3)
        if style == 0:
            lines.append(f"{name} = {value}")
        elif style == 1:
            lines.append(f"{name} = Value({value}, label='{name}')")
        else:
            lines.append(f"{name} = Value({value})")
            if rng.random() < 0.5:
                lines.append(f"{name}.label = '{name}'")
        names.append(name)
    if len(names) >= 2 and rng.random() < 0.2:
        lines.append(f"{names[0]}, {names[1]} = {names[1]}, {names[0]}")
    for i in range(rng.randint(1, 4)):
        expression = _expression(rng, names, rng.randint(1, 4))
        if i > 0 and rng.random() < 0.3:
            lines.append(f"{names[-1]} {rng.choice(['+=', '-=', '*=', '/='])} {expression}")
        else:
            lines.append(f"t{i} = {expression}")
            names.append(f"t{i}")
        if rng.random() < 0.1:
            lines.append(f"print({names[-1]})" if rng.random() < 0.5 else f"draw_dot({names[-1]})")
        if rng.random() < 0.15:
            lines.append(f"{names[-1]}.label = 'step {i}'")
    ending = rng.randrange(3)
    if ending == 0:
        lines.append(f"{names[-1]}.backward()")
    elif ending == 1:
        lines.append(names[-1])
    if index % 4 == 3:
        lines.insert(rng.randrange(len(lines) + 1), _mistake(rng, names))
    return "\n".join(lines) + "\n"


def _mistake(rng: random.Random, names: list[str]) -> str:
    kind = rng.choice(_MISTAKES)
    a = rng.choice(names)
    return {
        "undefined": f"u = {a} * nowhere",
        "value_exponent": f"u = {a} ** {a}",
        "divide_zero": f"u = {a} / 0",
        "log_negative": "u = log(-1.0)",
        "floor_div": f"u = {a} // 2",
        "two_backwards": f"{a}.backward()\n{a}.backward()",
        "label_number": f"{a}.label = 3",
        "unpack": "p, q = 1.0",
        "reserved": "tanh = 2.0",
        "method_args": f"u = {a}.tanh(2)",
        "number_method": "u = (2.0).exp()",
        "no_result": "pass",
        "plain_result": "2.0 + 3.0",
        "renamed_import": "from micrograd.engine import Value as V",
        "not": f"u = not {a}",
        "backward_args": f"{a}.backward(1)",
        "overflow": "u = exp(1000.0)",
        "bool": f"u = {a} * True",
    }[kind]


def answer(source: str, mode: str) -> Any:
    """What the engine answers for `source` in `mode`: a trace, a check, or an error."""
    try:
        if mode == "gradcheck":
            return gradcheck_source(source)
        if mode in ("packed", "expanded"):
            return trace_source(source, mode)
        if mode == "sort_steps":
            return trace_source(source, sort_steps=True)
        return trace_source(source, mistake=mode)
    except EngineError as error:
        return {"error": error.message, "line": error.line, "column": error.column}


def digest(source: str, mode: str) -> str:
    text = json.dumps(answer(source, mode), ensure_ascii=False, allow_nan=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def digests(count: int = PROGRAMS) -> list[list[str]]:
    return [[digest(program(i), mode) for mode in MODES] for i in range(count)]


if __name__ == "__main__":
    DIGESTS.write_text(json.dumps({"modes": MODES, "digests": digests()}, indent=0) + "\n")
    sys.stdout.write(f"wrote {DIGESTS}\n")
