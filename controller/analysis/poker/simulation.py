"""One strategy against a house-way dealer, by simulation: ``paigow analyze poker --vs``.

Each round deals fourteen distinct cards from a fresh 53-card deck (a partial Fisher-Yates
shuffle, vectorised over a batch of rounds): seven to the player, seven to the dealer.  Both
hands are set by table lookup (``poker_lookup`` finds the class, ``poker_strategy`` holds the
way's ranks per class), so a round costs a few array operations.  Rounds are independent, which
gives the confidence interval of the house edge.

The draws come from numpy's PCG64 seeded either by ``--seed`` (a repeatable run) or by
``secrets`` (production randomness); the result says which seed was used and how it was chosen.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt

from ..outcome import DEFAULT_COMMISSION, Outcome
from ..progress import Progress
from ..tiles.strategy import AnalysisError
from .lookup import ClassLookup
from .outcome import beats
from .strategy import WayTable

BATCH: Final = 1 << 17  # rounds per vectorised step: a (131072, 53) deck, 7 MB
DEAL: Final = 14


@dataclass(frozen=True, slots=True)
class Simulation:
    """Outcome from the analysed side (the player, or the bank with ``banking``)."""

    way: str
    vs: str
    banking: bool
    seed: int
    seeded: bool  # True: the seed was given (repeatable run); False: drawn from ``secrets``
    commission: Fraction
    counts: Outcome
    low_copies: int
    high_copies: int


def deal(rng: np.random.Generator, rounds: int) -> npt.NDArray[np.int8]:
    """(rounds, 14) distinct cards per round, uniformly: the first 14 steps of Fisher-Yates on
    one flat array of decks (card i is drawn from slots i..52; the card it displaces moves into
    the drawn slot)."""
    deck = np.tile(np.arange(53, dtype=np.int8), rounds)
    base = np.arange(0, 53 * rounds, 53)
    out = np.empty((rounds, DEAL), dtype=np.int8)
    for i in range(DEAL):
        slot = base + rng.integers(i, 53, size=rounds)
        out[:, i] = deck[slot]
        deck[slot] = deck[base + i]
    return out


def simulate(
    lookup: ClassLookup,
    dealer: WayTable,
    player: WayTable,
    rounds: int,
    *,
    seed: int | None = None,
    banking: bool = False,
    commission: Fraction = DEFAULT_COMMISSION,
    progress: Progress | None = None,
) -> Simulation:
    """Play ``rounds`` independent rounds of ``player``'s way against ``dealer``'s."""
    if rounds <= 0:
        raise AnalysisError(f"rounds must be positive, got {rounds!r}")
    seeded = seed is not None
    if seed is None:
        seed = secrets.randbits(63)
    elif seed < 0:
        raise AnalysisError(f"seed must be zero or positive, got {seed!r}")
    rng = np.random.Generator(np.random.PCG64(seed))
    win = loss = low_copies = high_copies = 0
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        cards = deal(rng, n)
        both = lookup.index(cards.reshape(2 * n, 7))  # player, dealer, player, ...
        ours, theirs = both[0::2], both[1::2]
        p_low, p_high = player.low[ours], player.high[ours]
        d_low, d_high = dealer.low[theirs], dealer.high[theirs]
        low = beats(p_low, d_low, banking)
        high = beats(p_high, d_high, banking)
        win += int(np.count_nonzero(low & high))
        loss += int(np.count_nonzero(~(low | high)))
        low_copies += int(np.count_nonzero(p_low == d_low))
        high_copies += int(np.count_nonzero(p_high == d_high))
        done += n
        if progress is not None:
            progress(done, rounds)
    counts = Outcome(win, loss, rounds - win - loss)
    return Simulation(dealer.way, player.way, banking, seed, seeded, commission, counts,
                      low_copies, high_copies)
