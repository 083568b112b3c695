"""The one-sentence `text` of each frame: which rule ran, with the numbers.

Pure string work over nodes and numbers; it decides nothing about the trace itself.
Numbers are shown as `number_format` shows them, as the page does (the trace keeps full
precision).

Example: a `*` node's backward text reads
`x1*w1 (*, grad 0.5): multiply by the other factor. x1.grad += −3 × 0.5 → −1.5; ...`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from backprop_animator.engine.lab.engine_check import added_other, kept_writes
from backprop_animator.engine.lab.right_engine import kink_range, registry_op, sum_rounding
from backprop_animator.engine.ops import CALL, INFIX, lookup
from backprop_animator.engine.trace.number_format import format_number
from backprop_animator.engine.trace.sentences import (
    SAID,
    Said,
    apply_op,
    built,
    built_bare,
    built_named,
    first_add,
    held_add,
    later_add,
    leaf_rule,
    nodes_word,
    operand,
    rule_ran,
    sorted_nodes,
    worked_out,
)
from backprop_animator.engine.trace.text import clean_text
from backprop_animator.engine.value import NEGATION, WRITTEN_LEFT, Value

MAX_DERIVED_NAME = 24
# Longer labels are cut in the text (the node keeps its full label): every frame that
# mentions a node repeats its name, so a long label used by many nodes would otherwise
# turn a 100 kB program into hundreds of megabytes of narration.
MAX_LABEL_IN_TEXT = 40

ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
# What a rule from another engine (`engine.foreign`) did, when its op is not ours.
MEASURED_RULE = "a rule of its own engine; its effect on each child was measured"


def fmt(x: float) -> str:
    """A number as the learner reads it everywhere: `fmt(0.04289321881345) -> '0.04289'`,
    `fmt(-3.0) -> '−3'` (`number_format.format_number`)."""
    return format_number(x)


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


_ORDINALS = tuple(ordinal(n) for n in range(100))  # the usual counts of `+=`, written once


def rule_text(op: str) -> str:
    """What a node's rule does, in words: `rule_text("**-1") -> 'local derivative k·x^(k−1)'`.

    Ops from other engines are matched case-insensitively (micrograd's `ReLU`), and by
    the words they are named in (a class per op's `Add`, `Mul`); any other op gets a
    sentence that says its rule was watched, not known.
    """
    entry = lookup(op) or lookup(op.lower()) or lookup(registry_op(op))
    return entry.rule if entry is not None else MEASURED_RULE


class Names:
    """How each node is called in the text: its label, else where the program keeps it
    (`kept`, a real program's), else its number or its expression.

    Unlabelled op nodes get a name derived from their operands (`n*2`, `den**-1`) while
    that stays short, and otherwise `the * node`. Names, data and numbers are formatted
    once: every frame that mentions a node or repeats a number reuses the text.
    """

    def __init__(self, kept: dict[Value, str] | None = None, moved: Collection[Value] = ()) -> None:
        # Labelled nodes whose label the program's variable took on to a node made from
        # them (`loss = loss + d*d`: `moved_labels`): named as if unlabelled, so that a
        # node and its operand are not both `loss`.
        self._moved = moved
        # Where a real program keeps its unlabelled values (`layers[0].neurons[1].w[2]`,
        # engine.trace.recorder.kept_names): their names, before a number or an expression.
        self._names: dict[Value, str] = dict(kept) if kept else {}
        # The last step of each kept name (`w[2]`), for an expression that is too long
        # with the whole paths: `w[0]*2` inside a neuron, as its code writes `wi*xi`.
        # Only where every such operand belongs to one owner (`layers[0].neurons[0]`), so
        # two parameters of different objects never read as one.
        self._short: dict[Value, tuple[str, str]] = (
            {node: _split_path(name) for node, name in kept.items()} if kept else {}
        )
        self._short_owner: dict[Value, str] = {}  # the owner a name made of last steps is in
        self._data: dict[Value, str] = {}
        self._symbolic: dict[Value, str | None] = {}
        # Nodes called `the * node` for want of a short name; a label may start with
        # "the " too, so this is remembered rather than read back from the text.
        self._unnamed: set[Value] = set()
        self._elided: set[Value] = set()  # running sums named by their ends (`b+…+w[2]*3`)
        self._chains: dict[Value, tuple[Value, int]] = {}  # `_chain_start` of each sum
        # `fmt` of each number met so far: local derivatives, gradients and sums repeat.
        # Equal numbers (1 == 1.0 == True, 0.0 == -0.0) have the same text.
        self._numbers: dict[float, str] = {}
        # `_op_precedence` of each op met so far, in every trace of this process: a pass's
        # `Names` is new, its ops mostly the last pass's (`_precedence_of` bounds it).
        self._precedences: dict[str, int] = _PRECEDENCES
        # The operands each op was given where its set of them merged some (a class that
        # hashes by value: `Recorder.merged`): named as the program wrote them (`a*c`,
        # not the `*(a)` its one kept operand makes).
        self.given: dict[Value, tuple[Value, ...]] = {}

    def __call__(self, node: Value) -> str:
        name = self._names.get(node)
        if name is None:
            name = self._names[node] = self._derive(node)
        return name

    def data(self, node: Value) -> str:
        text = self._data.get(node)
        if text is None:
            x = node.data
            text = self._data[node] = self._numbers.get(x) or self.number(x)
        return text

    def number(self, x: float) -> str:
        """`fmt(x)`, remembered."""
        text = self._numbers.get(x)
        if text is None:
            text = self._numbers[x] = format_number(x)
        return text

    def _derive(self, node: Value) -> str:
        if node.label and node not in self._moved:
            return shorten(node.label)
        if not node._prev:
            return format_number(node.data)
        cache = self._symbolic
        # `self.symbolic(node)`, one call fewer.
        if node in cache:
            derived = cache[node]
        else:
            derived = cache[node] = self._symbolic_uncached(node)
        if derived is not None and len(derived) > MAX_DERIVED_NAME and self._short:
            derived = self._short_symbolic(node)
        # A sum too long to write out, or one more term of such a sum: by its ends.
        if derived is None or len(derived) > MAX_DERIVED_NAME or node._prev[0] in self._elided:
            elided = self._elided_sum(node)
            if elided is not None and len(elided) <= MAX_DERIVED_NAME:
                self._elided.add(node)
                return elided
        if derived is None or len(derived) > MAX_DERIVED_NAME:
            self._unnamed.add(node)
            return f"the {node._op} node"
        return derived

    def _elided_sum(self, node: Value) -> str | None:
        """A running sum too long to write out, by its first and last terms: a neuron's
        `b+w[0]*x[0]+w[1]*x[1]+w[2]*x[2]` is `b+…+w[2]*x[2]` (each partial sum reads apart
        by the term it adds). Kept operands are called by their last step when both
        belong to one owner, and never when they belong to two (two objects' `w[0]`
        must not read as one). None for anything but a chain of three terms or more."""
        if node._op != "+" or len(node._prev) != 2:
            return None
        first, terms = self._chain_start(node)
        if terms < 3:
            return None
        last = node._prev[1]
        named = []
        for child in (first, last):
            found = self._short.get(child)
            owner, text = found if found else (self._short_owner.get(child), self(child))
            if child in self._unnamed:
                return None
            named.append((owner, text, self(child)))
        owners = {owner for owner, _, _ in named if owner is not None}
        if len(owners) > 1:
            return None
        (_, head, _), (_, tail, _) = named
        plus = self._precedences.get("+") or self._precedence_of("+")
        if first._prev and not self._labelled(first) and self._op_rank(first) < plus:
            head = f"({head})"
        kept = self._labelled(last) or last in self._short  # labelled, or kept by the program
        if not last._prev and not kept and last.data < 0:
            text = f"{head}+…-{format_number(-last.data)}"
        elif not kept and len(last._prev) == 2 and last._prev[1]._const == NEGATION:
            negated = self._right_of(last._prev[0], "+")  # `a + (-d)`, written `…-d`
            if negated is None:
                return None
            text = f"{head}+…-{negated}"
        else:
            if last._prev and not self._labelled(last) and self._op_rank(last) <= plus:
                tail = f"({tail})"
            text = f"{head}+…+{tail}"
        if owners:
            self._short_owner[node] = owners.pop()
        return text

    def _chain_start(self, node: Value) -> tuple[Value, int]:
        """The first term of the chain of unnamed sums `node` ends (`b` of
        `((b + p0) + p1) + p2`) and how many terms it has (4). Remembered for every sum
        on the way, so naming each partial sum of a chain of n costs n steps in all, not
        n²/2; a loop, not recursion, down a long chain."""
        chains = self._chains
        found = chains.get(node)
        if found is not None:
            return found
        path = [node]
        while True:
            left = path[-1]._prev[0]
            if left in chains:
                first, terms = chains[left]
                break
            if (
                left._op == "+"
                and len(left._prev) == 2
                and not (left.label and left not in self._moved)
                and left not in self._short
            ):
                path.append(left)
                continue
            first, terms = left, 1
            break
        for sum_node in reversed(path):
            terms += 1
            chains[sum_node] = (first, terms)
        return chains[node]

    def _labelled(self, node: Value) -> bool:
        """Whether `node` is named by its label (one `moved_labels` took is not)."""
        return bool(node.label) and node not in self._moved

    def _op_rank(self, node: Value) -> int:
        """The precedence of `node`'s op, remembered."""
        if _unary(node):
            return CALL
        return self._precedences.get(node._op) or self._precedence_of(node._op)

    def symbolic(self, node: Value) -> str | None:
        """The op over its operands' names (`(a+b)*c`), or None if an operand has no short
        name. Operands are bracketed only where precedence needs it."""
        cache = self._symbolic
        text = cache.get(node, _MISSING)
        if text is _MISSING:
            text = cache[node] = self._symbolic_uncached(node)
        return text  # type: ignore[return-value]

    def _precedence_of(self, op: str) -> int:
        """`_op_precedence(op)`, remembered: a program may make an op of any string, so
        only short ones, and only so many (a long string is not kept after its trace)."""
        precedence = _op_precedence(op)
        if len(op) <= MAX_KEPT_OP and len(_PRECEDENCES) < MAX_PRECEDENCES:
            _PRECEDENCES[op] = precedence
        return precedence

    def _short_symbolic(self, node: Value) -> str | None:
        """`symbolic` with kept operands called by their last step, if they (and operands
        named so before) all belong to one owner."""
        owners = set()
        for child in node._prev:
            found = self._short.get(child)
            owner = found[0] if found else self._short_owner.get(child)
            if owner is not None:
                owners.add(owner)
        if len(owners) != 1:
            return None
        derived = self._symbolic_uncached(node, short=True)
        if derived is not None:
            self._short_owner[node] = owners.pop()
        return derived

    def _symbolic_uncached(self, node: Value, short: bool = False) -> str | None:
        """`symbolic`; with `short`, kept operands are called by their last step."""
        op = node._op
        precedences = self._precedences
        outer = CALL if _unary(node) else precedences.get(op) or self._precedence_of(op)
        # `**` groups from the right, so an equal-precedence base needs brackets too.
        power = op.startswith("**") and len(node._prev) <= 2  # (`x**k` of a Value `k` too)
        names = self._names
        unnamed = self._unnamed
        operands = []
        shorts = self._short if short else None
        given = self.given
        children = given.get(node, node._prev) if given else node._prev
        for i, child in enumerate(children):
            found = shorts.get(child) if shorts else None
            text = found[1] if found else None
            if text is None:
                text = names.get(child)
            if text is None:
                text = self(child)
            if child in unnamed:
                return None
            if outer < CALL:  # a call's operands never need brackets
                # Labels and leaves bind tightest.
                labelled = child.label and child not in self._moved
                inner = LEAF if labelled or not child._prev else self._op_rank(child)
                if inner < outer or (inner == outer and (i > 0 or power)):
                    text = f"({text})"
            operands.append(text)
        if len(operands) == 2 and (op == "+" or op == "*"):  # `apply_op`, for the usual case
            return self._as_written(op, children, operands)
        return apply_op(op, operands, "+", "*")

    def _as_written(self, op: str, children: Any, operands: list[str]) -> str | None:
        """A sum or product as a program writes it, where the engine built it another
        way: `e + (-1)` is `e-1`, `a + (-b)` is `a-b`, `-b` (made as `b*-1`) is `-b`,
        `a * b**-1` is `a/b`, and `n * 2` made from the program's `2*n` is `2*n`."""
        right = children[1]
        if op == "+":
            # Labelled (not by a label `moved_labels` took), or kept by the program.
            kept = (right.label and right not in self._moved) or right in self._short
            if right._const and not kept and right.data < 0:
                return f"{operands[0]}-{format_number(-right.data)}"
            if kept or len(right._prev) != 2 or right._prev[1]._const != NEGATION:
                return f"{operands[0]}+{operands[1]}"
            text = self._right_of(right._prev[0], "+")
            return None if text is None else f"{operands[0]}-{text}"
        if right._const == NEGATION:
            return f"-{operands[0]}"
        if right._const == WRITTEN_LEFT:
            return f"{operands[1]}*{operands[0]}"
        kept = (right.label and right not in self._moved) or right in self._short
        if kept or right._op != "**-1" or len(right._prev) != 1:
            return f"{operands[0]}*{operands[1]}"
        text = self._right_of(right._prev[0], "*")
        return None if text is None else f"{operands[0]}/{text}"

    def _right_of(self, node: Value, op: str) -> str | None:
        """`node`'s name as the right operand of `-` (`op` "+") or `/` (`op` "*"),
        bracketed unless it binds tighter; None if it has no short name."""
        text = self(node)
        if node in self._unnamed:
            return None
        if node._prev and not self._labelled(node):
            precedences = self._precedences
            inner = self._op_rank(node)
            if inner <= (precedences.get(op) or self._precedence_of(op)):
                return f"({text})"
        return text

    def numeric(self, node: Value) -> str:
        """The op over its operands' data: `2 × -3`, `tanh(0.8814)`, `(-3)**2`."""
        cache = self._data
        operands = []
        given = self.given
        children = given.get(node, node._prev) if given else node._prev
        for child in children:
            text = cache.get(child)
            if text is None:
                text = self.data(child)
            operands.append(text)
        if node._op == "*" and len(operands) == 2 and children[1]._const == WRITTEN_LEFT:
            operands.reverse()  # in the order the name has them: `2*a = 2 × 3`
        return worked_out(node._op, operands)


_MISSING = object()


LEAF = 5  # how labels and leaves bind: tighter than any op


def _split_path(path: str) -> tuple[str, str]:
    """A kept name's owner and last step, split at the last `.` outside brackets:
    `"layers[0].neurons[1].w[2]"` -> `("layers[0].neurons[1]", "w[2]")`;
    `"ps['a.b']"` -> `("", "ps['a.b']")`."""
    # The usual path: its last `.` is outside brackets when the brackets after it pair
    # up (`w[2]`), which is where the walk below would stop first.
    last = path.rfind(".")
    if last < 0:
        return "", path
    tail = path[last + 1 :]
    if tail.count("]") == tail.count("["):
        return path[:last], tail
    depth = 0
    for i in range(len(path) - 1, -1, -1):
        c = path[i]
        if c == "]":
            depth += 1
        elif c == "[":
            depth -= 1
        elif c == "." and depth == 0:
            return path[:i], path[i + 1 :]
    return "", path


# `Names._precedence_of`'s table, shared by every trace: at most `MAX_PRECEDENCES` ops
# of at most `MAX_KEPT_OP` characters.
_PRECEDENCES: dict[str, int] = {}
MAX_PRECEDENCES = 256
MAX_KEPT_OP = 40


def _op_precedence(op: str) -> int:
    entry = lookup(op)
    if entry is not None:
        return entry.precedence
    return INFIX.get(op, CALL)  # another engine's own `a - b`, `a / b`, else a call


def _unary(node: Value) -> bool:
    """A node of an infix op of another engine with other than two operands (`-` of one,
    a negation): said as a call, `-(x)`, which binds as tightly as one."""
    return node._op in INFIX and len(node._prev) != 2


def build_text(node: Value, name: Names) -> str:
    # The caches are read directly: this runs once per op node of every trace.
    own = name._names.get(node) or name(node)
    symbolic = name._symbolic.get(node, _MISSING)
    if symbolic is _MISSING:
        symbolic = name.symbolic(node)
    cache = name._data
    data = cache.get(node) or name.data(node)
    # `name.numeric(node)`, written out for the usual two operands of `+` and `*`.
    children = name.given.get(node, node._prev) if name.given else node._prev
    op = node._op
    if len(children) == 2 and (op == "+" or op == "*"):
        left, right = children
        if op == "*" and right._const == WRITTEN_LEFT:
            left, right = right, left  # as the name has them: `2*a = 2 × 3`
        numeric = (
            f"{cache.get(left) or name.data(left)}"
            f"{' + ' if op == '+' else ' × '}"
            f"{cache.get(right) or name.data(right)}"
        )
    else:
        numeric = name.numeric(node)
    if symbolic is not None and symbolic != own:
        return built_named(own, str(symbolic), numeric, data)
    if numeric == own:
        return built_bare(own, data)  # `exp(0) = 1`: its numbers are its name
    return built(own, numeric, data)


def build_said(node: Value, name: Names) -> Said:
    """What the page needs to write `build_text(node, name)` itself: the symbolic name,
    where the sentence has one, and whether the operands were written the other way."""
    symbolic, swapped = build_blanks(node, name)
    if symbolic is not None:
        return Said(symbolic, swapped)
    return Said(None, True) if swapped else SAID


def build_blanks(node: Value, name: Names) -> tuple[str | None, bool]:
    """`build_said`'s two fields, for a caller that makes its own `Said` (a real
    program's, with the numbers: `Recorder.said_build`)."""
    # The caches are read directly: this runs once per op node of every trace.
    own = name._names.get(node) or name(node)
    symbolic = name._symbolic.get(node, _MISSING)
    if symbolic is _MISSING:
        symbolic = name.symbolic(node)
    children = node._prev
    swapped = node._op == "*" and len(children) == 2 and children[1]._const == WRITTEN_LEFT
    if symbolic is not None and symbolic != own:
        return str(symbolic), swapped
    return None, swapped


def sort_text(output: Value, count: int, name: Names, grad: str = "grad") -> str:
    return sorted_nodes(count, nodes_word(count), operand(name(output)), grad)


def alone_text(lone: str, output: str) -> str:
    """After a sort frame's words, where the program's result was a node alone (no
    operands, no node's operand) and the pass is on the node it made last that has some."""
    return (
        f" Its last statement makes {lone} alone, a node with no operands that no node "
        f"uses: the pass is on {output}, the node with operands it made last."
    )


def by_hand_text(count: int, output: str, rule: str) -> str:
    """In place of the sort, for a pass the program runs by hand (`o._backward()`, then
    the next node's) with no backward(): the program's own order is the walk."""
    return (
        f"No backward() here: the program calls {rule}() itself, node by node, starting "
        f"at {output} ({count} {nodes_word(count)} reach it). Each frame below is one of "
        "those calls, in the order the program makes them."
    )


def no_pass_text(count: int, output: str, wrote: bool) -> str:
    """In place of the sort, for a program of its own class that calls no backward() and
    no node's rule: it works out the gradients itself (`wrote`), or never asks for them."""
    built = f"the program builds the graph up to {output} ({count} {nodes_word(count)} reach it)"
    if wrote:
        return (
            f"No backward() here, nor a node's rule: {built} and works out the gradients "
            "itself, in the frames before this one, as a chain rule by hand."
        )
    return f"No backward() here, nor a node's rule: {built} and never asks for its gradients."


def by_record_text(count: int, output: str, record: str, stepped: bool) -> str:
    """In place of the sort, for a pass the program runs by hand through the records of
    its nodes' ops (DeZero's `Function`, which keeps its input and works out its share):
    `x.grad = f.backward(y.grad)` written out node by node, or (`stepped`) a backward()
    of each node that runs that one step and is called node by node."""
    reach = f"starting at {output} ({count} {nodes_word(count)} reach it)"
    if stepped:
        how = (
            "No walk of the graph here: each node's backward() runs that node's rule alone "
            f"(the backward() of the {record} that made {output}, then of the op that made "
            f"the next node), and the program calls it itself, node by node, {reach}."
        )
    else:
        how = (
            "No backward() of a node here: the program calls the backward() of the "
            f"{record} that made {output} itself, then of the op that made each next node, "
            f"and writes what it returns into that op's input, node by node, {reach}."
        )
    return how + " Each frame below is one of those calls, in the order the program makes them."


def by_holder_text(count: int, output: str, holder: str) -> str:
    """In place of the sort, for a pass the program runs by hand through the objects
    that made its nodes (the "Hacker's guide" gates: `sg.backward()`, then the next
    gate's), each keeping the nodes it was given and the one it made."""
    return (
        f"No backward() of a node here: the program calls backward() itself on each object "
        f"that made a node, starting with the {holder} that made {output} ({count} "
        f"{nodes_word(count)} reach it). Each such object keeps the nodes it was given and "
        "the one it made, and its backward() is that node's rule. Each frame below is one "
        "of those calls, in the order the program makes them."
    )


def pass_call(own: str, how: str | None = None, start: bool = False) -> str:
    """A pass's call as the program wrote it, of the output named `own`: `o.backward()`,
    or (`how`: its words, `{own}` and `{operand}` the output's name, bare or as it stands
    before a method: `recorder._pass_how`) `backprop(o)`, `o.backprop()`, `the Tape's
    backward()`; `start`: at the start of a sentence (`The Tape's`)."""
    if how is None:
        return f"{operand(own)}.backward()"
    said = how.format(own=own, operand=operand(own))
    return "The" + said[3:] if start and said.startswith("the ") else said


def own_sort_text(
    output: Value,
    count: int,
    name: Names,
    fault: tuple[Value, Value | None, int] | None,
    seed: float,
    grad: str = "grad",
    how: str | None = None,
) -> str:
    """In place of the sort's usual words, for a learner's backward() whose order of
    rules is not a right one (`recorder.own_order_fault`), or a right one but not a
    depth-first sort's (`recorder.depth_first`: Kahn's algorithm, a breadth-first
    order), or whose output's gradient is not 1 when its first rule runs: what it did.
    A right order is said as what makes it right, each rule after those of the nodes
    that use the rule's node, with no word of how it was found. `grad`: the gradient's
    name as the learner's class writes it (`gradient`); `how`: the pass's call, where it
    is no `o.backward()` (`pass_call`)."""
    own = name(output)
    call = pass_call(own, how, start=True)
    if fault is None:
        text = f"{call} runs the rules of the {count} {nodes_word(count)} that "
        text += f"reach {own}, each after those of the nodes that use it."
    else:
        node, consumer, runs = fault
        which = name(node)
        if consumer is node:
            text = (
                f"{call} runs {which}'s rule, and {which} is among its own "
                "operands (its _prev): the graph has a loop, and no order runs every rule after "
                "those of the nodes that use its node (one list of operands shared by several "
                "nodes, as a default `[]` is?)."
            )
        elif consumer is not None:
            text = (
                f"{call} runs {which}'s rule before that of {name(consumer)}, "
                f"which uses {which}: {which} passes its gradient on before all of it "
                "has arrived."
            )
        elif runs:
            text = (
                f"{call} runs {which}'s rule {runs} times: each run passes "
                f"{which}'s whole gradient on again."
            )
        else:
            text = (
                f"{call} never runs {which}'s rule ({count} {nodes_word(count)} "
                f"reach {own}): nothing is passed on from {which}."
            )
    if seed != 1:
        text += f" {operand(own)}.{grad} is {name.number(seed)} when the first rule runs, not 1: a "
        text += "right engine seeds it with 1."
    else:
        text += f" Seed {operand(own)}.{grad} = 1."
    return text + EACH_FRAME


EACH_FRAME = " Each frame below is one rule, in the order it runs."


def stale_sort_text(output: Value, name: Names, runs: list[tuple[Value, int]], now: int) -> str:
    """After the sort's words of pass `now` (0-based), where its backward() also ran the
    rules of nodes of earlier passes' graphs that its output does not reach (`runs`: each
    node, with the pass whose node it is, in the order they ran; `stale_text`)."""
    count = len(runs)
    made = [pass_index for _, pass_index in runs]
    first, last = min(made) + 1, max(made) + 1
    which = f"pass {first}'s graph" if first == last else f"the graphs of passes {first} to {last}"
    node, its = runs[0]
    return (
        f" It also runs the rules of {count} {nodes_word(count)} of {which} (pass {its + 1}'s "
        f"{name(node)} first), which pass "
        f"{now + 1}'s {name(output)} does not reach: left over (the list of rules backward() "
        "runs was not cleared), they are no part of this pass, and a right engine does not "
        "run them."
    )


def walk_text(output: str, count: int, how: str | None = None) -> str:
    """In place of the sort, for a backward() that runs the rules as a recursion down
    from its output reaches each node (`child._backward()` inside a rule, or a walk
    that calls itself for each child), with no order worked out first; `how`: how the
    program called the pass (`pass_call`)."""
    return (
        f"No sort here: {pass_call(output, how)} walks down from {output} ({count} "
        f"{nodes_word(count)} reach it) and runs each node's rule as the walk reaches it, "
        "a call inside a call. Each frame below is one rule, in the order the walk runs "
        "them; a node the walk reaches twice runs its rule twice."
    )


def no_rule_runs(output: str) -> str:
    """After `own_sort_text`'s words, for a backward() that ran no node's rule and wrote
    no gradient but the seed (`recorder.Recorder.no_rule_run`): no frame follows."""
    return f" It runs no node's rule at all: every gradient below {output} stays as it was."


def no_rule_text(output: str, count: int, how: str | None = None) -> str:
    """In place of the sort, for a backward() that calls no node's rule and writes the
    gradients itself: a recursion of its own, or a loop whose writes read no node's
    gradient (`child.grad += local`), so that no write says whose rule it is; `how`:
    how the program called the pass (`pass_call`)."""
    changes = "gradient changes" if count == 1 else "gradients change"
    return (
        f"{pass_call(output, how, start=True)} calls no node's rule: it writes the gradients "
        "itself, so "
        f"there is no step per node to show. Its writes, seed included, are this frame: "
        f"{count} {changes}."
    )


def parted_writes_text(
    node: Value, name: Names, learner: float, right: float, output: Value
) -> str:
    """After `no_rule_text`, where the gradients that backward() wrote part from the right
    engine's: the node nearest the output whose gradient does, with both numbers.

    Example: ` x*w+b's gradient ends −1.601, where a right engine's is −0.4499: these
    writes are not the chain rule's sum, over each path from y down to a node, of the
    product of the local derivatives along it.`"""
    number = name.number
    return (
        f" {name(node)}'s gradient ends {number(learner)}, where a right engine's is "
        f"{number(right)}: these writes are not the chain rule's sum, over each path from "
        f"{name(output)} down to a node, of the product of the local derivatives along it."
    )


def path_fault_text(fault: tuple[str, Value, Value, float, float], name: Names) -> str:
    """After `parted_writes_text`, where those writes, read as a walk down every path
    (`engine_check.path_fault`), part at one op's share or one `=`.

    Example: ` The first share that parts: err handed t 1 times the gradient it got,
    where the chain rule's local derivative is −1.`"""
    kind, node, child, first, second = fault
    number = name.number
    if kind == "lost":
        return (
            f" The first gradient that parts: {name(child)}'s is the sum of the shares of "
            f"the nodes that use it but {name(node)}'s {number(first)}, lost (=, where += "
            "keeps every share)."
        )
    if kind == "=":
        return (
            f" The first share that parts: {name(node)}'s share to {name(child)} was written "
            f"over the {number(first)} its gradient held (=, where += keeps it)."
        )
    return (
        f" The first share that parts: {name(node)} handed {name(child)} {number(first)} "
        f"times the gradient it got, where the chain rule's local derivative is "
        f"{number(second)}."
    )


def backward_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    received: dict[Value, int],
    grad: str = "grad",
) -> str:
    """Say what one `_backward` did; `received` counts the `+=`s each child got so far;
    `grad`: the gradient's attribute as a learner's own class names it (`gradient`)."""
    if not node._prev:
        return leaf_text(node, name)
    # The caches are read directly (`numbers.get(x) or number(x)` is `name.number(x)`):
    # this runs once per node of every trace.
    number = name.number
    text_of = name._numbers.get
    name_of = name._names.get
    count_of = received.get
    upstream = text_of(node.grad) or number(node.grad)
    steps: list[str] = []
    step = steps.append
    for child, local, delta, before in contributions:
        received[child] = count = count_of(child, 0) + 1
        child_name = operand(name_of(child) or name(child))
        after = before + delta
        if count == 1 and before != 0:
            step(
                held_add(
                    child_name,
                    text_of(local) or number(local),
                    upstream,
                    text_of(before) or number(before),
                    text_of(delta) or number(delta),
                    text_of(after) or number(after),
                    grad,
                )
            )
        elif count == 1:
            step(
                first_add(
                    child_name,
                    text_of(local) or number(local),
                    upstream,
                    text_of(after) or number(after),
                    grad,
                )
            )
        else:
            step(
                later_add(
                    child_name,
                    text_of(local) or number(local),
                    upstream,
                    _ORDINALS[count] if count < len(_ORDINALS) else ordinal(count),
                    text_of(before) or number(before),
                    text_of(delta) or number(delta),
                    text_of(after) or number(after),
                    grad,
                )
            )
    own = name_of(node) or name(node)
    op = node._op
    rule = _RULE_TEXTS.get(op)
    if rule is None:
        rule = rule_text(op)
        if len(_RULE_TEXTS) < MAX_RULE_TEXTS:
            _RULE_TEXTS[op] = rule
    return rule_ran(own, op, upstream, rule, "; ".join(steps))


def own_rule_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    received: dict[Value, int],
    right: list[tuple[Value, float]] | None,
    grad: str = "grad",
    own_words: bool = False,
    worked_out: int | None = None,
    kept_from: tuple[Value, int] | None = None,
    merged: tuple[Value, ...] | None = None,
) -> str:
    """What one rule of the learner's own class did (SPEC §14), said from their code:
    `grad` is the gradient's attribute as their code writes it (`a.gradient += …`).
    `worked_out`: the line of a rule that the record of the node's op keeps (`Mul`'s
    `def backward(ctx, grad_output)`), which works out the shares the program's own loop
    writes (`Recorder.held_rules`): the rule is said to be there, the writes the loop's.
    `kept_from`: the node whose rule this node held and ran, and the line of its op's
    method that set it here (`self._backward = _backward` in `__mul__`, for `out`'s:
    `Recorder.kept_by`): the rule is said to be that node's (`kept_rule_text`).
    `merged`: the operands its op was given where its set of them merged some
    (`Recorder.merged`): a write to one the set dropped says so (`_not_operands`).

    `writes` say how each contribution was written (`"+="`, `"-="` or `"="`, the line,
    the factor read off the code or None, the gradient after: a `-=`'s is the local
    derivative, minus the factor the code wrote, and its words quote the code's).
    Where every write is a `+=` whose factor is the right engine's (`right`, per operand
    position), the text is the built-in rule's (`backward_text`); otherwise it says what
    the code did: an `=` that overwrites a gradient says which number is lost, and a
    factor that is not the right one is named beside the right one. `own_words`: said
    from the code even so (a rule at a kink whose factor is right but not the one the
    built-in words say).

    Example (`=` in `__mul__`, `b = a * a`):
    `a*a (*, grad 1): the rule on line 12 writes a.grad twice. a.grad = 3 × 1 → 3;
    a.grad = 3 × 1: the 3 already there is lost.`
    """
    if not contributions and not node._prev:
        return leaf_text(node, name)
    if kept_from is not None:
        return kept_rule_text(node, name, contributions, writes, received, grad, kept_from)
    again = _added_again(node, contributions, writes)
    if (
        not own_words
        and right is not None
        and not again
        and _written_right(contributions, writes, right)
    ):
        return backward_text(node, name, contributions, received, grad)
    # An `=` that wrote the old gradient plus a right share (`g = self.grad + …;
    # self.grad = g`) lost nothing: said as a sum, its factor what it added (as
    # `engine.lab.engine_check` judges it).
    kept = _equals_kept(node, contributions, writes, right)
    if kept is not None and node.grad:
        contributions = [
            (c[0], c[2] / node.grad, c[2], c[3]) if keeps else c
            for c, keeps in zip(contributions, kept, strict=True)
        ]
    steps = _write_steps(node, name, contributions, writes, received, kept, grad)
    own = name(node)
    where = _rule_line(writes)
    # (a node made with no op, a leaf whose rule writes: no empty op before the comma)
    head = f"{own} ({node._op + ', ' if node._op else ''}grad {name.number(node.grad)}): "
    ran = "ran"
    if worked_out is not None:
        ran = f"worked out the shares, {_shares_written(writes)}"
        where = f" on line {worked_out}"
    if not steps:
        return head + f"its rule{where} ran{WROTE_NONE}"
    notes = ""
    if right is not None:
        # A factor not read off the code is unknown where the upstream gradient is 0.
        unknown = {c[0] for c, w in zip(contributions, writes, strict=True) if w[2] is None}
        notes = _parted_factors(
            contributions,
            right,
            name,
            unknown if node.grad == 0 else (),
            node.grad,
            grad,
            _kink(node),
        )
    for child, before in again:
        notes += (
            f" {operand(name(child))}.{grad} is a property whose setter adds what it is given: the "
            f"{name.number(before)} already there is added again."
        )
    for child in dict.fromkeys(c[0] for c in contributions):
        if child is node:
            notes += (
                f" {own} is this rule's own node, not one of its operands: the rule "
                "changes the gradient it was given."
            )
    outside = [c for c in dict.fromkeys(c[0] for c in contributions) if c is not node]
    notes += _not_operands([c for c in outside if c not in node._prev], node, name, merged)
    return head + f"its own rule{where} {ran}. {'; '.join(steps)}.{notes}"


def kept_rule_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    received: dict[Value, int],
    grad: str,
    kept_from: tuple[Value, int],
) -> str:
    """What ran where a node holds another node's rule, set on it by that node's op
    (`self._backward = _backward` in `__mul__`, `Machine.rule_on_operand`): that node's
    rule, with this node's gradient, in place of its own, which never runs; its writes
    said from the code, as `own_rule_text` says them.

    Example: `s (+, grad 0): the rule that ran is s*c's, set on s on line 27 by the op
    that made s*c, not s's own (which never runs: a and b get nothing from it). s.grad +=
    0.5 → 0.5; c.grad += −1 → −1.`
    """
    maker, line = kept_from
    own = name(node)
    head = f"{own} ({node._op + ', ' if node._op else ''}grad {name.number(node.grad)}): "
    steps = _write_steps(node, name, contributions, writes, received, None, grad)
    operands = [name(child) for child in dict.fromkeys(node._prev)]
    lost = "a leaf's, which does nothing"
    if operands:
        lost = f"which never runs: {' and '.join(operands)} get{'' if len(operands) > 1 else 's'}"
        lost += " nothing from it"
    said = (
        f"the rule that ran is {name(maker)}'s, set on {own} on line {line} by the op that "
        f"made {name(maker)}, not {own}'s own ({lost})."
    )
    return head + said + (f" {'; '.join(steps)}." if steps else "")


def _not_operands(
    children: list[Value], node: Value, name: Names, given: tuple[Value, ...] | None = None
) -> str:
    """Of the children a rule writes that are none of its node's operands: a set of
    operands that merged one with an equal one (a class that hashes by value) keeps an
    operand of the same data, said as a fact where the recorder saw the set take fewer
    than the op was `given` (`Recorder.merged`), else as a likely cause; the others the
    rule reaches by a name that meant another node when the rule was made (a closure
    made in a loop, whose variable the loop has moved on), said once for all of them.

    Example (`_prev = set(_children)`, `x * y`, both 2): `y is not among *(x)'s operands
    (its _prev): the op made a set of x and y, which kept x alone, for the class's __eq__
    and __hash__ make y equal to x (both 2): the graph has lost y, though this rule still
    writes its gradient.`"""
    own = name(node)
    if children and not node._prev:
        # No operands at all: the op's method made its node without them (`out =
        # Value(self.data * other.data)`), and its rule still writes theirs.
        many = len(children) > 1
        return (
            f" {own} has no operands (its _prev is empty), though this rule writes the "
            f"gradient{'s' if many else ''} of {' and '.join(name(c) for c in children)}: "
            f"the op that made {own} did not hand {'them' if many else 'it'} to it "
            "(`Value(self.data * other.data)` with no `(self, other)`?), so the graph, and "
            f"a sort, never reach{'' if many else 'es'} {'them' if many else 'it'} through "
            f"{own}."
        )
    merged = [c for c in children if any(p.data == c.data for p in node._prev)]
    notes = ""
    for child in merged:
        if given is not None and child in given:
            notes += _merged_text(child, node, name, given)
        else:
            notes += (
                f" {name(child)} is not among {own}'s operands (its _prev): the graph has lost "
                "it (a set merged it with an equal node?), though this rule still writes its "
                "gradient."
            )
    others = [name(child) for child in children if child not in merged]
    if others:
        many = len(others) > 1
        notes += (
            f" {' and '.join(others)} {'are' if many else 'is'} not among {own}'s operands "
            f"(its _prev), though this rule writes {'their gradients' if many else 'its gradient'}"
            f": the rule reads a name that means another node now than when {own} was made "
            "(a closure made in a loop, run after the loop has moved on?)."
        )
    return notes


def _merged_text(child: Value, node: Value, name: Names, given: tuple[Value, ...]) -> str:
    """A child the rule writes that the op was given but its set of operands dropped,
    equal to one it kept (`_not_operands`'s example)."""
    own = name(child)
    kept = next(p for p in node._prev if p.data == child.data)
    both = f" (both {name.number(child.data)})"
    return (
        f" {own} is not among {name(node)}'s operands (its _prev): the op made a set of "
        f"{' and '.join(name(p) for p in dict.fromkeys(given))}, which kept {name(kept)} "
        f"alone, for the class's __eq__ and __hash__ make {own} equal to {name(kept)}{both}: "
        f"the graph has lost {own}, though this rule still writes its gradient."
    )


def unset_rule_text(
    node: Value,
    name: Names,
    line: int,
    right: list[tuple[Value, float]],
    grad: str = "grad",
    set_on: tuple[Value, int] | None = None,
) -> str:
    """After "its rule ran and wrote no gradient." of an op node whose rule is the one
    every node is made with (a leaf's, `__init__`'s on `line`): the rule its op wrote was
    never set on it (`set_on`: it was set on that operand instead, on that line), and
    what a right rule writes of its operands.

    Example: ` err's rule is the one __init__ gives every node (line 7), a leaf's, which
    passes nothing on: no rule of its own was set on it. A right rule writes
    (w*x+b).grad += 1 × −1.5; y.grad += −1 × −1.5.`"""
    number = name.number
    upstream = number(node.grad)
    writes = "; ".join(
        f"{operand(name(child))}.{grad} += {number(local)} × {upstream}"
        for child, local in _per_child(right).items()
    )
    elsewhere = ""
    if set_on is not None:
        holder = name(set_on[0])
        elsewhere = f" (its op set it on {holder} instead, on line {set_on[1]}: {holder} runs it)"
    return (
        f" {name(node)}'s rule is the one __init__ gives every node (line {line}), a leaf's, "
        f"which passes nothing on: no rule of its own was set on it{elsewhere}. A right rule "
        f"writes {writes}."
    )


def again_text(node: Value, name: Names, run: int) -> str:
    """After the words of a rule that ran before in the same pass (a learner's order
    that lists its node twice): which run this is."""
    return f" This is the {ordinal(run)} run of {name(node)}'s rule in this pass."


def stale_text(
    node: Value, name: Names, made: int, now: int, output: Value, adds: bool = True
) -> str:
    """After the words of a rule run in pass `now` (0-based) whose output does not reach
    its node, a node of pass `made`'s graph: a rule left on a tape, or in a list of
    nodes, that nothing cleared. A right engine runs only the rules of the nodes the
    output reaches, so what this one adds is extra (`adds`: it changed a gradient; else
    it added nothing, its node's gradient being 0, and says so).

    Example: ` This y is pass 1's node, which pass 2's loss does not reach: its rule is
    left over from pass 1 (…). A right engine does not run it here: what it adds is
    extra.`"""
    return (
        f" This {name(node)} is pass {made + 1}'s node, which pass {now + 1}'s "
        f"{name(output)} does not reach: its rule is left over from pass {made + 1} (the "
        "list of rules backward() runs was not cleared). A right engine does not run it "
        + ("here: what it adds is extra." if adds else "here; it adds nothing, its gradient 0.")
    )


WROTE_NONE = " and wrote no gradient."


def returned_text(node: Value, name: Names, line: int | None) -> str:
    """In place of `own_rule_text`'s "ran and wrote no gradient", for a rule that returns
    its operands' shares (`grad_fn`) which the program's own loop then adds: the next
    frame (`rule_stretch_text` with `returned`) shows those writes.

    Example: `y (tanh, grad 1): its rule on line 22 returns a share of y.grad for each
    operand and writes none itself; backward()'s loop adds them.`"""
    own = name(node)
    where = f" on line {line}" if line else ""
    return (
        f"{own} ({node._op}, grad {name.number(node.grad)}): its rule{where} returns a share "
        f"of {operand(own)}.grad for each operand and writes none itself; backward()'s loop "
        "adds them."
    )


def rule_stretch_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    received: dict[Value, int],
    resumed: bool,
    then: Value | None,
    grad: str = "grad",
    right: list[tuple[Value, float]] | None = None,
    returned: bool = False,
    kept_from: tuple[Value, int] | None = None,
    worked_out: int | None = None,
) -> str:
    """One stretch of a rule that runs other nodes' rules between its writes (a
    recursion: `child.grad += …` then `child._backward()` for each child): its writes
    so far, said as `own_rule_text` says them, whether it goes on from an earlier
    stretch, and whose rule runs inside it next (`returned`: the writes of the program's
    own loop, adding the shares the rule returned). Whether its factors are right is said
    once the run has ended, at the stretch that writes each share (`Recorder.say_factors`),
    not here; an `=` that wrote
    the old gradient plus a right share (`right`: the node's right locals) is said as
    the sum it kept, as `own_rule_text` says it, not as a loss. `kept_from`: the node
    whose rule this node holds, and the line that set it (`kept_rule_text`). `worked_out`:
    the line of the rule the record of the node's op keeps, said as `own_rule_text` says
    it (DeZero's recursive `x.backward()` after `x.grad = f.backward(self.grad)`).

    Example: `d (+, grad 1): its own rule on line 18 ran. c.grad += 1 × 1 → 1; then c's
    rule runs inside it.`
    """
    kept = _equals_kept(node, contributions, writes, right)
    steps = _write_steps(node, name, contributions, writes, received, kept, grad)
    where = _rule_line(writes)
    head = f"{name(node)} ({node._op}, grad {name.number(node.grad)}): "
    if returned:
        head += f"the loop{where} adds the shares its rule returned. "
    elif worked_out is not None and not resumed:
        head += (
            f"its own rule on line {worked_out} worked out the shares, {_shares_written(writes)}. "
        )
    elif kept_from is not None:
        maker, line = kept_from
        whose = f"{name(maker)}'s rule (set on {name(node)} on line {line})"
        head += f"{whose} goes on. " if resumed else f"{whose} ran, not its own. "
    else:
        head += f"its rule{where} goes on. " if resumed else f"its own rule{where} ran. "
    inside = f"; then {name(then)}'s rule runs inside it" if then is not None else ""
    return f"{head}{'; '.join(steps)}{inside}."


def _shares_written(writes: list[tuple[str, int, float | None, float]]) -> str:
    """Who writes the shares a rule of the record of a node's op worked out, and how: the
    line of the program's writes, `adds` where each is a `+=` (`p.grad += g` in a loop),
    else `writes` (DeZero's `x.grad = f.backward(self.grad)`, in no loop, adds nothing).

    Example: one `+=` on line 114 -> 'which line 114 adds'."""
    lines = sorted({line for _, line, _, _ in writes if line > 0})
    who = f"line {lines[0]}" if len(lines) == 1 else "the program"
    verb = "adds" if writes and all(write[0] == "+=" for write in writes) else "writes"
    return f"which {who} {verb}"


def _rule_line(writes: list[tuple[str, int, float | None, float]]) -> str:
    lines = sorted({line for _, line, _, _ in writes if line > 0})
    return f" on line {lines[0]}" if len(lines) == 1 else ""


def _equals_kept(node: Value, contributions: Any, writes: Any, right: Any) -> list[bool] | None:
    """For a rule with an `=` among its writes and the node's right locals, whether each
    write kept the gradient that was there (`engine_check.kept_writes`); else None."""
    if right is None or not any(write[0] == "=" for write in writes):
        return None
    return kept_writes(
        [(c[0], w[0], c[3], w[3]) for c, w in zip(contributions, writes, strict=True)],
        right,
        node.grad,
    )


def _write_steps(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    received: dict[Value, int],
    kept: list[bool] | None = None,
    grad: str = "grad",
) -> list[str]:
    """Each write of a rule of the learner's own, said from their code (`own_rule_text`);
    `kept`: which `=` wrote the old gradient plus a share (said as that sum); `grad`:
    the gradient's attribute, as their code writes it."""
    number = name.number
    upstream = number(node.grad)
    steps: list[str] = []
    for i, ((child, _, delta, before), (write, _, local, after)) in enumerate(
        zip(contributions, writes, strict=True)
    ):
        received[child] = count = received.get(child, 0) + 1
        child_name = operand(name(child))  # before `.grad`: `(x1*w1).grad`
        factor = f"{number(local)} × {upstream}" if local is not None else None
        if write == "+=":
            term = factor or number(delta)
            if before == 0:
                steps.append(f"{child_name}.{grad} += {term} → {number(after)}")
            elif count == 1:  # held from an earlier pass: said as `held_add` says it
                steps.append(
                    f"{child_name}.{grad} += {term}; it held {number(before)} already, "
                    f"sum {number(before)} + {number(delta)} = {number(after)}"
                )
            else:
                nth = ordinal(count)
                steps.append(
                    f"{child_name}.{grad} += {term}; {nth} +=, sum {number(before)} + "
                    f"{number(delta)} = {number(after)}"
                )
        elif write == "-=":
            # Said as the code subtracts: its own factor (the local derivative's minus).
            taken = f"{number(0.0 - local)} × {upstream}" if local is not None else None
            term = taken or number(0.0 - delta)
            if before == 0:
                steps.append(f"{child_name}.{grad} -= {term} → {number(after)}")
            elif count == 1:  # held from an earlier pass, as `+=` says it
                steps.append(
                    f"{child_name}.{grad} -= {term}; it held {number(before)} already, "
                    f"sum {number(before)} − {number(0.0 - delta)} = {number(after)}"
                )
            else:
                nth = ordinal(count)
                steps.append(
                    f"{child_name}.{grad} -= {term}; {nth} write, sum {number(before)} − "
                    f"{number(0.0 - delta)} = {number(after)}"
                )
        elif before != 0 and kept is not None and kept[i]:
            term = factor or number(delta)
            steps.append(f"{child_name}.{grad} = {number(before)} + {term} → {number(after)}")
        elif before != 0:
            lost = number(before)
            steps.append(
                f"{child_name}.{grad} = {factor or number(after)}: the {lost} already there is lost"
            )
        elif factor is not None:
            steps.append(f"{child_name}.{grad} = {factor} → {number(after)}")
        else:
            # Nothing to work out (`p.grad = g`, the share a rule returned): the value.
            steps.append(f"{child_name}.{grad} = {number(after)}")
    return steps


def said_as_built_in(
    node: Value,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    right: list[tuple[Value, float]] | None,
) -> bool:
    """Whether `own_rule_text` says what the built-in engine's sentences say (a leaf's, or
    `backward_text`'s), so that the page can write it (`engine.trace_columns`). A rule
    with writes is said so only where each is a `+=` whose factor was read off the code
    and none added again: the engine check's accumulation row reads it so
    (`engine_check._accumulation`)."""
    if not contributions and not node._prev:
        return True
    if right is None:
        return False
    if len(contributions) == len(right):
        # The usual rule in one loop (once per rule run): a `+=` per operand in the
        # operands' order, its factor read off the code and exactly the right one, and
        # none added again (a first write, or one that added just its product). Any
        # other rule is judged by the two walks below.
        upstream = node.grad
        # (`zip` without `strict=`, whose keyword costs a dict at each call: a rule's
        # tape and writes are appended together, and `right` is as long)
        for (child, local, delta, before), (write, _, read, _), (to, right_local) in zip(  # noqa: B905
            contributions, writes, right
        ):
            if write != "+=" or read is None or child is not to or local != right_local:
                break
            # `added_other`'s usual answer, without its call: the product, finite.
            if before != 0 and ((product := read * upstream) != delta or product - product):
                break
        else:
            return True
    return _written_right(contributions, writes, right) and not _added_again(
        node, contributions, writes
    )


def _added_again(
    node: Value,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
) -> list[tuple[Value, float]]:
    """The children (with the gradient they held) into which a `+=` whose factor was read
    off the code added something else: through a `grad` setter that adds what it is
    given, the gradient already there added again (`engine_check.added_again`)."""
    found = []
    upstream = node.grad
    # (`zip` without `strict=`, a dict at each call: tape and writes are appended together)
    for (child, _, delta, before), (write, _, local, after) in zip(contributions, writes):  # noqa: B905
        # `added_again` of the write, without a dict made for it: once per write.
        if (
            local is not None
            and before != 0
            and write != "="
            and added_other(local, upstream, delta, before, after)
        ):
            found.append((child, before))
    return found


def _written_right(
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    right: list[tuple[Value, float]],
) -> bool:
    """Whether a rule wrote exactly what the right engine writes: a `+=` per operand,
    each with the right factor, read off the code."""
    if len(contributions) != len(right):
        return False
    for write in writes:  # loops, not any() and all() of generators: once per rule run
        if write[0] != "+=" or write[2] is None:
            return False
    for c, r in zip(contributions, right):  # noqa: B905 (as long: a dict a call saved)
        if c[0] is not r[0]:
            break
        if c[1] != r[1] and not abs(c[1] - r[1]) <= 1e-9 * max(1.0, abs(r[1])):
            break
    else:
        return True  # the usual case: one write per operand, in the operands' order
    mine = _per_child([(c[0], c[1]) for c in contributions])
    correct = _per_child(right)
    return mine.keys() == correct.keys() and all(
        abs(mine[k] - correct[k]) <= 1e-9 * max(1.0, abs(correct[k])) for k in correct
    )


def _per_child(pairs: list[tuple[Value, float]]) -> dict[Value, float]:
    summed: dict[Value, float] = {}
    for child, local in pairs:
        summed[child] = summed.get(child, 0.0) + local
    return summed


def _parted_factors(
    contributions: list[tuple[Value, float, float, float]],
    right: list[tuple[Value, float]],
    name: Names,
    unknown: Collection[Value] = (),
    upstream: float = 1.0,
    grad: str = "grad",
    kink: tuple[str, float, float] | None = None,
) -> str:
    """` The right engine multiplies a.grad's share by 6, not 3.` for each child whose
    factor (all its writes together) is not the right one; not for a child in
    `unknown`, whose factor cannot be known (written over an upstream gradient of 0).
    A child given the right local derivative itself, where `upstream` is not 1, is told
    that the code did not multiply it by the upstream gradient; one given it times its
    own gradient so far (`self.grad += out.data * self.grad`), that it was multiplied by
    that, not by the upstream gradient. At a kink (`kink`: the op and the range of right
    local derivatives of a relu or abs of exactly 0) a factor out of the range is told
    the range."""
    mine = _per_child([(c[0], c[1]) for c in contributions])
    writes = _per_child([(c[0], 1.0) for c in contributions])
    had = {c[0]: c[3] for c in contributions}  # the gradient before: its one write's
    # A factor measured from what a `+=` added is only as good as the sum's rounding (a
    # share of 1e-11 added to a gradient of 7.4): that much apart is not parted.
    slack = _per_child(
        [(c[0], sum_rounding(c[3], c[3] + c[2]) * abs(c[1] / c[2])) for c in contributions if c[2]]
    )
    notes = []
    for child, correct in _per_child(right).items():
        if child in unknown:
            continue
        local = mine.get(child, 0.0)
        apart = abs(local - correct)
        if apart > 1e-6 * max(1.0, abs(local), abs(correct)) and apart > slack.get(child, 0.0):
            added = local * upstream
            if abs(added - correct) <= 1e-9 * max(1.0, abs(correct)):
                number = name.number
                notes.append(
                    f" {operand(name(child))}.{grad} got {number(added)}, the right local "
                    f"derivative alone: not multiplied by the upstream gradient "
                    f"{number(upstream)} (the right share is {number(correct * upstream)})."
                )
                continue
            before = had.get(child, 0.0) if writes.get(child) == 1.0 else 0.0
            times_own = correct * before
            if (
                before
                and abs(before - upstream) > 1e-9 * max(1.0, abs(upstream))
                and abs(added - times_own) <= 1e-9 * max(1.0, abs(times_own))
            ):
                number = name.number
                notes.append(
                    f" {operand(name(child))}.{grad} got {number(added)}, the right local "
                    f"derivative {number(correct)} times {name(child)}'s own gradient "
                    f"{number(before)}: "
                    f"not times the upstream gradient {number(upstream)} (the right share is "
                    f"{number(correct * upstream)})."
                )
                continue
            if kink is not None:
                op, low, high = kink
                notes.append(
                    f" {name(child)} is exactly 0, where {op} has no derivative: a right "
                    f"local derivative there is any number from {name.number(low)} to "
                    f"{name.number(high)}, not {name.number(local)}."
                )
                continue
            notes.append(
                f" The right local derivative for {name(child)} is {name.number(correct)}, "
                f"not {name.number(local)}."
            )
    return "".join(notes)


def measured_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    right: list[tuple[Value, float]],
    upstream: float,
    grad: str = "grad",
) -> str:
    """After the words of a rule whose op no table knows, once the program has ended and
    re-runs of its op's code have measured the right local derivatives (`right`): each
    factor that is not the right one, named beside it as `own_rule_text` names a table's,
    and how the right one was found; "" where every factor is right.

    Example (a `cube` whose rule forgets the 3, c = −6): `" The right local derivative for
    c is 108, not 36. No table knows cube: the right one was measured by running its own
    code again with c nudged a tiny step up and down."`
    """
    unknown = {c[0] for c, w in zip(contributions, writes, strict=True) if w[2] is None}
    notes = _parted_factors(
        contributions, right, name, unknown if upstream == 0 else (), upstream, grad
    )
    if not notes:
        return ""
    nudged = " and ".join(dict.fromkeys(name(child) for child, _ in right))
    return (
        f"{notes} No table knows {node._op}: the right one was measured by running its own "
        f"code again with {nudged} nudged a tiny step up and down."
    )


def parted_text(
    node: Value,
    name: Names,
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    right: list[tuple[Value, float]],
    upstream: float,
    grad: str = "grad",
) -> str:
    """After the words of a stretch of a rule cut by the rules it calls (`rule_stretch_text`),
    once its run has ended (`contributions`, `writes`: the whole run's, an `=` that kept
    the gradient there already read as what it added: `kept_as_added`): each factor, of
    the operands in `right`, that is not the right one, as `own_rule_text` names a whole
    rule's.

    Example (c's share, its rule's second stretch): `" The right local derivative for c is
    6, not 12."`"""
    unknown = {c[0] for c, w in zip(contributions, writes, strict=True) if w[2] is None}
    return _parted_factors(
        contributions, right, name, unknown if upstream == 0 else (), upstream, grad
    )


def kept_as_added(
    contributions: list[tuple[Value, float, float, float]],
    writes: list[tuple[str, int, float | None, float]],
    right: list[tuple[Value, float]],
    upstream: float,
) -> list[tuple[Value, float, float, float]]:
    """A rule's writes with each `=` that wrote the old gradient plus a right share
    (`p.grad = g if p.grad is None else p.grad + g`) read as what it added, as
    `own_rule_text` reads them (`engine.lab.engine_check.kept_writes`): its factor is not
    the gradient it wrote over upstream."""
    if not upstream or not any(write[0] == "=" for write in writes):
        return contributions
    kept = kept_writes(
        [(c[0], w[0], c[3], w[3]) for c, w in zip(contributions, writes, strict=True)],
        right,
        upstream,
    )
    return [
        (c[0], c[2] / upstream, c[2], c[3]) if keeps else c
        for c, keeps in zip(contributions, kept, strict=True)
    ]


def _kink(node: Value) -> tuple[str, float, float] | None:
    """The node's op and its range of right local derivatives, at a kink (`kink_range`)."""
    kink = kink_range(node, node._prev)
    return None if kink is None else (node._op, *kink)


def kink_text(node: Value, name: Names, local: float) -> str:
    """After the words of a rule that ran at its op's kink (relu or abs of exactly 0)
    with a factor other than micrograd's, in the range of right ones: that it is right.

    Example: `" x is exactly 0, where relu has no derivative: any local derivative from 0
    to 1 is right there (a subgradient), and the right engine takes this rule's 1."`
    """
    kink = kink_range(node, node._prev)
    if kink is None:
        return ""
    low, high = kink
    number = name.number
    return (
        f" {name(node._prev[0])} is exactly 0, where {node._op} has no derivative: any local "
        f"derivative from {number(low)} to {number(high)} is right there (a subgradient), "
        f"and the right engine takes this rule's {number(local)}."
    )


def leaf_text(node: Value, name: Names) -> str:
    """A leaf's backward text: `x1 is a leaf: its rule does nothing. grad = -1.5.`"""
    what = "constant" if node._const else "leaf"
    own = name._names.get(node) or name(node)
    grad = name._numbers.get(node.grad) or name.number(node.grad)
    return leaf_rule(own, what, grad)


# `rule_text` of each op met so far, in every trace of this process: the ops are few,
# but a foreign engine may name its own, hence the bound.
_RULE_TEXTS: dict[str, str] = {}
MAX_RULE_TEXTS = 256


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
