"""The one way a number is shown to a learner, here and in the page (`static/js/player/format.js`).

Four significant digits (more where a caller asks, as the gradient check does), trailing
zeros dropped (`2`, `0.5`); exponent form below 1e-4 and from 1e6 on; the true minus
sign (U+2212). Rounding is to nearest, ties to even, on the exact
value, as CPython's own formatting does, so the page and the narration agree digit for
digit on every value. The trace itself keeps full precision.

Examples: `format_number(-1.4999999999999993) -> '−1.5'`, `format_number(2.0) -> '2'`,
`format_number(0.04289321881345) -> '0.04289'`, `format_number(6.881373587) -> '6.881'`,
`format_number(22026.4658) -> '22026.5'`, `format_number(5.2e21) -> '5.2e+21'`,
`format_number(1e-5) -> '1e−5'`, `format_number(14.003, digits=6) -> '14.003'`.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Context

MINUS = "\u2212"
SIGNIFICANT = 4
# At most this many digits: beyond them an exact tie needs the exact decimal of a double
# in exponent form, which the page does not compute, so the two would round apart.
MAX_DIGITS = 6
# Below SMALL or from LARGE on, fixed decimals would hide the value or run long.
SMALL = 1e-4
LARGE = 1e6
# (threshold, digits before the point minus one): `a >= 100` has 3 digits before it.
_EXACT = Context(prec=2000, rounding=ROUND_HALF_EVEN)  # every int the interpreter allows
_MAGNITUDES = ((1e5, 5), (1e4, 4), (1e3, 3), (100.0, 2), (10.0, 1), (1.0, 0),
               (0.1, -1), (0.01, -2), (0.001, -3))  # fmt: skip


# A trace writes the same numbers again and again (a gradient in the frame that adds it
# and in every frame that reads it): the usual four digits are looked up once each.
# Equal numbers format alike whatever their type (1, 1.0 and True all read `1`).
_FORMATTED: dict[float, str] = {}
_MAX_FORMATTED = 1 << 16


def format_number(x: float, *, digits: int = SIGNIFICANT) -> str:
    """`x` as a learner reads it: see the module's examples. `digits` is 1 to 6."""
    if digits == SIGNIFICANT:
        text = _FORMATTED.get(x)
        if text is None:
            if len(_FORMATTED) >= _MAX_FORMATTED:
                _FORMATTED.clear()
            text = _format(x, SIGNIFICANT)
            if x == x:  # each NaN is a key of its own: none is kept
                _FORMATTED[x] = text
        return text
    return _format(x, min(max(digits, 1), MAX_DIGITS))


def _format(x: float, digits: int) -> str:
    if isinstance(x, bool):
        x = int(x)
    if x != x:
        return "nan"
    if x == 0:
        return "0"
    size = abs(x)
    sign = MINUS if x < 0 else ""
    if size == math.inf:
        return f"{sign}inf"
    if size >= LARGE or size < SMALL:
        return sign + _exponent_form(size, digits)
    exponent = -4
    for threshold, places in _MAGNITUDES:  # a loop, not next() of a generator: hot
        if size >= threshold:
            exponent = places
            break
    text = f"{size:.{max(1, digits - 1 - exponent)}f}"  # always has a point
    return sign + text.rstrip("0").rstrip(".")


def format_signed(x: float, *, digits: int = SIGNIFICANT) -> str:
    """With an explicit sign, for an amount added: `format_signed(0.1464466) -> '+0.1464'`."""
    text = format_number(x, digits=digits)
    return text if text.startswith(MINUS) or text == "nan" else f"+{text}"


def _exponent_form(size: float, digits: int) -> str:
    # An int too large for a float is formatted exactly, as CPython would a Decimal (the
    # page sees the nearest double, which can round apart from it only at an exact tie).
    if isinstance(size, int) and size > 2**53:
        text = format(_EXACT.create_decimal(size), f".{digits - 1}e")
    else:
        text = f"{size:.{digits - 1}e}"
    mantissa, _, power = text.partition("e")
    exponent = int(power)
    return f"{_trim(mantissa)}e{'+' if exponent >= 0 else MINUS}{abs(exponent)}"


def _trim(text: str) -> str:
    """Trailing zeros off: `'1.5000' -> '1.5'`, `'2.000' -> '2'`."""
    return text.rstrip("0").rstrip(".") if "." in text else text
