"""The sentences of the engine's most common frames, written once for the engine and the page.

Each function below is one sentence with its blanks as parameters; `narrate` calls them
to write a frame's `text`, and `SENTENCES` is the same sentences as a table of templates
(`{own} is a {what}: …`), made from these functions, that the columns encoding carries
(`engine.trace.columns`) so that the page writes a frame's text only when it shows the
frame (`static/js/passes/columns.js`). A sentence changed here changes in both places.

Only sentences whose blanks the page can fill from the trace itself are here: a build
(`x1*w1 = 2 × −3 = −6`), the sort's seed, a leaf's rule, a rule's `+=`s. The others
(the bug lab's, a learner's own rule, the update frames) travel as text.

Example: `first_add("x1", "−3", "0.5", "−1.5") -> 'x1.grad += −3 × 0.5 → −1.5'`, and
`SENTENCES["first_add"] == '{child}.grad += {local} × {upstream} → {after}'`. A blank
followed by `.grad` takes a name as `operand` writes it (`(x1*w1)`), here and on the page.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import NamedTuple

from backprop_animator.engine.trace.number_format import MINUS

# A name that reads as one operand before `.grad`: a plain name, or a path of attributes
# and subscripts (`x1`, `layers[0].neurons[1].b`). Anything else is an expression, a
# number or words (`x1*w1`, `−1`, `the * node`).
_OPERAND = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*|\[[^\[\]]*\])*")


# `operand`'s answers, remembered (every `+=` of every rule writes one, the same names
# pass after pass), up to a bound, as narrate's rule texts are.
_OPERANDS: dict[str, str] = {}
MAX_OPERANDS = 4096


def operand(name: str) -> str:
    """A node's name as it stands before `.grad` or `.backward()`, bracketed unless it is
    one operand already, so that `x1*w1`'s gradient does not read as `w1`'s:
    `operand("x1*w1") -> '(x1*w1)'`, `operand("layers[0].b") -> 'layers[0].b'`. The page
    writes its blanks the same way (`operand` in static/js/player/format.js)."""
    written = _OPERANDS.get(name)
    if written is None:
        written = name if _OPERAND.fullmatch(name) else f"({name})"
        if len(_OPERANDS) < MAX_OPERANDS:
            _OPERANDS[name] = written
    return written


def built(own: str, numeric: str, data: str) -> str:
    """A build frame whose node is called by its expression: `x1*w1 = 2 × −3 = −6`."""
    return f"{own} = {numeric} = {data}"


def built_bare(own: str, data: str) -> str:
    """A build frame whose node is called by the very text its numbers make (an op of
    constants: `exp(0) = 1`, not `exp(0) = exp(0) = 1`)."""
    return f"{own} = {data}"


def built_named(own: str, symbolic: str, numeric: str, data: str) -> str:
    """A build frame whose node has a name of its own: `n = x1*w1+b = −6 + 6.881 = 0.8814`."""
    return f"{own} = {symbolic} = {numeric} = {data}"


def sorted_nodes(count: int | str, nodes: str, output: str, grad: str = "grad") -> str:
    """The sort and the seed (`nodes`: `nodes_word(count)`; `grad`: as in `first_add`)."""
    return (
        f"Depth-first sort: {count} {nodes}, each after its children. "
        f"Seed {output}.{grad} = 1, then walk the order backwards."
    )


def nodes_word(count: int) -> str:
    """`nodes_word(1) -> 'node'`, `nodes_word(2) -> 'nodes'`."""
    return "node" if count == 1 else "nodes"


def leaf_rule(own: str, what: str, grad: str) -> str:
    """A leaf's or a constant's backward frame (`what`: `leaf` or `constant`)."""
    return f"{own} is a {what}: its rule does nothing. grad = {grad}."


def rule_ran(own: str, op: str, upstream: str, rule: str, steps: str) -> str:
    """An op node's rule ran; `steps` are its `+=`s (`first_add`, `later_add`) joined by `; `."""
    return f"{own} ({op}, grad {upstream}): {rule}. {steps}."


def first_add(child: str, local: str, upstream: str, after: str, grad: str = "grad") -> str:
    """The first `+=` into a child's gradient in a pass (`grad`: the attribute the
    learner's class keeps it in, `gradient`, said by the engine alone: not a blank of
    the page's template)."""
    return f"{child}.{grad} += {local} × {upstream} → {after}"


def held_add(
    child: str,
    local: str,
    upstream: str,
    before: str,
    delta: str,
    after: str,
    grad: str = "grad",
) -> str:
    """The first `+=` into a child's gradient in a pass that finds it holding something
    already (carried over from an earlier pass that nothing zeroed): the sum, said, so
    `3 × −11.8` does not seem to make −111.9."""
    return (
        f"{child}.{grad} += {local} × {upstream}; it held {before} already, "
        f"sum {before} + {delta} = {after}"
    )


def later_add(
    child: str,
    local: str,
    upstream: str,
    nth: str,
    before: str,
    delta: str,
    after: str,
    grad: str = "grad",
) -> str:
    """A second or later `+=` into the same child in a pass: the sum, said."""
    return f"{child}.{grad} += {local} × {upstream}; {nth} +=, sum {before} + {delta} = {after}"


def worked_out(op: str, operands: list[str]) -> str:
    """An op over its operands' numbers, as a build frame works it out:
    `worked_out("*", ["2", "−3"]) -> '2 × −3'`, `worked_out("**2", ["−3"]) -> '(−3)**2'`,
    `worked_out("tanh", ["0.8814"]) -> 'tanh(0.8814)'`, another engine's own `-` of two
    operands `worked_out("-", ["1.099", "2"]) -> '1.099 − 2'`, its `**` of a Value
    exponent `worked_out("**", ["−1.5", "3"]) -> '(−1.5)**3'`."""
    if op.startswith("**") and len(operands) <= 2 and operands[0].startswith(MINUS):
        operands = [f"({operands[0]})", *operands[1:]]  # `(−1.5)**3`
    return apply_op(op, operands, " + ", " × ")


def apply_op(op: str, operands: list[str], plus: str, times: str) -> str:
    """An op over its operands' words, `plus` and `times` between the terms of `+` and `*`."""
    if len(operands) == 1 and op in ("+", "*"):  # a foreign graph's `a + a`, deduplicated
        return f"{op}({operands[0]})"
    if op == "+":
        return plus.join(operands)
    if op == "*":
        return times.join(operands)
    if op.startswith("**") and len(operands) == 1:
        return f"{operands[0]}{op}"
    if len(operands) == 2 and op == "**":  # another engine's Value exponent (`ops.INFIX`)
        return f"{operands[0]}**{operands[1]}"
    if len(operands) == 2 and (op == "-" or op == "/"):  # another engine's own (`ops.INFIX`)
        between = f" {MINUS if op == '-' else op} " if plus.startswith(" ") else op
        return between.join(operands)
    return f"{op}({', '.join(operands)})"


class Said(NamedTuple):
    """In place of a frame's text, when the page writes it (`engine.trace_columns`): the
    blanks of a build's sentence that the trace does not hold, else nothing."""

    symbolic: str | None = None  # `built_named`'s `{symbolic}`
    swapped: bool = False  # the program wrote a product's operands the other way: `2*a`
    # A real program's: the numbers the text would hold (a build's data, then its
    # operands'; a rule's gradient where it added nothing), which the encoder checks
    # against the page's replay and writes the text itself where they differ.
    numbers: tuple[float, ...] | None = None


SAID = Said()


def _template(sentence: Callable[..., str]) -> str:
    """The sentence with each parameter's name in braces where its words go; a
    parameter with a default is no blank of the page's (the default stays in the words)."""
    parameters = inspect.signature(sentence).parameters.values()
    return sentence(*(f"{{{p.name}}}" for p in parameters if p.default is inspect.Parameter.empty))


SENTENCES: dict[str, str] = {
    sentence.__name__: _template(sentence)
    for sentence in (
        built,
        built_bare,
        built_named,
        sorted_nodes,
        leaf_rule,
        rule_ran,
        first_add,
        held_add,
        later_add,
    )
}
