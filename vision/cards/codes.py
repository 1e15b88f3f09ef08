"""The 53 card codes as plain strings (``As``, ``Td``, ``Jk``), as the rules core writes them."""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER = "Jk"
CODES: tuple[str, ...] = (*tuple(r + s for r in RANKS for s in SUITS), JOKER)
# A deck also learns the "0" of a ten with its suit, the "1" unseen, as a rank of its own
# (``samples``), so that it is told from an eight; it names no card.
TEN_PART = "0"
# And its "1" with its suit, the "0" unseen (cut from the patch, which keeps only its own
# marks' ink), so that it is told from a seven or an ace.
TEN_ONE = "1"


def normalize(text: str) -> str:
    """The canonical code of ``text`` (``as``, ``10h``, ``JK``); ValueError naming it otherwise."""
    low = text.strip().lower()
    if low in ("jk", "joker"):
        return JOKER
    if low.startswith("10"):
        low = "t" + low[2:]
    if len(low) == 2 and low[0].upper() in RANKS and low[1] in SUITS:
        return low[0].upper() + low[1]
    raise ValueError(f"unknown card code {text!r}: expected rank and suit like 'As', or 'Jk'")
