"""``analyze tiles --vs ... --diff``: which hands two ways set differently and what each is worth;
the banker and player columns of a way with side rules (luger-optimal); ``--commission``."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import pytest

from controller.analysis import MATCHUPS, analyze_tiles, enumerate_odds
from controller.analysis.tiles.classes import tile_classes
from controller.analysis.tiles.differences import WayDifferences, way_differences
from controller.analysis.tiles.strategy import strategy_table
from controller.analysis.tiles.ways import house_way_strategy, way_engine
from controller.rules.tiles.dominoes import Tile, full_set
from controller.rules.tiles.hands import DEFAULT_TILE_RULES, player_wins
from controller.rules.tiles.house_way import TileWayEngine
from tests.cli_run import run

RULES = DEFAULT_TILE_RULES


@pytest.fixture(scope="module")
def harrahs_vs_luger() -> WayDifferences:
    return way_differences("harrahs", "luger-optimal")


def test_the_gains_add_up_to_the_edge_change(harrahs_vs_luger: WayDifferences) -> None:
    result = harrahs_vs_luger
    base = analyze_tiles("harrahs")
    other = analyze_tiles("harrahs", "luger-optimal")
    assert result.base.outcome == base.outcome and result.other.outcome == other.outcome
    assert result.gain == base.house_edge - other.house_edge != 0
    assert result.hands == sum(d.hands for d in result.differences) > 0


def test_exactly_the_classes_set_differently_are_listed(harrahs_vs_luger: WayDifferences) -> None:
    harrahs = way_engine("harrahs", RULES, "player")
    luger = way_engine("luger-optimal", RULES, "player")

    def ranks(engine: TileWayEngine, hand: tuple[Tile, ...]) -> tuple[int, int]:
        s = engine.set_hand(hand).setting
        return s.low_rank, s.high_rank

    differing = {hand for hand in tile_classes().hands
                 if ranks(harrahs, hand) != ranks(luger, hand)}
    listed = {d.hand for d in harrahs_vs_luger.differences}
    assert listed == differing
    for d in harrahs_vs_luger.differences:
        assert (d.base.low_rank, d.base.high_rank) == ranks(harrahs, d.hand)
        assert (d.other.low_rank, d.other.high_rank) == ranks(luger, d.hand)
        assert d.base_rule.startswith("harrahs.") and d.other_rule.startswith("luger-optimal.")


def test_one_gain_against_every_dealer_hand_by_brute_force(
    harrahs_vs_luger: WayDifferences,
) -> None:
    """Pick the largest difference; count its physical hand against all 20,475 dealer hands
    with the rules core's ``player_wins``, for both settings."""
    top = harrahs_vs_luger.differences[0]
    dealer = way_engine("harrahs", RULES, "banker")
    left = list(full_set())
    for tile in top.hand:
        left.remove(tile)
    score = {"base": Fraction(0), "other": Fraction(0)}
    count = 0
    for deal in combinations(left, 4):
        count += 1
        bank = dealer.set_hand(deal).setting
        for name, ranked in (("base", top.base), ("other", top.other)):
            low = player_wins(ranked.low_rank, bank.low_rank)
            high = player_wins(ranked.high_rank, bank.high_rank)
            score[name] += Fraction(19, 20) if low and high else (0 if low or high else -1)
    assert count == 20_475
    assert top.gain == (score["other"] - score["base"]) * top.hands / MATCHUPS
    assert top.gain > 0


def test_the_player_plays_lugers_player_column() -> None:
    """Luger's columns differ ([D1] l.185: Long, banker splits, player never): the dealer
    plays the banker column and the player the player column, swapped when the player banks."""
    classes = tile_classes()
    banker = strategy_table(classes, house_way_strategy("luger-optimal", RULES, "banker"))
    player = strategy_table(classes, house_way_strategy("luger-optimal", RULES, "player"))
    assert (banker != player).any()
    assert analyze_tiles("luger-optimal").outcome == enumerate_odds(player, banker).outcome()
    assert (analyze_tiles("luger-optimal", banking=True).outcome
            == enumerate_odds(banker, player, banking=True).outcome())
    long = (Tile.parse("3-3"), Tile.parse("3-3"), Tile.parse("1-1"), Tile.parse("5-6"))
    assert way_engine("luger-optimal", RULES, "banker").set_hand(long).rule.endswith(
        "long-banker")
    assert way_engine("luger-optimal", RULES, "player").set_hand(long).rule.endswith(
        "long-player")


def test_no_commission_changes_only_the_edge() -> None:
    paid = analyze_tiles("harrahs", "luger-optimal")
    free = analyze_tiles("harrahs", "luger-optimal", commission=Fraction(0))
    assert paid.outcome == free.outcome
    assert free.house_edge == Fraction(free.outcome.loss - free.outcome.win, MATCHUPS)


def test_diff_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyze", "tiles", "--way", "harrahs", "--vs",
                         "luger-optimal", "--diff", "--json", "--commission", "4.76")
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert obj["commission"] == pytest.approx(0.0476)
    assert obj["classes"] == len(obj["differences"]) > 0
    assert obj["hands"] == sum(d["hands"] for d in obj["differences"])
    assert obj["gain"] == pytest.approx(obj["house_edge"]["way"] - obj["house_edge"]["vs"])
    assert obj["gain"] == pytest.approx(sum(d["gain"] for d in obj["differences"]))
    first = obj["differences"][0]
    assert first["way"]["rule"].startswith("harrahs.") and len(first["vs"]["low"]) == 2


def test_diff_text_lists_every_class(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "tiles", "--way", "foxwoods", "--vs", "harrahs",
                       "--diff")
    lines = out.splitlines()
    classes = int(lines[1].split()[0])
    assert code == 0 and len(lines) == 4 + classes
    assert "[foxwoods." in lines[4] and "[harrahs." in lines[4]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["analyze", "tiles", "--way", "harrahs", "--diff"], "--diff needs --vs"),
        (["analyze", "tiles", "--way", "harrahs", "--commission", "five"], "'five'"),
        (["analyze", "tiles", "--way", "harrahs", "--commission", "100"], "'100'"),
        (["analyze", "tiles", "--way", "harrahs", "--commission", "-1"], "'-1'"),
        (["analyze", "poker", "--way", "classic", "--diff"], "--diff is for 'analyze tiles'"),
    ],
)
def test_bad_options_are_one_line_exit_2(argv: list[str], named: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert named in err and len(err.strip().splitlines()) == 1
