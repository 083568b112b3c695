"""Expressions, binding targets and function objects, compiled into closures.

Each expression node becomes a function of the running frame that returns its value.
Operators, attribute access, items and calls go through `engine.interpreter.machine`,
so the allow-lists there decide what any value can do; here each closure adds its own
position to an error that passes through it, and calls add the call chain. A dunder
attribute outside a class body is refused before the program runs.
"""

from __future__ import annotations

import ast
import builtins as _host_builtins
import operator
import sys
import weakref
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from types import CodeType, GeneratorType, MappingProxyType
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.errors import EngineError
from backprop_animator.engine.interpreter import scope as scopes
from backprop_animator.engine.interpreter.exceptions import (
    CHAIN_NAMES,
    chain_attribute,
    write_chain,
)
from backprop_animator.engine.interpreter.generators import (
    GENEXP_SOURCES,
    generator_read,
    is_program_generator,
    reads_generator,
)
from backprop_animator.engine.interpreter.machine import (
    FORWARD_DUNDERS,
    PYTHON_TYPES,
    RETURN,
    Machine,
)
from backprop_animator.engine.interpreter.number_dunders import NAMES as NUMBER_DUNDERS
from backprop_animator.engine.interpreter.objects import (
    GRAD_NAMES,
    MISSING,
    NUMBER_NAMES,
    OPERAND_NAMES,
    OPERAND_PAIRS,
    REQUIRES_NAMES,
    RULE_ATTRIBUTE_WORDS,
    RULE_NAMES,
    SINGLE_OPERANDS,
    BoundMethod,
    Builtin,
    Frame,
    Function,
    PClass,
    PInstance,
    PModule,
    PSet,
    PSuper,
    TypeObject,
    is_bare_object,
    is_dunder,
    tuple_dict_refusal,
)
from backprop_animator.engine.interpreter.runtime import (
    ITEMS_PER_STEP,
    MAX_INT,
    MAX_ITEMS,
    MAX_STR,
    SMALL_INT,
    ProgramError,
)
from backprop_animator.engine.interpreter.text import (
    ITERATOR_CODES,
    NO_METHOD,
    Texts,
    a_type,
    cpython_type,
    python_type_name,
)
from backprop_animator.engine.interpreter.type_hints import function_hints
from backprop_animator.engine.limits import (
    child_nodes,
    tick,
    too_deep,
    took_too_long,
    visited,
    walk,
)
from backprop_animator.engine.ops import OP_OF_METHOD
from backprop_animator.engine.value import Value

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.codegen import Hot
    from backprop_animator.engine.parse import SourceLines
    from backprop_animator.engine.trace.recorder import Recorder

Expr = Callable[[Frame], Any]
Stmt = Callable[[Frame], Any]

BINARY_OPERATORS = {
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
    ast.MatMult: "@",  # numbers have none: only a program's own `__matmul__` answers it
}
# The operators a plain-number fast path may apply before `Machine.numbers` (`binary`).
_PLAIN_NUMBER_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
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
    ast.TryStar: "except* (exception groups)",
    ast.Await: "await",
    ast.Yield: "yield as a value (x = yield ...); yield is a statement here",
    ast.YieldFrom: "yield from as a value; yield from is a statement here",
    ast.Match: "match statements",
}


def is_generator(body: list[ast.stmt]) -> bool:
    """Whether a function body holds `yield` (outside functions and classes in it)."""
    return any(contains_yield(statement) for statement in body)


def contains_yield(node: ast.AST) -> bool:
    """Whether `node` holds a `yield` of the scope it is in: a function or class it
    defines (`def g(): yield 5` inside a function) has its own, but for what the
    definition evaluates where it stands (decorators, defaults, bases)."""
    stack: list[ast.AST] = [node]
    if isinstance(node, ast.FunctionDef | ast.Lambda):
        defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        stack = [*getattr(node, "decorator_list", ()), *defaults]
    elif isinstance(node, ast.ClassDef):
        stack = [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
    while stack:
        child = stack.pop()
        visited(child)
        if isinstance(child, ast.Yield | ast.YieldFrom):
            return True
        for grandchild in child_nodes(child):
            if not isinstance(grandchild, ast.FunctionDef | ast.Lambda | ast.ClassDef):
                stack.append(grandchild)
    return False


# Functions of the program that run a pass when given a graph node: `backprop(loss)`.
PASS_FUNCTIONS = frozenset({"backward", "backprop", "backpropagate", "backward_pass", "back"})
# The words a method of a graph node's class that runs a pass is named with, as learners
# name them (`loss.backprop_lets_go()`, `loss.run_backward()`, `loss.retroprop()`, a
# Portuguese course's `loss.propagar_tudo()`, whose rules are `propagar`).
PASS_WORDS = ("backward", "backprop", "retroprop", "propagar")


def free_pass_of(m: Any, func: ast.expr) -> tuple[bool, frozenset[tuple[int, int]]]:
    """Whether calling the function `func` names is a pass when it is given a graph node
    first, as `loss.backward()` is: `backprop(loss)`, a name of PASS_FUNCTIONS (True);
    else the spans of the program's functions of its name that seed the node's gradient
    and work out the others, `getGradients(z)` (`seeding_passes`), one of which it must
    be when called."""
    if not isinstance(func, ast.Name):
        return False, frozenset()
    if func.id in PASS_FUNCTIONS:
        return True, frozenset()
    return False, m.seeding_passes.get(func.id, frozenset())


def _free_pass(
    rec: Any,
    call: Callable[[Any, list[Any], Any], Any],
    target: Function,
    values: list[Any],
    kwargs: Any,
    clue: bool,
    position: tuple[int, int],
    func: ast.expr | None = None,
) -> Any:
    """`backprop(loss)`, a function of the program's given an object of its first: a pass
    where the object is a graph node; else a plain call, and, for `backward(out)`
    (`clue`), the object kept for the refusal's words should no pass come of the program
    (a Wengert list's `Var`, whose operands only a tape keeps), as `out.backward()` keeps
    it. `func`: the call's function, whose name the sort frame says (`user_pass`)."""
    first = values[0]
    if first.mirror is not None:
        return rec.user_pass(first, lambda: call(target, values, kwargs), target, free=True)
    if clue and rec.unshaped is None:
        rec.unshaped = first
        rec.unshaped_at = position
    return call(target, values, kwargs)


def _unshaped_backward(rec: Any, obj: PInstance, fn: Function, run: Callable[[], Any]) -> Any:
    """`obj.backward()` (`run`) on an object of the program's that is no graph node: in
    a run where the objects that made the nodes keep their operands (`holder_pass`, a
    "Hacker's guide" gate), the rule of the node it made (`Recorder.holder_rule`); else
    a plain call, the object and the call's place kept for the refusal's words should no
    pass come of it."""
    if rec.holder_pass:
        return rec.holder_rule(obj, fn, run)
    if rec.unshaped is None:
        rec.unshaped = obj
        rec.unshaped_at = rec.state.position  # (the call's statement)
    return run()


def _own_call(
    rec: Any,
    obj: PInstance,
    method: str,
    target: Any,
    watch_rule: bool,
    call: Callable[[Any, list[Any], Any], Any],
    values: list[Any],
    kwargs: Any,
) -> Any:
    """`obj.method(…)` (`call(target, values, kwargs)`) where the method's name may be a
    rule's or a pass's: a pass kept on the node (`_kept_pass`), a run of the node's rule
    (`is_rule`), else a call."""
    run = partial(call, target, values, kwargs)
    if rec.holder_pass and _kept_pass(obj, method, target):
        return rec.user_pass(obj, run, target)
    if watch_rule and is_rule(obj, method):
        return rec.user_rule(obj, run)
    return run()


def _kept_pass(obj: Any, method: str, target: Any) -> bool:
    """Whether `out.backward(1.0)` runs a function an op set on the node it made, under a
    pass's name (`out.backward = backward`, in a run of `holder_pass`, where such nodes get
    their operands from it: `Recorder.fill_closures`): then it is the pass, as a method of
    the class would be."""
    return (
        type(obj) is PInstance
        and obj.mirror is not None
        and type(target) is Function
        and method in obj.attrs
        and obj.attrs[method] is target
    )


def is_grad_pass(cls: PClass) -> bool:
    """Whether `node.grad(1.0)`, a method of the node's class named `grad`, is the pass:
    where the class keeps a node's gradient under another name (Eli Bendersky's rad.py:
    `gv`, and `def grad(self, gv)` pushes each share down a recursion), as `backward` is
    elsewhere. Where `grad` is the gradient (a property's getter too), it is no pass."""
    shape = cls.shape
    return shape is not None and shape.grad != "grad" and shape.said != "grad"


def is_pass_method(name: str) -> bool:
    """Whether `node.name()` on a graph node runs a pass: a name of PASS_FUNCTIONS, or a
    public method named with a word of PASS_WORDS that is no rule's name (`_backward`,
    `backward_fn`: a node's own rule, run by the pass).

    Example: `is_pass_method("backprop_lets_go") is True`, `is_pass_method("_backward")
    is False`, `is_pass_method("backward_fn") is False`.
    """
    if name in PASS_FUNCTIONS:
        return True
    if name.startswith("_") or name in RULE_NAMES:
        return False
    lowered = name.lower()
    return any(word in lowered for word in PASS_WORDS)


def own_gradient_names(tree: ast.Module) -> tuple[str, ...]:
    """The names the program's classes give a node's gradient in words of their own,
    where a class's `__init__` sets no attribute named as one of GRAD_NAMES is: the one
    it sets to 0 whose name holds `grad` (`self.backwards_grad = 0.0`), else the one it
    sets that a method named for a pass seeds with 1 on its own object (`self.dvalue =
    1.0` in `backward`). Read off the code before it runs, as GRAD_NAMES are: the
    compiler writes them as gradient writes, and an object's shape takes one as its
    gradient only where no name of GRAD_NAMES is among its attributes (`find_shape`).

    Example: `own_gradient_names(ast.parse("class N:\\n def __init__(s):\\n  s.my_grad = 0"))
    == ("my_grad",)`.
    """
    found: list[str] = []
    for node in walk(tree):
        if isinstance(node, ast.ClassDef):
            name = _own_gradient(node)
            if name is not None and name not in found:
                found.append(name)
    return tuple(found)


def _own_gradient(node: ast.ClassDef) -> str | None:
    methods = [m for m in node.body if isinstance(m, ast.FunctionDef) and m.args.args]
    init = next((m for m in methods if m.name == "__init__"), None)
    if init is None:
        return None
    set_in_init = _own_writes(init)
    if any(name in GRAD_NAMES for name in set_in_init):
        return None
    zeroed = [
        name
        for name, value in set_in_init.items()
        if "grad" in name.lower() and name not in REQUIRES_NAMES and _is_number(value, 0)
    ]
    if len(zeroed) == 1:
        return zeroed[0]
    seeded = {
        name
        for method in methods
        if is_pass_method(method.name)
        for name, value in _own_writes(method).items()
        if name in set_in_init and name not in NUMBER_NAMES and _is_number(value, 1)
    }
    return seeded.pop() if len(seeded) == 1 else None


# At most so many top-level classes are read for leaf classes (`leaf_classes`): a
# course's lazy graph has a few; 3,000 classes each the next one's base (73 KB of
# source) took 2 s and 290 MB before the run, where no step is charged.
LEAF_CLASSES_AT_MOST = 200


def leaf_classes(tree: ast.Module) -> frozenset[str]:
    """The program's top-level classes whose objects are the leaves of a graph of op
    classes: a class that keeps no operands, beside (under a base class of the program's
    they share) a class whose `__init__` keeps them (`self.left` and `self.right`, a pair
    of OPERAND_PAIRS, `self.operand`, or a name of OPERAND_NAMES) and its number under a
    name of NUMBER_NAMES. A course's lazy
    expression graph: `Variable` and `Const` beside `class Add(BinaryOp)`, the number
    worked out by `eval()`, the gradient pushed down by `backward(adjoint)`; no leaf
    keeps an empty `_prev`. Read off the code before it runs; `find_shape` takes such a
    class's object as a leaf where it holds a number and a gradient.

    Example: `leaf_classes(ast.parse("class N: pass\nclass V(N): pass\n"
    "class Add(N):\n def __init__(s, a, b):\n  s.left = a\n  s.right = b\n  s.data = 0\n"))
    == frozenset({"N", "V"})`.
    """
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    if len(classes) > LEAF_CLASSES_AT_MOST:
        return frozenset()  # (a read before the run, charged nothing: kept small)
    bases = {
        name: [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in classes]
        for name, node in classes.items()
    }
    lineage: dict[str, set[str]] = {}
    for name in classes:
        seen, stack = {name}, [name]
        while stack:
            for base in bases[stack.pop()]:
                if base not in seen:
                    seen.add(base)
                    stack.append(base)
        lineage[name] = seen
    # Each class's own `__init__` read once, however many classes it is an ancestor of.
    own = {
        name: {
            attr
            for item in node.body
            if isinstance(item, ast.FunctionDef) and item.name == "__init__" and item.args.args
            for attr in _own_writes(item)
        }
        for name, node in classes.items()
    }
    writes = {name: set().union(*(own[a] for a in lineage[name])) for name in classes}
    # (an op class that keeps its number under a name of NUMBER_NAMES, as its leaves do:
    # a tape's `Multiply(left, right)` keeping `output` is read in another run)
    ops = {
        name
        for name in classes
        if _keeps_operands(writes[name]) and any(n in writes[name] for n in NUMBER_NAMES)
    }
    # A class shares an ancestor with an op class where its lineage meets theirs.
    families = set().union(*(lineage[op] for op in ops))
    return frozenset(name for name in classes if name not in ops and lineage[name] & families)


def _keeps_operands(names: set[str]) -> bool:
    return any(name in names for name in (*OPERAND_NAMES, *SINGLE_OPERANDS)) or any(
        first in names and second in names for first, second in OPERAND_PAIRS
    )


def _own_writes(method: ast.FunctionDef) -> dict[str, ast.expr]:
    """`name: value` of each `self.name = value` of a method (its first parameter's
    attributes), the last one for a name written twice."""
    itself = method.args.args[0].arg
    writes: dict[str, ast.expr] = {}
    for node in walk(method):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == itself
            ):
                writes[target.attr] = node.value
    return writes


def _is_number(value: ast.expr, number: int) -> bool:
    """Whether `value` is the literal `number`, an int's or a float's (`0`, `0.0`)."""
    return (
        isinstance(value, ast.Constant)
        and type(value.value) in (int, float)
        and value.value == number
    )


def does_pass_work(body: list[ast.stmt], names: tuple[str, ...] = GRAD_NAMES) -> bool:
    """Whether a method named with a pass's word only (`is_pass_method`, not a name of
    PASS_FUNCTIONS) does a pass's work, as `run_backward` does and `register_backward_hook`
    (which keeps a hook) does not: its code (functions inside it too) writes a gradient
    (`self.grad = 1.0`) or calls a rule or a pass (`v._backward()`, `self.backward()`).

    Example: `does_pass_work(ast.parse("self.hooks.append(fn)").body) is False`.
    """
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        visited(node)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr in names for t in targets):
                return True
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            lowered = called.lower()
            if called in RULE_NAMES or any(word in lowered for word in PASS_WORDS):
                return True
    return False


def seeding_passes(
    tree: ast.Module, names: tuple[str, ...] = GRAD_NAMES
) -> frozenset[tuple[str, int, int]]:
    """The name and span of each function of the program (not a method of a class) whose
    name is no pass's (PASS_FUNCTIONS) but which does a pass's work on the node it is
    given first, writing the gradients itself: it seeds that node's gradient with 1
    (`func.grad = 1`) and, there or in a function inside it, works out others (`child.grad
    += var.grad * local`, a write of no constant): Darchin's `getGradients(z)`, whose
    `reversePass(var)` walks a tape. Read off the code before it runs, as
    `own_gradient_names` is; called with a graph node first, such a function is a pass,
    as `backprop(loss)` is. (One that only calls the nodes' rules, `node._backward()`,
    stays a walk by hand, which finds its pass by those calls.)

    Example: `seeding_passes(ast.parse("def go(z):\n z.grad = 1\n z.a.grad += z.grad"))
    == frozenset({("go", 1, 3)})`.
    """
    found: set[tuple[str, int, int]] = set()
    # One walk: the candidate functions open around the node reached, innermost last,
    # each [function, its first parameter, seeds, works], and their places there by
    # their first parameter. A write marks the innermost it counts for; a function
    # closing hands its marks to the next one out it counts for (every open one holds
    # the write too), so no function's body is walked again for each one around it.
    around: list[list[Any]] = []
    by_first: dict[str, list[int]] = {}
    stack: list[tuple[ast.AST, bool] | None] = [(tree, False)]
    while stack:
        entry = stack.pop()
        if entry is None:  # the innermost open function ends
            function, first, seeds, works = around.pop()
            places = by_first[first]
            places.pop()
            if seeds and works:
                found.add((function.name, function.lineno, function.end_lineno or function.lineno))
            if seeds and places:
                around[places[-1]][2] = True
            if works and around:
                around[-1][3] = True
            continue
        node, in_class = entry
        visited(node)
        if (
            isinstance(node, ast.FunctionDef)
            and not in_class
            and node.name not in PASS_FUNCTIONS
            and (node.args.posonlyargs or node.args.args)
        ):
            first = (*node.args.posonlyargs, *node.args.args)[0].arg
            by_first.setdefault(first, []).append(len(around))
            around.append([node, first, False, False])
            stack.append(None)
        elif around and isinstance(node, ast.Assign | ast.AugAssign):
            _seeds_or_works(node, names, around, by_first)
        body_of_class = isinstance(node, ast.ClassDef)
        stack.extend((child, body_of_class) for child in child_nodes(node))
    return frozenset(found)


def _seeds_or_works(
    node: ast.Assign | ast.AugAssign,
    names: tuple[str, ...],
    around: list[list[Any]],
    by_first: dict[str, list[int]],
) -> None:
    """Mark what a write does for the functions open around it (`seeding_passes`): a
    gradient worked out (`child.grad += …`, a write of no constant) for the innermost;
    its first parameter's gradient seeded with 1 (`z.grad = 1`) for the innermost whose
    first parameter `z` is."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if not (isinstance(target, ast.Attribute) and target.attr in names):
            continue
        if isinstance(node, ast.AugAssign) or not isinstance(node.value, ast.Constant):
            around[-1][3] = True
        elif isinstance(target.value, ast.Name) and _is_number(node.value, 1):
            places = by_first.get(target.value.id)
            if places:
                around[places[-1]][2] = True


# Dunder attributes any code may read: a class's or function's name (`type(x).__name__`),
# an exception's notes (`e.__notes__`, a list of the program's strings).
READABLE_DUNDERS = frozenset(
    {
        "__name__",
        "__notes__",
        "__members__",
        "__qualname__",
        "__module__",
        "__doc__",
        "__annotations__",
        "__args__",  # a union's or a generic alias's (`(int | None).__args__`)
        "__mro__",  # a class's of the program (`Machine.class_attr`)
    }
)
# The methods a program's own class may define, read anywhere (`a.__add__(b)`, as a
# lesson shows what `a + b` calls): `Machine.get_attr` finds them in the program's class
# and nowhere else, so on anything not the program's they are refused when read.
METHOD_DUNDERS = frozenset(
    f"__{name}__"
    for name in (
        "add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv",
        "rfloordiv", "mod", "rmod", "pow", "rpow", "matmul", "neg", "pos", "abs", "eq", "ne",
        "lt", "le", "gt", "ge", "call", "repr", "str", "len", "getitem", "setitem", "delitem",
        "contains", "iter", "next", "bool", "float", "int", "hash", "init",
    )
)  # fmt: skip
# A number's own too (`(2).__round__()`, number_dunders.py): `Machine.get_attr` finds
# them on a plain number, a program's class that defines them, and nowhere else.
METHOD_DUNDERS |= NUMBER_DUNDERS


def no_dict(value: Any) -> ProgramError:
    """The refusal of `.__dict__` where only the program's classes and objects have one
    (CPython's AttributeError where CPython has none either: `(1).__dict__`)."""
    if type(value) in PYTHON_TYPES or is_bare_object(value):
        return ProgramError(
            f"'{python_type_name(value)}' object has no attribute '__dict__'",
            kind="AttributeError",
        )
    if isinstance(value, TypeObject) or type(value) is PClass:
        what = f"the built-in type '{value.name}'"
    else:
        what = a_type(value)
    return ProgramError(
        f"`.__dict__` of {what} is not available here (a class of the program's and its "
        "objects have one)"
    )


def may_be_rule(name: str) -> bool:
    """Whether `node.name()` may run a node's rule, which `is_rule` then asks the node's
    class: a name of RULE_NAMES, or one with a word of RULE_ATTRIBUTE_WORDS, a class's own
    name for the closure each node keeps (`worded_rule`: alelouis/autograd-toy's `Variable`
    keeps its rule as `self.backward`, which the program calls node by node; op classes'
    `node.compute_derivatives()`).

    Example: `may_be_rule("backward") is True`, `may_be_rule("forward") is False`.
    """
    if name in RULE_NAMES:
        return True
    lowered = name.lower()
    return any(word in lowered for word in RULE_ATTRIBUTE_WORDS)


def _class_method(obj: PInstance, method: str, named_rule: bool) -> Function | None:
    """The class's function `obj.method()` runs, the instance keeping no attribute of that
    name; None for a rule's name (`_backward`: watched as a rule, `is_rule`) unless it is
    the pass there (`_pass_named_as_rule`)."""
    fn = obj.cls.lookup(method)
    if type(fn) is not Function or (named_rule and not _pass_named_as_rule(obj, method, fn)):
        return None
    return fn


def _pass_named_as_rule(obj: PInstance, method: str, fn: Any) -> bool:
    """Whether `node._backward()`, a name of RULE_NAMES, runs the pass: the class's method
    of that name, where the nodes keep their rule under another name of their own
    (`find_shape`: Akash12373/Autograd-engine's `out.backward = backward`, whose
    `def _backward(self)` sorts and calls each node's `backward()`), and the method writes
    no other node's gradient itself (`Function.rule_method`)."""
    shape = obj.cls.shape
    return (
        type(fn) is Function
        and obj.mirror is not None
        and shape is not None
        and shape.rule != method
        and not fn.rule_method
    )


def is_rule(obj: PInstance, method: str) -> bool:
    """Whether `obj.method()` runs a graph node's rule: `method` is its class's rule
    name (`_backward`…), whether the node holds it or its class defines it."""
    shape = obj.cls.shape
    return obj.mirror is not None and shape is not None and shape.rule == method


class ExpressionCompiler:
    """Expressions, binding targets and function objects; statements are compiled by
    `engine.interpreter.compiler.Compiler`, which extends this class."""

    def __init__(
        self,
        machine: Machine,
        recorder: Recorder,
        lines: SourceLines,
        globals_: dict[str, Any],
        builtins: dict[str, Any],
        modules: Mapping[str, PModule],
        max_depth: int,
        *,
        library: bool = False,
    ) -> None:
        # Library code (`micrograd.nn`): its statements keep the caller's position, and
        # its errors are located at the caller's statement, never at its own lines.
        self.library = library
        self.m = machine
        self.rec = recorder
        self.lines = lines
        self.globals = globals_
        self.builtins = builtins
        self.modules = modules
        self.max_depth = max_depth
        self.depth = 0
        # Whether annotations are left unevaluated (`from __future__ import annotations`,
        # and a library's own code): else the names a `def`'s annotations read are looked
        # up where CPython evaluates them (`annotation_lookups`). Set by `Compiler.module`.
        self.lazy_annotations = True
        self.calls_backward: set[int] = set()  # statements that call .backward(), by id
        # What the compile of a function or class works out from its node alone, by the
        # node's id: its body's names (`scopes.function_scope`), whether it names `super`
        # (`_uses_super`), whether its body is a generator's. One a tree (`Compiler.module`,
        # `tree_memo`): a gradient check's re-runs compile the same tree again.
        self.memo = TreeMemo()
        # Library modules compiled for this program, by name (`Compiler.library_module`).
        self.loaded: dict[str, Callable[[], dict[str, Any]]] = {}
        self.tree: ast.Module | None = None  # the program (a test's docstring for `unittest`)
        # The shape of each statement closure `codegen` writes in whole (and the closure,
        # kept so that its id stays its own), by its id.
        self.shapes: dict[int, tuple[tuple[Any, ...], Callable[..., Any]]] = {}
        # A block that may be generated (`codegen.when_hot`), by its id (kept alive in
        # `shapes`): what a function made of it calls (`function`).
        self.hot: dict[int, Hot] = {}

    # Errors and positions

    def pos(self, node: ast.AST) -> tuple[int, int]:
        if self.library:
            return (0, 0)  # no position: `ProgramError.located` leaves it to the caller
        line, column = self.lines.position(node)
        return (line or 1, column or 1)

    def error(self, node: ast.AST, message: str) -> EngineError:
        line, column = self.pos(node)
        return EngineError(message, line, column)

    def unsupported(self, node: ast.AST) -> EngineError:
        name = _REFUSED.get(type(node), type(node).__name__)
        return self.error(node, f"not supported in this language: {name}")

    def block(self, body: list[ast.stmt], scope: scopes.Scope) -> Stmt:
        """A function's body: compiled by the statement compiler."""
        raise NotImplementedError

    def generator_function(self, body: list[ast.stmt], scope: scopes.Scope, name: str) -> Stmt:
        """A generator function's body: compiled by the statement compiler."""
        raise NotImplementedError

    # Binding

    def store(
        self, target: ast.expr, scope: scopes.Scope, label: bool = False
    ) -> Callable[[Frame, Any], None]:
        """A function that binds a value to the target: a name, attribute, item or tuple."""
        if isinstance(target, ast.Name):
            return self.store_name(target.id, scope, label)
        if isinstance(target, ast.Attribute) and target.attr in CHAIN_NAMES:
            return self.store_chain(target, scope)
        if isinstance(target, ast.Attribute):
            self.check_attribute(target, scope)
            obj = self.expr(target.value, scope)
            name = target.attr
            set_attr = self.m.set_attr
            local = self.local_name(target.value, scope)

            def store_attribute(f: Frame, value: Any) -> None:
                variables = f.vars
                target = variables[local] if local in variables else obj(f)  # see `attribute`
                if (
                    type(target) is PInstance
                    and target.mirror is None
                    and not target.cls.has_properties
                ):
                    target.attrs[name] = value  # what `set_attr` does here, sooner
                    return
                set_attr(target, name, value)

            shape = ("store_attr", local, obj, name, set_attr)
            self.shapes[id(store_attribute)] = (shape, store_attribute)
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
                for item in m.unpack_items(value):
                    state.charge(1)
                    items.append(item)
                    if len(items) > count and star is None:
                        break
            if star is None:
                if len(items) != count:
                    raise ProgramError(
                        f"not enough values to unpack (expected {count}, got {len(items)})"
                        if len(items) < count
                        else f"too many values to unpack (expected {count})",
                        kind="ValueError",
                    )
                for store, item in zip(stores, items, strict=True):
                    store(f, item)
                return
            after = count - star - 1
            if len(items) < count - 1:
                raise ProgramError(
                    f"not enough values to unpack (expected at least {count - 1},"
                    f" got {len(items)})",
                    kind="ValueError",
                )
            for i in range(star):
                stores[i](f, items[i])
            stores[star](f, list(items[star : len(items) - after]))
            for i in range(after):
                stores[star + 1 + i](f, items[len(items) - after + i])

        if star is None and count == 2:
            first, second = stores

            def run_pair(f: Frame, value: Any) -> None:
                # `for a, b in zip(...)`: a pair, the usual case, stored without a loop.
                if type(value) is tuple and len(value) == 2:
                    first(f, value[0])
                    second(f, value[1])
                else:
                    run(f, value)

            return run_pair
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
                    kind = type(value)
                    if kind is Value:
                        if not value.label:
                            value.label = name
                    elif kind is PInstance and value.mirror is not None:
                        # A node of the program's own class is called by the variable
                        # that holds it, where its class gives it no label (`b = a * a`).
                        mirror = value.mirror
                        if not mirror.label:
                            mirror.label = name
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

                self.shapes[id(store_local_label)] = (("store_label", name), store_local_label)
                return store_local_label

            def store_local(f: Frame, value: Any) -> None:
                f.vars[name] = value

            self.shapes[id(store_local)] = (("store_local", name), store_local)
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

    # Functions

    def function(
        self,
        node: ast.FunctionDef | ast.Lambda,
        name: str,
        scope: scopes.Scope,
        body: list[ast.stmt] | ast.expr,
    ) -> Callable[[Frame], Function]:
        args = node.args
        memo = self.memo
        inner = scopes.function_scope(node, scope, memo.names)
        qualname = inner.qualname
        posonly = tuple(a.arg for a in args.posonlyargs)
        params = (*posonly, *(a.arg for a in args.args))
        kwonly = tuple(a.arg for a in args.kwonlyargs)
        vararg = args.vararg.arg if args.vararg else None
        kwarg = args.kwarg.arg if args.kwarg else None
        defaults = [self.expr(d, scope) for d in args.defaults]
        kwdefaults = [
            (a.arg, self.expr(d, scope))
            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
            if d is not None
        ]
        uses_super = memo.body_super.get(id(node))
        if uses_super is None:
            uses_super = memo.body_super[id(node)] = _uses_super(body, memo.super_users)
        generates = memo.generators.get(id(node))
        if generates is None:
            generates = memo.generators[id(node)] = isinstance(body, list) and is_generator(body)
        if generates:
            assert isinstance(body, list)
            compiled = self.generator_function(body, inner, name)
        elif isinstance(body, list):
            compiled = self.block(body, inner)
        else:
            value = self.expr(body, inner)

            def compiled(f: Frame) -> Any:
                f.ret = value(f)
                return RETURN

        in_class = scope.kind == "class"
        # A method making a node names its op (`__mul__`: `*`), and so does a function of
        # the module named for one (rad.py's `def exp(x)`, `log`, `div`; not `_helper`)
        named_for_op = in_class or (scope.kind == "module" and not name.startswith("_"))
        makes = OP_OF_METHOD.get(name) if named_for_op else None
        # A library's own functions (micrograd's engine.py, run in the Value's place) have
        # no lines in the learner's source: no rule of theirs points at any.
        span = (0, 0) if self.library else (node.lineno, node.end_lineno or node.lineno)
        tape_rule, rule_method = self.gradient_roles(name, scope, body, params, span)
        looks = self.annotation_lookups(function_annotations(node), scope)
        if isinstance(node, ast.FunctionDef) and not self.library:
            hints = function_hints(self, node)
            if hints:  # evaluated only by `typing.get_type_hints` and `f.__annotations__`
                self.m.hints[span] = hints
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                self.m.function_docs[span] = doc

        hot = self.hot.get(id(compiled))
        simple = vararg is None and kwarg is None and not kwonly  # as `Function` has it
        call_function = self.m.call_function
        if hot is not None and simple:
            tape = self.m.call_function if tape_rule else None  # (`codegen._enter`)
            hot.signature = (name, params, len(defaults), makes, uses_super, self.m.bind, tape)

        wide = len(defaults) + len(kwdefaults)
        charge = self.m.state.charge

        def make(f: Frame) -> Function:
            if wide > WIDE:  # `def f(a0=0, ..., a2999=0)` in a loop: each default made
                charge(wide // ITEMS_PER_STEP)
            fn = Function()  # (every slot set here, but `alias`)
            fn.name = name
            fn.qualname = qualname
            fn.params = params
            fn.posonly = posonly
            fn.defaults = tuple([d(f) for d in defaults]) if defaults else ()
            fn.vararg = vararg
            fn.kwonly = kwonly
            fn.kwdefaults = {k: d(f) for k, d in kwdefaults} if kwdefaults else {}
            if looks:  # (after the defaults, as CPython evaluates them; a step a name)
                charge(len(looks))
                for look in looks:
                    look(f)
            fn.kwarg = kwarg
            fn.simple = simple
            if hot is None:
                fn.body = compiled
                fn.enter = call_function
            else:
                fn.body = body = hot.body  # the generated function, once there is one
                enter = hot.enter  # and the one that binds and runs it (`codegen._enter`)
                fn.enter = call_function if enter is None else enter
                if in_class and body is compiled:
                    hot.wait(fn)
            fn.closure = f.parent if in_class else f
            fn.owner = None
            fn.uses_super = uses_super
            fn.makes = makes
            fn.tape_rule = tape_rule
            fn.rule_method = rule_method
            fn.abstract = False
            fn.span = span
            return fn

        return make

    def gradient_roles(
        self,
        name: str,
        scope: scopes.Scope,
        body: list[ast.stmt] | ast.expr,
        params: tuple[str, ...],
        span: tuple[int, int],
    ) -> tuple[bool, bool]:
        """Whether a function is a tape's rule (`Function.tape_rule`: a function's own
        function writing a gradient) and a rule method (`Function.rule_method`); a method
        named for a pass that does no pass's work has its span kept in `no_passes`."""
        in_class = scope.kind == "class"
        grad_names = self.m.grad_names
        tape_rule = (
            scope.kind == "function" and isinstance(body, list) and writes_grad(body, grad_names)
        )
        # A method of a node's class, not its pass, that writes its operands' gradients (a
        # node class per op, `Add.d()`: `a.adjoint += self.adjoint`), where the class keeps
        # no rule of a name it is known by (`objects.own_rule`)
        rule_method = (
            in_class
            and not self.library
            and isinstance(body, list)
            and bool(params)
            and not is_dunder(name)
            and not is_pass_method(name)
            and writes_others_grad(body, params[0], grad_names)
            and not calls_method(body, name)
        )
        # (`grad` too, the pass where the class keeps its gradient otherwise: `is_grad_pass`;
        # a getter, `def grad(self): return self.gradient`, does no pass's work)
        worded = in_class and (
            (is_pass_method(name) and name not in PASS_FUNCTIONS) or name == "grad"
        )
        if (
            worded
            and not self.library
            and isinstance(body, list)
            and not does_pass_work(body, grad_names)
        ):
            self.m.no_passes.add(span)  # `register_backward_hook`: no pass's work
        return tape_rule, rule_method

    def annotation_lookups(
        self, annotations: Iterable[ast.expr], scope: scopes.Scope
    ) -> list[Expr]:
        """The names annotations read, each looked up in `scope` as CPython evaluates an
        annotation where it is written (a `def`'s, when it is made; a module's or class
        body's `x: T = v`), unless `from __future__ import annotations` leaves them
        strings: `def __add__(self, other) -> Value:` in `class Value`'s own body is
        CPython's NameError, as here. Only the lookups (in the order CPython evaluates
        them): nothing an annotation computes (`list[int]`, `X | None`) is made, and a
        name CPython's built-ins have is taken as found. Empty where none is read."""
        if self.lazy_annotations:
            return []
        module = scope
        while module.parent is not None:
            module = module.parent
        looks = []
        for annotation in annotations:
            for name in annotation_names(annotation):
                if type(name) is ast.Attribute:
                    looks.extend(self.annotation_attribute(name, scope))
                    continue
                assert type(name) is ast.Name
                if name.id in HOST_BUILTIN_NAMES:
                    continue
                look = self.name(name, scope)
                if name.id in self.builtins and name.id in module.locals:
                    # A built-in of ours CPython has not (`Value`) that the program binds
                    # itself: found before the program binds it, it is CPython's NameError
                    # (`-> Value` in `class Value`'s own body).
                    look = self.not_ours(look, self.builtins[name.id], name)
                looks.append(look)
        return looks

    def annotation_attribute(self, node: ast.Attribute, scope: scopes.Scope) -> list[Expr]:
        """`math.nope` in an annotation, evaluated as CPython evaluates it: its name,
        then each attribute (CPython's AttributeError for one it lacks, but one CPython's
        module has that the module here lacks, `annotation_names`), a step each; none for
        a name CPython's built-ins have (`str.join`: `annotation_lookups`)."""
        chain = _attribute_chain(node)
        assert chain is not None
        root, attrs = chain
        if root.id in HOST_BUILTIN_NAMES:
            return []
        look = self.name(root, scope)
        get_attr = self.m.get_attr
        charge = self.m.state.charge

        def looked(f: Frame) -> Any:
            obj = look(f)
            charge(len(attrs))
            for attr in attrs:
                try:
                    obj = get_attr(obj, attr)
                except ProgramError as error:
                    if (
                        error.kind == "AttributeError"
                        and type(obj) is PModule
                        and host_module_has(obj.name, attr)
                    ):
                        return None
                    raise
            return obj

        return [looked]

    def not_ours(self, look: Expr, ours: Any, node: ast.Name) -> Expr:
        """`look`, but a NameError where it finds `ours`, a built-in of the interpreter's
        own, while the program's globals have no such name yet (`annotation_lookups`): an
        import of micrograd's `Value` binds it, and is found."""
        line, column = self.pos(node)
        name = node.id
        words = f"name '{name}' is not defined"
        globals_ = self.globals

        def looked(f: Frame) -> Any:
            found = look(f)
            if found is ours and name not in globals_:  # (not bound yet: ours, not theirs)
                raise ProgramError(words, line, column, kind="NameError")
            return found

        return looked

    # Expressions

    def expr(self, node: ast.expr, scope: scopes.Scope) -> Expr:
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.m.state.limits.exceeded("max_depth", too_deep(node), *self.pos(node))
        if tick() and not self.library:
            raise took_too_long(*self.pos(node))
        try:
            made = self.expr_node(node, scope)
        finally:
            self.depth -= 1
        steps = width_steps(node)
        return made if not steps else self.charged(made, steps)

    def charged(self, made: Expr, steps: int) -> Expr:
        """`made`, charged `steps` before it runs (`width_steps`)."""
        charge = self.m.state.charge

        def run(f: Frame) -> Any:
            charge(steps)
            return made(f)

        return run

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
        if kind is ast.NamedExpr:
            return self.walrus(node, scope)  # type: ignore[arg-type]
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
        if kind is str or kind is bytes:
            if len(value) > MAX_STR:
                raise self.error(node, f"this string is longer than {MAX_STR:,} characters")
        elif kind is int:
            if not -MAX_INT <= value <= MAX_INT:
                raise self.error(node, "this integer has more than 4,096 bits; write it as a float")
        elif kind not in (float, bool, complex) and value is not None and value is not Ellipsis:
            raise self.error(node, f"{type(value).__name__} literals are not supported")
        run = lambda f: value  # noqa: E731
        self.shapes[id(run)] = (("const", value), run)
        return run

    def name(self, node: ast.Name, scope: scopes.Scope) -> Expr:
        name = node.id
        if name == "super":
            return self.super_name(node, scope)
        how, hops = scope.resolve(name)
        globals_ = self.globals
        builtins = self.builtins
        line, column = self.pos(node)

        def missing() -> ProgramError:
            why = UNAVAILABLE_BUILTINS.get(name)
            if why is not None:  # CPython's, not here: said so, not a NameError to catch
                return ProgramError(f"`{name}` is not available here: {why}", line, column)
            return ProgramError(f"name '{name}' is not defined", line, column, kind="NameError")

        def unbound_free() -> ProgramError:  # an enclosing function's name, not bound yet
            message = (
                f"cannot access free variable '{name}' where it is not associated with a value"
                " in enclosing scope"
            )
            return ProgramError(message, line, column, kind="NameError")

        lookup = globals_.get

        def load_global(f: Frame) -> Any:
            # Not `try: globals_[name]`: a built-in's name (`isinstance`, `set`) would
            # raise and catch a KeyError at every use.
            value = lookup(name, _UNBOUND)
            if value is not _UNBOUND:
                return value
            if name in builtins:
                return builtins[name]
            raise missing() from None

        if how == "global":
            shape = ("global", name, lookup, _UNBOUND, builtins)
            self.shapes[id(load_global)] = (shape, load_global)
            return load_global
        if how == "local":

            def load_local(f: Frame) -> Any:
                try:
                    return f.vars[name]
                except KeyError:
                    raise ProgramError(
                        f"cannot access local variable '{name}' where it is not associated with"
                        " a value",
                        line,
                        column,
                        kind="UnboundLocalError",
                    ) from None

            local_shape = ("local", name, scope.always_bound(name))
            self.shapes[id(load_local)] = (local_shape, load_local)
            return load_local
        if how == "class":
            # A name the class body binds: its own, else the module's, else a built-in
            # (CPython's LOAD_NAME; `f = staticmethod(f)` reads the module's `f`).

            def load_class(f: Frame) -> Any:
                if name in f.vars:
                    return f.vars[name]
                return load_global(f)

            return load_class

        if hops == 1:

            def load_enclosing(f: Frame) -> Any:
                try:
                    return f.parent.vars[name]  # type: ignore[union-attr]
                except KeyError:
                    raise unbound_free() from None

            free_shape = ("enclosing", name, scope.always_bound(name))
            self.shapes[id(load_enclosing)] = (free_shape, load_enclosing)
            return load_enclosing

        def load_free(f: Frame) -> Any:
            frame = f
            for _ in range(hops):
                assert frame.parent is not None
                frame = frame.parent
            try:
                return frame.vars[name]
            except KeyError:
                raise unbound_free() from None

        return load_free

    def super_name(self, node: ast.Name, scope: scopes.Scope) -> Expr:
        nested = scope.in_class and scope.parent is not None and scope.parent.kind != "class"
        if nested and scope.kind in ("function", "comprehension"):
            return _nested_super(scope)
        if not scope.in_class or scope.kind != "function":
            # CPython's RuntimeError when it is called (no class to start from; a function
            # with arguments has a first one, and then no `__class__` cell)
            with_arguments = scope.kind == "function" and scope.argcount > 0
            words = f"super(): {'__class__ cell not found' if with_arguments else 'no arguments'}"

            def outside(f: Frame) -> Builtin:
                def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
                    if args or kwargs:  # `super(Value, self)` works anywhere
                        return _SuperMaker(f).make(args)
                    raise ProgramError(words, kind="RuntimeError")

                return Builtin("super", call)

            return outside

        def make(f: Frame) -> Any:
            return _SuperMaker(f)

        return make

    def binary(self, node: ast.BinOp, scope: scopes.Scope) -> Expr:
        op = BINARY_OPERATORS[type(node.op)]
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        binary = self.m.binary
        values = self.m.values
        dunder_binary = self.m.dunder_binary
        reflected = self.m.reflected
        forward = FORWARD_DUNDERS.get(op)
        line, column = self.pos(node)

        number_op = _PLAIN_NUMBER_OPS.get(op)
        power = op == "**"

        def apply(a: Any, b: Any) -> Any:
            ta = type(a)
            tb = type(b)
            # Plain numbers: what `Machine.numbers` computes, where it needs no check (a
            # float, or an int that needs no measuring); anything else, an overflow
            # included, goes the long way and is measured, charged or refused there.
            if number_op is not None and (ta is float or ta is int) and (tb is float or tb is int):
                try:
                    result = number_op(a, b)
                except OverflowError:
                    pass
                else:
                    if type(result) is float or -SMALL_INT <= result <= SMALL_INT:
                        return result
            elif power and ta is float and tb is int:
                try:
                    return a**b  # a float to an int power is a float
                except (OverflowError, ZeroDivisionError):
                    pass
            try:
                if ta is PInstance:
                    if forward is not None:
                        # The left operand's own method (`__mul__`), called at once: what
                        # `dunder_binary` does first.
                        cls = a.cls
                        own = cls.namespace  # its MRO's first: `lookup`'s answer, sooner
                        method = own[forward] if forward in own else cls.lookup(forward)
                        if type(method) is Function:
                            result = method.enter(method, [a, b])
                            if result is not NotImplemented:
                                return result
                            return reflected(op, a, b)
                    return dunder_binary(op, a, b)  # what `binary` does with it, sooner
                if ta is Value and (tb is Value or tb is float):
                    return values(op, a, b)  # what `binary` does with these, one call sooner
                return binary(op, a, b)
            except ProgramError as error:
                raise error.located(line, column) from None

        def run(f: Frame) -> Any:
            return apply(left(f), right(f))

        # (`codegen._binary` writes a float's `+`, `-` or `*` with another in place)
        self.shapes[id(run)] = (("binary", left, right, apply, op), run)
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
        line, column = self.pos(node)
        if len(ops) == 1 and ops[0] in ("in", "not in"):
            return self.membership(ops[0] == "in", left, rights[0], (line, column))
        if len(ops) == 1:
            apply = self.comparison(ops[0], (line, column))
            right = rights[0]

            def run_one(f: Frame) -> Any:
                return apply(left(f), right(f))

            # (`codegen._binary` writes a float's `<` or `>` with another in place)
            self.shapes[id(run_one)] = (("binary", left, right, apply, ops[0]), run_one)
            return run_one
        applies = [self.comparison(op, (line, column)) for op in ops]
        pairs = list(zip(applies, rights, strict=True))
        truthy = self.m.truthy

        def run(f: Frame) -> Any:
            # `a < b < c` as CPython's: each result as its operator gave it, the first
            # false one (a program's object included) the answer, or else the last.
            a = left(f)
            result: Any = True
            for apply, right in pairs:
                b = right(f)
                result = apply(a, b)
                if result is False:
                    return result
                if result is not True:
                    try:
                        if not truthy(result):
                            return result
                    except ProgramError as error:
                        raise error.located(line, column) from None
                a = b
            return result

        return run

    def comparison(self, op: str, position: tuple[int, int]) -> Callable[[Any, Any], Any]:
        """`a < b` of two values: a bool, but what a program's `__lt__`... returned where
        either is one of its objects (`Machine.rich_compare`), as CPython's."""
        compare = self.m.compare
        line, column = position
        if op in ("is", "is not", "in", "not in"):

            def apply_plain(a: Any, b: Any) -> Any:
                try:
                    return compare(op, a, b)
                except ProgramError as error:
                    raise error.located(line, column) from None

            return apply_plain

        def apply(a: Any, b: Any) -> Any:
            if type(a) is float and type(b) is float:
                if op == "<":
                    return a < b
                if op == ">":
                    return a > b
            try:
                return compare(op, a, b, True)  # (a program's object's answer as it is)
            except ProgramError as error:
                raise error.located(line, column) from None

        return apply

    def membership(self, is_in: bool, left: Expr, right: Expr, position: tuple[int, int]) -> Expr:
        """`a in b` and `a not in b`: what `Machine.compare` does with them, one call sooner."""
        contains = self.m.contains
        line, column = position

        def apply(a: Any, b: Any) -> Any:
            if type(b) is PSet and type(a) is PInstance:
                cls = a.cls
                if cls.hash_rule is None and cls.eq_rule is None:
                    # An instance hashed by identity in a set: what `contains` finds, where
                    # no program code runs and nothing can fail.
                    found = a in b.items
                    return found if is_in else not found
            try:
                found = contains(b, a)
            except ProgramError as error:
                raise error.located(line, column) from None
            return found if is_in else not found

        def run(f: Frame) -> Any:
            return apply(left(f), right(f))

        # (`codegen._binary` writes the instance-in-a-set case in place)
        self.shapes[id(run)] = (("binary", left, right, apply, "in" if is_in else "not in"), run)
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

    def walrus(self, node: ast.NamedExpr, scope: scopes.Scope) -> Expr:
        """`(y := value)`: bind and give the value; in a comprehension, y belongs to the
        enclosing scope, as in CPython."""
        if not isinstance(node.target, ast.Name):
            raise self.error(node, "the walrus operator binds a name")
        value = self.expr(node.value, scope)
        # A comprehension does not bind it: `resolve` finds the enclosing scope's name.
        store = self.store_name(node.target.id, scope, False)

        def run(f: Frame) -> Any:
            result = value(f)
            store(f, result)
            return result

        return run

    def if_expression(self, node: ast.IfExp, scope: scopes.Scope) -> Expr:
        test = self.expr(node.test, scope)
        body = self.expr(node.body, scope)
        orelse = self.expr(node.orelse, scope)
        truthy = self.m.truthy

        def run(f: Frame) -> Any:
            condition = test(f)
            if condition is True or (condition is not False and truthy(condition)):
                return body(f)
            return orelse(f)

        self.shapes[id(run)] = (("ifexp", test, body, orelse, truthy), run)
        return run

    def chain_attribute(self, obj: Expr, node: ast.Attribute) -> Expr:
        """`e.__cause__`, `e.__context__`, `e.__suppress_context__`, `e.__traceback__`
        of an exception, in a class body or not (`exceptions.chain_attribute`)."""
        machine = self.m
        name = node.attr
        line, column = self.pos(node)

        def run(f: Frame) -> Any:
            try:
                return chain_attribute(machine, obj(f), name)
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def store_chain(
        self, target: ast.Attribute, scope: scopes.Scope
    ) -> Callable[[Frame, Any], None]:
        """`self.__cause__ = cause` in a class body: an exception's chain, as CPython's
        setters write it (`exceptions.write_chain`); outside one, refused as any dunder."""
        self.check_attribute(target, scope)
        obj = self.expr(target.value, scope)
        machine = self.m
        name = target.attr
        line, column = self.pos(target)

        def store(f: Frame, value: Any) -> None:
            try:
                write_chain(machine, obj(f), name, value)
            except ProgramError as error:
                raise error.located(line, column) from None

        return store

    def check_attribute(self, node: ast.Attribute, scope: scopes.Scope) -> None:
        if node.attr == "__dict__" and not isinstance(node.ctx, ast.Load):
            raise self.error(
                node, "`.__dict__` may be read here, and its items changed, not replaced"
            )
        if (
            is_dunder(node.attr)
            and node.attr != "__dict__"
            and node.attr not in READABLE_DUNDERS
            and node.attr not in METHOD_DUNDERS
            and not scope.in_class
        ):
            raise self.error(
                node, f"`.{node.attr}` is not available: dunder attributes belong to class bodies"
            )

    def attribute(self, node: ast.Attribute, scope: scopes.Scope) -> Expr:
        obj = self.expr(node.value, scope)
        name = node.attr
        if name == "__class__" and scope.in_class:  # `self.__class__.__name__`: `type(self)`
            type_of = self.builtins["type"].call
            return lambda f: type_of([obj(f)], {})
        if name == "__dict__":  # `self.__dict__`: `vars(self)`; `type(x).__dict__`
            return self.instance_dict(obj, node)
        if name in CHAIN_NAMES:  # `e.__cause__`: an exception's chain, as CPython keeps it
            return self.chain_attribute(obj, node)
        self.check_attribute(node, scope)
        get_attr = self.m.get_attr
        line, column = self.pos(node)
        local = self.local_name(node.value, scope)
        if local is not None:

            def run_local(f: Frame) -> Any:
                # `self.data`: the local variable read here, not by a closure of its own
                # (one that is not set yet is read by `obj`, which says so).
                variables = f.vars
                value = variables[local] if local in variables else obj(f)
                if type(value) is PInstance:
                    attrs = value.reads
                    if name in attrs:
                        return attrs[name]
                try:
                    return get_attr(value, name)
                except ProgramError as error:
                    raise error.located(line, column) from None

            bound = scope.always_bound(local)  # (a parameter nothing unbinds: `codegen`)
            self.shapes[id(run_local)] = (("attr_local", local, name, bound), run_local)
            return run_local

        def slow(value: Any) -> Any:
            try:
                return get_attr(value, name)
            except ProgramError as error:
                raise error.located(line, column) from None

        def run(f: Frame) -> Any:
            value = obj(f)
            if type(value) is PInstance:
                attrs = value.reads
                if name in attrs:
                    return attrs[name]
            return slow(value)

        self.shapes[id(run)] = (("attr", obj, name, slow), run)
        return run

    def instance_dict(self, obj: Expr, node: ast.Attribute) -> Expr:
        """`self.__dict__`: an instance of the program's gives its live attributes, as
        `vars(self)` does (a minitorch `Module`'s `self.__dict__["_parameters"]`); a class
        of the program's a read-only view of its own (`objects.class_dict`); anything
        else has none here."""
        class_view = self.m.class_view
        line, column = self.pos(node)

        def run(f: Frame) -> Any:
            value = obj(f)
            if type(value) is PInstance and not is_bare_object(value):
                if value.cls.slots is not None:  # `__slots__`: CPython's has no `__dict__`
                    words = f"'{value.cls.name}' object has no attribute '__dict__'"
                    raise ProgramError(words, line, column, kind="AttributeError")
                refused = tuple_dict_refusal(value.cls)
                if refused is not None:
                    raise ProgramError(refused, line, column)
                return value.attrs
            if type(value) is PClass and not value.builtin:
                return class_view(value)
            raise no_dict(value).located(line, column)

        return run

    def local_name(self, node: ast.expr, scope: scopes.Scope) -> str | None:
        """The name, if `node` is a name of a function's own local variable."""
        if not isinstance(node, ast.Name) or node.id == "super":
            return None
        how, _ = scope.resolve(node.id)
        return node.id if how == "local" else None

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

        index_of = self.m.index_of

        def indices(values: list[Any]) -> list[Any]:
            """An object's own `__index__` for each bound not an int (CPython's slice
            keeps the object, and asks it where the slice is used)."""
            plain = []
            for v in values:
                if v is not None and type(v) not in (int, bool):
                    if type(v) is not PInstance:
                        raise ProgramError("slice indices must be integers or None")
                    v = index_of(v)
                    if v is NO_METHOD:
                        words = "slice indices must be integers or None or have an __index__ method"
                        raise ProgramError(words, kind="TypeError")
                plain.append(v)
            return plain

        def run(f: Frame) -> slice:
            values = [p(f) if p is not None else None for p in parts]
            for v in values:
                if v is not None and type(v) not in (int, bool):
                    values = indices(values)
                    break
            if values[2] == 0:  # CPython's ValueError, caught as one
                raise ProgramError("slice step cannot be zero", kind="ValueError")
            return slice(*values)

        return run

    def call(self, node: ast.Call, scope: scopes.Scope) -> Expr:
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id == "dir"
            and not node.args
            and not node.keywords
            and scope.kind == "function"
        ):
            return self.dir_here(node, scope, self.any_call(node, scope))
        return self.any_call(node, scope)

    def dir_here(self, node: ast.Call, scope: scopes.Scope, other: Expr) -> Expr:
        """`dir()` in a function: the names bound in it now, sorted, as CPython's (its
        locals, and the free variables it reads itself, from the frame that holds them);
        `other`, the call as it is, where `dir` is not the built-in (`def dir()`)."""
        assert isinstance(node.func, ast.Name)
        func = self.name(node.func, scope)
        built_in = self.builtins.get("dir")
        where: list[tuple[str, int]] = []
        for name in sorted(scope.locals | scope.nonlocals | scope.loads):
            how, hops = scope.resolve(name)
            if how == "local" or how == "free":
                where.append((name, hops if how == "free" else 0))
        state = self.m.state

        def run(f: Frame) -> Any:
            if func(f) is not built_in:
                return other(f)
            state.charge(1 + len(where) // ITEMS_PER_STEP)
            names = []
            for name, hops in where:
                frame = f
                for _ in range(hops):
                    assert frame.parent is not None
                    frame = frame.parent
                if name in frame.vars:
                    names.append(name)
            return names

        return run

    def any_call(self, node: ast.Call, scope: scopes.Scope) -> Expr:
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
        as_dict = self.mapping_as_dict

        def arguments(
            f: Frame, callee: Callable[[], Any]
        ) -> tuple[list[Any], dict[str, Any] | None]:
            """The call's arguments; `callee` gives what is called, for CPython's words of
            a `*` or `**` it cannot unpack and of a keyword given twice."""
            if simple_args:
                return [a(f) for a in args], None
            values: list[Any] = []
            for a, star in zip(args, starred, strict=True):
                if star:
                    _unpack_into(m, a(f), values, lambda: function_words(m, callee()))
                else:
                    values.append(a(f))
            kwargs: dict[str, Any] = {}
            for name, k in keywords:
                if name is None:
                    _keywords_into(m, as_dict(k(f)), kwargs, callee)
                else:
                    if name in kwargs:  # (after a `**`: two literal ones are a SyntaxError)
                        raise _given_twice(m, callee(), name)
                    kwargs[name] = k(f)
            return values, kwargs

        func = node.func
        if isinstance(func, ast.Attribute) and not (func.attr == "__class__" and scope.in_class):
            self.check_attribute(func, scope)
            obj_expr = self.expr(func.value, scope)
            if simple_args:
                local = self.local_name(func.value, scope)
                return self.method_call(func.attr, obj_expr, local, args, (line, column))
            method = func.attr
            get_attr = m.get_attr
            named_rule = method in RULE_NAMES
            watch_rule = may_be_rule(method)
            # `loss.backward()` is a pass, and so is `loss.backprop()` on a graph node
            # (PASS_FUNCTIONS); only `backward` on anything else is a refusal's clue.
            watch_pass = is_pass_method(method) or method == "grad"
            watch_unshaped = method == "backward"
            no_passes = m.no_passes

            def run_method(f: Frame) -> Any:
                obj = obj_expr(f)
                values, kwargs = arguments(f, lambda: get_attr(obj, method))
                position = state.position
                try:
                    # (A rule, `_backward` as a method of the class too, is watched below.)
                    if type(obj) is PInstance and method not in obj.attrs:
                        fn = _class_method(obj, method, named_rule)
                        if fn is not None:
                            if (
                                (watch_pass or named_rule)
                                and obj.mirror is not None
                                and fn.span not in no_passes
                                and (method != "grad" or is_grad_pass(obj.cls))
                            ):
                                return rec.user_pass(
                                    obj, lambda: call_function(fn, [obj, *values], kwargs), fn
                                )
                            if watch_unshaped:
                                return _unshaped_backward(
                                    rec, obj, fn, lambda: call_function(fn, [obj, *values], kwargs)
                                )
                            return call_function(fn, [obj, *values], kwargs)
                    target = get_attr(obj, method)
                    if (watch_rule or watch_pass) and type(obj) is PInstance:  # a rule, a pass
                        return _own_call(rec, obj, method, target, watch_rule, call, values, kwargs)
                    return call(target, values, kwargs)
                except ProgramError as error:
                    raise error.located(line, column) from None
                finally:
                    state.position = position

            return run_method

        func_expr = self.expr(func, scope)
        named_pass, seeding_spans = free_pass_of(m, func)  # `backprop(loss)`: a pass
        watch_free_pass = named_pass or bool(seeding_spans)
        if simple_args and not watch_free_pass:
            return self.plain_call(func_expr, args, (line, column))
        # `backward(out)` on an object that is no graph node (a Wengert list's `Var`, whose
        # operands only a tape keeps): the refusal's clue, as `out.backward()` is.
        watch_unshaped = isinstance(func, ast.Name) and func.id == "backward"

        def run(f: Frame) -> Any:
            target = func_expr(f)
            values, kwargs = arguments(f, lambda: target)
            try:
                if type(target) is _SuperMaker:
                    return target.make(values)
                if (
                    watch_free_pass
                    and type(target) is Function
                    and values
                    and type(values[0]) is PInstance
                    and (named_pass or target.span in seeding_spans)
                ):
                    return _free_pass(
                        rec, call, target, values, kwargs, watch_unshaped, (line, column), func
                    )
                return call(target, values, kwargs)
            except ProgramError as error:
                raise error.located(line, column) from None

        return run

    def plain_call(self, func_expr: Expr, args: list[Expr], position: tuple[int, int]) -> Expr:
        """`f(a, b)` with positional arguments only: a program's function is called at
        once, without the general dispatch."""
        m = self.m
        call = m.call
        line, column = position
        values_of = argument_list(args)
        instantiate = m.instantiate

        state = m.state

        def dispatch(target: Any, values: list[Any]) -> Any:
            try:
                kind = type(target)
                if kind is Function:
                    return target.enter(target, values)
                if kind is Builtin or kind is TypeObject:
                    state.steps += 1  # `state.charge(1)`, as `Machine.call` charges a built-in
                    if state.steps > state.next_check:
                        state.checkpoint()
                    return target.call(values, {})
                if kind is PClass:
                    return instantiate(target, values, None)  # what `call` does, sooner
                if type(target) is _SuperMaker:
                    return target.make(values)
                return call(target, values, None)
            except ProgramError as error:
                raise error.located(line, column) from None

        def run(f: Frame) -> Any:
            return dispatch(func_expr(f), values_of(f))

        self.shapes[id(run)] = (("call", func_expr, args, dispatch), run)
        return run

    def method_call(
        self,
        method: str,
        obj_expr: Expr,
        local: str | None,
        args: list[Expr],
        position: tuple[int, int],
    ) -> Expr:
        """`obj.method(a, b)` with positional arguments only; a method of the program's
        own class gets `obj` first in its argument list at once."""
        m = self.m
        rec = self.rec
        state = m.state
        call = m.call
        get_attr = m.get_attr
        line, column = position
        with_self = argument_list(args, first=True)
        watch_rule = may_be_rule(method)
        watch_pass = is_pass_method(method) or method == "grad"  # as in `call` above
        watch_unshaped = method == "backward"
        direct = m.direct
        no_passes = m.no_passes

        def dispatch(values: list[Any]) -> Any:
            obj = values[0]
            if type(obj) is PInstance and method not in obj.attrs:
                # A method of the program's class: its call (`enter`, `call_function`)
                # puts `state.position` back itself, as `finally` below does for the rest.
                try:
                    cls = obj.cls
                    own = cls.namespace  # its MRO's first: `lookup`'s answer, sooner
                    fn = own[method] if method in own else cls.lookup(method)
                    if type(fn) is Function:
                        if watch_pass and fn.span not in no_passes:
                            if obj.mirror is not None and (method != "grad" or is_grad_pass(cls)):
                                return rec.user_pass(obj, lambda: fn.enter(fn, values), fn)
                            if watch_unshaped:
                                return _unshaped_backward(
                                    rec, obj, fn, lambda: fn.enter(fn, values)
                                )
                        elif (watch_rule or fn.rule_method) and is_rule(obj, method):
                            # a method `_backward`, or one of its own (`Add.d()`)
                            return rec.user_rule(obj, lambda: fn.enter(fn, values))
                        return fn.enter(fn, values)
                except ProgramError as error:
                    raise error.located(line, column) from None
            position = state.position
            try:
                del values[0]
                kind = type(obj)
                if kind is PInstance:
                    attrs = obj.reads
                    # `node._backward()`: the object's own attribute, what `get_attr` reads.
                    target = attrs[method] if method in attrs else get_attr(obj, method)
                    if watch_pass and rec.holder_pass and _kept_pass(obj, method, target):
                        return rec.user_pass(obj, lambda: target.enter(target, values), target)
                else:
                    table = direct.get(kind)
                    if table is not None and method in table:
                        # A list's, dict's, set's or string's method: what `get_attr` binds
                        # and `call` runs, charged as `call` charges a built-in.
                        state.steps += 1  # `state.charge(1)`, inline
                        if state.steps > state.next_check:
                            state.checkpoint()
                        return table[method](obj, values, {})
                    target = get_attr(obj, method)
                if watch_rule and type(obj) is PInstance and is_rule(obj, method):
                    if type(target) is Function:  # a closure kept on the node: called at once
                        return rec.user_rule(obj, lambda: target.enter(target, values))
                    return rec.user_rule(obj, lambda: call(target, values, None))
                if type(target) is Function:
                    return target.enter(target, values)
                return call(target, values, None)
            except ProgramError as error:
                raise error.located(line, column) from None
            finally:
                state.position = position

        def run_method(f: Frame) -> Any:
            variables = f.vars
            obj = variables[local] if local in variables else obj_expr(f)  # see `attribute`
            return dispatch(with_self(f, obj))  # [obj, *arguments]

        # (`method` and the machine: `codegen` writes `list.append` and `set.add` in place)
        shape = ("method", obj_expr, local, args, dispatch, method, m)
        self.shapes[id(run_method)] = (shape, run_method)
        return run_method

    def display(self, node: ast.expr, scope: scopes.Scope) -> Expr:
        assert isinstance(node, ast.List | ast.Tuple | ast.Set)
        items = [self.expr(e.value if isinstance(e, ast.Starred) else e, scope) for e in node.elts]
        starred = [isinstance(e, ast.Starred) for e in node.elts]
        kind = type(node)
        m = self.m
        state = m.state
        named = None if kind is ast.Set else lambda: "Value"

        def values(f: Frame) -> list[Any]:
            if not any(starred):
                return [item(f) for item in items]
            out: list[Any] = []
            for item, star in zip(items, starred, strict=True):
                if star:
                    _unpack_into(m, item(f), out, named)
                    state.check_items(len(out))
                else:
                    out.append(item(f))
            return out

        if kind is ast.List:
            if not any(starred):
                self.shapes[id(values)] = (("list", items), values)
            return values
        if kind is ast.Tuple:

            def tuple_of(content: list[Any]) -> tuple[Any, ...]:
                state.check_nesting(content)
                return tuple(content)

            def make_tuple(f: Frame) -> tuple[Any, ...]:
                content = values(f)
                state.check_nesting(content)
                return tuple(content)

            if not any(starred):
                self.shapes[id(make_tuple)] = (("tuple", items, tuple_of), make_tuple)
            return make_tuple

        # CPython 3.11 compiles a display of three or more constants (`{3, 1, 2}`) to a
        # frozenset constant, which its compiler builds twice, then copied into the set:
        # the same steps give the same table, so the same order.
        folded = len(node.elts) > 2 and all(map(_folded_constant, node.elts))

        def make_set(f: Frame) -> PSet:
            content = values(f)
            for item in content:
                m.key(item)
            try:
                result = PSet(content)
            except TypeError:
                raise ProgramError("this item cannot be put in a set (it holds a list)") from None
            if folded and result.mirror is not None:
                result.mirror = set(frozenset(tuple(frozenset(content))))
            return result

        return make_set

    def mapping_as_dict(self, mapping: Any) -> Any:
        """What `**mapping` unpacks: a mapping of the program's (an object whose class
        has `keys`, a `ChainMap`) read as `dict(mapping)` reads it; anything else as it is."""
        if type(mapping) is PInstance and mapping.cls.lookup("keys") is not MISSING:
            return self.m.call(self.builtins["dict"], [mapping], {})
        return mapping

    def dict_display(self, node: ast.Dict, scope: scopes.Scope) -> Expr:
        pairs = [
            (self.expr(k, scope) if k is not None else None, self.expr(v, scope))
            for k, v in zip(node.keys, node.values, strict=True)
        ]
        set_item = self.m.set_item
        charge = self.m.state.charge
        as_dict = self.mapping_as_dict

        def run(f: Frame) -> dict[Any, Any]:
            out: dict[Any, Any] = {}
            for key, value in pairs:
                if key is None:
                    mapping = as_dict(value(f))
                    if type(mapping) is MappingProxyType:  # `{**C.__dict__}`
                        mapping = mapping.copy()
                    if type(mapping) is not dict:
                        if type(mapping) is not PClass:  # (one with `keys`: refused)
                            words = f"'{cpython_type(mapping)}' object is not a mapping"
                            raise ProgramError(words, kind="TypeError")
                        raise ProgramError("** in a dict needs a dict")
                    charge(len(mapping))  # a step per item copied, as `d.copy()`
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

        if kind is ast.GeneratorExp:
            return self.generator(loops, element, first_iter, in_class)

        # Made once, not per run: a `loop` made in `run` would refer to itself, and each
        # comprehension run would leave a reference cycle holding its frame (and the
        # objects the frame reaches) for the collector.
        def loop(
            frame: Frame, results: list[Any], mapping: dict[Any, Any], level: int, source: Any
        ) -> None:
            _, store, conditions = loops[level]
            for item in iterate(source):
                state.steps += 1
                if state.steps > state.next_check:
                    state.checkpoint()
                store(frame, item)
                if conditions and not all(truthy(c(frame)) for c in conditions):
                    continue
                if level + 1 < len(loops):
                    loop(frame, results, mapping, level + 1, loops[level + 1][0](frame))
                elif kind is ast.DictComp:
                    set_item(mapping, key_expr(frame), value_expr(frame))
                else:
                    results.append(element(frame))

        def run(f: Frame) -> Any:
            frame = Frame({}, f.parent if in_class else f)
            results: list[Any] = []
            mapping: dict[Any, Any] = {}
            first = first_iter(f)
            loop(frame, results, mapping, 0, first)
            if kind is ast.DictComp:
                return mapping
            state.check_items(len(results))
            if kind is ast.ListComp:
                return results
            for item in results:
                m.key(item)
            try:
                return PSet(results)
            except TypeError:
                raise ProgramError("this item cannot be put in a set (it holds a list)") from None

        return run

    def generator(
        self,
        loops: list[tuple[Expr, Any, list[Expr]]],
        element: Expr,
        first_iter: Expr,
        in_class: bool,
    ) -> Expr:
        """A generator expression, lazy as in CPython: each item is computed when the
        consumer asks for it, so `sum(w * x for ...)` interleaves its products and sums
        and `any(...)` stops at the first true item.

        Its first iterable is evaluated (and `iter` taken) at once, as CPython does. A
        source that is itself a generator (another generator expression, a `map` or
        `filter`) is read into a list first, as the lazy built-ins do (`Library.flat`), so
        generators never chain: a `zip` or `enumerate` is iterated as it is, since its
        own arguments were read that way already; a generator of the program's own is read
        as it goes (its prints come in CPython's order, `any(x > 1 for x in gen())` stops
        it where CPython's does), each resumption a call, so a chain through it stops at
        the call depth, and so is a lazy object reading one through at most
        `MAX_LAZY_CHAIN` others (`generators.reads_generator`), as `Library.flat` reads it.
        """
        m = self.m
        state = m.state
        truthy = m.truthy
        iterate = m.iterate

        def source(value: Any) -> Any:
            iterator = iterate(value)
            if (
                type(value) is not GeneratorType
                or is_program_generator(value)
                or reads_generator(value)
            ):
                return iterator  # (a program's generator read as it goes, as `flat` reads it)
            items: list[Any] = []
            for item in iterator:
                items.append(item)
                state.charge(1)
                if len(items) > MAX_ITEMS:
                    state.check_items(len(items))
            return iter(items)

        # Made once, not per run (as a comprehension's): no reference cycle per run.
        def loop(frame: Frame, level: int, items: Any) -> Any:
            _, store, conditions = loops[level]
            for item in items:
                state.steps += 1
                if state.steps > state.next_check:
                    state.checkpoint()
                store(frame, item)
                if conditions and not all(truthy(c(frame)) for c in conditions):
                    continue
                if level + 1 < len(loops):
                    yield from loop(frame, level + 1, source(loops[level + 1][0](frame)))
                else:
                    yield element(frame)

        def run(f: Frame) -> Any:
            frame = Frame({}, f.parent if in_class else f)
            value = first_iter(f)
            first = source(value)
            made = loop(frame, 0, first)
            if first is value and type(value) is GeneratorType:
                # It reads the program's generator as it goes: so do `zip(...)` of it and
                # a generator expression over it (`generators.reads_generator`).
                GENEXP_SOURCES[made] = (weakref.ref(first), 0)
            elif first is value and type(value) in _READ_AS_THEY_GO:
                # So it does through a `zip` or `enumerate` that reads one, an endless one
                # too, as CPython's (`zip((x for x in zip(gen())), 'ab')` ends)
                found = generator_read(value)
                if found is not None:
                    GENEXP_SOURCES[made] = (weakref.ref(found[0]), found[1])
            return made

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


_UNBOUND: Any = object()  # what `load_global` finds for a name the program has not bound

# CPython's built-in names that no program here may use, each with why (`Compiler.name`):
# a program reading one that it has not bound itself is refused saying so, never given a
# NameError (CPython has the name; an `except NameError` would run on as CPython does not).
_NO_CONSOLE = "a program here runs with no console, keyboard or debugger"
_NO_SYSTEM = (
    "it is what CPython raises for files, the console or the system, none of which a program"
    " here has"
)
UNAVAILABLE_BUILTINS: dict[str, str] = {
    "input": "a program here reads no keyboard; write the values it would read into it",
    "open": "a program here has no files; write the data it would read into it",
    "eval": "a program here runs only the code it shows",
    "exec": "a program here runs only the code it shows",
    "compile": "a program here runs only the code it shows",
    "globals": "name the objects themselves",
    "locals": "name the objects themselves",
    "breakpoint": _NO_CONSOLE,
    "help": _NO_CONSOLE,
    "copyright": _NO_CONSOLE,
    "credits": _NO_CONSOLE,
    "license": _NO_CONSOLE,
    "aiter": "async code is not run here",
    "anext": "async code is not run here",
    "bytearray": "bytes are (`bytes(...)`)",
    "memoryview": "bytes are (`bytes(...)`)",
    **{
        name: _NO_SYSTEM
        # (OSError's subclasses, `KeyboardInterrupt`, `EOFError` are classes of the
        # program's to raise and catch: `exceptions.HIERARCHY`)
        for name in ("MemoryError", "SystemError")
    },
}  # fmt: skip
# The lazy built-ins that are no Python generators but may read the program's as they go
_READ_AS_THEY_GO = (zip, enumerate)


def argument_list(args: list[Expr], first: bool = False) -> Callable[..., list[Any]]:
    """A call's positional arguments evaluated into a new list, without a comprehension's
    own frame for the usual one to three; `first=True`: `f(frame, obj)` puts `obj` first."""
    count = len(args)
    if first:
        if count == 0:
            return lambda f, obj: [obj]
        if count == 1:
            (a,) = args
            return lambda f, obj: [obj, a(f)]
        if count == 2:
            a, b = args
            return lambda f, obj: [obj, a(f), b(f)]
        return lambda f, obj: [obj, *[arg(f) for arg in args]]
    if count == 0:
        return lambda f: []
    if count == 1:
        (a,) = args
        return lambda f: [a(f)]
    if count == 2:
        a, b = args
        return lambda f: [a(f), b(f)]
    if count == 3:
        a, b, c = args
        return lambda f: [a(f), b(f), c(f)]
    return lambda f: [arg(f) for arg in args]


class _SuperMaker:
    """`super` as a name; calling it with no arguments gives the method's `super()`."""

    __slots__ = ("frame",)

    def __init__(self, frame: Frame) -> None:
        self.frame = frame

    def make(self, args: list[Any]) -> PSuper:
        if len(args) == 2:  # `super(Value, self)`, as older code writes it; `super(B, B)`
            owner, instance = args
            if type(owner) is not PClass:
                raise ProgramError("super(Class, self) takes a class of the program and an object")
            if type(instance) is PInstance and owner in instance.cls.mro:
                return PSuper(owner, instance)
            if type(instance) is PClass and owner in instance.mro:
                return PSuper(owner, instance)  # its methods unbound, its class methods bound
            raise ProgramError(
                "super(type, obj): obj must be an instance or subtype of type", kind="TypeError"
            )
        if args:
            raise ProgramError("super() takes no arguments, or a class and self, here")
        owner = self.frame.vars.get(" class")
        instance = next(iter(self.frame.vars.values()), None)
        if type(owner) is PClass and type(instance) is PClass and owner in instance.mro:
            return PSuper(owner, instance)  # in a class method: `cls`
        if type(owner) is not PClass or type(instance) is not PInstance:
            raise ProgramError("super() works only inside a method, with self as first argument")
        return PSuper(owner, instance)


def _nested_super(scope: scopes.Scope) -> Expr:
    """`super` in a function (or comprehension, or lambda) nested in a method, as
    CPython's: `super()` is `super(C, first)` of the class whose body encloses it (its
    `__class__` cell, read here from the method's frame) and the first argument of the
    function it is in; one with none is CPython's `RuntimeError: super(): no
    arguments`, a comprehension's (CPython 3.11 runs it as a function of the iterator)
    its TypeError; `super(C, obj)` is as anywhere."""
    first = scope.first_param if scope.kind == "function" else None
    comprehension = scope.kind == "comprehension"

    def make(f: Frame) -> Builtin:
        def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
            if args or kwargs:
                return _SuperMaker(f).make(args)
            if comprehension:
                words = "super(type, obj): obj must be an instance or subtype of type"
                raise ProgramError(words, kind="TypeError")
            if first is None:
                raise ProgramError("super(): no arguments", kind="RuntimeError")
            if first not in f.vars:
                raise ProgramError("super(): arg[0] deleted", kind="RuntimeError")
            frame: Frame | None = f
            while frame is not None and type(frame.vars.get(" class")) is not PClass:
                frame = frame.parent  # (a nested function's own is None)
            if frame is None:
                raise ProgramError("super(): __class__ cell not found", kind="RuntimeError")
            return _SuperMaker(f).make([frame.vars[" class"], f.vars[first]])

        return Builtin("super", call)

    return make


def _constant_text(text: str) -> Expr:
    return lambda f: text


def _field(texts: Texts, inner: Expr, spec: Expr | None, conversion: int) -> Expr:
    state = texts.state

    def run(f: Frame) -> str:
        state.charge(1)
        return texts.format(inner(f), spec(f) if spec is not None else "", conversion)

    return run


class TreeMemo:
    """What compiling a tree's functions and classes works out from their nodes alone,
    each by its node's id (the tree, which nothing changes, keeps the ids its nodes'):
    `names`, a body's names (`scopes.function_scope`, `class_scope`, and `module_scope`'s
    by the id of the module's body); `super_users`, whether a function
    names `super` anywhere, its decorators and defaults included (`_uses_super`);
    `body_super`, whether its body does; `generators`, whether its body yields."""

    __slots__ = ("body_super", "generators", "names", "super_users")

    def __init__(self) -> None:
        self.names: dict[int, Any] = {}
        self.super_users: dict[int, bool] = {}
        self.body_super: dict[int, bool] = {}
        self.generators: dict[int, bool] = {}


def _uses_super(body: Iterable[ast.AST] | ast.expr, known: dict[int, bool]) -> bool:
    """Whether `body` names `super` anywhere, in the functions it defines too. Each
    function in it is answered once, into `known` (by id), and read from there when the
    function enclosing it is asked again: functions nested 100 deep were walked again at
    each level (seconds of compiling for no step)."""
    stack: list[ast.AST] = [body] if isinstance(body, ast.AST) else list(body)
    while stack:
        node = stack.pop()
        visited(node)
        if isinstance(node, ast.Name) and node.id == "super":
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            answer = known.get(id(node))
            if answer is None:
                answer = known[id(node)] = _uses_super(child_nodes(node), known)
            if answer:
                return True
            continue
        stack.extend(child_nodes(node))
    return False


# A display or call wider than this (`codegen.MAX_ITEMS`, past which it is a closure) is
# charged a step per ten of its items; a set or dict display of four items or more, and a
# wide call's keywords, a step per two (each hashed and kept in a table: about 70 bytes
# an item). Uncharged, a loop keeping a set display of 60 numbers made 1.4 GB within the
# step bound, a list of 15,000 items (the source allows 20,000) 350 MB a second, bounded
# by the clock alone.
WIDE = 16
SET_ITEMS_PER_STEP = 2


def width_steps(node: ast.expr) -> int:
    """The steps an expression of many items (`[a, b, ...]`, `{k: v, ...}`, `f(a, b,
    ...)`, `a or b or ...`, `a < b < ...`) is charged each time it runs, beyond its
    statement's: 0 for one of a few."""
    kind = type(node)
    if kind is ast.Set or kind is ast.Dict:
        # (a step per two items, each hashed and a set's or dict's slot larger than a
        # list's; none for a few: `op in {'+', '-', '*', '/'}` is CPython's constant)
        wide = len(node.elts if kind is ast.Set else node.keys)  # type: ignore[attr-defined]
        return wide // SET_ITEMS_PER_STEP if wide > WIDE else 0
    if kind is ast.List or kind is ast.Tuple:
        wide = len(node.elts)  # type: ignore[attr-defined]
    elif kind is ast.Call:  # (keywords a step per two: a `**k` keeps them in a dict)
        args, keywords = len(node.args), len(node.keywords)  # type: ignore[attr-defined]
        if args + keywords <= WIDE:
            return 0
        return args // ITEMS_PER_STEP + keywords // SET_ITEMS_PER_STEP
    elif kind is ast.BoolOp:
        wide = len(node.values)  # type: ignore[attr-defined]
    elif kind is ast.Compare:
        wide = len(node.comparators)  # type: ignore[attr-defined]
    else:
        return 0
    return wide // ITEMS_PER_STEP if wide > WIDE else 0


def _folded_constant(node: ast.expr) -> bool:
    """Whether CPython's compiler folds `node` into a constant (a literal, a signed
    number, a tuple of such)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd | ast.Invert):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, ast.Tuple):
        return all(map(_folded_constant, node.elts))
    return False


def writes_others_grad(
    body: list[ast.stmt], itself: str, names: tuple[str, ...] = GRAD_NAMES
) -> bool:
    """Whether a method's own statements hand its gradient to other objects, as a node's
    rule does: a write of an attribute named as a gradient is, of an object other than
    `itself` (its first parameter), whose value reads `itself`'s attribute of that name
    (`a.adjoint += self.adjoint * b.value`) or adds something into it (a rule that
    forgot the upstream gradient), and no write of `itself`'s gradient (a pass
    seeds it: `self.adj = 1`, zeroing the others' first).

    Example: `writes_others_grad(ast.parse("a.g += self.g").body, "self") is True`;
    `writes_others_grad(ast.parse("v.g = 0\nself.g = 1").body, "self") is False`.
    """
    hands = False
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        visited(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if not (isinstance(t, ast.Attribute) and t.attr in names):
                    continue
                if isinstance(t.value, ast.Name) and t.value.id == itself:
                    return False
                # (or adds into it something not a constant: a rule that forgot the
                # upstream gradient, `prev.grad += local`, is a rule, a wrong one)
                hands = hands or _reads_own(node.value, itself, t.attr) or _adds(node)
        stack.extend(child_nodes(node))
    return hands


def _adds(node: ast.Assign | ast.AugAssign) -> bool:
    """Whether `node` is a `+=` of something not a constant (`prev.grad += local`)."""
    return (
        isinstance(node, ast.AugAssign)
        and isinstance(node.op, ast.Add)
        and not isinstance(node.value, ast.Constant)
    )


def _reads_own(value: ast.expr, itself: str, attr: str) -> bool:
    """Whether `value` reads `itself.attr` (`self.adjoint`)."""
    for node in ast.walk(value):
        visited(node)
        if (
            isinstance(node, ast.Attribute)
            and node.attr == attr
            and isinstance(node.value, ast.Name)
            and node.value.id == itself
        ):
            return True
    return False


def calls_method(body: list[ast.stmt], name: str) -> bool:
    """Whether a method's statements call a method of its own name (`child._walk()` in
    `_walk`): a walk handing each operand its share and recursing, a pass's work, not one
    node's rule.

    Example: `calls_method(ast.parse("c.walk()").body, "walk") is True`.
    """
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        visited(node)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == name
        ):
            return True
    return False


# The names CPython's built-ins have (`float`, `int`, `complex`, `bytes`…), read as names
# only: an annotation naming one finds it in CPython, whether or not it is a built-in here.
HOST_BUILTIN_NAMES = frozenset(dir(_host_builtins))
# Where an annotation's names are not CPython's to look up when it is evaluated: a lambda's
# and a comprehension's, in scopes of their own.
_OWN_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def function_annotations(node: ast.FunctionDef | ast.Lambda) -> list[ast.expr]:
    """A `def`'s annotations in the order CPython 3.11 evaluates them when the function is
    made: its parameters' (`args`, then the positional-only ones), `*args`', the
    keyword-only ones', `**kwargs`', then its return's. A lambda has none."""
    if isinstance(node, ast.Lambda):
        return []
    args = node.args
    found = [
        a.annotation
        for a in (*args.args, *args.posonlyargs, args.vararg, *args.kwonlyargs, args.kwarg)
        if a is not None and a.annotation is not None
    ]
    return found if node.returns is None else [*found, node.returns]


def annotation_names(annotation: ast.expr) -> list[ast.Name | ast.Attribute]:
    """The names an annotation reads, in the order CPython evaluates them (`Dict[K, V]`:
    Dict, K, V), and the attributes of a name it reads (`math.nope`, `typing.List`: the
    whole chain, looked up by `annotation_attribute`), none inside a string (`"Value"`)
    or a nested scope. Bounded by the annotation's nodes, walked with a stack of its own."""
    names: list[ast.Name | ast.Attribute] = []
    stack: list[ast.AST] = [annotation]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                names.append(node)
        elif isinstance(node, ast.Attribute) and _attribute_chain(node) is not None:
            names.append(node)
        elif not isinstance(node, _OWN_SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return names


def _attribute_chain(node: ast.Attribute) -> tuple[ast.Name, list[str]] | None:
    """`a.b.c` read in an annotation: the name `a` and the attributes `["b", "c"]`;
    None where the chain starts at no name (`f().x`)."""
    attrs: list[str] = []
    value: ast.expr = node
    while isinstance(value, ast.Attribute):
        attrs.append(value.attr)
        value = value.value
    if not isinstance(value, ast.Name) or not isinstance(node.ctx, ast.Load):
        return None
    return value, attrs[::-1]


def host_module_has(module: str, name: str) -> bool:
    """Whether CPython's module of that name, where the host has it loaded, has `name`
    (a module here may hold fewer names than CPython's: an annotation naming one of
    those is no AttributeError). Its own namespace read, nothing called or handed out."""
    host = sys.modules.get(module)
    return host is None or name in vars(host)


def writes_grad(body: list[ast.stmt], names: tuple[str, ...] = GRAD_NAMES) -> bool:
    """Whether a function's own statements (not those of a `def` or `lambda` inside it)
    write an attribute named as a gradient is (`self.grad += …`, `other.grad -= …`)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        visited(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr in names for t in targets):
                return True
        stack.extend(child_nodes(node))
    return False


# A generator expression's walk, a Python generator named as CPython's (`<generator
# object <genexpr>>`: `text.iterator_name`).
ITERATOR_CODES.update(
    (code, "genexpr")
    for code in ExpressionCompiler.generator.__code__.co_consts
    if isinstance(code, CodeType) and code.co_name == "loop"
)


def _unpack_into(m: Any, value: Any, values: list[Any], named: Callable[[], str] | None) -> None:
    """`f(*value)`, `[*value]`: its items after `values`, a step each; of what is not
    iterable at all CPython's `f() argument after * must be an iterable, not int` (what
    `named` names, `Value` of a list's or tuple's display; a set's is iteration's own)."""
    count = 0
    try:
        for item in m.iterate(value):
            m.state.charge(1)
            values.append(item)
            count += 1
    except ProgramError as error:
        kind = cpython_type(value)
        if (
            named is None
            or count
            or error.kind != "TypeError"
            or error.message != f"'{kind}' object is not iterable"
        ):
            raise
        after = "after" if named() == "Value" else "argument after"
        words = f"{named()} {after} * must be an iterable, not {kind}"
        raise ProgramError(words, kind="TypeError") from None


def _given_twice(m: Any, callee: Any, name: str) -> ProgramError:
    """`f(a=1, **{'a': 2})`: CPython's TypeError, which names what is called as its
    `_PyObject_FunctionStr` does."""
    words = f"{function_words(m, callee)} got multiple values for keyword argument '{name}'"
    return ProgramError(words, kind="TypeError")


def function_words(m: Any, callee: Any) -> str:
    """What CPython's call errors call `callee` (`_PyObject_FunctionStr`): a function of
    the program's `__main__.f()` (its qualified name: `__main__.A.m()`), a class
    `__main__.A()`, a built-in `print()` or `math.sqrt()`, anything else its `str`."""
    kind = type(callee)
    if kind is BoundMethod:
        callee, kind = callee.function, type(callee.function)
    if kind is Function or kind is PClass:
        return f"__main__.{callee.qualname}()"
    if kind is TypeObject:
        return f"{callee.module}{callee.name}()"
    if isinstance(callee, Builtin):
        return f"{callee.name}()"
    return str(m.texts.to_str(callee))


def _keywords_into(m: Any, mapping: Any, kwargs: dict[str, Any], callee: Callable[[], Any]) -> None:
    """`f(**mapping)` (a mapping of the program's read as a dict already): its items into
    `kwargs`, a step each, with CPython's TypeErrors for what is no mapping, a key that is
    no string and a keyword given twice."""
    if type(mapping) is MappingProxyType:  # `f(**C.__dict__)`
        mapping = mapping.copy()
    if type(mapping) is not dict:
        if type(mapping) is PClass:
            raise ProgramError("** needs a dict")
        named = function_words(m, callee())
        words = f"{named} argument after ** must be a mapping, not {cpython_type(mapping)}"
        raise ProgramError(words, kind="TypeError")
    m.state.charge(len(mapping))  # a step per keyword, as `*` per argument
    for key, value in mapping.items():
        if type(key) is not str:
            raise ProgramError("keywords must be strings", kind="TypeError")
        if key in kwargs:
            raise _given_twice(m, callee(), key)
        kwargs[key] = value
