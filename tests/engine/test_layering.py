"""The engine's modules import one another in layers: no import cycle, no private names.

A cycle works only while its modules happen to be imported in the right order (the
interpreter's package and the recorder of `engine.trace.recorder` once imported each other);
a private name imported by another module is a seam nobody meant to keep. Both are read
off the source with `ast`, so nothing is imported to find them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import backprop_animator.engine

PACKAGE = "backprop_animator.engine"
ROOT = Path(backprop_animator.engine.__file__).resolve().parent


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """`{"backprop_animator.engine.interpreter.machine": path, ...}`."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join((PACKAGE, *parts))] = path
    return modules


def imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that runs, at any depth; a `TYPE_CHECKING` block never runs."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module a `from ... import` names, with a relative import resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    base = package if is_package else package[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Which engine modules each engine module makes Python run when it is imported.

    `from p import m` of a submodule `m` runs `p.m`; of any other name, `p` itself.
    Importing `p.q.m` also runs the packages `p.q` around it, unless the importer is
    inside that package already (a package's own modules run as part of it).
    """
    modules = module_files(root)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            source = absolute(node, module, is_package)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                targets.add(submodule if submodule in modules else source)
        runs: set[str] = set()
        for target in targets:
            if target not in modules:
                continue
            runs.add(target)
            parts = target.split(".")
            for end in range(len(PACKAGE.split(".")) + 1, len(parts)):
                package = ".".join(parts[:end])
                if package in modules and not module.startswith(package + "."):
                    runs.add(package)
        runs.discard(module)
        graph[module] = runs
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (`[a, b, a]`), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path = [start]
        on_path = {start}
        stack = [iter(sorted(graph[start]))]
        while stack:
            target = next(stack[-1], None)
            if target is None:
                stack.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
                continue
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done:
                path.append(target)
                on_path.add(target)
                stack.append(iter(sorted(graph[target])))
    return None


def test_the_engine_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 30  # the walk found the engine's modules
    assert PACKAGE + ".interpreter.machine" in graph[PACKAGE + ".interpreter.library"]
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(name.removeprefix(PACKAGE + ".") for name in cycle)


def test_a_cycle_through_the_package_around_a_module_is_found(tmp_path: Path) -> None:
    # As it was: the interpreter's package ran the recorder, which imports its objects.
    files = {
        "__init__.py": "",
        "interpreter/__init__.py": f"from {PACKAGE}.passes import Recorder\n",
        "interpreter/objects.py": "Frame = object\n",
        "passes.py": f"from {PACKAGE}.interpreter.objects import Frame\nRecorder = Frame\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)

    cycle = find_cycle(import_graph(tmp_path))

    assert cycle == [f"{PACKAGE}.interpreter", f"{PACKAGE}.passes", f"{PACKAGE}.interpreter"]
    (tmp_path / "interpreter/__init__.py").write_text("")
    assert find_cycle(import_graph(tmp_path)) is None


def test_no_engine_module_imports_another_ones_private_names() -> None:
    private = []
    for path in module_files().values():
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                private += [
                    f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert private == []
