"""SPEC §2's language as a mode of the interpreter: straight-line programs, with their
own semantics, compiled into closures that record through the one recorder.

A straight-line program (`engine.parse.first_real_statement` finds none of §11's
constructs in it) keeps the meaning the article gives it: a number assigned to a name
is a labelled leaf (`a = 3` is `Value(3.0, label='a')`), plain arithmetic is done in
floats (so no integer grows), the last expression or the one `backward()` call names
the output, and `print(...)`/`draw_dot(...)` on a line of their own do nothing. Every
statement is compiled when the one before it has run, and every error is raised by
the closure that meets it, so errors come in the order the program would meet them.

The closures build engine `Value`s; the nodes each operation makes are handed to the
recorder (`engine.trace.recorder.Recorder.adopt_plain`) with the operation's place, and the
recorder writes the trace, as it does for every program.

Example: `a = 3` then `b = a + a` runs to the `+` node, with `a` a leaf used twice.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from backprop_animator.engine.errors import (
    NO_REAL_RESULT,
    NO_RESULT,
    EngineError,
    arithmetic_reason,
    not_finite_reason,
)
from backprop_animator.engine.limits import (
    NODES_PER_TIME_CHECK,
    Limits,
    past_deadline,
    too_deep,
)
from backprop_animator.engine.ops import FUNCTIONS, NUMBER_FUNCTIONS, OPS
from backprop_animator.engine.parse import (
    CONSTRUCT_NAMES,
    IMPORTABLE,
    NO_EFFECT_FUNCTIONS,
    RESERVED,
    STRAIGHT_LINE_OPERATORS,
    SourceLines,
)
from backprop_animator.engine.value import Value, creation_order, mark_written_left

Operand = Value | float
Env = dict[str, Operand]
Expr = Callable[[Env], Operand]
isfinite = math.isfinite

# The operators §2 has no meaning for, as their errors write them.
OPERATOR_SYMBOLS: dict[type[ast.operator], str] = {
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
}


_ONLY_NAMES = "only names can be assigned to (and `x.label = '...'`)"
_VALUE_EXPONENT = (
    "the exponent of ** must be a plain number like 2 or -1; "
    "a name assigned a number is a Value leaf, so write the number itself"
)


# A straight-line program charges no interpreter steps: the clock is read after each
# statement and every so many nodes (SPEC §16: the time limit holds in every host).
TOO_LONG = "the program took too long to trace"


class StraightLine:
    """Runs one straight-line program; `run` returns its output, the recorder's nodes
    and their places filled in by `adopt` (a `Recorder.adopt_plain`)."""

    def __init__(
        self,
        lines: SourceLines,
        granularity: str,
        limits: Limits,
        adopt: Callable[[Value, tuple[int, int]], None],
    ) -> None:
        self.lines = lines
        self.limits = limits
        self.expanded = granularity == "expanded"
        self.adopt = adopt
        self.env: Env = {}
        self.node_count = 0
        self.next_time_check = NODES_PER_TIME_CHECK
        self.depth = 0
        self.output: Value | None = None
        self.backward_line: int | None = None
        self.last: Operand | None = None

    def run(self, tree: ast.Module) -> Value:
        limits = self.limits
        for statement in tree.body:
            self.statement(statement)()
            if past_deadline():
                raise limits.exceeded("time_limit", TOO_LONG, *self.lines.position(statement))
        result = self.output if self.output is not None else self.last
        if result is None:
            raise EngineError(NO_RESULT)
        if not isinstance(result, Value):
            raise EngineError(
                f"the program's result is the plain number {result!r}, not a Value; "
                "use at least one named input or Value(...)"
            )
        return result

    # Statements: each compiles to a closure of no arguments.

    def statement(self, node: ast.stmt) -> Callable[[], None]:
        compile_statement = _STATEMENTS.get(type(node))
        if compile_statement is None:
            return self.fail(node, self.unsupported(node))
        return compile_statement(self, node)

    def import_all(self, node: ast.Import) -> Callable[[], None]:
        return self.fail(node, "only `from ... import Value` is accepted; nothing is imported")

    def pass_statement(self, node: ast.Pass) -> Callable[[], None]:
        return lambda: None

    def expression_statement(self, node: ast.Expr) -> Callable[[], None]:
        call = node.value
        if isinstance(call, ast.Constant) and isinstance(call.value, str):
            return lambda: None  # a docstring or a string on its own line: a comment
        if isinstance(call, ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id in NO_EFFECT_FUNCTIONS:
                return lambda: None  # accepted so the article's code pastes as it is
            if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
                return self.backward(call, call.func)
        value = self.expr(node.value)
        env = self.env

        def run() -> None:
            self.last = value(env)

        return run

    def backward(self, call: ast.Call, func: ast.Attribute) -> Callable[[], None]:
        if call.args or call.keywords:
            return self.fail(call, "backward() takes no arguments")
        target = self.expr(func.value)
        env = self.env

        def run() -> None:
            output = target(env)
            if not isinstance(output, Value):
                raise self.error(call, "backward() needs a Value, not a plain number")
            if self.output is not None:
                raise self.error(
                    call,
                    f"backward() was already called on line {self.backward_line}; "
                    "the player shows one backward pass",
                )
            self.output = output
            self.backward_line = call.lineno

        return run

    def assign(self, node: ast.Assign) -> Callable[[], None]:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute):
            return self.set_label(node.targets[0], node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
            return self.unpack(node.targets[0], node.value)
        value = self.expr(node.value)
        binds = [self.binder(target) for target in node.targets]
        env = self.env

        def run() -> None:
            result = value(env)
            for bind in binds:
                result = bind(result)
            self.last = result

        return run

    def unpack(self, target: ast.Tuple, value: ast.expr) -> Callable[[], None]:
        if not isinstance(value, ast.Tuple) or len(value.elts) != len(target.elts):
            return self.fail(target, "unpacking needs as many values as names: a, b = 1.0, 2.0")
        items = [self.expr(item) for item in value.elts]
        binds = [self.binder(name, "only names can be assigned to") for name in target.elts]
        env = self.env

        def run() -> None:
            values = [item(env) for item in items]
            for bind, item in zip(binds, values, strict=True):
                self.last = bind(item)

        return run

    def set_label(self, target: ast.Attribute, value: ast.expr) -> Callable[[], None]:
        if target.attr != "label":
            return self.fail(target, f"only `.label` can be set, not `.{target.attr}`")
        node = self.expr(target.value)
        env = self.env

        def run() -> None:
            labelled = node(env)
            if not isinstance(labelled, Value):
                raise self.error(target, "only a Value has a label")
            labelled.label = self.label_text(value)

        return run

    def label_text(self, value: ast.expr) -> str:
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            raise self.error(value, "a label must be a string, like x.label = 'x1'")
        return value.value

    def augmented_assign(self, node: ast.AugAssign) -> Callable[[], None]:
        target = node.target
        if not isinstance(target, ast.Name):
            return self.fail(target, "only a name can be updated with +=, -=, *=, /=")
        current = self.name(target)
        value = self.expr(node.value)
        # Like micrograd, `c += e` builds a new node c + e and rebinds c.
        combine = self.binary_of(node, node.op)
        bind = self.binder(target)
        env = self.env

        def run() -> None:
            left = current(env)
            self.last = bind(combine(left, value(env)))

        return run

    def import_from(self, node: ast.ImportFrom) -> Callable[[], None]:
        if node.module == "__future__":
            return lambda: None  # `from __future__ import annotations`: nothing to do
        names = {alias.name for alias in node.names}
        renamed = any(alias.asname for alias in node.names)
        if not names <= IMPORTABLE or renamed:
            return self.fail(
                node, "only `Value` (and `draw_dot`) can be imported; nothing else is available"
            )
        return lambda: None

    def binder(self, target: ast.expr, message: str = _ONLY_NAMES) -> Callable[[Operand], Value]:
        """Give a name its value; numbers become labelled leaves, new nodes take the name."""
        if not isinstance(target, ast.Name):
            error = self.error(target, message)

            def refuse(value: Operand) -> Value:
                raise error

            return refuse
        name = target.id
        env = self.env
        position = self.place(target)

        def bind(value: Operand) -> Value:
            if name in RESERVED:
                raise self.error(target, f"`{name}` is a built-in here; choose another name")
            if isinstance(value, Value):
                value.label = value.label or name
            else:
                value = Value(value, label=name)
                self.count_nodes(target, value, -1, position)
            env[name] = value
            return value

        return bind

    # Expressions: each compiles to a closure of the environment.

    def expr(self, node: ast.expr) -> Expr:
        self.depth += 1
        try:
            if self.depth > self.limits.max_depth:
                line, column = self.lines.position(node)
                error = self.limits.exceeded("max_depth", too_deep(node), line, column)
                return self.raising(error)
            compile_expression = _EXPRESSIONS.get(type(node))
            if compile_expression is None:
                return self.raising(self.error(node, self.unsupported(node)))
            return compile_expression(self, node)
        finally:
            self.depth -= 1

    def attribute(self, node: ast.Attribute) -> Expr:
        message = f"reading `.{node.attr}` is not supported; the player shows data and grad"
        return self.raising(self.error(node, message))

    def binary(self, node: ast.BinOp) -> Expr:
        left = self.expr(node.left)
        right = self.expr(node.right)
        combine = self.binary_of(node, node.op)
        return lambda env: combine(left(env), right(env))

    def binary_of(self, node: ast.AST, op: ast.operator) -> Callable[[Operand, Operand], Operand]:
        entry = STRAIGHT_LINE_OPERATORS.get(type(op))
        if entry is None:
            symbol = OPERATOR_SYMBOLS.get(type(op), type(op).__name__)
            error = self.error(node, f"the operator {symbol} is not supported")

            def refuse(left: Operand, right: Operand) -> Operand:
                raise error

            return refuse
        symbol, compute = entry
        apply = self.applier(node, symbol, compute)
        if symbol == "**":

            def power(left: Operand, right: Operand) -> Operand:
                if isinstance(right, Value):
                    raise self.error(node, _VALUE_EXPONENT)
                return apply(left, right)

            return power
        if symbol == "*":

            def times(left: Operand, right: Operand) -> Operand:
                result = apply(left, right)
                if type(left) is not Value:
                    mark_written_left(result)
                return result

            return times
        return apply

    def name(self, node: ast.Name) -> Expr:
        name = node.id

        def lookup(env: Env) -> Operand:
            try:
                return env[name]
            except KeyError:
                if name in RESERVED:
                    message = f"`{name}` is a function; call it, like {name}(x)"
                    raise self.error(node, message) from None
                raise self.error(node, f"name '{name}' is not defined") from None

        return lookup

    def constant(self, node: ast.Constant) -> Expr:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            if isinstance(value, str):
                return self.raising(
                    self.error(node, "strings are only used as labels: x.label = 'x1'")
                )
            return self.raising(self.error(node, f"{value!r} is not a number"))
        try:
            number = float(value)
        except OverflowError:
            return self.raising(self.error(node, "this number is too large for a float"))
        if not isfinite(number):
            return self.raising(
                self.error(node, "this number is too large for a float (it would be inf)")
            )
        return lambda env: number

    def unary(self, node: ast.UnaryOp) -> Expr:
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.USub):
            negate = self.applier(node, "-", operator.neg)
            return lambda env: negate(operand(env))
        symbol = "not" if isinstance(node.op, ast.Not) else "~"
        error = self.error(node, f"the operator {symbol} is not supported")

        def refuse(env: Env) -> Operand:
            operand(env)
            raise error

        return refuse

    def call(self, node: ast.Call) -> Expr:
        func = node.func
        if isinstance(func, ast.Name):
            name = func.id
            if name == "Value":
                return self.make_value(node)
            if name in FUNCTIONS:
                argument = self.only_argument(node)
                if argument is None:
                    return self.raising(self.error(node, f"{name}() takes exactly one argument"))
                return self.function(node, name, self.expr(argument))
            if name in NO_EFFECT_FUNCTIONS:
                return self.raising(
                    self.error(node, f"{name}() has no value; call it on a line of its own")
                )
            not_function = self.error(node, f"`{name}` is not a function")
            unknown = self.error(
                node, f"unknown function '{name}'; available: {', '.join(FUNCTIONS)}, Value"
            )

            def refuse(env: Env) -> Operand:
                raise not_function if name in env else unknown

            return refuse
        if isinstance(func, ast.Attribute):
            method = func.attr
            if method == "backward":
                return self.raising(
                    self.error(node, "backward() returns nothing; call it on a line of its own")
                )
            if method not in FUNCTIONS:
                return self.raising(self.error(node, f"unknown method .{method}()"))
            if node.args or node.keywords:
                return self.raising(self.error(node, f".{method}() takes no arguments"))
            target = self.expr(func.value)
            apply = self.function_of(node, method)

            def run_method(env: Env) -> Operand:
                value = target(env)
                if not isinstance(value, Value):
                    message = f"a plain number has no .{method}(); write {method}(x) or Value(x)"
                    raise self.error(node, message)
                return apply(value)

            return run_method
        return self.raising(
            self.error(node, "only the functions and methods of Value can be called")
        )

    def only_argument(self, node: ast.Call) -> ast.expr | None:
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            return None
        return node.args[0]

    def make_value(self, node: ast.Call) -> Expr:
        if len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
            return self.raising(
                self.error(node, "Value() takes one number, like Value(2.0, label='x1')")
            )
        label = ""
        for keyword in node.keywords:
            if keyword.arg != "label":
                return self.raising(self.error(node, "Value() accepts only a label=... keyword"))
            try:
                label = self.label_text(keyword.value)
            except EngineError as error:
                return self.raising(error)
        data = self.expr(node.args[0])
        position = self.place(node)

        def make(env: Env) -> Operand:
            number = data(env)
            if isinstance(number, Value):
                raise self.error(node, "Value() takes a plain number, not another Value")
            leaf = Value(number, label=label)
            self.count_nodes(node, leaf, -1, position)
            return leaf

        return make

    def function(self, node: ast.AST, name: str, argument: Expr) -> Expr:
        apply = self.function_of(node, name)
        return lambda env: apply(argument(env))

    def function_of(self, node: ast.AST, name: str) -> Callable[[Operand], Operand]:
        on_number = self.applier(node, name, NUMBER_FUNCTIONS[name])
        expanded = OPS[name].expanded
        on_value = self.applier(
            node,
            name,
            expanded if self.expanded and expanded is not None else getattr(Value, name),
        )

        def apply(argument: Operand) -> Operand:
            return on_value(argument) if isinstance(argument, Value) else on_number(argument)

        return apply

    def applier(
        self, node: ast.AST, what: str, compute: Callable[..., Operand]
    ) -> Callable[..., Operand]:
        """`compute(*operands)` at `node`: floating-point trouble is an error there, and
        the nodes it makes are counted and handed to the recorder."""
        position = self.place(node)
        count_nodes = self.count_nodes

        def apply(*operands: Operand) -> Operand:
            mark = next(creation_order)
            try:
                result = compute(*operands)
            except (ZeroDivisionError, OverflowError, ValueError, TypeError) as error:
                reason = arithmetic_reason(error, domain=NO_REAL_RESULT)
                raise self.error(node, f"{what}: {reason}") from None
            if type(result) is Value:
                count_nodes(node, result, mark, position)
            elif type(result) is not float or not isfinite(result):
                if isinstance(result, Value):
                    count_nodes(node, result, mark, position)
                else:
                    self.check_number(node, what, result)
            return result

        return apply

    def count_nodes(self, node: ast.AST, out: Value, mark: int, where: tuple[int, int]) -> None:
        """Check the nodes one operation made (those numbered after `mark`), count them
        and hand them to the recorder with the operation's place."""
        adopt = self.adopt
        seen: set[Value] = set()  # op nodes walked: a node reached twice is walked once
        stack = [out]
        count = 0
        while stack:
            new = stack.pop()
            if new._seq <= mark or new in seen:
                continue
            count += 1
            data = new.data
            if type(data) is not float or not isfinite(data):
                self.check_number(node, new._op or "Value", data)
            if new._prev:
                seen.add(new)
                stack.extend(new._prev)
            adopt(new, where)
        self.node_count += count
        if self.node_count > self.limits.max_nodes:
            line, column = self.lines.position(node)
            raise self.limits.exceeded("max_nodes", "the graph has too many nodes", line, column)
        if self.node_count >= self.next_time_check:  # one statement may make many nodes
            self.next_time_check = self.node_count + NODES_PER_TIME_CHECK
            if past_deadline():
                raise self.limits.exceeded("time_limit", TOO_LONG, *self.lines.position(node))

    # Errors and places

    def place(self, node: ast.AST) -> tuple[int, int]:
        line, column = self.lines.position(node)
        return (line or 1, column or 1)

    def check_number(self, node: ast.AST, what: str, value: object) -> None:
        if isinstance(value, complex):
            raise self.error(node, f"{what}: math domain error (the result is complex)")
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise self.error(node, not_finite_reason(what, value))

    def error(self, node: ast.AST, message: str) -> EngineError:
        line, column = self.lines.position(node)
        return EngineError(message, line, column)

    def unsupported(self, node: ast.AST) -> str:
        name = CONSTRUCT_NAMES.get(type(node), type(node).__name__)
        return f"not supported in this language: {name}"

    def fail(self, node: ast.AST, message: str) -> Callable[[], None]:
        error = self.error(node, message)

        def refuse() -> None:
            raise error

        return refuse

    def raising(self, error: EngineError) -> Expr:
        def refuse(env: Env) -> Operand:
            raise error

        return refuse


# What each statement and expression of §2 compiles with; anything else is refused.
_STATEMENTS: dict[type[ast.stmt], Callable[[StraightLine, Any], Callable[[], None]]] = {
    ast.Expr: StraightLine.expression_statement,
    ast.Assign: StraightLine.assign,
    ast.AugAssign: StraightLine.augmented_assign,
    ast.ImportFrom: StraightLine.import_from,
    ast.Import: StraightLine.import_all,
    ast.Pass: StraightLine.pass_statement,
}
_EXPRESSIONS: dict[type[ast.expr], Callable[[StraightLine, Any], Expr]] = {
    ast.BinOp: StraightLine.binary,
    ast.Name: StraightLine.name,
    ast.Constant: StraightLine.constant,
    ast.UnaryOp: StraightLine.unary,
    ast.Call: StraightLine.call,
    ast.Attribute: StraightLine.attribute,
}
