"""What the table loop asks of the people at the table: players who bet and set, a dealer.

The loop (``runner``) is handed them; ``controller.simulation.players`` has the simulated
ones (``paigow demo`` and tests), so the product's loop does not depend on the simulation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Choice(StrEnum):
    """How a hand was set."""

    HOUSE_WAY = "house_way"
    OTHER = "other"  # legal, not the house way
    FOUL = "foul"


@dataclass(frozen=True, slots=True)
class Options:
    """A hand's settings as text: the house way's, the other legal ones, the fouls."""

    house_way: str
    others: tuple[str, ...]
    fouls: tuple[str, ...]


class Setter(Protocol):
    """One game's settings of a hand, as text the engine parses back."""

    def options(self, pieces: Sequence[str]) -> Options:
        """Every distinct setting of ``pieces``, sorted into house way, other legal, foul."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A setting as text and how it was chosen."""

    setting: str
    choice: Choice


class Players(Protocol):
    """The players at positions 2..N as the loop asks them: who bets what, how each sets."""

    setter: Setter
    rng: random.Random

    def bets(self, positions: Sequence[int]) -> dict[int, int]:
        """Wagers in cents by position (never empty), within the table's limits."""

    def fortunes(self, positions: Sequence[int]) -> dict[int, int]:
        """Fortune bets in cents by position, for some of ``positions``."""

    def takes_bank(self) -> bool:
        """Whether the player offered the bank (banking rotation) takes it."""

    def bank_amount(self, positions: int) -> int:
        """The bank the player puts up, in cents."""

    def decide(self, pieces: Sequence[str]) -> Decision:
        """How the player sets ``pieces``."""


class Dealer(Protocol):
    """The dealer as the loop asks: how the house hand is set."""

    def decide(self, pieces: Sequence[str]) -> Decision:
        """How the dealer sets the house hand's ``pieces``."""


__all__ = ["Choice", "Dealer", "Decision", "Options", "Players", "Setter"]
