"""Python's AST -> nested closures, compiled once before the program runs: statements.

Every node the language accepts becomes a small Python function of the running frame
(`Callable[[Frame], Any]`), built once and called as often as the program says, so
running does not re-dispatch on node types at every step ("closure compilation",
Feeley and Lapalme 1987). Anything not compiled is refused with its position before a
single statement runs. Expressions, binding targets and functions are compiled by
`engine.interpreter.expressions`, which this compiler extends.

Statements return `None`, or a signal for their enclosing loop or function: `BREAK`,
`CONTINUE` or `RETURN` (the value waits in the frame). Each statement charges a step,
remembers where it is (for build frames and errors), locates any error it lets
through, and opens the update-frame group of `engine.trace.recorder` when it is the outermost
statement running that does not call `backward()`. That bookkeeping is not a closure
layer of its own: a block's statements are run by one function `engine.interpreter.codegen`
writes from its own template (the commonest statements and expressions written in whole,
calling the second half of an operator's or a call's closure), the closures staying the
compiled program and what anything else runs.
"""

from __future__ import annotations

import ast
import sys
import threading
import weakref
from collections.abc import Callable, Generator
from functools import cache, partial
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.interpreter import (
    argparse_module,
    codegen,
    contextlib_module,
    generators,
    graphlib_module,
    pprint_module,
    pytest_module,
    queue_module,
    sets,
    small_modules,
    textwrap_module,
    unittest_module,
    warnings_module,
)
from backprop_animator.engine.interpreter import collection_kinds as kinds
from backprop_animator.engine.interpreter import scope as scopes
from backprop_animator.engine.interpreter.builtin_bases import builtin_base, check_layout
from backprop_animator.engine.interpreter.exceptions import (
    CHAIN_NAMES,
    ProgramRaise,
    chain_attribute,
    delete_chain,
    error_matches,
    instance_of_error,
    is_exception_class,
    program_raise,
    set_cause,
    stamp,
    write_chain,
)
from backprop_animator.engine.interpreter.expressions import (
    BINARY_OPERATORS,
    Expr,
    ExpressionCompiler,
    Stmt,
    TreeMemo,
    contains_yield,
    leaf_classes,
    own_gradient_names,
    seeding_passes,
)
from backprop_animator.engine.interpreter.machine import BREAK, CONTINUE, RETURN, in_place_words
from backprop_animator.engine.interpreter.micrograd_nn import ENGINE_SOURCE, NN_NAMES, NN_SOURCE
from backprop_animator.engine.interpreter.objects import (
    ABC_MAPPING_KEY,
    GRAD_NAMES,
    HELD_RULE_NAMES,
    HOLDER_NAMES,
    MISSING,
    OPERAND_NAMES,
    Annotation,
    Frame,
    Function,
    Inert,
    Maker,
    PartialMethod,
    PClass,
    PClassMethod,
    PInstance,
    PModule,
    PProperty,
    PSet,
    PStaticMethod,
    SlotItemError,
    SlotNameError,
)
from backprop_animator.engine.interpreter.os_module import refusal as os_refusal
from backprop_animator.engine.interpreter.patterns import compile_match
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    LOOP_HINT_TURNS,
    MAX_ITEMS,
    ProgramError,
    ProgramExit,
    State,
    host_failure,
)
from backprop_animator.engine.interpreter.sets import SET_OPERATORS
from backprop_animator.engine.interpreter.stdlib import (
    ABC_META,
    ANNOTATIONS,
    CLASS_VARIABLES,
    INIT_VARIABLES,
    KW_ONLY_MARKS,
    TYPEDDICT_KEY,
    check_enum_bases,
    check_enum_extension,
    check_enum_order,
    enum_mixin_base,
    finish_class,
    typed_dict_bases,
    typed_dict_keywords,
)
from backprop_animator.engine.interpreter.text import NO_METHOD, cpython_type
from backprop_animator.engine.interpreter.type_hints import HINTS, Hint
from backprop_animator.engine.limits import child_nodes, tick, took_too_long, visited, walk
from backprop_animator.engine.parse import SourceLines, parse_python
from backprop_animator.engine.value import Value

# Array libraries: refused with a sentence of their own.
SCALAR_ONLY = frozenset({"numpy", "torch", "jax", "tensorflow", "pandas", "scipy"})
# The name inside `__iadd__`, `__isub__`…, for each operator `x op= y` may use.
BINARY_DUNDERS = {
    "+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod",
    "**": "pow", "@": "matmul", "&": "and", "|": "or", "^": "xor", "<<": "lshift",
    ">>": "rshift",
}  # fmt: skip
PASTE_NAMES = ("Value", "draw_dot", "Digraph")  # `from anything import Value` and friends


# micrograd's modules here: the package is here, as CPython's installed micrograd is.
MICROGRAD_MODULES = ("micrograd.engine", "micrograd.nn")
# The modules here that are packages in CPython: a submodule missing from one of them is
# no "'os' is not a package"
PACKAGES = frozenset({"collections", "json", "logging", "micrograd", "pytest", "unittest"})


def import_failure(module: str, here: Callable[[str], bool]) -> tuple[str, str]:
    """CPython's error class and words for an import of `module` that is not there: a
    relative import (`.util`) in a script, which is in no package, or a missing module:
    the first of its dotted names that is not `here` (`import os.nothere`: `No module
    named 'os.nothere'; 'os' is not a package`, `import numpy.linalg`: `'numpy'`)."""
    if module.startswith("."):
        return "ImportError", "attempted relative import with no known parent package"
    parts = module.split(".")
    end = 1
    while end < len(parts) and here(".".join(parts[:end])):
        end += 1
    words = f"No module named '{'.'.join(parts[:end])}'"
    parent = ".".join(parts[: end - 1])
    if parent and parent not in PACKAGES:
        words += f"; '{parent}' is not a package"
    return "ModuleNotFoundError", words


def cannot_import(name: str, module: str) -> str:
    """CPython's words for `from module import name` of a name the module lacks, up to the
    module's path (a file of CPython's machine): here the bracket says what is missing.

    Example: `cannot_import("foo", "math") == "cannot import name 'foo' from 'math' (math
    here has no 'foo')"`.
    """
    return f"cannot import name '{name}' from '{module}' ({module} here has no '{name}')"


def refuse_host_calls(tree: ast.Module, error: Callable[[ast.AST, str], EngineError]) -> None:
    """Refuse, before the program runs, `os.listdir(...)`, `os.path.exists(...)` and the
    like of a program that imports `os`: a name an `import os` (or `import os.path`,
    `from os import path`, an `as` name) binds, then one of `os_module.REFUSED_NAMES`
    read off it, where that name is the one the import bound, by Python's scoping
    (`def f(os): return os.system` reads a parameter, `for os in shells` a variable of
    another scope: not refused). A scope that binds the name both ways is refused, as it
    may be the module. A read the compiler cannot see (`getattr(os, name)`, a name bound
    by the import in a way it does not follow) is refused when it runs, as no `except`
    catches."""
    if not any(map(_imports_os, walk(tree))):
        # The usual program: no import that can bind `os` or `os.path` (an `import math`
        # binds nothing `_ModuleNames` follows), so no scope of it to work out.
        return
    names = _ModuleNames(tree)
    if not names.modules:
        return
    # The first refused read in `ast.walk`'s order, the one named before scopes counted.
    order = {id(node): i for i, node in enumerate(walk(tree))}
    for node, scope in sorted(names.reads, key=lambda read: order[id(read[0])]):
        owner = node.value
        module = None
        if isinstance(owner, ast.Name):
            module = names.module(scope, owner.id)
        elif (
            isinstance(owner, ast.Attribute)
            and owner.attr == "path"
            and isinstance(owner.value, ast.Name)
            and names.module(scope, owner.value.id) == "os"
        ):
            module = "posixpath"
        refused = os_refusal(module, node.attr) if module else None
        if refused is not None:
            raise error(node, refused)


def _imports_os(node: ast.AST) -> bool:
    """Whether `node` is an import `_ModuleNames.visit` binds a name of (`import os`,
    `import os.path`, `from os import path`, with or without `as`)."""
    if isinstance(node, ast.Import):
        return any(alias.name in ("os", "os.path") for alias in node.names)
    if isinstance(node, ast.ImportFrom) and node.module == "os" and not node.level:
        return any(alias.name == "path" for alias in node.names)
    return False


class _ModuleNames:
    """Which names an `import os` (`os.path`) binds, scope by scope (`engine.interpreter
    .scope`, the scoping the program runs with), and every attribute read with the scope
    it is read in: for `refuse_host_calls`."""

    def __init__(self, tree: ast.Module) -> None:
        self.root = scopes.module_scope(tree.body)
        # Each scope's names bound to `os` or `os.path` (their modules' names), by id.
        self.modules: dict[int, dict[str, str]] = {}
        self.reads: list[tuple[ast.Attribute, scopes.Scope]] = []
        for statement in tree.body:
            self.visit(statement, self.root)

    def module(self, scope: scopes.Scope, name: str) -> str | None:
        """The module `name`, read in `scope`, is bound to by an import, if any."""
        return self.modules.get(id(self.binder(scope, name)), {}).get(name)

    def binder(self, scope: scopes.Scope, name: str) -> scopes.Scope:
        """The scope whose binding of `name` a read in `scope` finds (`Scope.resolve`)."""
        kind, hops = scope.resolve(name)
        if kind in ("local", "class"):
            return scope
        found: scopes.Scope | None = scope.parent
        while kind == "free" and found is not None:
            if found.kind != "class":
                hops -= 1
                if hops == 0:
                    return found
            found = found.parent
        return self.root

    def bind(self, scope: scopes.Scope, name: str, module: str) -> None:
        self.modules.setdefault(id(self.binder(scope, name)), {})[name] = module

    def visit(self, node: ast.AST, scope: scopes.Scope) -> None:
        visited(node)
        visit = self.visit
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("os", "os.path"):
                    plain = alias.asname is None or alias.name == "os"
                    self.bind(scope, alias.asname or "os", "os" if plain else "posixpath")
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and not node.level:
            for alias in node.names:
                if alias.name == "path":
                    self.bind(scope, alias.asname or "path", "posixpath")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            args = node.args
            outer: list[ast.AST] = [*args.defaults, *(d for d in args.kw_defaults if d)]
            if not isinstance(node, ast.Lambda):
                outer += node.decorator_list
            for child in outer:
                visit(child, scope)
            inner = scopes.function_scope(node, scope)  # type: ignore[arg-type]
            for child in node.body if isinstance(node.body, list) else [node.body]:
                visit(child, inner)
            return
        elif isinstance(node, ast.ClassDef):
            for child in [*node.decorator_list, *node.bases, *node.keywords]:
                visit(child, scope)
            inner = scopes.class_scope(node, scope)
            for child in node.body:
                visit(child, inner)
            return
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            first = node.generators[0]
            visit(first.iter, scope)  # evaluated in the enclosing scope
            inner = scopes.comprehension_scope(node, scope)
            for child in [*child_nodes(node), first.target, *first.ifs]:
                if child is not first:
                    visit(child, inner)
            return
        elif isinstance(node, ast.Attribute):
            self.reads.append((node, scope))
        for child in child_nodes(node):
            visit(child, scope)


# Each tree's `statements_calling_backward`, `patches_value`, the names it may unbind
# (`scope.unbinds_of`), its own names for a gradient (`own_gradient_names`), its
# functions that seed and walk (`seeding_passes`) and its leaf classes (`leaf_classes`), once
# `refuse_host_calls` let it through: for as long as the tree lives (a gradient check's
# re-runs share one).
_TreeFacts = tuple[
    set[int], bool, frozenset[str], tuple[str, ...], frozenset[tuple[str, int, int]], frozenset[str]
]
_TREE_FACTS: weakref.WeakKeyDictionary[ast.Module, _TreeFacts] = weakref.WeakKeyDictionary()
_TREE_FACTS_LOCK = threading.Lock()
# Each tree's `TreeMemo`, filled as its functions and classes are compiled: the re-runs
# of a gradient check, compiling the same tree, read their scopes' names from it.
_TREE_MEMOS: weakref.WeakKeyDictionary[ast.Module, TreeMemo] = weakref.WeakKeyDictionary()


def tree_memo(tree: ast.Module) -> TreeMemo:
    """The tree's `TreeMemo`, made on its first compile."""
    memo = _TREE_MEMOS.get(tree)
    if memo is None:
        with _TREE_FACTS_LOCK:
            memo = _TREE_MEMOS.setdefault(tree, TreeMemo())
    return memo


def held_call(term: ast.expr) -> bool:
    """Whether a gradient write's term is a call of the record of an op working out its
    operand's share from the node's gradient (`f.backward(y.grad)`, DeZero's `Function`).

    Example: `held_call(ast.parse("C.backward(y.grad)").body[0].value) is True`.
    """
    return (
        isinstance(term, ast.Call)
        and isinstance(term.func, ast.Attribute)
        and term.func.attr in HELD_RULE_NAMES
        and len(term.args) == 1
        and not term.keywords
    )


def own_setattr(cls: PClass) -> bool:
    """Whether writes to `cls`'s objects go through a `__setattr__` of the program's."""
    return type(cls.lookup("__setattr__")) is Function


class Compiler(ExpressionCompiler):
    """Compiles one program against the machine and recorder that will run it."""

    in_try = 0  # how many `try` bodies the statement being compiled is in
    loops = 0  # how many loop bodies the statement being compiled is in

    _loop_owners: list[dict[str, ast.Name]] | None = None

    @property
    def loop_owners(self) -> list[dict[str, ast.Name]]:
        """The `for` loops around the statement being compiled, innermost last: each
        its target's name bound to the node whose operands it walks (`operand_loop`)."""
        if self._loop_owners is None:
            self._loop_owners = []
        return self._loop_owners

    # Module

    def module(self, tree: ast.Module) -> Stmt:
        self.tree = tree
        facts = _TREE_FACTS.get(tree)
        if facts is None:
            # Worked out once a tree: a gradient check compiles the program again for each
            # of its re-runs, from the same tree (which nothing changes).
            refuse_host_calls(tree, self.error)  # (a tree it refuses is never remembered)
            own_gradients = own_gradient_names(tree)
            facts = (
                statements_calling_backward(tree),
                patches_value(tree),
                scopes.unbinds_of(tree),
                own_gradients,
                seeding_passes(tree, (*GRAD_NAMES, *own_gradients)),
                leaf_classes(tree),
            )
            with _TREE_FACTS_LOCK:
                _TREE_FACTS[tree] = facts
        self.calls_backward, patches, unbinds, own_gradients, seeding, leaves = facts
        if not self.library and leaves:
            self.m.leaf_classes = leaves
        self.memo = tree_memo(tree)
        if not self.library and own_gradients:
            self.m.grad_names = (*GRAD_NAMES, *own_gradients)
        if not self.library and seeding:
            spans: dict[str, set[tuple[int, int]]] = {}
            for name, start, end in seeding:
                spans.setdefault(name, set()).add((start, end))
            self.m.seeding_passes = {name: frozenset(found) for name, found in spans.items()}
        if not self.library and patches:
            # `Value.tanh = tanh`: micrograd's own class, run here, takes the engine's place
            self.builtins["Value"] = self.library_module("micrograd.engine")()["Value"]
        if not self.library:
            self.add_library_members()
        scope = scopes.module_scope(tree.body, unbinds, self.memo.names)
        self.lazy_annotations = self.library or future_annotations(tree)
        return self.block(tree.body, scope)

    def add_library_members(self) -> None:
        """`collections.ChainMap`, `functools.singledispatch` and `singledispatchmethod`,
        written in the interpreter's language, made (and put in their module) for a
        program that names them, before it runs."""
        for name, (source, module) in LIBRARY_MEMBERS.items():
            if any(name in line for line in self.lines.lines):
                made = self.library_module(source)()[name]
                if type(made) is PClass:  # `<class 'collections.ChainMap'>`
                    self.m.texts.class_modules[made] = f"{module}."
                    if name == "ChainMap":  # a Mapping
                        made.namespace[ABC_MAPPING_KEY] = True
                self.modules[module].members[name] = made

    def block(self, body: list[ast.stmt], scope: scopes.Scope) -> Stmt:
        if len(body) > 1 and not self.library:
            return self.statements(body, scope)
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

    def statements(self, body: list[ast.stmt], scope: scopes.Scope) -> Stmt:
        """Several statements run by one function (`in_order`): a call fewer each."""
        entries = [self.entry(node, self.inner_stmt(node, scope)) for node in body]
        return self.in_order(entries, self.generates(scope))

    def generates(self, scope: scopes.Scope) -> bool:
        """Whether a block here is worth a generated function (`codegen.block`): one that
        may run many times, in a function or a loop; the module's and a class's own
        statements run once, on the loop, without the cost of compiling one."""
        return scope.kind == "function" or self.loops > 0

    def entry(self, node: ast.stmt, inner: Stmt) -> tuple[Stmt, tuple[int, int], bool, str]:
        """What `in_order` needs of one statement: its code, position, whether it opens an
        update group (not where it calls `.backward()`), and its text for that group."""
        return (inner, self.pos(node), id(node) not in self.calls_backward, self.lines.text(node))

    def in_order(
        self, entries: list[tuple[Stmt, tuple[int, int], bool, str]], generate: bool
    ) -> Stmt:
        """Run statements one after another, each charged a step, its position remembered,
        its writes grouped into one update, its errors located at it: this loop, which a
        block that may run many times trades for one generated function once it has run
        a few times (`codegen.when_hot`), not for a block run once or too long for one."""
        state = self.m.state
        rec = self.rec

        def run(f: Frame) -> Any:
            for inner, position, anchors, text in entries:
                state.steps += 1
                if state.steps > state.next_check:
                    try:
                        state.checkpoint()
                    except ProgramError as error:
                        raise error.located(*position) from None
                state.position = position
                try:
                    if anchors and rec.anchor is None:
                        rec.open_anchor(position[0], text)
                        try:
                            signal = inner(f)
                        finally:
                            rec.anchor = None
                    else:
                        signal = inner(f)
                except ProgramError as error:
                    raise error.located(*position) from None
                except RecursionError:
                    limit = state.limits.exceeded("max_depth", "the program nests too deeply")
                    raise ProgramError(limit.message).located(*position) from None
                except Exception as error:  # a built-in's own refusal we did not word
                    raise host_failure(error).located(*position) from None
                if signal is not None:
                    return signal
            return None

        made: Stmt = run
        if generate and len(entries) <= codegen.MAX_STATEMENTS:
            shapes = self.shapes
            made, hot = codegen.when_hot(
                run, lambda hot: codegen.block(entries, shapes, state, rec, hot)
            )
            self.hot[id(made)] = hot
        # A block an enclosing generated function may write in whole (`codegen._if_written`).
        self.shapes[id(made)] = (("block", entries), made)
        return made

    # Statements

    def stmt(self, node: ast.stmt, scope: scopes.Scope) -> Stmt:
        return self.wrap(node, self.inner_stmt(node, scope), self.generates(scope))

    def inner_stmt(self, node: ast.stmt, scope: scopes.Scope) -> Stmt:
        """A statement compiled without `wrap`'s bookkeeping (its block or `wrap` adds it)."""
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.m.state.limits.exceeded(
                "max_depth", "statements are nested too deeply", *self.pos(node)
            )
        if tick() and not self.library:
            raise took_too_long(*self.pos(node))
        try:
            return self.stmt_node(node, scope)
        finally:
            self.depth -= 1

    def wrap(self, node: ast.stmt, inner: Stmt, generate: bool) -> Stmt:
        """Charge a step, remember the position, locate errors, group updates."""
        if self.library:
            return self.wrap_library(inner)
        return self.in_order([self.entry(node, inner)], generate)

    # Generators: a function whose body holds `yield` returns a Python generator that
    # runs its body lazily, statement by statement, as the consumer asks for items
    # (`engine.interpreter.generators`).

    def generator_function(self, body: list[ast.stmt], scope: scopes.Scope, name: str) -> Stmt:
        run_body = self.gen_block(body, scope)
        state = self.m.state
        levels = generators.yield_depth(body)
        qualname = scope.qualname  # what its generators' repr names, as CPython's

        def start(f: Frame) -> Any:
            made = generators.resumed(run_body(f), f, state, name, RETURN, levels)
            made.__qualname__ = qualname  # type: ignore[attr-defined]
            f.ret = made
            return RETURN

        return start

    def gen_block(self, body: list[ast.stmt], scope: scopes.Scope) -> GenStmt:
        statements = [self.gen_stmt(node, scope) for node in body]

        def run(f: Frame) -> Generator[Any, Any, Any]:
            for statement in statements:
                signal = yield from statement(f)
                if signal is not None:
                    return signal
            return None

        return run

    def gen_stmt(self, node: ast.stmt, scope: scopes.Scope) -> GenStmt:
        """One statement of a generator's body; those without `yield` as compiled
        anywhere else, the others as generators of their own."""
        if not contains_yield(node):
            plain = self.stmt(node, scope)

            def lifted(f: Frame) -> Generator[Any, Any, Any]:
                return plain(f)
                yield  # a generator that yields nothing

            return lifted
        compile_statement = _GENERATOR_STATEMENTS.get(type(node))
        if compile_statement is None or not _yields_where_supported(node):
            raise self.error(
                node,
                "yield is supported as a statement of its own, as the value of an "
                "assignment (x = yield v, n += yield from it) or of a return, in if, for, "
                "while, try and with; not inside match or a larger expression",
            )
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.m.state.limits.exceeded(
                "max_depth", "statements are nested too deeply", *self.pos(node)
            )
        if tick() and not self.library:
            raise took_too_long(*self.pos(node))
        try:
            inner = compile_statement(self, node, scope)
        finally:
            self.depth -= 1
        return self.gen_wrap(node, inner)

    def gen_wrap(self, node: ast.stmt, inner: GenStmt) -> GenStmt:
        state = self.m.state
        position = self.pos(node)
        line, column = position

        def run(f: Frame) -> Generator[Any, Any, Any]:
            state.charge(1)
            state.position = position
            try:
                return (yield from inner(f))
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def gen_yield(self, node: ast.expr, scope: scopes.Scope) -> GenStmt:
        """`yield v` or `yield from it` as a value: the value sent in, or the source's
        return value."""
        assert isinstance(node, ast.Yield | ast.YieldFrom)
        value = self.expr(node.value, scope) if node.value is not None else None
        state = self.m.state
        if isinstance(node, ast.YieldFrom):
            assert value is not None
            source = value
            iterate = self.m.iterate
            generator_exit = self.m.exceptions["GeneratorExit"]

            def run_from(f: Frame) -> Generator[Any, Any, Any]:
                return (yield from generators.yield_from(iterate(source(f)), state, generator_exit))

            return run_from

        def run(f: Frame) -> Generator[Any, Any, Any]:
            return (yield from generators.yield_value(state, None if value is None else value(f)))

        return run

    def gen_expression(self, node: ast.Expr, scope: scopes.Scope) -> GenStmt:
        value = self.gen_yield(node.value, scope)

        def run(f: Frame) -> Generator[Any, Any, Any]:
            yield from value(f)
            return None

        return run

    def gen_assign(self, node: ast.Assign, scope: scopes.Scope) -> GenStmt:
        """`x = yield v` (or `x = yield from it`): the targets stored once it resumes."""
        value = self.gen_yield(node.value, scope)
        stores = [self.store(target, scope, label=True) for target in node.targets]

        def run(f: Frame) -> Generator[Any, Any, Any]:
            result = yield from value(f)
            for store in stores:
                store(f, result)
            return None

        return run

    def gen_augmented(self, node: ast.AugAssign, scope: scopes.Scope) -> GenStmt:
        """`count += yield from visit(child)` of a name: its value read before the
        `yield`, as CPython reads it, and updated once it resumes."""
        op = BINARY_OPERATORS.get(type(node.op))
        target = node.target
        if op is None or not isinstance(target, ast.Name):
            raise self.error(node, "`+=` of a yield updates a name here, not an item or attribute")
        binary = self.in_place(op)
        load = self.name(target, scope)
        store = self.store_name(target.id, scope, label=True)
        value = self.gen_yield(node.value, scope)

        def run(f: Frame) -> Generator[Any, Any, Any]:
            before = load(f)
            store(f, binary(op, before, (yield from value(f))))
            return None

        return run

    def gen_return(self, node: ast.Return, scope: scopes.Scope) -> GenStmt:
        """`return (yield v)` (or `return (yield from it)`): what is sent in, or the
        source's return value, is the generator's own return value."""
        if scope.kind != "function":
            raise self.error(node, "return outside a function")
        assert node.value is not None
        value = self.gen_yield(node.value, scope)

        def run(f: Frame) -> Generator[Any, Any, Any]:
            f.ret = yield from value(f)
            return RETURN

        return run

    def gen_try(self, node: ast.Try, scope: scopes.Scope) -> GenStmt:
        """`try` in a generator, any clause of it holding `yield`: `try_statement`'s
        rules, each clause a generator. Only the program's errors run its clauses
        (a thrown one, a `close()`'s `GeneratorExit`); a bound runs none, and Python's
        own `GeneratorExit` (a generator freed before its end) passes them all."""
        body = self.gen_block(node.body, scope)
        handlers = self.handlers(node, scope, self.gen_block)
        orelse = self.gen_block(node.orelse, scope) if node.orelse else None
        final = self.gen_block(node.finalbody, scope) if node.finalbody else None
        state = self.m.state
        classes = self.m.exceptions

        def caught(f: Frame, error: ProgramError) -> Generator[Any, Any, Any]:
            for kind, store, unbind, handler in handlers:
                if kind is not None and not catches(kind(f), error, classes):
                    continue
                stamp(state, error, state.handling)
                if store is not None:
                    store(f, instance_of_error(error, classes))
                outer = state.handling
                state.handling = error
                try:
                    signal = yield from handler(f)
                except ProgramError as raised:
                    stamp(state, raised, error)
                    state.handling = outer
                    if unbind is not None:
                        unbind(f)
                    raise
                state.handling = outer
                if unbind is not None:
                    unbind(f)  # CPython deletes the name after the handler
                return signal
            raise error

        def protected(f: Frame) -> Generator[Any, Any, Any]:
            try:
                signal = yield from body(f)
            except ProgramError as error:
                if error.kind is None:
                    raise  # a bound: nothing may catch it
                return (yield from caught(f, error))
            if orelse is not None:
                return (yield from orelse(f))
            return signal

        if final is None:
            return protected

        def run(f: Frame) -> Generator[Any, Any, Any]:
            assert final is not None
            try:
                signal = yield from protected(f)
            except ProgramError as error:
                if error.kind is None:
                    raise  # a bound: the program stops here, no more of it runs
                stamp(state, error, state.handling)  # `finally` runs handling it
                outer = state.handling
                state.handling = error
                try:
                    ending = yield from final(f)
                except ProgramError as raised:
                    stamp(state, raised, error)
                    raise
                finally:
                    state.handling = outer
                if ending is not None:
                    return ending  # a return or break in `finally` drops the exception
                raise error from None
            ending = yield from final(f)
            return ending if ending is not None else signal

        return run

    def gen_with(self, node: ast.With, scope: scopes.Scope) -> GenStmt:
        """`with` in a generator, its body holding `yield`: `with_statement`'s protocol,
        the body a generator (an exception thrown in at its `yield` reaches `__exit__`;
        Python's own `GeneratorExit`, a generator freed before its end, passes it, as
        it passes a `finally`)."""
        body = self.gen_block(node.body, scope)
        for item in reversed(node.items):
            manager = self.expr(item.context_expr, scope)
            store = None if item.optional_vars is None else self.store(item.optional_vars, scope)
            body = contextlib_module.gen_managed(self.m, manager, store, body)
        return body

    def gen_if(self, node: ast.If, scope: scopes.Scope) -> GenStmt:
        test = self.expr(node.test, scope)
        body = self.gen_block(node.body, scope)
        orelse = self.gen_block(node.orelse, scope) if node.orelse else None
        truthy = self.m.truthy

        def run(f: Frame) -> Generator[Any, Any, Any]:
            if truthy(test(f)):
                return (yield from body(f))
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return run

    def gen_for(self, node: ast.For, scope: scopes.Scope) -> GenStmt:
        iterable = self.expr(node.iter, scope)
        store = self.store(node.target, scope)
        body = self.gen_block(node.body, scope)
        orelse = self.gen_block(node.orelse, scope) if node.orelse else None
        iterate = self.m.iterate
        state = self.m.state

        def run(f: Frame) -> Generator[Any, Any, Any]:
            for item in iterate(iterable(f)):
                state.charge(1)
                store(f, item)
                signal = yield from body(f)
                if signal is BREAK:
                    return None
                if signal is not None and signal is not CONTINUE:
                    return signal
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return run

    def gen_while(self, node: ast.While, scope: scopes.Scope) -> GenStmt:
        test = self.expr(node.test, scope)
        body = self.gen_block(node.body, scope)
        orelse = self.gen_block(node.orelse, scope) if node.orelse else None
        truthy = self.m.truthy
        state = self.m.state
        hint = self.loop_hint(node)

        def run(f: Frame) -> Generator[Any, Any, Any]:
            turns = 0
            try:
                while truthy(test(f)):
                    turns += 1
                    state.charge(1)
                    signal = yield from body(f)
                    if signal is BREAK:
                        return None
                    if signal is not None and signal is not CONTINUE:
                        return signal
            except ProgramError as error:
                if turns >= LOOP_HINT_TURNS and error.runaway():
                    error.hint = hint(turns)
                raise
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return run

    def wrap_library(self, inner: Stmt) -> Stmt:
        """A library statement: charged like any, but the position stays the caller's."""
        state = self.m.state

        def run(f: Frame) -> Any:
            state.steps += 1
            if state.steps > state.next_check:
                state.checkpoint()
            try:
                return inner(f)
            except ProgramError:
                raise
            except RecursionError:
                limit = state.limits.exceeded("max_depth", "the program nests too deeply")
                raise ProgramError(limit.message) from None
            except Exception as error:
                raise host_failure(error) from None

        return run

    def library_module(self, name: str) -> Callable[[], dict[str, Any]]:
        """`micrograd.nn` (or `micrograd.engine`, or `unittest`), compiled now in library
        mode and run once, on first import."""
        if name not in self.loaded:
            source = LIBRARY_SOURCES.get(name, NN_SOURCE)
            tree = library_tree(source)
            namespace: dict[str, Any] = {}
            if name == "unittest":
                namespace.update(
                    unittest_module.native_names(self.m.state, self.globals, self.tree)
                )
            elif name == "pytest":
                namespace.update(pytest_module.native_names(self.m.state))
            elif name == "queue":
                namespace.update(queue_module.native_names())
            elif name == "warnings":  # the program's lines, which a warning shows
                namespace.update(warnings_module.native_names(self.m.state, self.lines.lines))
            elif name == "pprint":
                namespace.update(pprint_module.native_names(self.m, self.modules["collections"]))
            elif name == "textwrap":
                namespace.update(textwrap_module.native_names(self.m.state))
            elif name == "functools.singledispatch":
                namespace.update(small_modules.singledispatch_natives(self.m, self.builtins))
            compiler = Compiler(
                self.m,
                self.rec,
                SourceLines(source),
                namespace,
                self.builtins,
                self.modules,
                self.max_depth,
                library=True,
            )
            code = compiler.module(tree)
            ran: list[bool] = []

            def load() -> dict[str, Any]:
                if not ran:
                    ran.append(True)
                    code(Frame(namespace, None))
                    if name in _NAMED_MODULES:  # `<class 'graphlib.CycleError'>`
                        for value in namespace.values():
                            if type(value) is PClass:
                                self.m.texts.class_modules[value] = f"{name}."
                return namespace

            self.loaded[name] = load
        return self.loaded[name]

    def stmt_node(self, node: ast.stmt, scope: scopes.Scope) -> Stmt:
        compile_statement = _STATEMENTS.get(type(node))
        if compile_statement is None:
            raise self.unsupported(node)
        return compile_statement(self, node, scope)

    def match_statement(self, node: ast.Match, scope: scopes.Scope) -> Stmt:
        return compile_match(self, node, scope, self.block)

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
        if (
            scope.kind == "module"
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "print"
        ):
            # As in the straight-line language, a print is not the program's result:
            # `y = x * x` then `print(y.data)` still has `y` as its output.

            def run_print(f: Frame) -> None:
                expr(f)

            return run_print
        rec = self.rec

        def run(f: Frame) -> None:
            rec.last = expr(f)

        self.shapes[id(run)] = (("last", expr), run)
        return run

    def assign(self, node: ast.Assign, scope: scopes.Scope) -> Stmt:
        target = node.targets[0]
        if (
            len(node.targets) == 1
            and (scope.kind != "module" or held_call(node.value))  # (`hand_write`)
            and isinstance(target, ast.Attribute)
            and target.attr in self.m.grad_names
        ):
            self.check_attribute(target, scope)
            if isinstance(target.value, ast.Name) and ast.unparse(node.value) == ast.unparse(
                target
            ):  # (an object read once: `f().grad = f().grad` calls `f` twice, as CPython)
                return self.grad_kept(target, scope)
            return self.grad_write(target, None, node.value, scope)
        value = self.expr(node.value, scope)
        stores = [self.store(target, scope, label=True) for target in node.targets]
        labels_only = all(
            isinstance(target, ast.Attribute) and target.attr == "label" for target in node.targets
        )
        if scope.kind == "module" and not labels_only:
            # A top-level assignment is a result too, as in the straight-line language
            # (where `x.label = 'o'` is not one).
            stores.append(self.remember_result)
        local = self.local_name(target, scope) if len(stores) == 1 else None
        if local is not None:

            def run_local(f: Frame) -> None:
                # `out = ...` in a function: what its store (`store_name`, labelling a
                # Value the name holds) does, in place.
                result = value(f)
                if type(result) is Value and not result.label:
                    result.label = local
                f.vars[local] = result

            self.shapes[id(run_local)] = (("local", value, local), run_local)
            return run_local
        if len(stores) == 1:
            store = stores[0]

            def run_one(f: Frame) -> None:
                store(f, value(f))

            self.shapes[id(run_one)] = (("store", value, store), run_one)
            return run_one

        def run(f: Frame) -> None:
            result = value(f)
            for store in stores:
                store(f, result)

        return run

    def annotated(self, node: ast.AnnAssign, scope: scopes.Scope) -> Stmt:
        """`x: float = 0.0`: an assignment, then, in a module or a class body, the names
        of the annotation looked up (`annotation_lookups`); a class body records the name,
        in order, for `@dataclass` (`engine.interpreter.stdlib.ANNOTATIONS`)."""
        assign: Stmt = lambda f: None  # noqa: E731
        if node.value is not None:
            assign = self.assign(ast.Assign([node.target], node.value, lineno=node.lineno), scope)
        elif isinstance(node.target, ast.Attribute | ast.Subscript):
            # `obj.x: T`, `d[k]: T` with no value: CPython evaluates `obj` (and `d`, `k`)
            assign = self.target_parts(node.target, scope)
        if scope.kind in ("module", "class"):
            # A module's or class body's `x: T` (`obj.x: T` too): T is evaluated after the
            # assignment, as CPython evaluates it (its names looked up)
            assign = self.then_looked_up(assign, [node.annotation], scope)
        if scope.kind != "class" or not isinstance(node.target, ast.Name):
            return assign
        name = node.target.id
        # Every annotated name in order; an `InitVar` (`scale: InitVar[float]`) or a
        # `ClassVar` (`count: ClassVar[int] = 0`, no dataclass field) in its own list too.
        kept: str | None = None
        if annotation_named(node.annotation, INIT_VARIABLE_NAMES):
            kept = INIT_VARIABLES
        elif is_classvar(node.annotation):
            kept = CLASS_VARIABLES
        elif annotation_named(node.annotation, KW_ONLY_NAMES):  # `_: KW_ONLY`: no field
            kept = KW_ONLY_MARKS
        hint = Hint(self, node.annotation)  # evaluated only by `typing.get_type_hints`

        def run(f: Frame) -> Any:
            f.vars.setdefault(ANNOTATIONS, []).append(name)
            f.vars.setdefault(HINTS, {})[name] = hint
            if kept is not None:
                f.vars.setdefault(kept, []).append(name)
            return assign(f)

        return run

    def target_parts(self, target: ast.Attribute | ast.Subscript, scope: scopes.Scope) -> Stmt:
        """The expressions of an annotated target with no value (`obj` of `obj.x: T`, `d`
        and `k` of `d[k]: T`), evaluated and dropped, as CPython evaluates them."""
        parts = [self.expr(target.value, scope)]
        if isinstance(target, ast.Subscript):
            parts.append(self.expr(target.slice, scope))

        def run(f: Frame) -> None:
            for part in parts:
                part(f)

        return run

    def then_looked_up(self, run: Stmt, annotations: list[ast.expr], scope: scopes.Scope) -> Stmt:
        """`run`, then the lookups of the names `annotations` read (`annotation_lookups`)."""
        looks = self.annotation_lookups(annotations, scope)
        if not looks:
            return run

        charge = self.m.state.charge
        steps = len(looks)  # a step a name

        def both(f: Frame) -> Any:
            result = run(f)
            charge(steps)
            for look in looks:
                look(f)
            return result

        return both

    def remember_result(self, f: Frame, value: Any) -> None:
        self.rec.last = value

    def in_place(self, op: str) -> Callable[[str, Any, Any], Any]:
        """`x op= y` as CPython does it: an object's own `__iadd__` (and the others) when
        its class has one, a list extended in place (so another name for it sees the new
        items); else `x op y`."""
        m = self.m
        binary = m.binary
        dunder = f"__i{BINARY_DUNDERS[op]}__" if op in BINARY_DUNDERS else None
        state = m.state

        def combine(op: str, left: Any, right: Any) -> Any:
            if type(left) is PInstance and dunder is not None:
                result = m.call_dunder(left, dunder, right)
                if result is not NO_METHOD and result is not NotImplemented:
                    return result
            elif m.collections and kinds.kind_of(m.collections, left) is not None:
                # `c += d` of a Counter, `q += items` of a deque: the same object, changed
                changed = self.kinds_in_place(op, left, right)
                if changed is not NotImplemented:
                    return changed
            elif op == "+" and type(left) is list and type(right) in (list, tuple):
                state.check_items(len(left) + len(right))
                state.charge(len(right))
                left.extend(right)
                return left
            elif op == "+" and type(left) is list and not _adds_itself(right):
                # `xs += 'ab'`, `xs += range(3)`: extended by any iterable, as CPython's
                left.extend(m.bounded_list(right, MAX_ITEMS - len(left)))
                return left
            elif op == "*" and type(left) is list and type(right) in (int, bool):
                times = max(int(right), 0)
                state.check_items(len(left) * times)
                state.charge(len(left) * times)
                left *= times
                return left
            elif op == "|" and type(left) is dict and type(right) is dict:
                # `d |= other`: the same dict, updated (another name for it sees it).
                state.check_items(len(left) + len(right))
                state.charge(len(right))
                left.update(right)
                return left
            elif op == "|" and type(left) is dict:  # `d |= pairs`: as `d.update(pairs)`
                m.methods[dict]["update"](left).call([right], {})
                return left
            elif type(left) is PSet and type(right) is PSet and op in SET_OPERATORS:
                if left.frozen:  # `fs |= s`: a new frozenset, as CPython's (none changes)
                    return sets.combine(state, SET_OPERATORS[op], left, right)
                # `visited |= {v}`: the same set, changed (another name for it sees it).
                sets.combine_in_place(state, SET_OPERATORS[op], left, right)
                return left
            try:
                return binary(op, left, right)
            except ProgramError as error:
                if error.kind == "TypeError":
                    in_place_words(error, op, left, right)
                raise

        return combine

    def kinds_in_place(self, op: str, left: Any, right: Any) -> Any:
        """`x op= y` of a `collections` kind, as CPython's: a Counter's `+= -= |= &=`
        with any dict change it in place and drop its counts below 1; a deque's `+=`
        extends it, and a `maxlen` pushes off what no longer fits. Else NotImplemented
        (the plain dict's or list's way)."""
        m = self.m
        kind = kinds.kind_of(m.collections, left)
        if kind == "Counter" and op in ("+", "-", "|", "&") and type(right) is dict:
            if op == "&" and kinds.kind_of(m.collections, right) != "Counter":
                missing = next((key for key in left if key not in right), MISSING)
                if missing is not MISSING:  # a plain dict has no 0 for a missing key
                    failed = ProgramError("the key is not in the dict", kind="KeyError")
                    failed.args_seen = (missing,)
                    raise failed
            return kinds.counter_in_place(m, op, left, right)
        if kind == "deque" and op in ("+", "*"):
            if op == "+":
                left.extend(m.bounded_list(right, MAX_ITEMS - len(left)))
            else:
                if type(right) not in (int, bool):
                    return NotImplemented
                times = max(int(right), 0)
                m.state.check_items(len(left) * times)
                m.state.charge(len(left) * times)
                left *= times
            maxlen = kinds.factory_of(m.collections, left)
            if maxlen is not None:
                kinds.trim(left, maxlen, from_left=True)
            return left
        return NotImplemented

    def augmented(self, node: ast.AugAssign, scope: scopes.Scope) -> Stmt:
        op = BINARY_OPERATORS.get(type(node.op))
        if op is None:
            raise self.error(node, "this operator is not supported")
        target = node.target
        if isinstance(target, ast.Attribute) and target.attr in self.m.grad_names:
            self.check_attribute(target, scope)
            return self.grad_write(target, op, node.value, scope)
        binary = self.in_place(op)
        value = self.expr(node.value, scope)
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

            shape = ("augmented", load, value, binary, op, store, top_level)
            self.shapes[id(run_name)] = (shape, run_name)
            return run_name
        if isinstance(target, ast.Attribute):
            self.check_attribute(target, scope)
            name = target.attr
            obj_expr = self.expr(target.value, scope)
            get_attr = self.m.get_attr
            set_attr = self.m.set_attr
            if name in CHAIN_NAMES:  # `self.__cause__ += x`: the chain, read and written
                machine = self.m
                get_attr = partial(chain_attribute, machine)
                set_attr = partial(write_chain, machine)

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

    def grad_kept(self, target: ast.Attribute, scope: scopes.Scope) -> Stmt:
        """`self.grad = self.grad  # keep for clarity` in a function: the gradient read and
        stored back. Where it is a plain attribute of the program's object (no property, no
        `__setattr__` of the program's), CPython's store puts the very object back where it
        is, so nothing is written: no contribution to show or to check (an `=` would read
        as one that lost what was there). Otherwise the store is an attribute's like another."""
        obj_expr = self.expr(target.value, scope)
        get_attr = self.m.get_attr
        set_attr = self.m.set_attr
        name = target.attr

        def run(f: Frame) -> None:
            obj = obj_expr(f)
            value = get_attr(obj, name)
            if (
                type(obj) is PInstance
                and not obj.cls.has_properties
                and not own_setattr(obj.cls)
                and obj.attrs.get(name, run) is value
            ):
                return
            set_attr(obj, name, value)

        return run

    def grad_write(
        self, target: ast.Attribute, op: str | None, right: ast.expr, scope: scopes.Scope
    ) -> Stmt:
        """A write to `<child>.grad`: `=`, `+=` or another update (SPEC §14).

        Inside a rule of the program's own Value class it is one contribution, kept as
        the learner wrote it: `"+="` for `child.grad += …` and `child.grad = child.grad +
        …`, `"-="` for `child.grad -= …`, `"="` for anything else. Where the term added,
        subtracted or written is `<local> * <node>.grad` (either way round) or
        `<node>.grad` alone, the local derivative is read off the code (the left factor's
        own value, or 1; the recorder negates it for a `-=`, which adds minus the
        product); otherwise it is None: the recorder never invents it. Operands are
        evaluated in CPython's order, each once.

        The attribute may be any of `GRAD_NAMES` (`child.gradient += other.data *
        out.gradient`): a name other than `grad` is a gradient only for an object
        whose class's shape gives it as its gradient (`Shape.grad`), checked as it is
        written; for any other object it is an attribute like another, updated in
        place as `augmented` updates one (`in_place`: `__iadd__`, a list extended).
        """
        if op is None and isinstance(right, ast.IfExp) and _adds_in_one_branch(target, right):
            return self.grad_choice(target, right, scope)
        m = self.m
        binary = m.binary
        get_attr = m.get_attr
        name = target.attr
        # The sum of an update: `binary` for `grad`, as it always was; another name's
        # as any attribute's update, which it is where the object is no graph node.
        update = binary if name == "grad" or op is None else self.in_place(op)
        obj_expr = self.expr(target.value, scope)
        read_first: Expr | None = None  # `child.grad` on the right of `child.grad = child.grad + …`
        term = right
        read_last: Expr | None = None  # `child.grad = … + child.grad`
        if op is None and isinstance(right, ast.BinOp) and isinstance(right.op, ast.Add):
            written = ast.unparse(target)
            if ast.unparse(right.left) == written:
                read_first, term = self.expr(right.left, scope), right.right
            elif ast.unparse(right.right) == written:
                read_last, term = self.expr(right.right, scope), right.left
        write = "-=" if op == "-" else "+=" if op == "+" or read_first or read_last else "="
        combine = op if op is not None else "+"
        term_of = self.local_term(term, name, scope, readable=op in (None, "+", "-"))
        # `… * v.grad`: v's rule, when a learner's backward() runs it in its own loop.
        owner_of = self.upstream_node(term, name, scope) if op in (None, "+", "-") else None
        if owner_of is None and isinstance(target.value, ast.Name):
            # `child.grad += local` in `for child, local in zip(v._children, …)`: v's
            # rule all the same, its upstream gradient forgotten (Check your engine).
            owner = self.loop_owner(target.value.id)
            owner_of = self.expr(owner, scope) if owner is not None else None
        finish = self.grad_finish(owner_of, write, name, held_call(term))

        def updated(before: Any, value: Any) -> Any:
            """The update's sum, its TypeError in CPython's words for `+=` (the
            generated function's too: `codegen._grad`)."""
            try:
                return update(combine, before, value)
            except ProgramError as error:
                if error.kind == "TypeError":
                    in_place_words(error, combine, before, value)
                raise

        def run(f: Frame) -> None:
            if op is not None:
                obj = obj_expr(f)
                if type(obj) is PInstance and name in obj.reads:
                    before = obj.reads[name]  # what `get_attr` reads, sooner
                else:
                    before = get_attr(obj, name)
                local, value = term_of(f)
                if combine == "+" and type(before) is float and type(value) is float:
                    after = before + value  # what `binary` gives two floats
                else:
                    after = updated(before, value)
            elif read_first is not None:
                before = read_first(f)
                local, value = term_of(f)
                if type(before) is float and type(value) is float:
                    after = before + value  # what `binary` gives two floats
                else:
                    after = binary("+", before, value)
                obj = obj_expr(f)
            elif read_last is not None:
                local, value = term_of(f)
                before = read_last(f)
                if type(before) is float and type(value) is float:
                    after = value + before  # what `binary` gives two floats
                else:
                    after = binary("+", value, before)
                obj = obj_expr(f)
            else:
                local, after = term_of(f)
                obj = obj_expr(f)
                before = None
            finish(f, obj, local, before, after)

        if op is not None:  # `child.grad += term`: written in whole by `codegen`
            shape = (
                "grad", obj_expr, combine, term_of, finish, get_attr, binary, name, update, updated
            )  # fmt: skip
            self.shapes[id(run)] = (shape, run)
        elif read_first is None and read_last is None:  # `self.grad = 0.0`: `codegen` too
            self.shapes[id(run)] = (("grad_set", obj_expr, term_of, finish, name, binary), run)
        return run

    def grad_choice(self, target: ast.Attribute, right: ast.IfExp, scope: scopes.Scope) -> Stmt:
        """`p.grad = g if p.grad is None else p.grad + g`: the branch the test takes is
        the write, as `if p.grad is None: p.grad = g` / `else: p.grad = p.grad + g` would
        be (the test first, then the branch's term, then `p`, as CPython evaluates the
        assignment): a `+=` where the sum is taken, so that a wrong share it adds is not
        read as an `=` that lost the gradient already there (Check your engine)."""
        test = self.expr(right.test, scope)
        body = self.grad_write(target, None, right.body, scope)
        orelse = self.grad_write(target, None, right.orelse, scope)
        truthy = self.m.truthy

        def run(f: Frame) -> None:
            condition = test(f)
            if condition is True or (condition is not False and truthy(condition)):
                body(f)
            else:
                orelse(f)

        return run

    def grad_finish(
        self, owner_of: Expr | None, write: str, name: str = "grad", by_hand: bool = False
    ) -> Callable[[Frame, Any, Any, Any, Any], None]:
        """The second half of a gradient write (`grad_write`), its operands evaluated: the
        contribution recorded where a rule is running, and the gradient written. `name`:
        the attribute written, a gradient where it is `grad` or the object's class's own
        gradient (`Shape.grad`: `gradient`, `derivative`, `_grad` with no property).
        `by_hand`: the term is the record of an op working out its share (`held_call`),
        outside any pass a rule run by hand (`Recorder.hand_write`)."""
        rec = self.rec
        set_attr = self.m.set_attr
        plain = name == "grad"

        def own_gradient(obj: PInstance) -> bool:
            """Whether `name` (not `grad`) is `obj`'s class's gradient, written by this
            statement itself: not by a `grad` property's setter (`self._grad = g`), whose
            write is the statement's that called it (`setter_write`)."""
            shape = obj.cls.shape
            return shape is not None and shape.grad == name and rec.setter_write is None

        def finish(f: Frame, obj: Any, local: Any, before: Any, after: Any) -> None:
            if (
                type(obj) is PInstance
                and obj.mirror is None
                and not obj.cls.has_properties
                and name not in obj.reads
            ):
                # `self.grad = 0.0` in `__init__`: a new attribute of an object no graph
                # holds yet, which neither test below takes: what `set_attr` does, sooner.
                obj.attrs[name] = after
                return
            if (
                type(obj) is PInstance
                and name in obj.reads  # not `_grad` behind a property: that runs its setter
                and not (obj.cls.has_properties and own_setattr(obj.cls))  # nor a hook
                and (plain or own_gradient(obj))
            ):
                rule = rec.in_rule
                if rule is not None:
                    if obj.mirror is not None:  # a rule's write: what the branch below does
                        attrs = obj.attrs  # with `rec.in_rule` already the rule
                        rec.contribution(
                            obj, local, attrs[name] if before is None else before, after, write
                        )
                        attrs[name] = after
                        return
                elif owner_of is not None and rec.pass_output is not None:
                    rule = rec.loop_write(owner_of(f), obj)  # a rule run in the pass's own loop
                if rule is None and by_hand and owner_of is not None and obj.mirror is not None:
                    owner = owner_of(f)
                    if rec.hand_write(owner, obj):
                        rec.user_rule(owner, lambda: by_hand_write(obj, local, before, after))
                        return
                if rule is not None and obj.mirror is not None:
                    attrs = obj.attrs
                    outside = rec.in_rule is None
                    rec.in_rule = rule
                    try:
                        rec.contribution(
                            obj, local, attrs[name] if before is None else before, after, write
                        )
                    finally:
                        if outside:
                            rec.in_rule = None
                    attrs[name] = after
                    return
            if (
                rec.in_rule is not None
                and type(obj) is PInstance
                and obj.cls.has_properties
                and (plain or own_gradient(obj))
            ):
                # `child.grad += …` through a `grad` property: its setter's write (`self._grad
                # = g`) is this statement's, a `+=` with the factor read off it, on its line,
                # and the sum the statement handed the setter (one that adds it is no rule's).
                rec.setter_write = (obj, local, write, rec.state.position[0], before, after)
                try:
                    set_attr(obj, name, after)
                finally:
                    rec.setter_write = None
                return
            set_attr(obj, name, after)

        def by_hand_write(obj: PInstance, local: Any, before: Any, after: Any) -> None:
            """The write of a rule run by hand (`Recorder.user_rule`, which may find it no
            walk's: then a write like another)."""
            attrs = obj.attrs
            if rec.in_rule is not None:
                rec.contribution(
                    obj, local, attrs[name] if before is None else before, after, write
                )
            attrs[name] = after

        return finish

    def loop_owner(self, name: str) -> ast.Name | None:
        """The node whose operands the innermost `for` loop naming `name` walks
        (`operand_loop`), or None."""
        for owners in reversed(self.loop_owners):
            if name in owners:
                return owners[name]
        return None

    def upstream_node(self, term: ast.expr, name: str, scope: scopes.Scope) -> Expr | None:
        """The node whose gradient a gradient write's term multiplies, where it is a
        name (`v` in `local * v.grad`, `v.grad * local`, `v.grad`, `a * v.grad * b`,
        `v.grad / x`, `-v.grad`; `name` the gradient's attribute, the one written): read
        again, which costs nothing and changes nothing. Exactly one such factor, else
        None (`out.grad * out.grad` says no one node)."""
        found: list[ast.expr] = []

        def factors(node: ast.expr) -> None:
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                factors(node.left)
                factors(node.right)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                factors(node.left)  # the numerator: `out.grad / self.data`
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
                factors(node.operand)
            elif isinstance(node, ast.Attribute) and node.attr == name:
                found.append(node.value)

        if held_call(term):
            assert isinstance(term, ast.Call)
            # `x.grad = f.backward(y.grad)`: the share the record of y's op (`y.creator`,
            # DeZero's `Function`) works out of y's gradient, y's rule
            term = term.args[0]
        factors(term)
        if len(found) == 1 and isinstance(found[0], ast.Name):
            return self.expr(found[0], scope)
        return None

    def local_term(
        self, term: ast.expr, name: str, scope: scopes.Scope, readable: bool
    ) -> Callable[[Frame], tuple[Any, Any]]:
        """The term a gradient write adds or writes, evaluated: (its local factor, or
        None where it cannot be read off the code, and its value); `name`: the
        gradient's attribute (`grad`, or the one written: `out.gradient`)."""
        binary = self.m.binary
        if readable and isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult):
            left, right = term.left, term.right
            if isinstance(right, ast.Attribute) and right.attr == name:
                local_expr, upstream_expr = self.expr(left, scope), self.expr(right, scope)

                def local_first(f: Frame) -> tuple[Any, Any]:
                    local = local_expr(f)
                    upstream = upstream_expr(f)
                    if type(local) is float and type(upstream) is float:
                        return local, local * upstream  # what `binary` gives two floats
                    return local, binary("*", local, upstream)

                self.shapes[id(local_first)] = (("term", local_expr, upstream_expr), local_first)
                return local_first
            if isinstance(left, ast.Attribute) and left.attr == name:
                upstream_expr, local_expr = self.expr(left, scope), self.expr(right, scope)

                def upstream_first(f: Frame) -> tuple[Any, Any]:
                    upstream = upstream_expr(f)
                    local = local_expr(f)
                    if type(local) is float and type(upstream) is float:
                        return local, upstream * local  # what `binary` gives two floats
                    return local, binary("*", upstream, local)

                shape = ("term_upstream", upstream_expr, local_expr)
                self.shapes[id(upstream_first)] = (shape, upstream_first)
                return upstream_first
        value = self.expr(term, scope)
        factor = 1.0 if readable and isinstance(term, ast.Attribute) and term.attr == name else None

        def plain(f: Frame) -> tuple[Any, Any]:
            return factor, value(f)

        self.shapes[id(plain)] = (("term_plain", factor, value), plain)
        return plain

    # `for` and `while` are written out apart on purpose: one shared loop costs a call or
    # a generator step per round (about 5 % on a tight `while`, measured).
    def for_loop(self, node: ast.For, scope: scopes.Scope) -> Stmt:
        iterable = self.expr(node.iter, scope)
        store = self.store(node.target, scope)
        self.loops += 1
        self.loop_owners.append(operand_loop(node))
        try:
            body = self.block(node.body, scope)
        finally:
            self.loops -= 1
            self.loop_owners.pop()
        orelse = self.block(node.orelse, scope) if node.orelse else None
        state = self.m.state
        iterate = self.m.loop_items
        local = self.local_name(node.target, scope)  # stored in place, as `store` does

        def run(f: Frame) -> Any:
            for item in iterate(iterable(f)):
                state.steps += 1
                if state.steps > state.next_check:
                    state.checkpoint()
                if local is not None:
                    f.vars[local] = item
                else:
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

        # Written in whole by a generated function it runs in (`codegen._for_written`).
        shape = ("for", iterable, local, store, body, orelse, iterate, self.pos(node))
        self.shapes[id(run)] = (shape, run)
        return run

    def while_loop(self, node: ast.While, scope: scopes.Scope) -> Stmt:
        test = self.expr(node.test, scope)
        self.loops += 1
        try:
            body = self.block(node.body, scope)
        finally:
            self.loops -= 1
        orelse = self.block(node.orelse, scope) if node.orelse else None
        state = self.m.state
        truthy = self.m.truthy
        hint = self.loop_hint(node)

        def run(f: Frame) -> Any:
            turns = 0
            try:
                while truthy(test(f)):
                    turns += 1
                    state.steps += 1
                    if state.steps > state.next_check:
                        state.checkpoint()
                    signal = body(f)
                    if signal is not None:
                        if signal is BREAK:
                            return None
                        if signal is not CONTINUE:
                            return signal
            except ProgramError as error:
                if turns >= LOOP_HINT_TURNS and error.runaway():
                    error.hint = hint(turns)
                raise
            if orelse is not None:
                return orelse(f)
            return None

        # Written in whole by a generated function it runs in (`codegen._while_written`).
        shape = ("while", test, truthy, body, orelse, hint, self.pos(node))
        self.shapes[id(run)] = (shape, run)
        return run

    def loop_hint(self, node: ast.While) -> Callable[[int], str | None]:
        """The hint a bound (steps, time, nodes) gets when it stops this loop after
        `LOOP_HINT_TURNS` turns or more: a `while True:` that nothing leaves never ends;
        any other may."""
        line = self.pos(node)[0]
        if self.library:
            return lambda turns: None  # library code: the learner's line is elsewhere
        test = node.test
        if isinstance(test, ast.Constant) and test.value:
            heading = f"the while {ast.unparse(test)}: loop at line {line}"
            if not _leaves_loop(node.body):
                return lambda turns: f"{heading} has no break, so it never ends"
            return lambda turns: (
                f"{heading} has run {turns:,} times: does it ever reach its break or return?"
            )
        return lambda turns: (
            f"the while loop at line {line} has run {turns:,} times: "
            "does its condition ever become false?"
        )

    def if_statement(self, node: ast.If, scope: scopes.Scope) -> Stmt:
        test = self.expr(node.test, scope)
        # `if TYPE_CHECKING:` holds imports for a type checker only (`from .engine import
        # Value`, the package's own modules): as in a `try` body, one of a module that is
        # not here fails when it runs, which it never does, TYPE_CHECKING being False.
        checking = is_type_checking(node.test)
        self.in_try += checking
        try:
            body = self.block(node.body, scope)
        finally:
            self.in_try -= checking
        orelse = self.block(node.orelse, scope) if node.orelse else None
        truthy = self.m.truthy

        def run(f: Frame) -> Any:
            condition = test(f)
            if condition is True or (condition is not False and truthy(condition)):
                return body(f)
            if orelse is not None:
                return orelse(f)
            return None

        self.shapes[id(run)] = (("if", test, body, orelse, truthy), run)
        return run

    def return_statement(self, node: ast.Return, scope: scopes.Scope) -> Stmt:
        if scope.kind not in ("function",):
            raise self.error(node, "return outside a function")
        if node.value is None:

            def run_none(f: Frame) -> Any:
                f.ret = None
                return RETURN

            self.shapes[id(run_none)] = (("return_none",), run_none)
            return run_none
        value = self.expr(node.value, scope)
        local = self.local_name(node.value, scope)
        if local is not None:

            def run_local(f: Frame) -> Any:
                variables = f.vars  # `return out`: read in place (see `attribute`)
                f.ret = variables[local] if local in variables else value(f)
                return RETURN

            self.shapes[id(run_local)] = (("return_local", value, local), run_local)
            return run_local

        def run(f: Frame) -> Any:
            f.ret = value(f)
            return RETURN

        self.shapes[id(run)] = (("return", value), run)
        return run

    def assert_statement(self, node: ast.Assert, scope: scopes.Scope) -> Stmt:
        test = self.expr(node.test, scope)
        message = self.expr(node.msg, scope) if node.msg is not None else None
        truthy = self.m.truthy
        texts = self.m.texts

        def run(f: Frame) -> None:
            if not truthy(test(f)):
                shown = message(f) if message is not None else None
                detail = f": {texts.to_str(shown)[:200]}" if message is not None else ""
                failed = ProgramError(f"assertion failed{detail}", kind="AssertionError")
                failed.args_seen = (shown,) if message is not None else ()
                raise failed

        return run

    # Exceptions (engine.interpreter.exceptions)

    def raise_statement(self, node: ast.Raise, scope: scopes.Scope) -> Stmt:
        exc = self.expr(node.exc, scope) if node.exc is not None else None
        cause = self.expr(node.cause, scope) if node.cause is not None else None
        m = self.m
        state = m.state

        def run(f: Frame) -> None:
            if exc is None:
                if state.handling is None:
                    raise ProgramError("No active exception to reraise", kind="RuntimeError")
                raise state.handling
            error = self.raised(exc(f))
            if cause is not None:  # evaluated after the exception, as CPython does
                set_cause(m, error, cause(f))
            stamp(state, error, state.handling)
            raise error

        return run

    def raised(self, value: Any) -> ProgramRaise:
        """The error for `raise value`: an exception instance, or a class to instantiate."""
        return program_raise(self.m, value)

    def handlers(
        self,
        node: ast.Try,
        scope: scopes.Scope,
        block: Callable[[list[ast.stmt], scopes.Scope], Any],
    ) -> list[tuple[Any, Any, Callable[[Frame], None] | None, Any]]:
        """A `try`'s except clauses, compiled: (the class, where the name is stored, what
        unbinds the name after the handler, as CPython deletes it, and the body), `block`
        compiling each body (`block`, or `gen_block` in a generator)."""
        return [
            (
                self.expr(handler.type, scope) if handler.type is not None else None,
                self.store_name(handler.name, scope, False) if handler.name else None,
                self.unbind(handler.name, scope) if handler.name else None,
                block(handler.body, scope),
            )
            for handler in node.handlers
        ]

    def unbind(self, name: str, scope: scopes.Scope) -> Callable[[Frame], None]:
        """What deletes `except ... as name`'s name after the handler, where `store_name`
        stored it: a local, a global (`global e` declared, or at the top), or an enclosing
        function's (`nonlocal e`); nothing where it is unbound already."""
        how, hops = scope.resolve(name)
        if how == "global":
            globals_ = self.globals
            return lambda f: globals_.pop(name, None)
        if how in ("local", "class"):
            return lambda f: f.vars.pop(name, None)

        def unbind_free(f: Frame) -> None:
            frame = f
            for _ in range(hops):
                assert frame.parent is not None
                frame = frame.parent
            frame.vars.pop(name, None)

        return unbind_free

    def try_statement(self, node: ast.Try, scope: scopes.Scope) -> Stmt:
        self.in_try += 1
        try:
            body = self.block(node.body, scope)
        finally:
            self.in_try -= 1
        handlers = self.handlers(node, scope, self.block)
        orelse = self.block(node.orelse, scope) if node.orelse else None
        final = self.block(node.finalbody, scope) if node.finalbody else None
        m = self.m
        state = m.state
        classes = m.exceptions

        def caught(f: Frame, error: ProgramError) -> Any:
            """Run the first handler that catches `error`; re-raise it if none does."""
            for kind, store, unbind, handler in handlers:
                if kind is not None and not catches(kind(f), error, classes):
                    continue
                stamp(state, error, state.handling)
                if store is not None:
                    store(f, instance_of_error(error, classes))
                outer = state.handling
                state.handling = error
                try:
                    return handler(f)
                except ProgramError as raised:  # raised handling `error`: its context
                    stamp(state, raised, error)
                    raise
                finally:
                    state.handling = outer
                    if unbind is not None:
                        unbind(f)  # CPython deletes the name after the handler
            raise error

        def protected(f: Frame) -> Any:
            try:
                signal = body(f)
            except ProgramError as error:
                if error.kind is None:
                    raise  # a bound: nothing may catch it
                return caught(f, error)
            if orelse is not None:
                return orelse(f)
            return signal

        if final is None:
            return protected

        def run(f: Frame) -> Any:
            try:
                signal = protected(f)
            except ProgramError as error:
                if error.kind is None:
                    raise  # a bound: the program stops here, no more of it runs
                # `finally` runs handling it, as CPython's: a bare `raise` re-raises it,
                # and what is raised there has it as its context.
                stamp(state, error, state.handling)
                outer = state.handling
                state.handling = error
                try:
                    ending = final(f)
                except ProgramError as raised:
                    stamp(state, raised, error)
                    raise
                finally:
                    state.handling = outer
                if ending is not None:
                    return ending  # a return or break in `finally` drops the exception
                raise
            except ProgramExit:  # `sys.exit()` runs `finally`, as CPython's SystemExit does
                ending = final(f)
                if ending is not None:
                    return ending
                raise
            ending = final(f)
            return ending if ending is not None else signal

        return run

    def import_statement(self, node: ast.Import, scope: scopes.Scope) -> Stmt:
        stores: list[tuple[Callable[[Frame, Any], None], Callable[[], Any]]] = []
        for alias in node.names:
            # `import collections.abc` binds `collections`, not a module of that name.
            dotted = "." in alias.name and alias.asname is None
            if alias.name == "os.path" and alias.asname is None:  # binds `os`, as CPython's
                stores.append(
                    (self.store_name("os", scope, False), partial(_same, self.modules["os"]))
                )
                continue
            if alias.name == "collections.abc" and alias.asname is None:
                # binds `collections`, which holds `abc` from then on, as CPython's
                stores.append((self.store_name("collections", scope, False), self.abc_attach()))
                continue
            if alias.name in LAZY_MODULES:  # `unittest`, `contextlib`: made when it runs
                load = self.lazy_loader(alias.name)
            elif alias.name in ("micrograd", "micrograd.engine", "micrograd.nn"):
                load = self.micrograd_loader(alias.name, package=alias.asname is None)
                name = alias.asname or "micrograd"
                stores.append((self.store_name(name, scope, False), load))
                continue
            elif alias.name not in self.modules or alias.name == "__future__" or dotted:
                # In a function body, a module not here fails when the statement runs.
                when_run = scope.kind == "function" and alias.name not in self.modules
                statement = f"import {alias.name}"
                return self.refused_import(node, statement, alias.name, when_run=when_run)
            else:
                load = partial(_same, self.modules[alias.name])
            stores.append((self.store_name(alias.asname or alias.name, scope, False), load))

        def run(f: Frame) -> None:
            for store, load in stores:
                store(f, load())

        return run

    def refused_import(
        self, node: ast.stmt, statement: str, module: str, when_run: bool = False
    ) -> Stmt:
        """An import of a module that is not here: refused before the program runs, or,
        inside a `try` body, a `ModuleNotFoundError` it may catch when the import runs
        (`try: import numpy as np` / `except ImportError: np = None`), as CPython raises
        on a machine without that module."""
        message = self.not_importable(statement, module)
        kind, seen = import_failure(module, self.importable)
        if not (self.in_try or when_run):
            raise self.error(node, self.refusal(statement, module))
        line, column = self.pos(node)

        def run(f: Frame) -> None:
            error = ProgramError(message, line, column, kind=kind)
            error.args_seen = (seen,)
            raise error

        return run

    def failed_import(self, node: ast.stmt, message: str) -> Stmt:
        """`from module import name` of a name that is not here, inside a `try` body: the
        `ImportError` CPython raises when the statement runs, which the program may catch."""
        line, column = self.pos(node)

        def run(f: Frame) -> None:
            raise ProgramError(message, line, column, kind="ImportError")

        return run

    def importable(self, module: str) -> bool:
        """Whether `import module` imports a module here (for CPython's words of a
        submodule that is not: `import_failure`)."""
        return (
            module in self.modules
            or module in LAZY_MODULES
            or module in LIBRARY_SOURCES
            or module == "micrograd"
            or module in MICROGRAD_MODULES
        )

    def refusal(self, statement: str, module: str) -> str:
        """Why an import is refused before the program runs: CPython's error first where
        CPython fails there too (a relative import, a module outside its standard library)."""
        message = self.not_importable(statement, module)
        if module.startswith(".") or module.split(".")[0] not in sys.stdlib_module_names:
            kind, seen = import_failure(module, self.importable)
            return f"{kind}: {seen} — {message}"
        return message

    def not_importable(self, statement: str, module: str) -> str:
        if module.startswith("."):
            return (
                f"`{statement}` is not available: a program here is one file, in no package "
                "(paste that module's code above the code that uses it)"
            )
        if module.split(".")[0] in SCALAR_ONLY:
            return (
                f"`{statement}` is not available: this is a scalar engine, every number is one "
                "Value (write the arrays as lists of Values)"
            )
        modules = [*(name for name in self.modules if name != "__future__"), *LAZY_MODULES]
        names = ", ".join(sorted(modules))
        return (
            f"`{statement}` is not available; the modules here are {names} "
            "(and Value from anywhere)"
        )

    def import_from(self, node: ast.ImportFrom, scope: scopes.Scope) -> Stmt:
        module = "." * node.level + (node.module or "")
        if node.names[0].name == "*":  # of any module, here or not, as CPython compiles it
            self.star_at_top(node, scope)
        if module == "micrograd.nn":
            return self.import_nn(node, scope)
        if module in LAZY_MODULES:
            return self.import_lazy(node, scope, module)
        if module == "micrograd":
            return self.import_micrograd_modules(node, scope)
        # `from micrograd.engine import Value` sets `engine` on the package, as CPython's
        attach = self.micrograd_attach(("engine",)) if module == "micrograd.engine" else None
        if module == "collections.abc" or (
            module == "collections" and any(alias.name == "abc" for alias in node.names)
        ):
            attach = self.abc_attach()  # `collections.abc` is there from then on
        if node.names[0].name == "*" and (module in self.modules or module == "micrograd.engine"):
            return self.import_star(node, module, scope, attach)
        bindings: list[tuple[Callable[[Frame, Any], None], Any]] = []
        for alias in node.names:
            if module == "micrograd.engine" and self.absent_when_run(module, alias.name, scope):
                # micrograd is installed, its engine without that name: CPython's ImportError
                return self.failed_import(node, cannot_import(alias.name, module))
            if self.absent_when_run(module, alias.name, scope):
                # `try: from graphviz import Digraph`, or an import in a function body
                # (`from .util import render_graph`): it fails when it runs, as in CPython
                statement = f"from {module} import {alias.name}"
                return self.refused_import(node, statement, module, when_run=True)
            try:
                value = self.imported_value(node, module, alias.name)
            except EngineError as error:
                if not self.in_try:
                    raise
                if self.lacks(module, alias.name):
                    return self.failed_import(node, cannot_import(alias.name, module))
                return self.failed_import(node, error.message)
            bindings.append((self.store_name(alias.asname or alias.name, scope, False), value))

        def run(f: Frame) -> None:
            if attach is not None:
                attach()
            for store, value in bindings:
                store(f, value)

        return run

    def absent_when_run(self, module: str, name: str, scope: scopes.Scope) -> bool:
        """Whether `from module import name` raises CPython's `ModuleNotFoundError` (for a
        relative import, its `ImportError`) when it runs: in a `try` body, or in a function
        body, `Digraph` too (a draw_dot() the program may call inside `try: ... except
        ImportError:`, as on a machine without graphviz); `Value` and `draw_dot` are taken
        from anywhere. A `draw_dot(...)` statement is skipped, so its import never runs."""
        if module in self.modules or name == "Value":
            return False
        if self.in_try:
            return True
        # In a function body, as CPython, when the function runs (akv17's `from .util import
        # render_graph` in a method); `draw_dot` from anywhere stays a name that is skipped.
        return scope.kind == "function" and (name == "Digraph" or name not in PASTE_NAMES)

    def import_star(
        self,
        node: ast.ImportFrom,
        module: str,
        scope: scopes.Scope,
        attach: Callable[[], PModule] | None = None,
    ) -> Stmt:
        """`from math import *` of a module here: each of its public names that is here
        (as CPython binds each of its `__all__`, or each name not starting with `_`), one
        step a name; only at a module's top level, as CPython compiles it. micrograd's
        engine gives its `Value` (`from micrograd.engine import *`)."""
        if module == "micrograd.engine":
            members: dict[str, Any] = {"Value": self.builtins["Value"]}
        else:
            here = self.modules[module]
            members = {
                name: value
                for name, value in here.members.items()
                if not name.startswith("_") and os_refusal(here.name, name) is None
            }
        bindings = [(self.store_name(name, scope, False), value) for name, value in members.items()]
        charge = self.m.state.charge

        def run(f: Frame) -> None:
            if attach is not None:
                attach()
            charge(len(bindings))
            for store, value in bindings:
                store(f, value)

        return run

    def star_at_top(self, node: ast.ImportFrom, scope: scopes.Scope) -> None:
        """`from m import *` only at a module's top level, as CPython compiles it."""
        if scope.kind != "module":
            raise self.error(node, "syntax error: import * only allowed at module level")

    def imported_value(self, node: ast.ImportFrom, module: str, name: str) -> Any:
        """What `from module import name` binds, known when the program is compiled."""
        if module in self.modules:
            members = self.modules[module].members
            refused = os_refusal(self.modules[module].name, name)
            if refused is not None:  # `from os import listdir`
                raise self.error(node, refused)
            if module == "collections" and name == "abc":  # a submodule, as CPython's
                return self.modules["collections.abc"]
            if self.lacks(module, name):
                raise self.error(node, f"{module} has no '{name}' here")
            return members[name]
        if name == "Value":
            return self.builtins["Value"]
        if name in PASTE_NAMES:
            return Inert(name)
        raise self.error(node, self.refusal(f"from {module} import {name}", module))

    def lacks(self, module: str, name: str) -> bool:
        """Whether a module here (`self.modules`) has no `name` to import (a private one
        is not given)."""
        return name.startswith("_") or name not in self.modules[module].members

    def import_nn(self, node: ast.ImportFrom, scope: scopes.Scope) -> Stmt:
        """`from micrograd.nn import MLP`: micrograd's classes, run by the interpreter, and
        the two names nn.py imports, `Value` and `random`; `*` binds all of them, as CPython's."""
        stores = []
        aliases = node.names
        if aliases[0].name == "*":  # (at the top level: `import_from`)
            aliases = [ast.alias(name) for name in ("Layer", "MLP", "Module", "Neuron", "Value")]
            aliases.append(ast.alias("random"))
        for alias in aliases:
            if alias.name not in NN_NAMES and alias.name not in ("Value", "random"):
                if self.in_try:  # CPython's ImportError, which the program may catch
                    return self.failed_import(node, cannot_import(alias.name, "micrograd.nn"))
                raise self.error(node, f"micrograd.nn has no '{alias.name}' here")
            stores.append((self.store_name(alias.asname or alias.name, scope, False), alias.name))
        load = self.library_module("micrograd.nn")
        attach = self.micrograd_attach(("engine", "nn"))
        value = self.builtins["Value"]
        random_module = self.modules["random"]

        def run(f: Frame) -> None:
            attach()
            namespace = load()
            for store, name in stores:
                if name == "Value":
                    store(f, value)
                elif name == "random":
                    store(f, random_module)
                else:
                    store(f, namespace[name])

        return run

    def lazy_loader(self, name: str) -> Callable[[], PModule]:
        """`unittest` or `contextlib` as a module: made from its source the first time
        the import runs."""
        load = self.library_module(name)
        made: list[PModule] = []

        def module() -> PModule:
            if not made:
                namespace = load()
                members = {one: namespace[one] for one in LAZY_MODULES[name]}
                made.append(PModule(name, members))
            return made[0]

        return module

    def import_lazy(self, node: ast.ImportFrom, scope: scopes.Scope, name: str) -> Stmt:
        """`from unittest import TestCase, main`, `from contextlib import contextmanager`:
        the classes and functions of the module's source; `*` binds each of them."""
        stores = []
        aliases = node.names
        if aliases[0].name == "*":  # the names here that are in CPython's `__all__` too
            starred = [one for one in LAZY_MODULES[name] if one not in NOT_IN_ALL]
            aliases = [ast.alias(one) for one in starred if not one.startswith("_")]
        for alias in aliases:
            if alias.name not in LAZY_MODULES[name]:
                if not self.in_try:
                    raise self.error(node, f"{name} has no '{alias.name}' here")
                return self.failed_import(node, cannot_import(alias.name, name))
            stores.append((self.store_name(alias.asname or alias.name, scope, False), alias.name))
        module = self.lazy_loader(name)

        def run(f: Frame) -> None:
            members = module().members
            for store, one in stores:
                store(f, members[one])

        return run

    def with_statement(self, node: ast.With, scope: scopes.Scope) -> Stmt:
        return contextlib_module.compile_with(self, node, scope)

    _micrograd: dict[str, PModule] | None = None

    def micrograd_modules(self) -> dict[str, PModule]:
        """micrograd's package and its `engine` module, one of each per program, as
        CPython has them: the package (its `__init__.py` is empty) gains `engine` and `nn`
        as the statements importing them run (`import micrograd as mg`, then `from
        micrograd.engine import Value`, makes `mg.engine`)."""
        if self._micrograd is None:
            engine = PModule("micrograd.engine", {"Value": self.builtins["Value"]})
            self._micrograd = {"micrograd": PModule("micrograd", {}), "engine": engine}
        return self._micrograd

    def abc_attach(self) -> Callable[[], PModule]:
        """When run: `abc` set on `collections`, as an import of `collections.abc` sets it
        in CPython (`import collections.abc`, `from collections.abc import Iterable`,
        `from collections import abc`); gives `collections`."""
        collections = self.modules["collections"]
        abc = self.modules["collections.abc"]

        def attach() -> PModule:
            collections.members["abc"] = abc
            return collections

        return attach

    def micrograd_attach(self, names: tuple[str, ...]) -> Callable[[], PModule]:
        """When run: `engine` (and `nn`, which imports it) set on the package, as the
        import of `micrograd.engine` or `micrograd.nn` sets them; gives the package."""
        modules = self.micrograd_modules()
        package = modules["micrograd"]
        load_nn = self.library_module("micrograd.nn") if "nn" in names else None

        sets_engine = "engine" in names or load_nn is not None

        def attach() -> PModule:
            if sets_engine:
                package.members["engine"] = modules["engine"]
            if load_nn is not None and "nn" not in package.members:
                namespace = load_nn()
                nn = PModule("micrograd.nn", {one: namespace[one] for one in NN_NAMES})
                package.members["nn"] = nn
            return package

        return attach

    def micrograd_loader(self, name: str, package: bool) -> Callable[[], PModule]:
        """`import micrograd.engine as mg` (a test that checks an engine against
        micrograd's): the module; `import micrograd.engine` binds the package `micrograd`,
        holding `engine` (and `nn`, which imports `engine`, after `import micrograd.nn`);
        `import micrograd`, the package as it is then."""
        if name == "micrograd":
            package_of = self.micrograd_modules()["micrograd"]
            return partial(_same, package_of)
        attach = self.micrograd_attach(("engine", "nn") if name == "micrograd.nn" else ("engine",))
        inner = name.rpartition(".")[2]

        def module() -> PModule:
            made = attach()
            return made if package else made.members[inner]

        return module

    def import_micrograd_modules(self, node: ast.ImportFrom, scope: scopes.Scope) -> Stmt:
        """`from micrograd import nn, engine, Value`: `nn.MLP`, `engine.Value`, modules of ours."""
        if node.names[0].name == "*":
            return self.import_micrograd_star(scope)
        stores = []
        attach = self.micrograd_attach(tuple(alias.name for alias in node.names))
        for alias in node.names:
            if alias.name == "engine":
                value: Any = self.micrograd_modules()["engine"]
            elif alias.name == "nn":  # made when the statement runs
                value = None
            else:  # `Value` and the rest as anywhere
                try:
                    value = self.imported_value(node, "micrograd", alias.name)
                except EngineError:
                    if not self.in_try:
                        raise
                    return self.failed_import(node, cannot_import(alias.name, "micrograd"))
            stores.append((self.store_name(alias.asname or alias.name, scope, False), value))

        def run(f: Frame) -> None:
            package = attach()
            for store, value in stores:
                store(f, package.members["nn"] if value is None else value)

        return run

    def import_micrograd_star(self, scope: scopes.Scope) -> Stmt:
        """`from micrograd import *`: the package's `__init__.py` is empty, so CPython binds
        the submodules imported so far (`engine`, `nn`: `micrograd_attach`), a step a name."""
        stores = {name: self.store_name(name, scope, False) for name in ("engine", "nn")}
        attach = self.micrograd_attach(())
        charge = self.m.state.charge

        def run(f: Frame) -> None:
            held = attach().members
            charge(len(held))
            for name, store in stores.items():
                if name in held:
                    store(f, held[name])

        return run

    def delete(self, node: ast.Delete, scope: scopes.Scope) -> Stmt:
        actions: list[Callable[[Frame], None]] = []
        targets: list[ast.expr] = []
        pending = list(reversed(node.targets))
        while pending:  # `del (a, b)`, `del [a, b]`: each in order, left to right
            target = pending.pop()
            if isinstance(target, ast.Tuple | ast.List):
                pending.extend(reversed(target.elts))
            else:
                targets.append(target)
        for target in targets:
            if isinstance(target, ast.Subscript):
                actions.append(self.delete_item(target, scope))
            elif isinstance(target, ast.Name) and scope.resolve(target.id)[0] in ("local", "class"):
                actions.append(_delete_local(target.id, scope.kind == "function"))
            elif isinstance(target, ast.Name) and scope.resolve(target.id)[0] == "global":
                actions.append(_delete_global(target.id, self.globals))
            elif isinstance(target, ast.Attribute):
                actions.append(self.delete_attribute(target, scope))
            else:
                raise self.error(target, "only names, items and attributes can be deleted")

        def run(f: Frame) -> None:
            for action in actions:
                action(f)

        return run

    def delete_attribute(
        self, target: ast.Attribute, scope: scopes.Scope
    ) -> Callable[[Frame], None]:
        """`del obj.name` (`Machine.del_attr`); a dunder name is refused as it is read."""
        self.check_attribute(target, scope)
        obj = self.expr(target.value, scope)
        name = target.attr
        del_attr = self.m.del_attr
        if name in CHAIN_NAMES:  # `del self.__cause__`: an exception's, CPython's TypeError
            machine = self.m
            return lambda f: delete_chain(machine, obj(f), name)

        def run(f: Frame) -> None:
            del_attr(obj(f), name)

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
        decorate = self.decorators(node, scope)
        make = self.function(node, node.name, scope, node.body)
        store = self.store_name(node.name, scope, False)

        def run(f: Frame) -> None:
            store(f, decorate(f, make(f)))

        if not node.decorator_list:  # `decorate` gives the function itself
            self.shapes[id(run)] = (("store", make, store), run)
        return run

    def decorators(
        self, node: ast.FunctionDef | ast.ClassDef, scope: scopes.Scope
    ) -> Callable[[Frame, Any], Any]:
        """Apply `@d1 @d2 def f` as CPython does: `d1(d2(f))`, the decorators' expressions
        evaluated first, top to bottom, before the function or class is made."""
        found = [self.expr(d, scope) for d in node.decorator_list]
        call = self.m.call
        if not found:
            return lambda f, value: value

        def apply(f: Frame, value: Any) -> Any:
            decorators = [d(f) for d in found]
            for decorator in reversed(decorators):
                value = call(decorator, [value])
            return value

        return apply

    def set_names(self, cls: PClass) -> None:
        """`__set_name__(owner, name)` of each object of the program's in the new class's
        own namespace whose class defines it (a descriptor learning the attribute it is
        kept under), in order, as CPython's `type.__new__` calls it before
        `__init_subclass__`; what one raises is CPython 3.11's RuntimeError, caused by it."""
        m = self.m
        for key, value in list(cls.namespace.items()):
            if type(value) is not PInstance or value.cls.lookup("__set_name__") is MISSING:
                continue
            try:
                m.call(m.get_attr(value, "__set_name__"), [cls, key])
            except ProgramError as error:
                if error.kind is None:  # a bound: caught by nothing
                    raise
                words = (
                    f"Error calling __set_name__ on '{value.cls.name}' instance {key!r} "
                    f"in '{cls.name}'"
                )
                made = m.instantiate(m.exceptions["RuntimeError"], [words], None)
                wrapped = program_raise(m, made)
                set_cause(m, wrapped, instance_of_error(error, m.exceptions))
                raise wrapped from None

    def init_subclass(self, cls: PClass, keywords: dict[str, Any]) -> None:
        """A base's own `__init_subclass__` (a class method, whether it says so or not),
        called with the new class and the class statement's keywords as CPython's
        `type.__new__` calls it; `object`'s takes none."""
        for base in cls.mro[1:]:
            hook = base.namespace.get("__init_subclass__")
            if hook is not None:
                if type(hook) is PClassMethod:
                    hook = hook.function
                self.m.call(hook, [cls], keywords or None)
                return
        if keywords:
            words = f"{cls.name}.__init_subclass__() takes no keyword arguments"
            raise ProgramError(words, kind="TypeError")

    def class_keywords(
        self, node: ast.ClassDef, scope: scopes.Scope
    ) -> Callable[[Frame], tuple[bool, dict[str, Any]]]:
        """`class M(metaclass=ABCMeta, flag=True)`: evaluated in order when the statement
        runs, whether the metaclass is `abc.ABCMeta` (no other is here), and the other
        keywords, for `__init_subclass__`."""
        keywords = []
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.error(keyword, "a class statement's `**keywords` are not supported")
            keywords.append((keyword.arg, self.expr(keyword.value, scope)))
        name = node.name

        def run(f: Frame) -> tuple[bool, dict[str, Any]]:
            abc = False
            given: dict[str, Any] = {}
            for key, value in keywords:
                found = value(f)
                if key != "metaclass":
                    given[key] = found
                elif found is ABC_META:
                    abc = True
                else:
                    raise ProgramError(
                        f"class {name}: a metaclass other than abc.ABCMeta is not supported"
                    )
            return abc, given

        return run

    def class_def(self, node: ast.ClassDef, scope: scopes.Scope) -> Stmt:
        binding = _binds_unrun(node)
        if binding is not None:
            # CPython runs `__del__` when the last reference goes (`del b`, a rebinding):
            # objects here are never collected, so it would silently never run.
            words = "`__del__` is not run here (objects are never collected, as CPython's are)"
            raise self.error(binding, words)
        decorate = self.decorators(node, scope)
        bases = [self.expr(base, scope) for base in node.bases]
        keywords = self.class_keywords(node, scope) if node.keywords else None
        inner = scopes.class_scope(node, scope, self.memo.names)
        body = self.block(node.body, inner)
        store = self.store_name(node.name, scope, False)
        name = node.name
        in_class = scope.kind == "class"
        doc = ast.get_docstring(node, clean=False)  # its `__dict__`'s `__doc__`
        qualname = inner.qualname

        def run(f: Frame) -> None:
            base_classes = self.class_bases(name, [base(f) for base in bases])
            abc, given = keywords(f) if keywords is not None else (False, {})
            namespace: dict[str, Any] = {}
            signal = body(Frame(namespace, f.parent if in_class else f))
            if signal is not None:
                raise ProgramError("break, continue and return belong inside loops and functions")
            cls = self.make_class(name, base_classes, namespace, abc, doc, qualname)
            for value in namespace.values():
                for function in (value, *wrapped_functions(value)):
                    if type(function) is Function and function.owner is None:
                        function.owner = cls
            self.finish_making(cls, name, namespace, given)
            store(f, decorate(f, cls))

        return run

    def class_bases(self, name: str, values: list[Any]) -> list[PClass]:
        """A class's bases as the program's classes: `list` and `dict` the bases standing
        for them (`class Stack(list)`), a generic alias its origin (`__mro_entries__`),
        `str` and `int` an Enum's mixin (`class Op(str, Enum)`), anything else refused;
        CPython's refusals of an Enum's bases."""
        list_type, dict_type = self.builtins["list"], self.builtins["dict"]
        base_classes = list(values)
        table = self.m.module_table  # (typing's Generic, if the program imported typing)
        typing_made = table.made().get("typing") if table is not None else None
        generic = typing_made.members.get("Generic") if typing_made is not None else None
        for index, value in enumerate(base_classes):
            if type(value) is Annotation:  # `class T(S[int])`, `List[float]`: its origin,
                value = base_classes[index] = alias_base(self.m, value)  # as CPython's
                if generic is not None and adds_generic(value, values[index:], generic):
                    base_classes.append(generic)  # `Stack(List[int]).__mro__`: Generic last
            if value is list_type or value is dict_type:  # `class Stack(list)`
                kind = list if value is list_type else dict
                base_classes[index] = builtin_base(self.m, kind, value)
            elif type(value) is not PClass:  # `class Op(str, Enum)`, or refused
                base_classes[index] = enum_mixin_base(name, value, base_classes)
        check_enum_extension(name, base_classes)
        check_enum_bases(base_classes)  # `class X(Enum, str)`: CPython's TypeError
        return base_classes

    def make_class(
        self,
        name: str,
        base_classes: list[PClass],
        namespace: dict[str, Any],
        abc: bool,
        doc: str | None,
        qualname: str,
    ) -> PClass:
        """The class a class statement's body (or `type(name, bases, dict)`) makes of its
        bases and names, as CPython's `type.__new__` makes it, but for its functions'
        owner, `__set_name__` and `__init_subclass__` (`finish_making`)."""
        if any(TYPEDDICT_KEY in base.namespace for base in base_classes):
            base_classes = typed_dict_bases(self.m, base_classes, namespace)  # `dict` alone
        if base_classes:
            check_ancestry(self.m.state, base_classes)
            check_enum_order(base_classes)  # `class X(int, IntEnum)`
            if len(base_classes) > 1:
                check_layout(self.m.state, base_classes)  # `class E(Exception, list)`
        for key, value in namespace.items():  # a partialmethod: the method it makes
            if type(value) is PartialMethod:
                namespace[key] = value.method
        try:
            cls = PClass(name, tuple(base_classes), namespace, abc)
        except SlotItemError as error:
            item = cpython_type(error.args[0])
            words = f"__slots__ items must be strings, not '{item}'"
            raise ProgramError(words, kind="TypeError") from None
        except SlotNameError as error:
            raise ProgramError(str(error), kind="TypeError") from None
        except TypeError as error:  # its bases have no consistent order: CPython's
            raise ProgramError(str(error), kind="TypeError") from None
        cls.doc = doc
        cls.qualname = qualname
        # Making it looks at every name of every class of its MRO (properties,
        # abstract methods, slots), once each.
        self.m.state.charge(sum(len(c.namespace) for c in cls.mro) // ITEMS_PER_STEP)
        if cls.slots:  # the names of its `__slots__` and its bases', gathered
            self.m.state.charge(len(cls.slots) // ITEMS_PER_STEP)
        cls = finish_class(self.m, cls)  # `class Op(Enum):`, `class E(NamedTuple):`
        cls.qualname = qualname
        return cls

    def finish_making(
        self, cls: PClass, name: str, namespace: dict[str, Any], given: dict[str, Any]
    ) -> None:
        """A class made of `namespace` (`make_class`): its own `__new__`, then CPython's
        `__set_name__` and `__init_subclass__` calls."""
        if "__new__" in namespace and type(cls.abstract) is Maker:
            words = f"class {name}: the `__new__` of an Enum or a named tuple is not run here"
            raise ProgramError(words)
        if not cls.abstract and cls.lookup("__new__") is not MISSING:
            # its own `__new__` makes its objects (`Machine.new_instance`)
            cls.abstract = Maker(partial(self.m.new_instance, cls))
        if TYPEDDICT_KEY in cls.namespace and given:  # `total=`: its metaclass's
            given = typed_dict_keywords(given)
        self.set_names(cls)
        self.init_subclass(cls, given)


GenStmt = generators.GenStmt


def future_annotations(tree: ast.Module) -> bool:
    """Whether the module starts with `from __future__ import annotations` (after its
    docstring and other `__future__` imports, where CPython takes it): its annotations
    are then never evaluated."""
    for index, statement in enumerate(tree.body):
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            if any(alias.name == "annotations" for alias in statement.names):
                return True
            continue
        is_doc = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        if not (index == 0 and is_doc):
            return False
    return False


def is_classvar(annotation: ast.expr) -> bool:
    """Whether an annotation is `ClassVar`, `ClassVar[int]`, `typing.ClassVar[...]` or
    such a string, as dataclasses tell a class variable from a field (by its name here:
    annotations are not evaluated)."""
    return annotation_named(annotation, ("ClassVar", "typing.ClassVar"))


INIT_VARIABLE_NAMES = ("InitVar", "dataclasses.InitVar")
KW_ONLY_NAMES = ("KW_ONLY", "dataclasses.KW_ONLY")


def annotation_named(annotation: ast.expr, names: tuple[str, ...]) -> bool:
    """Whether an annotation is one of `names` (`ClassVar`, `typing.ClassVar`), bare,
    subscripted (`ClassVar[int]`) or such a string, by its name (annotations are not
    evaluated here)."""
    if isinstance(annotation, ast.Subscript):
        annotation = annotation.value
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        text = annotation.value.strip()
        return text.split("[")[0].strip() in names
    if isinstance(annotation, ast.Name):
        return annotation.id == names[0]
    return isinstance(annotation, ast.Attribute) and annotation.attr == names[0]


def check_ancestry(state: State, bases: list[PClass]) -> None:
    """Refuse a class whose MRO would be longer than `BACKPROP_MAX_DEPTH` (a class of a
    class of a class ... made in a loop), charging the classes its bases' MROs hold.
    Every class made and every attribute looked up walks its MRO: a chain 5,000 classes
    deep made each new class cost seconds, within a few steps."""
    state.charge(sum(len(base.mro) for base in bases))
    ancestors = {cls for base in bases for cls in base.mro}
    if len(ancestors) + 1 > state.limits.max_depth:
        error = state.limits.exceeded(
            "max_depth", "classes inherit too deeply (a class of a class of a class ...)"
        )
        raise ProgramError(error.message)


def _pass(compiler: Compiler, node: ast.stmt, scope: scopes.Scope) -> Stmt:
    return lambda f: None


def _break(compiler: Compiler, node: ast.stmt, scope: scopes.Scope) -> Stmt:
    return lambda f: BREAK


def _continue(compiler: Compiler, node: ast.stmt, scope: scopes.Scope) -> Stmt:
    return lambda f: CONTINUE


# How each statement the language accepts is compiled (anything else is refused). The
# node is `Any` here: each method takes its own node type, the one it is filed under.
_STATEMENTS: dict[type[ast.stmt], Callable[[Compiler, Any, scopes.Scope], Stmt]] = {
    ast.Expr: Compiler.expression_statement,
    ast.Assign: Compiler.assign,
    ast.AugAssign: Compiler.augmented,
    ast.AnnAssign: Compiler.annotated,
    ast.For: Compiler.for_loop,
    ast.While: Compiler.while_loop,
    ast.If: Compiler.if_statement,
    ast.FunctionDef: Compiler.function_def,
    ast.ClassDef: Compiler.class_def,
    ast.Return: Compiler.return_statement,
    ast.Pass: _pass,
    ast.Global: _pass,
    ast.Nonlocal: _pass,
    ast.Break: _break,
    ast.Continue: _continue,
    ast.Assert: Compiler.assert_statement,
    ast.Import: Compiler.import_statement,
    ast.ImportFrom: Compiler.import_from,
    ast.Delete: Compiler.delete,
    ast.Raise: Compiler.raise_statement,
    ast.Try: Compiler.try_statement,
    ast.Match: Compiler.match_statement,
    ast.With: Compiler.with_statement,
}

# The statements of a generator's body that may hold a `yield` (besides `yield` itself).
_GENERATOR_STATEMENTS: dict[type[ast.stmt], Callable[[Compiler, Any, scopes.Scope], GenStmt]] = {
    ast.Expr: Compiler.gen_expression,
    ast.Assign: Compiler.gen_assign,
    ast.Return: Compiler.gen_return,
    ast.AugAssign: Compiler.gen_augmented,
    ast.Try: Compiler.gen_try,
    ast.With: Compiler.gen_with,
    ast.If: Compiler.gen_if,
    ast.For: Compiler.gen_for,
    ast.While: Compiler.gen_while,
}


def _adds_in_one_branch(target: ast.Attribute, right: ast.IfExp) -> bool:
    """Whether one branch of `target = A if T else B` adds to `target` itself (`p.grad +
    g`, `g + p.grad`): an accumulation written with a choice (`grad_choice`)."""
    written = ast.unparse(target)
    return any(
        isinstance(branch, ast.BinOp)
        and isinstance(branch.op, ast.Add)
        and written in (ast.unparse(branch.left), ast.unparse(branch.right))
        for branch in (right.body, right.orelse)
    )


def _calls_in(body: list[ast.stmt]) -> bool:
    """Whether a loop's body calls anything."""
    return any(isinstance(n, ast.Call) for statement in body for n in ast.walk(statement))


def operand_loop(node: ast.For) -> dict[str, ast.Name]:
    """`for child in v._prev:` or `for child, local in zip(v._children, …):` (any of
    `OPERAND_NAMES`), or `for child, local in v._children.items():` (operands kept as a
    dict's keys, child → local derivative), or the operands v's holder keeps (`for p, g
    in zip(v._ctx.parents, grads)`, any of `HOLDER_NAMES`): {"child": v}; or pairs kept
    with their local derivatives (`for parent, partial in v.parents:`, a body that
    calls nothing): each name of the pair bound to v, the one written being the operand
    (`Recorder.loop_write` checks); otherwise {}."""
    target, iterable = node.target, node.iter
    names: list[ast.expr] = [target]
    if isinstance(iterable, ast.Call) and isinstance(target, ast.Tuple) and target.elts:
        func = iterable.func
        if isinstance(func, ast.Name) and func.id == "zip" and iterable.args:
            names, iterable = [target.elts[0]], iterable.args[0]
        elif isinstance(func, ast.Attribute) and func.attr == "items" and not iterable.args:
            names, iterable = [target.elts[0]], func.value
    elif isinstance(target, ast.Tuple) and not _calls_in(node.body):
        # (A loop that calls anything, a recursion down each path with the path's
        # product, `walk(child, path * local)`, writes no one node's rule: judged whole.)
        names = list(target.elts)
    if not (
        all(isinstance(name, ast.Name) for name in names)
        and isinstance(iterable, ast.Attribute)
        and iterable.attr in OPERAND_NAMES
    ):
        return {}
    owner = iterable.value
    if isinstance(owner, ast.Attribute) and owner.attr in HOLDER_NAMES:
        owner = owner.value
    if not isinstance(owner, ast.Name):
        return {}
    return {name.id: owner for name in names if isinstance(name, ast.Name)}


def _leaves_loop(body: list[ast.stmt]) -> bool:
    """Whether a loop's body has a `break` of its own or a `return`: not one of a loop
    or a function inside it (a nested loop's `else` is the loop's own, though)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Break | ast.Return):
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.For | ast.While):
            stack.extend(node.orelse)
            continue
        stack.extend(child for child in child_nodes(node) if isinstance(child, ast.stmt))
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                stack.extend(handler.body)
        if isinstance(node, ast.Match):
            for case in node.cases:
                stack.extend(case.body)
    return False


@cache
def library_tree(source: str) -> ast.Module:
    """The tree of a module the interpreter runs from its own source (`LIBRARY_SOURCES`,
    micrograd's): parsed once a process (`unittest`'s took 14 ms, `argparse`'s 23 ms, each
    trace that imported it), as nothing that compiles or walks a tree changes it."""
    return parse_python(source)


LIBRARY_SOURCES = {
    "micrograd.engine": ENGINE_SOURCE,
    "micrograd.nn": NN_SOURCE,
    "unittest": unittest_module.UNITTEST_SOURCE,
    "contextlib": contextlib_module.CONTEXTLIB_SOURCE,
    "pytest": pytest_module.PYTEST_SOURCE,
    "queue": queue_module.QUEUE_SOURCE,
    "warnings": warnings_module.WARNINGS_SOURCE,
    "graphlib": graphlib_module.GRAPHLIB_SOURCE,
    "bisect": small_modules.BISECT_SOURCE,
    "string": small_modules.STRING_SOURCE,
    "collections.ChainMap": small_modules.CHAINMAP_SOURCE,
    "pprint": pprint_module.PPRINT_SOURCE,
    "textwrap": textwrap_module.TEXTWRAP_SOURCE,
    "functools.singledispatch": small_modules.SINGLEDISPATCH_SOURCE,
    "argparse": argparse_module.ARGPARSE_SOURCE,
}
# Members of the interpreter's own modules written in its language, each made for a
# program whose text names it: the source they are in, and their module.
LIBRARY_MEMBERS = {
    "ChainMap": ("collections.ChainMap", "collections"),
    "singledispatch": ("functools.singledispatch", "functools"),
    "singledispatchmethod": ("functools.singledispatch", "functools"),
}
# The modules whose source is in the interpreter's language, and the names they export.
# Names of those modules that CPython's `__all__` leaves out, so `import *` binds none.
NOT_IN_ALL = frozenset({"WarningMessage"})
LAZY_MODULES = {
    "contextlib": contextlib_module.CONTEXTLIB_NAMES,
    "pytest": pytest_module.PYTEST_NAMES,
    "unittest": unittest_module.UNITTEST_NAMES,
    "queue": queue_module.QUEUE_NAMES,
    "warnings": warnings_module.WARNINGS_NAMES,
    "graphlib": graphlib_module.GRAPHLIB_NAMES,
    "bisect": small_modules.BISECT_NAMES,
    "string": small_modules.STRING_NAMES,
    "pprint": pprint_module.PPRINT_NAMES,
    "textwrap": textwrap_module.TEXTWRAP_NAMES,
    "argparse": argparse_module.ARGPARSE_NAMES,
}


# The library modules whose classes CPython names by the module itself (not `unittest`,
# whose are `unittest.case.`'s, nor `queue`'s `_queue.Empty`): their `__module__`.
_NAMED_MODULES = frozenset({"graphlib", "argparse"})


def _same(value: Any) -> Any:
    return value


def catches(wanted: Any, error: ProgramError, classes: dict[str, PClass]) -> bool:
    """Whether `except wanted` (a class or a tuple of them) catches `error`."""
    options = wanted if type(wanted) is tuple else (wanted,)
    for option in options:
        if not is_exception_class(option, classes):
            raise ProgramError(
                "catching classes that do not inherit from BaseException is not allowed",
                kind="TypeError",
            )
        if error_matches(error, option, classes):
            return True
    return False


def _yields_where_supported(node: ast.stmt) -> bool:
    """Whether every `yield` of `node`'s own is where a generator's body may have it:
    the whole value of an expression statement, an assignment (`+=` too) or a return, or
    in the statements (and clauses) of an `if`, `for`, `while` or `try`, not in their tests
    or iterables."""
    if isinstance(node, ast.Expr | ast.Assign | ast.Return | ast.AugAssign):
        value = node.value
        if type(value) is ast.Yield or type(value) is ast.YieldFrom:
            inner = [] if value.value is None else [value.value]
            if type(node) is ast.Assign:
                inner.extend(node.targets)
            if type(node) is ast.AugAssign:
                inner.append(node.target)
            return not any(contains_yield(part) for part in inner)
        return False
    if type(node) is ast.If or type(node) is ast.While:
        return not contains_yield(node.test)
    if type(node) is ast.For:
        return not contains_yield(node.iter) and not contains_yield(node.target)
    if type(node) is ast.Try:
        return not any(
            handler.type is not None and contains_yield(handler.type) for handler in node.handlers
        )
    if type(node) is ast.With:
        return not any(
            contains_yield(item.context_expr)
            or (item.optional_vars is not None and contains_yield(item.optional_vars))
            for item in node.items
        )
    return False


def wrapped_functions(value: Any) -> tuple[Any, ...]:
    """The functions inside a property, static or class method."""
    if type(value) is PProperty:
        return (value.fget, value.fset)
    if type(value) is PStaticMethod or type(value) is PClassMethod:
        return (value.function,)
    return ()


def _delete_local(name: str, in_function: bool) -> Callable[[Frame], None]:
    """`del x` of a local (a function's: CPython's UnboundLocalError where it is not
    bound; the module's or a class body's: its NameError)."""
    if in_function:
        words = f"cannot access local variable '{name}' where it is not associated with a value"
        kind = "UnboundLocalError"
    else:
        words, kind = f"name '{name}' is not defined", "NameError"

    def run(f: Frame) -> None:
        if f.vars.pop(name, MISSING) is MISSING:
            raise ProgramError(words, kind=kind)

    return run


def _delete_global(name: str, globals_: dict[str, Any]) -> Callable[[Frame], None]:
    def run(f: Frame) -> None:
        if globals_.pop(name, MISSING) is MISSING:
            raise ProgramError(f"name '{name}' is not defined", kind="NameError")

    return run


def statements_calling_backward(tree: ast.Module) -> set[int]:
    """Ids of the statements whose text contains a `.backward()` call, found in one walk."""
    found: set[int] = set()
    stack: list[tuple[ast.AST, tuple[int, ...]]] = [(tree, ())]
    AST = ast.AST
    while stack:
        node, enclosing = stack.pop()
        visited(node)
        if isinstance(node, ast.stmt):
            enclosing = (*enclosing, id(node))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "backward"
        ):
            found.update(enclosing)
        # `ast.iter_child_nodes(node)`, without its generator: this visits every node.
        for field in node._fields:
            child = getattr(node, field, None)
            if isinstance(child, AST):
                stack.append((child, enclosing))
            elif type(child) is list:
                stack.extend((item, enclosing) for item in child if isinstance(item, AST))
    return found


def patches_value(tree: ast.Module) -> bool:
    """Whether the program sets an attribute of a `Value` it imports from micrograd or
    does not define (`Value.tanh = tanh`, `setattr(Value, "exp", exp)`), or makes a class
    of its own from it (`class ValueExt(Value):`): micrograd's class, extended."""
    defines = False
    patches = False
    imports = False  # `from micrograd.engine import Value`, maybe a class of its own later
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("micrograd", "micrograd.engine"):
            imports = imports or any(alias.name == "Value" for alias in node.names)
        elif isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name == "Value":
            defines = True
        elif isinstance(node, ast.ClassDef):  # `class ValueExt(Value):` extends it too
            patches = patches or any(_names_value(base) for base in node.bases)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            patches = patches or (isinstance(node.value, ast.Name) and node.value.id == "Value")
        elif isinstance(node, ast.Name) and node.id == "Value" and isinstance(node.ctx, ast.Store):
            defines = True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "Value"
        ):
            patches = True
    return patches and (imports or not defines)


def _names_value(base: ast.expr) -> bool:
    """`Value`, `engine.Value` or `micrograd.engine.Value` as a class's base."""
    if isinstance(base, ast.Attribute):
        return base.attr == "Value"
    return isinstance(base, ast.Name) and base.id == "Value"


def is_type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING` (by any name for typing) as an `if` test."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _adds_itself(right: Any) -> bool:
    """Whether `xs += right` is `right.__radd__(xs)` (CPython tries it before a list's
    own `+=`, which extends the list by any iterable)."""
    if type(right) is PInstance:
        return right.cls.lookup("__radd__") is not MISSING
    return type(right) is Value


# The methods a class body may not bind: they would never run here (`_binds_unrun`).
_UNRUN = frozenset({"__del__"})


def _binds_unrun(node: ast.ClassDef) -> ast.AST | None:
    """Where a class body binds `__del__` (`def __del__`, `__del__ = f`, in an
    `if` of the body too), not looking inside the functions and classes it defines."""
    names = _UNRUN
    stack: list[ast.AST] = list(node.body)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if item.name in names:
                return item
            stack.extend(item.decorator_list)
            continue
        if isinstance(item, ast.Lambda):
            continue
        if isinstance(item, ast.Name) and item.id in names and not isinstance(item.ctx, ast.Load):
            return item
        if isinstance(item, ast.alias) and (item.asname or item.name) in names:
            return item
        stack.extend(ast.iter_child_nodes(item))
    return None


# typing's names of the built-in types a class may inherit from, as their aliases' origin
_TYPING_ORIGINS = {
    "List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set", "FrozenSet": "frozenset"
}  # fmt: skip


def adds_generic(origin: Any, aliases: list[Any], generic: PClass) -> bool:
    """Whether typing's `__mro_entries__` of `aliases[0]` (of `origin`) puts `Generic`
    among the bases too: a typing alias's (`List[int]`, `Box[int]` of a `Generic[T]`
    class, not `list[int]`), where no later base is generic and none is Generic."""
    alias = aliases[0]

    def generic_base(value: Any) -> bool:
        if type(value) is Annotation:
            value = value.origin if value.origin is not None else _TYPING_ORIGINS.get(value.name)
        return type(value) is PClass and generic in value.mro

    typing_alias = alias.name in _TYPING_ORIGINS or (
        type(origin) is PClass and generic in origin.mro and origin is not generic
    )
    return typing_alias and not any(
        (type(later) is Annotation and later.name in _TYPING_ORIGINS) or generic_base(later)
        for later in aliases[1:]
    )


def alias_base(machine: Any, alias: Annotation) -> Any:
    """What CPython's `__mro_entries__` puts among a class's bases for a generic alias:
    `S` of `S[int]` where `S` is the program's class, `list` of `list[float]` or
    `typing.List[float]`; any other alias stays as it is (refused as a base)."""
    if alias.origin is not None:
        return alias.origin
    return machine.alias_origins.get(_TYPING_ORIGINS.get(alias.name, alias.name), alias)
