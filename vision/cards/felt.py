"""The felt: the ground the cards lie on, told apart from the ink printed on the cards.

What is not paper (``ink.dark_and_paper``) is the felt and the ink of the cards alike, and
the two touch: a pip or a picture touching a card's edge line is tied to the felt by it (so
the cards mask of ``ink.masks``, paper outlines filled, leaves such marks out). Opened with
a square ``OPEN`` pixels wide, at half size, the thin lines break and the marks stand
apart; the parts left that reach the frame's border are the felt, less those not of the
felt's own colour (``FELT_CHROMA``): a court's picture printed to its card's edge reaches the
felt through the edge line, and is no felt; nor, on a dark felt, is what is nearer the
paper's lightness than the felt's (``LIGHT_SHARE``, ``DARK_FELT``): a card tinted in its
light. A table as pale and as grey as paper (a light wood) is paper by those tests; where
the felt so found covers little of the frame's border (``BORDER_FOUND``), the paper must be
as grey as the frame's own (``paper_grey``). A card read where it would lie on the felt is
no card (``reader``). Cards read right hardly ever lie on this felt, where many lie outside
the cards mask of ``ink.masks``, so it is the one to test against (figures in
``docs/benchmarks.md``).
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
# ... and, where the frame's paper is whiter, within PAPER_SPREAD of its own: the paper the
# frame's paper mask shows at its PAPER_QUANTILE (the cards' paper, the most neutral large
# surface of a frame, whatever share of it a pale table takes) less this. In the bench's
# real-light renders, 95 % of the cards' paper (shading and cast included) lies within 0.1
# of the paper at that quantile, and a pale wood's grain about 0.18 below it or more; this
# lies between, nearer the wood, for paper whose cast differs from card to card
# (``docs/benchmarks.md``).
PAPER_QUANTILE, PAPER_SPREAD = 0.9, 0.15
# That paper's own level is used only where the felt found by ``GREY`` covers less of the
# frame's border than this: the camera sees the table all about the layout's edges, and
# cards laid there hide a little of it; in frames where the felt is found, the paper's level
# would turn paper tinted unevenly, or shaded under glare, into felt.
BORDER_FOUND = 0.5


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
# ... and no lighter than LIGHT_SHARE of the way from the felt's median lightness (Lab L) to
# the paper's (its PAPER_QUANTILE over the paper mask): nearer the felt's than the paper's.
# A card photographed in tinted light can fail the paper's grey test (``GREY``); reaching
# the felt through its edge line, and of the felt's colour where the felt is of low chroma,
# it was felt, though as light as paper. The felt's own shading keeps nearer its median.
# Only a dark felt is so held, its median lightness at most DARK_FELT of the paper's (a
# cloth: the bench's felts measure 0.23-0.46, its wooden tables 0.65-0.7): a wooden table's
# light grain, lit unevenly, reaches nearer the paper's lightness than its median.
LIGHT_SHARE, DARK_FELT = 0.5, 0.5
# Colour is told at a quarter of the frame's size (``COARSE`` times the felt's shrinking),
# its median over every other row and column: the felt is broad and even, and a court's
# picture many pixels wide at that size.
COARSE = 2
SAMPLE = 2


def _at_least(brightest: Image, grey: float = GREY) -> Image:
    """The least darkest channel that is ``grey`` of ``brightest`` (uint8): ``grey *
    brightest`` rounded up, by one OpenCV pass over 8-bit planes (for ``GREY``, the same
    test as in float32 planes, at a quarter of the cost; for another level, a product less
    than ``0.5 - CEIL`` past a whole number is rounded down, not up: a level the paper's own
    histogram gave is no finer than that)."""
    return np.asarray(cv2.convertScaleAbs(brightest, alpha=grey, beta=CEIL), np.uint8)


def paper_grey(low: Image, high: Image, paper: Image) -> float:
    """How grey the frame's paper must be (``GREY``, ``PAPER_SPREAD``): from the darkest
    and brightest channels ``low`` and ``high`` and the paper mask ``paper``, all of one
    size."""
    ratio = cv2.divide(low, np.maximum(high, 1), scale=255.0)
    counts = cv2.calcHist([ratio], [0], paper, [256], [0, 256]).ravel()
    if counts.sum() == 0:
        return GREY
    at = int(np.searchsorted(np.cumsum(counts), PAPER_QUANTILE * counts.sum()))
    return max(GREY, at / 255.0 - PAPER_SPREAD)


def _felt_coloured(seen: Image, felt: Image, paper: Image) -> Image:
    """255 where the colour of ``seen`` (BGR), shrunk ``COARSE`` times more, has Lab's a and b
    each within ``FELT_CHROMA`` of their median over the pixels ``felt`` (non-zero) of every
    ``SAMPLE``-th row and column of it, and, where that median L is at most ``DARK_FELT`` of
    the ``paper`` mask's (``PAPER_QUANTILE``), its L no more than ``LIGHT_SHARE`` of the way
    from the one to the other, 0 elsewhere; at the size of ``seen``."""
    h, w = felt.shape
    small = (max(w // COARSE, 1), max(h // COARSE, 1))
    lab = np.asarray(cv2.cvtColor(cv2.resize(seen, small, interpolation=cv2.INTER_AREA),
                                  cv2.COLOR_BGR2Lab), np.uint8)
    every = lab[::SAMPLE, ::SAMPLE]
    ground = np.asarray(cv2.resize(felt, small, interpolation=cv2.INTER_NEAREST), np.uint8)
    sample = every[ground[::SAMPLE, ::SAMPLE] > 0]
    if len(sample) == 0:
        return np.full(felt.shape, 255, np.uint8)
    centre = np.median(sample, axis=0)
    white = np.asarray(cv2.resize(paper, small, interpolation=cv2.INTER_NEAREST), np.uint8)
    lit = every[..., 0][white[::SAMPLE, ::SAMPLE] > 0]
    light = 255.0
    if len(lit):
        paper_light = float(np.quantile(lit, PAPER_QUANTILE))
        if centre[0] <= DARK_FELT * paper_light:
            light = float(np.floor(centre[0] + LIGHT_SHARE * (paper_light - centre[0])))
    # Whole bounds, so that inRange's test is |value - median| <= FELT_CHROMA exactly.
    lo = np.ceil(centre[1:] - FELT_CHROMA).tolist()
    hi = np.floor(centre[1:] + FELT_CHROMA).tolist()
    near = cv2.inRange(lab, (0.0, *lo), (light, *hi))
    return np.asarray(cv2.resize(near, (w, h), interpolation=cv2.INTER_NEAREST), np.uint8)


def _ground(paper: Image) -> Image:
    """255 where no ``paper`` (at the felt's size) shows, opened by ``OPEN``, in the parts
    that reach the border (4-connected, found by runs in one compiled pass, cheaper than
    OpenCV's labels and a lookup)."""
    return reaching_border(np.asarray(cv2.morphologyEx(
        cv2.bitwise_not(paper), cv2.MORPH_OPEN, np.ones((OPEN, OPEN), np.uint8)), np.uint8))


def _grey_paper(paper: Image, low: Image, least: Image) -> Image:
    """``paper`` where the darkest channel ``low`` is at least ``least``."""
    return np.asarray(cv2.bitwise_and(paper, cv2.compare(low, least, cv2.CMP_GE)), np.uint8)


def _edge_share(felt: Image) -> float:
    """The share of the border's pixels (each once) that ``felt`` (non-zero) covers."""
    edge = np.concatenate([felt[0], felt[-1], felt[1:-1, 0], felt[1:-1, -1]])
    return float(np.count_nonzero(edge)) / max(len(edge), 1)


class Felt:
    """Where the felt (or whatever table the cards lie on) shows in a frame, from its paper
    mask (``ink.dark_and_paper``) and, given the ``frame``, the paper's colour (``GREY``)."""

    def __init__(self, paper: Image, frame: Image | None = None) -> None:
        h, w = paper.shape
        self._size = (w, h)
        shrunk = (max(w // SHRINK, 1), max(h // SHRINK, 1))
        small = np.asarray(cv2.resize(paper, shrunk, interpolation=cv2.INTER_NEAREST), np.uint8)
        if frame is None:
            self._felt = _ground(small).view(np.bool_)
            return
        seen = np.asarray(cv2.resize(frame, shrunk, interpolation=cv2.INTER_AREA), np.uint8)
        low, high = darkest(seen), brightest(seen)
        felt = _ground(_grey_paper(small, low, _at_least(high)))
        if _edge_share(felt) < BORDER_FOUND:
            # A table as pale and grey as paper: told from the frame's own paper instead.
            felt = _ground(_grey_paper(small, low, _at_least(high, paper_grey(low, high, small))))
        if felt.any():
            felt = reaching_border(np.asarray(
                cv2.bitwise_and(felt, _felt_coloured(seen, felt, small)), np.uint8))
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
