"""The reads of one frame made into one read per card (``merge``), and what they agree on.

A read is one candidate index named (or not) by the reader, with the card it implies.
Reads implying a card size unlike the frame's other cards are withdrawn (``like_sizes``);
both indices of one card merge by the centre each predicts; two names for one card and one
name at two places are withdrawn; two names a spread's step apart, each read cleanly and
surely (``CLEAN``, ``SURE``) or with their indices laid as a spread lays them
(``stepped``), are two cards. A read only the fine cut named (``settled``) or only its place
in a spread (``in_step``) is the weakest. An unsure read that is one of two cards, the other
read elsewhere, is named the one left (``eliminate``): a deck holds each card once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
SIZE_SPREAD = 1.2  # how much larger one card may look than the median card of a frame
ODD_SIZE = "odd size"  # the note of a read withdrawn for the size of card it implies
SAME, CLASH = 0.12, 0.2  # card widths between the centres two reads give (see merge)
# A name read at a card's place at least OUTVOTE times more than another is the card's
# (``outvoted``): three reads of a four-corner card's indices against one, not two against
# one (a card's top-left index, and a neighbour's read twice, may lie so close).
OUTVOTE = 2
# Two names closer than CLASH are two cards only when both reads fit this closely (``fit``)
# and are this sure (``odds``); see _neighbours.
CLEAN, SURE = 0.15, 20.0
# Two indices a spread's step apart (see stepped), in card widths: across the cards, level
# within LEVEL; turned alike (the cosine of the angle between them), of sizes within
# SIZE_ALIKE; each read no looser than STEP_FIT.
STEP, LEVEL, TURNED_ALIKE, SIZE_ALIKE, STEP_FIT = (0.2, 0.5), 0.06, 0.985, 0.08, 0.3
# A read at an empty place beside a named card (``stepped`` with ``beside``: the reader's
# second look) is read surely there already, and is held to a fit of BESIDE_FIT and a level
# of BESIDE_LEVEL: a covered index cut by the edge of the card on top fits loosely, and its
# centroid shifts. The limits lie just short of the nearest wrong reads (figures in
# ``docs/benchmarks.md``).
BESIDE_FIT, BESIDE_LEVEL = 0.4, 0.065
ONE_CARD = 0.5  # card widths within which two sure reads of one name are one card


@dataclass(frozen=True)
class Read:
    """One index read: its name (``None`` when unsure) and the card it implies (centre,
    right and down unit vectors, width in pixels)."""

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
    settled: bool = False  # named only by the fine cut (``verdict.settle``): weaker than sure
    # The name of an unsure read that is sure but loose, or that the fine cut names fairly
    # surely (``naming.IN_STEP_FIT``, ``verdict.IN_STEP_ODDS``): given where its index lies as
    # a spread lays it beside a named card's (``in_step``).
    guess: str | None = None
    in_step: bool = False  # named so: as weak as a settled read
    # An unsure read's two likely names, when it is surely one of them (``naming.PAIR_FIT``):
    # named the one not read elsewhere, as weakly as in step (``eliminate``).
    pair: tuple[str, str] | None = None
    # Each index read of the card: its suit's centroid (where the index itself lies) and its
    # right and down; two when both indices of a card were read.
    indices: tuple[tuple[F64, F64, F64], ...] = ()
    # Read from a candidate holding a part of a split mark (``ink.find_groups``): where it
    # ends unnamed it is no card (``reader.CardReader.read``).
    split: bool = False
    # Read as the "0" of a ten with its suit (``codes.TEN_PART``) as surely as a card is
    # named: the ten it is a part of (``tens``). It names no card itself.
    ten: str | None = None

    @property
    def weak(self) -> bool:
        """Named by a second test (``settled``, ``in_step``), not plainly: it yields to any
        other name at its place."""
        return self.settled or self.in_step


def but(r: Read, **changes: Any) -> Read:
    """``r`` with ``changes``: the read ``dataclasses.replace`` makes, in 3.4 us rather than
    5.9 (some twenty a frame)."""
    fields = dict(r.__dict__)
    fields.update(changes)
    return Read(**fields)


def moved(r: Read, m: F64) -> Read:
    """A read made in a band, in the frame's pixels (``m``: the band's affine map)."""
    a, t = m[:, :2], m[:, 2]
    return but(
        r, center=a @ r.center + t, right=a @ r.right, down=a @ r.down,
        indices=tuple((a @ p + t, a @ u, a @ v) for p, u, v in r.indices))


def placed(reads: list[Read], found: list[Read]) -> list[Read]:
    """``reads`` with those ``found`` at empty places (the reader's second look) that fill
    one: the surest first, each of a name not read yet and no nearer than ``CLASH`` to a
    named read; unnamed reads at the places filled are dropped."""
    codes = {r.code for r in reads if r.code is not None}
    new: list[Read] = []
    for n in sorted(found, key=lambda n: -n.odds):
        if n.code is None or n.code in codes or any(
                _apart(n, o) < CLASH for o in reads + new if o.code is not None):
            continue
        new.append(n)
        codes.add(n.code)
    return [r for r in reads if r.code is not None
            or all(_apart(n, r) >= CLASH for n in new)] + new


def outvoted(reads: list[Read]) -> list[Read]:
    """``reads`` with each named read withdrawn ("outvoted") where another name is read
    at least ``OUTVOTE`` times more than its own within ``SAME`` of its card's centre: a
    card on top shows two indices, or four (``corners``), each read apart, and one of them
    misread (a club taken for a spade, a diamond for a heart) would otherwise withdraw the
    whole card as two names at one place (``merge``). Closer votes stay in conflict."""
    named = [k for k, r in enumerate(reads) if r.code is not None]
    if len(named) <= OUTVOTE:
        return reads
    centres = np.array([reads[k].center for k in named], np.float64)
    widths = np.array([reads[k].width for k in named], np.float64)
    near = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) < (
        SAME * np.minimum(widths[:, None], widths[None, :]))
    codes = [reads[k].code for k in named]
    names = np.array(codes)
    out = list(reads)
    for i in np.flatnonzero((near & (names[:, None] != names[None, :])).any(axis=1)).tolist():
        k = named[i]
        votes = Counter(codes[j] for j in np.flatnonzero(near[i]).tolist())
        own = votes.pop(codes[i])
        if votes and max(votes.values()) >= own + OUTVOTE:
            out[k] = but(reads[k], code=None, guess=None, pair=None, note="outvoted")
    return out


def _apart(a: Read, b: Read) -> float:
    """How far apart the centres of two reads' cards are, in the smaller card's widths."""
    return float(np.hypot(*(a.center - b.center))) / min(a.width, b.width)


def tens(reads: list[Read]) -> list[Read]:
    """``reads`` with each named read that is not sure (``_sure``) withdrawn ("conflict")
    where a ten's "0" read as surely as a card is named (``Read.ten``) implies a card within
    ``CLASH`` of its own and another name: the other index of a ten whose "1" and "0" blur
    into one mark (a faint ten lying across the camera) may pass for another rank, and its
    "0", read apart, says which card lies there. A sure read stands: in the bench's frames
    no misread index is sure."""
    parts = [r for r in reads if r.ten is not None]
    if not parts:
        return reads
    return [but(r, code=None, guess=None, pair=None, note="conflict")
            if r.code is not None and not _sure(r) and any(
                p.ten != r.code and _apart(r, p) < CLASH for p in parts) else r
            for r in reads]


def like_sizes(reads: list[Read], widths: tuple[float, float]) -> list[Read]:
    """Reads of cards of a size no card on this table has are withdrawn (named) or dropped.

    All cards of a deck are one size, so the widths the reads imply agree within what the
    camera's perspective allows (``SIZE_SPREAD``); a read far from the median of the sure
    reads (``_sure``; of all named reads when none is sure), or outside ``widths``, came
    from something that only looks like an index.
    """
    typical = table_width([r.width for r in reads], np.array([_sure(r) for r in reads], np.bool_),
                          np.array([r.code is not None for r in reads], np.bool_))
    kept = []
    for r in reads:
        odd = not widths[0] <= r.width <= widths[1] or (
            typical is not None and not 1 / SIZE_SPREAD <= r.width / typical <= SIZE_SPREAD)
        if not odd:
            kept.append(r)
        elif r.code is not None:
            kept.append(but(r, code=None, note=ODD_SIZE))
    return kept


def table_width(widths: NDArray[np.float64] | Sequence[float], sure: NDArray[np.bool_],
                named: NDArray[np.bool_]) -> float | None:
    """The width in pixels of this table's cards, from the widths of its reads: the median
    of the ``sure`` reads' (``_sure``), else of the ``named`` reads' where there are three
    or more, else not known. Clean, sure reads set the size when there are any: pips a
    card's width apart can pass for an index of a card twice the size, and in a frame of
    few cards outnumber them."""
    w = np.asarray(widths, np.float64)
    if sure.any():
        return float(np.median(w[sure]))
    return float(np.median(w[named])) if int(named.sum()) >= 3 else None


def merge(reads: list[Read]) -> list[Read]:
    """One read per card: the two indices of a card and repeated reads merge; a code read at
    two places is withdrawn at both (a frame never shows one card twice); a name outvoted at
    a card's place (``outvoted``) is withdrawn before."""
    reads = sorted(outvoted(reads), key=lambda r: (r.code is None, -r.score))
    if not reads:
        return []
    centres = np.array([r.center for r in reads])
    widths = np.array([r.width for r in reads])
    apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) / (
        np.minimum(widths[:, None], widths[None, :]))
    kept: list[Read] = []
    slot: list[int] = []  # the read each kept one came from
    for i, r in enumerate(reads):
        # Reads of one card agree on its centre (within SAME); two cards of a spread lie at
        # least a step apart, so two different names closer than CLASH are one card, and
        # once a place is in conflict no later name settles it.
        row = apart[i].tolist()  # a list's floats index quicker than the array's
        near = [k for k, j in enumerate(slot) if row[j] < CLASH]
        twin = next((k for k in near if row[slot[k]] < SAME), None)
        rivals = [k for k in near if r.code is not None and (
            kept[k].code not in (None, r.code) or kept[k].note == "conflict")
            and not _neighbours(r, kept[k], row[slot[k]])]
        if r.weak and rivals:
            continue  # a weak name (fine cut only, or in step) yields to any other here
        for k in [k for k in rivals if kept[k].weak]:
            rivals.remove(k)
            kept[k] = but(kept[k], code=None, note="outvoted")
            if k == twin:
                kept[k], slot[k] = r, i
        if twin is not None and kept[twin] is r:
            continue
        for k in rivals:
            kept[k] = but(kept[k], code=None, note="conflict")
        if twin is None and not rivals:
            kept.append(r)
            slot.append(i)
        elif twin is not None and r.code is not None and kept[twin].code == r.code:
            # One card read twice: it keeps the stronger read (a name the fine cut alone gave
            # counts as much as the plain read that agrees with it) and both indices.
            stronger = r if _weight(r) > _weight(kept[twin]) else kept[twin]
            kept[twin] = but(stronger, both=True,
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
        # as a fine-cut name is against any other, unless it was read at both its card's
        # indices; two clean, sure reads within half a card are the two indices of one card.
        # Else both go.
        first = kept[j]
        one_card = _sure(first) and _sure(r) and float(np.hypot(*(first.center - r.center))) < (
            ONE_CARD * min(first.width, r.width))
        if _weight(first) != _weight(r) or one_card:
            loser = k if one_card or _weight(first) > _weight(r) else j
            winner = j + k - loser
            if kept[loser].both and not kept[winner].both and not one_card:
                # Read at both its card's indices alike, it is no misread to be withdrawn
                # alone for one read elsewhere, however sure: neither is trusted.
                kept[winner] = but(kept[winner], code=None, note="duplicate")
            kept[loser] = but(kept[loser], code=None, note="duplicate")
            seen[r.code] = winner
        else:
            kept[j] = but(first, code=None, note="duplicate")
            kept[k] = but(r, code=None, note="duplicate")
    return kept


def _sure(r: Read) -> bool:
    """Whether a read fits its classes closely and surely (``CLEAN``, ``SURE``): in the
    bench's frames no misread index has."""
    return r.code is not None and r.fit < CLEAN and r.odds >= SURE


def _weight(r: Read) -> int:
    """How far a read is trusted against another of its name: sure, plain, weak."""
    return 2 if _sure(r) else 0 if r.weak else 1


def _neighbours(a: Read, b: Read, apart: float) -> bool:
    """Whether two differently named reads closer than ``CLASH`` are two cards of a spread
    (the centres an index gives err by up to a tenth of a card, a spread's step is at least a
    quarter): both fit their classes closely and surely, and their centres are not those of
    one card. In the bench's frames a misread index fits its class loosely (``fit`` 0.2 and
    over) or barely beats the runner-up (``odds`` under ``SURE``) when it fits closely; a
    name read twice is still withdrawn as a duplicate."""
    if b.note == "conflict" or apart < SAME:
        return False
    return (_sure(a) and _sure(b)) or stepped(a, b)


def in_step(reads: list[Read]) -> list[Read]:
    """``reads`` with each unsure read that has a ``guess`` named so where its index lies as
    a spread lays it (``laid``) beside the index of a card named plainly (neither settled nor
    in step itself). A covered card's index may be cut by the edge of the card on top, and
    its read is then sure but loose; a pip or a picture read as an index seldom lies level
    with a card's index and a step from it."""
    plain = [r for r in reads if r.code is not None and not r.weak]
    return [but(r, code=r.guess, note=None, guess=None, in_step=True)
            if r.guess is not None and any(laid(r, b) for b in plain) else r for r in reads]


def stepped(a: Read, b: Read, beside: bool = False) -> bool:
    """Whether two reads' indices lie as a spread lays two cards: turned alike, the same
    size, level, and a step apart (``STEP``) across the cards; both read closely enough
    (``STEP_FIT``) and neither named weakly (``Read.weak``). The centres an index gives may err by
    a tenth of a card; where the indices themselves lie does not. ``beside``: ``b`` is the
    card a place was sought beside (``_second_look``), named already, and only ``a`` need be
    read closely, as far as ``BESIDE_FIT`` and ``BESIDE_LEVEL`` allow."""
    if a.weak or b.weak:
        return False
    if beside:
        return a.fit < BESIDE_FIT and laid(a, b, BESIDE_LEVEL)
    return max(a.fit, b.fit) < STEP_FIT and laid(a, b)


def laid(a: Read, b: Read, level: float = LEVEL, step: tuple[float, float] = STEP,
         not_at: float | None = None) -> bool:
    """Whether two reads' indices lie as a spread lays two cards (see ``stepped``), however
    closely they were read; ``level``: how far one may lie above the other, ``step``: how far
    apart along the row, and ``not_at``: a distance along it they may not lie at (within
    ``SAME``), all in card widths."""
    width = min(a.width, b.width)
    if abs(a.width - b.width) >= SIZE_ALIKE * width:
        return False
    for anchor, right, down in a.indices:
        for other, _, other_down in b.indices:
            d = (other - anchor) / width
            across = abs(float(d @ right))
            if (float(down @ other_down) > TURNED_ALIKE
                    and step[0] <= across <= step[1]
                    and (not_at is None or abs(across - not_at) >= SAME)
                    and abs(float(d @ down)) <= level):
                return True
    return False


def eliminate(reads: list[Read]) -> list[Read]:
    """``reads`` with each unsure read that is surely one of two cards (``Read.pair``) named
    the one of them read nowhere, where the other is named plainly (not weakly) elsewhere:
    a deck holds each card once. The index of a covered card cut by the edge of the card on
    top is often read so (a "6" or an "8" whose right side is hidden; a club or a spade cut
    in half), and the other card lies elsewhere on the table. The read is named only where
    its index lies as a spread lays it beside a card named plainly (``laid``, as in
    ``in_step``), no nearer than ``CLASH`` to a named read (a read there is that card's index
    again, or a card in conflict with it; names given here count), and as weakly as in step;
    each name is given once."""
    plain = [r for r in reads if r.code is not None and not r.weak]
    gone = {r.code for r in plain}
    named = [r for r in reads if r.code is not None]
    codes = {r.code for r in named}
    out: list[Read] = []
    for r in reads:
        if r.code is None and r.note == "unsure" and r.pair is not None:
            left = [c for c in r.pair if c not in codes]
            if (len(left) == 1 and set(r.pair) - set(left) <= gone
                    and any(laid(r, b) for b in plain)
                    and all(_apart(r, o) >= CLASH for o in named)):
                r = but(r, code=left[0], note=None, in_step=True, pair=None)
                named.append(r)
                codes.add(left[0])
        out.append(r)
    return out
