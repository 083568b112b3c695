"""`typing.get_type_hints(obj)` of the program's own classes and functions.

Annotations are not evaluated when a `def` or a class body runs (as under `from
__future__ import annotations`): each is kept as its syntax tree, a `Hint`, with the
compiler of the program (`ExpressionCompiler.function` keeps a function's by its lines in
`Machine.hints`; `Compiler.annotated` a class body's in its namespace under `HINTS`).
`get_type_hints` evaluates them then, as CPython's does: compiled by the same compiler
(so only the language's whitelist runs), names looked up in the program's globals (a
class's own names after them, the built-ins last), a string annotation parsed and
evaluated in its turn (`'Value'`, a forward reference), `None` as `NoneType`. A name
nowhere is CPython's NameError, a string that is no expression its SyntaxError's words.
"""

from __future__ import annotations

import ast
from typing import Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.interpreter import scope as scopes
from backprop_animator.engine.interpreter.objects import (
    FROZEN,
    BoundMethod,
    Builtin,
    Frame,
    Function,
    PClass,
    PClassMethod,
    PInstance,
    PStaticMethod,
    TypeObject,
)
from backprop_animator.engine.interpreter.runtime import ITEMS_PER_STEP, ProgramError, caught_as
from backprop_animator.engine.parse import parse_python

# In a class's namespace: its body's annotations, `{name: Hint}` in their order.
HINTS = " hints"

# A string annotation whose value is a string again is parsed again, this many times.
MAX_FORWARD_LEVELS = 20
# The strings of one annotation whose trees (and what they compile to) are kept for the
# next call; another is parsed and compiled each time, charged `UNKEPT_STEPS` for it (an
# annotation whose value is a new string each call kept 4 KB a call).
MAX_KEPT = 16
UNKEPT_STEPS = 20


class Hint:
    """One annotation as written: evaluated only when `get_type_hints` asks for it.
    What it compiled to (`codes`, by the tree and how its names are looked up) and the
    trees of its strings (`trees`) are kept, so asking again compiles nothing."""

    __slots__ = ("codes", "compiler", "node", "trees")

    def __init__(self, compiler: Any, node: ast.expr) -> None:
        self.compiler = compiler
        self.node = node
        self.codes: dict[tuple[int, bool], Any] = {}
        self.trees: dict[str, ast.expr] = {}


def function_hints(compiler: Any, node: ast.FunctionDef) -> list[tuple[str, Hint]]:
    """A `def`'s annotations in CPython's `__annotations__` order: its parameters', then
    `return`."""
    args = node.args
    params = [*args.posonlyargs, *args.args]
    if args.vararg is not None:
        params.append(args.vararg)
    params.extend(args.kwonlyargs)
    if args.kwarg is not None:
        params.append(args.kwarg)
    hints = [(a.arg, Hint(compiler, a.annotation)) for a in params if a.annotation is not None]
    if node.returns is not None:
        hints.append(("return", Hint(compiler, node.returns)))
    return hints


def function_annotations(machine: Any, fn: Function) -> dict[str, Any]:
    """`f.__annotations__` of the program's function or method, as CPython 3.11 has it:
    each the value its expression makes (a method's names looked up in its class's body
    first, as the body ran them), a string kept as it is, and every one the text of its
    expression under `from __future__ import annotations`; `{}` for a function with none.
    (Evaluated when read here, where CPython evaluates them as the `def` runs.)"""
    hints = machine.hints.get(fn.span) if fn.span != (0, 0) else None
    owner = fn.owner.namespace if fn.owner is not None else None
    annotations: dict[str, Any] = {}
    for name, hint in hints or ():
        machine.state.charge(1)
        node = hint.node
        if future_annotations(hint.compiler):
            text = ast.unparse(node)
            machine.state.check_str(len(text))
            annotations[name] = text
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            annotations[name] = node.value
        else:
            annotations[name] = run(machine, hint, node, owner, class_first=True)
    return annotations


def get_type_hints(machine: Any, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """`typing.get_type_hints(obj)`: a function's (or method's) annotations, or a class's
    and its bases', evaluated (`include_extras` taken, no other namespace)."""
    given = dict(kwargs)
    given.pop("include_extras", None)
    if len(args) > 1 or any(given.pop(key, None) is not None for key in ("globalns", "localns")):
        raise ProgramError("get_type_hints() takes the object alone here (no namespaces)")
    if len(args) != 1 or given:
        raise ProgramError("get_type_hints() takes one class or function", kind="TypeError")
    obj = args[0]
    if type(obj) is BoundMethod:
        obj = obj.function
    if type(obj) is PStaticMethod or type(obj) is PClassMethod:
        obj = obj.function
    if type(obj) is Function:
        # An expression CPython evaluated when the `def` ran, in its class's body for a
        # method (its names the class's first); a string in the globals alone.
        found = machine.hints.get(obj.span) if obj.span != (0, 0) else None
        owner = obj.owner.namespace if obj.owner is not None else None
        return {
            name: evaluate(machine, hint, owner, strings_in=GLOBALS_ONLY)
            for name, hint in found or ()
        }
    if type(obj) is PClass:
        hints: dict[str, Any] = {}
        for cls in reversed(obj.mro):
            machine.state.charge(1)
            for name, hint in cls.namespace.get(HINTS, {}).items():
                hints[name] = evaluate(machine, hint, cls.namespace)
        return hints
    if type(obj) is PInstance:
        # CPython reads `obj.__annotations__`, its class's own, and evaluates a string
        # with no globals (`obj` has no `__globals__`): the built-ins alone.
        for cls in obj.cls.mro:
            if HINTS in cls.namespace:
                found_hints = cls.namespace[HINTS].items()
                return {
                    name: evaluate(machine, hint, cls.namespace, strings_in=BUILT_INS)
                    for name, hint in found_hints
                }
    if isinstance(obj, TypeObject | Builtin):  # `int`, `len`: none of their own
        return {}
    shown = machine.texts.to_repr(obj)
    raise ProgramError(f"{shown} is not a module, class, method, or function.", kind="TypeError")


# How a forward reference's names are looked up: the globals, then a class's own names
# (CPython's `get_type_hints` of a class), or the built-ins alone (of an object).
GLOBALS_FIRST = "globals"
GLOBALS_ONLY = "globals only"
BUILT_INS = "builtins"


def future_annotations(compiler: Any) -> bool:
    """Whether the module begins with `from __future__ import annotations`, which makes
    every annotation a string in CPython (only a docstring and futures come before);
    looked for once per module, not at each annotation read."""
    tree = getattr(compiler, "tree", None)
    if tree is None:
        return False
    kept = getattr(compiler, "future_annotations", None)  # (its tree, the answer)
    if kept is None or kept[0] is not tree:
        kept = compiler.future_annotations = (tree, _begins_with_annotations(tree))
    return bool(kept[1])


def _begins_with_annotations(tree: ast.Module) -> bool:
    for index, statement in enumerate(tree.body):
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            if any(alias.name == "annotations" for alias in statement.names):
                return True
        elif not (index == 0 and isinstance(statement, ast.Expr)):
            return False
    return False


# In a class's namespace: its `__annotations__` once read, the one dict it keeps (CPython
# makes it when the class body runs; here when it is first read).
ANNOTATIONS_READ = " annotations read"


def class_annotations(machine: Any, cls: PClass) -> dict[str, Any]:
    """`C.__annotations__` as CPython 3.11 has it: the class body's own, each the value
    its expression makes (looked up in the class's names, then the globals, as the body
    does; evaluated when it is first read here), a string kept as it is, and every one
    the text of its expression under `from __future__ import annotations`; one dict,
    which the class keeps (a write to it stays)."""
    kept = cls.namespace.get(ANNOTATIONS_READ)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    annotations: dict[str, Any] = {}
    for name, hint in cls.namespace.get(HINTS, {}).items():
        machine.state.charge(1)
        node = hint.node
        if future_annotations(hint.compiler):  # `'Node'` is `"'Node'"` then
            text = ast.unparse(node)
            machine.state.check_str(len(text))
            annotations[name] = text
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            annotations[name] = node.value
        else:
            annotations[name] = run(machine, hint, node, cls.namespace, class_first=True)
    cls.namespace[ANNOTATIONS_READ] = annotations
    return annotations


def evaluate(
    machine: Any,
    hint: Hint,
    namespace: dict[str, Any] | None,
    strings_in: str = GLOBALS_FIRST,
) -> Any:
    """One annotation's value, as CPython's `get_type_hints` makes it: an expression the
    value it made when its class body ran (its names the class's first), a string (a
    forward reference) evaluated then, by `strings_in`."""
    node = hint.node
    levels = 0
    if future_annotations(hint.compiler):
        value: Any = ast.unparse(node)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
    else:
        value = run(machine, hint, node, namespace, class_first=True)
        if type(value) is not str:
            return none_type(hint.compiler) if value is None else value
    while type(value) is str:  # a forward reference: `'Value'`, `"list[Node]"`
        levels += 1
        if levels > MAX_FORWARD_LEVELS:
            raise ProgramError("a forward reference names a forward reference too many times")
        tree = hint.trees.get(value)
        keep = True
        if tree is None:
            tree = parsed(machine, value, node)
            keep = len(hint.trees) < MAX_KEPT
            if keep:
                hint.trees[value] = tree
            else:
                machine.state.charge(UNKEPT_STEPS)
        if strings_in == BUILT_INS:
            only_built_ins(hint.compiler, tree)
        names = namespace if strings_in == GLOBALS_FIRST else None
        value = run(machine, hint, tree, names, keep=keep)
        if value is None:
            return none_type(hint.compiler)
    return value


def only_built_ins(compiler: Any, tree: ast.expr) -> None:
    """A forward reference evaluated with no globals, as CPython's `get_type_hints` of an
    object: a name that is no built-in is CPython's NameError."""
    for part in ast.walk(tree):
        if isinstance(part, ast.Name) and part.id not in compiler.builtins:
            raise ProgramError(f"name '{part.id}' is not defined", kind="NameError")


def run(
    machine: Any,
    hint: Hint,
    node: ast.expr,
    namespace: dict[str, Any] | None,
    keep: bool = True,
    class_first: bool = False,
) -> Any:
    """`node` (compiled once, where it is kept: `keep`) run: its names the program's
    globals, then the class's own (`namespace`, as CPython's `get_type_hints` looks them
    up), then the built-ins; the class's own first (`class_first`, as its body looked
    them up when it ran)."""
    machine.state.charge(1)
    compiler = hint.compiler
    key = (id(node), namespace is None)  # (a node kept, by the hint or its trees)
    code = hint.codes.get(key) if keep else None
    if code is None:
        code = compiled(compiler, node, namespace is not None)
        if keep:
            hint.codes[key] = code
    if namespace is None:
        return code(Frame({}, None))
    machine.state.charge(len(namespace) // ITEMS_PER_STEP)
    globals_ = compiler.globals
    own = {  # (not the interpreter's own entries: `__dataclass_frozen__`, as `C.__dict__`)
        key: value
        for key, value in namespace.items()
        if key.isidentifier() and key != FROZEN and (class_first or key not in globals_)
    }
    return code(Frame(own, None))


def compiled(compiler: Any, node: ast.expr, in_class: bool) -> Any:
    """`node` compiled in a module of its own (in a class's, `in_class`: every name it
    reads asks the frame's own names first, then the globals). What the compiler refuses
    (a dunder, a nesting past the depth bound) is its refusal at the annotation, as the
    program's own code is refused, never an internal error let through a call."""
    module = scopes.Scope("module", None)
    if in_class:
        names = {part.id for part in ast.walk(node) if isinstance(part, ast.Name)}
        scope = scopes.Scope("class", module, locals=names)
    else:
        scope = module
    # (What it compiles to is never part of a generated block: the compiler's notes of
    # its closures for `codegen` are not kept, as the compiler would keep them all.)
    # Nor is the program tree's memo (`TreeMemo`, by node id) read or filled: a forward
    # reference's tree is parsed anew and dropped, and a later one's lambda may take its
    # id, which would read the first's names (`(lambda: y)()` taking y for its local).
    shapes, memo = compiler.shapes, compiler.memo
    compiler.shapes, compiler.memo = {}, type(memo)()  # (a `TreeMemo` of its own)
    try:
        return compiler.expr(node, scope)
    except ProgramError:
        raise
    except EngineError as error:
        raise ProgramError(error.message, error.line, error.column) from None
    finally:
        compiler.shapes, compiler.memo = shapes, memo


def parsed(machine: Any, text: str, at: ast.expr) -> ast.expr:
    """A string annotation as an expression, placed at the annotation (for its errors);
    CPython's SyntaxError words for one that is none."""
    limits = machine.state.limits
    budget = 4 * limits.max_depth + 100
    machine.state.charge(len(text) // ITEMS_PER_STEP)

    def too_deep(what: str) -> ProgramError:
        # A bound (no `except` catches it), at the annotation, as the compiler's are.
        message = limits.exceeded("max_depth", what).message
        return ProgramError(message, at.lineno, at.col_offset + 1)

    if sum(text.count(c) for c in "([{-+~*.,|") > budget:
        raise too_deep(
            f"this forward reference has more than {budget:,} operators, too many to nest"
        )
    failed = ProgramError(f"Forward reference must be an expression -- got {text!r}")
    failed.kind = "SyntaxError"
    try:
        tree = parse_python(text.lstrip(" \t"))
    except SyntaxError:
        raise failed from None
    except UnicodeEncodeError as error:  # a lone surrogate (`'\ud800'`): CPython's compile's
        raise caught_as(f"a forward reference: {error}", error) from None
    except (RecursionError, MemoryError, ValueError):
        raise too_deep("this forward reference is nested too deeply") from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        raise failed
    expression = tree.body[0].value
    for part in ast.walk(expression):
        if isinstance(part, ast.expr):
            ast.copy_location(part, at)
    return expression


def none_type(compiler: Any) -> Any:
    """`type(None)`, which `get_type_hints` gives for a `None` annotation."""
    return compiler.m.call(compiler.builtins["type"], [None])
