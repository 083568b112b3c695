"""A block of statements as one generated Python function: `Compiler.in_order` unrolled.

A block's statements were run by a loop over `(code, position, anchors, text)` entries,
each statement's closure called from it. Here the block becomes the source of one
Python function, written by this module alone from a fixed template (nothing of the
program's text is in it: its closures, positions and texts are the arguments of a factory
the source defines), compiled once per shape and cached: each statement's step charge,
position, update group and error location are written in at their place, and the
commonest statements (an expression statement, `x = ...` into a local, `obj.a = ...`,
`return ...`) are written in whole, calling their expressions' closures directly; any
other statement is its closure, called. The generated code does exactly what the loop
did, in the same order, so a trace is the same byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backprop_animator.engine.errors import operation_failed
from backprop_animator.engine.interpreter.machine import RETURN
from backprop_animator.engine.interpreter.runtime import ProgramError
from backprop_animator.engine.value import Value

Stmt = Callable[[Any], Any]
Entry = tuple[Stmt, tuple[int, int], bool, str]

# Blocks longer than this stay on the loop (`in_order`): the source stays small.
MAX_STATEMENTS = 40
_CACHE_SIZE = 512
TOO_DEEP = "the program nests too deeply"
_factories: dict[str, Callable[..., Stmt]] = {}

# What a statement's closure is, when it is one of the shapes written in whole: set by
# the compiler for the closures it makes (`Shapes.note`), keyed by the closure's id while
# the closure lives (it is kept in the entry the block is made of).
#   ("last", expr)            `expr` as a statement: rec.last = expr(f)
#   ("local", expr, name)     `name = expr` in a function: labelled, stored in f.vars
#   ("store", expr, store)    `target = expr`: store(f, expr(f))
#   ("return", expr)          `return expr`
#   ("return_local", expr, name)
#   ("return_none",)
Shape = tuple[Any, ...]


def block(
    entries: list[Entry], shapes: dict[int, tuple[Shape, Stmt]], state: Any, rec: Any
) -> Stmt:
    """One function running `entries` as `Compiler.in_order`'s loop runs them."""
    lines: list[str] = []
    names = ["state", "rec", "ProgramError", "operation_failed", "Value", "RETURN", "TOO_DEEP"]
    args: list[Any] = [state, rec, ProgramError, operation_failed, Value, RETURN, TOO_DEEP]
    uses_vars = False
    ends = "none"
    for index, (inner, position, anchors, text) in enumerate(entries):
        shape, shaped = shapes.get(id(inner), (("call",), inner))
        body, values, ends = _statement(index, shape if shaped is inner else ("call",), inner)
        uses_vars = uses_vars or any(" V" in line or line.startswith("V") for line in body)
        values.update({f"P{index}": position, f"T{index}": text})
        names.extend(values)
        args.extend(values.values())
        lines.extend(_wrapped(index, body, anchors))
        if ends == "returns":
            lines.append("        return RETURN")
            break
        if ends == "signal":
            lines.append(f"        if signal{index} is not None:")
            lines.append(f"            return signal{index}")
    if ends != "returns":
        lines.append("        return None")
    head = ["        V = f.vars"] if uses_vars else []
    source = "\n".join(
        [
            f"def factory({', '.join(names)}):",
            "    def run(f):",
            *head,
            *lines,
            "    return run",
            "",
        ]
    )
    factory = _factories.get(source)
    if factory is None:
        if len(_factories) >= _CACHE_SIZE:
            _factories.clear()
        namespace: dict[str, Any] = {}
        exec(compile(source, "<block>", "exec"), namespace)  # this module's own template
        factory = _factories[source] = namespace["factory"]
    return factory(*args)


def _statement(index: int, shape: Shape, inner: Stmt) -> tuple[list[str], dict[str, Any], str]:
    """The lines of one statement's own work, the values they name, and how it ends:
    "none" (it never signals), "signal" (its closure's signal is checked) or "returns"."""
    kind = shape[0]
    e = f"E{index}"
    n = f"N{index}"
    if kind == "last":
        return [f"rec.last = {e}(f)"], {e: shape[1]}, "none"
    if kind == "local":
        lines = [
            f"r = {e}(f)",
            "if type(r) is Value and not r.label:",
            f"    r.label = {n}",
            f"V[{n}] = r",
        ]
        return lines, {e: shape[1], n: shape[2]}, "none"
    if kind == "store":
        return [f"S{index}(f, {e}(f))"], {e: shape[1], f"S{index}": shape[2]}, "none"
    if kind == "return":
        return [f"f.ret = {e}(f)"], {e: shape[1]}, "returns"
    if kind == "return_local":
        return [f"f.ret = V[{n}] if {n} in V else {e}(f)"], {e: shape[1], n: shape[2]}, "returns"
    if kind == "return_none":
        return ["f.ret = None"], {}, "returns"
    return [f"signal{index} = C{index}(f)"], {f"C{index}": inner}, "signal"


def _wrapped(index: int, body: list[str], anchors: bool) -> list[str]:
    """`in_order`'s bookkeeping around one statement's lines."""
    p = f"P{index}"
    out = [
        "        state.steps += 1",
        "        if state.steps > state.next_check:",
        "            try:",
        "                state.checkpoint()",
        "            except ProgramError as error:",
        f"                raise error.located(*{p}) from None",
        f"        state.position = {p}",
        "        try:",
    ]
    if anchors:
        out.append("            if rec.anchor is None:")
        out.append(f"                rec.open_anchor({p}[0], T{index})")
        out.append("                try:")
        out.extend("                    " + line for line in body)
        out.append("                finally:")
        out.append("                    rec.anchor = None")
        out.append("            else:")
        out.extend("                " + line for line in body)
    else:
        out.extend("            " + line for line in body)
    out.extend(
        [
            "        except ProgramError as error:",
            f"            raise error.located(*{p}) from None",
            "        except RecursionError:",
            '            limit = state.limits.exceeded("max_depth", TOO_DEEP)',
            f"            raise ProgramError(limit.message).located(*{p}) from None",
            "        except Exception as error:",
            f"            raise ProgramError(operation_failed(error)).located(*{p}) from None",
        ]
    )
    return out
