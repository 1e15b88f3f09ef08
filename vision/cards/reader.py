"""Read every card in a frame by its corner index, against one calibrated deck.

Each candidate index (``ink``) is cut upright in both senses (``patch``) and its rank and
suit are classified by the deck's discriminants (``model``). Of candidates sharing ink the
best fit is kept. A card is named only when rank and suit are each far more likely than the
runner-up (``Thresholds.odds``) and close to their class (``Thresholds.typical``); an
index-like group that falls short is reported with ``code=None``, unless the group, cut
again at twice the resolution, is named surely there (``_settle``: a "settled" read, the
weakest kind). A read named but not surely and cleanly (``reads.SURE``, ``reads.CLEAN``) is
cut at twice the resolution too, and withdrawn ("vetoed") where that cut names another rank
or suit as surely as a read must be (``_against``). A read sure but loose, which that cut
does not withdraw either, and a close call that cut names fairly surely, are named only
where the index lies as a spread lays it beside a card named plainly (``IN_STEP_FIT``,
``IN_STEP_ODDS``, ``reads.in_step``). A read whose card would lie on the felt (``felt``) is
withdrawn (``_on_cards``). The reads become one per card (``reads.merge``). The empty places
of spreads are then read again with ink found another way (``slots``). An unsure read that
is surely one of two cards is named the one not read elsewhere (``PAIR_FIT``,
``reads.eliminate``). Faces without an index are sought by ``strips``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..items import Item
from . import patch, slots, strips
from .codes import TEN_ONE, TEN_PART
from .deck import Deck
from .felt import Felt
from .ink import Groups, Limits, find_groups, masks
from .reads import CLEAN, SURE, Read, eliminate, in_step, like_sizes, merge, moved, placed, stepped

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
# A candidate read as a part of a ten, its "0" or its "1" (``codes.TEN_PART``, ``TEN_ONE``),
# fits this much worse in the competition for marks (see _match): the ten's own group, "1"
# and all, should win it.
PART = 0.6
# A read that falls short of ``Thresholds`` is cut again at twice the resolution and named
# there (see _settle) where the coarse cut fits no looser than FINE_FIT (in the units of
# ``Thresholds.typical``) and the fine cut is FINE_ODDS sure. Parts of a group are never
# settled so: the "0" of a ten, its "1" dropped, reads as a sure "8" at any resolution.
# On bench/bench_vision.py (2color-bf, FINE_ODDS 30, 200 frames, seed 7) FINE_FIT 0.25
# settled 0.8 % of the cards, 0.5 another 0.3 % and 0.7 another 0.4 %, the last with one pip
# read as an index, which the check below withdraws. Over 1,000 frames (seed 2026) FINE_ODDS
# 30 named 880 cards so, 24 wrongly (3 of them left standing by merge); 60 named 481, 3
# wrongly (none left standing); 100 named 182, none wrongly.
FINE_FIT, FINE_ODDS = 0.7, 60.0
# A read named (or guessed) must imply a card lying on cards (see _on_cards): no more than
# OFF_CARDS of the points BODY (a 5 x 8 grid a fifth of a card inside its edges, as an index
# places its card to a tenth or so) may fall on the felt (``felt``). Over 1,000 frames of
# 4color (seed 2026) this withdrew the three cards read where no card lies; see ``felt`` for
# the right reads it spares.
BODY = tuple(a.ravel() for a in np.meshgrid(np.linspace(0.2, 0.8, 5), np.linspace(0.15, 0.85, 8)))
OFF_CARDS = 0.1
# A read sure enough (``Thresholds.odds``) but looser than ``Thresholds.typical``, no looser
# than IN_STEP_FIT, and not withdrawn by the fine cut (``_against``) keeps its name as a
# guess, which it is given where its index lies as a spread lays it beside a card named
# plainly (``reads.in_step``): the index of a covered card cut by the edge of the card on
# top. On bench/bench_vision.py frames (seed 2026, 200 per style) such reads, up to a fit of
# 0.9 and beside a read card, were 64 right covered cards of 2color-bf, 57 of 4color-bf, 1
# of 4color and none of 2color, and none wrong; up to 1.5 they added 2 more right ones.
# Over 1,000 frames per style, right reads of 2color-bf went 96.29 -> 97.00 % and of
# 4color-bf 96.72 -> 97.37 %, with the same wrong reads (the joker's eyes in ``strips``
# standing in for its edge added about 0.05 % in every style at the same time).
IN_STEP_FIT = 1.0
# A close call the fine cut names IN_STEP_ODDS sure, short of FINE_ODDS, is given that name
# as a guess too (``_settle``). Over 1,000 frames (seed 2026) right reads of 2color-bf went
# 97.00 -> 97.47 % and of 4color-bf 97.37 -> 97.67 %, with the same wrong reads.
IN_STEP_ODDS = 20.0
# An unsure read whose rank (or suit) is one of two, each PAIR_ODDS (a log-likelihood ratio)
# more likely than any third, whose suit (or rank) is read surely (``Thresholds.odds``) and
# which fits no looser than PAIR_FIT, is one of two cards: it is named the one not read
# elsewhere where the other is (``reads.eliminate``). Every such read was logged over 1,000
# bench frames per style (seed 2026) with no limits: at 0.4 and 15 they named 161, 107, 11
# and 6 cards right in 2color-bf, 4color-bf, 2color and 4color, none wrongly. The wrong ones
# fitted 0.48 and 0.50 (2color-bf), or led the third by 10.4 (2color: an 8d read as a 6 or a
# 5, the 5d named elsewhere).
PAIR_FIT, PAIR_ODDS = 0.4, 15.0


@dataclass(frozen=True)
class Thresholds:
    """When a reading is trusted. Rank and suit are each read by a discriminant
    (``model.Lda``): the best class must be at least ``odds`` (a log-likelihood ratio) more
    likely than the runner-up, and no further from its class than ``typical`` times the
    distance 99.9 % of training samples keep; a group further than ``seen`` times it is not
    taken for an index at all. ``widths``: the card widths in pixels looked for."""

    odds: float = 9.0
    typical: float = 0.5
    seen: float = 4.0
    widths: tuple[float, float] = (60.0, 300.0)


class CardReader:
    """Reads cards of one calibrated ``Deck`` from BGR frames; ``second_look=False`` skips
    the second look at the empty places of spreads (to measure what it costs and adds)."""

    def __init__(self, deck: Deck, thresholds: Thresholds | None = None,
                 second_look: bool = True) -> None:
        self.deck = deck
        self.thresholds = thresholds or Thresholds()
        self.second_look = second_look  # look again at the empty places of spreads
        self.limits = Limits(link=deck.link, sharpen=deck.sharpen)
        self._code_at = {c: k for k, c in enumerate(deck.codes)}
        names = deck.ranks.names
        self._parts = np.array([names.index(p) for p in (TEN_PART, TEN_ONE) if p in names],
                               np.int64)

    def read(self, frame: Image) -> list[Item]:
        """Every card found in ``frame``, read or ``code=None``, top-left to bottom-right."""
        ink, _, paper = masks(frame, sharpen=self.limits.sharpen)
        felt = Felt(paper)
        groups = self._candidates(find_groups(frame, self.limits, ink))
        reads = self._match(frame, groups)
        reads = [r if on or (r.code is None and r.guess is None)
                 else dataclasses.replace(r, code=None, guess=None, pair=None, note="off cards")
                 for r, on in zip(reads, self._on_cards(felt, reads).tolist(), strict=True)]
        reads = merge(like_sizes(in_step(reads), self.thresholds.widths))
        if self.second_look:
            reads = self._second_look(frame, reads, felt)
        reads = eliminate(reads)
        items = self._items(reads)
        items += strips.find(frame, self.deck.strip_codes, self.deck.strips,
                             self.deck.strip_accept, self.deck.aspect, items,
                             [r.both for r in reads])
        return sorted(items, key=lambda i: (round(i.center[1] / 40), i.center[0]))

    def _candidates(self, groups: Groups) -> Groups:
        lo, hi = self.thresholds.widths
        length = np.hypot(*(groups.ends[:, 0, 1] - groups.ends[:, 0, 0]).T)
        lengths = self.deck.lengths
        ok = (length >= lo * float(lengths.min()) * 0.8) & (
            length <= hi * float(lengths.max()) * 1.2)
        return groups.take(ok)

    def _match(self, frame: Image, groups: Groups) -> list[Read]:
        if len(groups) == 0:
            return []
        pyramid = patch.Pyramid(frame)
        dist = [(self.deck.ranks.distances(rv), self.deck.suits.distances(sv))
                for rv, sv in patch.cut_both(pyramid, groups)]
        fit = [d[0].min(axis=1) + d[1].min(axis=1) for d in dist]
        turned = fit[1] < fit[0]
        part = np.isin(np.where(turned, dist[1][0].argmin(axis=1), dist[0][0].argmin(axis=1)),
                       self._parts)
        best_fit = np.minimum(fit[0], fit[1]) / np.where(part, PART, 1.0)
        # Candidates sharing a mark: only the best fit is read.
        chosen: list[int] = []
        taken: set[int] = set()
        members = groups.members.tolist()  # a list's rows iterate 10x quicker than an array's
        for i in np.argsort(best_fit, kind="stable").tolist():
            marks = {k for k in members[i] if k >= 0}
            if not marks & taken:
                chosen.append(i)
                taken |= marks
        if not chosen:
            return []
        pick = np.array(sorted(chosen))
        sense = turned[pick].astype(int)
        rd = np.where(sense[:, None] == 1, dist[1][0][pick], dist[0][0][pick])
        sd = np.where(sense[:, None] == 1, dist[1][1][pick], dist[0][1][pick])
        r_best, r_odds, r_p, r_d = _decide(rd)
        s_best, s_odds, s_p, s_d = _decide(sd)
        t = self.thresholds
        ranks, suits = self.deck.ranks, self.deck.suits
        seen = (r_d <= t.seen * ranks.typical) & (s_d <= t.seen * suits.typical)
        loose = np.maximum(r_d / ranks.typical, s_d / suits.typical)
        confident = (np.minimum(r_odds, s_odds) >= t.odds) & (loose <= t.typical)
        settled = np.zeros_like(confident)
        vetoed = np.zeros_like(confident)
        guess = np.zeros_like(confident)
        close = seen & ~confident & (loose <= FINE_FIT) & ~groups.variant[pick]
        odds = np.minimum(r_odds, s_odds)
        doubt = confident & ~((odds >= SURE) & (loose < CLEAN))
        hopeful = seen & ~confident & (odds >= t.odds) & (loose <= IN_STEP_FIT)
        fine_ranks, fine_suits = self.deck.fine_ranks, self.deck.fine_suits
        again = close | doubt | hopeful
        if again.any() and fine_ranks is not None and fine_suits is not None:
            fr, fs = patch.cut(pyramid, groups.take(pick[again]), sense[again], patch.FINE)
            fr_d, fs_d = fine_ranks.distances(fr), fine_suits.distances(fs)
            c = close[again]
            r_new, r_win, r_near = _settle(rd[close], r_best[close], r_odds[close] >= t.odds,
                                           fr_d[c], fine_ranks.typical, t)
            s_new, s_win, s_near = _settle(sd[close], s_best[close], s_odds[close] >= t.odds,
                                           fs_d[c], fine_suits.typical, t)
            win = r_win & s_win
            near = r_near & s_near & ~win
            called, named = np.flatnonzero(close), win | near
            r_best[called[named]], s_best[called[named]] = r_new[named], s_new[named]
            settled[called[win]] = True
            checked = doubt | hopeful
            d = checked[again]
            rows = np.flatnonzero(checked)
            vetoed[rows] = (_against(fr_d[d], r_best[rows], t.odds)
                            | _against(fs_d[d], s_best[rows], t.odds))
            # A deck without the fine cut guesses not.
            guess = hopeful & ~vetoed & ~settled
            guess[called[near]] = True
        vetoed &= confident
        confident = (confident & ~vetoed) | settled
        codes = [ranks.names[a] + suits.names[b] for a, b in zip(r_best, s_best, strict=True)]
        k = np.array([self._code_at.get(c, 0) for c in codes], np.int64)
        # Where each card lies: from the suit's centroid, by the deck's offsets for its face.
        ends = groups.ends[pick, sense]
        axis = ends[:, 1] - ends[:, 0]
        length = np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-6)
        down = axis / length[:, None]
        right = np.stack([down[:, 1], -down[:, 0]], axis=1)
        width = length / self.deck.lengths[k].astype(np.float64)
        off = self.deck.offsets[k].astype(np.float64)
        center = ends[:, 1] + width[:, None] * (off[:, :1] * right + off[:, 1:] * down)
        score = np.minimum(r_p, s_p)
        # Reads surely one of two cards (PAIR_FIT): the other name each gives.
        undecided = seen & ~confident & ~guess & ~settled & (loose < PAIR_FIT)
        r_other, s_other = _runner_up(rd, PAIR_ODDS), _runner_up(sd, PAIR_ODDS)
        rank_pair = undecided & (r_odds < t.odds) & (r_other >= 0) & (s_odds >= t.odds)
        suit_pair = undecided & (s_odds < t.odds) & (s_other >= 0) & (r_odds >= t.odds)
        others: list[str | None] = [None] * len(pick)
        for j in np.flatnonzero(rank_pair).tolist():
            others[j] = ranks.names[r_other[j]] + suits.names[s_best[j]]
        for j in np.flatnonzero(suit_pair).tolist():
            others[j] = ranks.names[r_best[j]] + suits.names[s_other[j]]
        reads = []
        for j in np.flatnonzero(seen).tolist():
            known, other = codes[j] in self._code_at, others[j]
            code = codes[j] if confident[j] and known else None
            note = None if code else "vetoed" if vetoed[j] else "unsure"
            reads.append(Read(code, float(score[j]), center[j], right[j], down[j],
                               float(width[j]), note,
                               float(odds[j]), float(loose[j]), settled=bool(settled[j]),
                               indices=((ends[j, 1], right[j], down[j]),),
                               guess=codes[j] if guess[j] and known else None,
                               pair=(codes[j], other) if known and other in self._code_at
                               else None))
        return reads

    def _second_look(self, frame: Image, reads: list[Read], felt: Felt) -> list[Read]:
        """``reads`` with the cards found at the empty places of spreads (``slots``): each
        read surely (``SURE``), a spread's step from the card beside its place (``stepped``),
        on cards (``_on_cards``), where no card is named, and of a name not yet read
        (``reads.placed``)."""
        if not reads:
            return reads
        rights = np.array([r.right for r in reads])
        downs = np.array([r.down for r in reads])
        widths = np.array([r.width for r in reads])
        corners = self._frames(reads)[0]
        named = np.array([r.code is not None for r in reads])
        empty = slots.empty(felt, corners, rights, downs, widths, self.deck.aspect, named)
        if not empty:
            return reads
        rows = [i for i, _ in empty]
        beside = [reads[i] for i in rows]
        places = slots.cut(frame, corners[rows], rights[rows], downs[rows], widths[rows],
                           [side for _, side in empty])
        groups = self._candidates(find_groups(places.image, self.limits,
                                                 slots.ink(places, self.limits.sharpen)))
        found: list[Read] = []
        for n in self._match(places.image, groups):
            k = places.owner(float(n.indices[0][0][0]))
            n, r = moved(n, places.maps[k]), beside[k]
            if n.code is not None and n.odds >= SURE and stepped(n, r, beside=True):
                found.append(n)
        return placed(reads, [n for n, on in zip(found, self._on_cards(felt, found).tolist(),
                                                 strict=True) if on])

    def _on_cards(self, felt: Felt, reads: Sequence[Read]) -> NDArray[np.bool_]:
        """Whether the card each read implies lies on cards: on the ``felt`` at no more than
        ``OFF_CARDS`` of the points ``BODY`` (a pip, or a glyph cut by the edge of a card on
        top, read as an index may imply a card reaching onto the felt). Points out of the
        frame count as felt for a read named only by the fine cut or as a guess, not for a
        plain read: a card at the frame's edge is read by its index."""
        if not reads:
            return np.zeros(0, np.bool_)
        corner, across, along = self._frames(reads)
        pts = np.round(corner[:, None] + BODY[0][None, :, None] * across[:, None]
                       + BODY[1][None, :, None] * along[:, None])  # (reads, points, xy)
        weak = np.array([r.settled or r.code is None for r in reads])
        on: NDArray[np.bool_] = felt.share(pts, outside=weak) <= OFF_CARDS
        return on

    def _frames(self, reads: Sequence[Read]) -> tuple[F64, F64, F64]:
        """The cards the reads imply (N x 2 each): their top-left corners and their top and
        left edges (vectors a card's width and height long), as each card is read upright."""
        width = np.array([r.width for r in reads], np.float64)[:, None]
        across = np.array([r.right for r in reads], np.float64) * width
        along = np.array([r.down for r in reads], np.float64) * width * self.deck.aspect
        centre = np.array([r.center for r in reads], np.float64)
        return centre - across / 2 - along / 2, across, along

    def _items(self, reads: Sequence[Read]) -> list[Item]:
        if not reads:
            return []
        corner, across, along = self._frames(reads)
        quads = np.stack([corner, corner + across, corner + across + along, corner + along],
                         axis=1).tolist()
        return [Item(kind="card", code=r.code, confidence=max(0.0, min(1.0, r.score)),
                     center=(float(r.center[0]), float(r.center[1])),
                     corners=(tuple(q[0]), tuple(q[1]), tuple(q[2]), tuple(q[3])),
                     note=r.note)
                for r, q in zip(reads, quads, strict=True)]


def _decide(d: F64) -> tuple[NDArray[np.int64], F64, F64, F64]:
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


def _runner_up(d: F64, odds: float) -> NDArray[np.int64]:
    """Per row of distances: the second class, where it and the first are each ``odds`` (a
    log-likelihood ratio) more likely than any third; -1 elsewhere (or with two classes)."""
    if d.shape[1] < 3:
        return np.full(len(d), -1, np.int64)
    three = np.argsort(d, axis=1)[:, :3]
    third = np.take_along_axis(d, three[:, 2:], axis=1)[:, 0]
    second = np.take_along_axis(d, three[:, 1:2], axis=1)[:, 0]
    out: NDArray[np.int64] = np.where((third - second) / 2 >= odds, three[:, 1], -1)
    return out


def _against(fine: F64, best: NDArray[np.int64], odds: float) -> NDArray[np.bool_]:
    """Whether the fine cut (distances ``fine``) names another class than ``best`` with
    ``odds`` (a log-likelihood ratio over its runner-up) or more."""
    f_best, f_odds, _, _ = _decide(fine)
    out: NDArray[np.bool_] = (f_best != best) & (f_odds >= odds)
    return out


def _settle(coarse: F64, best: NDArray[np.int64], ok: NDArray[np.bool_], fine: F64,
            typical: float, t: Thresholds
            ) -> tuple[NDArray[np.int64], NDArray[np.bool_], NDArray[np.bool_]]:
    """The fine cut's class for each close call, whether it settles it, and whether it may
    name it in step (``IN_STEP_ODDS``): one the coarse cut (distances ``coarse``) had first or
    second, and its first where it was already sure (``ok``), that the fine cut (distances
    ``fine``) finds ``FINE_ODDS`` more likely than any other (``IN_STEP_ODDS`` to name it in
    step) and close to its own (``t.typical`` times ``typical``)."""
    two = np.argsort(coarse, axis=1)[:, :2]
    f_best, f_odds, _, f_d = _decide(fine)
    fits = (f_d <= t.typical * typical) & (two == f_best[:, None]).any(axis=1) & (
        ~ok | (f_best == best))
    return f_best, fits & (f_odds >= FINE_ODDS), fits & (f_odds >= IN_STEP_ODDS)
