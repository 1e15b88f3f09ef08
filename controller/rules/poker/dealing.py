"""The deal: which position receives each seven-card packet, and which packets are collected.

The shuffler hands out the 53 cards as seven packets of seven (packet k is cards 7(k-1) .. 7k-1)
and four cards that are never used.  The dice pick the position that takes packet 1, counting the
banker as 1, 8, 15 and going counter-clockwise; the packets follow in the same direction.  Empty
positions still receive a packet, which is collected unseen (or offered as a dragon hand)
(docs/sources.md: [P1], [P8]).

The tile game deals the same way, eight stacks of four to eight positions (``tile_dealing``).
Positions are table positions with the dealer (the house) at 1.  When a player banks, the count
starts at the banker's position instead; the house still plays its hand at position 1, so neither
the banker's position nor position 1 can be vacant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..dice import MAX_POSITIONS, POSITIONS, Dice, first_position
from ..errors import CardCountError, NotationError, SettlementError
from .cards import DECK_SIZE, Card, parse_cards

HAND_SIZE: Final = 7
HOUSE: Final = 1  # the dealer's position


@dataclass(frozen=True, slots=True)
class Packet:
    """Packet ``number`` (1..7) goes to ``position``; ``collect`` when that position is vacant."""

    number: int
    position: int
    collect: bool


@dataclass(frozen=True, slots=True)
class Deal:
    """Record of the deal act: the dice, who receives each packet and, if known, the cards."""

    dice: Dice
    receivers: tuple[int, ...]  # receivers[k - 1] is the position that takes packet k
    vacant: frozenset[int] = frozenset()
    banker: int = HOUSE
    hands: tuple[tuple[Card, ...], ...] = ()  # hands[k - 1] are packet k's cards, when known
    unused: tuple[Card, ...] = ()

    @property
    def positions(self) -> int:
        """How many positions the table has (and so how many packets are dealt)."""
        return len(self.receivers)

    @property
    def first(self) -> int:
        """The position that takes packet 1."""
        return self.receivers[0]

    @property
    def packets(self) -> tuple[Packet, ...]:
        """Every packet in dealing order, with its receiver and whether it is collected."""
        return tuple(
            Packet(k, pos, pos in self.vacant) for k, pos in enumerate(self.receivers, start=1)
        )

    @property
    def playing(self) -> tuple[int, ...]:
        """Positions that keep their packet, in dealing order."""
        return tuple(p for p in self.receivers if p not in self.vacant)

    def packet_of(self, position: int) -> int:
        """The number of the packet that ``position`` receives."""
        if position not in self.receivers:
            raise NotationError(f"position {position!r} is not at this table "
                                f"(1..{self.positions})")
        return self.receivers.index(position) + 1

    def hand_of(self, position: int) -> tuple[Card, ...]:
        """The seven cards ``position`` receives (only when the deal was made from cards)."""
        if not self.hands:
            raise CardCountError("this deal was recorded without cards")
        return self.hands[self.packet_of(position) - 1]


def _check_positions(positions: int, banker: int, vacant: Iterable[int]) -> frozenset[int]:
    if isinstance(positions, bool) or not isinstance(positions, int):
        raise NotationError(f"position count {positions!r} must be a whole number")
    if not 2 <= positions <= MAX_POSITIONS:
        raise NotationError(f"position count {positions!r} must be 2..{MAX_POSITIONS}")
    if isinstance(banker, bool) or not isinstance(banker, int) or not 1 <= banker <= positions:
        raise NotationError(f"banker position {banker!r} is not one of 1..{positions}")
    empty = frozenset(vacant)
    for pos in sorted(empty, key=repr):
        if isinstance(pos, bool) or not isinstance(pos, int) or not 1 <= pos <= positions:
            raise NotationError(f"vacant position {pos!r} is not one of 2..{positions}")
    if banker in empty:
        raise SettlementError(f"the banker's position {banker!r} cannot be vacant")
    if HOUSE in empty:
        raise SettlementError(f"the house position {HOUSE!r} plays against a player-banker "
                              f"and cannot be vacant")
    return empty


def deal(
    dice: Dice, vacant: Iterable[int] = (), positions: int = POSITIONS, banker: int = HOUSE
) -> Deal:
    """Who receives each packet for this roll; vacant positions' packets are marked to collect."""
    empty = _check_positions(positions, banker, vacant)
    start = first_position(dice.total, positions)  # counted from the banker as 1
    receivers = tuple(
        (banker - 1 + start - 1 + k) % positions + 1 for k in range(positions)
    )
    return Deal(dice=dice, receivers=receivers, vacant=empty, banker=banker)


def deal_cards(
    deck_order: Sequence[Card | str],
    dice: Dice,
    vacant: Iterable[int] = (),
    positions: int = POSITIONS,
    banker: int = HOUSE,
) -> Deal:
    """The deal with cards: packet k is cards 7(k-1)..7k-1 of the 53-card order; the rest unused."""
    deck = parse_cards(deck_order, DECK_SIZE, what="deck order")
    if isinstance(positions, int) and HAND_SIZE * positions > DECK_SIZE:
        raise CardCountError(f"{DECK_SIZE} cards cannot make {positions!r} packets of "
                             f"{HAND_SIZE}")
    plan = deal(dice, vacant, positions, banker)
    hands = tuple(
        deck[HAND_SIZE * k : HAND_SIZE * (k + 1)] for k in range(plan.positions)
    )
    return Deal(
        dice=plan.dice, receivers=plan.receivers, vacant=plan.vacant, banker=plan.banker,
        hands=hands, unused=deck[HAND_SIZE * plan.positions :],
    )


def parse_positions(text: str) -> frozenset[int]:
    """Read a position list such as ``"4,6"`` or ``"4 6"`` (empty text: none)."""
    out: set[int] = set()
    for token in re.split(r"[,\s]+", text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise NotationError(f"position {token!r} in {text!r} is not a number")
        out.add(int(token))
    return frozenset(out)
