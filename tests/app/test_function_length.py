"""No function grows past about a hundred lines (issue 20): a long function is a design
that has not been written down yet. JavaScript's mount functions keep their helpers at
the top of their module, so a nested function counts toward the one around it."""

from __future__ import annotations

import ast
import re

from tests.support.checkout import CHECKOUT

ROOT = CHECKOUT  # the source, as it is written: this is a check of how it is written
MAX_LINES = 120  # "about 100": a mount function's parameter list alone takes twenty
FUNCTION = re.compile(
    r"^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*(\w+)"
    r"|^\s*(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)"
)
# Strings and line comments, whose braces are not the code's.
NOT_CODE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`|//.*$')


def js_function_lengths(text: str) -> list[tuple[str, int]]:
    """Each function's name and length in lines, by counting braces from its first line.

    Example: `js_function_lengths("function f() {\\n  return 1;\\n}\\n")` -> [("f", 3)].
    """
    lines = text.split("\n")
    found = []
    for start, line in enumerate(lines):
        match = FUNCTION.match(line)
        if not match:
            continue
        depth, opened, end = 0, False, start
        for end in range(start, len(lines)):
            for char in NOT_CODE.sub("", lines[end]):
                if char == "{":
                    depth, opened = depth + 1, True
                elif char == "}":
                    depth -= 1
            if opened and depth <= 0:
                break
        found.append((match[1] or match[2], end - start + 1))
    return found


def test_the_length_counter_counts_lines_and_ignores_braces_in_strings() -> None:
    text = 'export function f(a) {\n  const s = "{";\n  return () => {\n    a();\n  };\n}\n'
    assert js_function_lengths(text) == [("f", 6)]


def test_no_function_of_the_page_is_longer_than_about_a_hundred_lines() -> None:
    long = [
        f"{path.relative_to(ROOT)} {name}: {length} lines"
        for path in sorted((ROOT / "static" / "js").rglob("*.js"))
        for name, length in js_function_lengths(path.read_text(encoding="utf-8"))
        if length > MAX_LINES
    ]
    assert not long, long


def test_no_function_of_the_engine_or_the_app_is_longer_than_about_a_hundred_lines() -> None:
    long = []
    for folder in ("engine", "app"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:  # Alembic's table definitions are data
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    if length > MAX_LINES:
                        long.append(f"{path.relative_to(ROOT)} {node.name}: {length} lines")
    assert not long, long
