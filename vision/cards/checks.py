"""Round-level checks of card reads: a deck's 53 distinct cards, and the shuffler's packets.

Pure functions over card codes (plain strings); ``None`` stands for a card seen but not read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .codes import CODES, normalize


@dataclass(frozen=True)
class DeckCheck:
    """Cards read twice (``duplicates``), and how many were seen but not read."""

    duplicates: tuple[str, ...]
    unread: int
    seen: int

    @property
    def ok(self) -> bool:
        """True when no card was read twice and at most 53 cards were seen."""
        return not self.duplicates and self.seen <= len(CODES)


def check_deck(codes: Iterable[str | None]) -> DeckCheck:
    """Check the reads of one round against one 53-card deck (each card at most once)."""
    reads = list(codes)
    known = [normalize(c) for c in reads if c is not None]
    counts = Counter(known)
    return DeckCheck(
        duplicates=tuple(sorted(c for c, n in counts.items() if n > 1)),
        unread=sum(1 for c in reads if c is None),
        seen=len(reads),
    )


@dataclass(frozen=True)
class PacketCheck:
    """A position's read cards against the shuffler's packet for it.

    ``missing``: packet cards not read (unread or hidden); ``foreign``: cards read that are
    not in the packet (a misread or a card from elsewhere); ``filled``: the one card that an
    unread card must be when exactly one is unread and one is missing.
    """

    missing: tuple[str, ...]
    foreign: tuple[str, ...]
    unread: int
    filled: str | None

    @property
    def agrees(self) -> bool:
        """True when every read card is in the packet and every packet card is accounted for:
        read, or possibly one of the unread (the reader may report one card it could not
        name as two unread items, so more unread than missing is no contradiction)."""
        return not self.foreign and len(self.missing) <= self.unread


def check_packet(read: Sequence[str | None], packet: Sequence[str]) -> PacketCheck:
    """Compare the cards read at one position with the shuffler's report of its packet."""
    want = Counter(normalize(c) for c in packet)
    got = Counter(normalize(c) for c in read if c is not None)
    unread = sum(1 for c in read if c is None)
    missing = tuple(sorted((want - got).elements()))
    foreign = tuple(sorted((got - want).elements()))
    filled = missing[0] if not foreign and unread == 1 and len(missing) == 1 else None
    return PacketCheck(missing, foreign, unread, filled)
