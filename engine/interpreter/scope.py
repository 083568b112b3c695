"""Which name is whose: Python's scoping rules, worked out once before a program runs.

Each function, lambda, comprehension and class body is a scope; a name assigned in a
scope is local to it unless declared `global`/`nonlocal`. A name read in a function
that it does not assign is found, as in Python, in the nearest enclosing function that
does (class bodies are skipped), else among the globals, else among the built-ins.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from backprop_animator.engine.limits import child_nodes, visited, walk

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPREHENSION_NAMES: dict[type, str] = {
    ast.ListComp: "<listcomp>",
    ast.SetComp: "<setcomp>",
    ast.DictComp: "<dictcomp>",
    ast.GeneratorExp: "<genexpr>",
}


@dataclass
class Scope:
    kind: str  # "module", "function", "class" or "comprehension"
    parent: Scope | None
    locals: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    in_class: bool = False  # a class body or a function defined in one: dunders allowed
    # CPython's `__qualname__` of what this scope is the body of (`Value.__mul__`,
    # `Value.__mul__.<locals>._backward`), which its argument errors name.
    qualname: str = ""
    # The names that may ever be unbound in the program (`del x`, `except E as x`,
    # anywhere in its module: `module_scope`), shared down its scopes; and a function's
    # parameters that are none of them, bound from its call to its end (`always_bound`).
    unbinds: frozenset[str] | None = None
    bound: frozenset[str] = frozenset()
    # A function's positional parameters' count (CPython's `co_argcount`), and the first
    # of them (what a `super()` in its body binds to)
    argcount: int = 0
    first_param: str | None = None
    # The names its own code reads (not a nested scope's): a function's free variables
    # among them, which `dir()` with no argument lists as CPython's `locals()` does.
    loads: set[str] = field(default_factory=set)

    def always_bound(self, name: str) -> bool:
        """Whether reading `name` here (a local, or a free variable of the enclosing
        function that defines it) always finds it bound: a parameter of that function
        that nothing in the program deletes. The generated code reads it without the
        test for an unbound name (`codegen.Source.local`)."""
        if name in self.globals or self.kind == "module":
            return False
        scope: Scope | None = self
        while scope is not None:
            if scope.kind == "class" and scope is not self:
                scope = scope.parent
                continue
            if scope.kind == "module" or name in scope.globals:
                return False
            if name in scope.locals and name not in scope.nonlocals:
                return scope.kind == "function" and name in scope.bound
            scope = scope.parent
        return False

    def resolve(self, name: str) -> tuple[str, int]:
        """("local", 0), ("free", hops to the defining frame), ("global", 0) or ("class", 0)."""
        if self.kind == "module" or name in self.globals:
            return ("global", 0)
        if name in self.locals and name not in self.nonlocals:
            return ("class", 0) if self.kind == "class" else ("local", 0)
        hops = 1
        scope = self.parent
        while scope is not None:
            if scope.kind == "class":
                scope = scope.parent
                continue
            if scope.kind == "module" or name in scope.globals:
                return ("global", 0)
            if name in scope.locals and name not in scope.nonlocals:
                return ("free", hops)
            scope = scope.parent
            hops += 1
        return ("global", 0)


def qualify(parent: Scope, name: str) -> str:
    """CPython 3.11's `__qualname__` of `name` defined in `parent`'s body: `<locals>`
    after a function's name, none after a class's or a comprehension's; a name the
    parent declares `global` (`global f` then `def f`) is the module's, named alone."""
    if parent.kind == "module" or name in parent.globals:
        return name
    if parent.kind == "function":
        return f"{parent.qualname}.<locals>.{name}"
    return f"{parent.qualname}.{name}"


# What `_collect` found in a function's or class's body: its globals, nonlocals, locals
# and loads. Kept by the node's id in a tree's memo (`Compiler.memo`), so a gradient
# check's re-runs, compiling the same tree again, walk each body once.
_Names = tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]


def function_scope(
    node: ast.FunctionDef | ast.Lambda, parent: Scope, memo: dict[int, Any] | None = None
) -> Scope:
    scope = Scope("function", parent, in_class=parent.in_class, unbinds=parent.unbinds)
    name = node.name if isinstance(node, ast.FunctionDef) else "<lambda>"
    scope.qualname = qualify(parent, name)
    args = node.args
    scope.argcount = len(args.posonlyargs) + len(args.args)
    if scope.argcount:
        scope.first_param = [*args.posonlyargs, *args.args][0].arg
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        scope.locals.add(arg.arg)
    for extra in (args.vararg, args.kwarg):
        if extra is not None:
            scope.locals.add(extra.arg)
    if scope.unbinds is not None:  # (None: a tree not read by `module_scope`: no name is)
        scope.bound = frozenset(scope.locals - scope.unbinds)
    body = node.body if isinstance(node.body, list) else [node.body]
    _collected(node, body, scope, memo)
    return scope


def class_scope(node: ast.ClassDef, parent: Scope, memo: dict[int, Any] | None = None) -> Scope:
    scope = Scope("class", parent, in_class=True, unbinds=parent.unbinds)
    scope.qualname = qualify(parent, node.name)
    _collected(node, node.body, scope, memo)
    return scope


def _collected(
    owner: object, body: list[ast.stmt] | list[ast.expr], scope: Scope, memo: dict[int, Any] | None
) -> None:
    """`_collect(body, scope)`, what it finds read from `memo` where the body was walked
    before (by the id of `owner`, the node whose body it is, or a module's body itself)."""
    if memo is None:
        _collect(body, scope)
        return
    names: _Names | None = memo.get(id(owner))
    if names is None:
        found = Scope(scope.kind, None)
        _collect(body, found)
        names = memo[id(owner)] = (
            frozenset(found.globals),
            frozenset(found.nonlocals),
            frozenset(found.locals),
            frozenset(found.loads),
        )
    scope.globals.update(names[0])
    scope.nonlocals.update(names[1])
    scope.locals.update(names[2])
    scope.loads.update(names[3])


def comprehension_scope(node: ast.expr, parent: Scope) -> Scope:
    scope = Scope("comprehension", parent, in_class=parent.in_class, unbinds=parent.unbinds)
    assert isinstance(node, _COMPREHENSIONS)
    scope.qualname = qualify(parent, _COMPREHENSION_NAMES[type(node)])
    for generator in node.generators:
        _targets(generator.target, scope.locals)
    return scope


def module_scope(
    body: list[ast.stmt], unbinds: frozenset[str] | None = None, memo: dict[int, Any] | None = None
) -> Scope:
    """The module's scope; `unbinds`: the module's `unbinds_of`, for `Scope.always_bound`
    (None: no parameter is taken as always bound)."""
    scope = Scope("module", None)
    _collected(body, body, scope, memo)
    scope.unbinds = unbinds
    return scope


def unbinds_of(tree: ast.Module) -> frozenset[str]:
    """Every name the module's code may unbind, in any of its scopes: a `del` of it
    (`del x`, `del x, y`, `del (x, y)`), or `except E as x`, which unbinds `x` at the
    end of its block."""
    names: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name is not None:
            names.add(node.name)
    return frozenset(names)


def _collect(body: list[ast.stmt] | list[ast.expr], scope: Scope) -> None:
    """Add every name `body` binds to `scope`, without entering nested scopes."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        visited(node)
        if isinstance(node, ast.Global):
            scope.globals.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            scope.nonlocals.update(node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope.locals.add(node.name)
            stack.extend(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                stack.extend(node.bases)
            else:
                stack.extend(d for d in node.args.defaults)
                stack.extend(d for d in node.args.kw_defaults if d is not None)
            continue
        elif isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            continue
        elif isinstance(node, _COMPREHENSIONS):
            stack.append(node.generators[0].iter)  # evaluated in the enclosing scope
            # `[y := f(x) for x in xs]` binds y here, in the enclosing scope.
            scope.locals.update(_walrus_targets(node))
            continue
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            scope.locals.add(node.id)
        elif isinstance(node, ast.Name):
            scope.loads.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name is not None:
            scope.locals.add(node.name)  # `except ValueError as e` binds e here
        elif isinstance(node, ast.alias):
            scope.locals.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name is not None:
            scope.locals.add(node.name)  # a `case` pattern's capture
        elif isinstance(node, ast.MatchMapping) and node.rest is not None:
            scope.locals.add(node.rest)
        stack.extend(child_nodes(node))


def _walrus_targets(node: ast.AST) -> set[str]:
    """Names `:=` binds inside a comprehension (nested comprehensions included, nested
    functions not)."""
    found: set[str] = set()
    stack = list(child_nodes(node))
    while stack:
        child = stack.pop()
        visited(child)
        if isinstance(child, _NESTED):
            continue
        if isinstance(child, ast.NamedExpr) and isinstance(child.target, ast.Name):
            found.add(child.target.id)
        stack.extend(child_nodes(child))
    return found


def _targets(target: ast.expr, names: set[str]) -> None:
    for node in walk(target):
        if isinstance(node, ast.Name):
            names.add(node.id)
