"""The op registry (`engine.ops`): its facts agree with the `Value` methods, everything
else is derived from it, and adding an op takes the two edits docs/ADDING_AN_OP.md says."""

from __future__ import annotations

import ast
import math
import re
import shutil
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

from backprop_animator.app import schemas, work_estimate
from backprop_animator.app.paths import find_asset_dir
from backprop_animator.engine import parse, trace_source
from backprop_animator.engine.interpreter import machine
from backprop_animator.engine.lab import gradcheck
from backprop_animator.engine.ops import (
    EXPANDED,
    FORMULA_FUNCTIONS,
    FUNCTIONS,
    NUMBER_FUNCTIONS,
    OPS,
    Formula,
    is_other_power,
    lookup,
    op_key,
    page_facts,
)
from backprop_animator.engine.rules import rule_sources
from backprop_animator.engine.trace import narrate
from backprop_animator.engine.value import Value
from tests.support.checkout import PACKAGE

# The code under test: `engine/` and `app/` of the imported package (this checkout's
# through its links, or the installed wheel's), and the page it serves.
STATIC = find_asset_dir("static")
SAMPLES = (-1.3, -0.4, 0.25, 0.7, 2.0)
EXPONENTS = (2, 3, -1, 0.5, -2.5)


def formula_value(formula: Formula, **names: float) -> float:
    """A formula's `value` as Python computes it (the page computes the same syntax)."""
    tree = ast.parse(formula.value, mode="eval")
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Constant, ast.Name)
    allowed += (ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.Gt)
    allowed += (ast.Call,)
    for node in ast.walk(tree):
        assert isinstance(node, allowed), f"{formula.value}: {type(node).__name__}"
        if isinstance(node, ast.Name):
            assert node.id in (*names, *FORMULA_FUNCTIONS), formula.value
    functions = {name: getattr(math, name) for name in FORMULA_FUNCTIONS}
    return float(eval(compile(tree, "formula", "eval"), {"__builtins__": {}}, names | functions))


def locals_of(out: Value) -> list[tuple[Value, float]]:
    """Run `out`'s own rule with grad 1 and return each child's local derivative."""
    out.grad = 1.0
    out._tape = []
    out._backward()
    tape, out._tape = out._tape, None
    return [(child, local) for child, local, _, _ in tape]


def made_by(key: str, x: float, y: float, k: float) -> Value:
    a, b = Value(x), Value(y)
    if key == "**":
        return a**k
    entry = OPS[key]
    return entry.method(a, b) if entry.precedence < 4 else entry.method(a)


@pytest.mark.parametrize("key", list(OPS))
def test_the_local_formula_is_what_the_method_computes(key: str) -> None:
    entry = OPS[key]
    for x in SAMPLES:
        for k in EXPONENTS if key == "**" else (0.0,):
            if (key == "log" and x <= 0) or (key == "**" and x < 0 and not float(k).is_integer()):
                continue
            out = made_by(key, x, 0.9, k)
            for i, (child, local) in enumerate(locals_of(out)):
                other = out._prev[1 - i] if len(out._prev) == 2 else child
                expected = formula_value(
                    entry.local, out=out.data, child=child.data, other=other.data, k=k
                )
                assert local == pytest.approx(expected), (key, x, k)


@pytest.mark.parametrize("key", list(OPS))
def test_the_plain_number_function_is_the_methods_arithmetic(key: str) -> None:
    for x in SAMPLES:
        if (key == "log" and x <= 0) or key == "**":
            continue
        out = made_by(key, x, 0.9, 0.0)
        operands = [child.data for child in out._prev]
        assert NUMBER_FUNCTIONS[key](*operands) == pytest.approx(out.data)


@pytest.mark.parametrize("key", sorted(EXPANDED))
def test_an_expanded_form_gives_the_same_value_and_gradient(key: str) -> None:
    build = OPS[key].expanded
    assert build is not None
    for x in SAMPLES:
        packed, expanded = Value(x), Value(x)
        packed_out, expanded_out = OPS[key].method(packed), build(expanded)
        packed_out.backward()
        expanded_out.backward()
        assert expanded_out.data == pytest.approx(packed_out.data)
        assert expanded.grad == pytest.approx(packed.grad)


def test_every_slip_is_a_formula_the_page_can_compute() -> None:
    for key, entry in OPS.items():
        for slip in entry.slips:
            assert math.isfinite(formula_value(slip, out=0.5, child=0.25, other=2.0, k=3.0)), key
            assert set(re.findall(r"\{([^}]*)\}", slip.text)) <= {
                "out",
                "child",
                "other",
                "k",
                "k-1",
            }


def test_only_a_power_with_a_number_in_its_op_is_ours() -> None:
    for op in ("**2", "**-1", "**0.5", "**1e-05", "**-1.0"):
        assert not is_other_power(op) and lookup(op) is OPS["**"], op
    for op in ("**", "**x", "**(x)", "**k"):
        assert is_other_power(op) and lookup(op) is None, op
    assert page_facts(["**", "**2"]) == page_facts(["**2"])
    assert page_facts(["**x"]) == {}


def test_the_tables_are_derived_from_the_registry() -> None:
    assert FUNCTIONS == ("tanh", "exp", "relu", "log", "sigmoid")
    # Both languages and the gradient check use the registry's own tables, not copies.
    assert parse.FUNCTIONS is machine.FUNCTIONS is FUNCTIONS
    assert gradcheck.NUMBER_FUNCTIONS is NUMBER_FUNCTIONS
    assert set(FUNCTIONS) == work_estimate.PRIMITIVES
    assert work_estimate.EXPANDED_FUNCTIONS == EXPANDED == {"tanh", "sigmoid"}
    assert set(OPS) <= set(rule_sources())
    for key, entry in OPS.items():
        # A power's key is `**`; its nodes' ops carry the exponent (`**2`).
        assert narrate.rule_text("**2" if key == "**" else key) == entry.rule
        assert f"def {entry.method.__name__}(" in rule_sources()[key]
    description = schemas.Node.model_fields["op"].description or ""
    assert all(key in description for key in OPS)


def test_the_page_computes_formulas_with_the_same_functions() -> None:
    page = (STATIC / "js/passes/op-facts.js").read_text(encoding="utf-8")
    match = re.search(r"const FORMULA_FUNCTIONS = \[([^\]]*)\]", page)
    assert match is not None
    assert tuple(re.findall(r'"(\w+)"', match.group(1))) == FORMULA_FUNCTIONS


def test_lookup_files_every_power_under_its_one_entry() -> None:
    assert op_key("**-1.5") == "**" and lookup("**2") is OPS["**"]
    assert lookup("ReLU") is None  # another engine's op: not ours
    assert narrate.rule_text("ReLU") == OPS["relu"].rule  # narration matches it loosely
    # and the page gets the facts it words that rule with, under the op's own key
    assert page_facts(["ReLU", "softplus"]) == {"ReLU": page_facts(["relu"])["relu"]}


def test_a_trace_carries_the_facts_of_exactly_the_ops_it_uses() -> None:
    trace = trace_source("a = Value(2.0)\nb = tanh(a * a) + a**-1")
    assert list(trace["ops"]) == ["+", "*", "**", "tanh"]
    assert trace["ops"]["*"] == {"glyph": "×", "local": "{other}", "slips": []}
    assert trace["ops"] == page_facts(node["op"] for node in trace["nodes"] if node["op"])


OP_NAMES = ("tanh", "exp", "relu", "log", "sigmoid")
# String literals that name an op for another reason: Python's own math functions the
# interpreter offers, an example's id, micrograd's relu quirk (an int 0 stays an int).
NOT_OP_FACTS = {
    ("engine/interpreter/library.py", "exp"),
    ("engine/interpreter/library.py", "log"),
    ("engine/interpreter/library.py", "tanh"),
    ("engine/examples.py", "relu"),
    ("engine/interpreter/machine.py", "relu"),
    ("engine/interpreter/logging_module.py", "log"),  # a logger's `log(level, message)`
    ("engine/lab/right_engine.py", "log"),  # `ln`, another name of the registry's log
    # a JWT's expiry claim
    ("app/lti/messages.py", "exp"),
    ("app/lti/ags.py", "exp"),
    ("app/lti/routes.py", "exp"),
}


def test_no_other_code_file_names_an_op() -> None:
    """A second table of op facts would name the ops in string literals or as keys: only
    the registry and the Value methods may. Prose and comments do not count."""
    allowed = {"engine/ops.py", "engine/value.py"}
    found = []
    for path in [*PACKAGE.glob("engine/**/*.py"), *PACKAGE.glob("app/**/*.py")]:
        name = path.relative_to(PACKAGE).as_posix()
        if name in allowed:
            continue
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                text = token.string.strip("'\"")
                if token.type == tokenize.STRING and text in OP_NAMES:
                    found += [] if (name, text) in NOT_OP_FACTS else [f"{name}: {token.line}"]
    # Comments, and the formulas' math functions (checked against FORMULA_FUNCTIONS above).
    comments = re.compile(r"/\*.*?\*/|//[^\n]*|const FORMULA_FUNCTIONS = \[[^\]]*\]", re.DOTALL)
    names = "|".join(OP_NAMES)
    literal = re.compile(rf"""["'`]({names})["'`]|\b({names})\s*:""")
    for path in STATIC.glob("js/*.js"):
        code = comments.sub("", path.read_text(encoding="utf-8"))
        found += [f"{path.name}: {match.group(0)}" for match in literal.finditer(code)]
    assert found == []


# Following docs/ADDING_AN_OP.md on a copy of the package: the method, the entry, done.
SIN_METHOD = """
    def sin(self) -> Value:
        out = Value(math.sin(self.data), (self,), "sin")

        def _backward() -> None:
            self._accumulate(math.cos(self.data), out)

        out._backward = _backward
        return out

    # Composites: they only build primitives.
"""
SIN_ENTRY = """
        Op(
            "sin",
            Value.sin,
            "local derivative cos x",
            Formula("cos({child})", "cos(child)"),
            "sin",
            number=math.sin,
            slips=(Formula("{out}", "out"),),  # sin for cos
        ),
    )
}
"""
SIN_CHECK = """
import math
from backprop_animator.engine import gradcheck_source, ops, trace_source
from backprop_animator.engine.rules import rule_sources
from backprop_animator.app import schemas, work_estimate

assert ops.__file__.startswith(COPY), ops.__file__
straight = trace_source("c = sin(0.25)\\nx = Value(0.5, label='x')\\ny = sin(x) * x.sin() * c")
nodes = {node["id"]: node for node in straight["nodes"]}
names = [node["name"] for node in straight["nodes"]]
assert names == ["c", "x", "sin(x)", "sin(x)", "sin(x)*sin(x)", "y"], names
assert nodes["n0"]["data"] == math.sin(0.25)  # a plain number's sin: the number function
assert straight["ops"]["sin"] == {
    "glyph": "sin", "local": "cos({child})", "slips": [{"text": "{out}", "value": "out"}]
}, straight["ops"]
texts = [frame["text"] for frame in straight["frames"]]
assert any("local derivative cos x" in text for text in texts), texts
assert abs(nodes["n1"]["grad"] - 2 * math.sin(0.5) * math.cos(0.5) * math.sin(0.25)) < 1e-12
program = trace_source(
    "def f(v):\\n    return v.sin() + 1\\nx = Value(0.5)\\nfor i in range(2):\\n"
    "    y = f(x)\\n    x.grad = 0.0\\n    y.backward()\\n    x.data -= 0.1 * x.grad\\n"
)
assert program["schema"] == 2 and "sin" in program["ops"]
check = gradcheck_source("x = Value(0.5)\\ny = sin(x)", h=[1e-6])
assert abs(check["checks"][0]["rows"][0]["error"]) < 1e-6
assert "def sin(self)" in rule_sources()["sin"]
assert "sin" in schemas.Node.model_fields["op"].description
assert "sin" in work_estimate.PRIMITIVES
from backprop_animator.engine.parse import RESERVED
assert "sin" in RESERVED  # a program cannot rebind it, as with tanh
print("ok")
"""


def test_adding_an_op_takes_its_method_and_its_entry(tmp_path: Path) -> None:
    package = tmp_path / "backprop_animator"
    package.mkdir()
    (package / "__init__.py").write_text("")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(PACKAGE / "engine", package / "engine", ignore=ignore)
    shutil.copytree(PACKAGE / "app", package / "app", ignore=ignore)
    value = package / "engine" / "value.py"
    text = value.read_text(encoding="utf-8")
    marker = "\n    # Composites: they only build primitives.\n"
    assert marker in text
    value.write_text(text.replace(marker, SIN_METHOD, 1), encoding="utf-8")
    registry = package / "engine" / "ops.py"
    text = registry.read_text(encoding="utf-8")
    end = "\n    )\n}\n"
    assert text.count(end) == 1
    registry.write_text(text.replace(end, SIN_ENTRY, 1), encoding="utf-8")

    script = f"COPY = {str(tmp_path)!r}\n" + textwrap.dedent(SIN_CHECK)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
