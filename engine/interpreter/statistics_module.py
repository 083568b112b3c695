"""`import statistics` as training scripts use it on plain numbers (`statistics.mean(
losses)`, `stdev`, `median` of a run's accuracies): `mean`, `fmean`, `median`,
`median_low`, `median_high`, `mode`, `stdev`, `pstdev`, `variance`, `pvariance`, each
CPython's own function run on the program's ints, floats and bools (so `mean` is
CPython's exactly rounded mean of the exact sum, `mean([0.1, 0.2, 0.3]) == 0.2`, and
`fmean` its float sum), charged a step per item (and a big int by its size), and its
sort's steps for a median. What CPython's functions raise on plain numbers (an
OverflowError, ValueError, AttributeError) is raised as CPython's, for the program to catch.

An item that is not a number (a `Value`) is CPython's TypeError for the averages, in
CPython's words; for a median or a mode, which CPython computes on anything it can
sort or count, a refusal. Too few data points is CPython's `StatisticsError` (a
ValueError, `statistics.StatisticsError`), in its words, for the program to catch.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from backprop_animator.engine.interpreter.objects import Builtin, PModule
from backprop_animator.engine.interpreter.runtime import BITS_PER_STEP, SMALL_INT, ProgramError
from backprop_animator.engine.interpreter.text import python_type_name

if TYPE_CHECKING:
    from backprop_animator.engine.interpreter.library import Library

NUMBERS = (int, float, bool)
AVERAGES = ("mean", "stdev", "pstdev", "variance", "pvariance")
ORDERED = ("median", "median_low", "median_high", "mode")
# The second argument each takes: the mean already known (`stdev(xs, xbar)`).
CENTRES = {"stdev": "xbar", "variance": "xbar", "pstdev": "mu", "pvariance": "mu"}


def statistics_module(library: Library) -> PModule:
    names = (*AVERAGES, "fmean", *ORDERED)
    members: dict[str, Any] = {
        name: Builtin(f"statistics.{name}", _function(library, name)) for name in names
    }
    members["StatisticsError"] = library.machine.exceptions["StatisticsError"]
    return PModule("statistics", members)


def _function(library: Library, name: str) -> Callable[[list[Any], dict[str, Any]], Any]:
    host = getattr(statistics, name)
    centre = CENTRES.get(name)

    def call(args: list[Any], kwargs: dict[str, Any]) -> Any:
        given = dict(kwargs)
        _check_arguments(name, centre, args, given)
        items = library.collect(args[0])
        state = library.state
        state.charge(len(items))
        for item in items:
            if type(item) not in NUMBERS:
                raise _not_a_number(name, item)
            if type(item) is int and not -SMALL_INT <= item <= SMALL_INT:
                # CPython's exact arithmetic (sums of squares, fractions) on a big int
                # costs by its size, as the interpreter's own arithmetic is charged
                state.charge(item.bit_length() // BITS_PER_STEP)
        extra = [args[1]] if len(args) == 2 else list(given.values())
        if extra and extra[0] is not None and type(extra[0]) not in NUMBERS:
            raise _not_a_number(name, extra[0])
        if name in ORDERED and len(items) > 1:
            library.state.charge(int(len(items) * math.log2(len(items))))
        try:
            return host(items, *extra)
        except statistics.StatisticsError as error:  # CPython's, which the program catches
            raise ProgramError(str(error), kind="StatisticsError") from None
        except (ArithmeticError, ValueError, AttributeError) as error:
            # CPython's own, which the program may catch: an int too large for a float
            # (OverflowError), `-inf + inf` in fmean's fsum (ValueError), stdev of an
            # infinity (AttributeError: 'float' object has no attribute 'numerator')
            kind = type(error).__name__
            raise ProgramError(str(error), kind=kind) from None

    return call


def _check_arguments(name: str, centre: str | None, args: list[Any], given: dict[str, Any]) -> None:
    """CPython's TypeErrors for a call it refuses too; what it takes and this does not
    (`fmean(xs, weights=ws)`, `data=` by name) a refusal."""
    most = 2 if centre else 1
    if len(args) > most:
        counted = f"{most} positional argument{'s' if most > 1 else ''}"
        words = (
            f"{name}() takes from 1 to 2 positional arguments"
            if centre
            else f"{name}() takes {counted}"
        )
        raise ProgramError(f"{words} but {len(args)} were given", kind="TypeError")
    for key in given:
        if key != centre and not (name == "fmean" and key == "weights") and key != "data":
            words = f"{name}() got an unexpected keyword argument '{key}'"
            raise ProgramError(words, kind="TypeError")
    if not args and not given:
        words = f"{name}() missing 1 required positional argument: 'data'"
        raise ProgramError(words, kind="TypeError")
    if not args or set(given) - {centre} or (len(args) == 2 and centre in given):
        shape = f"(data, {centre}=None)" if centre else "(data)"
        raise ProgramError(f"statistics.{name} takes {shape} here, its data given by position")


def _not_a_number(name: str, item: Any) -> ProgramError:
    shown = python_type_name(item)
    if name == "fmean":
        return ProgramError(f"must be real number, not {shown}", kind="TypeError")
    if name in AVERAGES:
        words = f"can't convert type '{shown}' to numerator/denominator"
        return ProgramError(words, kind="TypeError")
    return ProgramError(f"statistics.{name} of what is not a number is not available here")
