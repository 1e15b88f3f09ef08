"""The woodpile: eight stacks of four, the dice counting all eight positions from the banker."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.dice import TILE_POSITIONS, Dice, first_position
from controller.rules.errors import CardCountError, NotationError, SettlementError
from controller.rules.poker.cards import full_deck
from controller.rules.poker.dealing import deal, deal_cards
from controller.rules.tiles.dealing import STACK_SIZE, deal_tiles
from controller.rules.tiles.dominoes import Tile, TileSetError, format_tiles, full_set

dice_st = st.tuples(*[st.integers(1, 6)] * 3).map(Dice)
SET = full_set()


@pytest.mark.parametrize(
    ("totals", "position"),
    [((9, 17), 1), ((10, 18), 2), ((3, 11), 3), ((4, 12), 4), ((5, 13), 5), ((6, 14), 6),
     ((7, 15), 7), ((8, 16), 8)],
)
def test_the_banker_counts_as_one_nine_and_seventeen(
    totals: tuple[int, ...], position: int
) -> None:
    """Section 0 fact 9: 9 or 17 is the banker, 10 or 18 the next position; 3 the third."""
    for total in totals:
        assert first_position(total, TILE_POSITIONS) == position


def test_stacks_go_round_from_the_first_position() -> None:
    d = deal_tiles(SET, Dice.parse("3,5,6"), vacant={4, 6})  # 14: the sixth position
    assert d.first == 6
    assert d.plan.receivers == (6, 7, 8, 1, 2, 3, 4, 5)
    assert [(p.number, p.position) for p in d.packets if p.collect] == [(1, 6), (7, 4)]
    assert d.playing == (7, 8, 1, 2, 3, 5)
    assert d.hand_of(6) == SET[0:4]  # stack 1, discarded unseen
    assert d.hand_of(1) == SET[12:16]  # stack 4
    assert d.vacant == frozenset({4, 6}) and d.dice.total == 14


def test_vacant_seats_and_the_dead_hand_are_counted() -> None:
    """Vacant positions still take their place in the count (PA 621a.6)."""
    full = deal(Dice.parse("1,1,2"), positions=TILE_POSITIONS)
    empty = deal(Dice.parse("1,1,2"), {2, 3, 5, 6, 7, 8}, TILE_POSITIONS)
    assert full.receivers == empty.receivers and full.first == 4


def test_a_player_banker_counts_as_one() -> None:
    d = deal_tiles(SET, Dice.parse("3,3,3"), banker=5)  # 9: the banker takes stack 1
    assert d.first == 5 and d.plan.receivers == (5, 6, 7, 8, 1, 2, 3, 4)
    assert deal_tiles(SET, Dice.parse("4,3,3"), banker=5).first == 6  # 10: next position


def test_set_order_as_text() -> None:
    text = format_tiles(SET)
    assert deal_tiles(text, Dice.parse("1,1,1")).stacks == deal_tiles(SET, Dice((1, 1, 1))).stacks


@pytest.mark.parametrize(
    ("order", "named"),
    [
        (SET[:-1], "missing tile '1-2'"),
        ((*SET, Tile.parse("6-6")), "extra tile '6-6'"),
        ((*SET[1:], Tile.parse("4-5")), "extra tile '4-5'"),
    ],
)
def test_the_set_check_names_the_bad_tile(order: Sequence[Tile], named: str) -> None:
    with pytest.raises(TileSetError, match=named):
        deal_tiles(order, Dice((1, 2, 3)))


def test_bad_positions_are_refused() -> None:
    with pytest.raises(NotationError, match="9"):
        deal_tiles(SET, Dice((1, 2, 3)), vacant={9})
    with pytest.raises(SettlementError, match="banker"):
        deal_tiles(SET, Dice((1, 2, 3)), vacant={3}, banker=3)
    with pytest.raises(NotationError, match="'9-9'"):
        deal_tiles(["9-9", *map(str, SET[1:])], Dice((1, 2, 3)))


def test_cards_still_deal_to_at_most_seven() -> None:
    with pytest.raises(CardCountError, match="8"):
        deal_cards(full_deck(), Dice((1, 2, 3)), positions=8)
    assert deal(Dice.parse("3,5,6")).receivers == (7, 1, 2, 3, 4, 5, 6)


@given(dice=dice_st, vacant=st.sets(st.integers(2, 8)), order=st.permutations(SET),
       banker=st.sampled_from([1, 2, 8]))
def test_all_32_tiles_are_dealt_four_to_every_position(
    dice: Dice, vacant: set[int], order: Sequence[Tile], banker: int
) -> None:
    vacant.discard(banker)
    d = deal_tiles(order, dice, vacant, banker)
    assert sorted(d.plan.receivers) == list(range(1, TILE_POSITIONS + 1))
    hands = [d.hand_of(p) for p in range(1, TILE_POSITIONS + 1)]
    assert all(len(h) == STACK_SIZE for h in hands)
    assert Counter(t for h in hands for t in h) == Counter(SET)
    assert d.first == (banker - 1 + (dice.total - 1) % 8) % 8 + 1
