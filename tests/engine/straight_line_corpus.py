"""A fixed corpus of straight-line programs (SPEC §2), and a digest of what the engine
answers for each in every mode: the safety net that keeps their traces byte for byte
while the engine underneath them changes.

The programs come from a seeded generator: leaves made by assignment and by
`Value(..., label=...)`, the five operators with numbers on either side, unary minus,
every function as a call and as a method, augmented assignment, labels set afterwards,
tuple unpacking, imports, docstrings, `print`/`draw_dot` lines, one `backward()` or
none, and one program in four made wrong on purpose (an unknown name, a Value
exponent, a division by zero, a log of a negative number, an unsupported operator, a
second `backward()`...). Each is answered in eleven modes: packed, expanded, each bug-lab
mistake, sort steps, a gradient check, small limits (max_depth and max_nodes met), an
expanded mistake, a mistake with sort steps and a central check; the digest is the
SHA-256 of the trace's JSON, or of the error's message, line and column. Beside them,
300 graphs built in Python (`graph`, some with nan or inf, some underflowing) are
traced by `trace_value` in four modes (their one pass, which such a trace now carries,
left out of the digest: the digests were recorded before it had one).

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

from backprop_animator.engine import (
    EngineError,
    Limits,
    Value,
    gradcheck_source,
    trace_source,
    trace_value,
)

DIGESTS = Path(__file__).parent / "golden" / "straight-line-corpus.json"
PROGRAMS = 1000
MODES = (
    "packed",
    "expanded",
    "assign",
    "append-first",
    "no-sort",
    "sort_steps",
    "gradcheck",
    "limits",
    "expanded-assign",
    "sort-append-first",
    "central",
)
GRAPHS = 300
GRAPH_MODES = ("packed", "no-sort", "assign", "sort_steps")
# The default limits with a roomy clock: every answer is the steps' and the sizes', never
# the clock's (a garbage collection of a test worker's heap, on a loaded machine, passed the
# default 1.8 s on a 10-line program's check).
ROOMY = Limits(time_limit=60.0)
# Small limits, so the corpus meets max_depth and max_nodes at their places too.
SMALL = Limits(max_depth=12, max_nodes=40, time_limit=60.0)

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
        value = rng.choice(
            ("2.0", "-3.0", "0.5", "1", "-0.25", "0.0", "6.8813735870195432", "1e-200", "3e-160")
        )
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
        elif rng.random() < 0.05:
            lines.append(f"{names[-1]}.label = '{'long ' * 25}'")  # cut at 100 characters
        if rng.random() < 0.08:
            lines.append(f"é{i} = u{i} = {names[-1]} * 2; v{i} = é{i} + u{i}")
    ending = rng.randrange(3)
    if ending == 0:
        lines.append(f"{names[-1]}.backward()")
    elif ending == 1:
        lines.append(names[-1])
    if index % 4 == 3:
        lines.insert(rng.randrange(len(lines) + 1), _mistake(rng, names))
        if rng.random() < 0.3:  # a second one: the first the program meets is said
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
            return gradcheck_source(source, limits=ROOMY)
        if mode == "central":
            return gradcheck_source(source, "expanded", ROOMY, scheme="central", h=[1e-3, 1e-6])
        if mode in ("packed", "expanded"):
            return trace_source(source, mode, ROOMY)
        if mode == "sort_steps":
            return trace_source(source, limits=ROOMY, sort_steps=True)
        if mode == "limits":
            return trace_source(source, limits=SMALL)
        if mode == "expanded-assign":
            return trace_source(source, "expanded", ROOMY, mistake="assign")
        if mode == "sort-append-first":
            return trace_source(source, limits=ROOMY, mistake="append-first", sort_steps=True)
        return trace_source(source, limits=ROOMY, mistake=mode)
    except EngineError as error:
        return {"error": error.message, "line": error.line, "column": error.column}


def graph(index: int) -> Value:
    """The corpus's graph number `index`, built in Python with the engine's Value: what
    `trace_value` (a notebook's `animate()`) is given."""
    rng = random.Random(-1 - index)
    numbers = (2.0, -3.0, 0.5, 1e-200, 0.0, float("nan"), float("inf"))
    weights = (0.97, 0.97, 0.97, 0.03, 0.97, 0.01, 0.01)
    labels = ("x", "", "w", "é", "b")
    nodes = [
        Value(rng.choices(numbers, weights)[0], label=rng.choice(labels) + str(i))
        for i in range(rng.randint(1, 4))
    ]
    for _ in range(rng.randint(1, 12)):
        a, b = rng.choice(nodes), rng.choice(nodes)
        kind = rng.randrange(6)
        if kind == 0:
            nodes.append(a + b)
        elif kind == 1:
            nodes.append(a * b)
        elif kind == 2:
            nodes.append(a.tanh())
        elif kind == 3:
            nodes.append(a**2)
        elif kind == 4:
            nodes.append(a - 1.5)
        else:
            nodes.append(b * 2.0)
    return nodes[-1]


def graph_answer(index: int, mode: str) -> Any:
    try:
        if mode == "sort_steps":
            return trace_value(graph(index), limits=ROOMY, sort_steps=True)
        return trace_value(graph(index), limits=ROOMY, mistake=None if mode == "packed" else mode)
    except EngineError as error:
        return {"error": error.message, "line": error.line, "column": error.column}


def hashed(found: Any) -> str:
    text = json.dumps(found, ensure_ascii=False, allow_nan=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def digest(source: str, mode: str) -> str:
    return hashed(answer(source, mode))


def digests(count: int = PROGRAMS) -> list[list[str]]:
    return [[digest(program(i), mode) for mode in MODES] for i in range(count)]


def graph_digests(count: int = GRAPHS) -> list[list[str]]:
    return [
        [hashed(without_passes(graph_answer(i, mode))) for mode in GRAPH_MODES]
        for i in range(count)
    ]


def without_passes(found: Any) -> Any:
    """A graph's trace as it was before a one-pass trace of a graph carried its pass."""
    if isinstance(found, dict) and "passes" in found and "error" not in found:
        found = dict(found)
        del found["passes"]
    return found


if __name__ == "__main__":
    recorded = {
        "modes": MODES,
        "digests": digests(),
        "graph_modes": GRAPH_MODES,
        "graph_digests": graph_digests(),
    }
    DIGESTS.write_text(json.dumps(recorded, indent=0) + "\n")
    sys.stdout.write(f"wrote {DIGESTS}\n")
