"""Commission in integer cents, and the text form of money."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import NotationError, ProfileError
from controller.rules.money import (
    NO_COMMISSION,
    Commission,
    Rounding,
    format_money,
    parse_money,
)

FIVE = Commission()


@pytest.mark.parametrize(
    ("win", "fee"),
    [
        (10_000, 500),  # $100 pays $5
        (1_000, 50),  # $10 pays 50c
        (1_300, 50),  # 65c rounds down to the quarter
        (1_500, 75),
        (2_500, 125),
        (400, 0),  # 20c is under a quarter
        (0, 0),
        (-2_500, 0),  # no commission on a loss
    ],
)
def test_five_percent_down_to_the_quarter(win: int, fee: int) -> None:
    assert FIVE.commission_on(win) == fee


def test_nearest_rounds_halves_up_and_up_rounds_up() -> None:
    nearest = Commission(mode=Rounding.NEAREST)
    up = Commission(mode=Rounding.UP)
    assert nearest.commission_on(750) == 50  # 37.5c is 1.5 quarters -> 2
    assert nearest.commission_on(700) == 25  # 35c is 1.4 quarters -> 1
    assert up.commission_on(1_300) == 75  # 65c -> 75c
    assert up.commission_on(10) == 10  # never more than the win itself


def test_commission_free_charges_nothing() -> None:
    assert NO_COMMISSION.free
    assert NO_COMMISSION.commission_on(1_000_000) == 0


@given(
    win=st.integers(min_value=1, max_value=10**9),
    rate=st.integers(min_value=0, max_value=10_000),
    unit=st.sampled_from([1, 5, 25, 100]),
)
def test_rounding_brackets_the_exact_fee(win: int, rate: int, unit: int) -> None:
    exact = Fraction(win * rate, 10_000)
    down = Commission(rate, unit, Rounding.DOWN).commission_on(win)
    nearest = Commission(rate, unit, Rounding.NEAREST).commission_on(win)
    up = Commission(rate, unit, Rounding.UP).commission_on(win)
    assert down <= nearest <= up <= win
    assert down <= exact < down + unit
    assert abs(nearest - exact) <= Fraction(unit, 2) or nearest == win
    assert up >= exact or up == win
    for fee in (down, nearest, up):
        assert fee % unit == 0 or fee == win


def test_from_mapping_reads_a_profile_table() -> None:
    got = Commission.from_mapping({"rate_bp": 400, "unit_cents": 5, "mode": "nearest"})
    assert got == Commission(400, 5, Rounding.NEAREST)
    assert Commission.from_mapping({}) == FIVE


@pytest.mark.parametrize(
    ("table", "named"),
    [
        ({"rate": 500}, "'rate'"),
        ({"mode": "sideways"}, "'sideways'"),
        ({"rate_bp": True}, "True"),
        ({"rate_bp": "5%"}, "'5%'"),
        ({"rate_bp": 10_001}, "10001"),
        ({"unit_cents": 0}, "0"),
    ],
)
def test_from_mapping_rejects_bad_tables(table: dict[str, object], named: str) -> None:
    with pytest.raises(ProfileError, match=named):
        Commission.from_mapping(table)


@pytest.mark.parametrize(
    ("text", "cents"),
    [("25.50", 2550), ("25.5", 2550), ("25", 2500), ("0.05", 5), (" 7.25 ", 725), ("-3.5", -350)],
)
def test_parse_money(text: str, cents: int) -> None:
    assert parse_money(text) == cents


@pytest.mark.parametrize("text", ["", "abc", "1.234", "1e3", "$5", "1,000", ".5", "5.", "--1"])
def test_parse_money_rejects_and_names_bad_text(text: str) -> None:
    with pytest.raises(NotationError, match=re.escape(repr(text))):
        parse_money(text)


def test_format_money() -> None:
    assert format_money(2550) == "25.50"
    assert format_money(5) == "0.05"
    assert format_money(-25) == "-0.25"
    assert format_money(0) == "0.00"


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_money_text_round_trip(cents: int) -> None:
    assert parse_money(format_money(cents)) == cents
