"""Program text -> a checked syntax tree, and the tables of SPEC §2's language.

The source is checked (size, characters, statement sizes) and parsed with `ast.parse`
under a lock; nothing runs here. `first_real_statement` tells a straight-line program
(SPEC §2, run by `engine.interpreter.straight_line` with that language's own
semantics) from a real one (SPEC §11, run by `engine.interpreter` with Python's); both
are run by the one interpreter package and written by the one recorder
(`engine.trace.recorder`). Nothing is passed to `eval` or `exec`.

Example: `first_real_statement(parse_program("a = 3\\nb = a + a", ...))` is None: a
straight-line program, in which `a` is a leaf labelled "a" used twice.
"""

from __future__ import annotations

import ast
import io
import operator
import re
import symtable
import threading
import tokenize
from collections.abc import Callable
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.limits import Limits, tick, took_too_long, walk
from backprop_animator.engine.ops import FUNCTIONS
from backprop_animator.engine.value import Value

Operand = Value | float
GRANULARITIES = ("packed", "expanded")
NO_EFFECT_FUNCTIONS = ("print", "draw_dot")
IMPORTABLE = frozenset({"Value", "draw_dot"})
RESERVED = frozenset({*FUNCTIONS, *NO_EFFECT_FUNCTIONS, "Value"})

# Names for refused constructs, so errors talk about the program, not the parser.
CONSTRUCT_NAMES: dict[type[ast.AST], str] = {
    ast.FunctionDef: "function definitions",
    ast.AsyncFunctionDef: "function definitions",
    ast.ClassDef: "class definitions",
    ast.For: "for loops",
    ast.AsyncFor: "for loops",
    ast.While: "while loops",
    ast.If: "if statements",
    ast.With: "with statements",
    ast.AsyncWith: "with statements",
    ast.Try: "try statements",
    ast.Raise: "raise",
    ast.Return: "return",
    ast.Delete: "del",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
    ast.Assert: "assert",
    ast.AnnAssign: "annotated assignments",
    ast.Break: "break",
    ast.Continue: "continue",
    ast.Lambda: "lambdas",
    ast.ListComp: "list comprehensions",
    ast.SetComp: "set comprehensions",
    ast.DictComp: "dict comprehensions",
    ast.GeneratorExp: "generator expressions",
    ast.Subscript: "subscripts (x[i])",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Dict: "dicts",
    ast.Set: "sets",
    ast.Compare: "comparisons",
    ast.BoolOp: "and/or",
    ast.IfExp: "conditional expressions",
    ast.JoinedStr: "f-strings",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.NamedExpr: "the walrus operator (:=)",
    ast.Starred: "starred expressions",
    ast.Slice: "slices",
    ast.Match: "match statements",
}

# The operators of SPEC §2 (the interpreter's own table, `expressions.BINARY_OPERATORS`,
# has Python's every operator on plain values).
STRAIGHT_LINE_OPERATORS: dict[
    type[ast.operator], tuple[str, Callable[[Operand, Operand], Operand]]
] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.Pow: ("**", operator.pow),
}


def parse_program(
    source: str, granularity: str, limits: Limits, tree: ast.Module | None = None
) -> ast.Module:
    """Check the source's size and characters, then parse it (nothing runs yet).

    `tree`, if given, is `ast.parse(source)` done already by the caller (the server,
    which parses a program once to place it): the checks still run, the parse does not.
    """
    if granularity not in GRANULARITIES:
        raise EngineError(f"granularity must be 'packed' or 'expanded', not {granularity!r}")
    if len(source) > limits.max_source_chars:
        raise limits.exceeded("max_source_chars", f"the program is {len(source):,} characters long")
    _check_no_nul(source)
    _check_statement_sizes(source, limits)
    tree = tree if tree is not None else _parse(source, limits)
    _check_future_imports(tree)
    _check_scopes(source, limits)
    return tree


def _check_scopes(source: str, limits: Limits) -> None:
    """CPython's compile-time checks of `global`, `nonlocal` and `:=`, which `ast.parse`
    leaves to the compiler's symbol table: `nonlocal q` with no `q` in an enclosing
    function ("no binding for nonlocal 'q' found"), a name assigned or used before its
    `global` declaration, a parameter declared global, `nonlocal` at the module level, `:=`
    in a class body's comprehension. CPython's own symbol table answers (`symtable`: it
    reads the program, runs nothing), asked only where the text holds one of the three
    words, so a usual program pays for one search of its text.

    Example: `def f():\n    nonlocal q` -> "no binding for nonlocal 'q' found", line 2.
    """
    if "global" not in source and "nonlocal" not in source and ":=" not in source:
        return
    try:
        with _PARSE_LOCK:
            symtable.symtable(source, "<program>", "exec")
    except SyntaxError as error:
        column = None if error.offset is None else max(error.offset, 1)
        raise EngineError(f"syntax error: {error.msg}", error.lineno, column) from None
    except (RecursionError, MemoryError):
        raise limits.exceeded("max_depth", "the program is nested too deeply") from None


# The features CPython 3.11 knows (`from __future__ import braces` is "not a chance").
_FUTURE_FEATURES = frozenset(
    (
        "nested_scopes", "generators", "division", "absolute_import", "with_statement",
        "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop", "annotations",
    )
)  # fmt: skip


def _check_future_imports(tree: ast.Module) -> None:
    """CPython's compile-time checks of `from __future__ import ...`, which `ast.parse`
    leaves to the compiler: only a docstring (the first statement) and other future
    imports may come before one (Python/future.c), and one anywhere else is a SyntaxError
    (the compiler's `from ... import`).

    Example: `x = 1` then `from __future__ import annotations` -> "from __future__ imports
    must occur at the beginning of the file", at line 2.
    """
    late_message = "from __future__ imports must occur at the beginning of the file"

    def error(node: ast.stmt, message: str, column: int) -> EngineError:
        return EngineError(f"syntax error: {message}", node.lineno, column)

    body = tree.body
    first = body[0] if body else None
    docstring = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and type(first.value.value) is str
    )
    last_line, done, previous_line = -1, False, 0
    for statement in body[1:] if docstring else body:
        if done and statement.lineno > previous_line:
            break
        previous_line = statement.lineno
        if not (isinstance(statement, ast.ImportFrom) and statement.module == "__future__"):
            done = True
            continue
        if done:  # `import os; from __future__ import ...` on one line (future.c's column)
            raise error(statement, late_message, statement.col_offset)
        for alias in statement.names:
            if alias.name == "braces":
                raise error(statement, "not a chance", statement.col_offset + 1)
            if alias.name not in _FUTURE_FEATURES:
                message = f"future feature {alias.name} is not defined"
                raise error(statement, message, statement.col_offset + 1)
        last_line = statement.lineno
    late = [
        node
        for node in walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and node.lineno > last_line
    ]
    if late:
        node = min(late, key=lambda node: (node.lineno, node.col_offset))
        raise error(node, late_message, node.col_offset + 1)


def is_straight_line(tree: ast.Module) -> bool:
    """True when the program stays within SPEC §2's language, which keeps its semantics.

    That language makes a number assigned to a name a labelled leaf and shows one
    backward pass; a program that uses anything of SPEC §11 (functions, loops, classes,
    imports of math/random, reading `.data`, several `backward()` calls...) is run by
    `engine.interpreter` with Python's own semantics instead.
    """
    return first_real_statement(tree) is None


def first_real_statement(tree: ast.Module) -> ast.stmt | None:
    """The first top-level statement that takes the program past SPEC §2's language, or
    None if there is none; the lab's refusals of a real program point at it.

    Example: `a = Value(2.0)` then `for i in range(3): a = a * 2` -> the `for` statement;
    with two `backward()` calls, the statement that makes the second.
    """
    backward_calls = 0
    for statement in tree.body:
        operands = _straight_line_operands(statement)
        if operands is None:
            return statement
        calls = _backward_calls(operands)
        if calls is None:
            return statement
        backward_calls += calls
        if backward_calls > 1:
            return statement
    return None


def _straight_line_operands(statement: ast.stmt) -> list[ast.expr] | None:
    """The expressions a top-level statement of SPEC §2's language computes, still to be
    checked themselves (`_backward_calls`); None for any other statement."""
    if type(statement) is ast.Assign:
        return _assignment_operands(statement)
    if type(statement) is ast.Expr:
        value = statement.value
        if type(value) is ast.Constant and type(value.value) is str:  # a docstring
            return []
        return [value]
    if type(statement) is ast.AugAssign:
        return [statement.value] if type(statement.target) is ast.Name else None
    if type(statement) is ast.ImportFrom:
        if statement.module == "__future__":
            return []  # annotations are never evaluated in either language
        return [] if {alias.name for alias in statement.names} <= IMPORTABLE else None
    return [] if type(statement) is ast.Pass else None


def _assignment_operands(statement: ast.Assign) -> list[ast.expr] | None:
    """`_straight_line_operands` of an assignment: to names, a flat tuple of names, or
    a label."""
    operands: list[ast.expr] = []
    for target in statement.targets:
        if type(target) is ast.Attribute:
            if target.attr != "label":
                return None
            operands.append(target.value)
        elif type(target) is ast.Tuple:
            # §2 unpacks a flat tuple of names (`a, b = 2.0, 3.0`) and nothing more.
            if not all(type(name) is ast.Name for name in target.elts):
                return None
        elif type(target) is not ast.Name:
            return None
    value = statement.value
    if type(value) is ast.Tuple and any(type(t) is ast.Tuple for t in statement.targets):
        operands.extend(value.elts)  # the tuple being unpacked; a tuple inside it is not §2
    elif not _is_label_text(statement):
        operands.append(value)
    return operands


def _backward_calls(stack: list[ast.expr]) -> int | None:
    """How many `.backward()` calls these expressions make, or None if one of them goes
    past SPEC §2's language: any node type not listed here does. One pass with an
    explicit stack (which it empties)."""
    calls = 0
    while stack:
        node: Any = stack.pop()
        kind = type(node)
        if kind is ast.BinOp:
            stack.append(node.left)
            stack.append(node.right)
        elif kind is ast.Constant:
            if type(node.value) is str:
                return None  # a string is §2's only as a label
        elif kind is ast.UnaryOp:
            stack.append(node.operand)
        elif kind is ast.Call:
            func = node.func
            if type(func) is ast.Attribute:
                if func.attr == "backward":
                    calls += 1
                elif func.attr not in FUNCTIONS:
                    return None
                stack.append(func.value)
            elif type(func) is not ast.Name or func.id not in RESERVED:
                return None
            stack.extend(node.args)
            for keyword in node.keywords:
                if not (type(keyword.value) is ast.Constant and keyword.arg == "label"):
                    stack.append(keyword.value)
        elif kind is not ast.Name:
            return None
    return calls


def _is_label_text(statement: ast.Assign) -> bool:
    """`x.label = '...'`: the string is a label, not an operand."""
    return any(type(t) is ast.Attribute for t in statement.targets) and isinstance(
        statement.value, ast.Constant
    )


# CPython 3.11 keeps the counter its AST constructor uses to guard recursion in one
# place for the whole process: two threads building trees at once (a server's threads
# under load) can trip it, and `ast.parse` fails with "SystemError: AST constructor
# recursion depth mismatch". Parsing takes a few milliseconds, so threads take turns.
_PARSE_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """`ast.parse(source)`, one thread at a time (see `_PARSE_LOCK`)."""
    with _PARSE_LOCK:
        return ast.parse(source, mode="exec")


def _notebook_line(source: str, lineno: int | None) -> str:
    """What a syntax error's line is, where it is a notebook's shell command or magic
    pasted with the cells (`!pip install pygraphviz`, `%matplotlib inline`), which CPython
    refuses with the same SyntaxError; else "".

    Example: `"!pip install x"`, line 1 -> " (a notebook's shell command or magic: …)".
    """
    if lineno is None or lineno < 1:
        return ""
    # (the line ends CPython counts, not `str.splitlines`'s: a string's U+2028 or form
    # feed is no line end to it)
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lineno > len(lines):
        return ""
    text = lines[lineno - 1].lstrip()
    if len(text) < 2 or text[0] not in "!%" or not (text[1].isalpha() or text[1] == "%"):
        return ""
    return (
        " (a notebook's shell command or magic, `!pip install …` or `%matplotlib inline`: "
        "no Python; leave the line out)"
    )


def _parse(source: str, limits: Limits) -> ast.Module:
    try:
        return parse_python(source)
    except SyntaxError as error:
        # CPython reports some errors (e.g. an over-long integer literal) at offset 0.
        column = None if error.offset is None else max(error.offset, 1)
        if error.msg == "too many nested parentheses":
            # Python's parser stops at 200 open brackets, before our own depth check.
            raise limits.exceeded(
                "max_depth",
                "brackets are nested too deeply (Python's parser stops at 200 levels)",
                error.lineno,
                column,
            ) from None
        message = f"syntax error: {error.msg}{_notebook_line(source, error.lineno)}"
        raise EngineError(message, error.lineno, column) from None
    except UnicodeEncodeError as error:  # a lone surrogate, which UTF-8 cannot encode
        raise _unreadable(source, error.start) from None
    except ValueError as error:
        raise EngineError(f"the program cannot be read: {error}") from None
    except (RecursionError, MemoryError):
        # CPython's parser gives up on very deep nesting this way, before any AST exists.
        raise limits.exceeded("max_depth", "the program is nested too deeply") from None


def _unreadable(source: str, index: int) -> EngineError:
    """The error for a character UTF-8 cannot encode, at its line and column.

    A lone surrogate U+DC80..U+DCFF is how Python decodes a byte that is not UTF-8 (a
    command-line argument, standard input), so it is named as that byte.
    Example: `"x = 1\\n\\udcff"` -> line 2, column 1, "the byte 0xFF, which is not UTF-8".
    """
    before = source[:index]
    line = len(SourceLines._BREAK.findall(before)) + 1
    column = index - max(before.rfind("\n"), before.rfind("\r"))
    code = ord(source[index])
    if 0xDC80 <= code <= 0xDCFF:
        what = f"the byte 0x{code - 0xDC00:02X}, which is not UTF-8"
    else:
        what = f"a lone surrogate (U+{code:04X}), which UTF-8 cannot carry"
    return EngineError(
        f"the program cannot be read: it holds {what}; send the program as UTF-8 text",
        line,
        column,
    )


def _check_no_nul(source: str) -> None:
    """Refuse a NUL character where it is; the parser would refuse it without a position."""
    index = source.find("\0")
    if index >= 0:
        before = SourceLines(source[:index]).lines
        raise EngineError(
            "the program contains a NUL character (\\0); remove it",
            len(before),
            len(before[-1]) + 1,
        )


def _check_statement_sizes(source: str, limits: Limits) -> None:
    """Refuse statements with so many operators that the parser itself could fail.

    `ast.parse` raises MemoryError or RecursionError long before our own depth check
    could run (`"-" * 100_000 + "x"`), so count the operators of each `;`-separated
    piece of each line first; a piece nested within `max_depth` always passes. Only
    code counts: a comment of dashes or a label full of brackets is no statement's
    operators. Counting characters is fast and can only count too many, so the
    tokenizer (slow) is asked only about lines whose characters pass the budget. It
    is a cheap first line of defence: a statement spread over many lines still
    reaches the parser, whose own failure `_parse` turns into the same error.
    """
    budget = 4 * limits.max_depth + 100
    suspects = [
        number
        for number, line in enumerate(SourceLines(source).lines, start=1)
        if len(line) > budget and _operator_characters(line) > budget
    ]
    if not suspects:
        return
    over = _first_piece_over(source, budget, last_line=suspects[-1])
    if over is not None:
        raise limits.exceeded(
            "max_depth",
            f"this statement has more than {budget:,} operators, too many to nest; "
            "split it into several statements",
            *over,
        )


def _first_piece_over(source: str, budget: int, last_line: int) -> tuple[int, int] | None:
    """(line, 1-based column) of the first `;`-separated piece of code on a line with
    more than `budget` operators, reading tokens up to `last_line`; None if none has.

    Example: `_first_piece_over("a = -b  # ---", 1, 1) == (1, 1)` (`=` and `-`; the
    comment is not code). Where the tokenizer gives up (an unclosed bracket or
    string), the rest of the source is judged by its characters instead, which can
    only count too many, never too few.
    """
    piece = (0, 0)
    count = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            line, column = token.start
            if line > last_line:
                return None
            if tick():
                raise took_too_long(line)
            if token.string == ";" and token.type == tokenize.OP:
                piece, count = (line, -1), 0  # the next piece starts at the next token
            elif line != piece[0] or piece[1] < 0:
                piece, count = (line, column + 1), 0
            if token.type == tokenize.OP or (token.type == tokenize.NAME and token.string == "not"):
                count += _token_operators(token.string)
                if count > budget:
                    return piece
    except (tokenize.TokenError, SyntaxError):
        first = max(piece[0], 1)
        for number, text in enumerate(SourceLines(source).lines[first - 1 :], start=first):
            if _operator_characters(text) > budget:
                return number, 1
    return None


def _operator_characters(text: str) -> int:
    return sum(map(text.count, _OPERATOR_CHARACTERS)) + text.count("not ")


def _token_operators(text: str) -> int:
    """How many operators one OP token stands for: `**=` is one, `(` is one, `,` none."""
    return 1 if text == "not" or any(char in _OPERATOR_CHARACTERS for char in text) else 0


_OPERATOR_CHARACTERS = "+-*/~%@&|^<>("


class SourceLines:
    """Turns the parser's (line, UTF-8 byte offset) into a 1-based character column.

    Each line is split and measured once, so positions cost O(1) on ASCII lines however
    many nodes one long line makes.
    """

    _BREAK = re.compile(r"\r\n|\r|\n")

    def __init__(self, source: str) -> None:
        self.lines = self._BREAK.split(source)
        self._char_at_byte: dict[int, list[int] | None] = {}

    def text(self, node: ast.AST, limit: int = 100) -> str:
        """The first line of a statement's source, stripped and cut to `limit` characters."""
        line = getattr(node, "lineno", None)
        if line is None or not 0 < line <= len(self.lines):
            return ""
        text: str = self.lines[line - 1].strip()
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def position(self, node: ast.AST) -> tuple[int | None, int | None]:
        line = getattr(node, "lineno", None)
        offset = getattr(node, "col_offset", None)
        if line is None or offset is None:
            return None, None
        return line, self._column(line, offset)

    def _column(self, line: int, byte_offset: int) -> int:
        if line not in self._char_at_byte:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            self._char_at_byte[line] = (
                None
                if text.isascii()
                else [i for i, char in enumerate(text) for _ in char.encode("utf-8")]
            )
        table = self._char_at_byte[line]
        if table is None:
            return byte_offset + 1
        return (table[byte_offset] if byte_offset < len(table) else len(table)) + 1
