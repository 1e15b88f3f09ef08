"""The expected cost of a deviation, checked against the rules core's own settlement: exact
for tiles (every opponent hand, settled one by one), within the stated error for cards."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from controller.audit import AuditInputError, Stake, expected_cost, table_rules
from controller.profiles.poker import load_profile
from controller.profiles.tiles import load_tile_profile
from controller.rules.poker.cards import full_deck
from controller.rules.poker.comparison import PokerHands
from controller.rules.poker.setting import Setting
from controller.rules.poker.settlement import settle
from controller.rules.seat import Bet, HandSet, SetBy
from controller.rules.tiles.comparison import TileHands
from controller.rules.tiles.dominoes import full_set
from controller.rules.tiles.setting import TileSetting
from controller.rules.tiles.settlement import settle_tiles

DEALER_TILES = ("6-6", "4-5", "1-2", "3-3")


def _tile_alternatives(tiles: tuple[str, ...]) -> list[TileSetting]:
    """Every setting of four tiles: each pair as the low hand."""
    out = []
    for low in itertools.combinations(range(4), 2):
        high = [tiles[i] for i in range(4) if i not in low]
        out.append(TileSetting.parse(f"{tiles[low[0]]} {tiles[low[1]]} / {' '.join(high)}"))
    return out


def _brute_tiles(actual: TileSetting, house_way: TileSetting, wager: int,
                 house_banks: bool) -> float:
    """Mean over every four of the other tiles of (house net with the house way) minus (house
    net with ``actual``), each settled in full by ``settle_tiles``."""
    profile = load_tile_profile()
    table = table_rules("tiles", profile.name)
    others = Counter(str(t) for t in full_set())
    others.subtract(DEALER_TILES)
    pool = sorted(others.elements())
    total, hands = 0, 0
    for four in itertools.combinations(pool, 4):
        other = table.house_way(four)
        nets = []
        for dealer in (house_way, actual):
            if house_banks:
                result = settle_tiles([HandSet(1, dealer, SetBy.PLAYER),
                                       HandSet(2, other, SetBy.HOUSE_WAY)],
                                      [Bet(2, wager)], profile.ruleset, profile.settlement)
            else:
                result = settle_tiles([HandSet(1, dealer, SetBy.PLAYER),
                                       HandSet(2, other, SetBy.HOUSE_WAY)],
                                      [Bet(1, wager)], profile.ruleset, profile.settlement,
                                      banker=2, bank=10 * wager)
            nets.append(result.net_by_position()[1])
        total += nets[0] - nets[1]
        hands += 1
    return total / hands


@pytest.mark.parametrize("house_banks", [True, False])
def test_tile_cost_is_exact_against_every_settlement(house_banks: bool) -> None:
    table = table_rules("tiles", load_tile_profile().name)
    house_way = table.house_way(DEALER_TILES)
    legal = TileHands(load_tile_profile().ruleset).legal
    actual = next(s for s in _tile_alternatives(DEALER_TILES) if s != house_way and legal(s))
    cost = expected_cost(table, DEALER_TILES, actual, house_way, [Stake(5000, house_banks)])
    assert cost.exact and cost.hands == math.comb(28, 4) and cost.error_cents == 0
    assert cost.cents == pytest.approx(_brute_tiles(actual, house_way, 5000, house_banks),
                                       abs=1e-9)


def test_house_way_costs_nothing_and_a_foul_costs_more_than_a_legal_slip() -> None:
    table = table_rules("tiles", load_tile_profile().name)
    house_way = table.house_way(DEALER_TILES)
    assert expected_cost(table, DEALER_TILES, house_way, house_way, [Stake(2500)]).cents == 0
    legal = TileHands(load_tile_profile().ruleset).legal
    settings = [s for s in _tile_alternatives(DEALER_TILES) if s != house_way]
    foul = next(s for s in settings if not legal(s))
    slip = next(s for s in settings if legal(s))
    foul_cost = expected_cost(table, DEALER_TILES, foul, house_way, [Stake(2500)]).cents
    slip_cost = expected_cost(table, DEALER_TILES, slip, house_way, [Stake(2500)]).cents
    assert foul_cost > slip_cost  # a foul bank loses to every seat under the "loss" policy


def test_card_cost_agrees_with_settlements_within_the_stated_error() -> None:
    profile = load_profile("classic")
    table = table_rules("poker", "classic")
    hand = ("Ac", "Qd", "Js", "Jc", "8s", "7d", "2h")
    house_way = table.house_way(hand)
    actual = Setting.parse("7d 2h / Ac Qd Js Jc 8s")
    assert actual != house_way
    stakes = [Stake(2500), Stake(10000)]
    cost = expected_cost(table, hand, actual, house_way, stakes, samples=3000, seed=5)
    assert not cost.exact and cost.hands == 3000 and cost.error_cents > 0
    # An independent estimate: whole settlements by the rules core on other random hands.
    rng = random.Random(99)
    pool = [str(c) for c in full_deck() if str(c) not in hand]
    evaluator = profile.evaluator()
    diffs = []
    for _ in range(3000):
        others = [table.house_way(rng.sample(pool, 7)) for _ in stakes]
        nets = []
        for dealer in (house_way, actual):
            hands = [HandSet(1, dealer, SetBy.PLAYER),
                     *(HandSet(p, s, SetBy.HOUSE_WAY) for p, s in zip((2, 3), others,
                                                                      strict=True))]
            bets = [Bet(p, s.wager) for p, s in zip((2, 3), stakes, strict=True)]
            nets.append(settle(hands, bets, evaluator, profile.settlement)
                        .net_by_position()[1])
        diffs.append(nets[0] - nets[1])
    mean = sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
    combined = math.hypot(cost.error_cents / 1.959963984540054, se)
    assert abs(cost.cents - mean) < 4.5 * combined
    # Hoeffding's bound holds for both estimates whatever the distribution: looser, never wrong.
    assert cost.bound_cents > cost.error_cents
    assert abs(cost.cents - mean) < 2 * cost.bound_cents
    assert "at worst ±" in cost.method
    assert PokerHands(evaluator).legal(actual)


def test_bad_inputs_are_named() -> None:
    table = table_rules("poker", "classic")
    hand = ("Ac", "Qd", "Js", "Jc", "8s", "7d", "2h")
    way = table.house_way(hand)
    other = Setting.parse("7d 2h / Ac Qd Js Jc 8s")
    with pytest.raises(AuditInputError, match="samples 1"):
        expected_cost(table, hand, other, way, [Stake(100)], samples=1)
    with pytest.raises(AuditInputError, match="'cribbage'"):
        table_rules("cribbage", "classic")
