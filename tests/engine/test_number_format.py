"""One format for every number a learner reads (issue 23, 13): the engine's
`format_number` and the page's `formatValue` give the same text, digit for digit."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backprop_animator.engine import trace_source
from backprop_animator.engine.trace import number_format
from backprop_animator.engine.trace.number_format import (
    MINUS,
    format_number,
    format_signed,
)
from tests.support.checkout import CHECKOUT

FORMAT_JS = CHECKOUT / "static" / "js" / "player" / "format.js"


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (-1.4999999999999993, "−1.5"),
        (1.0, "1"),
        (2, "2"),
        (0.0, "0"),
        (-0.0, "0"),
        (0.04289321881345, "0.04289"),
        (0.7071067811865476, "0.7071"),
        (6.881373587019543, "6.881"),
        (-0.10355339059327377, "−0.1036"),
        (22026.465794806718, "22026.5"),
        (5.2e21, "5.2e+21"),
        (1e-5, "1e−5"),
        (0.0001, "0.0001"),
        (1.0625, "1.062"),  # a tie, to even as CPython's
        (1.1875, "1.188"),
        (1062500, "1.062e+6"),
        (10**400, "1e+400"),  # an int no float holds
        (float("nan"), "nan"),
        (float("-inf"), "−inf"),
    ],
)
def test_a_number_reads_the_one_way(x: float, text: str) -> None:
    assert format_number(x) == text


def test_more_digits_where_asked_and_a_sign_for_an_amount() -> None:
    assert format_number(14.003000000000483, digits=6) == "14.003"
    assert format_signed(0.14644660940672627) == "+0.1464"
    assert format_signed(-0.1036) == "−0.1036"


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_the_text_is_the_number_to_its_digits(x: float) -> None:
    text = format_number(x)
    assert "-" not in text.replace("e+", "")
    value = Decimal(text.replace(MINUS, "-"))
    assert abs(value - Decimal(x)) <= abs(Decimal(x)) * Decimal("5e-4")


def sample() -> list[float]:
    """Values of every size, dyadic ties, integers around the thresholds."""
    rng = random.Random(23)
    values: list[float] = [0.0, 1.0, -1.0, 1e-4, 1e6, 999999.99, 9.99995e-5, 99995000.0]
    for _ in range(6000):
        values.append(rng.uniform(-1, 1) * 10 ** rng.uniform(-9, 24))
    for _ in range(3000):
        values.append(rng.randrange(1, 2**20) / 2 ** rng.randrange(0, 24))  # exact ties
    for _ in range(1000):
        values.append(float(rng.randrange(1, 10**9) * 10 ** rng.randrange(0, 12)))
    return values


@pytest.mark.parametrize("digits", [4, 6])
def test_the_page_formats_every_number_as_the_engine_does(digits: int) -> None:
    node = shutil.which("node")
    assert node, "the test command installs Node.js"
    values = sample()
    script = (
        f"import({json.dumps(FORMAT_JS.as_uri())}).then(({{ formatValue }}) => {{"
        "  let input = '';"
        "  process.stdin.on('data', (c) => (input += c));"
        "  process.stdin.on('end', () => {"
        f"    const out = JSON.parse(input).map((x) => formatValue(x, {digits}));"
        "    process.stdout.write(JSON.stringify(out));"
        "  });"
        "});"
    )
    result = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(values),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    page = json.loads(result.stdout)
    assert len(page) == len(values)
    ours = [format_number(x, digits=digits) for x in values]
    wrong = [(x, a, b) for x, a, b in zip(values, ours, page, strict=True) if a != b]
    assert wrong == []


def test_narration_uses_the_format_with_the_true_minus_sign() -> None:
    source = (
        "x1 = Value(2.0, label='x1')\nw1 = Value(-3.0, label='w1')\n"
        "o = x1 * w1; o.label = 'o'\no.backward()"
    )
    texts = " ".join(frame["text"] for frame in trace_source(source)["frames"])
    assert "2 × −3 = −6" in texts
    assert "-3" not in texts and "-6" not in texts


def test_a_number_formatted_again_reads_as_it_did_the_first_time() -> None:
    # The four-digit form is remembered per value; equal values of any type read alike,
    # a NaN is never remembered, and the memory stays bounded.
    rng = random.Random(7)
    values = [rng.uniform(-1e7, 1e7) * 10 ** rng.randint(-9, 3) for _ in range(2_000)]
    first = [format_number(x) for x in values]
    assert [format_number(x) for x in values] == first
    assert first == [number_format._format(x, 4) for x in values]
    assert format_number(1) == format_number(1.0) == format_number(True) == "1"
    assert format_number(2**70) == format_number(float(2**70)) == "1.181e+21"
    nan = float("nan")
    assert format_number(nan) == "nan"
    assert nan not in number_format._FORMATTED
    for k in range(number_format._MAX_FORMATTED + 10):
        format_number(k + 0.5)
    assert len(number_format._FORMATTED) <= number_format._MAX_FORMATTED
