"""The one-sentence `text` of each frame: which rule ran, with the numbers.

Pure string work over nodes and numbers; it decides nothing about the trace itself.
Numbers are shown to 4 significant digits (the trace keeps full precision).

Example: a `*` node's backward text reads
`x1*w1 (*, grad 0.5): multiply by the other factor. x1.grad += -3 × 0.5 → -1.5; ...`.
"""

from __future__ import annotations

from backprop_animator.engine.ops import CALL, lookup
from backprop_animator.engine.text import clean_text
from backprop_animator.engine.value import Value

MAX_DERIVED_NAME = 24
# Longer labels are cut in the text (the node keeps its full label): every frame that
# mentions a node repeats its name, so a long label used by many nodes would otherwise
# turn a 100 kB program into hundreds of megabytes of narration.
MAX_LABEL_IN_TEXT = 40

ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
# What a rule from another engine (`engine.foreign`) did, when its op is not ours.
MEASURED_RULE = "a rule of its own engine; its effect on each child was measured"


def fmt(x: float) -> str:
    """Short display of a number: `fmt(0.04289321881345) -> '0.04289'`, `fmt(2.0) -> '2'`."""
    text = f"{x:.4g}"
    return "0" if text == "-0" else text


def shorten(label: str) -> str:
    """A label as the text shows it: `shorten("x" * 50) -> "xxx…"` (40 characters)."""
    label = clean_text(label)
    if len(label) <= MAX_LABEL_IN_TEXT:
        return label
    return label[: MAX_LABEL_IN_TEXT - 1] + "…"


def ordinal(n: int) -> str:
    """`ordinal(2) -> '2nd'`, `ordinal(11) -> '11th'`, `ordinal(22) -> '22nd'`."""
    suffix = "th" if n % 100 in (11, 12, 13) else ORDINAL_SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"


def rule_text(op: str) -> str:
    """What a node's rule does, in words: `rule_text("**-1") -> 'local derivative k·x^(k−1)'`.

    Ops from other engines are matched case-insensitively (micrograd's `ReLU`); any
    other op gets a sentence that says its rule was watched, not known.
    """
    entry = lookup(op) or lookup(op.lower())
    return entry.rule if entry is not None else MEASURED_RULE


class Names:
    """How each node is called in the text: its label, else its number or its expression.

    Unlabelled op nodes get a name derived from their operands (`n*2`, `den**-1`) while
    that stays short, and otherwise `the * node`. Names and data are formatted once.
    """

    def __init__(self) -> None:
        self._names: dict[Value, str] = {}
        self._data: dict[Value, str] = {}
        self._symbolic: dict[Value, str | None] = {}
        # Nodes called `the * node` for want of a short name; a label may start with
        # "the " too, so this is remembered rather than read back from the text.
        self._unnamed: set[Value] = set()

    def __call__(self, node: Value) -> str:
        name = self._names.get(node)
        if name is None:
            name = self._names[node] = self._derive(node)
        return name

    def data(self, node: Value) -> str:
        text = self._data.get(node)
        if text is None:
            text = self._data[node] = fmt(node.data)
        return text

    def _derive(self, node: Value) -> str:
        if node.label:
            return shorten(node.label)
        if not node._prev:
            return self.data(node)
        derived = self.symbolic(node)
        if derived is None or len(derived) > MAX_DERIVED_NAME:
            self._unnamed.add(node)
            return f"the {node._op} node"
        return derived

    def symbolic(self, node: Value) -> str | None:
        """The op over its operands' names (`(a+b)*c`), or None if an operand has no short
        name. Operands are bracketed only where precedence needs it."""
        if node not in self._symbolic:
            self._symbolic[node] = self._symbolic_uncached(node)
        return self._symbolic[node]

    def _symbolic_uncached(self, node: Value) -> str | None:
        outer = _op_precedence(node._op)
        # `**` groups from the right, so an equal-precedence base needs brackets too.
        power = node._op.startswith("**")
        operands = []
        for i, child in enumerate(node._prev):
            text = self(child)
            if child in self._unnamed:
                return None
            inner = _precedence(child)
            tie_needs_brackets = i > 0 or power
            if outer < CALL and (inner < outer or (inner == outer and tie_needs_brackets)):
                text = f"({text})"
            operands.append(text)
        return _apply(node._op, operands, "+", "*")

    def numeric(self, node: Value) -> str:
        """The op over its operands' data: `2 × -3`, `tanh(0.8814)`, `(-3)**2`."""
        operands = [self.data(child) for child in node._prev]
        if node._op.startswith("**") and operands[0].startswith("-"):
            operands[0] = f"({operands[0]})"
        return _apply(node._op, operands, " + ", " × ")


def _apply(op: str, operands: list[str], plus: str, times: str) -> str:
    if len(operands) == 1 and op in ("+", "*"):  # a foreign graph's `a + a`, deduplicated
        return f"{op}({operands[0]})"
    if op == "+":
        return plus.join(operands)
    if op == "*":
        return times.join(operands)
    if op.startswith("**"):
        return f"{operands[0]}{op}"
    return f"{op}({', '.join(operands)})"


def _precedence(node: Value) -> int:
    """Binding strength of how a node is written: labels and leaves bind tightest."""
    if node.label or not node._prev:
        return 5
    return _op_precedence(node._op)


def _op_precedence(op: str) -> int:
    entry = lookup(op)
    return entry.precedence if entry is not None else CALL


def build_text(node: Value, name: Names) -> str:
    parts = [name(node)]
    symbolic = name.symbolic(node)
    if symbolic is not None and symbolic != parts[0]:
        parts.append(symbolic)
    parts += [name.numeric(node), name.data(node)]
    return " = ".join(parts)


def sort_text(output: Value, count: int, name: Names) -> str:
    return (
        f"Depth-first sort: {count} {'node' if count == 1 else 'nodes'}, each after its children. "
        f"Seed {name(output)}.grad = 1, then walk the order backwards."
    )


def backward_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    received: dict[Value, int],
) -> str:
    """Say what one `_backward` did; `received` counts the `+=`s each child got so far."""
    if not node._prev:
        what = "constant" if node._const else "leaf"
        return f"{name(node)} is a {what}: its rule does nothing. grad = {fmt(node.grad)}."
    rule = rule_text(node._op)
    upstream = fmt(node.grad)
    steps = []
    for child, local, delta, before in contributions:
        received[child] = count = received.get(child, 0) + 1
        step = f"{name(child)}.grad += {fmt(local)} × {upstream}"
        if count == 1:
            step += f" → {fmt(before + delta)}"
        else:
            total = f"{fmt(before)} + {fmt(delta)} = {fmt(before + delta)}"
            step += f"; {ordinal(count)} +=, sum {total}"
        steps.append(step)
    return f"{name(node)} ({node._op}, grad {upstream}): {rule}. " + "; ".join(steps) + "."


def underflow_text(children: list[Value], name: Names) -> str:
    """The note on a backward step whose `+=` lost a number to underflow.

    Example: `" Underflow: the amount for den is too small for a float and became 0 (or
    lost digits); the maths is exact, floating point is not."`
    """
    names = ", ".join(dict.fromkeys(name(child) for child in children))
    return (
        f" Underflow: the amount for {names} is too small for a float and became 0 "
        "(or lost digits); the maths is exact, floating point is not."
    )
