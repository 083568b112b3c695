"""How much work a program will be, judged from its syntax tree before it runs.

The server traces cheap programs in a thread (a process hand-off would cost more
than the trace) and everything else in a worker process, where a trace can be
stopped at its time limit and does not hold the server's GIL. Counting characters
is not enough: `tanh(tanh(...(b)...))` nested 160 deep, twice, expanded, is under
2,000 characters and ~2,900 nodes. So this walks the tree and bounds the nodes it
can build: each operation builds at most a few nodes (`a - b` is `a + (b * -1)`),
an expanded `tanh` or `sigmoid` about ten.

Only straight-line code of the article's language can be bounded this way. A loop,
a function definition, a call of anything but the primitives, a container, a power
of a plain number: any of them can do unbounded work in few characters, so the
estimate is None ("unknown") and the program goes to a worker.

Example: `estimate_nodes("a = Value(2.0)\\nb = a * a", "packed") == 8`;
`estimate_nodes("for i in range(9): pass", "packed") is None`. `estimate_tree` does
the same from a tree already parsed (`engine.parse.parse_python`).
"""

from __future__ import annotations

import ast

from backprop_animator.engine.ops import EXPANDED, FUNCTIONS
from backprop_animator.engine.parse import parse_python

# Upper bounds on the nodes one piece of syntax can create.
NODES_PER_OPERATION = 4
NODES_PER_EXPANDED_CALL = 12
EXPANDED_FUNCTIONS = EXPANDED  # tanh, sigmoid (engine.ops)
PRIMITIVES = frozenset(FUNCTIONS)  # tanh exp relu log sigmoid
CALLABLE_NAMES = PRIMITIVES | {"Value", "print", "draw_dot"}
METHODS = PRIMITIVES | {"backward"}

# Syntax that only names, groups or labels things: it creates no node by itself.
INERT = (
    ast.Module,
    ast.Expr,
    ast.Assign,
    ast.Name,
    ast.Constant,
    ast.Load,
    ast.Store,
    ast.keyword,
    ast.ImportFrom,
    ast.alias,
    ast.Pass,
    ast.operator,
    ast.unaryop,
)


def estimate_nodes(source: str, granularity: str) -> int | None:
    """At most how many nodes `source` builds, or None when that cannot be bounded here."""
    return estimate_with_tree(source, granularity)[0]


def estimate_with_tree(source: str, granularity: str) -> tuple[int | None, ast.Module | None]:
    """`estimate_nodes`, and the syntax tree it read (None if Python cannot parse the
    program), for the engine to trace without parsing it again."""
    tree = parse_or_none(source)
    return (None, None) if tree is None else (estimate_tree(tree, granularity), tree)


def parse_or_none(source: str) -> ast.Module | None:
    """The syntax tree, or None for a program Python cannot parse (the engine reports
    the error properly, with its position)."""
    try:
        return parse_python(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def estimate_tree(tree: ast.Module, granularity: str) -> int | None:
    """At most how many nodes the program of `tree` builds, or None (see the module)."""
    per_call = NODES_PER_EXPANDED_CALL if granularity == "expanded" else NODES_PER_OPERATION
    total = 0
    # `ast.walk` without its generators (a third of the estimate's time on the neuron);
    # the order does not matter, only that every node is seen.
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for name in node._fields:
            child = getattr(node, name, None)
            if isinstance(child, list):
                stack.extend(item for item in child if isinstance(item, ast.AST))
            elif isinstance(child, ast.AST):
                stack.append(child)
        if isinstance(node, INERT):
            continue
        if isinstance(node, ast.BinOp | ast.AugAssign):
            left = node.left if isinstance(node, ast.BinOp) else node.target
            right = node.right if isinstance(node, ast.BinOp) else node.value
            if isinstance(node.op, ast.Pow) and _is_plain_number(left):
                return None  # number ** number: the work is in the number itself
            if _is_string(left) or _is_string(right):
                return None  # 'a' * n: the work is in the string
            total += NODES_PER_OPERATION
        elif isinstance(node, ast.UnaryOp):
            total += NODES_PER_OPERATION
        elif isinstance(node, ast.Call):
            called = _called_name(node)
            if called is None:
                return None
            total += per_call if called in EXPANDED_FUNCTIONS else NODES_PER_OPERATION
        elif isinstance(node, ast.Attribute):
            if node.attr not in METHODS and node.attr != "label":
                return None
        else:
            return None
    return total


def _called_name(call: ast.Call) -> str | None:
    """The primitive a call runs (`tanh(x)`, `x.tanh()`), or None for anything else."""
    if isinstance(call.func, ast.Name) and call.func.id in CALLABLE_NAMES:
        return call.func.id
    if isinstance(call.func, ast.Attribute) and call.func.attr in METHODS:
        return call.func.attr
    return None


def _is_string(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)


def _is_plain_number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)
    )
