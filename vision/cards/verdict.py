"""Verdicts on a candidate's distances to a deck's classes: which rank and suit, how surely.

The reader cuts each candidate index and measures its rank and suit patches against the
deck's discriminants (``model.Lda``), in both senses of its axis. Here those distances
become a verdict: the sense that fits, the best class of each and its log-likelihood ratio
over the runner-up (``decide``), the second class where a read is one of two (``runner_up``),
and the fine cut's word on a close call (``settle``) or on any read named (``against``).
``Thresholds`` says when a verdict names a card. No image is touched here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
Dist = list[tuple[F64, F64]]  # per sense of the axis: rank and suit distances (N x classes)
# A read that falls short of ``Thresholds`` is cut again at twice the resolution and named
# there (see ``settle``) where the coarse cut fits no looser than FINE_FIT (in the units of
# ``Thresholds.typical``) and the fine cut is FINE_ODDS sure. Parts of a group are never
# settled so: the "0" of a ten, its "1" dropped, reads as a sure "8" at any resolution.
# A looser FINE_FIT settles more cards (the loosest also takes a pip for an index, which the
# reader then withdraws); FINE_ODDS is set where the few wrong names the fine cut gives are
# all overruled by merging (figures in ``docs/benchmarks.md``).
FINE_FIT, FINE_ODDS = 0.7, 60.0
# A close call the fine cut names IN_STEP_ODDS sure, short of FINE_ODDS, is given that name
# as a guess too (``settle``): more covered cards of the bold styles read, no more wrongly
# (``docs/benchmarks.md``).
IN_STEP_ODDS = 20.0


@dataclass(frozen=True)
class Thresholds:
    """When a reading is trusted. Rank and suit are each read by a discriminant
    (``model.Lda``): the best class must be at least ``odds`` (a log-likelihood ratio) more
    likely than the runner-up, and no further from its class than ``typical`` times the
    distance 99.9 % of training samples keep; a group further than ``seen`` times it is not
    taken for an index at all. ``widths``: the card widths in pixels looked for."""

    # 9 was set on the tuning artwork; on the decks it was not tuned on a blurred suit read at
    # 9.9 (bonded's Ks as Kc, real scenes). At 12, over the tuning styles and eight public
    # decks, plain and real (10 frames each, seed 2026), that read went unknown and no right
    # read was lost but one (4color, real), while four more were named (a read just short is
    # cut again finer, ``settle``); at 15 and above, right reads fell (``docs/benchmarks.md``).
    odds: float = 12.0
    typical: float = 0.5
    seen: float = 4.0
    widths: tuple[float, float] = (60.0, 300.0)


class Judged(NamedTuple):
    """Candidates read in the sense of their axis each fits best (``sense``): their rank
    and suit distances (``rd``, ``sd``), best class, log-likelihood ratio over the runner-up,
    posterior and distance of each (``decide``), how loosely the looser fits (in units of
    its ``typical``) and the lesser odds."""

    sense: NDArray[np.int64]
    rd: F64
    sd: F64
    r_best: NDArray[np.int64]
    r_odds: F64
    r_p: F64
    r_d: F64
    s_best: NDArray[np.int64]
    s_odds: F64
    s_p: F64
    s_d: F64
    loose: F64
    odds: F64

    def take(self, rows: NDArray[np.int64]) -> Judged:
        """The readings of ``rows`` only."""
        return Judged._make([a[rows] for a in self])


def judged(dist: Dist, rows: NDArray[np.int64], rank_typical: float, suit_typical: float
           ) -> Judged:
    """The reading of the groups ``rows`` of ``dist``, each in the sense it fits best (the
    distances in units of the classes' ``rank_typical`` and ``suit_typical`` for ``loose``)."""
    fit = [d[0][rows].min(axis=1) + d[1][rows].min(axis=1) for d in dist]
    sense = (fit[1] < fit[0]).astype(np.int64)
    rd = np.where(sense[:, None] == 1, dist[1][0][rows], dist[0][0][rows])
    sd = np.where(sense[:, None] == 1, dist[1][1][rows], dist[0][1][rows])
    r_best, r_odds, r_p, r_d = decide(rd)
    s_best, s_odds, s_p, s_d = decide(sd)
    loose = np.maximum(r_d / rank_typical, s_d / suit_typical)
    return Judged(sense, rd, sd, r_best, r_odds, r_p, r_d, s_best, s_odds, s_p, s_d, loose,
                  np.minimum(r_odds, s_odds))


def decide(d: F64) -> tuple[NDArray[np.int64], F64, F64, F64]:
    """Per row of distances: the best class, its log-likelihood ratio over the runner-up,
    its posterior and its distance."""
    two = np.argpartition(d, 1, axis=1)[:, :2]
    rows = np.arange(len(d))
    first, second = d[rows, two[:, 0]], d[rows, two[:, 1]]
    swap = second < first
    best = np.where(swap, two[:, 1], two[:, 0])
    low, high = np.minimum(first, second), np.maximum(first, second)
    posterior = 1.0 / np.exp(-(d - low[:, None]) / 2).sum(axis=1)
    return best.astype(np.int64), (high - low) / 2, posterior, low


def runner_up(d: F64, odds: float) -> NDArray[np.int64]:
    """Per row of distances: the second class, where it and the first are each ``odds`` (a
    log-likelihood ratio) more likely than any third; -1 elsewhere (or with two classes)."""
    if d.shape[1] < 3:
        return np.full(len(d), -1, np.int64)
    three = np.argsort(d, axis=1)[:, :3]
    third = np.take_along_axis(d, three[:, 2:], axis=1)[:, 0]
    second = np.take_along_axis(d, three[:, 1:2], axis=1)[:, 0]
    out: NDArray[np.int64] = np.where((third - second) / 2 >= odds, three[:, 1], -1)
    return out


def against(fine: F64, best: NDArray[np.int64], odds: float) -> NDArray[np.bool_]:
    """Whether the fine cut (distances ``fine``) names another class than ``best`` with
    ``odds`` (a log-likelihood ratio over its runner-up) or more."""
    f_best, f_odds, _, _ = decide(fine)
    out: NDArray[np.bool_] = (f_best != best) & (f_odds >= odds)
    return out


def strays(fine: F64, best: NDArray[np.int64], limit: float) -> NDArray[np.bool_]:
    """Whether the fine cut (distances ``fine``) finds each read further than ``limit`` from
    its own class ``best``, whichever class it finds nearest: a read named at the coarse cut
    that the fine cut finds far from its class fits neither closely enough to be named."""
    out: NDArray[np.bool_] = fine[np.arange(len(best)), best] > limit
    return out


def confirmed(fine: F64, best: NDArray[np.int64], odds: float) -> NDArray[np.bool_]:
    """Whether the fine cut (distances ``fine``) names ``best`` too, with ``odds`` or more
    (``against``'s converse)."""
    f_best, f_odds, _, _ = decide(fine)
    out: NDArray[np.bool_] = (f_best == best) & (f_odds >= odds)
    return out


def settle(coarse: F64, best: NDArray[np.int64], ok: NDArray[np.bool_], fine: F64,
            typical: float, t: Thresholds
            ) -> tuple[NDArray[np.int64], NDArray[np.bool_], NDArray[np.bool_]]:
    """The fine cut's class for each close call, whether it settles it, and whether it may
    name it in step (``IN_STEP_ODDS``): one the coarse cut (distances ``coarse``) had first or
    second, and its first where it was already sure (``ok``), that the fine cut (distances
    ``fine``) finds ``FINE_ODDS`` more likely than any other (``IN_STEP_ODDS`` to name it in
    step) and close to its own (``t.typical`` times ``typical``)."""
    two = np.argsort(coarse, axis=1)[:, :2]
    f_best, f_odds, _, f_d = decide(fine)
    fits = (f_d <= t.typical * typical) & (two == f_best[:, None]).any(axis=1) & (
        ~ok | (f_best == best))
    return f_best, fits & (f_odds >= FINE_ODDS), fits & (f_odds >= IN_STEP_ODDS)
