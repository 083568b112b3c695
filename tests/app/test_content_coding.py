"""Reading `Accept-Encoding` (app/content_coding.py): q-values, `*`, and q=0 as a refusal."""

from __future__ import annotations

import pytest

from backprop_animator.app.content_coding import accepts_gzip


@pytest.mark.parametrize(
    "header",
    ["gzip", "GZIP", "gzip, br", "br;q=1, gzip;q=0.1", "x-gzip", "*", "*;q=0.5", " gzip ; q=1 "],
)
def test_gzip_is_accepted_when_named_or_covered_by_a_star_with_a_weight(header: str) -> None:
    assert accepts_gzip(header)


@pytest.mark.parametrize(
    "header",
    ["", "identity", "br", "gzip;q=0", "gzip; q=0.000", "br, *;q=0", "x-gzip;q=0", "gzip;q=x"],
)
def test_gzip_is_refused_when_absent_weighted_zero_or_unreadable(header: str) -> None:
    assert not accepts_gzip(header)


def test_gzip_named_outweighs_a_star() -> None:
    assert not accepts_gzip("*, gzip;q=0")
    assert accepts_gzip("*;q=0, gzip")
