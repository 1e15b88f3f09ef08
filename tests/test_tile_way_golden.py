"""Golden data: four tiles -> the setting each shipped tile house way must give, rule by rule.

The files are tests/golden/tiles/NAME.txt, one case a line: ``TILES | LOW / HIGH | rule | cite``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.catalog import tile_engine, tile_way_names
from controller.rules.tile_setting import TileSetting, four, rank_tile_setting

GOLDEN = Path(__file__).parent / "golden" / "tiles"
SHIPPED = ["canberra", "foxwoods", "jb-player", "taj-mahal"]


@dataclass(frozen=True)
class Case:
    """One golden line."""

    way: str
    line: int
    tiles: str
    setting: str
    rule: str
    cite: str


def golden_cases() -> list[Case]:
    """Every case of every shipped way's golden file, in file order."""
    cases = []
    for way in tile_way_names():
        path = GOLDEN / f"{way}.txt"
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            parts = [p.strip() for p in text.split("|")]
            if len(parts) != 4 or not parts[3]:
                raise ValueError(f"{path.name}:{number}: need TILES | SETTING | RULE | CITATION")
            cases.append(Case(way, number, *parts))
    return cases


CASES = golden_cases()


def _groups(hand: tuple[object, ...]) -> list[int]:
    return sorted(t.group for t in hand)  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.way}:{c.line}" for c in CASES])
def test_golden_setting(case: Case) -> None:
    engine = tile_engine(case.way)
    choice = engine.set_hand(case.tiles)
    expected = rank_tile_setting(TileSetting.parse(case.setting))
    assert sorted(expected.setting.tiles) == sorted(four(case.tiles)), (
        f"golden line {case.line} does not hold the hand's tiles"
    )
    got = choice.setting
    # The exact tiles, or the same setting with tiles of one pair group swapped between hands
    # (4-5 for 3-6, 1-2 for 2-4): same groups per hand and same ranks.
    same = got.setting == expected.setting or (
        _groups(got.setting.low) == _groups(expected.setting.low)
        and (got.low_rank, got.high_rank) == (expected.low_rank, expected.high_rank)
    )
    assert same, f"{case.way} set {case.tiles!r} as {got.setting}, golden says {case.setting}"
    assert choice.rule == f"{case.way}.{case.rule}", f"decided by {choice.rule}"
    assert got.legal and choice.source


@pytest.mark.parametrize("way", SHIPPED)
def test_every_rule_that_decides_a_hand_has_a_golden_case(way: str) -> None:
    used = {choice.rule for choice in tile_engine(way).table().values()}
    covered = {f"{c.way}.{c.rule}" for c in CASES if c.way == way}
    assert used - covered == set(), "rules without a golden case"
    assert covered <= used


@pytest.mark.parametrize("way", SHIPPED)
def test_each_way_has_at_least_fifteen_cases(way: str) -> None:
    assert sum(1 for c in CASES if c.way == way) >= 15


def test_the_four_ways_are_shipped() -> None:
    assert tile_way_names() == SHIPPED
