"""Playing cards for Pai Gow Poker: 52 cards and the joker, with a text round-trip.

A card is a small int (0..52) so that hot loops can index tables with it; its text form is
``As``, ``Td``, ``2c`` and ``Jk`` for the joker.  Input is case-insensitive and ``10`` is read
as ``T``; output is always canonical.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from ..errors import CardCountError, DuplicateCardError, NotationError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
JOKER_INDEX: Final = 52
DECK_SIZE: Final = 53

RANK_NAMES: Final = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)
RANK_PLURALS: Final = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)


class Card(int):
    """One of the 53 cards. ``rank`` is 0 (deuce) .. 12 (ace); the joker has rank 12 and no suit."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < DECK_SIZE:
            raise NotationError(f"card index {index!r} is outside 0..52")
        return _CARDS[index] if _CARDS else int.__new__(cls, index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``As``, ``td``, ``10h``, ``Jk`` (any case). Raises NotationError naming the text."""
        token = text.strip()
        low = token.lower()
        if low in ("jk", "joker", "jo", "*"):
            return _CARDS[JOKER_INDEX]
        if low.startswith("10"):
            low = "t" + low[2:]
        if len(low) != 2:
            raise NotationError(f"unknown card {text!r}: expected rank and suit like 'As', or 'Jk'")
        rank = RANKS.lower().find(low[0])
        suit = SUITS.find(low[1])
        if rank < 0 or suit < 0:
            raise NotationError(f"unknown card {text!r}: ranks are 2-9 T J Q K A, suits c d h s")
        return _CARDS[rank * 4 + suit]

    @property
    def is_joker(self) -> bool:
        """True for the joker ("the bug")."""
        return int(self) == JOKER_INDEX

    @property
    def rank(self) -> int:
        """Rank 0 (deuce) .. 12 (ace); the joker counts as an ace here."""
        return 12 if int(self) == JOKER_INDEX else int(self) >> 2

    @property
    def suit(self) -> str | None:
        """Suit letter ``c d h s``, or None for the joker."""
        return None if int(self) == JOKER_INDEX else SUITS[int(self) & 3]

    def __str__(self) -> str:
        if int(self) == JOKER_INDEX:
            return "Jk"
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(i) for i in range(DECK_SIZE))
JOKER: Final = _CARDS[JOKER_INDEX]


def full_deck() -> tuple[Card, ...]:
    """The 53-card deck in index order (deuce of clubs first, joker last)."""
    return _CARDS


def _tokens(text: str | Iterable[str | Card]) -> Iterator[str | Card]:
    if isinstance(text, str):
        yield from text.replace(",", " ").split()
    else:
        yield from text


def parse_cards(
    text: str | Iterable[str | Card], count: int | None = None, *, what: str = "hand"
) -> tuple[Card, ...]:
    """Read cards from ``"As Kd Jk"`` or a list; reject unknown tokens, duplicates, bad counts."""
    cards: list[Card] = []
    seen: set[int] = set()
    for token in _tokens(text):
        card = token if isinstance(token, Card) else Card.parse(token)
        if int(card) in seen:
            raise DuplicateCardError(f"duplicate card {str(card)!r} in {what}")
        seen.add(int(card))
        cards.append(card)
    if count is not None and len(cards) != count:
        got = format_cards(cards)
        raise CardCountError(f"{what} needs {count} cards, got {len(cards)}: {got!r}")
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of cards, space separated."""
    return " ".join(str(c) for c in cards)


def check_distinct(groups: Iterable[tuple[str, Iterable[Card]]]) -> None:
    """Raise DuplicateCardError if any card appears in more than one of the named groups."""
    owner: dict[int, str] = {}
    for name, cards in groups:
        for card in cards:
            if int(card) in owner:
                raise DuplicateCardError(
                    f"duplicate card {str(card)!r}: in {owner[int(card)]} and in {name}"
                )
            owner[int(card)] = name


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: higher rank first, the joker above the aces, then suits s h d c."""
    return (-13 if card.is_joker else -card.rank, -(int(card) & 3))


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order (joker, then aces down to deuces)."""
    return tuple(sorted(cards, key=sort_key))
