"""The felt: the ground the cards lie on, told apart from the ink printed on the cards.

What is not paper (``ink.dark_and_paper``) is the felt and the ink of the cards alike, and
the two touch: a pip or a picture touching a card's edge line is tied to the felt by it (so
the cards mask of ``ink.masks``, paper outlines filled, leaves such marks out). Opened with
a square ``OPEN`` pixels wide, at half size, the thin lines break and the marks stand
apart; the parts left that reach the frame's border are the felt, less those not of the
felt's own colour (``FELT_CHROMA``): a court's picture printed to its card's edge reaches the
felt through the edge line, and is no felt. A card read where it would lie on the felt is no
card (``reader``). Cards read right hardly ever lie on this
felt, where many lie outside the cards mask of ``ink.masks``, so it is the one to test
against (figures in ``docs/benchmarks.md``).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from .channels import brightest, darkest
from .measure import reaching_border

Image = NDArray[np.uint8]

SHRINK = 2  # found at this fraction of the frame's size (half: four times fewer pixels)
OPEN = 4  # pixels at that size: wider than a card's edge line, narrower than the felt between
# Paper is white, whatever the light: its darkest channel is at least GREY of its brightest
# (``ground.PAPER_GREY``, the same measure; the cards' paper measures 0.82 and more in real
# photographs and renders). A table as light as the cards' paper, a pale wood or laminate,
# is paper by brightness alone (``ink.dark_and_paper``); by its colour it is not, and it is
# the felt here.
GREY = 0.75


# ``_at_least`` rounds ``GREY * v + CEIL`` to the least whole number not below ``GREY * v``:
# GREY is three quarters, so the product's fraction is a whole number of quarters; CEIL, just
# short of a half, lifts a quarter (and more) past the half-way mark and leaves a whole product
# where it is (every pair of channels checked, ``tests/vision/test_cards_felt.py``).
CEIL = 0.495
# The felt is also of the felt's own colour: the parts of the frame's ground whose Lab a or b
# (8-bit) differs from the ground's median by more than this are no felt. A court's
# picture printed to its card's edge touches the felt through the edge line and would
# otherwise be taken for felt with it; the felt's own shading, shadows and grain stay within
# this of its median.
FELT_CHROMA = 24.0
# Colour is told at a quarter of the frame's size (``COARSE`` times the felt's shrinking),
# its median over every other row and column: the felt is broad and even, and a court's
# picture many pixels wide at that size.
COARSE = 2
SAMPLE = 2


def _at_least(brightest: Image) -> Image:
    """The least darkest channel that is ``GREY`` of ``brightest`` (uint8): ``GREY *
    brightest`` rounded up, by one OpenCV pass over 8-bit planes (the same test as in
    float32 planes, at a quarter of the cost)."""
    return np.asarray(cv2.convertScaleAbs(brightest, alpha=GREY, beta=CEIL), np.uint8)


def _felt_coloured(seen: Image, felt: Image) -> Image:
    """255 where the colour of ``seen`` (BGR), shrunk ``COARSE`` times more, has Lab's a and b
    each within ``FELT_CHROMA`` of their median over the pixels ``felt`` (non-zero) of every
    ``SAMPLE``-th row and column of it, 0 elsewhere; at the size of ``seen``."""
    h, w = felt.shape
    small = (max(w // COARSE, 1), max(h // COARSE, 1))
    lab = np.asarray(cv2.cvtColor(cv2.resize(seen, small, interpolation=cv2.INTER_AREA),
                                  cv2.COLOR_BGR2Lab), np.uint8)
    ground = np.asarray(cv2.resize(felt, small, interpolation=cv2.INTER_NEAREST), np.uint8)
    sample = lab[::SAMPLE, ::SAMPLE][ground[::SAMPLE, ::SAMPLE] > 0]
    if len(sample) == 0:
        return np.full(felt.shape, 255, np.uint8)
    centre = np.median(sample[:, 1:], axis=0)
    # Whole bounds, so that inRange's test is |value - median| <= FELT_CHROMA exactly.
    lo = np.ceil(centre - FELT_CHROMA).tolist()
    hi = np.floor(centre + FELT_CHROMA).tolist()
    near = cv2.inRange(lab, (0.0, *lo), (255.0, *hi))
    return np.asarray(cv2.resize(near, (w, h), interpolation=cv2.INTER_NEAREST), np.uint8)


class Felt:
    """Where the felt (or whatever table the cards lie on) shows in a frame, from its paper
    mask (``ink.dark_and_paper``) and, given the ``frame``, the paper's colour (``GREY``)."""

    def __init__(self, paper: Image, frame: Image | None = None) -> None:
        h, w = paper.shape
        self._size = (w, h)
        shrunk = (max(w // SHRINK, 1), max(h // SHRINK, 1))
        small = cv2.resize(paper, shrunk, interpolation=cv2.INTER_NEAREST)
        if frame is not None:
            seen = np.asarray(cv2.resize(frame, shrunk, interpolation=cv2.INTER_AREA), np.uint8)
            grey = cv2.compare(darkest(seen), _at_least(brightest(seen)), cv2.CMP_GE)
            small = cv2.bitwise_and(small, grey)
        wide = np.asarray(cv2.morphologyEx(cv2.bitwise_not(small), cv2.MORPH_OPEN,
                                           np.ones((OPEN, OPEN), np.uint8)), np.uint8)
        # The parts of ``wide`` (4-connected) that reach the border, found by runs in one
        # compiled pass, cheaper than OpenCV's labels and a lookup.
        felt = reaching_border(wide)
        if frame is not None and felt.any():
            wide = np.asarray(cv2.bitwise_and(felt, _felt_coloured(seen, felt)), np.uint8)
            felt = reaching_border(wide)
        self._felt = felt.view(np.bool_)

    def share(self, points: NDArray[np.float64], outside: bool | NDArray[np.bool_]
              ) -> NDArray[np.float64]:
        """The share of each card's points (N x P x 2, frame x and y) where the felt shows;
        ``outside``: the answer for points out of the frame (one for all, or one per card)."""
        n, p = points.shape[:2]
        off = self.under(points[..., 0].ravel(), points[..., 1].ravel(),
                         np.repeat(np.broadcast_to(np.asarray(outside, np.bool_), (n,)), p))
        out: NDArray[np.float64] = off.reshape(n, p).mean(axis=1)
        return out

    def under(self, x: NDArray[np.float64], y: NDArray[np.float64],
              outside: bool | NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Whether the felt shows at frame points (``x``, ``y``); ``outside``: the answer for
        points out of the frame (one for all, or one per point)."""
        w, h = self._size
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        out = np.broadcast_to(np.asarray(outside, np.bool_), x.shape).copy()
        sh, sw = self._felt.shape
        col = np.minimum((x[inside] / SHRINK).astype(np.int64), sw - 1)
        row = np.minimum((y[inside] / SHRINK).astype(np.int64), sh - 1)
        out[inside] = self._felt[row, col]
        return out
