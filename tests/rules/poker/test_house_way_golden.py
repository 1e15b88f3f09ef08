"""Golden data: seven cards -> the setting each shipped house way must give, rule by rule."""

from __future__ import annotations

import pytest

from controller.config.house_ways import poker_engine, poker_way_names
from controller.rules.poker.setting import Setting, rank_setting
from tests.golden_poker import golden_cases

CASES = golden_cases()

SHIPPED = ["simple", "trump-plaza", "claridge", "foxwoods", "ballys-ac", "flamingo",
           "golden-nugget", "mgm"]


def test_every_shipped_way_has_golden_cases() -> None:
    ways = {c.way for c in CASES}
    assert set(poker_way_names()) <= ways, "a house way without golden cases"


@pytest.mark.parametrize("case", CASES, ids=[f"{c.way}:{c.line}" for c in CASES])
def test_golden_setting(case) -> None:  # type: ignore[no-untyped-def]
    engine = poker_engine(case.way)
    choice = engine.set_hand(case.hand)
    expected = rank_setting(Setting.parse(case.setting), engine.evaluator)
    got = choice.setting
    assert sorted(map(int, expected.setting.cards)) == sorted(map(int, got.setting.cards)), (
        f"golden line {case.line} does not hold the hand's cards"
    )
    # Exact cards, or an equivalent setting (same rank for both hands: only suits differ).
    same = got.setting == expected.setting or (
        got.low_rank == expected.low_rank and got.high_rank == expected.high_rank
    )
    assert same, f"{case.way} set {case.hand!r} as {got.setting}, golden says {case.setting}"
    assert choice.rule == f"{case.way}.{case.rule}", f"decided by {choice.rule}"
    assert got.legal


def test_the_eight_named_ways_are_shipped() -> None:
    assert sorted(SHIPPED) == sorted(poker_way_names())
