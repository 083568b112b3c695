"""Program text -> Value graph, through Python's own parser and a whitelist.

The source is parsed with `ast.parse` and then walked node by node; only the
constructs of the input language (SPEC §2) are given a meaning, and anything else
is refused with an `EngineError` that says where. Nothing is passed to `eval` or
`exec`, and no attribute, import, file or name outside the program can be reached.

What it leaves out on purpose: control flow, function definitions, strings other
than labels, reading `.data`/`.grad`. Plain-number arithmetic stays plain numbers,
always in floats, so no input can make a huge integer. Programs that use more (SPEC
§11) are told apart by `is_straight_line` and run by `engine.interpreter` instead.

Example: `run_straight_line(parse_program(source, ...), source, ...).output` for
`a = 3\\nb = a + a` is the `+` node, with `a` a leaf labelled "a" used twice.
"""

from __future__ import annotations

import ast
import io
import math
import operator
import re
import threading
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from backprop_animator.engine.errors import NO_REAL_RESULT, EngineError, arithmetic_reason
from backprop_animator.engine.limits import Limits, too_deep
from backprop_animator.engine.ops import FUNCTIONS, NUMBER_FUNCTIONS, OPS
from backprop_animator.engine.value import Value, creation_order, mark_written_left

isfinite = math.isfinite

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

BINARY_OPERATORS: dict[type[ast.operator], tuple[str, Callable[[Operand, Operand], Operand]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.Pow: ("**", operator.pow),
}


@dataclass
class Program:
    """A built graph: its output and where in the source each op node was made."""

    output: Value
    positions: dict[Value, tuple[int, int]] = field(default_factory=dict)


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
    return tree if tree is not None else _parse(source, limits)


def run_straight_line(tree: ast.Module, source: str, granularity: str, limits: Limits) -> Program:
    """Run a program of the straight-line language (SPEC §2) with its own semantics."""
    try:
        return _Interpreter(SourceLines(source), granularity, limits).run(tree)
    except RecursionError:
        # Only reachable when BACKPROP_MAX_DEPTH is set above what Python's stack allows.
        raise limits.exceeded("max_depth", "the program is nested too deeply") from None


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
            elif type(func) is not ast.Name or func.id not in _STRAIGHT_LINE_FUNCTIONS:
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


_STRAIGHT_LINE_FUNCTIONS = frozenset({*FUNCTIONS, *NO_EFFECT_FUNCTIONS, "Value"})


# CPython 3.11 keeps the counter its AST constructor uses to guard recursion in one
# place for the whole process: two threads building trees at once (a server's threads
# under load) can trip it, and `ast.parse` fails with "SystemError: AST constructor
# recursion depth mismatch". Parsing takes a few milliseconds, so threads take turns.
_PARSE_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """`ast.parse(source)`, one thread at a time (see `_PARSE_LOCK`)."""
    with _PARSE_LOCK:
        return ast.parse(source, mode="exec")


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
        raise EngineError(f"syntax error: {error.msg}", error.lineno, column) from None
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


class _Interpreter:
    """Runs a parsed program statement by statement over a small environment of names."""

    def __init__(self, lines: SourceLines, granularity: str, limits: Limits) -> None:
        self.lines = lines
        self.limits = limits
        self.expanded = granularity == "expanded"
        self.env: dict[str, Operand] = {}
        self.positions: dict[Value, tuple[int, int]] = {}
        self.node_count = 0
        self.depth = 0
        self.output: Value | None = None
        self.backward_line: int | None = None
        self.last: Operand | None = None

    # Statements

    def run(self, tree: ast.Module) -> Program:
        for statement in tree.body:
            self.statement(statement)
        result = self.output if self.output is not None else self.last
        if result is None:
            raise EngineError(
                "the program has no result: end it with an expression, or call .backward() "
                "on the output"
            )
        if not isinstance(result, Value):
            raise EngineError(
                f"the program's result is the plain number {result!r}, not a Value; "
                "use at least one named input or Value(...)"
            )
        return Program(result, self.positions)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Expr):
            self.expression_statement(node)
        elif isinstance(node, ast.Assign):
            self.assign(node)
        elif isinstance(node, ast.AugAssign):
            self.augmented_assign(node)
        elif isinstance(node, ast.ImportFrom):
            self.import_from(node)
        elif isinstance(node, ast.Import):
            raise self.error(node, "only `from ... import Value` is accepted; nothing is imported")
        elif not isinstance(node, ast.Pass):
            raise self.unsupported(node)

    def expression_statement(self, node: ast.Expr) -> None:
        call = node.value
        if isinstance(call, ast.Constant) and isinstance(call.value, str):
            return  # a docstring or a string on its own line: a comment, in effect
        if isinstance(call, ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id in NO_EFFECT_FUNCTIONS:
                return  # accepted so the article's code pastes as it is; nothing runs
            if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
                self.backward(call)
                return
        self.last = self.eval(node.value)

    def backward(self, call: ast.Call) -> None:
        assert isinstance(call.func, ast.Attribute)
        if call.args or call.keywords:
            raise self.error(call, "backward() takes no arguments")
        target = self.eval(call.func.value)
        if not isinstance(target, Value):
            raise self.error(call, "backward() needs a Value, not a plain number")
        if self.output is not None:
            raise self.error(
                call,
                f"backward() was already called on line {self.backward_line}; "
                "the player shows one backward pass",
            )
        self.output = target
        self.backward_line = call.lineno

    def assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute):
            self.set_label(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
            self.unpack(node.targets[0], node.value)
            return
        value = self.eval(node.value)
        for target in node.targets:
            if not isinstance(target, ast.Name):
                raise self.error(target, "only names can be assigned to (and `x.label = '...'`)")
            value = self.bind(target, value)
        self.last = value

    def unpack(self, target: ast.Tuple, value: ast.expr) -> None:
        if not isinstance(value, ast.Tuple) or len(value.elts) != len(target.elts):
            raise self.error(target, "unpacking needs as many values as names: a, b = 1.0, 2.0")
        values = [self.eval(item) for item in value.elts]
        for name, item in zip(target.elts, values, strict=True):
            if not isinstance(name, ast.Name):
                raise self.error(name, "only names can be assigned to")
            self.last = self.bind(name, item)

    def set_label(self, target: ast.Attribute, value: ast.expr) -> None:
        if target.attr != "label":
            raise self.error(target, f"only `.label` can be set, not `.{target.attr}`")
        node = self.eval(target.value)
        if not isinstance(node, Value):
            raise self.error(target, "only a Value has a label")
        node.label = self.label_text(value)

    def label_text(self, value: ast.expr) -> str:
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            raise self.error(value, "a label must be a string, like x.label = 'x1'")
        return value.value

    def augmented_assign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "only a name can be updated with +=, -=, *=, /=")
        current = self.lookup(node.target)
        # Like micrograd, `c += e` builds a new node c + e and rebinds c.
        new = self.binary(node, node.op, current, self.eval(node.value))
        self.last = self.bind(node.target, new)

    def import_from(self, node: ast.ImportFrom) -> None:
        if node.module == "__future__":
            return  # `from __future__ import annotations`: nothing to do
        names = {alias.name for alias in node.names}
        renamed = any(alias.asname for alias in node.names)
        if not names <= IMPORTABLE or renamed:
            raise self.error(
                node, "only `Value` (and `draw_dot`) can be imported; nothing else is available"
            )

    def bind(self, target: ast.Name, value: Operand) -> Value:
        """Give a name its value; numbers become labelled leaves, new nodes take the name."""
        name = target.id
        if name in RESERVED:
            raise self.error(target, f"`{name}` is a built-in here; choose another name")
        if isinstance(value, Value):
            value.label = value.label or name
        else:
            value = Value(value, label=name)
            self.count_nodes(target, value, -1)
        self.env[name] = value
        return value

    # Expressions

    def eval(self, node: ast.expr) -> Operand:
        # No `finally`: an error ends the whole run, so the depth need not be restored.
        depth = self.depth = self.depth + 1
        if depth > self.limits.max_depth:
            line, column = self.lines.position(node)
            raise self.limits.exceeded("max_depth", too_deep(node), line, column)
        # The common cases first, by exact type (the parser makes no subclasses).
        kind = type(node)
        if kind is ast.BinOp:
            left = self.eval(node.left)  # type: ignore[attr-defined]
            right = self.eval(node.right)  # type: ignore[attr-defined]
            entry = BINARY_OPERATORS.get(type(node.op))  # type: ignore[attr-defined]
            if entry is not None and entry[0] != "**":
                result = self.apply(node, entry[0], entry[1], left, right)  # `self.binary`
                if entry[0] == "*" and type(left) is not Value:
                    mark_written_left(result)
            else:
                result = self.binary(node, node.op, left, right)  # type: ignore[attr-defined]
        elif kind is ast.Name:
            result = self.lookup(node)  # type: ignore[arg-type]
        else:
            result = self.eval_node(node)
        self.depth = depth - 1
        return result

    def eval_node(self, node: ast.expr) -> Operand:
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.lookup(node)
        if isinstance(node, ast.BinOp):
            return self.binary(node, node.op, self.eval(node.left), self.eval(node.right))
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            raise self.error(
                node,
                f"reading `.{node.attr}` is not supported; the player shows data and grad",
            )
        raise self.unsupported(node)

    def constant(self, node: ast.Constant) -> float:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            if isinstance(value, str):
                raise self.error(node, "strings are only used as labels: x.label = 'x1'")
            raise self.error(node, f"{value!r} is not a number")
        try:
            number = float(value)
        except OverflowError:
            raise self.error(node, "this number is too large for a float") from None
        if not math.isfinite(number):
            raise self.error(node, "this number is too large for a float (it would be inf)")
        return number

    def lookup(self, node: ast.Name) -> Operand:
        if node.id in self.env:
            return self.env[node.id]
        if node.id in RESERVED:
            raise self.error(node, f"`{node.id}` is a function; call it, like {node.id}(x)")
        raise self.error(node, f"name '{node.id}' is not defined")

    def binary(self, node: ast.AST, op: ast.operator, left: Operand, right: Operand) -> Operand:
        if type(op) not in BINARY_OPERATORS:
            symbol = _OPERATOR_SYMBOLS.get(type(op), type(op).__name__)
            raise self.error(node, f"the operator {symbol} is not supported")
        symbol, apply = BINARY_OPERATORS[type(op)]
        if symbol == "**" and isinstance(right, Value):
            raise self.error(
                node,
                "the exponent of ** must be a plain number like 2 or -1; "
                "a name assigned a number is a Value leaf, so write the number itself",
            )
        result = self.apply(node, symbol, apply, left, right)
        if symbol == "*" and type(left) is not Value:
            mark_written_left(result)
        return result

    def unary(self, node: ast.UnaryOp) -> Operand:
        operand = self.eval(node.operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.USub):
            return self.apply(node, "-", operator.neg, operand)
        symbol = "not" if isinstance(node.op, ast.Not) else "~"
        raise self.error(node, f"the operator {symbol} is not supported")

    def call(self, node: ast.Call) -> Operand:
        if isinstance(node.func, ast.Name):
            name = node.func.id
            if name == "Value":
                return self.make_value(node)
            if name in FUNCTIONS:
                argument = self.only_argument(node, name)
                return self.function(node, name, self.eval(argument))
            if name in NO_EFFECT_FUNCTIONS:
                raise self.error(node, f"{name}() has no value; call it on a line of its own")
            if name in self.env:
                raise self.error(node, f"`{name}` is not a function")
            raise self.error(
                node,
                f"unknown function '{name}'; available: {', '.join(FUNCTIONS)}, Value",
            )
        if isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method == "backward":
                raise self.error(node, "backward() returns nothing; call it on a line of its own")
            if method not in FUNCTIONS:
                raise self.error(node, f"unknown method .{method}()")
            if node.args or node.keywords:
                raise self.error(node, f".{method}() takes no arguments")
            target = self.eval(node.func.value)
            if not isinstance(target, Value):
                raise self.error(
                    node, f"a plain number has no .{method}(); write {method}(x) or Value(x)"
                )
            return self.function(node, method, target)
        raise self.error(node, "only the functions and methods of Value can be called")

    def only_argument(self, node: ast.Call, name: str) -> ast.expr:
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            raise self.error(node, f"{name}() takes exactly one argument")
        return node.args[0]

    def make_value(self, node: ast.Call) -> Value:
        if len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
            raise self.error(node, "Value() takes one number, like Value(2.0, label='x1')")
        label = ""
        for keyword in node.keywords:
            if keyword.arg != "label":
                raise self.error(node, "Value() accepts only a label=... keyword")
            label = self.label_text(keyword.value)
        data = self.eval(node.args[0])
        if isinstance(data, Value):
            raise self.error(node, "Value() takes a plain number, not another Value")
        leaf = Value(data, label=label)
        self.count_nodes(node, leaf, -1)
        return leaf

    def function(self, node: ast.AST, name: str, argument: Operand) -> Operand:
        if isinstance(argument, Value):
            target = argument
            expanded = OPS[name].expanded
            if self.expanded and expanded is not None:
                return self.apply(node, name, expanded, target)
            return self.apply(node, name, getattr(target, name))
        return self.apply(node, name, NUMBER_FUNCTIONS[name], argument)

    def apply(
        self, node: ast.AST, what: str, compute: Callable[..., Operand], *operands: Operand
    ) -> Operand:
        """Run `compute(*operands)`, turning floating-point trouble into an error at `node`."""
        mark = next(creation_order)
        try:
            result = compute(*operands)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as error:
            reason = arithmetic_reason(error, domain=NO_REAL_RESULT)
            raise self.error(node, f"{what}: {reason}") from None
        if type(result) is Value:
            self.count_nodes(node, result, mark)
        elif type(result) is not float or not isfinite(result):
            # `isinstance`, not `type`, for what follows: a subclass of Value never
            # appears here, but the slow path stays exactly what it was.
            if isinstance(result, Value):
                self.count_nodes(node, result, mark)
            else:
                self.check_number(node, what, result)
        return result

    def count_nodes(self, node: ast.AST, out: Value, mark: int) -> None:
        """Check and remember the nodes one operation created (those made after `mark`)."""
        line, column = self.lines.position(node)
        where = (line or 1, column or 1)
        positions = self.positions
        stack = [out]
        count = 0
        while stack:
            new = stack.pop()
            if new._seq <= mark or new in positions:
                continue
            count += 1
            data = new.data
            if type(data) is not float or not isfinite(data):
                self.check_number(node, new._op or "Value", data)
            if new._prev:
                positions[new] = where
                stack.extend(new._prev)
        self.node_count += count
        if self.node_count > self.limits.max_nodes:
            raise self.limits.exceeded("max_nodes", "the graph has too many nodes", line, column)

    # Errors

    def check_number(self, node: ast.AST, what: str, value: object) -> None:
        if isinstance(value, complex):
            raise self.error(node, f"{what}: math domain error (the result is complex)")
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise self.error(
                node,
                f"{what}: the result is not a finite number ({value}); the maths is exact, "
                "but floating point has a range",
            )

    def error(self, node: ast.AST, message: str) -> EngineError:
        line, column = self.lines.position(node)
        return EngineError(message, line, column)

    def unsupported(self, node: ast.AST) -> EngineError:
        name = CONSTRUCT_NAMES.get(type(node), type(node).__name__)
        return self.error(node, f"not supported in this language: {name}")


_OPERATOR_SYMBOLS: dict[type[ast.operator], str] = {
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
}
