"""A plain number's operator methods called by name, as CPython has them.

Public engines write `self.val.__add__(other)` and `x.__round__(3)`: `int` and `float`
answer their own operators, and NotImplemented for an operand they do not take (an
`int` takes only `int` and `bool`, a `float` any of the three; anything else, a node of
the program's included, is NotImplemented, as in CPython, so `Node(2) + 1` may go on to
the node's own `__radd__`). The work itself is the machine's own `a + b`, `a < b`,
`-a` and `round(a, n)`, so each is charged and bounded as the operator is (a power's
size, a shift's bits, a division by zero's error).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from backprop_animator.engine.interpreter.machine import NUMBERS
from backprop_animator.engine.interpreter.runtime import ProgramError
from backprop_animator.engine.interpreter.text import python_type_name

ARITHMETIC = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
    "pow": "**",
}  # fmt: skip
INTEGER_ONLY = {"and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>"}
COMPARISONS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}

Method = Callable[[Any, list[Any], dict[str, Any]], Any]


def takes(receiver: Any, other: Any) -> bool:
    """Whether `receiver`'s own method takes `other`: CPython's NotImplemented if not."""
    kind = type(other)
    if type(receiver) is float:
        return kind in NUMBERS
    return kind is int or kind is bool


def arguments(name: str, args: list[Any], kwargs: dict[str, Any], expected: int) -> None:
    """CPython's words for a method wrapper called with the wrong arguments."""
    if kwargs:
        words = f"wrapper {name}() takes no keyword arguments"
    elif len(args) != expected:
        words = f"expected {expected} argument{'s' * (expected != 1)}, got {len(args)}"
    else:
        return
    raise ProgramError(words, kind="TypeError")


def one_argument(name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    arguments(name, args, kwargs, 1)
    return args[0]


Call = Callable[[list[Any], dict[str, Any]], Any]
# Conversions: Python's own, on a plain number (no callback into the program).
CONVERSIONS: dict[str, Callable[[Any], Any]] = {
    "__int__": int, "__float__": float, "__bool__": bool, "__trunc__": math.trunc,
    "__floor__": math.floor, "__ceil__": math.ceil,
}  # fmt: skip


# Every name `number_dunders` answers, read anywhere (`(2).__round__()`, `x.data.__add__(1)`).
NAMES = frozenset(
    {f"__{w}__" for w in (*ARITHMETIC, *INTEGER_ONLY)}
    | {f"__r{w}__" for w in (*ARITHMETIC, *INTEGER_ONLY)}
    | {f"__{w}__" for w in (*COMPARISONS, "neg", "pos", "abs", "invert", "index", "round")}
    | {"__divmod__", "__rdivmod__", "__format__", "__str__", "__repr__", *CONVERSIONS}
)


def convert(name: str, how: Callable[[Any], Any]) -> Method:
    def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        arguments(name, args, kwargs, 0)
        try:
            return how(obj)
        except (OverflowError, ValueError) as error:  # `inf.__int__()`: CPython's words
            raise ProgramError(str(error), kind=type(error).__name__) from None

    return method


def text_method(name: str, format_: Call) -> Method:
    """`self.data.__str__()`, as Grokking Deep Learning's `Tensor.__str__` has it: an
    int's, a float's and a bool's `str` and `repr` are one, `format(x, '')`."""

    def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        arguments(name, args, kwargs, 0)
        return format_([obj, ""], {})

    return method


def number_dunders(
    machine: Any, round_: Call, pow_: Call, divmod_: Call, format_: Call
) -> tuple[dict[str, Method], dict[str, Method]]:
    """The methods of an `int` (and `bool`) and of a `float`, each `(obj, args, kwargs)`:
    `round_`, `pow_`, `divmod_` and `format_` are the built-ins' own (a modulus, a pair;
    `x.__format__(spec)`, as `self.value.__format__(format_spec)` in a node's own
    `__format__`, is `format(x, spec)`)."""

    def forward(name: str, op: str) -> Method:
        def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
            if op == "**" and len(args) == 2 and not kwargs:  # `(2).__pow__(3, 5)`
                return pow_([obj, *args], {}) if takes(obj, args[0]) else NotImplemented
            other = one_argument(name, args, kwargs)
            return machine.binary(op, obj, other) if takes(obj, other) else NotImplemented

        return method

    def reflected(name: str, op: str) -> Method:
        def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
            if op == "**" and len(args) == 2 and not kwargs:  # `(2).__rpow__(3, 5)`
                return pow_([args[0], obj, args[1]], {}) if takes(obj, args[0]) else NotImplemented
            other = one_argument(name, args, kwargs)
            return machine.binary(op, other, obj) if takes(obj, other) else NotImplemented

        return method

    def pair(name: str, reverse: bool) -> Method:
        def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
            other = one_argument(name, args, kwargs)
            if not takes(obj, other):
                return NotImplemented
            return divmod_([other, obj] if reverse else [obj, other], {})

        return method

    def compare(name: str, op: str) -> Method:
        def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
            other = one_argument(name, args, kwargs)
            return machine.compare(op, obj, other) if takes(obj, other) else NotImplemented

        return method

    def unary(name: str, op: str) -> Method:
        def method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
            arguments(name, args, kwargs, 0)
            return abs(obj) if op == "abs" else machine.unary(op, obj)

        return method

    def round_method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        kind = "float" if type(obj) is float else "int"
        if kwargs:
            words = f"{kind}.__round__() takes no keyword arguments"
            raise ProgramError(words, kind="TypeError")
        if len(args) > 1:
            words = f"__round__ expected at most 1 argument, got {len(args)}"
            raise ProgramError(words, kind="TypeError")
        if args and args[0] is None:  # a float's is `round(x)`, an int's wants an integer
            if kind == "float":
                return round_([obj], {})
            words = "'NoneType' object cannot be interpreted as an integer"
            raise ProgramError(words, kind="TypeError")
        return round_([obj, *args], {})

    def format_method(obj: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        spec = one_argument("__format__", args, kwargs)
        if type(spec) is not str:
            words = f"__format__() argument must be str, not {python_type_name(spec)}"
            raise ProgramError(words, kind="TypeError")
        return format_([obj, spec], {})

    def table(operators: dict[str, str]) -> dict[str, Method]:
        methods: dict[str, Method] = {}
        for word, op in operators.items():
            methods[f"__{word}__"] = forward(f"__{word}__", op)
            methods[f"__r{word}__"] = reflected(f"__r{word}__", op)
        for word, op in COMPARISONS.items():
            methods[f"__{word}__"] = compare(f"__{word}__", op)
        for word, op in (("neg", "-"), ("pos", "+"), ("abs", "abs")):
            methods[f"__{word}__"] = unary(f"__{word}__", op)
        methods["__round__"] = round_method
        methods["__format__"] = format_method
        methods["__str__"] = text_method("__str__", format_)
        methods["__repr__"] = text_method("__repr__", format_)
        methods["__divmod__"] = pair("__divmod__", reverse=False)
        methods["__rdivmod__"] = pair("__rdivmod__", reverse=True)
        methods.update({name: convert(name, how) for name, how in CONVERSIONS.items()})
        return methods

    integer = table({**ARITHMETIC, **INTEGER_ONLY})
    integer["__invert__"] = unary("__invert__", "~")
    integer["__index__"] = convert("__index__", int)
    return integer, table(ARITHMETIC)
