"""Card shuffler messages (Pai Gow Poker: one 53-card deck, seven packets of seven).

No message carries the order of cards not yet dealt: ``PACKET`` names the cards of the packet
just delivered, ``SHUFFLED`` only counts the deck and names its problem cards in sorted order
(a set, never a position). ``tests/devices/test_secrecy.py`` holds this line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .common import EVENTS, REPLIES, REQUESTS
from .records import Catalogue, Record, check

PACKETS = 7
PACKET_SIZE = 7
DECK_SIZE = 53
CARD = re.compile(r"[2-9TJQKA][cdhs]|Jk")
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_STATES = ("ok", "missing", "extra", "duplicate", "foreign")
STATES = ("ready", "need_shuffle", "empty", "jammed", "door_open", "deck_fault")


def card_sort_key(code: str) -> tuple[int, int]:
    """Sort key of a card code: by suit then rank, the joker last (a fixed, public order)."""
    if code == "Jk":
        return (len(SUITS), 0)
    return (SUITS.index(code[1]), RANKS.index(code[0]))


def standard_deck() -> tuple[str, ...]:
    """The 53 card codes of a Pai Gow Poker deck, in the fixed sort order."""
    return (*(r + s for s in SUITS for r in RANKS), "Jk")


def _check_cards(record: str, cards: tuple[str, ...]) -> None:
    for code in cards:
        check(bool(CARD.fullmatch(code)), record, f"card {code!r} is not a card code like As or Jk")


@dataclass(frozen=True)
class ShuffleCmd(Record):
    """Shuffle the deck now in the machine (and count it)."""

    NAME = "SHUFFLE"


@dataclass(frozen=True)
class DealCmd(Record):
    """Deliver the next packet of seven cards."""

    NAME = "DEAL"


@dataclass(frozen=True)
class ShuffleResult(Record):
    """A shuffle finished: its number, the cards counted and whether the deck is whole.

    ``deck`` is ``ok``, ``missing``, ``extra``, ``duplicate`` or ``foreign``; ``cards`` names
    the problem cards in sorted order when the model reads cards (a foreign card has no code).
    """

    NAME = "SHUFFLED"
    shuffle: int
    count: int
    deck: str
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check(self.deck in DECK_STATES, self.NAME, f"deck {self.deck!r} is not one of "
              f"{', '.join(DECK_STATES)}")
        _check_cards(self.NAME, self.cards)
        check(list(self.cards) == sorted(self.cards, key=card_sort_key), self.NAME,
              "problem cards must be in sorted order (never in deck order)")

    @property
    def ok(self) -> bool:
        """True when the deck counted 53 distinct known cards."""
        return self.deck == "ok" and self.count == DECK_SIZE


@dataclass(frozen=True)
class Packet(Record):
    """A packet delivered: its number (1-7) in the shuffle, card count, and cards if read."""

    NAME = "PACKET"
    shuffle: int
    n: int
    count: int
    cards: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        check(1 <= self.n <= PACKETS, self.NAME, f"packet number {self.n!r} is not 1..{PACKETS}")
        if self.cards is not None:
            _check_cards(self.NAME, self.cards)
            check(len(self.cards) == self.count, self.NAME,
                  f"count={self.count} but {len(self.cards)} cards named")


@dataclass(frozen=True)
class ShufflerStatus(Record):
    """The shuffler's state, door, the current shuffle and packets dealt from it."""

    NAME = "STATE"
    state: str
    door_open: bool
    shuffle: int
    packets: int
    count: int

    def __post_init__(self) -> None:
        check(self.state in STATES, self.NAME, f"state {self.state!r} is not one of "
              f"{', '.join(STATES)}")


@dataclass(frozen=True)
class ShufflerCounters(Record):
    """Usage counters since manufacture (the basis of per-use fees and maintenance)."""

    NAME = "USAGE"
    shuffles: int
    packets: int
    cards: int
    jams: int
    door_opens: int
    power_ons: int


REQUEST_CATALOGUE = Catalogue((*REQUESTS, ShuffleCmd, DealCmd))
DEVICE_CATALOGUE = Catalogue(
    (*REPLIES, *EVENTS, ShuffleResult, Packet, ShufflerStatus, ShufflerCounters)
)
