"""The right engine beside a learner's own (SPEC §14).

A program that defines its own Value-like class runs its own rules, and the trace shows
what they did. Beside them this module runs a correct engine over the same graph: the
same ops (by `_op`), the same data, the registry's local derivatives (`engine.ops`),
`+=` into every child, the rules in a proper topological order, one seed of 1.0 per
pass. What it gives each node is the node's `correct_grad`; where the learner's engine
parts from it, the page marks the node and `engine_check` says which rule, sort or
accumulation is to blame.

An op the registry does not have (`-`, `/`, `sin`, …) is differentiated numerically: the
central difference quotient of the op's output with respect to each input, h = 1e-6
relative, from the op's plain-number function in `NUMERIC_OPS`. An op in neither table
is differentiated so from the learner's own code where a re-run of the call that made
its node found it (`engine.lab.op_rerun`, `RERUN_LOCALS`); else it has no right local
derivative: that node's children (and everything the gradient reaches through them)
get no `correct_grad`; nor does a node whose right gradient
overflows the float range (strict JSON has no infinity).

At a kink (relu or abs of exactly 0: `KINKS`) any subgradient is a right local
derivative; where the learner's rule ran there with a factor in the range, read off its
code, the right engine takes it (`take_kink`), else micrograd's 0.

Example: for `a * a` with `a.data == 3` the right locals are [(a, 3.0), (a, 3.0)]: the
rule adds twice, and a right engine's `a.grad` is 6.
"""

from __future__ import annotations

import ast
import math
import re
import sys
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import cache
from typing import Any

from backprop_animator.engine.interpreter.runtime import ProgramError
from backprop_animator.engine.limits import ENV_NAMES, past_deadline
from backprop_animator.engine.ops import (
    FORMULA_FUNCTIONS,
    OPS,
    is_other_power,
    is_written_exp,
    op_key,
)
from backprop_animator.engine.value import Value

# Relative agreement of two local derivatives or gradients (SPEC §14).
TOLERANCE = 1e-6
# The central difference's step, relative to the input (1e-6 for an input of 0).
NUMERIC_STEP = 1e-6


def _minus(*xs: float) -> float:
    return -xs[0] if len(xs) == 1 else xs[0] - xs[1]


# Plain-number functions of ops the registry does not have, by op and operand count.
NUMERIC_OPS: dict[tuple[str, int], Callable[..., float]] = {
    ("-", 1): _minus,
    ("-", 2): _minus,
    ("neg", 1): lambda x: -x,
    ("/", 2): lambda x, y: x / y,
    ("**", 2): lambda x, y: x**y,
    ("sin", 1): math.sin,
    ("cos", 1): math.cos,
    ("sqrt", 1): math.sqrt,
    ("abs", 1): abs,
    ("square", 1): lambda x: x * x,
    ("softplus", 1): lambda x: math.log1p(math.exp(x)),
    # Activations and functions learners add as ops of their own, judged numerically
    # (each only where it reproduces the node's data: GELU's tanh approximation does not).
    ("silu", 1): lambda x: x / (1 + math.exp(-x)),
    ("swish", 1): lambda x: x / (1 + math.exp(-x)),
    ("elu", 1): lambda x: x if x > 0 else math.expm1(x),
    ("gelu", 1): lambda x: 0.5 * x * (1 + math.erf(x / math.sqrt(2))),
    ("softsign", 1): lambda x: x / (1 + abs(x)),
    ("log10", 1): math.log10,
    ("log2", 1): math.log2,
    ("sinh", 1): math.sinh,
    ("cosh", 1): math.cosh,
    ("tan", 1): math.tan,
    ("atan", 1): math.atan,
    ("arctan", 1): math.atan,
    # PyTorch's default slope; a learner's other slope does not reproduce the node's data.
    ("leaky_relu", 1): lambda x: x if x > 0 else 0.01 * x,
    ("leakyrelu", 1): lambda x: x if x > 0 else 0.01 * x,
    ("max", 2): max,
    ("maximum", 2): max,
    ("min", 2): min,
    ("minimum", 2): min,
}
# Ops of two operands with a kink where the two are equal (or within a difference's
# step): there any split of the gradient is a right one, so no use there is judged.
TIED_OPS = frozenset({"max", "maximum", "min", "minimum"})


def _dot(*xs: float) -> float:
    """`dot(ws, xs)` with its operands `ws + xs`: the first half times the second; NaN
    (reproducing no node's data) for an odd count."""
    half, odd = divmod(len(xs), 2)
    return math.nan if odd else math.fsum(a * b for a, b in zip(xs[:half], xs[half:], strict=True))


# Ops of any number of operands the registry does not have (an engine's own `mean`),
# trusted as the others are only where they reproduce the node's data.
NARY_NUMERIC_OPS: dict[str, Callable[..., float]] = {
    "mean": lambda *xs: math.fsum(xs) / len(xs),
    "dot": _dot,
}


def _numeric_function(op: str, count: int) -> Callable[..., float] | None:
    """The plain-number function of an op of `count` operands, by either table, or a
    number to the power of its one operand (`_number_to_the_power`)."""
    found = NUMERIC_OPS.get((op, count)) or NUMERIC_OPS.get((op.lower(), count))
    if found is None and count > 0:
        found = NARY_NUMERIC_OPS.get(op.lower())
    if found is None and count == 1:
        found = _number_to_the_power(op)
    return found


def _number_to_the_power(op: str) -> Callable[[float], float] | None:
    """A number to the power of a node's one operand, written as a learner's `__rpow__`
    writes its op (`f'{other}**'`: `2**` for `2 ** x`), trusted as every numeric op is,
    only where it reproduces the node's data; None for any other op.

    Example: `_number_to_the_power("2**")(3.0) == 8.0`; `_number_to_the_power("**2")`
    is None (that is `x ** 2`, the registry's).
    """
    if len(op) < 3 or not op.endswith("**"):
        return None
    try:
        base = float(op[:-2])
    except ValueError:
        return None
    return lambda x: base**x


Locals = list[tuple[Value, float]]

# An op named in words (`"add"`, `"Mul"`, `"__pow__"`: how many engines name them) is the
# registry's op of that meaning, still trusted only where it reproduces the node's data.
OP_WORDS: dict[str, str] = {
    "add": "+",
    "addition": "+",
    "plus": "+",
    "sum": "+",
    "mul": "*",
    "mult": "*",
    "times": "*",
    "multiply": "*",
    "multiplication": "*",
    "prod": "*",
    "product": "*",
    "sub": "-",
    "minus": "-",
    "subtract": "-",
    "subtraction": "-",
    "div": "/",
    "truediv": "/",
    "divide": "/",
    "division": "/",
    "pow": "**",
    "power": "**",
    "exponentiation": "**",
    "negate": "neg",
    "ln": "log",  # the natural log, as many engines name it (`Value(math.log(x), (self,), 'ln')`)
}


# Ops written with the symbols of print rather than Python's (a notebook's `'×'` for its
# `__mul__`, `f'^{k}'` for its `__pow__`), by symbol; a power's exponent follows its `^`.
OP_SYMBOLS: dict[str, str] = {"×": "*", "·": "*", "⋅": "*", "÷": "/", "−": "-", "^": "**"}


# A power named in a word with its exponent after it (`f'pow {k}'`, `f'pow({k})'`,
# `f'Pow_{k}'`, `f'power{k}'`): the word, then the exponent, a number. Each part can
# match a text one way only (`\d+\.?\d*` could split a run of digits n ways: failing
# on `'pow ' + '1' * 9990 + 'x'` took 4.5 s of C, which no deadline stops), and an op
# longer than `MAX_WORDED_POWER` is none. (A trace's ops are cut at 100 characters
# before they get here, `recorder.MAX_LABEL`: this is the reader's own bound.)
WORDED_POWER = re.compile(
    r"_*(pow|power)[ _:^(]*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\)?", re.IGNORECASE
)
MAX_WORDED_POWER = 64


def _worded_power_match(op: str) -> re.Match[str] | None:
    return WORDED_POWER.fullmatch(op) if len(op) <= MAX_WORDED_POWER else None


def worded_power(op: str) -> str | None:
    """The word of a power named in a word with its exponent (`worded_power("pow 3") ==
    "pow"`, `worded_power("Pow(-1)") == "Pow"`), else None (`"pow"` alone, `"**3"`)."""
    found = _worded_power_match(op)
    return found.group(1) if found is not None else None


def registry_op(op: str) -> str:
    """The op as the tables here name it: `registry_op("Mul") == "*"`,
    `registry_op("__add__") == "+"`, `registry_op("×") == "*"`, `registry_op("^2") ==
    "**2"`, `registry_op("pow 3") == "**3"`; any other op as it is (each trusted only
    where it reproduces the node's data, `right_locals`)."""
    if not op or (not op[0].isalpha() and op[0] != "_"):
        symbol = OP_SYMBOLS.get(op[:1])
        if symbol is None or (len(op) > 1 and symbol != "**"):
            return op
        return symbol + op[1:]
    worded = _worded_power_match(op)
    if worded is not None:
        return "**" + worded.group(2)
    return OP_WORDS.get(op.strip("_").lower(), op)


def agrees(a: float, b: float) -> bool:
    """Whether two numbers agree within `TOLERANCE`, relative (absolute near 0)."""
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def sum_rounding(before: float, after: float) -> float:
    """How far `after - before` may be from the amount a `+=` added, by the rounding of
    the sum alone: a share of 1e-11 added to a gradient of 7.4 keeps only four digits in
    the difference, so a factor measured from it is only as good as this."""
    return ROUNDING * max(abs(before), abs(after))


ROUNDING = 4 * sys.float_info.epsilon  # `sum_rounding`'s factor (a power of 2)


def right_locals(node: Value, operands: Sequence[Value]) -> tuple[Locals, str] | None:
    """The right local derivative of `node` for each operand position, and where it
    comes from (`"registry"` or `"numeric"`); None for an op in neither table or a
    derivative that cannot be computed here (log of a negative number)."""
    if not operands:
        return [], "registry"
    op = node._op
    if op != "+" and op != "*":  # (the usual ops, which `registry_op` gives as they are)
        op = registry_op(op)
    if op == "**" and len(operands) == 1:  # `"pow"` of one operand: its exponent unsaid
        op = _power_found(operands[0].data, node.data)
    elif len(operands) == 2 and op.startswith("**") and _is_exponent(op[2:], operands[1].data):
        if operands[1]._prev:
            # An exponent made of the graph (`math.e ** (2 * z)` through `__rpow__`, its
            # op written `**2.0`): `x ** y`, both shares judged
            op = "**"
        else:
            # `x ** k` that keeps k, wrapped, as its second operand: x's share is judged,
            # not k's (a constant to most rules, which hand it 0; to some, x^k·ln x), k
            # has no right gradient (`RightEngine.run_pass`: fewer locals than operands)
            found = _registry_locals(registry_op(op), node.data, operands[:1])
            return None if found is None else (found, "registry")
    if len(operands) == 2 and (op == "+" or op == "*"):
        return _sum_or_product_locals(op, node.data, operands)
    try:
        if not _reproduces(op, float(node.data), operands):
            return None  # the op's name does not say what the learner's code computed
        found = _registry_locals(op, node.data, operands)
        if found is not None:
            return found, "registry"
        found = _numeric_locals(op, operands)
        if found is None:
            return _rerun_locals(node, operands)
        # A move of ±h can take `x ** y` to a complex number: no real derivative there,
        # nor where the difference is lost in its rounding (NaN, `drowned`). Where some
        # operands have one (the base of `x ** y` at a negative x, whose exponent has
        # none: x**y · ln x), theirs are kept; the others have no right gradient
        # (`RightEngine.run_pass`) and no share to judge (`engine_check`).
        real = [(child, local) for child, local in found if _real(local)]
        if not real:
            return None
        found = real
    except (ArithmeticError, ValueError, TypeError):
        return None
    return found, "numeric"


# The local derivatives of nodes whose op no table knows, found by running the call that
# made each node again (`engine.lab.op_rerun`), while a finished run's right engine and
# checks read them (`Recorder.finish`); None elsewhere.
RERUN_LOCALS: ContextVar[dict[Value, Locals] | None] = ContextVar("rerun_locals", default=None)


def _rerun_locals(node: Value, operands: Sequence[Value]) -> tuple[Locals, str] | None:
    """`right_locals` of a node no table knows, where a re-run of its call found them."""
    found = RERUN_LOCALS.get()
    if not found or node not in found:
        return None
    held = node._prev
    if operands is not held and (
        len(operands) != len(held) or any(a is not b for a, b in zip(operands, held, strict=False))
    ):
        return None  # (the operands as the op took them, before a set merged two)
    return found[node], "numeric"


_KNOWN: dict[tuple[str, int], bool] = {}


def table_knows(op: str, count: int) -> bool:
    """Whether the registry or the numeric table has a rule for `op` of `count` operands
    (by its name alone: whether it reproduces a node's data is `right_locals`' to say);
    cached by op. Example: `table_knows("tanh", 1)` is True, `table_knows("cube", 1)`
    False."""
    known = _KNOWN.get((op, count))
    if known is None:
        known = _table_knows(op, count)
        if len(_KNOWN) < 4096 and len(op) <= 100:
            _KNOWN[(op, count)] = known
    return known


def _table_knows(op: str, count: int) -> bool:
    named = registry_op(op)
    if named in ("+", "*"):
        return True
    key = op_key(named)
    if count == 1 and (key in OPS or key.lower() in OPS) and not is_other_power(named):
        return True
    return _numeric_function(named, count) is not None


def keeps_exponent(op: str, exponent: Any) -> bool:
    """Whether a node of `op` whose second operand is a leaf numbered `exponent` is `x ** k`
    keeping k, wrapped, as that operand: `right_locals` answers it from the registry, by
    `op`'s name and that number alone. Example: `keeps_exponent("**2", 2.0)` is True,
    `keeps_exponent("**2", 3.0)` and `keeps_exponent("cube", 3.0)` False."""
    named = registry_op(op)
    return named.startswith("**") and _is_exponent(named[2:], exponent)


def _is_exponent(text: str, number: Any) -> bool:
    """Whether `number` is the exponent `text` of a `**k` op (`"2"`, `"-1"`)."""
    try:
        return float(text) == float(number)
    except (ValueError, TypeError, OverflowError):
        return False


def _real(local: Any) -> bool:
    """A finite real number (`math.isfinite` raises on a complex one)."""
    return not isinstance(local, complex) and math.isfinite(local)


# Ops with a kink: at that input they have no derivative, and any number of the range
# (a subgradient) is a right local derivative. `right_locals` gives micrograd's choice
# there (relu's 0; abs's 0, its central difference); where a learner's rule ran at the
# kink with a factor in the range, the right engine takes the learner's (`take_kink`).
# By op: (the input at the kink, the range's low end, its high end): the registry's
# (`Op.kink`), and `abs` and leaky relu, no ops of the registry's (numeric rules').
KINKS: dict[str, tuple[float, float, float]] = {
    **{key: op.kink for key, op in OPS.items() if op.kink is not None},
    "abs": (0.0, -1.0, 1.0),
    "leaky_relu": (0.0, 0.01, 1.0),
    "leakyrelu": (0.0, 0.01, 1.0),
}


def kink_range(node: Value, operands: Sequence[Value]) -> tuple[float, float] | None:
    """The range of right local derivatives where `node`'s op is at its kink (relu or
    abs of exactly 0: `(0.0, 1.0)`, `(-1.0, 1.0)`), else None."""
    if len(operands) != 1:
        return None
    kink = KINKS.get(registry_op(node._op).lower())
    if kink is None:
        return None
    try:
        at = float(operands[0].data) == kink[0]
    except (ArithmeticError, ValueError, TypeError):
        return None
    return (kink[1], kink[2]) if at else None


def in_kink_range(local: float, low: float, high: float) -> bool:
    """Whether a local derivative is in a kink's range (within `TOLERANCE`)."""
    return low - TOLERANCE <= local <= high + TOLERANCE


def take_kink(
    node: Value, found: tuple[Locals, str] | None, learner: Sequence[tuple[Value, float | None]]
) -> tuple[tuple[Locals, str] | None, bool]:
    """`found` (the node's `right_locals`), with the learner's factor in its place where the
    node is at its op's kink and the learner's rule wrote its one operand a factor in the
    range, read off the code (`learner`: each write's child and factor, None where it was
    not read off): any subgradient is right there. And whether it was taken: micrograd's
    choice stays where the rule wrote no factor that can be read, or one out of the range.

    Example: relu of exactly 0, a rule `self.grad += (self.data >= 0) * out.grad`:
    `take_kink(h, ([(x, 0.0)], "registry"), [(x, 1.0)]) == (([(x, 1.0)], "registry"), True)`.
    """
    if found is None or not learner:
        return found, False
    locals_, reference = found
    kink = kink_range(node, node._prev)
    if kink is None or len(locals_) != 1:
        return found, False
    child = locals_[0][0]
    total = 0.0
    for to, local in learner:
        if to is not child or local is None:
            return found, False
        total += local
    if not in_kink_range(total, *kink) or total == locals_[0][1]:
        return found, False
    return ([(child, total)], reference), True


# The exponents a power without its exponent in its op may be found to have.
_EXPONENTS = (2, 3, -1, 0.5, 4, -2, -0.5, 5, 6, 1.5, -3, 7, 8, 9, 10, -4, 2.5)


def _power_found(base: Any, out: Any) -> str:
    """`"**k"` for the one exponent k of `_EXPONENTS` that takes `base` exactly to `out`
    (`x ** 2` for `(-1.4, 1.96)`), else `"**"` (none, or several: a base of 0, 1 or -1
    says nothing of k). A power whose op names no exponent is judged only where the
    numbers leave no doubt what it was."""
    try:
        x, y = float(base), float(out)
        found = [k for k in _EXPONENTS if x != 0 and _exactly(x**k, y)]
    except (ArithmeticError, ValueError, TypeError):
        return "**"
    return f"**{found[0]}" if len(found) == 1 else "**"


def _exactly(value: Any, data: float) -> bool:
    return type(value) is float and abs(value - data) <= 1e-12 * max(1.0, abs(data))


def _sum_or_product_locals(
    op: str, out: Any, operands: Sequence[Value]
) -> tuple[Locals, str] | None:
    """`right_locals` of the usual node, `a + b` or `a * b`: what `_reproduces` and
    `_registry_locals` find for it, without their general walk (`sum` and `math.prod`
    of two floats are `a + b` and `a * b` but for the sign of a zero, which no
    comparison here sees)."""
    first, second = operands
    try:
        a = float(first.data)
        b = float(second.data)
        data = float(out)
    except (ArithmeticError, ValueError, TypeError):
        return None
    expected = a + b if op == "+" else a * b
    if expected != data and not abs(expected - data) <= 1e-9 * max(1.0, abs(expected), abs(data)):
        return None  # the op's name does not say what the learner's code computed
    if op == "+":
        return [(first, 1.0), (second, 1.0)], "registry"
    return [(first, b), (second, a)], "registry"


def _forward(op: str, operands: Sequence[Value]) -> float | None:
    """The op's output from its operands' data, as the registry or the numeric table
    computes it; None for an op neither has."""
    data = [float(child.data) for child in operands]
    if op == "+":
        return math.fsum(data) if len(data) > 2 else sum(data)
    if op == "*":
        return math.prod(data)
    key = op_key(op)
    if key == "**" and not is_other_power(op) and len(data) == 1:
        result = data[0] ** float(op[2:])
        return None if isinstance(result, complex) else float(result)
    entry = OPS.get(key) or OPS.get(key.lower())
    if entry is not None and entry.number is not None and len(data) == 1:
        return float(entry.number(data[0]))
    function = _numeric_function(op, len(data))
    return None if function is None else float(function(*data))


def _reproduces(op: str, data: float, operands: Sequence[Value]) -> bool:
    """Whether the op, applied to the operands in their order, gives the node's data:
    the right engine trusts `_op` only then (a `__rsub__` that made `other - self` with
    operands `(self, other)` is not `self - other`). An op neither table has passes:
    it has no right rule anyway."""
    if len(operands) < 2 and op in ("+", "*"):
        return True  # judged by `_registry_locals` (an operand went missing)
    expected = _forward(op, operands)
    if expected is None:
        return True
    return abs(expected - data) <= 1e-9 * max(1.0, abs(expected), abs(data))


def row_op(op: str, data: float, operands: Sequence[Value]) -> str:
    """The op a node's rule is checked under, its row: the registry's key (`op_key`), but
    an exp written with its exponent in its op (`e^0.5`) only where the node is e to its
    one operand; another (`f'e^{-self.data}'`, e to minus it) keeps its op as written, a
    row of its own, which no right rule judges."""
    if is_written_exp(op) and (len(operands) != 1 or not _reproduces(op, data, operands)):
        return op
    return op_key(op)


def _registry_locals(op: str, out: float, operands: Sequence[Value]) -> Locals | None:
    if (op == "+" or op == "*") and len(operands) == 1:
        return _by_a_number(op, out, operands[0])
    if op == "+":
        return [(child, 1.0) for child in operands]
    data = [float(child.data) for child in operands]
    if op == "*":
        # A product of n factors: each child's local derivative is the others' product.
        return [(child, math.prod(data[:i] + data[i + 1 :])) for i, child in enumerate(operands)]
    if is_other_power(op):
        return None
    key = op_key(op)
    entry = OPS.get(key) or OPS.get(key.lower())
    if entry is None or len(operands) != 1:
        return None
    k = float(op[2:]) if key == "**" else 0.0
    formula = _formula(entry.local.value)
    return [(operands[0], formula(float(out), data[0], data[0], k))]


def _by_a_number(op: str, out: float, operand: Value) -> Locals | None:
    """The right local derivative of a sum or product of one operand: the op of a plain
    number the node keeps nowhere (`Value(self.data * k, (self,), '*')` in a `scale(k)`),
    or of an operand a set merged with an equal one (`_prev = set(_children)` of a class
    that hashes by value). A sum's is 1; a product's is the number, out / operand, where
    the operand is not 0 (else unknown: no number times 0 tells what it was). Unknown
    too where the node is its operand added to or times itself (`out._prev.add(self)`
    twice makes `x + x` and `x * x` a set of one): its derivative is then 2 or 2x, not 1
    or x, and nothing tells the two apart.

    Example: `_by_a_number("*", 6.0, x)` with `x.data == 2.0` is `[(x, 3.0)]`; with
    `x.data == 6.0 ** 0.5` it is None.
    """
    try:
        x, data = float(operand.data), float(out)
    except (ArithmeticError, ValueError, TypeError):
        return None
    itself = x + x if op == "+" else x * x
    if abs(itself - data) <= 1e-9 * max(1.0, abs(itself), abs(data)):
        return None
    if op == "+":
        return [(operand, 1.0)]
    factor = data / x if x else math.nan
    return [(operand, factor)] if math.isfinite(factor) else None


# How many operands a numeric rule's op may have before its differences read the clock.
NUMERIC_UNTIMED = 64


def _numeric_locals(op: str, operands: Sequence[Value]) -> Locals | None:
    function = _numeric_function(op, len(operands))
    if function is None:
        return None
    data = [float(child.data) for child in operands]
    if op.lower() in TIED_OPS and abs(data[0] - data[1]) <= NUMERIC_STEP * max(
        1.0, abs(data[0]), abs(data[1])
    ):
        return None  # a tie: `max(a, a)` has no derivative, any split is right
    found: Locals = []
    # Each operand's difference costs the whole op (an n-ary `mean` or `dot`: n² in
    # all, charging no steps), so a big node reads the clock once per operand.
    timed = len(data) > NUMERIC_UNTIMED
    for i, child in enumerate(operands):
        if timed and past_deadline():
            raise ProgramError(
                f"the right engine's derivatives of a {op} of {len(data):,} operands took "
                "too long: each operand's costs the whole op (set "
                f"{ENV_NAMES['time_limit']} to change the time limit)"
            )
        h = NUMERIC_STEP * abs(data[i]) or NUMERIC_STEP
        up, down = list(data), list(data)
        up[i] += h
        down[i] -= h
        high, low = function(*up), function(*down)
        local = (high - low) / (2 * h)
        if _real(local) and drowned(local, max(abs(high), abs(low)), h):
            local = math.nan  # (no derivative known: `right_locals` keeps no share of it)
        found.append((child, local))
    return found


# How far, relative, a numeric derivative's rounding may leave it (`numeric_rounding`)
# and still be a right engine's: three digits. Beyond, the difference quotient is noise.
NUMERIC_RESOLVED = 1e-3


def drowned(local: float, scale: float, h: float) -> bool:
    """Whether a central difference of step `h` of values about `scale` is lost in their
    rounding: a softplus at x = 1e-10 (h = 1e-16, f ≈ 0.69) is 0 or about 1, where its
    derivative is 0.5, and its rounding slack (about 3) let any rule pass. At 2.74e-6 it
    is known to about 1e-4, and judged within that."""
    return ROUNDING * scale / (2 * h) > NUMERIC_RESOLVED * max(1.0, abs(local))


def numeric_rounding(node: Value, child: Value) -> float:
    """How far `child`'s local derivative of `node` may be off by the rounding of its
    central difference alone, where the right engine took it numerically (0 where the
    registry gives it): f(x ± h) are rounded to f's precision, and h is 1e-6 of x, so a
    softplus at x = 2.74e-6 (f ≈ 0.69, h ≈ 3e-12) is known only to about 1e-4 — a right
    rule there agrees with what was measured within this, not within 1e-6.

    Example: `numeric_rounding(Value(0.69, (x,), "softplus"), x)` with `x.data ==
    2.74e-6` is about 1.1e-4 (`ROUNDING` × 0.69 / 2h); of a `*` node it is 0.
    """
    found = right_locals(node, node._prev)
    if found is None or found[1] != "numeric":
        return 0.0
    rounding = 0.0
    for operand in node._prev:  # (each position `child` holds: `x / x`)
        if operand is child:
            h = NUMERIC_STEP * abs(float(child.data)) or NUMERIC_STEP
            rounding += ROUNDING * abs(float(node.data)) / (2 * h)
    return rounding


@cache
def _formula(text: str) -> Callable[[float, float, float, float], float]:
    """A registry formula's `value` as a function of (out, child, other, k).

    The formulas are the registry's own constants (engine.ops), never a program's, and
    each is checked here against the grammar the module doc of engine.ops gives
    (numbers, those four names, + - * / **, `>`, brackets, `FORMULA_FUNCTIONS`) before
    it is made a Python function once, so a right pass costs what a Value method costs.
    """
    names = {"out", "child", "other", "k", *FORMULA_FUNCTIONS}
    allowed = (
        ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Name, ast.Load,
        ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.Gt,
    )  # fmt: skip
    for node in ast.walk(ast.parse(text, mode="eval")):
        if not isinstance(node, allowed) or (isinstance(node, ast.Name) and node.id not in names):
            raise ValueError(f"not a registry formula: {text}")
    namespace: dict[str, object] = {"__builtins__": {}, "float": float}
    namespace.update({name: getattr(math, name) for name in FORMULA_FUNCTIONS})
    function = eval(f"lambda out, child, other, k: float({text})", namespace)
    return function  # type: ignore[no-any-return]


class RightEngine:
    """Runs the right engine after each pass of a learner's engine, carrying its
    gradients from pass to pass as the learner's program carries its own."""

    def __init__(self) -> None:
        self.grads: dict[Value, float] = {}  # the right engine's, after the last pass
        self.unknown: set[Value] = set()  # nodes with no right gradient
        # Nodes whose gradient the program wrote between passes (a zero_grad): the right
        # engine starts the next pass from what the program wrote, as the learner's does.
        self.touched: set[Value] = set()
        self.numeric: set[Value] = set()  # nodes whose op was differentiated numerically
        # Nodes that need no gradient and whose share a rule left out, as of the last pass
        # that reached them: the right engine computes none for them (`run_pass`).
        self.not_required: set[Value] = set()
        # By pass index: each node's right locals, by operand position (`engine_check`).
        self.pass_locals: dict[int, dict[Value, Locals | None]] = {}

    def copy(self) -> RightEngine:
        """A right engine where this one is now (its own tables, the nodes shared)."""
        made = RightEngine()
        made.grads = dict(self.grads)
        made.unknown = set(self.unknown)
        made.touched = set(self.touched)
        made.numeric = set(self.numeric)
        made.not_required = set(self.not_required)
        made.pass_locals = dict(self.pass_locals)
        return made

    def run_pass(
        self,
        index: int,
        output: Value,
        order: list[Value],
        learner_start: dict[Value, float],
        known: dict[Value, tuple[Locals, str] | None],
        skipped: set[Value] | None = None,
        seed: float = 1.0,
    ) -> None:
        """One right pass over `order` (children first, the output last), from the
        learner's gradients as their first rule found them (`learner_start`); `known`
        holds the `right_locals` already found for some nodes in this pass. `skipped`:
        nodes that need no gradient (`requires_grad` false) whose share a rule left out
        (`Recorder.unrequired`): a right engine computes none for them, so none is added
        into them here and they have no right gradient (`not_required`). `seed`: the
        output's gradient as the pass starts, 1 but where the program seeded a pass it
        runs through the objects that made its nodes (`Recorder.holder_pass`) itself."""
        # Where each node starts: where the right engine left it, unless the program wrote
        # the learner's gradient since (zero_grad): then there too, and known from there.
        last, touched, was_unknown = self.grads, self.touched, self.unknown
        grads: dict[Value, float] = {}
        unknown: set[Value] = set()  # of this pass's nodes, those with no right gradient
        for node in order:
            if node in last and node not in touched:
                grads[node] = last[node]
                if node in was_unknown:
                    unknown.add(node)
            elif node in touched:
                grads[node] = learner_start.get(node, 0.0)
                if was_unknown:  # (usually empty: no call)
                    was_unknown.discard(node)
            else:
                # New to the right engine, its gradient never written by the program: a
                # right engine's node starts at 0, whatever the learner's `__init__` gives
                # it (`self.grad = 1`, a bug the learner's own gradients then carry).
                grads[node] = 0.0
        grads[output] = seed
        unknown.discard(output)
        pass_locals: dict[Value, Locals | None] = {}
        numeric = self.numeric
        for node in reversed(order):
            found = known[node] if node in known else right_locals(node, node._prev)
            if found is None:
                pass_locals[node] = None
                unknown.update(node._prev)
                continue
            locals_, reference = found
            pass_locals[node] = locals_
            if reference == "numeric" or len(locals_) < len(node._prev):
                if reference == "numeric":
                    numeric.add(node)
                if len(locals_) < len(node._prev):  # an operand with no real derivative
                    held = {id(child) for child, _ in locals_}
                    unknown.update(
                        c for c in node._prev if id(c) not in held and c not in (skipped or ())
                    )
            upstream = grads[node]
            if skipped:  # (usually None: the usual loop below, unchanged)
                locals_ = [(child, local) for child, local in locals_ if child not in skipped]
            for child, local in locals_:
                if child in grads:
                    grads[child] += local * upstream
            if node in unknown:
                unknown.update([child for child, _ in locals_])
        # A right gradient past the float range (a learner's engine whose own numbers stay
        # finite, a share its wrong rule left out): no number strict JSON can carry, so
        # none, as for an op with no right local derivative; the learner's trace stands.
        # (`not math.isfinite(grad)` without its call: `x - x` is 0.0 for a finite float,
        # NaN, which is true, for inf and NaN; once per node of every pass)
        unknown.update([node for node, grad in grads.items() if grad - grad])
        last.update(grads)
        touched.difference_update(order)
        if was_unknown:
            was_unknown.difference_update(grads)
        self.unknown = was_unknown | unknown
        self.pass_locals[index] = pass_locals
        if skipped or self.not_required:
            self.not_required.difference_update(order)
            self.not_required.update(skipped or ())
