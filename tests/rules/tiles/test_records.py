"""Tile records in the versioned JSON form: ``"game": "tiles"`` on deal, set, compare, settle."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.bank import BankRules
from controller.rules.comparison import (
    Comparison,
    FoulPolicy,
    HandResult,
    Outcome,
    Reason,
    Side,
    compare_played,
    play,
)
from controller.rules.dice import Dice
from controller.rules.errors import NotationError
from controller.rules.records import Event, from_json, to_json
from controller.rules.seat import Bet, HandSet, SetBy
from controller.rules.tiles.comparison import TileHands
from controller.rules.tiles.dealing import deal_tiles
from controller.rules.tiles.dominoes import Tile, full_set
from controller.rules.tiles.setting import TILE_SPLITS, TileSetting, tile_settings
from controller.rules.tiles.settlement import settle_tiles

dice_st = st.tuples(*[st.integers(1, 6)] * 3).map(Dice)


def round_trip(event: Event) -> Event:
    """Through JSON text and back, as a journal would store it."""
    return from_json(json.loads(json.dumps(to_json(event))))


def test_the_tile_set_form_is_pinned() -> None:
    hand = HandSet(2, TileSetting.parse("3-3 1-2 / 6-6 4-5"), SetBy.PLAYER)
    assert to_json(hand) == {
        "type": "set", "v": 1, "game": "tiles", "position": 2, "by": "player",
        "setting": {"low": ["3-3", "1-2"], "high": ["6-6", "4-5"]},
    }
    assert round_trip(hand) == hand


def test_the_tile_deal_form_carries_the_stacks() -> None:
    d = deal_tiles(full_set(), Dice((3, 5, 6)), vacant={4})
    data = to_json(d)
    assert (data["type"], data["game"], data["positions"]) == ("deal", "tiles", 8)
    assert data["receivers"] == [6, 7, 8, 1, 2, 3, 4, 5] and data["vacant"] == [4]
    assert data["stacks"][0] == ["6-6", "6-6", "1-1", "1-1"]
    assert round_trip(d) == d


@settings(max_examples=50, deadline=None)
@given(dice=dice_st, vacant=st.sets(st.integers(2, 8)), order=st.permutations(full_set()))
def test_tile_deal_round_trip(dice: Dice, vacant: set[int], order: Sequence[Tile]) -> None:
    event = deal_tiles(order, dice, vacant)
    assert round_trip(event) == event


@given(order=st.permutations(full_set()), split=st.integers(0, 2), swap=st.booleans(),
       by=st.sampled_from(list(SetBy)))
def test_tile_set_round_trip(order: Sequence[Tile], split: int, swap: bool, by: SetBy) -> None:
    (i, j), (k, m) = TILE_SPLITS[split]
    low, high = (order[i], order[j]), (order[k], order[m])
    event = HandSet(8, TileSetting.of(*((high, low) if swap else (low, high))), by)
    assert round_trip(event) == event


@pytest.mark.parametrize(
    "comparison",
    [
        Comparison(2, TileSetting.parse("3-3 1-2 / 6-6 4-5"), Outcome.PUSH, Reason.HANDS,
                   HandResult(Side.PLAYER), HandResult(Side.BANKER, copy=True)),
        Comparison(3, TileSetting.parse("6-6 2-6 / 2-3 1-2"), Outcome.LOSS, Reason.FOUL),
        Comparison(4, TileSetting.parse("2-3 1-2 / 6-6 2-6"), Outcome.WIN, Reason.HANDS,
                   HandResult(Side.PLAYER), HandResult(Side.PLAYER),
                   reset_from=TileSetting.parse("6-6 2-6 / 2-3 1-2")),
    ],
)
def test_tile_compare_round_trip(comparison: Comparison[TileSetting]) -> None:
    assert to_json(comparison)["game"] == "tiles"
    assert round_trip(comparison) == comparison


def _reset(tiles: Sequence[Tile]) -> TileSetting:
    return max(tile_settings(tiles), key=lambda r: r.high_rank).setting


@settings(max_examples=40, deadline=None)
@given(order=st.permutations(full_set()), splits=st.lists(st.integers(0, 2), min_size=4,
                                                            max_size=4),
       swaps=st.lists(st.booleans(), min_size=4, max_size=4), banker=st.sampled_from([1, 3]),
       foul=st.sampled_from(list(FoulPolicy)))
def test_tile_compare_and_settle_round_trip(
    order: Sequence[Tile], splits: list[int], swaps: list[bool], banker: int, foul: FoulPolicy
) -> None:
    hands = []
    for k, position in enumerate([1, 2, 3, 8]):
        tiles = order[4 * k : 4 * k + 4]
        (i, j), (m, n) = TILE_SPLITS[splits[k]]
        low, high = (tiles[i], tiles[j]), (tiles[m], tiles[n])
        hands.append(HandSet(position, TileSetting.of(*((high, low) if swaps[k]
                                                        else (low, high)))))
    bets = [Bet(2, 1_000), Bet(8, 2_500)]
    bets += [Bet(3, 5_000)] if banker == 1 else [Bet(1, 3_000)]
    result = settle_tiles(hands, bets, rules=BankRules(foul=foul), banker=banker, reset=_reset)
    data = to_json(result)
    assert data["game"] == "tiles" and sum(data["net"].values()) == 0
    assert round_trip(result) == result
    game = TileHands()

    def reset(setting: TileSetting) -> TileSetting:
        return _reset(setting.tiles)

    comparison = compare_played(2, play(hands[1].setting, game, foul, reset),
                                play(hands[0].setting, game, foul, reset), game)
    assert round_trip(comparison) == comparison


def _tile_settled() -> dict[str, Any]:
    hands = [HandSet(1, TileSetting.parse("1-3 1-5 / 4-4 5-6")),
             HandSet(2, TileSetting.parse("3-4 1-4 / 6-6 3-6"))]
    return to_json(settle_tiles(hands, [Bet(2, 10_000)]))


def test_tile_settle_form() -> None:
    data = _tile_settled()
    assert data["net"] == {"1": -9_500, "2": 9_500}
    assert data["banker_setting"] == {"low": ["1-3", "1-5"], "high": ["4-4", "5-6"]}
    assert data["seats"][0]["fortune"] is None and data["seats"][0]["envy"] == 0


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"type": "set", "v": 1, "game": "mahjong", "position": 2, "by": "player",
          "setting": {"low": ["3-3", "1-2"], "high": ["6-6", "4-5"]}}, "'mahjong'"),
        ({"type": "set", "v": 1, "game": "tiles", "position": 2, "by": "player",
          "setting": {"low": ["3-3", "7-7"], "high": ["6-6", "4-5"]}}, "'7-7'"),
        ({"type": "set", "v": 1, "game": "tiles", "position": 2, "by": "player",
          "setting": {"low": ["3-3"], "high": ["6-6", "4-5", "1-2"]}}, "needs 2 tiles"),
        ({"type": "set", "v": 1, "position": 2, "by": "player",
          "setting": {"low": ["3-3", "1-2"], "high": ["6-6", "4-5"]}}, "'3-3'"),
        ({"type": "set", "v": 1, "game": "tiles", "position": 2, "by": "player",
          "setting": {"low": ["4-5", "1-2"], "high": ["6-6", "4-5"]}}, "'4-5' appears 2"),
    ],
)
def test_bad_tile_forms_are_named(data: Any, named: str) -> None:
    with pytest.raises(NotationError, match=named):
        from_json(data)


def test_a_tampered_tile_deal_is_refused() -> None:
    data = to_json(deal_tiles(full_set(), Dice((1, 2, 3))))
    data["stacks"][0].append(data["stacks"][1].pop())
    with pytest.raises(NotationError, match="four tiles each"):
        from_json(data)
    data = to_json(deal_tiles(full_set(), Dice((1, 2, 3))))
    data["receivers"] = list(range(1, 9))
    with pytest.raises(NotationError, match="expected"):
        from_json(data)
    data = to_json(deal_tiles(full_set(), Dice((1, 2, 3))))
    data["positions"] = 7
    with pytest.raises(NotationError, match="8 positions"):
        from_json(data)
    data = to_json(deal_tiles(full_set(), Dice((1, 2, 3))))
    data["stacks"][0][0] = "1-2"
    with pytest.raises(NotationError, match="'1-2'"):
        from_json(data)


def test_a_tampered_tile_settlement_is_refused() -> None:
    data = _tile_settled()
    data["seats"][0]["commission"] = 400
    with pytest.raises(NotationError, match="do not match"):
        from_json(data)


def test_a_card_record_may_name_its_game() -> None:
    data = {"type": "set", "v": 1, "game": "poker", "position": 2, "by": "player",
            "setting": {"low": ["Kd", "Qh"], "high": ["As", "Jk", "9s", "9c", "4d"]}}
    event = from_json(data)
    assert isinstance(event, HandSet) and "game" not in to_json(event)
