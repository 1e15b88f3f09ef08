"""Which top corner an index read is, for a deck that prints its index at all four corners.

The reader takes every index for a card's top-left one (or its half-turned copy at the
bottom right), so the card's body lies to the index's right. A deck that prints the index
at the other top corner too (``Deck.twin``; and so, turned, at the other bottom one) shows
indices whose card lies to their left: taken for top-left ones they imply a card most of a
card's width beside the true one, over a neighbour of a spread (named wrongly there), or
over the felt. Each read is therefore either "as read" (the top-left corner's, ``AS_READ``)
or "the other corner's" (``OTHER``), its card moved back by the twin's offset, and is placed
by, in turn:

- the votes of the reads of its name: the reads of one card agree on its centre each as the
  corner it is, so the centre that most reads of a name give (one way or the other) is the
  card's, where no other centre is given by as many (``_votes``). A whole card on top shows
  four indices, all agreeing as the corners they are, while only two agree at either wrong
  place;
- the twin: two reads of one name, turned alike and level, the twin's offset apart across,
  are one card's two top corners, the left one the top-left's (``_twins``). The votes ask
  their centres to agree within ``SAME``, which a read's width measured a tenth short or
  long breaks;
- the felt: where one of the two cards lies on cards and the other not (``on_cards``);
- the spread: two indices in a row of a spread (``_in_row``: turned alike, level, a step or
  two apart) are both the corner of one kind, as a spread shows the same corner of each
  card (``_spread``);
- the card's own edge (``edge_sides``): beside an index, at the side its card does not lie,
  runs the card's edge, a line darker than the paper (its shadow, the felt or the card
  beneath), where the same distance on the other side is the card's own paper (not the
  edge of a card lying on it).

A read placed by none of these is left as read when it names nothing, and else is withdrawn
(note ``CORNER``): a covered card's strip shows an upright index at one end and a turned one
at the other, which is just what the other side of a card turned half round shows; inside a
spread both places lie on cards, and each read of the card agrees with the other's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numba
import numpy as np
from numpy.typing import NDArray

from .ground import tones_about
from .reads import SAME, SIZE_ALIKE, TURNED_ALIKE, Read, but, laid

F64 = NDArray[np.float64]
Image = NDArray[np.uint8]
# Two indices lie in a row of a spread (``_in_row``) when turned alike (``reads``), of like
# size, level within ROW_LEVEL card widths and ROW_STEP apart across: a spread's step or two
# (a card between them may go unread; a card's own jitter tilts one index against the
# next), but not as far apart as one card's two top corners (within ``SAME`` of the twin's
# offset), which are of the two kinds. With ``reads.laid``'s limits (a step of at most half
# a card, level within 0.06) rows broke at an unread card and at a tilted one: Bonded's
# reads withdrawn for want of a side fell from 14 to 3 in 10 frames (seed 2026) with these,
# none named wrongly (ROW_LEVEL is ``slots.LEVEL``).
ROW_LEVEL, ROW_STEP = 0.15, (0.2, 1.0)
# Two reads of one name are one card's two top corners (``_twins``) where they lie within
# TWIN_SLACK card widths across of the twin's offset (each read's width, so each offset, is
# measured to a tenth or so; a spread's step is three tenths or more) and level within
# ROW_LEVEL: a deck holds each card once.
TWIN_SLACK = 0.2
# Where a card's edge would lie beside its index (``edge_sides``), the darkest channel is
# sampled EDGE_ACROSS card widths either side of the line (its place is known to a read's
# width and its name's median offset: narrower, Bonded's sides were told less surely) and
# at EDGE_DOWN along it (over the rank and suit, as ``ground.INDEX``); each column's median
# over the rows makes a profile across the line, and its darkest point measures the line,
# over the paper (the brightest quarter of both places' points). One place is the card's
# edge where it is darker than the other by EDGE_MARGIN, and the other is paper, at least
# EDGE_PAPER: a covered card's strip is often about twice as wide as its index lies from
# its edge, so the edge of the card on it lies at the other place, as dark as its own
# (the photographed single cards' covered tens and kings were so placed on the wrong side).
# ``docs/benchmarks.md``, stop 55.
EDGE_ACROSS = np.linspace(-0.04, 0.04, 9)
EDGE_DOWN = np.linspace(-0.2, 0.05, 6)
EDGE = tuple(a.ravel() for a in np.meshgrid(EDGE_ACROSS, EDGE_DOWN))  # row by row
EDGE_MARGIN, EDGE_PAPER = 0.2, 0.85
AS_READ, OTHER, UNKNOWN = 1, -1, 0
CORNER = "which corner"  # the note of a named read withdrawn for want of a side


def other(r: Read, twin: tuple[float, float]) -> Read:
    """``r`` taken for the other top corner's index: its card moved back by the ``twin``
    offset (card widths across and down, from the top-left index to the other)."""
    shift = r.width * (twin[0] * r.right + twin[1] * r.down)
    return but(r, center=r.center - shift)


def place(reads: list[Read], twin: tuple[float, float],
          on_cards: Callable[[Sequence[Read]], NDArray[np.bool_]],
          edge: Callable[[Sequence[Read]], NDArray[np.int64]] | None = None) -> list[Read]:
    """``reads`` each placed as the corner it is (see the module): moved where it is the
    other corner's, withdrawn (or stripped of its guess and pair) where it is named and no
    side is told. ``on_cards``: whether the card each read implies lies on cards; ``edge``:
    the side each read's card's edge tells (``edge_sides``), asked of the reads that name
    or may name a card and that nothing else has placed."""
    if not reads or twin == (0.0, 0.0):
        return reads
    centre = np.array([r.center for r in reads], np.float64)
    width = np.array([r.width for r in reads], np.float64)
    shift = width[:, None] * (twin[0] * np.array([r.right for r in reads], np.float64)
                              + twin[1] * np.array([r.down for r in reads], np.float64))
    side = _twins(reads, _votes([r.code for r in reads], centre, centre - shift, width), twin)
    open_ = np.flatnonzero(side == UNKNOWN)
    if len(open_):
        here = on_cards([reads[k] for k in open_.tolist()])
        there = on_cards([but(reads[k], center=centre[k] - shift[k]) for k in open_.tolist()])
        side[open_[here & ~there]] = AS_READ
        side[open_[there & ~here]] = OTHER
    side = _spread(reads, side, twin)
    open_ = np.flatnonzero((side == UNKNOWN) & np.array(
        [not (r.code is None and r.guess is None and r.pair is None) for r in reads]))
    if len(open_) and edge is not None:
        side[open_] = edge([reads[k] for k in open_.tolist()])
        side = _spread(reads, side, twin)
    out = []
    for k, (r, s) in enumerate(zip(reads, side.tolist(), strict=True)):
        if s == OTHER:
            out.append(but(r, center=centre[k] - shift[k]))
        elif s == AS_READ or (r.code is None and r.guess is None and r.pair is None):
            out.append(r)
        elif r.code is not None:
            out.append(but(r, code=None, guess=None, pair=None, note=CORNER))
        else:
            out.append(but(r, guess=None, pair=None))
    return out


def edge_sides(frame: Image, reads: Sequence[Read], places: F64) -> NDArray[np.int64]:
    """The side each read takes by its card's edge (see ``EDGE_MARGIN``): ``AS_READ`` where
    the line is darker at ``places[k, 0]`` and paper at ``places[k, 1]``, ``OTHER`` the
    other way round (card widths along the read's right from its suit's centroid, where the
    card's edge lies as each corner), ``UNKNOWN`` where neither is so. ``frame``: BGR, or
    grey (``ground.tones_at``)."""
    side = np.zeros(len(reads), np.int64)
    if not reads:
        return side
    where = np.array([r.indices[0] for r in reads], np.float64)  # (N, anchor/right/down, xy)
    width = np.array([r.width for r in reads], np.float64)
    # Each place's band of points about its own anchor: the suit's centroid moved along the
    # read's right to where the edge would lie.
    low = np.stack([tones_about(frame, _moved(where, width, places[:, k]), width, EDGE)[0]
                    for k in range(2)], axis=1).astype(np.float64)  # (N, 2, points)
    low = low.reshape(len(reads), 2, len(EDGE_DOWN), len(EDGE_ACROSS))  # rows, columns
    paper = np.maximum(np.percentile(low.reshape(len(reads), -1), 75, axis=1), 1.0)
    line = np.median(low, axis=2).min(axis=2) / paper[:, None]  # (N, 2)
    lean = line[:, 1] - line[:, 0]  # the read's own place the darker: as read
    side[(lean >= EDGE_MARGIN) & (line[:, 1] >= EDGE_PAPER)] = AS_READ
    side[(lean <= -EDGE_MARGIN) & (line[:, 0] >= EDGE_PAPER)] = OTHER
    return side


def _moved(where: F64, width: F64, across: F64) -> F64:
    """Indices ``where`` (N x (anchor, right, down) x xy) with their anchors moved ``across``
    card widths (N) along their right."""
    out = where.copy()
    out[:, 0] += (width * across)[:, None] * where[:, 1]
    return out


def follow(n: Read, beside: Read, twin: tuple[float, float]) -> Read:
    """``n``, read beside a card already placed (the reader's second look), taken for the
    corner that card's index in a row with it is (``_in_row``): the other corner's where
    that index's card lies to its left."""
    if twin == (0.0, 0.0):
        return n
    for anchor, right, down in beside.indices:
        one = but(beside, indices=((anchor, right, down),))
        if _in_row(n, one, twin):
            return other(n, twin) if float((beside.center - anchor) @ right) < 0 else n
    return n


def _votes(codes: Sequence[str | None], centre: F64, moved: F64, width: F64
           ) -> NDArray[np.int64]:
    """The side each named read (of ``codes``) takes by the votes of the reads of its name
    (see the module), from each read's card centre as read and ``moved`` (as the other
    corner's); ``UNKNOWN`` where two centres tie, as for a name read once."""
    by_code: dict[str, list[int]] = {}
    for k, code in enumerate(codes):
        if code is not None:
            by_code.setdefault(code, []).append(k)
    named = [rows for rows in by_code.values() if len(rows) >= 2]  # one read: a tie
    side = np.zeros(len(codes), np.int64)
    if named:
        rows = np.array([k for r in named for k in r], np.int64)
        starts = np.cumsum([0] + [len(r) for r in named], dtype=np.int64)
        _vote(rows, starts, np.ascontiguousarray(centre, np.float64),
              np.ascontiguousarray(moved, np.float64), np.ascontiguousarray(width, np.float64),
              side)
    return side


@numba.njit(cache=True, nogil=True)
def _vote(rows, starts, centre, moved, width, side):  # type: ignore[no-untyped-def]
    """Into ``side``: for each name's reads (``rows[starts[g]:starts[g + 1]]``, two or
    more), the side each takes by their votes (``_votes``). Each of the name's 2n centres
    (read ``a // 2``'s, as read for even ``a``, moved for odd) counts the reads with a
    centre within ``SAME`` of the lesser width of it; the centre most count (the first so
    counted) is the card's, unless a centre ``SAME`` of the least width or more from it is
    counted as often; each read then takes the way of its first centre near that one. One
    loop for the frame's names: numpy's steps, a dozen for each name, cost more than their
    arithmetic."""
    for g in range(len(starts) - 1):
        first, n = starts[g], starts[g + 1] - starts[g]
        # near[a, j, h]: centre a agrees with read j's way h.
        near = np.zeros((2 * n, n, 2), np.bool_)
        voters = np.zeros(2 * n, np.int64)
        least = np.inf
        for j in range(n):
            least = min(least, width[rows[first + j]])
        for a in range(2 * n):
            ka = rows[first + a // 2]
            ax, ay = (centre[ka, 0], centre[ka, 1]) if a % 2 == 0 else (moved[ka, 0],
                                                                        moved[ka, 1])
            for j in range(n):
                kj = rows[first + j]
                limit = SAME * min(width[ka], width[kj])
                d0 = math.hypot(ax - centre[kj, 0], ay - centre[kj, 1]) < limit
                d1 = math.hypot(ax - moved[kj, 0], ay - moved[kj, 1]) < limit
                near[a, j, 0], near[a, j, 1] = d0, d1
                voters[a] += d0 or d1
        best = 0
        for a in range(1, 2 * n):
            if voters[a] > voters[best]:
                best = a
        kb = rows[first + best // 2]
        bx, by = (centre[kb, 0], centre[kb, 1]) if best % 2 == 0 else (moved[kb, 0],
                                                                      moved[kb, 1])
        tied = False
        for a in range(2 * n):
            ka = rows[first + a // 2]
            ax, ay = (centre[ka, 0], centre[ka, 1]) if a % 2 == 0 else (moved[ka, 0],
                                                                        moved[ka, 1])
            if math.hypot(ax - bx, ay - by) >= SAME * least and voters[a] >= voters[best]:
                tied = True
        if tied:
            continue  # two places as likely: no side by votes
        for j in range(n):
            if near[best, j, 0]:
                side[rows[first + j]] = AS_READ
            elif near[best, j, 1]:
                side[rows[first + j]] = OTHER


def _twins(reads: Sequence[Read], side: NDArray[np.int64], twin: tuple[float, float]
           ) -> NDArray[np.int64]:
    """``side`` with each pair of reads of no side that are one card's two top corners (see
    ``TWIN_SLACK``) given theirs: the left one (along its right) the top-left's."""
    side = side.copy()
    open_ = [k for k, r in enumerate(reads) if side[k] == UNKNOWN and r.code is not None]
    for i, k in enumerate(open_):
        a = reads[k]
        anchor, right, down = a.indices[0]
        for j in open_[i + 1:]:
            b = reads[j]
            if b.code != a.code or side[k] != UNKNOWN or side[j] != UNKNOWN:
                continue
            d = (b.indices[0][0] - anchor) / min(a.width, b.width)
            across = float(d @ right)
            if (float(down @ b.indices[0][2]) > TURNED_ALIKE
                    and abs(float(d @ down) - twin[1]) <= ROW_LEVEL
                    and abs(abs(across) - twin[0]) <= TWIN_SLACK):
                left, right_one = (k, j) if across > 0 else (j, k)
                side[left], side[right_one] = AS_READ, OTHER
    return side


def _spread(reads: Sequence[Read], side: NDArray[np.int64], twin: tuple[float, float]
            ) -> NDArray[np.int64]:
    """``side`` with each read of no side given the side of the reads with one lying in a
    row with it (``_in_row``; each read here has one index), where they all agree; repeated
    along the row."""
    point = np.array([r.indices[0][0] for r in reads], np.float64)
    right = np.array([r.indices[0][1] for r in reads], np.float64)
    down = np.array([r.indices[0][2] for r in reads], np.float64)
    width = np.array([r.width for r in reads], np.float64)
    least = np.minimum(width[:, None], width[None, :])
    d = (point[None, :, :] - point[:, None, :]) / least[..., None]  # (k, j, xy), k's widths
    across = np.abs(np.einsum("kjx,kx->kj", d, right))
    row = ((np.abs(width[:, None] - width[None, :]) < SIZE_ALIKE * least)
           & (down @ down.T > TURNED_ALIKE)
           & (across >= ROW_STEP[0]) & (across <= ROW_STEP[1])
           & (np.abs(across - abs(twin[0])) >= SAME)
           & (np.abs(np.einsum("kjx,kx->kj", d, down)) <= ROW_LEVEL))
    side = side.copy()
    while True:
        plain = (row & (side == AS_READ)[None, :]).any(axis=1)
        turned = (row & (side == OTHER)[None, :]).any(axis=1)
        told = (side == UNKNOWN) & (plain != turned)
        if not told.any():
            return side
        side[told] = np.where(plain[told], AS_READ, OTHER)


def _in_row(a: Read, b: Read, twin: tuple[float, float]) -> bool:
    """Whether two reads' indices lie in a row of a spread, so show the same corner of
    their cards (``ROW_LEVEL``, ``ROW_STEP``), and not as one card's two top corners lie."""
    return laid(a, b, ROW_LEVEL, ROW_STEP, not_at=abs(twin[0]))
