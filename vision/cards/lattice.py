"""Whether a read's index lies in a repeating pattern: a card back's lattice.

A card's back is printed with a lattice of small marks (diamonds, squares), each one of a
size with an index's suit, and now and then a few of them pass for an index. A real index
has few marks like its suit near it: the indices of the cards fanned beside it, a rank
glyph; a card's pips are larger. About a lattice's read lie dozens of marks of its suit
mark's size and shape. ``repeated`` counts them, for the reads ``CardReader`` suspects
(named, but not surely and cleanly); a read in a lattice is withdrawn.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from .reads import CLEAN, SURE, Read, but

Image = NDArray[np.uint8]
LATTICE = "lattice"  # the note of a read withdrawn for lying in a lattice (``withdrawn``)

# How far about a read's suit (card widths) the marks like it are counted: half a card
# holds dozens of a back's lattice cells, and of a real index's surroundings mostly the
# indices of the cards fanned beside it (a spread's step is a fifth to a half of a card).
REACH = 0.5
# A mark is like the suit where its area and its box's longer side are each within ALIKE
# times the suit's (either way): a lattice's cells are one size, and blur merges a few.
# Counting every mark no larger than the suit instead counted up to 24 about the right reads
# of the hold-out decks' real scenes, as many as about some lattices' reads.
ALIKE = 1.6
# A read is in a lattice where REPEATS or more marks like its suit lie within REACH of it:
# about the right reads of the photographed table (seed 0) and of four hold-out decks'
# real scenes (10 frames each) lay at most 9, about the back's lattice read as a Qd and a
# 4d 72 and more (``docs/benchmarks.md``, stop 43): twice the most of a real index, a
# third of the lattice's.
REPEATS = 20


def withdrawn(ink: Image, reads: list[Read]) -> list[Read]:
    """``reads`` with each read that names (or may name) a card but not surely and cleanly
    (``reads.SURE``, ``reads.CLEAN``) withdrawn, noted ``LATTICE``, where ``REPEATS`` or
    more marks like its suit lie about it (``repeated``): its index is a piece of a
    repeating pattern. A sure and clean read is never a lattice's, and is not looked at."""
    rows = [k for k, r in enumerate(reads)
            if (r.code is not None or r.guess is not None or r.pair is not None)
            and not (r.odds >= SURE and r.fit < CLEAN)]
    if not rows:
        return reads
    out = list(reads)
    for k, n in zip(rows, repeated(ink, [reads[k] for k in rows]).tolist(), strict=True):
        if n >= REPEATS:
            out[k] = but(reads[k], code=None, guess=None, pair=None, note=LATTICE)
    return out


def repeated(ink: Image, reads: Sequence[Read]) -> NDArray[np.int64]:
    """For each read, how many marks of the ``ink`` mask (255 where ink) like its suit's
    mark (``ALIKE``) lie within ``REACH`` of its suit's centroid, the suit's own not
    counted; 0 for a read with no index or no mark at its suit."""
    out = np.zeros(len(reads), np.int64)
    h, w = ink.shape[:2]
    for k, r in enumerate(reads):
        if not r.indices:
            continue
        (cx, cy), reach = r.indices[0][0], REACH * r.width
        x0, y0 = max(int(cx - reach), 0), max(int(cy - reach), 0)
        x1, y1 = min(int(cx + reach) + 1, w), min(int(cy + reach) + 1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        n, labels, stats, centres = cv2.connectedComponentsWithStats(
            np.ascontiguousarray(ink[y0:y1, x0:x1]), connectivity=8)
        if n <= 1:
            continue
        px, py = cx - x0, cy - y0
        near = np.hypot(centres[1:, 0] - px, centres[1:, 1] - py)
        at = labels[min(max(int(py + 0.5), 0), y1 - y0 - 1), min(max(int(px + 0.5), 0),
                                                                  x1 - x0 - 1)]
        suit = int(at) if at > 0 else 1 + int(np.argmin(near))
        area = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
        side = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]).astype(
            np.float64)
        a, s = area[suit - 1], side[suit - 1]
        like = ((area * ALIKE >= a) & (area <= a * ALIKE) & (side * ALIKE >= s)
                & (side <= s * ALIKE) & (near <= reach))
        out[k] = int(like.sum()) - 1
    return out
