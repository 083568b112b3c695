"""Hypothesis-generated real programs: the interpreter answers with a trace or a clean
`EngineError`, and never goes past its limits (steps, nodes, sizes).

Programs are built from statements of the §11 language and its hostile neighbours
(dunders, huge numbers, deep loops, string growth), joined with random indentation-free
glue, so most are valid Python and run for real.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.helpers import HYPOTHESIS

LIMITS = Limits(max_steps=3_000, max_nodes=300, max_depth=30)

EXPRESSIONS = [
    "x",
    "y",
    "v",
    "w",
    "xs",
    "d",
    "s",
    "1",
    "-2",
    "2.5",
    "10**18",
    "2**63",
    "1e308",
    "0",
    "'ab'",
    "f'{x}'",
    "f'{x:>5}'",
    "[1, 2, 3]",
    "(x, y)",
    "{'k': x}",
    "{x, y}",
    "None",
    "Value(1.5)",
    "Value(-0.5, label='p')",
    "v.data",
    "v.grad",
    "v * w",
    "v + 1",
    "1 - v",
    "v / w",
    "v ** 2",
    "v.tanh()",
    "v.exp()",
    "v.relu()",
    "x // y",
    "x % 3",
    "x ** y",
    "xs[0]",
    "xs[1:]",
    "xs * 3",
    "s * x",
    "len(xs)",
    "sum(xs)",
    "max(xs)",
    "min(x, y)",
    "abs(x)",
    "list(range(x))",
    "sorted(xs)",
    "str(x)",
    "repr(v)",
    "f(x)",
    "g(v)",
    "A(x)",
    "A(x).m()",
    "A(x).k",
    "lambda q: q",
    "[q * 2 for q in xs]",
    "(q for q in xs)",
    "x if x else y",
    "x and y",
    "not x",
    "x < y",
    "x == y",
    "x in xs",
    "isinstance(x, int)",
    "math.sqrt(x)",
    "math.exp(x)",
    "random.random()",
    "random.uniform(x, y)",
    "v.__class__",
    "print.__self__",
    "xs.__len__",
    "getattr(x, 'y')",
    "type(x)",
    "d[x]",
    "'{0}'.format(x)",
    "s.join(['a'])",
    "'%d' % x",
    "x << y",
    "~x",
    "-v",
    "+x",
]
STATEMENTS = [
    "x = {e}",
    "y = {e}",
    "v = {e}",
    "w = {e}",
    "xs = {e}",
    "d = {e}",
    "s = {e}",
    "x += {e}",
    "v.data = {e}",
    "v.grad = {e}",
    "v.data -= 0.1 * v.grad",
    "xs.append({e})",
    "xs[0] = {e}",
    "d[{e}] = {e}",
    "print({e})",
    "assert {e}",
    "v.backward()",
    "for q in range(x):\n    y = y + q",
    "while x > 0:\n    x = x - 1",
    "for q in xs:\n    if q:\n        break\n    else:\n        continue",
    "def f(a, b=1):\n    return a + b",
    "def g(a):\n    return g(a)",
    "class A:\n    k = 1\n    def __init__(self, a):\n        self.a = a\n"
    "    def m(self):\n        return self.a",
    "import math",
    "import random",
    "random.seed({e})",
    "del xs[0]",
    "x, y = {e}, {e}",
    "*xs, = {e}",
    "s = s + s",
    "x = x * x",
]


@st.composite
def programs(draw: st.DrawFn) -> str:
    lines = [
        "import math",
        "import random",
        "x = 2",
        "y = 3",
        "v = Value(0.5)",
        "w = Value(2.0)",
        "xs = [1, 2]",
        "d = {}",
        "s = 'ab'",
    ]
    for _ in range(draw(st.integers(1, 12))):
        template = draw(st.sampled_from(STATEMENTS))
        while "{e}" in template:
            template = template.replace("{e}", draw(st.sampled_from(EXPRESSIONS)), 1)
        lines.append(template)
    lines.append("v.backward()")
    return "\n".join(lines) + "\n"


@settings(HYPOTHESIS, max_examples=400)
@given(programs())
def test_a_generated_program_gives_a_trace_or_a_clean_error_within_its_limits(
    source: str,
) -> None:
    try:
        trace = trace_source(source, limits=LIMITS)
    except EngineError as error:
        assert error.message
        assert error.line is None or error.line >= 1
        assert error.column is None or error.column >= 1
        return
    assert len(trace["nodes"]) <= LIMITS.max_nodes
    assert trace["passes"]
    for frame in trace["frames"]:
        for line in frame.get("prints", []):
            assert len(line) <= 10_000
