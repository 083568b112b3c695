"""Whatever text arrives, the engine answers with a trace or an `EngineError`.

Three sources of input: arbitrary text, valid programs with random edits, and random
Python syntax trees (any statement or expression, not only the language's) written
back as source with `ast.unparse`. How long that takes is measured in `bench/`, not
asserted here; pytest-timeout stops a hang.
"""

from __future__ import annotations

import ast

from hypothesis import example, given, settings
from hypothesis import strategies as st

from backprop_animator.engine import EngineError, trace_source
from backprop_animator.engine.examples import EXAMPLES
from tests.engine.helpers import HYPOTHESIS, assert_trace_invariants

SOURCES = [example.source for example in EXAMPLES]


def answers_cleanly(source: str, granularity: str = "packed") -> None:
    """Trace `source`; only an EngineError may escape."""
    try:
        trace = trace_source(source, granularity)
    except EngineError as error:
        assert isinstance(error.message, str) and error.message
        assert error.line is None or error.line >= 1
        assert error.column is None or error.column >= 1
    else:
        assert_trace_invariants(trace)


# Text


@settings(HYPOTHESIS, max_examples=300)
@given(st.text(max_size=300))
@example("\0")
@example("x = 1.0\n\ud800")
@example("x = 1.0\ny = x\r\nz = y * 2\r")
@example("\ufeffx = 1.0\ny = x * 2")
@example("x = 1.0\ny = x *\\\n 2")
def test_arbitrary_text_gives_a_trace_or_an_engine_error(source: str) -> None:
    answers_cleanly(source)


PROGRAM_ALPHABET = "xyab0123456789.eE_+-*/()=,;:[]{}'\"#@%<>!~ \n\t\\"
PROGRAM_WORDS = [
    "x",
    "tanh(",
    ".exp()",
    "Value(",
    "label=",
    ".label",
    ".backward()",
    "**",
    "lambda",
    "import ",
    "from ",
    "not ",
    "if ",
    "else ",
    "for ",
    "in ",
    "1e308",
    "10**10",
    "-",
    "(",
    ")",
    "\n",
    ";",
    "print(",
    "draw_dot(",
    "__import__",
]


@settings(HYPOTHESIS, max_examples=300)
@given(
    st.lists(st.sampled_from(PROGRAM_WORDS) | st.text(PROGRAM_ALPHABET, max_size=4), max_size=60)
)
def test_programs_made_of_language_fragments_give_a_trace_or_an_engine_error(
    parts: list[str],
) -> None:
    answers_cleanly("x = 1.5\n" + "".join(parts))


@st.composite
def mutated_programs(draw: st.DrawFn) -> str:
    source = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(source)))
        end = draw(st.integers(min_value=at, max_value=min(len(source), at + 8)))
        edit = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        if edit == "delete":
            source = source[:at] + source[end:]
        elif edit == "duplicate":
            source = source[:end] + source[at:end] + source[end:]
        else:
            new = draw(st.sampled_from(PROGRAM_WORDS) | st.text(PROGRAM_ALPHABET, max_size=3))
            source = source[:at] + new + source[end if edit == "replace" else at :]
    return source


@settings(HYPOTHESIS, max_examples=300)
@given(mutated_programs(), st.sampled_from(["packed", "expanded"]))
def test_mutated_examples_give_a_trace_or_an_engine_error(source: str, granularity: str) -> None:
    answers_cleanly(source, granularity)


# Syntax trees: any Python, with the language's own constructs drawn most often so that
# random programs get past their first statement and reach the interpreter's depths.

NAMES = ["x", "y", "Value", "tanh", "exp", "print", "draw_dot", "__import__", "open", "os", "i"]
ATTRIBUTES = ["label", "data", "grad", "backward", "tanh", "exp", "_prev", "__class__"]
FUNCTIONS = ["tanh", "exp", "relu", "log", "sigmoid", "Value", "print", "draw_dot"]
METHODS = ["tanh", "exp", "relu", "log", "sigmoid", "backward"]
LANGUAGE_OPERATORS = [ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow]
OPERATORS = [*LANGUAGE_OPERATORS, ast.FloorDiv, ast.Mod, ast.MatMult, ast.LShift, ast.BitXor]
UNARY = [ast.UAdd, ast.USub, ast.Not, ast.Invert]
COMPARE = [ast.Eq, ast.Lt, ast.Is, ast.In]
NUMBERS = st.one_of(
    st.floats(min_value=-3, max_value=3),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from([0, 0.0, 1e308, 10**400, 2**64]),
)
OTHER_CONSTANTS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.sampled_from([None, True, False, ..., b"x", 1j]),
)


def load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def call(
    function: ast.expr, *args: ast.expr, keywords: list[ast.keyword] | None = None
) -> ast.Call:
    return ast.Call(func=function, args=list(args), keywords=keywords or [])


def method(target: ast.expr, name: str) -> ast.Call:
    return call(ast.Attribute(value=target, attr=name, ctx=ast.Load()))


def no_arguments() -> ast.arguments:
    return ast.arguments(
        posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )


def comprehension(iterable: ast.expr) -> list[ast.comprehension]:
    return [ast.comprehension(target=store("i"), iter=iterable, ifs=[], is_async=0)]


@st.composite
def atoms(draw: st.DrawFn) -> ast.expr:
    kind = draw(st.integers(min_value=0, max_value=9))
    if kind < 4:
        return load(draw(st.sampled_from(["x", "y"])))
    if kind < 7:
        return ast.Constant(value=draw(NUMBERS))
    if kind < 9:
        return load(draw(st.sampled_from(NAMES)))
    return ast.Constant(value=draw(OTHER_CONSTANTS))


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> ast.expr:
    if depth == 0 or draw(st.integers(min_value=0, max_value=3)) == 0:
        return draw(atoms())

    def sub() -> ast.expr:
        return draw(expressions(depth - 1))

    kind = draw(st.integers(min_value=0, max_value=99))
    if kind < 30:
        operator = draw(st.sampled_from(LANGUAGE_OPERATORS if kind < 25 else OPERATORS))
        return ast.BinOp(left=sub(), op=operator(), right=sub())
    if kind < 40:
        return ast.UnaryOp(
            op=draw(st.sampled_from(UNARY if kind < 37 else UNARY[2:]))(), operand=sub()
        )
    if kind < 55:
        arguments = [sub() for _ in range(draw(st.integers(min_value=0, max_value=2)))]
        label = [ast.keyword(arg="label", value=ast.Constant("v"))] if kind < 45 else []
        return call(load(draw(st.sampled_from(FUNCTIONS))), *arguments, keywords=label)
    if kind < 65:
        return method(sub(), draw(st.sampled_from(METHODS)))
    others = [
        lambda: ast.Attribute(value=sub(), attr=draw(st.sampled_from(ATTRIBUTES)), ctx=ast.Load()),
        lambda: call(sub(), sub(), keywords=[ast.keyword(arg=None, value=sub())]),
        lambda: ast.BoolOp(op=draw(st.sampled_from([ast.And, ast.Or]))(), values=[sub(), sub()]),
        lambda: ast.Compare(
            left=sub(), ops=[draw(st.sampled_from(COMPARE))()], comparators=[sub()]
        ),
        lambda: ast.Subscript(value=sub(), slice=sub(), ctx=ast.Load()),
        lambda: ast.Lambda(args=no_arguments(), body=sub()),
        lambda: ast.IfExp(test=sub(), body=sub(), orelse=sub()),
        lambda: ast.List(elts=[sub(), sub()], ctx=ast.Load()),
        lambda: ast.Tuple(elts=[sub(), sub()], ctx=ast.Load()),
        lambda: ast.Set(elts=[sub()]),
        lambda: ast.Dict(keys=[sub()], values=[sub()]),
        lambda: ast.ListComp(elt=sub(), generators=comprehension(sub())),
        lambda: ast.GeneratorExp(elt=sub(), generators=comprehension(sub())),
        lambda: ast.NamedExpr(target=store("z"), value=sub()),
        lambda: call(load("print"), ast.Starred(value=sub(), ctx=ast.Load())),
        lambda: ast.JoinedStr(
            values=[ast.FormattedValue(value=sub(), conversion=-1, format_spec=None)]
        ),
        lambda: ast.Await(value=sub()),
        lambda: ast.Yield(value=sub()),
    ]
    return draw(st.sampled_from(others))()


@st.composite
def statements(draw: st.DrawFn) -> ast.stmt:
    expression = draw(expressions())
    kind = draw(st.integers(min_value=0, max_value=99))
    if kind < 40:
        return ast.Assign(targets=[store(draw(st.sampled_from(["x", "y", "z"])))], value=expression)
    if kind < 50:
        operator = draw(st.sampled_from(LANGUAGE_OPERATORS if kind < 47 else OPERATORS))
        return ast.AugAssign(
            target=store(draw(st.sampled_from(["x", "y"]))), op=operator(), value=expression
        )
    if kind < 60:
        return ast.Expr(value=expression)
    if kind < 67:
        return ast.Expr(value=method(expression, "backward"))
    if kind < 72:
        target = ast.Attribute(
            value=expression, attr=draw(st.sampled_from(ATTRIBUTES)), ctx=ast.Store()
        )
        return ast.Assign(targets=[target], value=ast.Constant(draw(st.sampled_from(["x", 1.0]))))
    body: list[ast.stmt] = [ast.Pass()]
    others = [
        lambda: ast.Assign(
            targets=[ast.Tuple(elts=[store("x"), store("y")], ctx=ast.Store())], value=expression
        ),
        lambda: ast.Assign(
            targets=[ast.Subscript(value=load("x"), slice=expression, ctx=ast.Store())],
            value=expression,
        ),
        lambda: ast.Import(names=[ast.alias(draw(st.sampled_from(["os", "math", "micrograd"])))]),
        lambda: ast.ImportFrom(
            module=draw(st.sampled_from(["micrograd.engine", "os", "engine"])),
            names=[ast.alias(draw(st.sampled_from(["Value", "system", "*", "draw_dot"])))],
            level=0,
        ),
        lambda: ast.If(test=expression, body=body, orelse=[]),
        lambda: ast.While(test=expression, body=body, orelse=[]),
        lambda: ast.For(target=store("i"), iter=expression, body=body, orelse=[]),
        lambda: ast.Return(value=expression),
        lambda: ast.Assert(test=expression),
        lambda: ast.Delete(targets=[ast.Name(id="x", ctx=ast.Del())]),
        lambda: ast.Global(names=["x"]),
        lambda: ast.Pass(),
        lambda: ast.FunctionDef(
            name="f", args=no_arguments(), body=body, decorator_list=[], returns=None
        ),
    ]
    return draw(st.sampled_from(others))()


@st.composite
def python_sources(draw: st.DrawFn) -> str:
    body: list[ast.stmt] = [
        ast.Assign(targets=[store("x")], value=ast.Constant(1.5)),
        ast.Assign(targets=[store("y")], value=ast.Constant(-0.5)),
        *draw(st.lists(statements(), min_size=1, max_size=6)),
    ]
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    try:
        return ast.unparse(module)
    except Exception:
        return draw(st.nothing())


@settings(HYPOTHESIS, max_examples=400)
@given(python_sources(), st.sampled_from(["packed", "expanded"]))
def test_random_python_syntax_trees_give_a_trace_or_an_engine_error(
    source: str, granularity: str
) -> None:
    answers_cleanly(source, granularity)
