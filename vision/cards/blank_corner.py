"""The blank index corner of a face found by its strip (``strips``), and the deck's index box.

A face without an index is named only where it shows a blank index corner (``blank``: the
deck's ``index_box``, where every other face prints ink), so a card whose index went unread
is not taken for it. A joker that shows ink there itself (``blank_face``: a star, a circled
star, the word JOKER) cannot be confirmed so; it is named by its own mark there instead
(``corner_marks``).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from .band import SLOT, WIDTH, Box, soft_grey

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]

# The box (x0, x1, y0, y1, card widths from the top-left corner) that a face found by its
# strip must show blank, as every other face prints ink there. ``CORNER`` was set by eye on
# the tuning artwork (inside every one of its indices) and is kept for calibrations made
# before the box was learned; a calibration learns its deck's (``index_box``).
CORNER = (0.075, 0.2, 0.075, 0.22)
# ``index_box``: the box covers the index, from above its rank (half the rank-to-suit
# length above the rank's centroid) down to its suit's centroid, and from the card's edge
# (``EDGE_CLEAR``) rightwards as far as the faces found by their strip stay blank in it, up to
# REACH_RIGHT past the suit's centroid but not past ``SLOT``'s nearest step (a covered card
# shows no more of itself; beyond it lie the card on top's edge and shadow: two covered jokers
# went unread with the box reaching 0.255), and no less than HALF_WIDTH past the centroid.
# The suit's pip is solid about its centroid in every standard suit, and a rank's strokes cross
# the column above it, so an index leaves ink even in the narrowest box; the wider box also
# catches an index when the strip places a card a few pixels off (a blurred 2c's strip placed
# 3 band pixels left of its index read blank in the narrowest box and passed for the joker).
HALF_WIDTH, REACH_RIGHT, RIGHT_STEP = 0.03, 0.12, 0.01
# The box keeps this far in from the card's left and top edges (3 band pixels): nearer, the
# felt beyond the edge, softened by the lens and the band's blur, darkens the paper below
# ``INK`` (a covered joker's box 2 pixels in read 0.78 of its paper).
EDGE_CLEAR = 0.075
# ``blank_face``: a strip face must be blank in the box grown by this much each way, as a
# card found by its strip is placed to within about a band pixel (1 / ``WIDTH``).
PLACED = 1 / 40
INK = 0.88  # darker than this fraction of the paper is ink (a thin glyph, blurred, is 0.8)


def blank(grey: F32, left: int, top: int, box: Box) -> bool:
    """Whether a card with its left edge at column ``left`` and top at row ``top`` of a band
    has blank paper in ``box`` (``index_box``), where every other face prints its index, and
    bright paper about it."""
    x0, x1, y0, y1 = (round(f * WIDTH) for f in box)
    corner = grey[max(top + y0, 0):max(top + max(y1, y0 + 1), 1),
                  max(left + x0, 0):max(left + max(x1, x0 + 1), 1)]
    paper = grey[max(top, 0):top + round(0.8 * WIDTH), max(left, 0):left + round(0.3 * WIDTH)]
    if corner.size == 0 or paper.size == 0:
        return False
    white = float(np.percentile(paper, 90))
    return white > 60 and float(corner.min()) > INK * white


def index_box(offsets: F32, lengths: F32, aspect: float, clear: Sequence[Image] = ()
              ) -> tuple[Box, list[int]]:
    """The box of a deck's cards where every face printing a corner index has ink (see
    ``HALF_WIDTH``), in card widths from the top-left corner, as wide as the faces ``clear``
    (clean upright images of the faces found by their strip) leave blank, and the indices of
    those faces that show ink even in the narrowest (``blank_face``). ``offsets``,
    ``lengths``: the deck's, card centre from suit centroid and rank to suit, card widths."""
    suit_x = 0.5 - float(np.median(offsets[:, 0]))
    suit_y = aspect / 2 - float(np.median(offsets[:, 1]))
    length = float(np.median(lengths))
    top = max(suit_y - 1.5 * length, EDGE_CLEAR)
    x0 = max(suit_x - HALF_WIDTH, EDGE_CLEAR)
    least = max(suit_x + HALF_WIDTH, x0 + HALF_WIDTH)
    greys = [_face_grey(face) for face in clear]  # once each, for every width tried
    for right in np.arange(min(suit_x + REACH_RIGHT, SLOT[0]), least, -RIGHT_STEP):
        box = (x0, float(right), top, suit_y)
        if all(_blank_grown(grey, box) for grey in greys):
            return box, []
    box = (x0, least, top, suit_y)
    return box, [k for k, grey in enumerate(greys) if not _blank_grown(grey, box)]


def blank_face(face: Image, box: Box) -> bool:
    """Whether ``face`` (a clean upright face image) shows blank paper in ``box`` grown by
    ``PLACED`` each way, at the band's scale: a face without an index that shows ink there
    (a joker with a star or a word in its corner) cannot be told from a card whose index
    went unread."""
    return _blank_grown(_face_grey(face), box)


def _face_grey(face: Image) -> F32:
    """A clean face at the band's scale, as ``band`` softens it."""
    height = round(WIDTH * face.shape[0] / face.shape[1])
    return soft_grey(np.asarray(cv2.resize(face, (WIDTH, height), interpolation=cv2.INTER_AREA),
                                np.uint8))


def _blank_grown(grey: F32, box: Box) -> bool:
    """``blank`` of a face's grey (``_face_grey``) in ``box`` grown by ``PLACED``."""
    x0, x1, y0, y1 = box
    return blank(grey, 0, 0, (x0 - PLACED, x1 + PLACED, y0 - PLACED, y1 + PLACED))
