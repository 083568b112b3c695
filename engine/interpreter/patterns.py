"""`match` statements (SPEC §15): each `case` pattern compiled once into a function that
tests the subject and binds the pattern's names, as CPython does.

Patterns: literals and dotted values (`==`), `None`/`True`/`False` (`is`), captures and
`_`, `as`, `|`, sequences (lists and tuples, not strings, with one `*rest`), mappings
(dicts, with `**rest`), and class patterns (`Point(x, y=0)`: `isinstance`, then the
class's `__match_args__` for positional patterns and attributes for keyword ones; a
built-in type such as `int(n)` matches the subject itself). A guard (`case x if x > 0`)
is an expression of the program. Every test is counted as a step.

Example: `match op: case '+' | '-': ... case ('**', k): ... case _: ...`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import Frame, PClass, TypeObject
from backprop_animator.engine.interpreter.runtime import ITEMS_PER_STEP, ProgramError

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.expressions import ExpressionCompiler as Expressions
    from backprop_animator.engine.interpreter.scope import Scope

Pattern = Callable[[Frame, Any], bool]

# How many positional sub-patterns a built-in type's class pattern takes: the subject.
_SELF_MATCHING = ("bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list",
                  "set", "str", "tuple")  # fmt: skip


def compile_pattern(compiler: Expressions, node: ast.pattern, scope: Scope) -> Pattern:
    """The test-and-bind function of one pattern."""
    m = compiler.m
    if isinstance(node, ast.MatchValue):
        value = compiler.expr(node.value, scope)
        rich, truthy = m.rich_compare, m.truthy
        return lambda f, subject: truthy(rich("==", subject, value(f)))
    if isinstance(node, ast.MatchSingleton):
        constant = node.value
        return lambda f, subject: subject is constant
    if isinstance(node, ast.MatchAs):
        inner = compile_pattern(compiler, node.pattern, scope) if node.pattern else None
        if node.name is None:
            return inner or (lambda f, subject: True)
        store = compiler.store_name(node.name, scope, label=False)

        def capture(f: Frame, subject: Any) -> bool:
            if inner is not None and not inner(f, subject):
                return False
            store(f, subject)
            return True

        return capture
    if isinstance(node, ast.MatchOr):
        options = [compile_pattern(compiler, option, scope) for option in node.patterns]
        return lambda f, subject: any(option(f, subject) for option in options)
    if isinstance(node, ast.MatchSequence):
        return _sequence(compiler, node, scope)
    if isinstance(node, ast.MatchMapping):
        return _mapping(compiler, node, scope)
    if isinstance(node, ast.MatchClass):
        return _class(compiler, node, scope)
    raise compiler.error(node, "this pattern is not supported")


def _sequence(compiler: Expressions, node: ast.MatchSequence, scope: Scope) -> Pattern:
    stars = [i for i, p in enumerate(node.patterns) if isinstance(p, ast.MatchStar)]
    star = stars[0] if stars else None
    before = [compile_pattern(compiler, p, scope) for p in node.patterns[:star]]
    after = (
        [compile_pattern(compiler, p, scope) for p in node.patterns[star + 1 :]]
        if star is not None
        else []
    )
    rest = None
    if star is not None:
        star_node = node.patterns[star]
        assert isinstance(star_node, ast.MatchStar)
        if star_node.name is not None:
            rest = compiler.store_name(star_node.name, scope, label=False)
    charge = compiler.m.state.charge

    def match(f: Frame, subject: Any) -> bool:
        if type(subject) is not list and type(subject) is not tuple:
            return False
        n = len(subject)
        if (star is None and n != len(before)) or n < len(before) + len(after):
            return False
        charge(n // ITEMS_PER_STEP)
        for pattern, item in zip(before, subject, strict=False):
            if not pattern(f, item):
                return False
        if star is not None:
            tail = subject[n - len(after) :] if after else []
            for pattern, item in zip(after, tail, strict=True):
                if not pattern(f, item):
                    return False
            if rest is not None:
                rest(f, list(subject[len(before) : n - len(after)]))
        return True

    return match


def _mapping(compiler: Expressions, node: ast.MatchMapping, scope: Scope) -> Pattern:
    keys = [compiler.expr(key, scope) for key in node.keys]
    patterns = [compile_pattern(compiler, p, scope) for p in node.patterns]
    rest = compiler.store_name(node.rest, scope, label=False) if node.rest else None
    key_of = compiler.m.key
    charge = compiler.m.state.charge

    def match(f: Frame, subject: Any) -> bool:
        if type(subject) is not dict:
            return False
        seen = set()
        for key_expr, pattern in zip(keys, patterns, strict=True):
            key = key_of(key_expr(f))
            if key not in subject or not pattern(f, subject[key]):
                return False
            seen.add(key)
        if rest is not None:
            charge(len(subject) // ITEMS_PER_STEP)  # the copy below
            rest(f, {k: v for k, v in subject.items() if k not in seen})
        return True

    return match


def _class(compiler: Expressions, node: ast.MatchClass, scope: Scope) -> Pattern:
    cls_expr = compiler.expr(node.cls, scope)
    positional = [compile_pattern(compiler, p, scope) for p in node.patterns]
    keywords = [
        (name, compile_pattern(compiler, p, scope))
        for name, p in zip(node.kwd_attrs, node.kwd_patterns, strict=True)
    ]
    m = compiler.m
    is_instance = compiler.builtins["isinstance"]

    def match(f: Frame, subject: Any) -> bool:
        cls = cls_expr(f)
        if type(cls) is not PClass and not isinstance(cls, TypeObject):
            raise ProgramError("called match pattern must be a class", kind="TypeError")
        if not m.call(is_instance, [subject, cls]):
            return False
        if positional:
            names = _match_args(cls, len(positional))
            if names is None:  # a built-in type: its one pattern takes the subject itself
                if not positional[0](f, subject):
                    return False
            else:
                for name, pattern in zip(names, positional, strict=True):
                    if not _attribute_matches(m, subject, name, pattern, f):
                        return False
        return all(_attribute_matches(m, subject, name, p, f) for name, p in keywords)

    return match


def _match_args(cls: Any, count: int) -> list[str] | None:
    if isinstance(cls, TypeObject):
        if cls.name in _SELF_MATCHING and count == 1:
            return None
        raise ProgramError(
            f"{cls.name}() accepts 1 positional sub-pattern ({count} given)", kind="TypeError"
        )
    names = cls.lookup("__match_args__")
    if type(names) is not tuple or not all(type(name) is str for name in names):
        raise ProgramError(
            f"{cls.name}() accepts 0 positional sub-patterns ({count} given)", kind="TypeError"
        )
    if count > len(names):
        raise ProgramError(
            f"{cls.name}() accepts {len(names)} positional sub-patterns ({count} given)",
            kind="TypeError",
        )
    return list(names[:count])


def _attribute_matches(m: Any, subject: Any, name: str, pattern: Pattern, f: Frame) -> bool:
    """CPython's rule: a missing attribute (an AttributeError) is no match."""
    try:
        value = m.get_attr(subject, name)
    except ProgramError as error:
        if error.kind == "AttributeError" or (
            error.kind is None and "has no attribute" in error.message
        ):
            return False
        raise  # anything else, a bound above all, stops the program
    return pattern(f, value)


def compile_match(
    compiler: Any, node: ast.Match, scope: Scope, block: Callable[..., Any]
) -> Callable[[Frame], Any]:
    """A `match` statement: the first case whose pattern (and guard) holds runs."""
    subject_expr = compiler.expr(node.subject, scope)
    cases = [
        (
            compile_pattern(compiler, case.pattern, scope),
            compiler.expr(case.guard, scope) if case.guard is not None else None,
            block(case.body, scope),
        )
        for case in node.cases
    ]
    m = compiler.m
    state = m.state
    truthy = m.truthy

    def run(f: Frame) -> Any:
        subject = subject_expr(f)
        for pattern, guard, body in cases:
            state.steps += 1
            if pattern(f, subject) and (guard is None or truthy(guard(f))):
                return body(f)
        return None

    return run
