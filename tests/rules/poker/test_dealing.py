"""Dice, the first position, and which position receives each packet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.dice import Dice, first_position
from controller.rules.errors import (
    CardCountError,
    DuplicateCardError,
    NotationError,
    SettlementError,
)
from controller.rules.poker.cards import Card, full_deck, parse_cards
from controller.rules.poker.dealing import deal, deal_cards, parse_positions

dice_st = st.tuples(*[st.integers(1, 6)] * 3).map(Dice)


def test_dice_parse_and_text() -> None:
    dice = Dice.parse("3,5,6")
    assert dice.faces == (3, 5, 6)
    assert dice.total == 14
    assert str(dice) == "3,5,6"
    assert Dice.parse(" 1 2 3 ") == Dice((1, 2, 3))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("3,5,7", "'7'"), ("0,1,2", "'0'"), ("3,5", "'3,5'"), ("a,b,c", "'a'"),
        ("3,5,6,1", "'3,5,6,1'"),
    ],
)
def test_dice_parse_names_the_bad_die_or_text(text: str, named: str) -> None:
    with pytest.raises(NotationError, match=named):
        Dice.parse(text)


def test_dice_reject_bad_faces() -> None:
    with pytest.raises(NotationError, match="7"):
        Dice((3, 5, 7))
    with pytest.raises(NotationError):
        Dice.of([1, 2])


@pytest.mark.parametrize(
    ("totals", "position"),
    [((1, 8, 15), 1), ((2, 9, 16), 2), ((3, 10, 17), 3), ((4, 11, 18), 4), ((5, 12), 5),
     ((6, 13), 6), ((7, 14), 7)],
)
def test_banker_counts_as_one_eight_fifteen(totals: tuple[int, ...], position: int) -> None:
    for total in totals:
        assert first_position(total) == position


def test_first_position_rejects_nonsense() -> None:
    with pytest.raises(NotationError, match="0"):
        first_position(0)
    with pytest.raises(NotationError, match="0"):
        first_position(5, positions=0)


def test_deal_goes_round_counter_clockwise_from_the_first_position() -> None:
    d = deal(Dice.parse("3,5,6"), vacant={4, 6})  # 14: the seventh position
    assert d.first == 7
    assert d.receivers == (7, 1, 2, 3, 4, 5, 6)
    assert [(p.number, p.position, p.collect) for p in d.packets if p.collect] == [
        (5, 4, True), (7, 6, True),
    ]
    assert d.playing == (7, 1, 2, 3, 5)
    assert d.packet_of(1) == 2


@given(dice=dice_st, vacant=st.sets(st.integers(2, 7)))
def test_every_position_gets_one_packet_in_order(dice: Dice, vacant: set[int]) -> None:
    d = deal(dice, vacant)
    assert sorted(d.receivers) == list(range(1, 8))
    assert d.first == first_position(dice.total)
    for before, after in zip(d.receivers, d.receivers[1:], strict=False):
        assert after == before % 7 + 1
    assert {p.position for p in d.packets if p.collect} == vacant


def test_a_player_banker_counts_as_one() -> None:
    d = deal(Dice.parse("1,1,1"), banker=3)  # 3 counts banker(3)=1, 4=2, 5=3
    assert d.receivers == (5, 6, 7, 1, 2, 3, 4)


@pytest.mark.parametrize(
    ("vacant", "banker", "error", "named"),
    [
        ({1}, 1, SettlementError, "1"),
        ({3}, 3, SettlementError, "3"),
        ({1}, 3, SettlementError, "1"),  # the house plays against a player-banker
        ({8}, 1, NotationError, "8"),
        ({0}, 1, NotationError, "0"),
    ],
)
def test_deal_rejects_bad_vacancies(
    vacant: set[int], banker: int, error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        deal(Dice.parse("2,2,2"), vacant, banker=banker)


def test_deal_cards_gives_packets_of_seven_and_leaves_four() -> None:
    deck = full_deck()
    d = deal_cards(deck, Dice.parse("1,1,1"), vacant={6})  # first packet to position 3
    assert d.hand_of(3) == deck[0:7]
    assert d.hand_of(4) == deck[7:14]
    assert d.hand_of(2) == deck[42:49]
    assert d.unused == deck[49:]
    assert len(d.unused) == 4
    assert d.hand_of(6) == deck[21:28]  # still dealt, to be collected


def test_deal_cards_validates_the_deck() -> None:
    deck = list(full_deck())
    with pytest.raises(CardCountError, match="52"):
        deal_cards(deck[:-1], Dice.parse("1,2,3"))
    with pytest.raises(DuplicateCardError, match="'2c'"):
        deal_cards([*deck[:-1], Card.parse("2c")], Dice.parse("1,2,3"))
    assert deal_cards([str(c) for c in deck], Dice.parse("1,2,3")).hands[0] == parse_cards(
        "2c 2d 2h 2s 3c 3d 3h"
    )


def test_a_deal_without_cards_has_no_hands() -> None:
    with pytest.raises(CardCountError):
        deal(Dice.parse("1,2,3")).hand_of(2)


def test_parse_positions() -> None:
    assert parse_positions("4,6") == {4, 6}
    assert parse_positions("4 6") == {4, 6}
    assert parse_positions("") == frozenset()
    with pytest.raises(NotationError, match="'x'"):
        parse_positions("4,x")
