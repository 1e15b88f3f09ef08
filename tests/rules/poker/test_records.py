"""The versioned JSON form of every act's record, and its round trip."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.dice import Dice
from controller.rules.errors import NotationError
from controller.rules.poker.cards import Card, full_deck
from controller.rules.poker.comparison import (
    Comparison,
    FoulPolicy,
    HandResult,
    Outcome,
    Reason,
    Side,
    compare_seat,
    play_setting,
)
from controller.rules.poker.dealing import deal, deal_cards
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.home_pot import (
    PokerPotRanks,
    PotResult,
    PotRules,
    PotStatus,
    settle_pot,
)
from controller.rules.poker.setting import SPLITS, Setting, legal_settings
from controller.rules.poker.settlement import TableRules, settle
from controller.rules.records import Event, from_json, to_json
from controller.rules.seat import Bet, HandSet, SetBy

EV = Evaluator()


def round_trip(event: Event) -> Event:
    """Through JSON text and back, as a journal would store it."""
    return from_json(json.loads(json.dumps(to_json(event))))


def test_the_bet_and_set_forms_are_pinned() -> None:
    assert to_json(Bet(3, 2_500, 500)) == {
        "type": "bet", "v": 1, "position": 3, "wager": 2_500, "fortune": 500,
    }
    hand = HandSet(2, Setting.parse("Kd Qh / As Jk 9s 9c 4d"), SetBy.HOUSE_WAY)
    assert to_json(hand) == {
        "type": "set", "v": 1, "position": 2, "by": "house_way",
        "setting": {"low": ["Kd", "Qh"], "high": ["Jk", "As", "9s", "9c", "4d"]},
    }
    assert to_json(Dice((3, 5, 6))) == {"type": "roll", "v": 1, "dice": [3, 5, 6]}


dice_st = st.tuples(*[st.integers(1, 6)] * 3).map(Dice)


@given(dice_st)
def test_roll_round_trip(dice: Dice) -> None:
    assert round_trip(dice) == dice


@given(dice=dice_st, vacant=st.sets(st.integers(2, 7)), order=st.permutations(full_deck()),
       with_cards=st.booleans())
def test_deal_round_trip(
    dice: Dice, vacant: set[int], order: Sequence[Card], with_cards: bool
) -> None:
    event = deal_cards(order, dice, vacant) if with_cards else deal(dice, vacant)
    assert round_trip(event) == event


@given(st.integers(1, 7), st.integers(0, 10**7), st.integers(0, 10**5))
def test_bet_round_trip(position: int, wager: int, fortune: int) -> None:
    bet = Bet(position, wager, fortune)
    assert round_trip(bet) == bet


@given(order=st.permutations(range(53)), split=st.integers(0, 20),
       by=st.sampled_from(list(SetBy)))
def test_set_round_trip(order: Sequence[int], split: int, by: SetBy) -> None:
    cards = [Card(i) for i in order[:7]]
    (i, j), rest = SPLITS[split]
    event = HandSet(4, Setting.of((cards[i], cards[j]), [cards[r] for r in rest]), by)
    assert round_trip(event) == event


@pytest.mark.parametrize(
    "comparison",
    [
        Comparison(2, Setting.parse("As Qd / 8c 8d Ts 4h 3c"), Outcome.PUSH, Reason.HANDS,
                   HandResult(Side.PLAYER), HandResult(Side.BANKER, copy=True)),
        Comparison(3, Setting.parse("Kc Js / 6h 6s 9c 5d 2h"), Outcome.LOSS, Reason.FOUL),
        Comparison(4, Setting.parse("Kc Js / 6h 6s 9c 5d 2h"), Outcome.PUSH, Reason.HANDS,
                   HandResult(Side.PLAYER), HandResult(Side.BANKER),
                   reset_from=Setting.parse("6h 6s / Kc Js 9c 5d 2h")),
    ],
)
def test_compare_round_trip(comparison: Comparison) -> None:
    assert round_trip(comparison) == comparison


def _reset(cards: Sequence[Card]) -> Setting:
    return max(legal_settings(cards, EV), key=lambda r: r.high_rank).setting


@settings(max_examples=40, deadline=None)
@given(order=st.permutations(range(53)), splits=st.lists(st.integers(0, 20), min_size=4,
                                                          max_size=4),
       banker=st.sampled_from([1, 3]), foul=st.sampled_from(list(FoulPolicy)))
def test_compare_and_settle_round_trip(
    order: Sequence[int], splits: list[int], banker: int, foul: FoulPolicy
) -> None:
    hands = []
    for k, (position, split) in enumerate(zip([1, 2, 3, 5], splits, strict=True)):
        cards = [Card(i) for i in order[7 * k : 7 * k + 7]]
        (i, j), rest = SPLITS[split]
        hands.append(HandSet(position, Setting.of((cards[i], cards[j]),
                                                  [cards[r] for r in rest])))
    bets = [Bet(2, 1_000, 500), Bet(5, 2_500)]
    bets += [Bet(3, 5_000, 100)] if banker == 1 else [Bet(1, 3_000), Bet(3, 0, 100)]
    rules = TableRules(foul=foul)
    result = settle(hands, bets, EV, rules, banker=banker, reset=_reset)
    assert round_trip(result) == result
    bank = play_setting(hands[0].setting, EV, foul, _reset)
    seat = play_setting(hands[1].setting, EV, foul, _reset)
    comparison = compare_seat(2, seat, bank, EV)
    assert round_trip(comparison) == comparison


def _settled() -> dict[str, Any]:
    hands = [HandSet(1, Setting.parse("Kd Jh / 6c 6d 9s 5h 2c")),
             HandSet(2, Setting.parse("As Qd / 8c 8d Ts 4h 3c"))]
    return to_json(settle(hands, [Bet(2, 10_000)], EV))


def test_settle_form_carries_nets_in_cents() -> None:
    data = _settled()
    assert data["type"] == "settle"
    assert data["net"] == {"1": -9_500, "2": 9_500}
    assert data["seats"][0]["commission"] == 500


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"type": "shuffle", "v": 1}, "'shuffle'"),
        ({"v": 1, "dice": [1, 2, 3]}, "None"),
        ({"type": "roll", "v": 2, "dice": [1, 2, 3]}, "version 2"),
        ({"type": "roll", "v": True, "dice": [1, 2, 3]}, "True"),
        ({"type": "roll", "v": 1, "dice": [1, 2, 7]}, "7"),
        ({"type": "roll", "v": 1}, "'dice'"),
        ({"type": "bet", "v": 1, "position": 3, "wager": "25.00", "fortune": 0}, "'25.00'"),
        ({"type": "bet", "v": 1, "position": 9, "wager": 100, "fortune": 0}, "9"),
        ({"type": "set", "v": 1, "position": 2, "by": "player",
          "setting": {"low": ["Kd", "Zz"], "high": []}}, "'Zz'"),
        ({"type": "set", "v": 1, "position": 2, "by": "robot",
          "setting": {"low": ["Kd", "Qh"], "high": ["As", "Jk", "9s", "9c", "4d"]}}, "robot"),
        ({"type": "deal", "v": 1, "dice": [3, 5, 6], "positions": 7, "banker": 1,
          "vacant": [], "receivers": [1, 2, 3, 4, 5, 6, 7]}, "expected"),
        ("roll", "JSON object"),
    ],
)
def test_bad_forms_are_named(data: Any, named: str) -> None:
    with pytest.raises(NotationError, match=named):
        from_json(data)


def test_a_tampered_settlement_is_refused() -> None:
    data = _settled()
    data["net"]["2"] = 10_000
    with pytest.raises(NotationError, match="do not match"):
        from_json(data)
    data = _settled()
    data["seats"][0]["commission"] = 400  # nets recomputed from the seats no longer match
    with pytest.raises(NotationError, match="do not match"):
        from_json(data)


def test_a_deal_whose_packets_do_not_hold_seven_is_refused() -> None:
    data = to_json(deal_cards(full_deck(), Dice((1, 2, 3))))
    data["hands"][0].append(data["hands"][1].pop())
    with pytest.raises(NotationError, match="seven cards"):
        from_json(data)


# --- home play: a pot deal's settle record ------------------------------------------------------

def _pot(order: Sequence[int], splits: Sequence[int], status: PotStatus, foul: FoulPolicy,
         ante: int = 500) -> PotResult[Setting]:
    hands = []
    for k, split in enumerate(splits):
        cards = [Card(i) for i in order[7 * k : 7 * k + 7]]
        (i, j), rest = SPLITS[split]
        hands.append(HandSet(k + 2, Setting.of((cards[i], cards[j]), [cards[r] for r in rest])))
    rules = PotRules(ante, foul)
    antes = {h.position: status.ante_due(h.position, rules) for h in hands}
    return settle_pot(hands, antes, status, rules, PokerPotRanks(EV),
                      reset=lambda s: _reset(s.cards))


pot_status_st = st.builds(
    PotStatus, st.integers(0, 10**6), st.frozensets(st.integers(2, 7), max_size=3))


@settings(max_examples=60, deadline=None)
@given(order=st.permutations(range(53)),
       splits=st.lists(st.integers(0, 20), min_size=2, max_size=6),
       status=pot_status_st, foul=st.sampled_from(list(FoulPolicy)),
       ante=st.integers(1, 10_000))
def test_pot_settle_round_trip(order: Sequence[int], splits: list[int], status: PotStatus,
                               foul: FoulPolicy, ante: int) -> None:
    result = _pot(order, splits, status, foul, ante)
    data = to_json(result)
    assert data["type"] == "settle" and data["banker"] is None
    assert sum(data["net"].values()) + result.carry - result.carried == 0
    assert round_trip(result) == result


def test_the_pot_settle_form_is_the_one_the_engine_wrote() -> None:
    # ranks from the evaluator; the form is pinned so journals written before still decode
    hands = [HandSet(2, Setting.parse("Kd Jh / 6c 6d 9s 5h 2c")),
             HandSet(3, Setting.parse("As Qd / 8c 8d Ts 4h 3c"))]
    rules = PotRules(500)
    result = settle_pot(hands, {2: 0, 3: 500}, PotStatus(1_500, frozenset({2})), rules,
                        PokerPotRanks(EV))
    data = to_json(result)
    assert data == {
        "type": "settle", "v": 1, "banker": None, "pot": result.to_json(),
        "seats": [{"bet": {"position": p, "wager": a, "fortune": 0}, "comparison": None,
                   "commission": 0, "fortune": None, "envy": 0} for p, a in ((2, 0), (3, 500))],
        "net": {"2": 0, "3": 1_500},
    }
    assert data["pot"]["winner"] == 3 and data["pot"]["carry"] == 0
    assert data["pot"]["hands"][1]["setting"] == "As Qd / Ts 8d 8c 4h 3c"  # as text, sorted


def _pot_form() -> dict[str, Any]:
    hands = [HandSet(2, Setting.parse("Kd Jh / 6c 6d 9s 5h 2c")),
             HandSet(3, Setting.parse("As Qd / 8c 8d Ts 4h 3c")),
             HandSet(4, Setting.parse("Ac Ad / 2s 3s 4s 5s 7h"))]
    return to_json(settle_pot(hands, {2: 500, 3: 500, 4: 500}, PotStatus(), PotRules(500),
                              PokerPotRanks(EV)))


@pytest.mark.parametrize(("change", "named"), [
    (lambda d: d["pot"].update(winner=4), "winner 4"),
    (lambda d: d["pot"].update(best_low=[2]), "best_low"),
    (lambda d: d["pot"]["hands"][0].update(low_rank=10**9), "best_low"),
    (lambda d: d["pot"].update(carry=1_500), "does not match"),
    (lambda d: d["net"].update({"2": 0}), "does not match"),
    (lambda d: d["seats"][0]["bet"].update(wager=400), "does not match"),
    (lambda d: d["pot"]["hands"][0].update(setting="Kd Jh 6c"), "LOW / HIGH"),
    (lambda d: d["pot"]["hands"][0].update(ante=-5), "ante -5"),
    (lambda d: d["pot"].update(carried="10.00"), "'carried'"),
    (lambda d: d.update(banker=1), "no banker"),
    (lambda d: d["pot"]["hands"].reverse(), "position order"),
])
def test_a_tampered_pot_settlement_is_refused(change: Any, named: str) -> None:
    data = _pot_form()
    assert from_json(data) is not None
    change(data)
    with pytest.raises(NotationError, match=named):
        from_json(data)
