"""Python's AST -> nested closures, compiled once before the program runs.

Every node the language accepts becomes a small Python function of the running frame
(`Callable[[Frame], Any]`), built once here and called as often as the program says,
so running does not re-dispatch on node types at every step ("closure compilation",
Feeley and Lapalme 1987). Anything not compiled here is refused with its position
before a single statement runs.

Statements return `None`, or a signal for their enclosing loop or function: `BREAK`,
`CONTINUE` or `RETURN` (the value waits in the frame). Each statement charges a step,
remembers where it is (for build frames and errors) and locates any error it lets
through; each call adds its line to the error's call chain.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.interpreter import scope as scopes
from engine.interpreter.library import hashable
from engine.interpreter.machine import RETURN, Machine
from engine.interpreter.objects import (
    MISSING,
    BoundMethod,
    Frame,
    Function,
    Inert,
    PClass,
    PInstance,
    PModule,
    PSet,
    PSuper,
)
from engine.interpreter.runtime import MAX_INT, MAX_STR, ProgramError
from engine.interpreter.text import Texts
from engine.value import Value

if TYPE_CHECKING:
    from engine.parse import SourceLines
    from engine.passes import Recorder

Expr = Callable[[Frame], Any]
Stmt = Callable[[Frame], Any]

BREAK: Any = object()
CONTINUE: Any = object()

_BINARY = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
_COMPARE = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
_REFUSED: dict[type[ast.AST], str] = {
    ast.AsyncFunctionDef: "async functions",
    ast.AsyncFor: "async for",
    ast.AsyncWith: "async with",
    ast.With: "with statements",
    ast.Try: "try statements",
    ast.Raise: "raise",
    ast.Await: "await",
    ast.Yield: "yield (generators)",
    ast.YieldFrom: "yield (generators)",
    ast.NamedExpr: "the walrus operator (:=)",
    ast.Match: "match statements",
}
IMPORTABLE_MODULES = ("math", "random")
PASTE_NAMES = ("Value", "draw_dot", "Digraph")  # `from anything import Value` and friends


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


class Compiler:
    """Compiles one program against the machine and recorder that will run it."""

    def __init__(
        self,
        machine: Machine,
        recorder: Recorder,
        lines: SourceLines,
        globals_: dict[str, Any],
        builtins: dict[str, Any],
        modules: dict[str, PModule],
        max_depth: int,
    ) -> None:
        self.m = machine
        self.rec = recorder
        self.lines = lines
        self.globals = globals_
        self.builtins = builtins
        self.modules = modules
        self.max_depth = max_depth
        self.depth = 0

    # Errors and positions

    def pos(self, node: ast.AST) -> tuple[int, int]:
        line, column = self.lines.position(node)
        return (line or 1, column or 1)

    def error(self, node: ast.AST, message: str) -> EngineError:
        line, column = self.pos(node)
        return EngineError(message, line, column)

    # Module

    def module(self, tree: ast.Module) -> Stmt:
        scope = scopes.module_scope(tree.body)
        return self.block(tree.body, scope)

    def block(self, body: list[ast.stmt], scope: scopes.Scope) -> Stmt:
        statements = [self.stmt(node, scope) for node in body]
        if len(statements) == 1:
            return statements[0]

        def run(f: Frame) -> Any:
            for statement in statements:
                signal = statement(f)
                if signal is not None:
                    return signal
            return None

        return run

    # Statements

    def stmt(self, node: ast.stmt, scope: scopes.Scope) -> Stmt:
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.m.state.limits.exceeded(
                "max_depth", "statements are nested too deeply", *self.pos(node)
            )
        try:
            inner = self.stmt_node(node, scope)
        finally:
            self.depth -= 1
        return self.wrap(node, inner)

    def wrap(self, node: ast.stmt, inner: Stmt) -> Stmt:
        """Charge a step, remember the position, locate errors, group updates."""
        state = self.m.state
        rec = self.rec
        position = self.pos(node)
        line, column = position
        anchors = not _calls_backward(node)
        text = self.lines.text(node)

        def run(f: Frame) -> Any:
            state.steps += 1
            if state.steps > state.max_steps:
                raise state.out_of_steps().located(line, column)
            state.position = position
            try:
                if anchors and rec.anchor is None:
                    rec.open_anchor(line, text)
                    try:
                        return inner(f)
                    finally:
                        rec.anchor = None
                return inner(f)
            except ProgramError as error:
                raise error.located(line, column) from None
            except RecursionError:
                limit = state.limits.exceeded("max_depth", "the program nests too deeply")
                raise ProgramError(limit.message).located(line, column) from None

        return run

    def stmt_node(self, node: ast.stmt, scope: scopes.Scope) -> Stmt:
        kind = type(node)
        if kind is ast.Expr:
            return self.expression_statement(node, scope)  # type: ignore[arg-type]
        if kind is ast.Assign:
            return self.assign(node, scope)  # type: ignore[arg-type]
        if kind is ast.AugAssign:
            return self.augmented(node, scope)  # type: ignore[arg-type]
        if kind is ast.AnnAssign:
            assert isinstance(node, ast.AnnAssign)
            if node.value is None:
                return lambda f: None
            return self.assign(ast.Assign([node.target], node.value, lineno=node.lineno), scope)
        if kind is ast.For:
            return self.for_loop(node, scope)  # type: ignore[arg-type]
        if kind is ast.While:
            return self.while_loop(node, scope)  # type: ignore[arg-type]
        if kind is ast.If:
            return self.if_statement(node, scope)  # type: ignore[arg-type]
        if kind is ast.FunctionDef:
            return self.function_def(node, scope)  # type: ignore[arg-type]
        if kind is ast.ClassDef:
            return self.class_def(node, scope)  # type: ignore[arg-type]
        if kind is ast.Return:
            return self.return_statement(node, scope)  # type: ignore[arg-type]
        if kind is ast.Pass or kind is ast.Global or kind is ast.Nonlocal:
            return lambda f: None
        if kind is ast.Break:
            return lambda f: BREAK
        if kind is ast.Continue:
            return lambda f: CONTINUE
        if kind is ast.Assert:
            return self.assert_statement(node, scope)  # type: ignore[arg-type]
        if kind is ast.Import:
            return self.import_statement(node, scope)  # type: ignore[arg-type]
        if kind is ast.ImportFrom:
            return self.import_from(node, scope)  # type: ignore[arg-type]
        if kind is ast.Delete:
            return self.delete(node, scope)  # type: ignore[arg-type]
        raise self.unsupported(node)

    def unsupported(self, node: ast.AST) -> EngineError:
        name = _REFUSED.get(type(node), type(node).__name__)
        return self.error(node, f"not supported in this language: {name}")

    def expression_statement(self, node: ast.Expr, scope: scopes.Scope) -> Stmt:
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return lambda f: None  # a docstring
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "draw_dot"
        ):
            return lambda f: None  # pasted article code draws; here the player does
        expr = self.expr(value, scope)
        rec = self.rec

        def run(f: Frame) -> None:
            rec.last = expr(f)

        return run

    def assign(self, node: ast.Assign, scope: scopes.Scope) -> Stmt:
        value = self.expr(node.value, scope)
        stores = [self.store(target, scope, label=True) for target in node.targets]
        if scope.kind == "module":
            # A top-level assignment is a result too, as in the straight-line language.
            stores.append(self.remember_result)
        if len(stores) == 1:
            store = stores[0]

            def run_one(f: Frame) -> None:
                store(f, value(f))

            return run_one

        def run(f: Frame) -> None:
            result = value(f)
            for store in stores:
                store(f, result)

        return run

    def remember_result(self, f: Frame, value: Any) -> None:
        self.rec.last = value

    def store(
        self, target: ast.expr, scope: scopes.Scope, label: bool = False
    ) -> Callable[[Frame, Any], None]:
        """A function that binds a value to the target: a name, attribute, item or tuple."""
        if isinstance(target, ast.Name):
            return self.store_name(target.id, scope, label)
        if isinstance(target, ast.Attribute):
            self.check_attribute(target, scope)
            obj = self.expr(target.value, scope)
            name = target.attr
            set_attr = self.m.set_attr

            def store_attribute(f: Frame, value: Any) -> None:
                set_attr(obj(f), name, value)

            return store_attribute
        if isinstance(target, ast.Subscript):
            container = self.expr(target.value, scope)
            key = self.expr(target.slice, scope)
            set_item = self.m.set_item

            def store_item(f: Frame, value: Any) -> None:
                set_item(container(f), key(f), value)

            return store_item
        if isinstance(target, ast.Tuple | ast.List):
            return self.unpack(target, scope, label)
        raise self.error(target, "this cannot be assigned to")

    def unpack(
        self, target: ast.Tuple | ast.List, scope: scopes.Scope, label: bool
    ) -> Callable[[Frame, Any], None]:
        starred = [i for i, t in enumerate(target.elts) if isinstance(t, ast.Starred)]
        if len(starred) > 1:
            raise self.error(target, "only one starred target is allowed")
        stores = [
            self.store(t.value if isinstance(t, ast.Starred) else t, scope, label)
            for t in target.elts
        ]
        star = starred[0] if starred else None
        count = len(stores)
        m = self.m
        state = m.state

        def run(f: Frame, value: Any) -> None:
            if type(value) in (list, tuple):
                items = value
            else:
                items = []
                for item in m.iterate(value):
                    state.charge(1)
                    items.append(item)
                    if len(items) > count and star is None:
                        break
            if star is None:
                if len(items) != count:
                    raise ProgramError(
                        f"cannot unpack {len(items)} values into {count} names"
                        if len(items) < count
                        else f"too many values to unpack (expected {count})"
                    )
                for store, item in zip(stores, items, strict=True):
                    store(f, item)
                return
            after = count - star - 1
            if len(items) < count - 1:
                raise ProgramError(f"not enough values to unpack (expected at least {count - 1})")
            for i in range(star):
                stores[i](f, items[i])
            stores[star](f, list(items[star : len(items) - after]))
            for i in range(after):
                stores[star + 1 + i](f, items[len(items) - after + i])

        return run

    def store_name(
        self, name: str, scope: scopes.Scope, label: bool
    ) -> Callable[[Frame, Any], None]:
        how, hops = scope.resolve(name)
        globals_ = self.globals

        def name_it(value: Any) -> None:
            if type(value) is Value and not value.label:
                value.label = name

        if how == "global":
            if label:

                def store_global_label(f: Frame, value: Any) -> None:
                    if type(value) is Value and not value.label:
                        value.label = name
                    globals_[name] = value

                return store_global_label

            def store_global(f: Frame, value: Any) -> None:
                globals_[name] = value

            return store_global
        if how in ("local", "class"):
            if label:

                def store_local_label(f: Frame, value: Any) -> None:
                    if type(value) is Value and not value.label:
                        value.label = name
                    f.vars[name] = value

                return store_local_label

            def store_local(f: Frame, value: Any) -> None:
                f.vars[name] = value

            return store_local

        def store_free(f: Frame, value: Any) -> None:
            if label:
                name_it(value)
            frame = f
            for _ in range(hops):
                assert frame.parent is not None
                frame = frame.parent
            frame.vars[name] = value

        return store_free

    def augmented(self, node: ast.AugAssign, scope: scopes.Scope) -> Stmt:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.error(node, "this operator is not supported")
        binary = self.m.binary
        value = self.expr(node.value, scope)
        target = node.target
        if isinstance(target, ast.Name):
            load = self.name(target, scope)
            store = self.store_name(target.id, scope, label=True)
            rec = self.rec
            top_level = scope.kind == "module"

            def run_name(f: Frame) -> None:
                result = binary(op, load(f), value(f))
                store(f, result)
                if top_level:
                    rec.last = result

            return run_name
        if isinstance(target, ast.Attribute):
            self.check_attribute(target, scope)
            obj_expr = self.expr(target.value, scope)
            name = target.attr
            get_attr = self.m.get_attr
            set_attr = self.m.set_attr
            if name == "grad" and op == "+":
                return self.grad_accumulation(node, obj_expr, scope)

            def run_attribute(f: Frame) -> None:
                obj = obj_expr(f)
                set_attr(obj, name, binary(op, get_attr(obj, name), value(f)))

            return run_attribute
        if isinstance(target, ast.Subscript):
            container_expr = self.expr(target.value, scope)
            key_expr = self.expr(target.slice, scope)
            get_item = self.m.get_item
            set_item = self.m.set_item

            def run_item(f: Frame) -> None:
                container = container_expr(f)
                key = key_expr(f)
                set_item(container, key, binary(op, get_item(container, key), value(f)))

            return run_item
        raise self.error(target, "this cannot be updated")

    def grad_accumulation(self, node: ast.AugAssign, obj_expr: Expr, scope: scopes.Scope) -> Stmt:
        """`child.grad += local * out.grad`: the chain rule's move, watched exactly.

        When the right side is `<local> * <something>.grad` (or just `<something>.grad`),
        the local derivative is the left factor's own value, not a quotient.
        """
        m = self.m
        rec = self.rec
        binary = m.binary
        get_attr = m.get_attr
        set_attr = m.set_attr
        right = node.value
        local_expr: Expr | None = None
        upstream_expr: Expr
        if (
            isinstance(right, ast.BinOp)
            and isinstance(right.op, ast.Mult)
            and isinstance(right.right, ast.Attribute)
            and right.right.attr == "grad"
        ):
            local_expr = self.expr(right.left, scope)
            upstream_expr = self.expr(right.right, scope)
        else:
            upstream_expr = self.expr(right, scope)

        def run(f: Frame) -> None:
            obj = obj_expr(f)
            if local_expr is not None:
                local = local_expr(f)
                delta = binary("*", local, upstream_expr(f))
            else:
                local = None
                delta = upstream_expr(f)
            before = get_attr(obj, "grad")
            after = binary("+", before, delta)
            if rec.in_rule is not None and type(obj) is PInstance and obj.mirror is not None:
                rec.contribution(obj, local, delta, before, after)
                obj.attrs["grad"] = after
                return
            set_attr(obj, "grad", after)

        return run

    def for_loop(self, node: ast.For, scope: scopes.Scope) -> Stmt:
        iterable = self.expr(node.iter, scope)
        store = self.store(node.target, scope)
        body = self.block(node.body, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        state = self.m.state
        iterate = self.m.iterate

        def run(f: Frame) -> Any:
            for item in iterate(iterable(f)):
                state.steps += 1
                if state.steps > state.max_steps:
                    raise state.out_of_steps()
                store(f, item)
                signal = body(f)
                if signal is not None:
                    if signal is BREAK:
                        return None
                    if signal is not CONTINUE:
                        return signal
            if orelse is not None:
                return orelse(f)
            return None

        return run

    def while_loop(self, node: ast.While, scope: scopes.Scope) -> Stmt:
        test = self.expr(node.test, scope)
        body = self.block(node.body, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        state = self.m.state
        truthy = self.m.truthy

        def run(f: Frame) -> Any:
            while truthy(test(f)):
                state.steps += 1
                if state.steps > state.max_steps:
                    raise state.out_of_steps()
                signal = body(f)
                if signal is not None:
                    if signal is BREAK:
                        return None
                    if signal is not CONTINUE:
                        return signal
            if orelse is not None:
                return orelse(f)
            return None

        return run

    def if_statement(self, node: ast.If, scope: scopes.Scope) -> Stmt:
        test = self.expr(node.test, scope)
        body = self.block(node.body, scope)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        truthy = self.m.truthy

        def run(f: Frame) -> Any:
            if truthy(test(f)):
                return body(f)
            if orelse is not None:
                return orelse(f)
            return None

        return run

    def return_statement(self, node: ast.Return, scope: scopes.Scope) -> Stmt:
        if scope.kind not in ("function",):
            raise self.error(node, "return outside a function")
        if node.value is None:

            def run_none(f: Frame) -> Any:
                f.ret = None
                return RETURN

            return run_none
        value = self.expr(node.value, scope)

        def run(f: Frame) -> Any:
            f.ret = value(f)
            return RETURN

        return run

    def assert_statement(self, node: ast.Assert, scope: scopes.Scope) -> Stmt:
        test = self.expr(node.test, scope)
        message = self.expr(node.msg, scope) if node.msg is not None else None
        truthy = self.m.truthy
        texts = self.m.texts

        def run(f: Frame) -> None:
            if not truthy(test(f)):
                detail = f": {texts.to_str(message(f))[:200]}" if message is not None else ""
                raise ProgramError(f"assertion failed{detail}")

        return run

    def import_statement(self, node: ast.Import, scope: scopes.Scope) -> Stmt:
        stores = []
        for alias in node.names:
            if alias.name not in IMPORTABLE_MODULES:
                raise self.error(
                    node,
                    f"`import {alias.name}` is not available; only math and random can be "
                    "imported (and Value from anywhere)",
                )
            stores.append((self.store_name(alias.asname or alias.name, scope, False), alias.name))
        modules = self.modules

        def run(f: Frame) -> None:
            for store, name in stores:
                store(f, modules[name])

        return run

    def import_from(self, node: ast.ImportFrom, scope: scopes.Scope) -> Stmt:
        module = node.module or ""
        bindings: list[tuple[Callable[[Frame, Any], None], Any]] = []
        for alias in node.names:
            if alias.name == "*":
                raise self.error(node, "`import *` is not available here")
            if module in IMPORTABLE_MODULES:
                members = self.modules[module].members
                if alias.name.startswith("_") or alias.name not in members:
                    raise self.error(node, f"{module} has no '{alias.name}' here")
                value = members[alias.name]
            elif alias.name == "Value":
                value = self.builtins["Value"]
            elif alias.name in PASTE_NAMES:
                value = Inert(alias.name)
            else:
                raise self.error(
                    node,
                    f"`from {module} import {alias.name}` is not available; only math, random "
                    "and Value can be imported",
                )
            bindings.append((self.store_name(alias.asname or alias.name, scope, False), value))

        def run(f: Frame) -> None:
            for store, value in bindings:
                store(f, value)

        return run

    def delete(self, node: ast.Delete, scope: scopes.Scope) -> Stmt:
        actions: list[Callable[[Frame], None]] = []
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                actions.append(self.delete_item(target, scope))
            elif isinstance(target, ast.Name) and scope.resolve(target.id)[0] in ("local", "class"):
                actions.append(_delete_local(target.id))
            elif isinstance(target, ast.Name) and scope.resolve(target.id)[0] == "global":
                actions.append(_delete_global(target.id, self.globals))
            else:
                raise self.error(target, "only names and items can be deleted")

        def run(f: Frame) -> None:
            for action in actions:
                action(f)

        return run

    def delete_item(self, target: ast.Subscript, scope: scopes.Scope) -> Callable[[Frame], None]:
        container = self.expr(target.value, scope)
        key = self.expr(target.slice, scope)
        del_item = self.m.del_item

        def run(f: Frame) -> None:
            del_item(container(f), key(f))

        return run

    # Definitions

    def function_def(self, node: ast.FunctionDef, scope: scopes.Scope) -> Stmt:
        if node.decorator_list:
            raise self.error(node.decorator_list[0], "decorators are not supported")
        make = self.function(node, node.name, scope, node.body)
        store = self.store_name(node.name, scope, False)

        def run(f: Frame) -> None:
            store(f, make(f))

        return run

    def function(
        self,
        node: ast.FunctionDef | ast.Lambda,
        name: str,
        scope: scopes.Scope,
        body: list[ast.stmt] | ast.expr,
    ) -> Callable[[Frame], Function]:
        args = node.args
        if args.posonlyargs:
            raise self.error(node, "positional-only parameters (/) are not supported")
        inner = scopes.function_scope(node, scope)
        params = tuple(a.arg for a in args.args)
        kwonly = tuple(a.arg for a in args.kwonlyargs)
        vararg = args.vararg.arg if args.vararg else None
        kwarg = args.kwarg.arg if args.kwarg else None
        defaults = [self.expr(d, scope) for d in args.defaults]
        kwdefaults = [
            (a.arg, self.expr(d, scope))
            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
            if d is not None
        ]
        uses_super = _uses_super(body)
        if isinstance(body, list):
            compiled = self.block(body, inner)
        else:
            value = self.expr(body, inner)

            def compiled(f: Frame) -> Any:
                f.ret = value(f)
                return RETURN

        in_class = scope.kind == "class"

        def make(f: Frame) -> Function:
            closure = f.parent if in_class else f
            fn = Function(
                name,
                params,
                tuple(d(f) for d in defaults),
                vararg,
                kwonly,
                {k: d(f) for k, d in kwdefaults},
                kwarg,
                compiled,
                closure,
            )
            fn.uses_super = uses_super
            return fn

        return make

    def class_def(self, node: ast.ClassDef, scope: scopes.Scope) -> Stmt:
        if node.decorator_list:
            raise self.error(node.decorator_list[0], "decorators are not supported")
        if node.keywords:
            raise self.error(node, "class keywords (metaclass=...) are not supported")
        bases = [self.expr(base, scope) for base in node.bases]
        inner = scopes.class_scope(node, scope)
        body = self.block(node.body, inner)
        store = self.store_name(node.name, scope, False)
        name = node.name
        in_class = scope.kind == "class"

        def run(f: Frame) -> None:
            base_classes = []
            for base in bases:
                value = base(f)
                if type(value) is not PClass:
                    raise ProgramError(f"class {name} can only inherit from the program's classes")
                base_classes.append(value)
            namespace: dict[str, Any] = {}
            signal = body(Frame(namespace, f.parent if in_class else f))
            if signal is not None:
                raise ProgramError("break, continue and return belong inside loops and functions")
            try:
                cls = PClass(name, tuple(base_classes), namespace)
            except TypeError as error:
                raise ProgramError(str(error)) from None
            for value in namespace.values():
                if type(value) is Function and value.owner is None:
                    value.owner = cls
            store(f, cls)

        return run

    # Expressions

    def expr(self, node: ast.expr, scope: scopes.Scope) -> Expr:
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.m.state.limits.exceeded(
                "max_depth", "expressions are nested too deeply here", *self.pos(node)
            )
        try:
            return self.expr_node(node, scope)
        finally:
            self.depth -= 1

    def expr_node(self, node: ast.expr, scope: scopes.Scope) -> Expr:
        kind = type(node)
        if kind is ast.Constant:
            return self.constant(node)  # type: ignore[arg-type]
        if kind is ast.Name:
            return self.name(node, scope)  # type: ignore[arg-type]
        if kind is ast.BinOp:
            return self.binary(node, scope)  # type: ignore[arg-type]
        if kind is ast.Call:
            return self.call(node, scope)  # type: ignore[arg-type]
        if kind is ast.Attribute:
            return self.attribute(node, scope)  # type: ignore[arg-type]
        if kind is ast.Subscript:
            return self.subscript(node, scope)  # type: ignore[arg-type]
        if kind is ast.UnaryOp:
            return self.unary(node, scope)  # type: ignore[arg-type]
        if kind is ast.Compare:
            return self.compare(node, scope)  # type: ignore[arg-type]
        if kind is ast.BoolOp:
            return self.bool_op(node, scope)  # type: ignore[arg-type]
        if kind is ast.IfExp:
            return self.if_expression(node, scope)  # type: ignore[arg-type]
        if kind in (ast.List, ast.Tuple, ast.Set):
            return self.display(node, scope)
        if kind is ast.Dict:
            return self.dict_display(node, scope)  # type: ignore[arg-type]
        if kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            return self.comprehension(node, scope)
        if kind is ast.JoinedStr:
            return self.f_string(node, scope)  # type: ignore[arg-type]
        if kind is ast.Lambda:
            assert isinstance(node, ast.Lambda)
            return self.function(node, "<lambda>", scope, node.body)
        if kind is ast.Slice:
            return self.slice(node, scope)  # type: ignore[arg-type]
        if kind is ast.Starred:
            raise self.error(node, "a starred expression belongs in a call or a list")
        raise self.unsupported(node)

    def constant(self, node: ast.Constant) -> Expr:
        value: Any = node.value
        kind = type(value)
        if kind is str:
            if len(value) > MAX_STR:
                raise self.error(node, f"this string is longer than {MAX_STR:,} characters")
        elif kind is int:
            if not -MAX_INT <= value <= MAX_INT:
                raise self.error(node, "this integer is larger than 2**63; write it as a float")
        elif kind not in (float, bool) and value is not None:
            raise self.error(node, f"{type(value).__name__} literals are not supported")
        return lambda f: value

    def name(self, node: ast.Name, scope: scopes.Scope) -> Expr:
        name = node.id
        if name == "super":
            return self.super_name(node, scope)
        how, hops = scope.resolve(name)
        globals_ = self.globals
        builtins = self.builtins
        line, column = self.pos(node)

        def missing() -> ProgramError:
            return ProgramError(f"name '{name}' is not defined", line, column)

        if how == "global":

            def load_global(f: Frame) -> Any:
                try:
                    return globals_[name]
                except KeyError:
                    if name in builtins:
                        return builtins[name]
                    raise missing() from None

            return load_global
        if how == "local":

            def load_local(f: Frame) -> Any:
                try:
                    return f.vars[name]
                except KeyError:
                    raise ProgramError(
                        f"local variable '{name}' is used before it is given a value", line, column
                    ) from None

            return load_local
        if how == "class":

            def load_class(f: Frame) -> Any:
                if name in f.vars:
                    return f.vars[name]
                return load_global(f)

            return load_class

        def load_free(f: Frame) -> Any:
            frame = f
            for _ in range(hops):
                assert frame.parent is not None
                frame = frame.parent
            try:
                return frame.vars[name]
            except KeyError:
                raise missing() from None

        return load_free

    def super_name(self, node: ast.Name, scope: scopes.Scope) -> Expr:
        if not scope.in_class or scope.kind != "function":
            raise self.error(node, "super() works only inside a method")

        def make(f: Frame) -> Any:
            return _SuperMaker(f)

        return make

    def binary(self, node: ast.BinOp, scope: scopes.Scope) -> Expr:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.error(node, "the operator @ is not supported")
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        binary = self.m.binary
        line, column = self.pos(node)

        def run(f: Frame) -> Any:
            a = left(f)
            b = right(f)
            if type(a) is float and type(b) is float and op in "+-*":
                return a + b if op == "+" else (a - b if op == "-" else a * b)
            try:
                return binary(op, a, b)
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def unary(self, node: ast.UnaryOp, scope: scopes.Scope) -> Expr:
        op = _UNARY[type(node.op)]
        operand = self.expr(node.operand, scope)
        if op == "-" and isinstance(node.operand, ast.Constant):
            value = node.operand.value
            if type(value) in (int, float):
                return lambda f: -value  # type: ignore[operator]
        unary = self.m.unary
        line, column = self.pos(node)

        def run(f: Frame) -> Any:
            try:
                return unary(op, operand(f))
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def compare(self, node: ast.Compare, scope: scopes.Scope) -> Expr:
        left = self.expr(node.left, scope)
        ops = [_COMPARE[type(op)] for op in node.ops]
        rights = [self.expr(c, scope) for c in node.comparators]
        compare = self.m.compare
        line, column = self.pos(node)
        if len(ops) == 1:
            op = ops[0]
            right = rights[0]

            def run_one(f: Frame) -> Any:
                a = left(f)
                b = right(f)
                if type(a) is float and type(b) is float:
                    if op == "<":
                        return a < b
                    if op == ">":
                        return a > b
                try:
                    return compare(op, a, b)
                except ProgramError as error:
                    raise error.located(line, column) from None

            return run_one

        def run(f: Frame) -> Any:
            a = left(f)
            try:
                for op, right in zip(ops, rights, strict=True):
                    b = right(f)
                    if not compare(op, a, b):
                        return False
                    a = b
            except ProgramError as error:
                raise error.located(line, column) from None
            return True

        return run

    def bool_op(self, node: ast.BoolOp, scope: scopes.Scope) -> Expr:
        values = [self.expr(v, scope) for v in node.values]
        truthy = self.m.truthy
        is_and = isinstance(node.op, ast.And)

        def run(f: Frame) -> Any:
            result = None
            for value in values:
                result = value(f)
                if truthy(result) is not is_and:
                    return result
            return result

        return run

    def if_expression(self, node: ast.IfExp, scope: scopes.Scope) -> Expr:
        test = self.expr(node.test, scope)
        body = self.expr(node.body, scope)
        orelse = self.expr(node.orelse, scope)
        truthy = self.m.truthy
        return lambda f: body(f) if truthy(test(f)) else orelse(f)

    def check_attribute(self, node: ast.Attribute, scope: scopes.Scope) -> None:
        if is_dunder(node.attr) and not scope.in_class:
            raise self.error(
                node, f"`.{node.attr}` is not available: dunder attributes belong to class bodies"
            )

    def attribute(self, node: ast.Attribute, scope: scopes.Scope) -> Expr:
        self.check_attribute(node, scope)
        obj = self.expr(node.value, scope)
        name = node.attr
        get_attr = self.m.get_attr
        line, column = self.pos(node)

        def run(f: Frame) -> Any:
            value = obj(f)
            if type(value) is PInstance:
                attrs = value.attrs
                if name in attrs:
                    return attrs[name]
            try:
                return get_attr(value, name)
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def subscript(self, node: ast.Subscript, scope: scopes.Scope) -> Expr:
        container = self.expr(node.value, scope)
        key = self.expr(node.slice, scope)
        get_item = self.m.get_item
        line, column = self.pos(node)

        def run(f: Frame) -> Any:
            c = container(f)
            k = key(f)
            if type(c) is list and type(k) is int:
                try:
                    return c[k]
                except IndexError:
                    pass
            try:
                return get_item(c, k)
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def slice(self, node: ast.Slice, scope: scopes.Scope) -> Expr:
        parts = [
            self.expr(part, scope) if part is not None else None
            for part in (node.lower, node.upper, node.step)
        ]

        def run(f: Frame) -> slice:
            values = [p(f) if p is not None else None for p in parts]
            for v in values:
                if v is not None and type(v) not in (int, bool):
                    raise ProgramError("slice indices must be integers or None")
            if values[2] == 0:
                raise ProgramError("slice step cannot be zero")
            return slice(*values)

        return run

    def call(self, node: ast.Call, scope: scopes.Scope) -> Expr:
        m = self.m
        rec = self.rec
        call = m.call
        call_function = m.call_function
        line, column = self.pos(node)
        args = [self.expr(a.value if isinstance(a, ast.Starred) else a, scope) for a in node.args]
        starred = [isinstance(a, ast.Starred) for a in node.args]
        keywords = [(k.arg, self.expr(k.value, scope)) for k in node.keywords]
        simple_args = not any(starred) and not keywords
        state = m.state

        def arguments(f: Frame) -> tuple[list[Any], dict[str, Any] | None]:
            if simple_args:
                return [a(f) for a in args], None
            values: list[Any] = []
            for a, star in zip(args, starred, strict=True):
                if star:
                    for item in m.iterate(a(f)):
                        state.charge(1)
                        values.append(item)
                else:
                    values.append(a(f))
            kwargs: dict[str, Any] = {}
            for name, k in keywords:
                if name is None:
                    mapping = k(f)
                    if type(mapping) is not dict:
                        raise ProgramError("** needs a dict")
                    for key, value in mapping.items():
                        if type(key) is not str:
                            raise ProgramError("keyword names must be strings")
                        kwargs[key] = value
                else:
                    kwargs[name] = k(f)
            return values, kwargs

        func = node.func
        if isinstance(func, ast.Attribute):
            self.check_attribute(func, scope)
            obj_expr = self.expr(func.value, scope)
            method = func.attr
            get_attr = m.get_attr
            watch_rule = method == "_backward"
            watch_pass = method == "backward"

            def run_method(f: Frame) -> Any:
                obj = obj_expr(f)
                values, kwargs = arguments(f)
                position = state.position
                try:
                    if type(obj) is PInstance and method not in obj.attrs:
                        fn = obj.cls.lookup(method)
                        if type(fn) is Function:
                            if watch_pass and obj.mirror is not None:
                                return rec.user_pass(
                                    obj, lambda: call_function(fn, [obj, *values], kwargs)
                                )
                            return call_function(fn, [obj, *values], kwargs)
                    target = get_attr(obj, method)
                    if watch_rule and type(obj) is PInstance and obj.mirror is not None:
                        return rec.user_rule(obj, lambda: call(target, values, kwargs))
                    return call(target, values, kwargs)
                except ProgramError as error:
                    raise error.located(line, column) from None
                finally:
                    state.position = position

            return run_method

        func_expr = self.expr(func, scope)

        def run(f: Frame) -> Any:
            target = func_expr(f)
            values, kwargs = arguments(f)
            try:
                if type(target) is _SuperMaker:
                    return target.make(values)
                return call(target, values, kwargs)
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def display(self, node: ast.expr, scope: scopes.Scope) -> Expr:
        assert isinstance(node, ast.List | ast.Tuple | ast.Set)
        items = [self.expr(e.value if isinstance(e, ast.Starred) else e, scope) for e in node.elts]
        starred = [isinstance(e, ast.Starred) for e in node.elts]
        kind = type(node)
        m = self.m
        state = m.state

        def values(f: Frame) -> list[Any]:
            if not any(starred):
                return [item(f) for item in items]
            out: list[Any] = []
            for item, star in zip(items, starred, strict=True):
                if star:
                    for value in m.iterate(item(f)):
                        state.charge(1)
                        out.append(value)
                    state.check_items(len(out))
                else:
                    out.append(item(f))
            return out

        if kind is ast.List:
            return values
        if kind is ast.Tuple:
            return lambda f: tuple(values(f))

        def make_set(f: Frame) -> PSet:
            content = values(f)
            for item in content:
                hashable(item)
            return PSet(content)

        return make_set

    def dict_display(self, node: ast.Dict, scope: scopes.Scope) -> Expr:
        pairs = [
            (self.expr(k, scope) if k is not None else None, self.expr(v, scope))
            for k, v in zip(node.keys, node.values, strict=True)
        ]
        set_item = self.m.set_item

        def run(f: Frame) -> dict[Any, Any]:
            out: dict[Any, Any] = {}
            for key, value in pairs:
                if key is None:
                    mapping = value(f)
                    if type(mapping) is not dict:
                        raise ProgramError("** in a dict needs a dict")
                    for k, v in mapping.items():
                        set_item(out, k, v)
                else:
                    set_item(out, key(f), value(f))
            return out

        return run

    def comprehension(self, node: ast.expr, scope: scopes.Scope) -> Expr:
        assert isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp)
        inner = scopes.comprehension_scope(node, scope)
        generators = node.generators
        if any(g.is_async for g in generators):
            raise self.unsupported(node)
        first_iter = self.expr(generators[0].iter, scope)
        loops = []
        for i, generator in enumerate(generators):
            iterable = first_iter if i == 0 else self.expr(generator.iter, inner)
            store = self.store(generator.target, inner)
            conditions = [self.expr(c, inner) for c in generator.ifs]
            loops.append((iterable, store, conditions))
        if isinstance(node, ast.DictComp):
            key_expr = self.expr(node.key, inner)
            value_expr = self.expr(node.value, inner)
        else:
            element = self.expr(node.elt, inner)
        m = self.m
        state = m.state
        truthy = m.truthy
        iterate = m.iterate
        in_class = scope.kind == "class"
        kind = type(node)
        set_item = m.set_item

        def run(f: Frame) -> Any:
            frame = Frame({}, f.parent if in_class else f)
            results: list[Any] = []
            mapping: dict[Any, Any] = {}
            first = first_iter(f)

            def loop(level: int, source: Any) -> None:
                _, store, conditions = loops[level]
                for item in iterate(source):
                    state.steps += 1
                    if state.steps > state.max_steps:
                        raise state.out_of_steps()
                    store(frame, item)
                    if conditions and not all(truthy(c(frame)) for c in conditions):
                        continue
                    if level + 1 < len(loops):
                        loop(level + 1, loops[level + 1][0](frame))
                    elif kind is ast.DictComp:
                        set_item(mapping, key_expr(frame), value_expr(frame))
                    else:
                        results.append(element(frame))

            loop(0, first)
            if kind is ast.DictComp:
                return mapping
            state.check_items(len(results))
            if kind is ast.ListComp:
                return results
            if kind is ast.SetComp:
                for item in results:
                    hashable(item)
                return PSet(results)
            return iter(results)

        return run

    def f_string(self, node: ast.JoinedStr, scope: scopes.Scope) -> Expr:
        parts: list[Expr] = []
        texts = self.m.texts
        state = self.m.state
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(_constant_text(str(value.value)))
            elif isinstance(value, ast.FormattedValue):
                spec = value.format_spec
                if spec is not None and not isinstance(spec, ast.JoinedStr):
                    raise self.unsupported(spec)
                parts.append(
                    _field(
                        texts,
                        self.expr(value.value, scope),
                        self.f_string(spec, scope) if spec is not None else None,
                        value.conversion,
                    )
                )
            else:
                raise self.unsupported(value)

        def run(f: Frame) -> str:
            pieces = [part(f) for part in parts]
            state.check_str(sum(len(p) for p in pieces))
            return "".join(pieces)

        return run


class _SuperMaker:
    """`super` as a name; calling it with no arguments gives the method's `super()`."""

    __slots__ = ("frame",)

    def __init__(self, frame: Frame) -> None:
        self.frame = frame

    def make(self, args: list[Any]) -> PSuper:
        if args:
            raise ProgramError("super() takes no arguments here")
        owner = self.frame.vars.get(" class")
        instance = next(iter(self.frame.vars.values()), None)
        if type(owner) is not PClass or type(instance) is not PInstance:
            raise ProgramError("super() works only inside a method, with self as first argument")
        return PSuper(owner, instance)


def _constant_text(text: str) -> Expr:
    return lambda f: text


def _field(texts: Texts, inner: Expr, spec: Expr | None, conversion: int) -> Expr:
    def run(f: Frame) -> str:
        return texts.format(inner(f), spec(f) if spec is not None else "", conversion)

    return run


def _delete_local(name: str) -> Callable[[Frame], None]:
    def run(f: Frame) -> None:
        if f.vars.pop(name, MISSING) is MISSING:
            raise ProgramError(f"name '{name}' is not defined")

    return run


def _delete_global(name: str, globals_: dict[str, Any]) -> Callable[[Frame], None]:
    def run(f: Frame) -> None:
        if globals_.pop(name, MISSING) is MISSING:
            raise ProgramError(f"name '{name}' is not defined")

    return run


def _calls_backward(node: ast.stmt) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
        for n in ast.walk(node)
    )


def _uses_super(body: list[ast.stmt] | ast.expr) -> bool:
    nodes = body if isinstance(body, list) else [body]
    return any(
        isinstance(n, ast.Name) and n.id == "super" for node in nodes for n in ast.walk(node)
    )


__all__ = ["BREAK", "CONTINUE", "BoundMethod", "Compiler"]
