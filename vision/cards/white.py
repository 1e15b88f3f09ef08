"""The frame's white: a frame taken in tinted light is balanced before it is read.

The reader's tests of paper take the cards' paper for white whatever the light: the felt is
what is not near grey (``felt.GREY``), a read must imply near-grey paper
(``ground.PAPER_GREY``), and paper is lit in its darkest channel (``ink``). A camera that
does not balance its colours under warm lamps (or a cold window) shows the paper tinted,
its darkest channel well below its brightest, and then every card is taken for felt and
none is read. Such a frame is balanced first: its channels scaled so that its white, the
brightest of it, which on a card table is the cards' paper (and the lamps' glare, the
light's own colour), is grey. A frame whose white is near grey already (``NEAR_GREY``, a
little above the tests' own limit, as light falls unevenly) is read as it is, so a balanced
camera's frames are read exactly as before; one whose brightest is far from any tinted white
(``LEAST_GREY``) is read as it is too: its brightest is no paper (a coloured felt or table,
no card in view).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from .felt import GREY

Image = NDArray[np.uint8]

# The white is measured on every STEP-th pixel each way (a 64th of the pixels: a card as the
# table camera sees it, some 100 x 140 pixels, still gives some 200; the measure costs a
# tenth of the frame's time at every fourth pixel, a fiftieth here) as the median colour of
# the BRIGHTEST share of them by their brightest channel: the cards' paper covers more of a
# table's frame than that (a seven-seat deal's paper a tenth of a 1280 x 720 frame and more;
# three seats, some 0.08), so the share holds paper and glare, not the felt.
STEP = 8
BRIGHTEST = 0.02
# A white whose darkest channel is at least NEAR_GREY of its brightest is white enough for the
# tests of paper, which hold each card's paper to ``felt.GREY``: the white is the frame's
# least tinted paper, and the rest of its paper may lie a little below it where the light
# falls unevenly, so the white must clear that limit by the spread. The photographed single
# cards of one light measure 0.70-0.77 a card, the frame's white up to 0.78: left as they
# were, the more tinted cards of such frames failed the tests and went unread (about half
# that deck's misses). A balanced camera's frames (the table photos 0.84 and more) lie above
# it and are read as they are, as are most of the rendered camera's (0.86 and more; a few
# strongly cast frames, down to 0.76, are balanced now and read a card or two more right:
# ``docs/benchmarks.md``, stop 54).
NEAR_GREY = GREY + 0.05
# A white below LEAST_GREY is no paper in any light met: cards photographed under warm
# household lamps without white balance measure 0.67 and more (their paper's darkest channel
# over its brightest; frames of them, 0.67 and more); a pale wooden table as bright as the
# cards and larger, whose colour then is the frame's brightest, 0.52, and a coloured felt's
# lower still. Balanced, such a table would turn grey, and the cards blue.
LEAST_GREY = 0.6


def white(frame: Image) -> NDArray[np.float64]:
    """The frame's white (B, G, R): the median colour of its brightest pixels (``STEP``,
    ``BRIGHTEST``)."""
    small = frame[::STEP, ::STEP, :3]
    if small.size == 0:
        return np.full(3, 255.0)
    b, g, r = cv2.split(np.ascontiguousarray(small))
    high = np.asarray(cv2.max(cv2.max(b, g), r), np.uint8).ravel()
    k = int(len(high) * (1.0 - BRIGHTEST))
    cut = np.partition(high, k)[k]
    out: NDArray[np.float64] = np.median(small.reshape(-1, 3)[high >= cut], axis=0).astype(
        np.float64)
    return out


def balanced(frame: Image) -> Image:
    """``frame`` with its channels scaled so that its white is grey (its brightest channel
    kept), or ``frame`` itself where its white is grey enough or no paper (see the
    module)."""
    w = white(frame)
    top = float(w.max())
    if top <= 0.0:
        return frame
    grey = float(w.min()) / top
    if grey >= NEAR_GREY or grey < LEAST_GREY:
        return frame
    gains = np.diag(top / np.maximum(w, 1.0))  # each channel scaled alone, saturating
    out: Image = np.asarray(cv2.transform(frame[..., :3], gains), np.uint8)
    return out
