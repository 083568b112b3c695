"""Run a program under CPython itself, with micrograd's own `Value`, to compare numbers.

Only for tests: the programs are the tests' own, never a user's. `printed_lines` gives
what our interpreter printed, frame by frame, so both sides are compared as text.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import math
import random
import re
import subprocess
import sys
from collections import Counter
from contextvars import ContextVar
from typing import Any

from micrograd.engine import Value as MicrogradValue

from backprop_animator.engine.interpreter.expressions import (
    PASS_FUNCTIONS,
    does_pass_work,
    is_pass_method,
    own_gradient_names,
)
from backprop_animator.engine.interpreter.objects import GRAD_NAMES, OPERAND_WORDS, SINGLE_OPERANDS


def run_in_cpython(source: str) -> list[str]:
    """The lines the program prints when CPython runs it (random seeded with 0 first).
    A program that raises the recursion limit (`sys.setrecursionlimit(10**6)`) has it put
    back after: raised in the test process, a later deep recursion overflows the C stack
    and kills the whole run instead of raising a RecursionError."""
    random.seed(0)
    out = io.StringIO()
    # `__builtins__` the module, as a script's `__main__` has it (exec's default is its dict)
    namespace: dict[str, Any] = {
        "Value": MicrogradValue,
        "__name__": "__main__",
        "__builtins__": builtins,
    }
    limit = sys.getrecursionlimit()
    # A script run with no arguments, as the interpreter's `sys.argv` says (an
    # `argparse` parser reads it; the test run's own arguments are no script's).
    argv, sys.argv = sys.argv, ["/program/main.py"]
    try:
        with contextlib.redirect_stdout(out):
            # `dont_inherit`: not this module's `from __future__ import annotations` (a
            # script's annotations are evaluated: `ClassVar[int]` is no dataclass field)
            exec(compile(source, "<program>", "exec", dont_inherit=True), namespace)
    except SystemExit as end:
        # A script's `sys.exit(main(sys.argv))`: 0 or None ends it as it ends a script.
        if end.code not in (None, 0):
            raise
    finally:
        sys.setrecursionlimit(limit)
        sys.argv = argv
    return out.getvalue().splitlines()


# Runs a program given on stdin as `run_in_cpython` does, in a process of its own and
# in its `__main__` module, as a script runs (`typing.get_type_hints` of a class looks
# its names up in `sys.modules[cls.__module__]`).
_SUBPROCESS = """
import random as _random, sys as _sys
from micrograd.engine import Value
_random.seed(0)
_sys.argv = ["/program/main.py"]
del _random
exec(compile(_sys.stdin.read(), "<program>", "exec"), globals())
"""


def run_in_cpython_with_stderr(source: str) -> list[str]:
    """The lines CPython writes to stdout and stderr together, in the order it writes
    them (both unbuffered into one pipe): what `logging` and `warnings` write, which the
    interpreter prints. In a process of its own, so `logging.basicConfig` configures
    that process's logging, not the test run's."""
    ran = subprocess.run(
        [sys.executable, "-u", "-c", _SUBPROCESS],
        input=source,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=60,
        check=False,
    )
    return ran.stdout.splitlines()


def printed_lines(trace: dict[str, Any]) -> list[str]:
    return [line for frame in trace["frames"] for line in frame.get("prints", [])]


def assert_same_output(ours: list[str], theirs: list[str], rel: float = 1e-9) -> None:
    """Line by line and word by word; numbers may differ only in the last bits, because
    CPython's `set` orders a node's parents by address, which changes the order (and so
    the rounding) of three or more `+=` into one gradient."""
    assert len(ours) == len(theirs), (ours, theirs)
    for mine, reference in zip(ours, theirs, strict=True):
        mine, reference = _sets_sorted(mine), _sets_sorted(reference)
        my_words, their_words = mine.split(), reference.split()
        assert len(my_words) == len(their_words), (mine, reference)
        for a, b in zip(my_words, their_words, strict=True):
            # A number may sit inside a word (`Value(data=0.99),` of a printed list): the
            # text around the numbers must be the same, the numbers close.
            my_parts, their_parts = NUMBER.split(a), NUMBER.split(b)
            assert len(my_parts) == len(their_parts), (mine, reference)
            for i, (x, y) in enumerate(zip(my_parts, their_parts, strict=True)):
                if i % 2 == 0:
                    assert x == y, (mine, reference)
                else:
                    close = math.isclose(float(x), float(y), rel_tol=rel, abs_tol=1e-12)
                    assert close, (mine, reference)


# An object's repr as a class of the program writes it (`Value(data=2.0)`).
OBJECT_REPR = re.compile(r"[A-Za-z_]\w*\(.*\)|<[\w.]+ object at 0x[0-9a-f]+>", re.DOTALL)


def _sets_sorted(line: str) -> str:
    """The line with each printed set of the program's objects (`{Value(data=10.0),
    Value(data=-6.0)}`, a node's `_prev`) in one order: CPython hashes such objects by
    address, so a set of them prints in an order no other run need repeat. Sets of
    numbers or strings, and dicts, keep theirs (hash or insertion order, as ours)."""
    out: list[str] = []
    i = 0
    while i < len(line):
        if line[i] != "{":
            out.append(line[i])
            i += 1
            continue
        end, items = _braced_items(line, i)
        if end < 0:
            out.append(line[i:])
            break
        if len(items) > 1 and all(OBJECT_REPR.fullmatch(item) for item in items):
            key = lambda item: NUMBER.sub(lambda m: f"{float(m[0]):.6g}", item)  # noqa: E731
            inner = [_sets_sorted(item) for item in items]
            out.append("{" + ", ".join(sorted(inner, key=key)) + "}")
        else:
            out.append(line[i : end + 1])
        i = end + 1
    return "".join(out)


def _braced_items(line: str, start: int) -> tuple[int, list[str]]:
    """Where the `{` at `start` closes (-1 if it does not) and its top-level items split
    on `, ` (none where a top-level `:` makes it a dict)."""
    depth, items, begun, quote = 0, [], start + 1, ""
    is_dict = False
    for j in range(start, len(line)):
        c = line[j]
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                items.append(line[begun:j])
                return j, ([] if is_dict else [item for item in items if item])
        elif depth == 1 and c == ":":
            is_dict = True
        elif depth == 1 and line.startswith(", ", j):
            items.append(line[begun:j])
            begun = j + 2
    return -1, []


# A decimal number as `repr` writes one (`-0.8762959357399905`, `1e-05`, `inf` is text).
NUMBER = re.compile(r"(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")


NUMBER_NAMES = ("data", "value", "val", "_data", "_value", "v", "primal")  # the engine's
OPERAND_NAMES = (
    "_prev", "_children", "children", "prev", "parents", "_parents", "inputs", "_inputs",
    "operands", "_operands", "src", "_src", "sources", "parent_nodes", "_parent_nodes",
    "pairs", "_pairs", "local_gradients", "_local_gradients", "input_nodes", "_input_nodes",
    "args", "prev_list", "_previous", "prevs", "_terms", "next_functions",
    "progenitor", "progenitores", "_ancestors", "ancestors",
)  # fmt: skip
# Operands kept one to an attribute (the engine's `OPERAND_PAIRS`), a missing one None.
OPERAND_PAIRS = (
    ("first_parent", "second_parent"), ("parent1", "parent2"), ("left", "right"),
    ("lhs", "rhs"), ("_left", "_right"), ("child_1", "child_2"), ("child1", "child2"),
    ("v1", "v2"),
)  # fmt: skip
# Where a node keeps its gradient: the engine's names (GRAD_NAMES), and while a program's
# run or its leaves are read, its classes' own words for it (`gradient_names`).
_GRADIENTS: ContextVar[tuple[str, ...]] = ContextVar("gradients", default=GRAD_NAMES)


def gradient_names(source: str) -> tuple[str, ...]:
    """The names a node of this program may keep its gradient under, as the engine reads
    them off the code before it runs: GRAD_NAMES, then its classes' own
    (`own_gradient_names`: `self.backwards_grad = 0.0`, a `dvalue` a pass seeds)."""
    return (*GRAD_NAMES, *own_gradient_names(ast.parse(source)))


def _has_gradient(node: Any) -> bool:
    return any(hasattr(node, name) for name in _GRADIENTS.get())


def number_of(node: Any) -> Any:
    name = _number_name(node)
    if name is None:
        raise StopIteration  # (what `next` of no name raised before)
    return getattr(node, name)


def _number_name(node: Any) -> str | None:
    """Where a node keeps its number: a name of NUMBER_NAMES, or, as the interpreter's
    `numeric_attribute` finds a class's own name for it (fabian-rudolf/nanograd's `a.of`),
    the one attribute of a node with a gradient that holds a plain number and is no
    gradient (none of several)."""
    found = next((name for name in NUMBER_NAMES if hasattr(node, name)), None)
    if found is not None or not hasattr(node, "__dict__") or isinstance(node, type):
        return found
    if not _has_gradient(node):
        return None
    grads = _GRADIENTS.get()
    numbers = [
        name
        for name, value in vars(node).items()
        if type(value) in (int, float) and name not in grads
    ]
    return numbers[0] if len(numbers) == 1 else None


HOLDER_NAMES = ("_ctx", "ctx", "_context", "context", "grad_fn", "_grad_fn", "creator", "_creator")
# Where the engine finds a node's operands by watching its rule run (axent-pl/axgrad's
# `func`, an `Operation` object, callable, that keeps them as `left` and `right`): read
# here only for the leaves CPython's run compares.
HELD_BY_OPERATION = ("func", "operation")


def operands_of(node: Any) -> list[Any]:
    """A node's operands; a list of `(node, local)` pairs counts its nodes. A node with
    none of its own gives those the record of its op keeps (`node._ctx.parents`,
    `node.grad_fn.inputs`, `node._ctx = (Mul, (a, b))`)."""
    pairs = () if any(hasattr(node, name) for name in OPERAND_NAMES) else OPERAND_PAIRS
    for first, second in pairs:  # (only where no name of the list is there)
        if hasattr(node, first) and hasattr(node, second):
            pair = (getattr(node, first), getattr(node, second))
            return [o for o in pair if o is not None and not callable(o)]

    for name in OPERAND_NAMES:
        if hasattr(node, name):
            held = getattr(node, name)
            if hasattr(held, "__dict__") and not hasattr(held, "__iter__") and not _is_node(held):
                # an object keeping them (`_prev = Children(self, other)`, `.out`, `.other`)
                inner = operands_of(held) if _operands_held(held) else []
                return inner or [v for v in vars(held).values() if _is_node(v)]
            operands = list(held or ())
            # (None: a missing operand, `[self, None]` for a one-operand op)
            return [
                o[0] if isinstance(o, tuple) and len(o) == 2 else _held_node(o)
                for o in operands
                if o is not None
            ]
    for name in SINGLE_OPERANDS:
        # a unary op's one operand (`self.operand`), where a node, as `find_shape` takes it
        if _is_node(getattr(node, name, None)):
            return [getattr(node, name)]
    for name, value in vars(node).items() if hasattr(node, "__dict__") else ():
        # a class's own name for them, as the interpreter's `worded_operands` finds it
        if isinstance(value, (tuple, list, set, frozenset)) and any(
            word in name.lower() for word in OPERAND_WORDS
        ):
            return [o[0] if isinstance(o, tuple) and len(o) == 2 else _held_node(o) for o in value]
    closed = _closed_over(node)
    if closed:
        return closed
    holder = next((getattr(node, name) for name in HOLDER_NAMES if hasattr(node, name)), None)
    if isinstance(holder, (tuple, list)):
        if any(_is_node(item) for item in holder):
            return [item for item in holder if _is_node(item)]
        inner = next(
            (i for i in holder if isinstance(i, (tuple, list)) and any(map(_is_node, i[:4]))),
            None,
        )
        if inner is not None:
            return [item for item in inner if _is_node(item)]
        holder = next((i for i in holder if not isinstance(i, type)), None)
    if holder is None:
        operation = next((getattr(node, n) for n in HELD_BY_OPERATION if hasattr(node, n)), None)
        if any(hasattr(operation, a) and hasattr(operation, b) for a, b in OPERAND_PAIRS):
            holder = operation
    if holder is None or _is_node(holder):
        return []
    if callable(holder) and not any(
        hasattr(holder, a) and hasattr(holder, b) for a, b in OPERAND_PAIRS
    ):
        return []
    if getattr(holder, "next_functions", None) is not None:
        return _through_functions(holder)
    return [o for o in operands_of(holder) if _is_node(o)]


def _grad_elsewhere(node: Any) -> bool:
    """Whether a node keeps its gradient under a name other than `grad` (rad.py's `gv`),
    its `grad` being a method: then `node.grad(1.0)` is the pass (`is_grad_pass`)."""
    return (
        node is not None
        and callable(getattr(node, "grad", None))
        and any(hasattr(node, name) for name in _GRADIENTS.get()[1:])
    )


def _held_node(item: Any) -> Any:
    """An operand kept in an object with its local derivative (`Operand(val=node,
    deriv=2.0)`, rad.py's `Predecessor(multiplier, var)`): the one attribute of it that is
    a node, as the engine's `held_node` reads it; anything else as it is."""
    if _is_node(item) or not hasattr(item, "__dict__"):
        return item
    nodes = [v for v in vars(item).values() if _is_node(v)]
    return nodes[0] if len(nodes) == 1 else item


def _operands_held(holder: Any) -> bool:
    return any(hasattr(holder, name) for name in OPERAND_NAMES) or any(
        hasattr(holder, a) and hasattr(holder, b) for a, b in OPERAND_PAIRS
    )


def _through_functions(fn: Any) -> list[Any]:
    """The tensors a PyTorch-style record's `next_functions` lead to: a function with no
    next functions of its own owns a leaf (`AccumulateGrad.variable`); another is an
    input's own `grad_fn`, whose tensor no attribute names here: its inputs are walked
    through (enough for the leaves' gradients, `leaves_of`)."""
    found: list[Any] = []
    for pair in fn.next_functions:
        nxt = pair[0] if isinstance(pair, tuple) else pair
        if nxt is None:
            continue
        if nxt.next_functions:
            found.extend(_through_functions(nxt))
        else:
            found.extend(v for v in vars(nxt).values() if _is_node(v))
    return found


def _is_node(value: Any) -> bool:
    return _has_gradient(value) and _number_name(value) is not None


def _closed_over(node: Any) -> list[Any]:
    """The operands of a node that keeps none but a closure its op set on it (`out.backward
    = backward`): the other nodes that closure closes over, in the order of its free
    variables (`self`, `other`), as the interpreter takes those of the op's frame."""
    own = vars(node) if hasattr(node, "__dict__") else {}
    for value in own.values():
        cells = getattr(value, "__closure__", None)
        if cells and getattr(value, "__code__", None) is not None:
            found = []
            for cell in cells:
                with contextlib.suppress(ValueError):  # (a cell not filled yet)
                    found.append(cell.cell_contents)
            return [v for v in found if v is not node and _is_node(v)]
    return []


def _closure_node(frame: Any) -> Any:
    """The node, among the variables a closure's frame closes over, that keeps that very
    closure as its attribute of the closure's name (`out.backward = backward`, set by the
    op that made `out`); None where there is none."""
    code = frame.f_code
    for name in code.co_freevars:
        value = frame.f_locals.get(name)
        if _is_node(value):
            kept = vars(value).get(code.co_name) if hasattr(value, "__dict__") else None
            if getattr(kept, "__code__", None) is code:
                return value
    return None


def run_in_cpython_with_passes(source: str) -> tuple[list[str], list[float], list[Any]]:
    """What CPython prints, each `backward()` call's output number, and the pass outputs
    (their graphs are walked when the program has ended, for the leaves' gradients)."""
    outputs: list[Any] = []
    numbers: list[float] = []
    passes: list[Any] = []  # the frames of the passes counted, kept alive
    pass_ids: set[int] = set()  # theirs: a frame kept alive keeps its id
    # The program's `def`s by the line their code starts at (a decorator's, if any), for
    # `does_pass_work`.
    defs = {
        min([node.lineno, *(d.lineno for d in node.decorator_list)]): node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
    }

    def profile(frame: Any, event: str, _arg: Any) -> None:
        code = frame.f_code
        if event != "call" or code.co_argcount < 1:
            return
        caller = frame.f_back
        while caller is not None:
            if id(caller) in pass_ids:
                return  # a pass's own recursion (`backward(self, grad)` on each node)
            caller = caller.f_back
        # `loss.backward()`, `loss.backprop()`, and a method of a class named with a
        # pass's word, `loss.backprop_lets_go()` (`is_pass_method`), as the interpreter's
        in_class = code.co_qualname.split(".")[-2:-1] not in ([], ["<locals>"])
        named = code.co_name in PASS_FUNCTIONS or (
            # `node.grad(1.0)` where the class keeps the gradient otherwise (rad.py's `gv`),
            # doing a pass's work (not a getter), as the interpreter counts it
            code.co_name == "grad"
            and in_class
            and code.co_filename == "<program>"
            and _grad_elsewhere(frame.f_locals.get(code.co_varnames[0]))
            and does_pass_work(defs[code.co_firstlineno].body)
        )
        worded = is_pass_method(code.co_name) and in_class and code.co_filename == "<program>"
        if worded and not named:  # `register_backward_hook`, which keeps a hook: no pass
            worded = does_pass_work(defs[code.co_firstlineno].body)
        method = named or worded
        function = code.co_name in PASS_FUNCTIONS and "." not in code.co_qualname
        # `f.backward(1.0)` where an op set a closure of its own on the node it made under
        # that name (`out.backward = backward`): the node is the closure's
        kept = _closure_node(frame) if code.co_name in PASS_FUNCTIONS and not in_class else None
        if not (method or function or kept is not None):
            return  # `backprop(loss)` is a pass too, as the interpreter counts it
        node = kept if kept is not None else frame.f_locals.get(code.co_varnames[0])
        if (
            node is not None
            and _has_gradient(node)
            and _number_name(node) is not None
            # a node holds one number: a `Tensor` of Values (`data` a list of them, `grad`
            # a property listing theirs) is no node, and its `backward()` hands the pass
            # to its Value's, which is the pass (as the interpreter counts it)
            and isinstance(number_of(node), (int, float))
        ):
            outputs.append(node)
            numbers.append(number_of(node))
            passes.append(frame)
            pass_ids.add(id(frame))

    gradients = _GRADIENTS.set(gradient_names(source))  # (the profile's, as the engine's)
    sys.setprofile(profile)
    try:
        lines = run_in_cpython(source)
    finally:
        sys.setprofile(None)
        _GRADIENTS.reset(gradients)
    return lines, numbers, outputs


def assert_leaves_among(ours: list[tuple[float, float]], theirs: list[tuple[float, float]]) -> None:
    """Every (number, gradient) leaf of ours is one of CPython's, each of theirs matched
    once: equal pairs first, then the rest within `math.isclose` (a `set` of operands is
    ordered by address in CPython, so sums of three or more may round otherwise)."""
    left = Counter(theirs)
    close = []
    for pair in ours:
        if left[pair] > 0:
            left[pair] -= 1
        else:
            close.append(pair)
    rest = list(left.elements())
    for data, grad in close:
        match = next(
            (pair for pair in rest if isclose(pair[0], data) and isclose(pair[1], grad)), None
        )
        assert match is not None, (data, grad, rest)
        rest.remove(match)


def isclose(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def leaves_of(
    outputs: list[Any], gradients: tuple[str, ...] = GRAD_NAMES
) -> list[tuple[float, float]]:
    """(number, gradient) of every leaf reachable from any pass's output, sorted; a
    gradient kept under a class's own name is read where `gradients` (`gradient_names`
    of the program) holds it."""
    names = _GRADIENTS.set(gradients)
    try:
        return _leaves_of(outputs, gradients)
    finally:
        _GRADIENTS.reset(names)


def _leaves_of(outputs: list[Any], gradients: tuple[str, ...]) -> list[tuple[float, float]]:
    seen: set[int] = set()
    leaves: list[tuple[float, float]] = []
    stack = list(outputs)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        operands = operands_of(node)
        if not operands:
            if not _has_gradient(node):
                continue  # a plain number kept among a node's operands (`(self, 3)`)
            grad = next(  # (not a method named `grad`: rad.py's gradient is `gv`)
                getattr(node, name)
                for name in gradients
                if hasattr(node, name) and not callable(getattr(node, name))
            )
            leaves.append((float(number_of(node)), float(grad or 0)))
        stack.extend(operands)
    return sorted(leaves)
