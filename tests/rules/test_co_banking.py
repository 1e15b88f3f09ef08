"""Co-banking: a player and the house share the bank 50/50, the hand set by the house way."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config.house_ways import poker_engine, tile_engine
from controller.rules.errors import SettlementError
from controller.rules.poker.cards import full_deck
from controller.rules.poker.dealing import HOUSE
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.setting import Setting
from controller.rules.poker.settlement import settle
from controller.rules.records import from_json, to_json
from controller.rules.seat import Bet, HandSet, SetBy
from controller.rules.tiles.dominoes import full_set
from controller.rules.tiles.setting import TileSetting
from controller.rules.tiles.settlement import settle_tiles

EV = Evaluator()
ENGINE = poker_engine("trump-plaza")


def poker_hands(seed: int, positions: range) -> list[HandSet[Setting]]:
    deck = list(full_deck())
    random.Random(seed).shuffle(deck)
    return [
        HandSet(p, ENGINE.set_hand(deck[7 * i:7 * i + 7]).setting.setting, SetBy.HOUSE_WAY)
        for i, p in enumerate(positions)
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(3, 7), st.lists(st.integers(10, 40), min_size=6,
                                                           max_size=6))
def test_co_bank_splits_the_bank_and_balances(seed: int, banker: int, stakes: list[int]) -> None:
    hands = poker_hands(seed, range(1, 8))
    bets = [Bet(p, stakes[p - 2] * 100) for p in range(2, 8) if p != banker]
    bets.append(Bet(banker, 0))
    alone = settle(hands, bets, EV, banker=banker)
    shared = settle(hands, bets, EV, banker=banker, co_bank=True)
    # The seats fare the same against the same bank hand.
    assert [s.gross for s in shared.seats] == [s.gross for s in alone.seats]
    net = shared.net_by_position()
    assert sum(net.values()) == 0
    gross = shared.banker_gross
    half = shared.banker_share
    assert abs(half) == abs(gross) // 2 and (half >= 0) == (gross >= 0 or half == 0)
    assert net[banker] == half - shared.banker_commission
    if half > 0:
        assert shared.banker_commission == 5 * half // 100 // 25 * 25
    else:
        assert shared.banker_commission == 0
    # The house (position 1) wagers nothing: it takes the other half and every commission.
    assert net[HOUSE] == gross - half + shared.commission_total
    again = from_json(to_json(shared))
    assert again == shared


def test_co_bank_is_refused_for_the_house_a_player_set_hand_and_a_house_wager() -> None:
    hands = poker_hands(1, range(1, 8))
    bets = [Bet(p, 2500) for p in range(3, 8)] + [Bet(2, 0)]
    with pytest.raises(SettlementError, match="not the house"):
        settle(hands, [Bet(p, 2500) for p in range(2, 8)], EV, co_bank=True)
    own = [h if h.position != 2 else HandSet(2, h.setting, SetBy.PLAYER) for h in hands]
    with pytest.raises(SettlementError, match="set by the house way"):
        settle(own, bets, EV, banker=2, co_bank=True)
    with pytest.raises(SettlementError, match="cannot also wager"):
        settle(hands, [*bets, Bet(1, 2500)], EV, banker=2, co_bank=True)


def test_tiles_co_bank_balances() -> None:
    tiles = list(full_set())
    random.Random(7).shuffle(tiles)
    engine = tile_engine("foxwoods")
    hands: list[HandSet[TileSetting]] = [
        HandSet(p, engine.set_hand(tiles[4 * i:4 * i + 4]).setting.setting, SetBy.HOUSE_WAY)
        for i, p in enumerate(range(1, 9))
    ]
    bets = [Bet(p, 5000) for p in range(2, 9) if p != 4] + [Bet(4, 0)]
    result = settle_tiles(hands, bets, banker=4, co_bank=True)
    net = result.net_by_position()
    assert sum(net.values()) == 0 and result.co_banked
    assert net[4] == result.banker_share - result.banker_commission


def test_settle_command_co_bank(capsys: pytest.CaptureFixture[str]) -> None:
    import json
    from pathlib import Path

    from controller.cli import main

    path = Path(__file__).parents[1] / "data" / "round_tiles_cobank.json"
    assert main(["settle", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["co_banked"] is True and out["banker"] == 3
    assert out["banker_share"] * 2 in (-5000, 5000) or out["banker_share"] == 0
    assert sum(out["net_by_position"].values()) == 0
