"""An index's rank and suit parted at their waist: the deeper ink of a mark shaped like an
index, one piece, cut across where it narrows between its glyphs (``ink.Limits.waists``);
``parting.parts`` then offers the halves as the mark split.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

from .link import shape as moments_shape
from .measure import label
from .parting import holders, markish

if TYPE_CHECKING:
    from .ink import Limits

Image = NDArray[np.uint8]


# An index's rank and suit blurred into one mark whose neck is as dark as ink (Aguilar's 6h
# turned, the heart's point touching the top of the "6"; Dondorf's small clubs) keep their deep
# ink in one piece, and a rank's strokes are thinner than ``parting.necks`` keeps: they are parted
# where the mark narrows along its length instead (``waists``). Only a mark shaped like an
# index is measured: its deep ink's spread along its principal axis WAIST_ELONGATION times
# its spread across (pixel moments). Rank over suit is 2-3.5 times as long as wide, a lone
# glyph 1.2-1.7 (a "1", long and thin, 4 or more, has no second glyph to part): 1.8 leaves
# the lone glyphs out with a margin, 4.0 the long strokes and hairlines.
WAIST_ELONGATION = (1.8, 4.0)
# The waist is looked for in the middle of the mark's length, WAIST_BAND of it from either
# end: a rank takes about half an index's length, its suit the rest, and a glyph's own
# narrowings near the ends (a serif, a pip's point, a stroke's tail) are not a join.
WAIST_BAND = 0.3
# A waist parts the mark where its cross-section (deep pixels per pixel of length, over the
# two rows of the band cleared) is at most WAIST_SHARE of the widest cross-section on each
# side: a neck of a pixel or two between glyphs 5-10 wide. A glyph's own narrowing (a "2"'s
# diagonal, a "6"'s ring, two strokes across) keeps over half the width of its widest part.
WAIST_SHARE = 0.45
# Each side keeps at least WAIST_AREA of the deep ink: a suit beside its rank is a third or
# more of an index's ink; a smaller side is a glyph's tail, not a glyph.
WAIST_AREA = 0.2
# One side at least is a suit's solid body: it holds deep ink the erosion by a disk of
# WAIST_SOLID pixels' radius keeps (an index suit on the table camera's cards is 2-4 deep,
# a rank's stroke 1-2: ``parting.PIP_DEPTH``). A rank's own waist (an "8"'s or a "3"'s middle, a
# "6"'s stem over its bowl, between strokes as wide as the sides' widest rows) parts two
# halves of strokes, neither solid, and is left whole.
WAIST_SOLID = 2
# A piece shorter than WAIST_LENGTH pixels along its axis has no room for two glyphs of a
# mark's least height (``Limits.mark_min``, 3) beside the band of two pixels cleared.
WAIST_LENGTH = 6
_WAIST_DISK = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * WAIST_SOLID + 1,) * 2)


def waists(labels: NDArray[np.int32], stats: NDArray[np.int32], deep: Image, limits: Limits
           ) -> Image:
    """The ``deep`` ink cut across the waist of each mark shaped like an index
    (``WAIST_ELONGATION``) whose deep ink is one piece of a mark's size: per ink mark
    (``labels``, boxed by ``stats``) of a mark's size (``markish``) holding one such piece,
    the narrowest cross-section of that piece along its principal axis within its middle
    (``WAIST_BAND``), two pixels long, is cleared where it is narrow beside the glyph on
    each side (``WAIST_SHARE``, ``WAIST_AREA``). A band two pixels long parts the halves
    even on a slant (an 8-connected step moves at most 1.42 pixels along the axis);
    ``parting.parts`` then offers them as the mark split."""
    _, image, measures = label(deep)
    holder = holders(labels, image, measures.stats)
    sized = markish(measures.stats, limits)
    sized[0] = False
    ink_sized = markish(stats, limits)
    ink_sized[0] = False
    n = np.bincount(holder[sized], minlength=len(stats))
    one = sized & (n[holder] == 1) & ink_sized[holder]
    if not one.any():
        return deep
    _, mx, my, theta, major, minor = moments_shape(measures.moments)
    elong = major / np.maximum(minor, 1e-6)
    chosen = np.flatnonzero(one & (elong >= WAIST_ELONGATION[0])
                            & (elong <= WAIST_ELONGATION[1]))
    if len(chosen) == 0:
        return deep
    out = deep.copy()
    solid = np.asarray(cv2.erode(deep, _WAIST_DISK), np.uint8)
    _cut_waists(image, measures.stats, chosen, mx, my, np.cos(theta), np.sin(theta), solid,
                out)
    return out


@numba.njit(cache=True, nogil=True)
def _cut_waists(image, stats, chosen, mx, my, cos, sin, solid, out):  # type: ignore[no-untyped-def]
    """Clear in ``out`` the waist of each ``chosen`` component of ``image`` (labels,
    statistics ``stats``, centroids ``mx``, ``my``, axes ``cos``, ``sin``): ``waists``."""
    for d in chosen:
        x0, y0, w, h = stats[d, 0], stats[d, 1], stats[d, 2], stats[d, 3]
        # Each pixel's place along the axis, once: -inf where the piece is not.
        along = np.full((h, w), -np.inf)
        lo, hi = np.inf, -np.inf
        for y in range(y0, y0 + h):
            for x in range(x0, x0 + w):
                if image[y, x] == d:
                    t = (x - mx[d]) * cos[d] + (y - my[d]) * sin[d]
                    along[y - y0, x - x0] = t
                    lo, hi = min(lo, t), max(hi, t)
        bins = int(hi - lo) + 1
        if bins < WAIST_LENGTH:
            continue
        # Each pixel's bin (-1 where the piece is not) and the piece's width in each bin.
        bin_of = np.full((h, w), -1, np.int64)
        width = np.zeros(bins, np.int64)
        for v in range(h):
            for u in range(w):
                if along[v, u] > -np.inf:
                    b = int(along[v, u] - lo)
                    bin_of[v, u] = b
                    width[b] += 1
        total = width.sum()
        first = max(int(WAIST_BAND * bins), 1)
        last = min(int((1.0 - WAIST_BAND) * bins), bins - 2)
        best, at = np.inf, -1
        for b in range(first, last):
            pair = (width[b] + width[b + 1]) / 2.0
            if pair < best:
                best, at = pair, b
        if at < 0:
            continue
        below = width[:at].max()
        above = width[at + 2:].max()
        if best > WAIST_SHARE * min(below, above):
            continue
        if (width[:at].sum() < WAIST_AREA * total
                or width[at + 2:].sum() < WAIST_AREA * total):
            continue
        body = False
        for v in range(h):
            for u in range(w):
                b = bin_of[v, u]
                if b >= 0 and solid[y0 + v, x0 + u] and (b < at or b > at + 1):
                    body = True
        if not body:
            continue
        for v in range(h):
            for u in range(w):
                if bin_of[v, u] == at or bin_of[v, u] == at + 1:
                    out[y0 + v, x0 + u] = 0
