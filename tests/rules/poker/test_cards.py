"""Card notation: canonical round-trip, case-insensitive input, errors that name the offender."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import CardCountError, DuplicateCardError, NotationError, RulesError
from controller.rules.poker.cards import JOKER, Card, full_deck, parse_cards


def test_deck_has_53_distinct_cards_with_one_joker() -> None:
    deck = full_deck()
    assert len(deck) == 53 == len({str(c) for c in deck})
    assert [c for c in deck if c.is_joker] == [JOKER]
    assert sum(1 for c in deck if c.rank == 12 and not c.is_joker) == 4


@given(st.sampled_from(full_deck()))
def test_text_round_trip(card: Card) -> None:
    text = str(card)
    assert Card.parse(text) is card
    assert Card.parse(text.upper()) is card and Card.parse(text.lower()) is card


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [("as", "As"), ("TD", "Td"), ("10h", "Th"), ("2C", "2c"), ("jk", "Jk"), ("JOKER", "Jk")],
)
def test_input_is_case_insensitive_output_canonical(raw: str, canonical: str) -> None:
    assert str(Card.parse(raw)) == canonical


@pytest.mark.parametrize("bad", ["Xs", "A", "Asd", "1s", "Ax", ""])
def test_unknown_token_is_named(bad: str) -> None:
    with pytest.raises(NotationError, match=repr(bad)):
        Card.parse(bad)


def test_duplicate_card_is_named() -> None:
    with pytest.raises(DuplicateCardError, match="'Kd'"):
        parse_cards("As Kd 9c kd")


def test_wrong_count_is_named() -> None:
    with pytest.raises(CardCountError, match="needs 7 cards, got 6"):
        parse_cards("As Kd 9c 8c 7c 6c", 7)


def test_errors_share_one_root_and_are_value_errors() -> None:
    for exc in (NotationError, DuplicateCardError, CardCountError):
        assert issubclass(exc, RulesError) and issubclass(exc, ValueError)


def test_joker_has_no_suit_and_ranks_as_ace() -> None:
    assert JOKER.suit is None and JOKER.rank == 12
    assert Card.parse("As").suit == "s"
