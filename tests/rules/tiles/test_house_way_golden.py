"""Golden data: four tiles -> the setting each shipped tile house way must give, rule by rule.

The files are tests/golden/tiles/NAME.txt, one case a line: ``TILES | LOW / HIGH | rule | cite``;
``player: TILES`` sets the hand for the player side (a way with a player column, e.g. Luger's).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.config.house_ways import load_tile_way, tile_engine, tile_way_names
from controller.rules.tiles.house_way import TileWayEngine
from controller.rules.tiles.house_way_model import SIDES
from controller.rules.tiles.setting import TileSetting, four, rank_tile_setting

GOLDEN = Path(__file__).parents[2] / "golden" / "tiles"
SHIPPED = ["australian", "canberra", "foxwoods", "harrahs", "jb-player", "luger-optimal",
           "taj-mahal"]


@dataclass(frozen=True)
class Case:
    """One golden line."""

    way: str
    line: int
    tiles: str
    setting: str
    rule: str
    cite: str
    side: str = "banker"


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
            side, sep, tiles = parts[0].partition(":")
            if sep and side.strip() not in SIDES:
                raise ValueError(f"{path.name}:{number}: unknown side {side.strip()!r}")
            side, tiles = (side.strip(), tiles.strip()) if sep else ("banker", parts[0])
            cases.append(Case(way, number, tiles, parts[1], parts[2], parts[3], side))
    return cases


CASES = golden_cases()


def _engine(way: str, side: str) -> TileWayEngine:
    return tile_engine(way) if side == "banker" else TileWayEngine(load_tile_way(way), side=side)


def _groups(hand: tuple[object, ...]) -> list[int]:
    return sorted(t.group for t in hand)  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.way}:{c.line}" for c in CASES])
def test_golden_setting(case: Case) -> None:
    engine = _engine(case.way, case.side)
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
    for side in SIDES:
        used = {choice.rule for choice in _engine(way, side).table().values()}
        covered = {f"{c.way}.{c.rule}" for c in CASES if c.way == way and c.side == side}
        assert used - covered <= {f"{c.way}.{c.rule}" for c in CASES if c.way == way}, (
            f"rules without a golden case ({side})")
        assert covered <= used


@pytest.mark.parametrize("way", SHIPPED)
def test_each_way_has_at_least_fifteen_cases(way: str) -> None:
    assert sum(1 for c in CASES if c.way == way) >= 15


def test_the_shipped_ways_are_these() -> None:
    assert tile_way_names() == SHIPPED
