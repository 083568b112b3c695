"""Real traces are exactly what `engine.trace.format` types: every field of the right
type, no key it does not name (closed dicts), and every optional field, every `Literal`
value and every branch of a union seen in at least one trace, so that the types
describe what the engine emits and nothing it does not.

The corpus: the golden traces, every example with each mistake and with the sort step
by step, every program of `engine.program_examples`, a few real programs, the bug
lab's and a learner's own engine's corner cases, and graphs built in Python.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, get_args, get_origin

from backprop_animator.engine import (
    MISTAKES,
    EngineError,
    Value,
    enginecheck_source,
    program_examples,
    trace_source,
    trace_value,
)
from backprop_animator.engine.examples import EXAMPLES
from backprop_animator.engine.trace import format as trace_format
from tests.engine.regenerate_golden import GOLDEN, GOLDEN_IDS
from tests.support.traces import ROOMY, traced

REAL_CODE = Path(__file__).parent / "real_code"
LEARNER_BUGS = Path(__file__).parent / "learner_bugs"
# Small real programs as people paste them: dataclasses, other names for the parts of a
# node class, annotations, micrograd's nn imported, `:=`, sorting by keys.
REAL_PROGRAMS = (
    "dataclass_engine.py",
    "requires_grad_engine.py",
    "other_names_engine.py",
    "typed_engine.py",
    "micrograd_nn_import.py",
    "walrus.py",
    "collections_sort.py",
    "recursive_backward.py",  # a backward() that calls no rule: `passes[].backward.call` null
    "hand_run_backward.py",  # backward frames with the line of a call by hand
)

# Methods for the example's own engine that the right engine knows only numerically
# (`-`), or not at all (`odd`), with writes whose factor cannot be read off the code.
OWN_METHODS = """\
    def __sub__(self, other):
        out = Value(self.data - other.data, (self, other), '-')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += (-1.0 * out.grad) + 0.0

        out._backward = _backward
        return out

    def odd(self):
        out = Value(self.data * 3 + 1, (self,), 'odd')

        def _backward():
            self.grad += 3 * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
"""
OWN_ENGINE_CLASS = program_examples.OWN_ENGINE_FORK[
    : program_examples.OWN_ENGINE_FORK.index("a = Value(")
].replace("    def __radd__(self, other):\n", OWN_METHODS)

# Optional keys every trace has all the same, with why the types cannot require them.
ALWAYS_THERE = {
    ("UpdateFrame", "pass"): "update frames come from real programs only, whose frames all "
    "have `pass`; every frame shares `FrameBase`, as docs/TRACE.md describes `pass`",
}

PROGRAMS = {
    # Several passes, an update frame and prints.
    "training loop": (
        "w = Value(1.0, label='w')\nfor k in range(3):\n    loss = w * w + w\n"
        "    w.grad = 0.0\n    loss.backward()\n    w.data -= 0.1 * w.grad\n"
        "    print(k, loss.data)\n"
    ),
    "print before a node": (
        "a = Value(2.0)\nprint('made a')\nb = a * a\nprint('made b')\nb.backward()\n"
        "b.backward()\nprint('end')"
    ),
    "functions and a loop": (
        "def neuron(xs, ws, b):\n    act = b\n    for x, w in zip(xs, ws):\n"
        "        act = act + x * w\n    return act.tanh()\n\n"
        "ws = [Value(0.5), Value(-1.0)]\nout = neuron([1.0, 2.0], ws, Value(0.1))\n"
        "out.backward()\n"
    ),
    # Underflow: of a node's data, and of the amount a rule passes on.
    "underflow of data": "a = Value(1e-200)\nb = Value(1e-200)\nc = a * b",
    "underflow of a contribution": "x = Value(250.0)\no = tanh(x)\no.backward()",
    # A learner's engine: a numeric reference, a factor not read off, an unknown op.
    "own engine, minus": OWN_ENGINE_CLASS
    + "a = Value(2.0, label='a')\nb = Value(5.0, label='b')\nc = a - b\nd = c * a\n"
    "d.backward()\n",
    # A `-=` into a gradient: `write` "+=" with `subtracts`, its local minus the factor.
    "own engine, -=": (
        OWN_ENGINE_CLASS + "a = Value(2.0, label='a')\nb = Value(5.0, label='b')\nc = a - b\n"
        "c.backward()\n"
    ).replace("other.grad += (-1.0 * out.grad) + 0.0", "other.grad -= out.grad"),
    "own engine, unknown op": OWN_ENGINE_CLASS
    + "a = Value(2.0, label='a')\nb = a.odd()\nc = b * b\nc.backward()\nc.backward()\n",
    # Its gradient kept under another name: `engine_check.grad`.
    "own engine, gradient": (
        OWN_ENGINE_CLASS + "a = Value(2.0, label='a')\nb = a * a + a\nb.backward()\n"
    ).replace(".grad", ".gradient"),
}


def _cases() -> Iterator[tuple[str, Callable[[], dict[str, Any]]]]:
    """(name, how to make it) for every trace of the corpus."""
    for golden_id in GOLDEN_IDS:
        path = GOLDEN / f"{golden_id}.json"
        yield f"golden {golden_id}", lambda path=path: json.loads(path.read_text("utf-8"))
    sources = [(example.id, example.source, example.granularity) for example in EXAMPLES]
    sources += [
        (name, text, "packed")
        for name, text in vars(program_examples).items()
        if name.isupper() and not name.startswith("_") and isinstance(text, str)
    ]
    sources += [(name, text, "expanded") for name, text in PROGRAMS.items()]
    sources += [(name, (REAL_CODE / name).read_text("utf-8"), "packed") for name in REAL_PROGRAMS]
    # A tape nothing clears: the sort's `first` names a rule left over (`pass`, `line`);
    # an op row's `first` names an operand a set merged away (`merged`), or the operand
    # that keeps the node's rule (`kept_on`).
    sources += [
        (name, (LEARNER_BUGS / name).read_text("utf-8"), "packed")
        for name in (
            "tape_never_cleared.py",
            "topo_default_list.py",
            "hash_merges_products.py",
            "rule_on_operand.py",
        )
    ]
    for name, source, granularity in sources:
        for mistake in (None, *MISTAKES):
            for sort_steps in (False, True):
                yield (
                    f"{name} {granularity} mistake={mistake} sort_steps={sort_steps}",
                    # The real programs' traces test_columns.py... make too (ROOMY).
                    lambda s=source, g=granularity, m=mistake, ss=sort_steps: traced(
                        trace_source, s, g, ROOMY, mistake=m, sort_steps=ss
                    ),
                )
    for mistake in (None, *MISTAKES):
        yield f"trace_value mistake={mistake}", lambda m=mistake: trace_value(_graph(), mistake=m)
    yield "trace_value of micrograd", _micrograd_trace


def _graph() -> Value:
    """The article's neuron, built in Python: no lines, no passes."""
    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2 = Value(-3.0, label="w1"), Value(1.0, label="w2")
    b = Value(6.8813735870195432, label="b")
    return (x1 * w1 + x2 * w2 + b).tanh()


def _micrograd_trace() -> dict[str, Any]:
    from micrograd.engine import Value as MicrogradValue

    a, b = MicrogradValue(2.0), MicrogradValue(-3.0)
    return trace_value((a * b + a).relu())


Seen = set[tuple[str, str, str]]
# A compiled check: the errors of one value (paths relative to it, "" for itself), and
# what it saw added to `seen`.
Check = Callable[[Any, Seen], list[str]]


class Checker:
    """Checks JSON values against the types of `engine.trace.format`, and keeps what it
    saw (`seen`): each TypedDict, each optional key present or absent, each `Literal`
    value and each branch of a union, by the TypedDict and key they are at (`where`).

    Each type is compiled once into a function; paths are spelt out only for errors.
    """

    def __init__(self) -> None:
        self.seen: Seen = set()
        self.compiled: dict[tuple[Any, str], Check] = {}

    def check(self, value: Any, hint: Any, path: str = "trace") -> list[str]:
        return [f"{path}{error}" for error in self.compile(hint)(value, self.seen)]

    def compile(self, hint: Any, where: str = "") -> Check:
        key = (hint, where)
        if key not in self.compiled:  # the format has no recursive type
            self.compiled[key] = self.build(hint, where)
        return self.compiled[key]

    def build(self, hint: Any, where: str) -> Check:
        origin = get_origin(hint)
        if origin in (NotRequired, Required):
            return self.compile(get_args(hint)[0], where)
        if typing.is_typeddict(hint):
            return self.typed_dict(hint)
        if origin is Literal:
            return _literal(get_args(hint), where)
        if origin in (typing.Union, types.UnionType):
            return self.union(hint, where)
        if origin is list:
            item = self.compile(get_args(hint)[0], where)

            def check_list(value: Any, seen: Seen) -> list[str]:
                if type(value) is not list:
                    return [f": expected a list, got {type(value).__name__}"]
                return [f"[{i}]{e}" for i, v in enumerate(value) for e in item(v, seen)]

            return check_list
        if origin is dict:
            assert get_args(hint)[0] is str  # JSON keys
            entry = self.compile(get_args(hint)[1], where)

            def check_dict(value: Any, seen: Seen) -> list[str]:
                if type(value) is not dict:
                    return [f": expected an object, got {type(value).__name__}"]
                errors = [f": key {k!r} is not a string" for k in value if type(k) is not str]
                return errors + [f"[{k!r}]{e}" for k, v in value.items() for e in entry(v, seen)]

            return check_dict
        if hint is float:
            # The engine writes floats as floats (`1.0`, never `1`), finite (strict JSON).
            def check_float(value: Any, seen: Seen) -> list[str]:
                if type(value) is not float:
                    return [f": expected a float, got {value!r}"]
                return [] if math.isfinite(value) else [f": {value!r} is not finite"]

            return check_float
        if hint in (int, str, type(None)):

            def check_plain(value: Any, seen: Seen) -> list[str]:
                if type(value) is not hint:  # bool is no int here
                    return [f": expected {hint.__name__}, got {value!r}"]
                return []

            return check_plain
        raise AssertionError(f"the checker does not know the type {hint!r}")

    def typed_dict(self, typed: Any) -> Check:
        """A closed dict: the keys the TypedDict names, its required ones all there."""
        name = typed.__name__
        fields = {key: self.compile(hint, f"{name}.{key}") for key, hint in _hints(typed).items()}
        required = typed.__required_keys__
        optional = typed.__optional_keys__

        def check_typed(value: Any, seen: Seen) -> list[str]:
            if type(value) is not dict:
                return [f": expected a {name} object, got {type(value).__name__}"]
            keys = value.keys()
            errors = [f": unknown key {key!r} in a {name}" for key in keys - fields]
            errors += [f": {name} lacks {key!r}" for key in sorted(required - keys)]
            seen.add((name, "", ""))
            for key in optional:
                seen.add((name, key, "present" if key in value else "absent"))
            for key, field in value.items():
                check = fields.get(key)
                if check is not None:
                    errors += [f".{key}{error}" for error in check(field, seen)]
            return errors

        return check_typed

    def union(self, hint: Any, where: str) -> Check:
        members = [(_type_name(member), self.compile(member, where)) for member in get_args(hint)]

        def check_union(value: Any, seen: Seen) -> list[str]:
            failures = []
            for member, check in members:
                trial: Seen = set()  # a branch that does not match leaves nothing seen
                errors = check(value, trial)
                if not errors:
                    seen |= trial
                    seen.add((where, "branch", member))
                    return []
                failures.append(errors)
            # The branch that came closest says what is wrong: a frame of the right phase.
            closest = min(failures, key=lambda errors: (_literal_misses(errors), len(errors)))
            return [f": no branch of {_type_name(hint)} matches", *closest]

        return check_union


def _literal(allowed: tuple[Any, ...], where: str) -> Check:
    def check_literal(value: Any, seen: Seen) -> list[str]:
        # `True == 1`: a Literal matches a value of its own type only.
        if any(type(value) is type(arg) and value == arg for arg in allowed):
            seen.add((where, "literal", repr(value)))
            return []
        return [f": {value!r} is not one of {allowed}"]

    return check_literal


def _literal_misses(errors: list[str]) -> int:
    return sum(" is not one of " in error for error in errors)


@functools.cache
def _hints(typed: Any) -> dict[str, Any]:
    return typing.get_type_hints(typed, include_extras=True)


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or repr(hint)


def expected_coverage() -> set[tuple[str, str, str]]:
    """Everything the corpus must show once: every TypedDict, each of its optional keys,
    each value of each `Literal` and each branch of each union among its fields."""
    wanted: set[tuple[str, str, str]] = set()

    def walk(hint: Any, where: str) -> None:
        origin = get_origin(hint)
        if origin in (NotRequired, Required, list):
            walk(get_args(hint)[0], where)
        elif origin is dict:
            walk(get_args(hint)[1], where)
        elif origin is Literal:
            wanted.update((where, "literal", repr(arg)) for arg in get_args(hint))
        elif origin in (typing.Union, types.UnionType):
            for member in get_args(hint):
                wanted.add((where, "branch", _type_name(member)))
                walk(member, where)

    for typed in typed_dicts():
        wanted.add((typed.__name__, "", ""))
        hints = typing.get_type_hints(typed, include_extras=True)
        for key in typed.__optional_keys__:
            wanted.add((typed.__name__, key, "present"))
            if (typed.__name__, key) not in ALWAYS_THERE:
                wanted.add((typed.__name__, key, "absent"))
        for key, hint in hints.items():
            walk(hint, f"{typed.__name__}.{key}")
    return wanted


def typed_dicts() -> list[Any]:
    """The TypedDicts of the format; `FrameBase` is only the frames' shared part."""
    return [
        value
        for name, value in vars(trace_format).items()
        if typing.is_typeddict(value) and name != "FrameBase"
    ]


def without_calls(check: Any, frames: list[dict[str, Any]]) -> Any:
    """`check` with each `frame` index moved to where it is without the sort's calls."""
    calls = [frame.get("step") in ("visit", "skip", "append") for frame in frames]
    before = list(itertools.accumulate(calls, initial=0))
    if isinstance(check, dict):
        return {
            key: value - before[value]
            if key in ("frame", "shown_at") and isinstance(value, int)
            else without_calls(value, frames)
            for key, value in check.items()
        }
    if isinstance(check, list):
        return [without_calls(item, frames) for item in check]
    return check


def test_every_trace_of_the_corpus_is_what_the_types_say() -> None:
    checker = Checker()
    errors: list[str] = []
    count = 0
    for name, make in _cases():
        try:
            trace = make()
        except EngineError as error:
            # Only the refusal the bug lab gives a program of its own Value class.
            assert "own Value class" in str(error), (name, error)
            continue
        count += 1
        found = checker.check(trace, trace_format.Trace)
        errors += [f"{name}: {error}" for error in found[:5]]
        if "engine_check" in trace:
            # The same answer as `POST /api/enginecheck` gives (whose frames are those of
            # the trace without `sort_steps`: the sort's calls are frames of their own).
            assert enginecheck_source(trace["source"], trace["granularity"]) == without_calls(
                trace["engine_check"], trace["frames"]
            )
    assert count > 150
    assert not errors, "\n".join(errors[:40])
    # The built-in engine's answer to Check your engine: every op right, with no line.
    for source in (program_examples.FORGOT_ZERO_GRAD, "x = Value(2.0)\ny = x * x + x"):
        check = enginecheck_source(source)
        assert not checker.check(check, trace_format.EngineCheck, "enginecheck")
    wanted = expected_coverage()
    assert len(wanted) > 80
    unseen = wanted - checker.seen
    assert not unseen, f"the corpus never shows these parts of the types: {sorted(unseen)}"


def test_the_checker_refuses_what_the_types_do_not_allow() -> None:
    node = {"id": "n0", "label": "", "name": "a", "op": "", "kind": "leaf"}
    node |= {"data": 1.0, "grad": 0.0}
    check = Checker().check
    assert check(node, trace_format.Node) == []
    assert check({**node, "colour": "red"}, trace_format.Node) == [
        "trace: unknown key 'colour' in a Node"
    ]
    assert check({**node, "data": 1}, trace_format.Node) == ["trace.data: expected a float, got 1"]
    assert check({**node, "underflow": 1}, trace_format.Node)  # True only
    assert check({**node, "kind": "group"}, trace_format.Node)  # the page's kind, not a trace's
    assert check({k: v for k, v in node.items() if k != "name"}, trace_format.Node) == [
        "trace: Node lacks 'name'"
    ]
    frame = {"phase": "update", "changes": [], "text": ""}
    assert "trace: UpdateFrame lacks 'line'" in check(frame, trace_format.Frame)
    assert check({**frame, "line": 1, "pass": 0}, trace_format.Frame) == []
    assert check({**frame, "line": True}, trace_format.Frame)  # bool is no int
    assert check(math.inf, float) == ["trace: inf is not finite"]


def test_the_types_name_the_engines_mistakes() -> None:
    assert set(get_args(trace_format.Mistake)) == set(MISTAKES)
