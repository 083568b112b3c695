"""A learner's engine in PyTorch's `Function` style (SPEC §14, §15): each op's record
(`ctx`, a `Function` instance, a `grad_fn` object) keeps its operands and works out their
shares in its own `backward` (or `apply`), and backward()'s loop adds them (`p.grad +=
g`). The code panel's rule is that op's own backward, where the shares are worked out;
each write keeps the loop's line. Every program runs here as CPython runs it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import trace_source
from tests.engine.cpython import assert_same_output, printed_lines, run_in_cpython

REAL_CODE = Path(__file__).resolve().parent / "real_code"


def method_lines(source: str, cls: str, method: str) -> dict[str, int]:
    """Where `cls.method` is written: the `def` line and its last line."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    assert item.end_lineno is not None
                    return {"line": item.lineno, "end_line": item.end_lineno}
    raise AssertionError(f"no {cls}.{method}")


def write_line(source: str, write: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if line.strip() == write)


# Each engine: its op records' classes by op, the method that works out the shares, and
# the loop's write.
ENGINES = {
    "function_ctx_engine.py": (
        {"*": "Mul", "+": "Add", "tanh": "Tanh"},
        "backward",
        "p.grad += g",
    ),
    "function_instance_engine.py": (
        {"*": "Mul", "+": "Add", "exp": "Exp"},
        "backward",
        "t.grad = g if t.grad is None else t.grad + g",
    ),
    "grad_fn_object_engine.py": (
        {"*": "MulBackward", "+": "AddBackward", "relu": "ReluBackward", "log": "LogBackward"},
        "apply",
        "inp.grad = g if inp.grad is None else inp.grad + g",
    ),
}


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_rule_is_the_ops_own_backward_and_the_write_the_loops(name: str) -> None:
    source = (REAL_CODE / name).read_text("utf-8")
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    classes, method, write = ENGINES[name]
    loop = write_line(source, write)
    ops: set[str] = set()
    for node in trace["nodes"]:
        if node["kind"] == "op" and node["op"] in classes:
            ops.add(node["op"])
            assert node["rule"] == method_lines(source, classes[node["op"]], method), node
    assert ops, "no op of the engine's was checked"
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    for op in ops:
        assert rows[op]["line"] == method_lines(source, classes[op], method)["line"]
        assert rows[op]["verdict"] == "right"
    shown: Any = [f for f in trace["frames"] if f["phase"] == "backward" and f["contributions"]]
    assert shown
    for frame in shown:
        assert {c["line"] for c in frame["contributions"]} == {loop}
        rule = next(n["rule"] for n in trace["nodes"] if n["id"] == frame["node"])
        assert f"line {rule['line']}" in frame["text"] and f"which line {loop} " in frame["text"]
    # The code panel marks the loop's write in backward(), and shows the rule beside it.
    for entry in trace["passes"]:
        assert entry["backward"]["call"] == loop


HOSTILE_NEXT_FUNCTIONS = """
class Fn:
    def __init__(self, nf):
        self.next_functions = nf

class T:
    def __init__(self, data, grad_fn=None):
        self.data = data
        self.grad = 0.0
        self.grad_fn = grad_fn

    def backward(self):
        self.grad = 1.0

a = T(2.0)
b = T(3.0)
fa = Fn([])
fb = Fn([(fa, 0), (None, 0), (3, 1), ("x",), (), (fb_missing := None, 2)])
a.grad_fn = fa
b.grad_fn = fb
fa.next_functions.append((fb, 0))  # a cycle: a's function leads to b's, and b's to a's
a.grad_fn = fa
c = T(5.0, Fn(((fa, 0), (fb, 0), (Fn(()), 0))))
c.backward()
print(c.data, c.grad, a.grad, b.grad)
"""


def test_next_functions_that_loop_or_hold_anything_are_traced_as_cpython_runs_them() -> None:
    # A cycle of functions, items that are no pair of a function (None, a number, a
    # string, an empty tuple), a function that leads nowhere: the graph is what can be
    # followed, the program runs as CPython runs it, nothing escapes.
    trace = trace_source(HOSTILE_NEXT_FUNCTIONS)
    assert_same_output(printed_lines(trace), run_in_cpython(HOSTILE_NEXT_FUNCTIONS))
    ids = {node["id"]: node["name"] for node in trace["nodes"]}
    edges = {(ids[e["source"]], ids[e["target"]]) for e in trace["edges"]}
    assert edges == {("a", "c"), ("b", "c"), ("b", "a"), ("a", "b")}


# "Deep Learning from Scratch 3" (DeZero): a Variable's `creator`, a Function holding one
# `input` and `output` (steps 7 to 10) or lists of them (steps 11 to 16); the rule is the
# Function's backward(), which returns the shares that backward()'s walk writes.
DEZERO = {
    "dezero_step07_recursive.py": ({"square": "Square", "exp": "Exp"}, 3),
    "dezero_step09_loop.py": ({"square": "Square", "exp": "Exp"}, 3),
    "dezero_step16_generations.py": (
        {"square": "Square", "exp": "Exp", "+": "Add", "*": "Mul"},
        10,
    ),
}


@pytest.mark.parametrize("name", sorted(DEZERO))
def test_dezero_functions_are_the_rules_of_the_variables_they_made(name: str) -> None:
    source = (REAL_CODE / name).read_text("utf-8")
    trace = trace_source(source)
    assert_same_output(printed_lines(trace), run_in_cpython(source))
    classes, runs = DEZERO[name]
    # Each Variable a Function made is drawn with its input(s) as its operands, one
    # backward frame for each run of its rule; every row right, and the walk's order too.
    frames = [f for f in trace["frames"] if f["phase"] == "backward"]
    assert len(frames) == runs and all(f["contributions"] for f in frames)
    # Each says the Function's backward() worked out the shares, a recursion's too.
    for frame in frames:
        rule = next(n["rule"] for n in trace["nodes"] if n["id"] == frame["node"])
        assert f"its own rule on line {rule['line']} worked out the shares" in frame["text"]
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert set(rows) == set(classes)
    for op, cls in classes.items():
        assert rows[op]["verdict"] == "right"
        assert rows[op]["line"] == method_lines(source, cls, "backward")["line"]
    assert trace["engine_check"]["sort"]["verdict"] == "right"
    assert trace["engine_check"]["accumulation"]["verdict"] == "right"
    for node in trace["nodes"]:
        assert node["kind"] != "op" or node["correct_grad"] == pytest.approx(node["grad"])


@pytest.mark.parametrize(
    ("name", "write", "verb"),
    [
        ("dezero_step07_recursive.py", "x.grad = f.backward(self.grad)", "writes"),
        ("dezero_step09_loop.py", "x.grad = f.backward(y.grad)", "writes"),
    ],
)
def test_shares_a_function_worked_out_are_said_written_as_the_program_writes_them(
    name: str, write: str, verb: str
) -> None:
    # Step 7 writes `x.grad = f.backward(self.grad)` in no loop: the frames said "which the
    # loop on line 20 adds" beside "b.grad = 2.568", an `=` that adds nothing.
    source = (REAL_CODE / name).read_text("utf-8")
    line = next(i for i, text in enumerate(source.splitlines(), 1) if write in text)
    frames = [f for f in trace_source(source)["frames"] if f["phase"] == "backward"]
    assert frames
    for frame in frames:
        assert f"worked out the shares, which line {line} {verb}." in frame["text"]
        assert "loop" not in frame["text"] and "adds" not in frame["text"]
