"""A mutation sweep of the engine check (SPEC §14): every program of
tests/engine/public_code/ and tests/engine/real_code/ with a Value-like class of its own
gets a few one-bug mutants written with `ast` (deterministic), each run in CPython and
here, and the engine check's verdicts are judged against the bug that was written.

Kinds: (a) a rule's `+=` with its right-hand side negated, (b) one factor of its product
dropped, (c) `+=` written `=`, (d) `self` and `other` swapped in its local derivative,
(e) the sort's visited check removed, (f) the node appended before its children are
visited, (g) the backward's seed `= 1.0` written `= 2.0`.

    PYTHONPATH=$PWD python -m bench.mutation_sweep OUT.jsonl [PROGRAM ...]

writes one JSON line per mutant (each judged in a process of its own, with a timeout:
a sort without its visited check may take CPython exponential time), at most four a
program, one of each kind, the kinds taken in turn; `MUTATION_PER_PROGRAM=6
MUTATION_PER_KIND=3 MUTATION_KINDS=abd` sweeps three rules a program instead. A row's
`verdict` is `right` where the check named the bug and nothing else (`right*`: the
unmutated program's own bug is already named there), `missing` or `blames-wrong`
otherwise; `diverges` where our output or leaves are not CPython's, `set_order` where
CPython's output once its operands' sets iterate in insertion order is ours.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "tests/engine/public_code").glob("*.py")) + sorted(
    (ROOT / "tests/engine/real_code").glob("*.py")
)
GRAD_WORDS = ("grad", "_grad", "gradient", "derivative", "g", "adjoint", "_adjoint", "adj", "gv")
# Mutants judged per program, at most, and of each kind (the environment may say more,
# for a wider sweep: MUTATION_PER_PROGRAM, MUTATION_PER_KIND, MUTATION_KINDS).
PER_PROGRAM = int(os.environ.get("MUTATION_PER_PROGRAM", "4"))
PER_KIND = int(os.environ.get("MUTATION_PER_KIND", "1"))
KINDS = os.environ.get("MUTATION_KINDS", "abcdefg")


@dataclass
class Mutant:
    kind: str
    source: str
    span: tuple[int, int] | None  # the mutated rule's lines (a..d)
    what: str


def _grad_target(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in GRAD_WORDS


def _own_writes(fn: ast.AST) -> list[ast.AugAssign]:
    """The `x.grad += …` of a function, not of the functions nested in it."""
    found: list[ast.AugAssign] = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if (
            isinstance(node, ast.AugAssign)
            and isinstance(node.op, ast.Add)
            and _grad_target(node.target)
        ):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _visited_set(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return "visit" in text or "seen" in text


def _is_sort(fn: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Compare)
        and any(isinstance(op, (ast.In, ast.NotIn)) for op in n.ops)
        and any("visit" in ast.unparse(c) or "seen" in ast.unparse(c) for c in n.comparators)
        for n in ast.walk(fn)
    )


def _has_seed(fn: ast.AST) -> bool:
    return any(_seed(n) for n in ast.walk(fn))


def _seed(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and _grad_target(node.targets[0])
        and isinstance(node.targets[0].value, ast.Name)  # type: ignore[attr-defined]
        and node.targets[0].value.id == "self"  # type: ignore[attr-defined]
        and isinstance(node.value, ast.Constant)
        and node.value.value in (1, 1.0)
        and not isinstance(node.value.value, bool)
    )


def _rules(tree: ast.Module) -> list[ast.FunctionDef]:
    """Functions that write gradients with `+=` and are no sort, no seeding backward():
    a nested `_backward`, or a rule method."""
    rules = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and _own_writes(fn):
            if _is_sort(fn) or _has_seed(fn):
                continue
            rules.append(fn)
    return sorted(rules, key=lambda f: f.lineno)


class Splicer:
    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, col: int) -> int:
        # col_offset counts UTF-8 bytes
        text = self.lines[line - 1].encode()[:col].decode(errors="ignore")
        return self.starts[line - 1] + len(text)

    def replace(self, node: ast.AST, text: str) -> str:
        a = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        b = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return self.source[:a] + text + self.source[b:]


def _factors(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _product(factors: list[ast.expr]) -> ast.expr:
    out = factors[0]
    for f in factors[1:]:
        out = ast.BinOp(out, ast.Mult(), f)
    return out


class _Swap(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.Name:
        swap = {"self": "other", "other": "self"}
        return ast.Name(swap.get(node.id, node.id), node.ctx)


def _upstream(node: ast.expr) -> bool:
    text = ast.unparse(node)
    return text.startswith("out.") or (text.startswith("self.") and "grad" in text)


def rule_mutants(source: str, tree: ast.Module, per_kind: int = PER_KIND) -> list[Mutant]:
    sp = Splicer(source)
    found: dict[str, list[Mutant]] = {k: [] for k in "abcd"}
    rules = _rules(tree)
    for kind in "abcd":
        # round robin over rules, first write of each first
        order = []
        for depth in range(4):
            for fn in rules:
                writes = _own_writes(fn)
                if depth < len(writes):
                    order.append((fn, writes[depth]))
        for fn, w in order:
            if len(found[kind]) >= per_kind:
                break
            span = (fn.lineno, fn.end_lineno or fn.lineno)
            value = w.value
            new: str | None = None
            if kind == "a":
                new = sp.replace(value, f"-({ast.unparse(value)})")
            elif kind == "b":
                fs = _factors(value)
                if len(fs) < 2:
                    continue
                drop = next((i for i, f in enumerate(fs) if not _upstream(f)), 0)
                rest = fs[:drop] + fs[drop + 1 :]
                new = sp.replace(value, ast.unparse(_product(rest)))
            elif kind == "c":
                new = sp.replace(w, f"{ast.unparse(w.target)} = {ast.unparse(value)}")
            elif kind == "d":
                names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
                used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
                if not {"self", "other"} <= used:
                    continue
                if not names & {"self", "other"}:
                    continue
                swapped = _Swap().visit(ast.parse(ast.unparse(value), mode="eval")).body
                if ast.unparse(swapped) == ast.unparse(value):
                    continue
                new = sp.replace(value, ast.unparse(swapped))
            if new is None or new == source:
                continue
            if any(m.source == new for m in found[kind]):
                continue
            found[kind].append(Mutant(kind, new, span, f"line {w.lineno}: {ast.unparse(w)}"))
    return [m for k in "abcd" for m in found[k]]


def sort_mutants(source: str, tree: ast.Module) -> list[Mutant]:
    lines = source.splitlines(keepends=True)
    out: list[Mutant] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.If) or node.orelse:
                continue
            test = node.test
            if not (
                isinstance(test, ast.Compare)
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.NotIn)
                and _visited_set(test.comparators[0])
            ):
                continue
            if node.lineno == node.body[0].lineno:
                continue
            # (e) the body, dedented, in place of the `if`
            indent = node.body[0].col_offset - node.col_offset
            body = [
                line[indent:] if line.strip() else line
                for line in lines[node.body[0].lineno - 1 : node.body[-1].end_lineno]
            ]
            e = "".join(lines[: node.lineno - 1] + body + lines[node.body[-1].end_lineno :])
            out.append(Mutant("e", e, None, f"line {node.lineno}: {ast.unparse(test)}"))
            # (f) the append moved before the loop over the children
            block = node.body
            for i, stmt in enumerate(block):
                if (
                    isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Call)
                    and isinstance(stmt.value.func, ast.Attribute)
                    and stmt.value.func.attr == "append"
                    and i > 0
                    and isinstance(block[i - 1], ast.For)
                    and stmt.lineno == stmt.end_lineno
                ):
                    loop = block[i - 1]
                    moved = lines[stmt.lineno - 1]
                    rest = lines[: stmt.lineno - 1] + lines[stmt.lineno :]
                    f = "".join([*rest[: loop.lineno - 1], moved, *rest[loop.lineno - 1 :]])
                    out.append(Mutant("f", f, None, f"line {stmt.lineno}: {ast.unparse(stmt)}"))
    return out[:2]


def seed_mutants(source: str, tree: ast.Module) -> list[Mutant]:
    sp = Splicer(source)
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name != "__init__":
                for node in ast.walk(fn):
                    if _seed(node):
                        assert isinstance(node, ast.Assign)
                        new = sp.replace(node.value, "2.0")
                        return [Mutant("g", new, None, f"line {node.lineno}")]
    return []


def mutants_of(source: str, per_kind: int = PER_KIND) -> list[Mutant]:
    tree = ast.parse(source)
    if not any(isinstance(n, ast.ClassDef) for n in ast.walk(tree)):
        return []
    ms = (
        rule_mutants(source, tree, per_kind)
        + sort_mutants(source, tree)
        + seed_mutants(source, tree)
    )
    good = []
    for m in ms:
        try:
            compile(m.source, "<mutant>", "exec")
        except SyntaxError:
            continue
        good.append(m)
    return good


# ---- one mutant, in a process of its own ----

ORDERED = "def _ordered_set(xs=()):\n    return list(dict.fromkeys(xs))\n"


def _set_order_explains(source: str, printed: list[str]) -> bool:
    """Whether CPython prints what we print once the operands' `set(...)` iterates in
    insertion order, as the interpreter's sets of objects do (docs/LANGUAGE.md)."""
    from tests.engine.cpython import run_in_cpython

    lines = [
        line.replace("set(", "_ordered_set(")
        if "set(" in line and any(w in line for w in ("prev", "children", "parents"))
        else line
        for line in source.splitlines()
    ]
    head = [i for i, line in enumerate(lines) if line.startswith(("from __future__",))]
    at = head[-1] + 1 if head else 0
    try:
        theirs = run_in_cpython("\n".join([*lines[:at], ORDERED, *lines[at:]]))
    except BaseException:
        return False
    from tests.engine.cpython import assert_same_output

    try:
        assert_same_output(printed, theirs)
    except AssertionError:
        return False
    return True


def _leaves_differ(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    if len(a) != len(b):
        return True
    return any(
        not math.isclose(x[1], y[1], rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b, strict=True)
    )


def _base(original: str, base_dir: Path | None) -> dict[str, Any]:
    """The unmutated program's own verdicts (the rows it gets wrong, its sort's and its
    accumulation's), kept in `base_dir` where one is given."""
    from backprop_animator.engine import EngineError, trace_source
    from tests.support.traces import ROOMY

    name = f"{hashlib.sha1(original.encode()).hexdigest()}.json"
    base_file = None if base_dir is None else base_dir / name
    if base_file is not None and base_file.exists():
        found: dict[str, Any] = json.loads(base_file.read_text())
        return found
    try:
        check = trace_source(original, "packed", ROOMY).get("engine_check") or {}
    except EngineError:
        check = {}
    base = {
        "wrong": [r["op"] for r in check.get("rules", []) if r["verdict"] == "wrong"],
        "sort": check.get("sort", {}).get("verdict"),
        "acc": check.get("accumulation", {}).get("verdict"),
    }
    if base_file is not None:
        base_file.write_text(json.dumps(base))
    return base


def judge(original: str, m: Mutant, base_dir: Path | None = None) -> dict[str, Any]:
    """The verdict on mutant `m` of `original`. The unmutated program's own verdicts are
    kept in `base_dir` (one sweep's, which `main` makes afresh) where one is given: a
    fixed folder outlived the engine that filled it, and a test read its stale rows."""
    from backprop_animator.engine import EngineError, trace_source
    from backprop_animator.engine.ops import op_key
    from tests.engine.cpython import (
        assert_leaves_among,
        assert_same_output,
        leaves_of,
        printed_lines,
        run_in_cpython_with_passes,
    )
    from tests.support.traces import ROOMY

    _, _, outs = run_in_cpython_with_passes(original)
    before = leaves_of(outs)
    base = _base(original, base_dir)
    try:
        lines, _, outs = run_in_cpython_with_passes(m.source)
    except BaseException as error:
        return {"status": "cpython-raises", "error": repr(error)[:200]}
    after = leaves_of(outs)
    if not _leaves_differ(before, after):
        return {"status": "invisible"}
    try:
        trace = trace_source(m.source, "packed", ROOMY)
    except EngineError as error:
        return {"status": "ours-refused", "error": str(error)[:300]}
    result: dict[str, Any] = {"status": "ran"}
    try:
        printed = printed_lines(trace)
        if "import logging" in m.source:  # log lines: CPython's stderr (test_public_code.py)
            from tests.engine.cpython import run_in_cpython_with_stderr
            from tests.engine.test_public_code import LOG_TIME

            printed = [LOG_TIME.sub("<time>", line) for line in printed]
            lines = [LOG_TIME.sub("<time>", line) for line in run_in_cpython_with_stderr(m.source)]
        assert_same_output(printed, lines)
        ours = sorted(
            (float(n["data"]), float(n["grad"])) for n in trace["nodes"] if n["kind"] == "leaf"
        )
        assert bool(ours) == bool(after)
        assert_leaves_among(ours, after)
    except AssertionError as error:
        result["diverges"] = repr(error)[:300]
        result["set_order"] = _set_order_explains(m.source, printed_lines(trace))
    check = trace.get("engine_check")
    if check is None:
        result["status"] = "no-check"
        return result
    rows = check["rules"]
    result["rows"] = [(r["op"], r["line"], r["verdict"]) for r in rows]
    result["sort"] = check["sort"]["verdict"]
    result["acc"] = check["accumulation"]["verdict"]
    result["parts"] = any(
        not math.isclose(n["grad"], n["correct_grad"], rel_tol=1e-6, abs_tol=1e-12)
        for n in trace["nodes"]
        if n.get("correct_grad") is not None
    )
    nodes = {n["id"]: n for n in trace["nodes"]}
    frames = trace["frames"]
    bad_first = []
    for r in rows:
        if r["verdict"] == "wrong" and r["first"]:
            frame = frames[r["first"]["frame"]]
            if frame.get("phase") != "backward" or op_key(nodes[frame["node"]]["op"]) != r["op"]:
                bad_first.append(r["op"])
    result["bad_first"] = bad_first
    result["base"] = base
    # what the unmutated program already got wrong (the bug_* programs) is not blame
    wrong = [r for r in rows if r["verdict"] == "wrong" and r["op"] not in base["wrong"]]
    if base["sort"] == "wrong":
        result["sort"] = "right*"
    if base["acc"] == "wrong":
        result["acc"] = "right*"
    if m.kind in "abd":
        lo, hi = m.span or (0, 0)
        target = [r for r in rows if r["line"] is not None and lo <= r["line"] <= hi]
        # a wrong row's line is its first frame's rule: any wrong row in the span counts
        hit = [
            r
            for r in rows
            if r["verdict"] == "wrong" and r["line"] is not None and lo <= r["line"] <= hi
        ]
        others = [r for r in wrong if r not in hit]
        result["target"] = [(r["op"], r["verdict"]) for r in target]
        blamed = not result["sort"].startswith("right") or not result["acc"].startswith("right")
        if others or blamed or bad_first:
            verdict = "blames-wrong"
        elif hit:
            verdict = "right" if hit[0]["op"] not in base["wrong"] else "right*"
        else:
            verdict = "missing"
    elif m.kind == "c":
        if wrong or not result["sort"].startswith("right"):
            verdict = "blames-wrong"
        elif result["acc"] == "wrong":
            verdict = "right"
        else:
            verdict = "missing"
    elif m.kind in "ef":
        if wrong or not result["acc"].startswith("right"):
            verdict = "blames-wrong"
        elif result["sort"] == "wrong":
            verdict = "right"
        else:
            verdict = "missing"
    else:  # g: nothing to blame; correct_grad parts
        if wrong or not result["acc"].startswith("right") or not result["sort"].startswith("right"):
            verdict = "blames-wrong"
        elif result["parts"]:
            verdict = "right"
        else:
            verdict = "missing"
    result["verdict"] = verdict
    return result


def main() -> None:
    if sys.argv[1] == "--one":
        path, index, base_dir = Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
        original = path.read_text(encoding="utf-8")
        m = mutants_of(original)[index]
        print(json.dumps(judge(original, m, base_dir)))
        return
    base_dir = Path(tempfile.mkdtemp(prefix="mutation-base-"))  # this sweep's engine's
    out = Path(sys.argv[1])
    chosen = [Path(p) for p in sys.argv[2:]] or PROGRAMS
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done.add((row["program"], row["index"]))
    with out.open("a") as sink:
        for number, path in enumerate(chosen):
            source = path.read_text(encoding="utf-8")
            try:
                ms = mutants_of(source)
            except SyntaxError:
                continue
            # at most PER_PROGRAM of them, of kinds taken in turn from program to program
            turn = number % len(KINDS)
            kinds = KINDS[turn:] + KINDS[:turn]
            asked = [i for i in range(len(ms)) if ms[i].kind in kinds]
            picked = sorted(sorted(asked, key=lambda i: kinds.index(ms[i].kind))[:PER_PROGRAM])
            for i, m in enumerate(ms):
                if (path.name, i) in done or i not in picked:
                    continue
                start = time.monotonic()
                row: dict[str, Any] = {
                    "program": path.name,
                    "index": i,
                    "kind": m.kind,
                    "what": m.what,
                }
                try:
                    ran = subprocess.run(
                        [
                            sys.executable,
                            "-m",
                            "bench.mutation_sweep",
                            "--one",
                            str(path),
                            str(i),
                            str(base_dir),
                        ],
                        capture_output=True,
                        text=True,
                        timeout=90,
                        cwd=ROOT,
                        check=False,
                    )
                    try:
                        row.update(json.loads(ran.stdout.strip().splitlines()[-1]))
                    except (IndexError, json.JSONDecodeError):
                        row.update({"status": "crash", "error": ran.stderr[-600:]})
                except subprocess.TimeoutExpired:
                    row["status"] = "timeout"
                row["seconds"] = round(time.monotonic() - start, 1)
                sink.write(json.dumps(row) + "\n")
                sink.flush()


if __name__ == "__main__":
    main()
