"""The columns encoding: the same trace in a fifth of the bytes, for the page to read.

A trace (`engine.trace.format.Trace`, JSON schema 1 or 2) is lists of objects: every
node, frame and `+=` repeats its keys, every reference is a string id, three of a
contribution's six numbers follow from the others, and most frames' texts can be
written again from the trace's own numbers and names. The columns encoding keeps one
list per field, refers to nodes by their index, and leaves out what the page can work
out for itself: a number only where the replay gives it back exactly (checked here),
and a text where the page's sentence (`engine.trace.sentences.SENTENCES`, carried in
the encoding) gives back every character. The page decodes it
(`static/js/passes/columns.js`) into the very trace this module was given, and writes a
frame's text when it shows the frame. `docs/TRACE.md` describes the fields; schema 1
and 2 stay what the API answers unless a client asks for columns.

A text the engine wrote is left out only if it is the sentence's, checked here. The
frames `engine.trace_columns` did not narrate at all (`sentences.Said` in place of a
text: those the built-in engine's sentences say, all of a straight-line program's and
most of a real program's) are left out unchecked; the round trips of
`tests/app/test_columns.py`, the same programs through both, stand for that check.

Example: `to_columns(trace_source("a = Value(3.0)\\nb = a + a\\nb.backward()"))` has
`"nodes": {"label": ["a", "b"], …}`, `"edges": [0, 1, 0, 1]`, `"phase": "bskk"` and no
frame text: each of its four frames says what the sentences say.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from backprop_animator.engine.lab.engine_check import Raw, contribution_dicts
from backprop_animator.engine.trace.narrate import ordinal, rule_text
from backprop_animator.engine.trace.number_format import format_number
from backprop_animator.engine.trace.sentences import (
    SAID,
    SENTENCES,
    Said,
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

ENCODING = "columns"
VERSION = 1
PHASES = {"build": "b", "sort": "s", "backward": "k", "update": "u"}
KINDS = ("leaf", "const", "op")
_CONST = KINDS.index("const")
_HAS_OPERANDS = KINDS.index("op")
NODE_FIELDS = ("id", "label", "name", "op", "kind", "data", "grad")
NODE_OPTIONAL_COLUMNS = ("group", "rule", "correct_grad")
NODE_KEYS_IN_COLUMNS = frozenset(NODE_FIELDS + NODE_OPTIONAL_COLUMNS)
# A frame's keys that have columns of their own; any other goes, as it is, in `more`.
FRAME_COLUMNS = ("phase", "node", "pass", "line", "text", "contributions", "prints")
_FRAME_COLUMN_KEYS = frozenset(FRAME_COLUMNS)
CONTRIBUTION_FIELDS = ("to", "local", "upstream", "delta", "before", "after")
CONTRIBUTION_KEYS_IN_COLUMNS = frozenset((*CONTRIBUTION_FIELDS, "write", "line", "subtracts"))
# A contribution's `write`, a letter each (`.`: none); a `+=` that `subtracts` (a `-=`): `-`.
WRITES = {"+=": "+", "=": "="}
WRITE_LETTERS = {**WRITES, "-=": "-"}  # a learner's write as the recorder keeps it
_EDGE_ENDS = itemgetter("source", "target")
_ID, _LABEL, _NAME, _OP, _KIND, _DATA, _GRAD = map(itemgetter, NODE_FIELDS)
_CONTRIBUTION = itemgetter(*CONTRIBUTION_FIELDS)


def to_columns(trace: dict[str, Any]) -> dict[str, Any]:
    """The columns encoding of `trace` (see the module's docstring and docs/TRACE.md)."""
    nodes = trace["nodes"]
    index = {node["id"]: i for i, node in enumerate(nodes)}
    at = index.__getitem__
    # Each edge's source then target, as indices: the page's `edges`, and the operands
    # of each node when a build text is checked (`_Frames.built`).
    edges = list(map(at, chain.from_iterable(map(_EDGE_ENDS, trace["edges"]))))
    out: dict[str, Any] = {
        "encoding": ENCODING,
        "version": VERSION,
        "schema": trace["schema"],
        "source": trace["source"],
        "granularity": trace["granularity"],
        "nodes": _node_columns(nodes),
        "edges": edges,
        "topo": list(map(at, trace["topo"])),
        "output": index[trace["output"]],
        "passes": [_pass_entry(entry, trace["topo"], index) for entry in trace["passes"]],
        "ops": trace["ops"],
        "sentences": SENTENCES,
        "rules": rules_of(list(map(_OP, nodes))),
    }
    return with_frames(out, trace["frames"], index, list(map(_NAME, nodes)), trace)


def rules_of(ops: list[str]) -> dict[str, str]:
    """The `rules` of the encoding: each op's rule as the page's sentences say it."""
    return {op: rule_text(op) for op in dict.fromkeys(filter(None, ops))}


def with_frames(
    out: dict[str, Any],
    frames: list[dict[str, Any]],
    index: dict[str, int],
    names: list[str],
    trace: dict[str, Any],
    raw: dict[Any, int] | None = None,
    changed: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """`out`, the encoding but for its frames, with them: `frames` the trace's, `index`
    each node id's index (an update's changes, a pass's names), `names` each node's name,
    and from `trace` its `mistake` and `engine_check` if it has them. `raw`: each node's
    index where the frames keep their nodes and rules' contributions as the recorder
    does (`recorder.Recorder.finish` for `engine.trace_columns`): no ids or dicts are
    made for them. `changed`: the frames that have `changes`, in order, where the caller
    knows them (the recorder does), so that only those are walked for the first data."""
    out["frames"] = _Frames(frames, out, index, names, raw, changed).columns()
    for key in ("mistake", "engine_check"):
        if key in trace:
            out[key] = trace[key]
    return out


def _node_columns(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    # Each column read with `map` (a node costs no bytecode per field).
    labels = list(map(_LABEL, nodes))
    columns: dict[str, Any] = {
        "label": labels,
        # A node's name is its label where it has one: only the others are written.
        "name": [
            None if name == label else name
            for name, label in zip(map(_NAME, nodes), labels, strict=True)
        ],
        "op": list(map(_OP, nodes)),
        "kind": list(map(KINDS.index, map(_KIND, nodes))),
        "data": list(map(_DATA, nodes)),
        "grad": list(map(_GRAD, nodes)),
    }
    ids = list(map(_ID, nodes))
    if ids != [f"n{i}" for i in range(len(nodes))]:
        columns["id"] = ids  # ids are `n0`, `n1`, … unless written
    # A real program's nodes have a group, most a rule and a right gradient: columns
    # too, null where a node has none.
    for key in NODE_OPTIONAL_COLUMNS:
        if any(key in n for n in nodes):
            columns[key] = list(map(dict.get, nodes, repeat(key)))
    # A node with a key of no column (`underflow`, `reference`) has the rest in `more`.
    if not all(map(NODE_KEYS_IN_COLUMNS.issuperset, nodes)):
        columns["more"] = {
            str(i): {k: v for k, v in n.items() if k not in NODE_KEYS_IN_COLUMNS}
            for i, n in enumerate(nodes)
            if not n.keys() <= NODE_KEYS_IN_COLUMNS
        }
    return columns


def _pass_entry(entry: dict[str, Any], topo: list[str], index: dict[str, int]) -> dict[str, Any]:
    out = dict(entry)
    out["output"] = index[entry["output"]]
    # The usual pass sorts what the trace's `topo` holds: null says so.
    out["topo"] = None if entry["topo"] == topo else [index[n] for n in entry["topo"]]
    return out


class _Frames:
    """The frames as columns, walking them as the page will: every node's data and
    gradient as they change (`data`, `grads`) and each child's count of `+=`s in the
    pass (`received`), which is what the page needs to give back what is left out."""

    def __init__(
        self,
        frames: list[dict[str, Any]],
        out: dict[str, Any],
        index: dict[str, int],
        names: list[str],
        raw: dict[Any, int] | None = None,
        changed: list[dict[str, Any]] | None = None,
    ):
        self.frames = frames
        self.out = out
        self.index = index
        # A frame's node and a contribution's child, by index: by id, or as the recorder
        # keeps them (`raw`: its nodes, whose rules' contributions are its `Raw` tuples).
        self.at: dict[Any, int] = index if raw is None else raw
        self.raw = raw is not None
        self.rules = out["rules"]
        self.edges = out["edges"]  # each edge's source and target index, flat
        nodes = out["nodes"]
        self.ops = nodes["op"]
        self.consts = [kind == _CONST for kind in nodes["kind"]]
        # A node with no operands is a leaf, whatever op its class gave it (`_op="leaf"`):
        # its rule frame says so (`narrate.leaf_text`).
        self.has_operands = [kind == _HAS_OPERANDS for kind in nodes["kind"]]
        self.data = _first_data(nodes["data"], frames if changed is None else changed, index)
        self.grads: list[float] = [0.0] * len(names)
        self.received: dict[int, int] = {}
        # Each node, then its operands (indices): made when a build's numbers are checked.
        self._built: list[list[int]] | None = None
        self.names = names
        # (most passes rename nothing: an empty dict, with no comprehension run for it)
        self.pass_names = [
            {index[k]: v for k, v in names.items()} if (names := entry["names"]) else {}
            for entry in out["passes"]
        ]
        # The columns, and the sparse tables of what the rules do not give back.
        self.phase: list[str] = []
        self.node: list[int] = []
        self.passes: list[int] = []
        self.line: list[int] = []
        self.text: dict[str, str] = {}
        self.symbolic: dict[str, str] = {}
        self.swapped: list[int] = []
        self.more: dict[str, dict[str, Any]] = {}
        self.prints: dict[str, list[str]] = {}
        self.count: list[int] = []
        self.to: list[int] = []
        self.local: list[float | None] = []
        self.kept: dict[str, dict[str, Any]] = {field: {} for field in CONTRIBUTION_FIELDS[2:]}
        self.contribution_more: dict[str, dict[str, Any]] = {}
        self.writes: list[str] = []  # letters of `WRITES`, up to the last contribution with one
        self.write_lines: list[int] = []
        # What `numbers_of` works with, in one attribute: it runs for most frames.
        kept = self.kept
        self.at_hand = (
            self.grads, index, kept, kept["delta"], kept["after"], self.received,
            self.to, self.local, self.writes, self.write_lines,
        )  # fmt: skip

    @property
    def built(self) -> list[list[int]]:
        """Each node's index, then its operands' in order: the nodes whose data a build
        text shows."""
        if self._built is None:
            built = self._built = [[i] for i in range(len(self.names))]
            edges = self.edges
            for source, target in zip(edges[::2], edges[1::2], strict=True):
                built[target].append(source)
        return self._built

    def number(self, x: float) -> str:
        return format_number(float(x))  # as the page reads it: a double

    def name(self, node: int, pass_: int) -> str:
        if pass_ < len(self.pass_names):
            renamed = self.pass_names[pass_].get(node)
            if renamed is not None:
                return str(renamed)
        return str(self.names[node])

    def columns(self) -> dict[str, Any]:
        # Each frame's own columns here, with the lists at hand (a frame costs what its
        # fields cost), and a text the engine left to the page (`Said`) taken here too:
        # nearly every frame's. Any other text is checked in `frame_text`.
        index, phases, nodes, passes, lines, counts = (
            self.at, self.phase, self.node, self.passes, self.line, self.count
        )  # fmt: skip
        frames = self.frames
        # A trace of several passes has `pass` on every frame (`_USUAL_KEYS_IN_PASSES`).
        usual_keys = _USUAL_KEYS_IN_PASSES if frames and "pass" in frames[0] else _USUAL_KEYS
        numbers_of = self.numbers_of_raw if self.raw else self.numbers_of
        data_at, grads = self.data.__getitem__, self.grads  # (lists changed in place)
        raw = self.raw
        kept, received = self.kept, self.received
        kept_upstream, kept_delta, kept_before, kept_after = (
            kept["upstream"], kept["delta"], kept["before"], kept["after"]
        )  # fmt: skip
        to_column, local_column, write_column, write_lines = (
            self.to, self.local, self.writes, self.write_lines
        )  # fmt: skip
        symbolic_column = self.symbolic
        for k, frame in enumerate(frames):
            phase = frame["phase"]
            node = index[frame["node"]] if "node" in frame else -1
            pass_ = frame.get("pass", -1)
            phases.append(PHASES[phase])
            nodes.append(node)
            passes.append(pass_)
            lines.append(frame.get("line", -1))
            keys = frame.keys()
            if keys != usual_keys[phase]:
                if not keys <= _FRAME_COLUMN_KEYS:  # (schema 2's `pass` has a column)
                    more = {key: value for key, value in frame.items() if key not in FRAME_COLUMNS}
                    self.more[str(k)] = more
                if "prints" in frame:
                    self.prints[str(k)] = frame["prints"]
            contributions = frame.get("contributions")
            if contributions is None:
                counts.append(-1)
            elif raw:
                # (upstream, tape, writes, lost): the tape's, one a contribution
                counts.append(len(contributions[1]))
                if not contributions[1]:
                    contributions = None  # (a rule that wrote nothing)
            else:
                counts.append(len(contributions))
            text = frame["text"]
            if type(text) is not Said:
                if contributions is not None and raw:
                    contributions = contribution_dicts(contributions, None)
                self.frame_text(k, frame, phase, node, pass_, contributions)
                continue
            # The engine left this text to the page.
            if contributions:
                if raw and contributions[2] is not None:
                    # A learner's rule as the recorder keeps it: `numbers_of_raw`, inline
                    # (once per rule frame), where every number is a float already.
                    said_upstream, tape, written, _ = contributions
                    upstream = grads[node]
                    # (`zip` without `strict=`, whose keyword costs a dict at each call:
                    # a rule's tape and writes are appended together, `contribution`)
                    for (child_node, _, delta, before), (write, line, local, after) in zip(  # noqa: B905
                        tape, written
                    ):
                        at = len(to_column)
                        child = index[child_node]
                        to_column.append(child)
                        local_column.append(local)
                        replayed = grads[child]
                        if local is None:
                            kept_delta[str(at)] = delta
                            kept_after[str(at)] = after
                        else:
                            if delta != local * upstream:
                                kept_delta[str(at)] = delta
                            if after != replayed + delta:
                                kept_after[str(at)] = after
                        if said_upstream != upstream:
                            kept_upstream[str(at)] = said_upstream
                        if before != replayed:
                            kept_before[str(at)] = before
                        if len(write_column) < at:
                            write_column.extend("." * (at - len(write_column)))
                            write_lines.extend([-1] * (at - len(write_lines)))
                        write_column.append(WRITE_LETTERS[write])
                        write_lines.append(line)
                        grads[child] = after
                        received[child] = received.get(child, 0) + 1
                else:
                    numbers_of(node, contributions, None)
            elif phase == "sort":
                self.seed(frame, max(pass_, 0))  # (the page writes its sentence)
            if text is not SAID:  # (a rule that added something: nothing more to check)
                symbolic, swapped, numbers = text
                if symbolic is not None:
                    symbolic_column[str(k)] = symbolic
                if swapped:
                    self.swapped.append(k)
                # `check_numbers`' usual answer, without its call: the replay shows the
                # numbers the text would (a build's data, a rule frame's gradient).
                if numbers is not None and (
                    numbers != tuple(map(data_at, self.built[node]))
                    if phase == "build"
                    else numbers[0] != grads[node]
                ):
                    self.check_numbers(k, phase, node, max(pass_, 0), text)
        return self.assembled()

    def assembled(self) -> dict[str, Any]:
        """The columns, once every frame is in them (`columns`)."""
        passes = self.passes
        has_pass = bool(passes) and max(passes) >= 0
        out: dict[str, Any] = {
            "phase": "".join(self.phase),
            "node": self.node,
            "line": self.line,
            "count": self.count,
            "to": self.to,
            "local": self.local,
        }
        if has_pass:
            out["pass"] = self.passes
        if self.writes:
            missing = len(self.to) - len(self.writes)
            out["write"] = "".join(self.writes) + "." * missing
            out["write_line"] = self.write_lines + [-1] * missing
        sparse = {
            "text": self.text,
            "symbolic": self.symbolic,
            "swapped": self.swapped,
            "more": self.more,
            "prints": self.prints,
            "contribution_more": self.contribution_more,
            **{f"kept_{field}": kept for field, kept in self.kept.items()},
        }
        out.update({key: value for key, value in sparse.items() if value})
        return out

    def frame_text(
        self,
        k: int,
        frame: dict[str, Any],
        phase: str,
        node: int,
        pass_: int,
        contributions: list[dict[str, Any]] | None,
    ) -> None:
        """Frame `k`'s text, where the page's sentence does not give it back, and its
        contributions' numbers, where the replay does not (`numbers_of`); a text the
        engine wrote (not `Said`)."""
        at = max(pass_, 0)
        said: str | None
        if phase == "backward":
            said = self.backward(node, at, contributions or [])
        elif phase == "build":
            said = self.build(k, node, at, frame["text"])
        elif phase == "sort":
            said = self.sort(frame, at)
        else:
            self.apply(frame["changes"])
            said = None
        if said != frame["text"]:
            self.text[str(k)] = frame["text"]

    def check_numbers(self, k: int, phase: str, node: int, pass_: int, said: Said) -> None:
        """A real program's frame the engine left to the page: where the page's replay
        would show other numbers than the text would have, the text is written here."""
        numbers = said.numbers
        assert numbers is not None
        if phase == "build":
            if numbers == tuple(map(self.data.__getitem__, self.built[node])):
                return  # the usual build: the replay shows the numbers the text would
        elif numbers[0] == self.grads[node]:
            return  # the usual rule frame: the replay shows the gradient the text would
        own = self.name(node, pass_)
        number = self.number
        if phase == "build":
            operands = [number(x) for x in numbers[1:]]
            numeric = worked_out(self.ops[node], operands[::-1] if said.swapped else operands)
            if said.symbolic is not None:
                text = built_named(own, said.symbolic, numeric, number(numbers[0]))
            elif numeric == own:
                text = built_bare(own, number(numbers[0]))
            else:
                text = built(own, numeric, number(numbers[0]))
        elif self.has_operands[node]:
            op = self.ops[node]
            text = rule_ran(own, op, number(numbers[0]), self.rules.get(op, ""), "")
        else:
            what = "constant" if self.consts[node] else "leaf"
            text = leaf_rule(own, what, number(numbers[0]))
        self.text[str(k)] = text

    def apply(self, changes: list[dict[str, Any]]) -> None:
        for change in changes:
            values = self.grads if change["field"] == "grad" else self.data
            values[self.index[change["node"]]] = change["after"]

    def sort(self, frame: dict[str, Any], pass_: int) -> str | None:
        entry = self.seed(frame, pass_)
        if entry is None:
            return None  # a sort step's sentence is the lab's (`engine.lab.sort_steps`)
        count = len(self.out["topo"] if entry["topo"] is None else entry["topo"])
        output = operand(self.name(entry["output"], pass_))
        return sorted_nodes(str(count), nodes_word(count), output)

    def seed(self, frame: dict[str, Any], pass_: int) -> dict[str, Any] | None:
        """What a sort frame does to the replay (its seed, or what its backward() wrote),
        without its sentence: the pass's entry, or None for a sort step (no seed)."""
        step = frame.get("step")
        if step is not None and step != "seed":
            return None
        self.received.clear()
        entry: dict[str, Any] = self.out["passes"][pass_]
        if "changes" in frame:
            self.apply(frame["changes"])
        else:
            self.grads[entry["output"]] = 1.0
        return entry

    def build(self, k: int, node: int, pass_: int, text: str) -> str | None:
        own = self.name(node, pass_)
        number = self.number
        data = self.data
        shown = number(data[node])
        operands = [number(data[child]) for child in self.built[node][1:]]
        op = self.ops[node]
        numeric = worked_out(op, operands)
        said = built_bare(own, shown) if numeric == own else built(own, numeric, shown)
        if said == text:
            return said
        if op == "*" and len(operands) == 2 and operands[0] != operands[1]:
            swapped = worked_out("*", operands[::-1])  # as the program wrote it: `2*a`
            if text.endswith(f" = {swapped} = {shown}"):
                self.swapped.append(k)
                numeric = swapped
                said = built(own, numeric, shown)
                if said == text:
                    return said
        head, tail = f"{own} = ", f" = {numeric} = {shown}"
        if text.startswith(head) and text.endswith(tail) and len(text) > len(head) + len(tail):
            symbolic = text[len(head) : len(text) - len(tail)]
            said = built_named(own, symbolic, numeric, shown)
            if said == text:
                self.symbolic[str(k)] = symbolic
                return said
        if self.swapped and self.swapped[-1] == k:
            self.swapped.pop()
        return None

    def backward(self, node: int, pass_: int, contributions: list[dict[str, Any]]) -> str:
        upstream = self.grads[node]  # before the rule's `+=`s, which may write it
        counts: list[int] = []
        self.numbers_of(node, contributions, counts)
        steps = [
            self.add_text(self.at[c["to"]], pass_, count, c)
            for c, count in zip(contributions, counts, strict=True)
        ]
        own = self.name(node, pass_)
        op = self.ops[node]
        if not contributions and not self.has_operands[node]:
            what = "constant" if self.consts[node] else "leaf"
            return leaf_rule(own, what, self.number(self.grads[node]))
        shown = self.number(contributions[0]["upstream"] if contributions else upstream)
        return rule_ran(own, op, shown, self.rules.get(op, ""), "; ".join(steps))

    def numbers_of(
        self, node: int, contributions: list[dict[str, Any]], counts: list[int] | None
    ) -> None:
        """Adds a rule's contributions, keeping each number the replay does not give back;
        each one's count of `+=`s into its child in the pass, to `counts` if given."""
        grads, _, kept, kept_delta, kept_after, received, to, locals_, writes, write_lines = (
            self.at_hand
        )
        index = self.at
        upstream = grads[node]
        usual = len(CONTRIBUTION_FIELDS)
        for c in contributions:
            at = len(to)
            child_id, local, said_upstream, delta, before, after = _CONTRIBUTION(c)
            child = index[child_id]
            to.append(child)
            locals_.append(local)
            replayed = grads[child]
            if local is None or type(local) is not float:
                kept_delta[str(at)] = delta
                kept_after[str(at)] = after
            else:
                if delta != local * upstream or type(delta) is not float:
                    kept_delta[str(at)] = delta
                if after != replayed + delta or type(after) is not float:
                    kept_after[str(at)] = after
            if said_upstream != upstream or type(said_upstream) is not float:
                kept["upstream"][str(at)] = said_upstream
            if before != replayed or type(before) is not float:
                kept["before"][str(at)] = before
            if len(c) > usual:
                write = c.get("write")
                if write is not None and len(c) == usual + 2 and len(writes) == at:
                    writes.append(WRITES[write])  # a learner's own class: every `+=` has them
                    write_lines.append(c["line"])
                else:
                    self.other_fields(at, c)
            grads[child] = after
            received[child] = count = received.get(child, 0) + 1
            if counts is not None:
                counts.append(count)

    def numbers_of_raw(self, node: int, raw: Raw, counts: None) -> None:
        """`numbers_of` of a rule's contributions as the recorder keeps them (`Raw`): the
        same columns, read off its tape and writes with no dict made for them. (`columns`
        reads a learner's rule so inline, the usual case.)"""
        grads, _, kept, kept_delta, kept_after, received, to, locals_, writes, write_lines = (
            self.at_hand
        )
        index = self.at
        upstream = grads[node]
        said_upstream, tape, written, lost = raw
        kept_upstream, kept_before = kept["upstream"], kept["before"]
        if written is None:  # the built-in engine's rule
            written = repeat(None)
        for (node_, local, delta, before), entry in zip(tape, written, strict=False):
            at = len(to)
            child = index[node_]
            to.append(child)
            if entry is None:
                after = float(before + delta)
                local, delta, before = float(local), float(delta), float(before)
            else:
                write, line, local, after = entry
            locals_.append(local)
            replayed = grads[child]
            if local is None or type(local) is not float:
                kept_delta[str(at)] = delta
                kept_after[str(at)] = after
            else:
                if delta != local * upstream or type(delta) is not float:
                    kept_delta[str(at)] = delta
                if after != replayed + delta or type(after) is not float:
                    kept_after[str(at)] = after
            if said_upstream != upstream or type(said_upstream) is not float:
                kept_upstream[str(at)] = said_upstream
            if before != replayed or type(before) is not float:
                kept_before[str(at)] = before
            if entry is not None:  # a learner's own class: every `+=` has its write and line
                if len(writes) < at:
                    writes.extend("." * (at - len(writes)))
                    write_lines.extend([-1] * (at - len(write_lines)))
                writes.append(WRITE_LETTERS[write])
                write_lines.append(line)
            grads[child] = after
            received[child] = received.get(child, 0) + 1
        for i in lost or ():
            self.contribution_more[str(len(to) - len(tape) + i)] = {"underflow": True}

    def other_fields(self, at: int, c: dict[str, Any]) -> None:
        """A contribution's `write` and `line` (a learner's own class: every one has
        them) in their columns, anything else (`underflow`) in `contribution_more`."""
        write = c.get("write")
        if write is not None:
            writes = self.writes
            if len(writes) < at:
                writes.extend("." * (at - len(writes)))
                self.write_lines.extend([-1] * (at - len(self.write_lines)))
            writes.append("-" if c.get("subtracts") else WRITES[write])
            self.write_lines.append(c["line"])
        if len(c) > len(CONTRIBUTION_FIELDS) + (2 if write is not None else 0):
            more = {k: v for k, v in c.items() if k not in CONTRIBUTION_KEYS_IN_COLUMNS}
            if more:
                self.contribution_more[str(at)] = more

    def add_text(self, child: int, pass_: int, count: int, c: dict[str, Any]) -> str:
        name = operand(self.name(child, pass_))
        number = self.number
        local = "" if c["local"] is None else number(c["local"])
        upstream, after = number(c["upstream"]), number(c["after"])
        if count == 1 and c["before"] == 0:
            return first_add(name, local, upstream, after)
        before, delta = number(c["before"]), number(c["delta"])
        if count == 1:
            return held_add(name, local, upstream, before, delta, after)
        return later_add(name, local, upstream, ordinal(count), before, delta, after)


# The keys of a frame with nothing but columns, by phase (schema 1's frames).
_USUAL_KEYS = {
    "build": {"phase": 0, "node": 0, "text": 0, "line": 0}.keys(),
    "sort": {"phase": 0, "text": 0}.keys(),
    "backward": {"phase": 0, "node": 0, "text": 0, "contributions": 0}.keys(),
    # An update's `changes` always go in `more`: no column holds them.
    "update": {"phase": 0, "line": 0, "text": 0}.keys(),
}
# And with a pass each (a real program's frames, schema 2's).
_USUAL_KEYS_IN_PASSES = {
    phase: dict.fromkeys((*keys, "pass")).keys() for phase, keys in _USUAL_KEYS.items()
}


def _first_data(
    data: list[float], frames: list[dict[str, Any]], index: dict[str, int]
) -> list[float]:
    """Every node's data before the program's first write to it: each node's last data
    (`data`), then, from the last frame to the first, what each write to `.data` replaced
    (`frames`: all of them, or those with `changes`, in order)."""
    data = list(data)
    for frame in reversed(frames):
        for change in reversed(frame.get("changes", ())):
            if change["field"] == "data":
                data[index[change["node"]]] = change["before"]
    return data
