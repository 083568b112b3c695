"""The primitive ops, one entry each: every fact about an op that is not its `Value` method.

The method in `engine/value.py` computes the op and its rule (and its source is what the
code panel shows). Everything else anyone needs to know about the op lives in its `Op`
entry below, and the rest of the product derives from `OPS`:

- the languages (`engine.parse`, `engine.interpreter`): which functions and methods
  exist (`FUNCTIONS`), their plain-number arithmetic, the expanded form;
- the gradient check (`engine.lab.gradcheck`): the plain-number function per node;
- narration (`engine.trace.narrate`): the rule in words, how an op's name binds;
- the code panel's sources (`engine.rules`): the method;
- the page (through the trace's `ops`, `page_facts`): the glyph the graph draws, the
  local derivative the code panel and quiz write out, the quiz's likely slips;
- underflow marks (`engine.trace.underflow`): whether the exact local derivative or result
  can be 0;
- the work estimate (`app.work_estimate`) and the API's descriptions (`app.schemas`).

How to add an op: docs/ADDING_AN_OP.md.

Formulas are written twice on purpose, for two readers: `text` is how the page prints
them (`{out}`, `{child}`, `{other}` stand for those nodes' `.data`, `{k}` and `{k-1}`
for a power's exponent and the exponent less one), `value` is the same in Python syntax
over `out`, `child`, `other`, `k` (numbers, `+ - * / **`, `>` as 1 or 0, brackets and
the functions of `FORMULA_FUNCTIONS`), which the page evaluates for the quiz and the
tests check against the method's own local derivative.

Example: `OPS["tanh"].local.text == "(1 − {out}²)"`, `op_key("**-1") == "**"`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from backprop_animator.engine.value import (
    Value,
    exponent_text,
    plain_sigmoid,
    sigmoid_from_primitives,
    tanh_from_primitives,
)

# The functions a formula's `value` may call (the page's op-facts.js knows the same).
FORMULA_FUNCTIONS = ("exp", "log", "sqrt", "sin", "cos", "tanh")

# How an op's derived name binds (`engine.trace.narrate.Names`): infix ops by their Python
# precedence, a function call (`tanh(n)`) tighter than any of them.
SUM, PRODUCT, POWER, CALL = 1, 2, 3, 4
# Ops the registry does not have that another engine makes of two operands and the
# words write between them (`a-b`, `1.099 − 2`, `x**k` of a Value exponent), by
# precedence: one operand is a call.
INFIX: dict[str, int] = {"-": SUM, "/": PRODUCT, "**": POWER}


@dataclass(frozen=True)
class Formula:
    """A formula for the page: `text` to print, `value` to compute (see the module doc)."""

    text: str
    value: str


@dataclass(frozen=True)
class Op:
    """Everything about one primitive besides its `Value` method's body."""

    key: str  # the trace's `op` (`**` stands for every `**k`)
    method: Callable[..., Any]  # the Value method that makes the node and its rule
    rule: str  # what the rule does, in the frames' words
    local: Formula  # the local derivative of each child
    glyph: str  # what the graph draws in the op's circle or pill
    precedence: int = CALL  # CALL: a function of one Value, `name(x)` and `x.name()`
    # Plain-number arithmetic, for functions called on numbers and the gradient check;
    # None for `**`, whose exponent is part of the op (`**-1`).
    number: Callable[..., float] | None = None
    # `expanded` granularity builds the op from other primitives (SPEC §2).
    expanded: Callable[[Value], Value] | None = None
    # Numbers a learner may multiply by instead of `local`, besides the operands' and
    # the output's data (the quiz names the slip).
    slips: tuple[Formula, ...] = ()
    # For `engine.trace.underflow`: the exact local derivative / result is never 0, so a float
    # 0 (or subnormal) there is an underflow. (`*` and `**k` are judged by their operands.)
    local_never_zero: bool = False
    data_never_zero: bool = False
    # Where the op has no derivative (relu at 0): (that input, the lowest and the highest
    # right local derivative there, a subgradient's range); `local` is micrograd's choice.
    kink: tuple[float, float, float] | None = None

    @property
    def is_function(self) -> bool:
        return self.precedence == CALL


def _relu(x: float) -> float:
    return x if x > 0 else 0.0


OPS: dict[str, Op] = {
    op.key: op
    for op in (
        Op(
            "+",
            Value.__add__,
            "pass the gradient on unchanged",
            Formula("1.0", "1"),
            "+",
            SUM,
            operator.add,
        ),
        Op(
            "*",
            Value.__mul__,
            "multiply by the other factor",
            Formula("{other}", "other"),
            "×",
            PRODUCT,
            operator.mul,
        ),
        Op(
            "**",
            Value.__pow__,
            "local derivative k·x^(k−1)",
            Formula("{k} × {child}**{k-1}", "k * child**(k - 1)"),
            "^{k}",
            POWER,
            slips=(
                Formula("{k} × {child}**{k}", "k * child**k"),  # forgot the − 1
                Formula("{child}**{k-1}", "child**(k - 1)"),  # forgot the k
            ),
        ),
        Op(
            "tanh",
            Value.tanh,
            "local derivative 1 − tanh²",
            Formula("(1 − {out}²)", "1 - out**2"),
            "tanh",
            number=math.tanh,
            expanded=tanh_from_primitives,
            slips=(Formula("1 − {child}²", "1 - child**2"),),  # the input for the output
        ),
        Op(
            "exp",
            Value.exp,
            "local derivative eˣ, the node's own data",
            Formula("{out}", "out"),
            "exp",
            number=math.exp,
            local_never_zero=True,
            data_never_zero=True,
        ),
        Op(
            "relu",
            Value.relu,
            "local derivative 1 if x > 0, else 0",
            Formula("({out} > 0)", "child > 0"),
            "relu",
            number=_relu,
            kink=(0.0, 0.0, 1.0),
        ),
        Op(
            "log",
            Value.log,
            "local derivative 1/x",
            Formula("(1 / {child})", "1 / child"),
            "log",
            number=math.log,
            local_never_zero=True,
        ),
        Op(
            "sigmoid",
            Value.sigmoid,
            "local derivative s·(1 − s)",
            Formula("{out} × (1 − {out})", "out * (1 - out)"),
            "σ",  # noqa: RUF001 (the Greek letter is the point)
            number=plain_sigmoid,
            expanded=sigmoid_from_primitives,
            slips=(Formula("1 − {out}", "1 - out"),),  # forgot the s
        ),
    )
}

# The functions of one Value (`tanh(x)`, `x.tanh()`), in the order errors list them.
FUNCTIONS: tuple[str, ...] = tuple(key for key, op in OPS.items() if op.is_function)
# Functions the `expanded` granularity builds from other primitives.
EXPANDED: frozenset[str] = frozenset(key for key, op in OPS.items() if op.expanded)
# Plain-number arithmetic by op, for every op that has one.
NUMBER_FUNCTIONS: dict[str, Callable[..., float]] = {
    key: op.number for key, op in OPS.items() if op.number is not None
}


def op_key(op: str) -> str:
    """The registry key of a node's op: `op_key("**-1") == "**"`, `op_key("tanh") == "tanh"`,
    and an exp whose op is written with its exponent in it, as `**2` is, `op_key("e^0.5")
    == "exp"` (a learner's `f'e^{self.data}'`; trusted only where it reproduces the
    node's data, as every op of another engine is)."""
    if op.startswith("**"):
        return "**"
    return "exp" if is_written_exp(op) else op


def is_written_exp(op: str) -> bool:
    """An exp whose op is written with its exponent in it (`e^0.5`, `op_key`'s `exp`)."""
    return op.startswith("e^") and len(op) > 2


def is_other_power(op: str) -> bool:
    """Another engine's `**` that is not ours: one whose exponent is not a number in its
    op (`**` alone, `**x`), so an operand like any other (`a ** x` with two children).

    Example: `is_other_power("**") is True`, `is_other_power("**-1.5") is False`.
    """
    if not op.startswith("**"):
        return False
    try:
        float(op[2:])
    except ValueError:
        return True
    return False


def lookup(op: str) -> Op | None:
    """The entry for a node's op, or None for an op we do not have (a foreign engine's)."""
    if is_other_power(op):
        return None
    return OPS.get(op_key(op))


# The op a method of that name makes (`__add__` and `__radd__` make `+`): what a
# program's own class without an op attribute is taken to mean (`Recorder.register_instance`).
def _method_names(op: Op) -> tuple[str, ...]:
    name = op.method.__name__
    return (name, "__r" + name[2:]) if name.startswith("__") else (name,)


OP_OF_METHOD: dict[str, str] = {name: key for key, op in OPS.items() for name in _method_names(op)}
# Ops the right engine knows by their numbers alone (`right_engine.NUMERIC_OPS`): a node
# made by one of these methods, in a class that keeps no op, is that op's.
OP_OF_METHOD |= {"__truediv__": "/", "__sub__": "-", "__neg__": "neg"}
# The same ops as methods named for them (`x.add(y)`, `x.mul(y)`, `x.pow(k)`), as
# tutorials write them before they reach the dunders.
OP_OF_METHOD |= {"add": "+", "mul": "*", "pow": "**", "sub": "-", "div": "/", "neg": "neg"}
# Functions a class or module names for the maths they do, which the registry does not
# have (`def sin(self)`, rad.py's `def sin(x)`): the node they make is that op of the
# program's own, written as a call (`sin(a)`), where it was nameless (`(a)`).
_MATHS_NAMES = (
    "sin", "cos", "tan", "sinh", "cosh", "asin", "acos", "atan", "arcsin", "arccos",
    "arctan", "sqrt", "square", "cube", "exp2", "log2", "log10", "log1p", "expm1",
    "softplus", "softsign", "swish", "silu", "gelu", "elu", "selu", "mish", "leaky_relu",
    "relu6", "hardtanh", "erf", "reciprocal",
)  # fmt: skip
OP_OF_METHOD |= {name: name for name in _MATHS_NAMES if name not in OP_OF_METHOD}


# The op an Enum member's word names (`Op.MUL = 'mul'`, `Op.TANH = auto()`), matched
# case-insensitively: the tutorial words above and the registry's own keys
# (`Recorder.register_instance`); any other word is an op of the program's own.
OP_OF_WORD: dict[str, str] = {
    "add": "+", "mul": "*", "sub": "-", "div": "/", "truediv": "/", "pow": "**", "neg": "neg",
    **{key: key for key in OPS if key != "**"},
}  # fmt: skip


def power_op(exponent: object) -> str:
    """`x ** k`'s op for a plain number k (`**2`, `**-1`), else `**` alone."""
    if type(exponent) is int or type(exponent) is float:
        return f"**{exponent_text(exponent)}"
    return "**"


def op_list() -> str:
    """`+ * tanh exp relu log sigmoid`: the ops a trace's `op` field names (with `**k`)."""
    return " ".join(key for key in OPS if key != "**")


def page_facts(ops: Iterable[str]) -> dict[str, dict[str, Any]]:
    """What the page needs about each op of a trace, by registry key (the trace's `ops`).

    Example: `page_facts(["*"]) == {"*": {"glyph": "×", "local": "{other}", "slips": []}}`.
    Another engine's op is matched case-insensitively, as the narration matches it
    (micrograd's `ReLU` gets relu's facts under its own key); ops we do not have are
    left out: the page draws and words them generically.
    """
    facts: dict[str, dict[str, Any]] = {}
    keys = {op_key(op) for op in ops if not is_other_power(op)}
    for key in sorted(keys, key=lambda key: _registry_order(key.lower())):
        entry = OPS.get(key) or OPS.get(key.lower())
        if entry is not None:
            facts[key] = {
                "glyph": entry.glyph,
                "local": entry.local.text,
                "slips": [{"text": slip.text, "value": slip.value} for slip in entry.slips],
            }
    return facts


_ORDER = {key: i for i, key in enumerate(OPS)}


def _registry_order(key: str) -> int:
    return _ORDER.get(key, len(_ORDER))
