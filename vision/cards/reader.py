"""Read every card in a frame by its corner index, against one calibrated deck.

Each candidate index (``ink``) is cut upright in both senses (``patch``) and its rank and
suit are classified by the deck's discriminants (``model``). Of candidates sharing ink the
best fit is kept. A card is named only when rank and suit are each far more likely than the
runner-up (``Thresholds.odds``) and close to their class (``Thresholds.typical``); an
index-like group that falls short is reported with ``code=None``, unless the group, cut
again at twice the resolution, is named surely there (``_settle``: a "settled" read, the
weakest kind). Reads implying a card size unlike the frame's other cards are withdrawn, both
indices of one card merge by the centre each predicts, two names for one card and one name
at two places are withdrawn; two names a spread's step apart, each read cleanly and surely
(``CLEAN``, ``SURE``) or with their indices laid as a spread lays them (``_stepped``), are
two cards. Faces without an index are then sought by ``strips``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..items import Item, Point
from . import patch, strips
from .deck import Deck
from .ink import Groups, Limits, find_groups, masks

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
SIZE_SPREAD = 1.2  # how much larger one card may look than the median card of a frame
SAME, CLASH = 0.12, 0.2  # card widths between the centres two reads give (see _merge)
# Two names closer than CLASH are two cards only when both reads fit this closely (``fit``)
# and are this sure (``odds``); see _neighbours.
CLEAN, SURE = 0.15, 20.0
# Two indices a spread's step apart (see _stepped), in card widths: across the cards, level
# within LEVEL; turned alike (the cosine of the angle between them), of sizes within
# SIZE_ALIKE; each read no looser than STEP_FIT.
STEP, LEVEL, TURNED_ALIKE, SIZE_ALIKE, STEP_FIT = (0.2, 0.5), 0.06, 0.985, 0.08, 0.3
ONE_CARD = 0.5  # card widths within which two sure reads of one name are one card
WHOLE = 0.6  # a whole group's fit counts this much of a subset's (see _match)
# A read that falls short of ``Thresholds`` is cut again at twice the resolution and named
# there (see _settle) where the coarse cut fits no looser than FINE_FIT (in the units of
# ``Thresholds.typical``) and the fine cut is FINE_ODDS sure. Parts of a group are never
# settled so: the "0" of a ten, its "1" dropped, reads as a sure "8" at any resolution.
# On bench/bench_vision.py (2color-bf, FINE_ODDS 30, 200 frames, seed 7) FINE_FIT 0.25
# settled 0.8 % of the cards, 0.5 another 0.3 % and 0.7 another 0.4 %, the last with one pip
# read as an index, which the check below withdraws. Over 1,000 frames (seed 2026) FINE_ODDS
# 30 named 880 cards so, 24 wrongly (3 of them left standing by _merge); 60 named 481, 3
# wrongly (none left standing); 100 named 182, none wrongly.
FINE_FIT, FINE_ODDS = 0.7, 60.0
# A read named by the fine cut alone must imply a card lying on cards (see _on_cards): no
# more than OFF_CARDS of the points BODY (a 5 x 8 grid a fifth of a card inside its edges,
# as an index places its card to a tenth or so) may fall outside the cards' mask.
BODY = tuple(a.ravel() for a in np.meshgrid(np.linspace(0.2, 0.8, 5), np.linspace(0.15, 0.85, 8)))
OFF_CARDS = 0.1


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


@dataclass(frozen=True)
class _Read:
    code: str | None
    score: float
    center: F64
    right: F64
    down: F64
    width: float
    note: str | None
    odds: float = 0.0  # the lesser of rank's and suit's log-likelihood ratio over the runner-up
    fit: float = 0.0  # the greater of rank's and suit's distance, in ``typical`` units
    both: bool = False  # both indices of the card were read: it lies on top
    settled: bool = False  # named only by the fine cut (``_settle``): weaker than a sure read
    # Each index read of the card: its suit's centroid (where the index itself lies) and its
    # right and down; two when both indices of a card were read.
    indices: tuple[tuple[F64, F64, F64], ...] = ()


class CardReader:
    """Reads cards of one calibrated ``Deck`` from BGR frames."""

    def __init__(self, deck: Deck, thresholds: Thresholds | None = None) -> None:
        self.deck = deck
        self.thresholds = thresholds or Thresholds()
        self.limits = Limits(link=deck.link)
        self._code_at = {c: k for k, c in enumerate(deck.codes)}

    def read(self, frame: Image) -> list[Item]:
        """Every card found in ``frame``, read or ``code=None``, top-left to bottom-right."""
        ink, cards = masks(frame)
        groups = self._candidates(find_groups(frame, self.limits, ink))
        reads = [r if not r.settled or self._on_cards(cards, r)
                 else dataclasses.replace(r, code=None, note="off cards")
                 for r in self._match(frame, groups)]
        reads = _merge(_like_sizes(reads, self.thresholds.widths))
        items = [self._item(r) for r in reads]
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

    def _match(self, frame: Image, groups: Groups) -> list[_Read]:
        if len(groups) == 0:
            return []
        pyramid = patch.Pyramid(frame)
        dist = []
        for sense in (0, 1):
            rv, sv = patch.cut(pyramid, groups, sense)
            dist.append((self.deck.ranks.distances(rv), self.deck.suits.distances(sv)))
        fit = [d[0].min(axis=1) + d[1].min(axis=1) for d in dist]
        turned = fit[1] < fit[0]
        # A subset must fit clearly better than its whole group: dropping the "1" of a ten
        # leaves a "0" that may pass for a six.
        best_fit = np.minimum(fit[0], fit[1]) * np.where(groups.variant, 1.0, WHOLE)
        # Candidates sharing a mark: only the best fit is read.
        chosen: list[int] = []
        taken: set[int] = set()
        for i in np.argsort(best_fit, kind="stable").tolist():
            marks = {int(k) for k in groups.members[i] if k >= 0}
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
        close = seen & ~confident & (loose <= FINE_FIT) & ~groups.variant[pick]
        fine_ranks, fine_suits = self.deck.fine_ranks, self.deck.fine_suits
        if close.any() and fine_ranks is not None and fine_suits is not None:
            fr, fs = patch.cut(pyramid, groups.take(pick[close]), sense[close], patch.FINE)
            r_new, r_win = _settle(rd[close], r_best[close], r_odds[close] >= t.odds,
                                   fine_ranks.distances(fr), fine_ranks.typical, t)
            s_new, s_win = _settle(sd[close], s_best[close], s_odds[close] >= t.odds,
                                   fine_suits.distances(fs), fine_suits.typical, t)
            win = r_win & s_win
            rows = np.flatnonzero(close)[win]
            r_best[rows], s_best[rows], settled[rows] = r_new[win], s_new[win], True
        confident |= settled
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
        odds = np.minimum(r_odds, s_odds)
        reads = []
        for j in np.flatnonzero(seen).tolist():
            code = codes[j] if confident[j] and codes[j] in self._code_at else None
            reads.append(_Read(code, float(score[j]), center[j], right[j], down[j],
                               float(width[j]), None if code else "unsure",
                               float(odds[j]), float(loose[j]), settled=bool(settled[j]),
                               indices=((ends[j, 1], right[j], down[j]),)))
        return reads

    def _on_cards(self, cards: Image, r: _Read) -> bool:
        """Whether the card a read implies lies on cards (``cards``: their mask) at all but
        ``OFF_CARDS`` of the points ``BODY``: a pip read as an index may imply a card that
        reaches onto the felt. (The mask's notches at the edges of cards of a spread make
        this too strict for every read: it withdrew 2-3 % of right plain reads.)"""
        corner, across, along = self._frame(r)
        pts = corner + BODY[0][:, None] * across + BODY[1][:, None] * along
        x, y = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
        h, w = cards.shape
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        on = np.zeros(len(pts), np.bool_)
        on[inside] = cards[y[inside], x[inside]] > 0
        return float(np.mean(~on)) <= OFF_CARDS

    def _frame(self, r: _Read) -> tuple[F64, F64, F64]:
        """The card a read implies: its top-left corner and its top and left edges (vectors
        a card's width and height long), as the card is read upright."""
        across, along = r.right * r.width, r.down * r.width * self.deck.aspect
        return r.center - across / 2 - along / 2, across, along

    def _item(self, r: _Read) -> Item:
        corner, across, along = self._frame(r)
        pts = [corner, corner + across, corner + across + along, corner + along]
        corners: list[Point] = [(float(p[0]), float(p[1])) for p in pts]
        return Item(
            kind="card", code=r.code, confidence=max(0.0, min(1.0, r.score)),
            center=(float(r.center[0]), float(r.center[1])),
            corners=(corners[0], corners[1], corners[2], corners[3]), note=r.note,
        )


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


def _settle(coarse: F64, best: NDArray[np.int64], ok: NDArray[np.bool_], fine: F64,
            typical: float, t: Thresholds) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The fine cut's class for each close call, and whether it settles it: one the coarse
    cut (distances ``coarse``) had first or second, and its first where it was already sure
    (``ok``), that the fine cut (distances ``fine``) finds ``FINE_ODDS`` more likely than any
    other and close to its own (``t.typical`` times ``typical``)."""
    two = np.argsort(coarse, axis=1)[:, :2]
    f_best, f_odds, _, f_d = _decide(fine)
    win = (f_odds >= FINE_ODDS) & (f_d <= t.typical * typical) & (
        two == f_best[:, None]).any(axis=1) & (~ok | (f_best == best))
    return f_best, win


def _like_sizes(reads: list[_Read], widths: tuple[float, float]) -> list[_Read]:
    """Reads of cards of a size no card on this table has are withdrawn (named) or dropped.

    All cards of a deck are one size, so the widths the reads imply agree within what the
    camera's perspective allows (``SIZE_SPREAD``); a read far from the median of the sure
    reads (``_sure``; of all named reads when none is sure), or outside ``widths``, came
    from something that only looks like an index.
    """
    named = [r.width for r in reads if r.code is not None]
    # Clean, sure reads set the size when there are any: pips a card's width apart can pass
    # for an index of a card twice the size, and in a frame of few cards outnumber them.
    sure = [r.width for r in reads if _sure(r)]
    typical = (float(np.median(sure)) if sure
               else float(np.median(named)) if len(named) >= 3 else None)
    kept = []
    for r in reads:
        odd = not widths[0] <= r.width <= widths[1] or (
            typical is not None and not 1 / SIZE_SPREAD <= r.width / typical <= SIZE_SPREAD)
        if not odd:
            kept.append(r)
        elif r.code is not None:
            kept.append(dataclasses.replace(r, code=None, note="odd size"))
    return kept


def _merge(reads: list[_Read]) -> list[_Read]:
    """One read per card: the two indices of a card and repeated reads merge; a code read at
    two places is withdrawn at both (a frame never shows one card twice)."""
    reads = sorted(reads, key=lambda r: (r.code is None, -r.score))
    if not reads:
        return []
    centres = np.array([r.center for r in reads])
    widths = np.array([r.width for r in reads])
    apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) / (
        np.minimum(widths[:, None], widths[None, :]))
    kept: list[_Read] = []
    slot: list[int] = []  # the read each kept one came from
    for i, r in enumerate(reads):
        # Reads of one card agree on its centre (within SAME); two cards of a spread lie at
        # least a step apart, so two different names closer than CLASH are one card, and
        # once a place is in conflict no later name settles it.
        near = [k for k, j in enumerate(slot) if apart[i, j] < CLASH]
        twin = next((k for k in near if apart[i, slot[k]] < SAME), None)
        rivals = [k for k in near if r.code is not None and (
            kept[k].code not in (None, r.code) or kept[k].note == "conflict")
            and not _neighbours(r, kept[k], float(apart[i, slot[k]]))]
        if r.settled and rivals:
            continue  # a name only the fine cut gives yields to any other at its place
        for k in [k for k in rivals if kept[k].settled]:
            rivals.remove(k)
            kept[k] = dataclasses.replace(kept[k], code=None, note="outvoted")
            if k == twin:
                kept[k], slot[k] = r, i
        if twin is not None and kept[twin] is r:
            continue
        for k in rivals:
            kept[k] = dataclasses.replace(kept[k], code=None, note="conflict")
        if twin is None and not rivals:
            kept.append(r)
            slot.append(i)
        elif twin is not None and r.code is not None and kept[twin].code == r.code:
            # One card read twice: it keeps the stronger read (a name the fine cut alone gave
            # counts as much as the plain read that agrees with it) and both indices.
            stronger = r if _weight(r) > _weight(kept[twin]) else kept[twin]
            kept[twin] = dataclasses.replace(stronger, both=True,
                                             indices=kept[twin].indices + r.indices)
    seen: dict[str, int] = {}
    for k, r in enumerate(kept):
        if r.code is None:
            continue
        j = seen.get(r.code)
        if j is None:
            seen[r.code] = k
            continue
        # One name at two places: where one of the two reads is clean and sure and the other
        # not, the other is its card's loose second index or a misread, and withdrawn alone,
        # as a fine-cut name is against any other; two clean, sure reads within half a card
        # are the two indices of one card. Else both go.
        first = kept[j]
        one_card = _sure(first) and _sure(r) and float(np.hypot(*(first.center - r.center))) < (
            ONE_CARD * min(first.width, r.width))
        if _weight(first) != _weight(r) or one_card:
            loser = k if one_card or _weight(first) > _weight(r) else j
            kept[loser] = dataclasses.replace(kept[loser], code=None, note="duplicate")
            seen[r.code] = j + k - loser
        else:
            kept[j] = dataclasses.replace(first, code=None, note="duplicate")
            kept[k] = dataclasses.replace(r, code=None, note="duplicate")
    return kept


def _sure(r: _Read) -> bool:
    """Whether a read fits its classes closely and surely (``CLEAN``, ``SURE``): in the
    bench's frames no misread index has."""
    return r.code is not None and r.fit < CLEAN and r.odds >= SURE


def _weight(r: _Read) -> int:
    """How far a read is trusted against another of its name: sure, plain, fine-cut only."""
    return 2 if _sure(r) else 0 if r.settled else 1


def _neighbours(a: _Read, b: _Read, apart: float) -> bool:
    """Whether two differently named reads closer than ``CLASH`` are two cards of a spread
    (the centres an index gives err by up to a tenth of a card, a spread's step is at least a
    quarter): both fit their classes closely and surely, and their centres are not those of
    one card. In the bench's frames a misread index fits its class loosely (``fit`` 0.2 and
    over) or barely beats the runner-up (``odds`` under ``SURE``) when it fits closely; a
    name read twice is still withdrawn as a duplicate."""
    if b.note == "conflict" or apart < SAME:
        return False
    return (_sure(a) and _sure(b)) or _stepped(a, b)


def _stepped(a: _Read, b: _Read) -> bool:
    """Whether two reads' indices lie as a spread lays two cards: turned alike, the same
    size, level, and a step apart (``STEP``) across the cards; both read closely enough
    (``STEP_FIT``) and neither by the fine cut alone. The centres an index gives may err by
    a tenth of a card; where the indices themselves lie does not."""
    width = min(a.width, b.width)
    if (a.settled or b.settled or max(a.fit, b.fit) >= STEP_FIT
            or abs(a.width - b.width) >= SIZE_ALIKE * width):
        return False
    for anchor, right, down in a.indices:
        for other, _, other_down in b.indices:
            d = (other - anchor) / width
            if (float(down @ other_down) > TURNED_ALIKE
                    and STEP[0] <= abs(float(d @ right)) <= STEP[1]
                    and abs(float(d @ down)) <= LEVEL):
                return True
    return False
