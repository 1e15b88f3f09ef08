"""Golden two-tile comparisons (tests/golden/tiles/compare.txt), each citing its rule."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from controller.rules.comparison import Side
from controller.rules.tiles.comparison import compare_tile_hands
from controller.rules.tiles.hands import GeeJoonTie, TileRules, parse_hand

GOLDEN = Path(__file__).parents[2] / "golden" / "tiles" / "compare.txt"


class Case(NamedTuple):
    line: int
    player: str
    banker: str
    winner: Side
    copy: bool
    citation: str


def load_cases() -> list[Case]:
    cases = []
    for number, raw in enumerate(GOLDEN.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        player, banker, winner, copy, citation = (f.strip() for f in text.split("|"))
        assert copy in ("yes", "no"), f"line {number}: copy must be yes or no, not {copy!r}"
        cases.append(Case(number, player, banker, Side(winner), copy == "yes", citation))
    return cases


CASES = load_cases()


def test_the_golden_file_is_big_enough_and_cites_every_rule() -> None:
    assert len(CASES) >= 20
    assert all(case.citation.startswith("s") and ":" in case.citation for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[f"line{c.line}" for c in CASES])
def test_golden_comparison(case: Case) -> None:
    result = compare_tile_hands(parse_hand(case.player), parse_hand(case.banker))
    assert (result.winner, result.copy) == (case.winner, case.copy), case.citation


def test_the_other_gee_joon_convention_changes_only_the_named_matchup() -> None:
    by_pips = TileRules(GeeJoonTie.BY_PIPS)
    changed = [
        c for c in CASES
        if compare_tile_hands(parse_hand(c.player), parse_hand(c.banker), by_pips).winner
        is not c.winner
    ]
    assert [(c.player, c.banker) for c in changed] == [("2-4 1-4", "1-2 2-3")]
