"""Win / loss / push counts seen from one side, and the house edge they imply, for both games.

Commission is taken from the analysed side's wins, so its expectation per unit bet is
``(1 - commission) * win - loss``, exactly, as a fraction of all rounds or matchups counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import Final

DEFAULT_COMMISSION: Final = Fraction(5, 100)
Z95: Final = 1.959964  # two-sided 95 % normal quantile


@dataclass(frozen=True, slots=True)
class Outcome:
    """Rounds (or matchups) won, lost and pushed, seen from one side."""

    win: int
    loss: int
    push: int

    @property
    def total(self) -> int:
        """All counted."""
        return self.win + self.loss + self.push

    def fractions(self) -> tuple[float, float, float]:
        """(win, loss, push) as fractions of the total."""
        n = self.total
        return self.win / n, self.loss / n, self.push / n

    def expectation(self, commission: Fraction = DEFAULT_COMMISSION) -> Fraction:
        """What this side wins per unit bet, exactly, paying ``commission`` on its wins."""
        return ((1 - commission) * self.win - self.loss) / self.total

    def house_edge(self, commission: Fraction = DEFAULT_COMMISSION) -> Fraction:
        """What this side loses per unit bet: minus the expectation."""
        return -self.expectation(commission)

    def standard_error(self, commission: Fraction = DEFAULT_COMMISSION) -> float:
        """Standard error of the mean result per round, the rounds being independent draws."""
        n = self.total
        keep = float(1 - commission)
        mean = float(self.expectation(commission))
        second = (keep * keep * self.win + self.loss) / n
        return sqrt(max(second - mean * mean, 0.0) / n)

    def edge_interval(self, commission: Fraction = DEFAULT_COMMISSION) -> tuple[float, float]:
        """A 95 % confidence interval of the house edge (normal approximation)."""
        edge = float(self.house_edge(commission))
        half = Z95 * self.standard_error(commission)
        return edge - half, edge + half

    def mirrored(self) -> Outcome:
        """The same counts seen from the other side."""
        return Outcome(self.loss, self.win, self.push)

    def __add__(self, other: Outcome) -> Outcome:
        return Outcome(self.win + other.win, self.loss + other.loss, self.push + other.push)
