"""The trace format is typed once, in `engine.trace.format`; the descriptions of it
elsewhere agree with those types, field for field:

- `app/schemas.py`'s pydantic models (the API's response models): the same field
  names, equally optional, the same `Literal` values, model by model;
- the page's JSDoc typedefs in `static/js/passes/trace.js` (and `OpFacts` in op-facts.js): the
  same field names, `?` where a field is optional, with the exceptions listed below;
- `docs/TRACE.md`: every field named in backticks in the sections about its part.

(`tests/engine/test_trace_format.py` checks the types against real traces.)
"""

from __future__ import annotations

import re
import types
import typing
from typing import Annotated, Any, Literal, NotRequired, Required, get_args, get_origin

import pytest
from pydantic import BaseModel

from backprop_animator.app import schemas
from backprop_animator.engine.trace import format as trace_format
from tests.support.checkout import CHECKOUT

# The checkout, also when the suite runs against the wheel (tests/support/checkout.py).
ROOT = CHECKOUT

# Each TypedDict of the format and the pydantic model that describes the same object.
MODELS: dict[str, type[BaseModel]] = {
    "Trace": schemas.Trace,
    "Node": schemas.Node,
    "RuleLines": schemas.RuleLines,
    "BackwardLines": schemas.BackwardLines,
    "Edge": schemas.Edge,
    "Contribution": schemas.Contribution,
    "Change": schemas.Change,
    "FrameBase": schemas.FrameBase,
    "BuildFrame": schemas.BuildFrame,
    "SortFrame": schemas.SortFrame,
    "BackwardFrame": schemas.BackwardFrame,
    "UpdateFrame": schemas.UpdateFrame,
    "Pass": schemas.Pass,
    "OpFacts": schemas.OpFacts,
    "Slip": schemas.Slip,
    "EngineCheck": schemas.EngineCheck,
    "RuleVerdict": schemas.RuleVerdict,
    "RuleFirst": schemas.RuleFirst,
    "SortVerdict": schemas.SortVerdict,
    "SortFirst": schemas.SortFirst,
    "AccumulationVerdict": schemas.AccumulationVerdict,
    "AccumulationFirst": schemas.AccumulationFirst,
}

# Each JSDoc typedef (or an object type inline in one, `Parent.field`) and its TypedDict.
JSDOC: dict[str, str] = {
    "TraceNode": "Node",
    "TraceNode.rule": "RuleLines",
    "TraceEdge": "Edge",
    "Contribution": "Contribution",
    "Change": "Change",
    "BuildFrame": "BuildFrame",
    "SortFrame": "SortFrame",
    "BackwardFrame": "BackwardFrame",
    "UpdateFrame": "UpdateFrame",
    "TracePass": "Pass",
    "RuleVerdict": "RuleVerdict",
    "RuleVerdict.first": "RuleFirst",
    "EngineCheck": "EngineCheck",
    "EngineCheck.sort": "SortVerdict",
    "EngineCheck.sort.first": "SortFirst",
    "EngineCheck.accumulation": "AccumulationVerdict",
    "EngineCheck.accumulation.first": "AccumulationFirst",
    "Trace": "Trace",
}
# op-facts.js types the trace's `ops` (the page's file; read here, not changed).
JSDOC_OP_FACTS = {"OpFacts": "OpFacts", "OpFacts.slips": "Slip"}

# Where the JSDoc deliberately differs from the engine's types: (typedef, field) -> why.
JSDOC_ONLY = {
    ("UpdateFrame", "node"): "`node?: undefined` is page-only typing: it lets the page read "
    "`frame.node` on any Frame without narrowing first; an update frame has no node",
}
JSDOC_OPTIONALITY = {
    ("Trace", "ops"): "the engine always sends `ops`, but the page also plays traces made by "
    "hand (tests/js) without it, and op-facts.js reads a missing table as no facts",
}

# The sections of docs/TRACE.md (by heading) that must name each TypedDict's fields.
TOP, NODES, FRAMES = "Top level", "Nodes", "Frames"
LAB, OWN = "Additions for the lab and for floats", "A learner's own engine"
DOC_SECTIONS: dict[str, tuple[str, ...]] = {
    "Trace": (TOP, LAB, OWN),
    "Node": (NODES, LAB, OWN),
    "RuleLines": (NODES,),
    "BackwardLines": (OWN,),
    "Edge": (TOP,),
    "Pass": (TOP, LAB, OWN),
    "OpFacts": (TOP,),
    "Slip": (TOP,),
    "Contribution": (FRAMES, LAB, OWN),
    "Change": (FRAMES,),
    "FrameBase": (FRAMES,),
    "BuildFrame": (FRAMES,),
    "SortFrame": (FRAMES, LAB),
    "BackwardFrame": (FRAMES,),
    "UpdateFrame": (FRAMES,),
    "EngineCheck": (OWN,),
    "RuleVerdict": (OWN,),
    "RuleFirst": (OWN,),
    "SortVerdict": (OWN,),
    "SortFirst": (OWN,),
    "AccumulationVerdict": (OWN,),
    "AccumulationFirst": (OWN,),
}
# Fields docs/TRACE.md need not name, with why: none today.
DOC_EXCEPTIONS: dict[tuple[str, str], str] = {}


def typed_dicts() -> dict[str, Any]:
    return {name: value for name, value in vars(trace_format).items() if typing.is_typeddict(value)}


def fields(typed: Any) -> dict[str, bool]:
    """A TypedDict's fields -> whether each is optional."""
    return {key: key in typed.__optional_keys__ for key in typing.get_type_hints(typed)}


def literals(hint: Any) -> set[Any]:
    """Every `Literal` value in a type, through unions, lists, `Annotated`…"""
    origin = get_origin(hint)
    if origin is Literal:
        return set(get_args(hint))
    if origin in (NotRequired, Required, Annotated, list, dict, typing.Union, types.UnionType):
        return {value for arg in get_args(hint) for value in literals(arg)}
    return set()


def model_fields(model: type[BaseModel]) -> dict[str, bool]:
    """A pydantic model's fields by their JSON names (`pass`, `schema`) -> optional."""
    return {
        field.alias or name: not field.is_required() for name, field in model.model_fields.items()
    }


def models_reachable(model: type[BaseModel]) -> set[type[BaseModel]]:
    found: set[type[BaseModel]] = set()
    # `Trace` names `EngineCheck` before it is defined: resolved on first use, or here.
    model.model_rebuild()

    def walk(hint: Any) -> None:
        if isinstance(hint, type) and issubclass(hint, BaseModel) and hint not in found:
            found.add(hint)
            for base in hint.__mro__[1:]:
                if issubclass(base, schemas.Strict) and base is not schemas.Strict:
                    walk(base)
            for field in hint.model_fields.values():
                walk(field.annotation)
        for arg in get_args(hint):
            walk(arg)

    walk(model)
    return found


def test_every_type_of_the_format_has_its_pydantic_model() -> None:
    assert set(MODELS) == set(typed_dicts())
    # And every model of the trace's answer is one of them.
    assert models_reachable(schemas.Trace) == set(MODELS.values())


@pytest.mark.parametrize("name", list(MODELS))
def test_the_pydantic_model_has_the_same_fields_equally_optional(name: str) -> None:
    typed = typed_dicts()[name]
    model = MODELS[name]
    assert model_fields(model) == fields(typed), (
        f"app/schemas.py's {model.__name__} and engine/trace/format.py's {name} differ: "
        "(field -> optional) above"
    )
    hints = typing.get_type_hints(typed, include_extras=True)
    for key, hint in hints.items():
        field = next(f for n, f in model.model_fields.items() if (f.alias or n) == key)
        assert literals(field.annotation) == literals(hint), f"{name}.{key}"


def test_the_schemas_literals_are_the_formats() -> None:
    assert set(get_args(schemas.Mistake)) == set(get_args(trace_format.Mistake))
    assert set(get_args(schemas.Granularity)) == set(get_args(trace_format.Granularity))


# The JSDoc typedefs


def jsdoc_typedefs(text: str) -> dict[str, dict[str, tuple[bool, str]]]:
    """Every `@typedef {{...}} Name` object type of a file's JSDoc, and every object type
    inline in one of its fields (`Name.field`, `Name.field.inner`), as field ->
    (optional, type text)."""
    found: dict[str, dict[str, tuple[bool, str]]] = {}
    for comment in re.findall(r"/\*\*(.*?)\*/", text, flags=re.DOTALL):
        body = re.sub(r"^\s*\* ?", "", comment, flags=re.MULTILINE)
        for match in re.finditer(r"@typedef\s*\{", body):
            end = _closing(body, match.end() - 1)
            type_text = body[match.end() : end].strip()
            name = re.match(r"\s*(\w+)", body[end + 1 :])
            assert name is not None, f"a typedef without a name: {type_text[:60]}"
            if type_text.startswith("{") and _closing(type_text, 0) == len(type_text) - 1:
                _object_fields(type_text, name.group(1), found)
    return found


def _object_fields(text: str, name: str, found: dict[str, dict[str, tuple[bool, str]]]) -> None:
    """Parse `{a: T, b?: U, …}` into `found[name]`, and its inline object types too."""
    entries: dict[str, tuple[bool, str]] = {}
    for part in _split_top_level(text[1:-1]):
        if not part.strip():
            continue
        field = re.fullmatch(r"\s*(\w+)(\?)?\s*:\s*(.*?)\s*", part, flags=re.DOTALL)
        assert field is not None, f"cannot read the field {part!r} of {name}"
        key, optional, type_text = field.groups()
        entries[key] = (optional is not None, type_text)
        inner = type_text.find("{")
        if inner >= 0:
            inline = type_text[inner : _closing(type_text, inner) + 1]
            _object_fields(inline, f"{name}.{key}", found)
    found[name] = entries


def _closing(text: str, start: int) -> int:
    """The index of the bracket that closes the one at `start` (quotes skipped)."""
    depth, quoted = 0, False
    for i in range(start, len(text)):
        char = text[i]
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "{[(<":
            depth += 1
        elif not quoted and char in "}])>":
            depth -= 1
            if depth == 0:
                return i
    raise AssertionError(f"unbalanced brackets in {text[start : start + 80]!r}")


def _split_top_level(text: str) -> list[str]:
    parts, depth, quoted, current = [], 0, False, ""
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "{[(<":
            depth += 1
        elif not quoted and char in "}])>":
            depth -= 1
        if char == "," and depth == 0 and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def test_the_jsdoc_reader_reads_nested_object_types() -> None:
    text = """/**
     * @typedef {{a: string, b?: {c: number, d: "x" | "y,z"} | null,
     *   e: Array<{f: number}>, g: Record<string, number>}} T  prose, with {braces}
     */"""
    assert jsdoc_typedefs(text) == {
        "T.b": {"c": (False, "number"), "d": (False, '"x" | "y,z"')},
        "T.e": {"f": (False, "number")},
        "T": {
            "a": (False, "string"),
            "b": (True, '{c: number, d: "x" | "y,z"} | null'),
            "e": (False, "Array<{f: number}>"),
            "g": (False, "Record<string, number>"),
        },
    }


@pytest.mark.parametrize(
    ("path", "mapping"),
    [("static/js/passes/trace.js", JSDOC), ("static/js/passes/op-facts.js", JSDOC_OP_FACTS)],
    ids=["trace.js", "op-facts.js"],
)
def test_the_pages_jsdoc_types_have_the_formats_fields(path: str, mapping: dict[str, str]) -> None:
    typedefs = jsdoc_typedefs((ROOT / path).read_text(encoding="utf-8"))
    problems = []
    for typedef, name in mapping.items():
        assert typedef in typedefs, f"{path} has no typedef {typedef}"
        jsdoc = {key: optional for key, (optional, _) in typedefs[typedef].items()}
        engine = fields(typed_dicts()[name])
        for key in sorted(jsdoc.keys() - engine.keys()):
            if (typedef, key) not in JSDOC_ONLY:
                problems.append(f"{typedef}.{key} is no field of the trace's {name}")
        for key in sorted(engine.keys() - jsdoc.keys()):
            problems.append(f"{typedef} lacks {key!r} (engine/trace/format.py {name})")
        for key in sorted(engine.keys() & jsdoc.keys()):
            if jsdoc[key] != engine[key] and (typedef, key) not in JSDOC_OPTIONALITY:
                want = "optional (`?`)" if engine[key] else "required (no `?`)"
                problems.append(f"{typedef}.{key} should be {want}")
    assert not problems, "\n".join(problems)


def test_the_listed_jsdoc_exceptions_are_still_needed() -> None:
    typedefs = jsdoc_typedefs((ROOT / "static/js/passes/trace.js").read_text(encoding="utf-8"))
    for typedef, key in JSDOC_ONLY:
        assert key in typedefs[typedef]
        assert key not in fields(typed_dicts()[JSDOC[typedef]])
    for typedef, key in JSDOC_OPTIONALITY:
        optional = typedefs[typedef][key][0]
        assert optional != fields(typed_dicts()[JSDOC[typedef]])[key]


# docs/TRACE.md


def doc_sections() -> dict[str, set[str]]:
    """docs/TRACE.md's `##` sections -> every name written in backticks in each (code
    spans may break across lines; fenced blocks are examples, not descriptions)."""
    text = (ROOT / "docs" / "TRACE.md").read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    sections: dict[str, set[str]] = {}
    for chunk in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading, _, body = chunk.partition("\n")
        spans = re.findall(r"`([^`]+)`", body)
        sections[heading.strip()] = {word for span in spans for word in re.findall(r"\w+", span)}
    return sections


def test_trace_md_names_every_field_where_it_describes_its_part() -> None:
    sections = doc_sections()
    assert set(DOC_SECTIONS) == set(typed_dicts())
    missing = []
    for name, headings in DOC_SECTIONS.items():
        named = set().union(*(sections[heading] for heading in headings))
        for key in fields(typed_dicts()[name]):
            if key not in named and (name, key) not in DOC_EXCEPTIONS:
                missing.append(f"{name}.{key} (in {' / '.join(headings)})")
    assert not missing, "docs/TRACE.md does not name, in backticks: " + ", ".join(missing)


def test_trace_md_names_the_literal_values() -> None:
    sections = doc_sections()
    named = set().union(*sections.values())
    values = {
        value
        for typed in typed_dicts().values()
        for hint in typing.get_type_hints(typed, include_extras=True).values()
        for value in literals(hint)
        if isinstance(value, str)
    }
    words = {word for value in values for word in re.findall(r"\w+", value)}
    assert words <= named, sorted(words - named)
