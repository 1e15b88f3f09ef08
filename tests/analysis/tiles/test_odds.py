"""Exact tile odds: class counts, brute-force agreement, best response, banking symmetry, CLI."""

from __future__ import annotations

import io
import json
import random
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest

from controller.analysis import MATCHUPS, Outcome, ProgressBar, enumerate_odds
from controller.analysis.tiles.classes import tile_classes, weight_matrix
from controller.analysis.tiles.strategy import (
    CodeArray,
    TileStrategy,
    choices_table,
    max_high,
    max_low,
    rank_codes,
    strategy_table,
)
from controller.rules.tiles.dominoes import FACES, Tile, full_set
from controller.rules.tiles.hands import player_wins, rank_hand
from tests.cli_run import run

CLASSES = tile_classes()
MAX_HIGH, MAX_LOW = cache(max_high()), cache(max_low())  # shared by the brute-force runs


@pytest.fixture(scope="module")
def tables() -> dict[str, CodeArray]:
    """Fixed-strategy tables for the two baselines, and every legal setting per class."""
    return {
        "max-high": strategy_table(CLASSES, max_high()),
        "max-low": strategy_table(CLASSES, max_low()),
        "choices": choices_table(CLASSES)[0],
    }


def test_classes_cover_every_four_tile_hand_once() -> None:
    assert len(CLASSES) == 8_130  # reference section 3: 8,130 face classes
    assert int(CLASSES.multiplicity.sum()) == 35_960
    assert (CLASSES.counts.sum(axis=1) == 4).all()
    assert CLASSES.index(tuple(reversed(CLASSES.hands[1234]))) == 1234


def test_each_player_hand_leaves_20475_dealer_hands() -> None:
    weights = weight_matrix(CLASSES)
    assert (weights.sum(axis=1) == 20_475).all()
    # A class sharing no face with the player keeps its full multiplicity.
    teens = CLASSES.index([Tile.parse(t) for t in ("6-6", "6-6", "1-1", "1-1")])
    fives = CLASSES.index([Tile.parse(t) for t in ("5-5", "5-5", "3-3", "3-3")])
    assert weights[teens, fives] == CLASSES.multiplicity[fives] == 1
    assert weights[teens, teens] == 0
    rows = np.arange(0, len(CLASSES), 97)
    assert (CLASSES.dealer_weights(rows) == weights[rows]).all()


def test_rank_codes_compare_as_the_rules_do() -> None:
    codes = rank_codes()
    hands = list(combinations_with_replacement(FACES, 2))
    ranks = [rank_hand(h) for h in hands]
    for a in ranks:
        for b in ranks:
            assert (codes.code(a) > codes.code(b)) == player_wins(a, b)


def _brute_force(hand: tuple[Tile, ...], rest: list[Tile], player: TileStrategy,
                 dealer: TileStrategy, banking: bool) -> Outcome:
    """One physical player hand against each of the 20,475 dealer hands, with the rules core's
    own comparison and no codes."""
    low, high = player(tuple(sorted(hand)))
    win = loss = push = 0
    for other in combinations(rest, 4):
        d_low, d_high = dealer(tuple(sorted(other)))
        if banking:  # the dealer's hand plays against the player's bank
            beaten = player_wins(d_low, low) + player_wins(d_high, high)
            win, loss, push = win + (beaten == 0), loss + (beaten == 2), push + (beaten == 1)
        else:
            beats = player_wins(low, d_low) + player_wins(high, d_high)
            win, loss, push = win + (beats == 2), loss + (beats == 0), push + (beats == 1)
    return Outcome(win, loss, push)


@pytest.mark.parametrize("banking", [False, True])
def test_counts_match_a_brute_force_over_physical_tiles(
    tables: dict[str, CodeArray], banking: bool
) -> None:
    tiles = list(full_set())
    rng = random.Random(3)
    picks = [rng.sample(range(32), 4) for _ in range(2)]
    picks.append([0, 1, 2, 3])  # two pairs: Teen and Day
    picks.append([30, 31, 28, 29])  # the Gee Joon pair (1-2, 2-4) with a 1-4 and 2-3
    rows = np.array([CLASSES.index([tiles[i] for i in p]) for p in picks])
    odds = enumerate_odds(tables["max-low"], tables["max-high"], banking=banking, rows=rows)
    for k, pick in enumerate(picks):
        hand = tuple(tiles[i] for i in pick)
        rest = [t for i, t in enumerate(tiles) if i not in pick]
        expected = _brute_force(hand, rest, MAX_LOW, MAX_HIGH, banking)
        got = Outcome(int(odds.win[k]), int(odds.loss[k]), int(odds.push[k]))
        assert got == expected, " ".join(map(str, hand))
        assert got.total == 20_475


def test_best_response_is_never_worse_than_a_fixed_setting(tables: dict[str, CodeArray]) -> None:
    rows = np.random.default_rng(7).choice(len(CLASSES), 60, replace=False)
    dealer = tables["max-high"]
    for banking in (False, True):
        best = enumerate_odds(tables["choices"], dealer, banking=banking, rows=rows)
        best_score = 19 * best.win - 20 * best.loss  # 20 x (0.95 win - loss)
        for s in range(3):
            fixed = enumerate_odds(tables["choices"][:, s:s + 1], dealer, banking=banking,
                                   rows=rows)
            assert (best_score >= 19 * fixed.win - 20 * fixed.loss).all()
        house = enumerate_odds(dealer, dealer, banking=banking, rows=rows)
        assert (best_score >= 19 * house.win - 20 * house.loss).all()


def test_full_runs_count_every_matchup_and_mirror_when_banking(
    tables: dict[str, CodeArray]
) -> None:
    high, low = tables["max-high"], tables["max-low"]
    same = enumerate_odds(high, high).outcome()
    same_banking = enumerate_odds(high, high, banking=True).outcome()
    assert same.total == same_banking.total == MATCHUPS == 736_281_000
    # Reference section 4.1: one way against itself, banking swaps win and loss.
    assert same_banking == same.mirrored()
    # Player with way A banking against a dealer with way B is the dealer-banking game of a
    # player with way B against a bank with way A, seen from the bank.
    assert (enumerate_odds(low, high, banking=True).outcome()
            == enumerate_odds(high, low).outcome().mirrored())


def test_house_edge_formula_reproduces_the_wizard_table() -> None:
    # Reference section 4.1: house way vs house way, 29.21 / 30.18 / 40.61, 5% commission.
    player = Outcome(2921, 3018, 4061)
    assert round(float(player.house_edge()), 4) == 0.0243
    assert round(float(player.mirrored().house_edge()), 4) == 0.0054


def test_progress_bar_draws_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    quiet, loud = io.StringIO(), Terminal()
    for stream in (quiet, loud):
        with ProgressBar("odds", stream) as bar:
            bar(1, 2)
            bar(2, 2)
    assert quiet.getvalue() == ""
    assert "100%" in loud.getvalue() and loud.getvalue().startswith("\rodds [")


def test_analyze_json_from_the_banker_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyze", "tiles", "--way", "foxwoods", "--banking", "--json")
    assert code == 0 and err == ""  # no progress bar off a terminal
    obj = json.loads(out)
    assert obj["side"] == "banker" and obj["banking"] is True and obj["vs"] == "foxwoods"
    assert obj["counts"]["win"] + obj["counts"]["loss"] + obj["counts"]["push"] == MATCHUPS
    assert obj["matchups"] == MATCHUPS
    assert obj["win"] + obj["loss"] + obj["push"] == pytest.approx(1.0)
    assert obj["house_edge"] == pytest.approx(obj["loss"] - 0.95 * obj["win"])
    # Reference section 4.1: the Wizard's house way banking is 0.53%; ours leaves out the
    # Foxwoods parts that are only pictures (docs/tiles_odds.md), so close, not equal.
    assert 0.004 < obj["house_edge"] < 0.007
    assert 0.02 < obj["other_side"]["house_edge"] < 0.03  # the player's side: 2.44% published


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["analyze", "tiles", "--way", "nowhere"], "'nowhere'"),
        (["analyze", "tiles", "--way", "optimal"], "'optimal'"),
        (["analyze", "tiles", "--way", "max-high", "--vs", "elsewhere"], "'elsewhere'"),
    ],
)
def test_analyze_bad_way_is_one_line_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert named in err and len(err.strip().splitlines()) == 1
