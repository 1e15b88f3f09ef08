"""Ink on white: the marks printed on cards, grouped into candidate corner indices.

A card's corner index is a rank glyph over a suit pip, printed close together and apart from
the rest of the face. The frame's darkest channel is compared with the local white level, so
black, red, blue and green ink all show and uneven light cancels out; only ink inside a
card's paper counts, and a glyph tied to the felt by the edge line of a card on top counts
by its core. Marks are connected components (a mark lost in a hairline frame is cut
free by opening); ``link`` joins them into groups and offers each group and its plausible
parts as candidates. Every candidate gets its centroid, principal axis and spread from
pixel moments, all computed at once with numpy.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

from .link import LINK, candidates, link_marks, shape
from .measure import clear_reaching, filled, label, opened

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]

INK_RATIO = 0.78  # ink is darker than this fraction of the local white
WHITE_MIN = 70  # local white below this is not a card (felt, shadow)
# A glyph's core is darker than CORE_RATIO of the white; a card's edge line and its shadow
# are not (``masks``: glyphs tied to the felt). It finds covered cards whose index touches
# the edge of the card on top, mostly in the bold styles; the ratio is not critical between
# 0.4 and 0.5 (figures in ``docs/benchmarks.md``).
CORE_RATIO = 0.45
# Thin strokes are sharpened before the ink threshold (``_tones``): the darkest channel plus
# ``Limits.sharpen`` times its difference from itself blurred by SHARPEN_SIGMA pixels (an
# unsharp mask). Blur leaves a stroke a pixel or so wide only 0.66-0.90 as dark as the paper,
# so the threshold keeps fragments of it; sharpening darkens the stroke and lightens the gap
# beside it, so it restores the stroke without joining it to the next glyph (growing the ink
# into fainter pixels joined rank and suit). Each deck learns whether it needs it
# (``calibrate.choose_sharpen``).
SHARPEN_SIGMA = 1.0


@dataclass(frozen=True)
class Limits:
    """Sizes in pixels a mark and a group may have (they bound the card sizes seen), and how
    groups are formed."""

    mark_min: int = 3  # smallest mark height
    mark_max: int = 90  # largest mark height or width
    area_min: int = 4
    group_marks: int = 3  # most marks in an index: "1", "0" and the suit
    group_size: int = 6  # most marks in a group whose subsets are tried
    link: float = LINK  # each deck learns its own (``calibrate.choose_link``)
    sharpen: float = 0.0  # unsharp amount before the ink threshold (``calibrate.choose_sharpen``)
    elongation: tuple[float, float] = (1.25, 7.0)


class MarkMap(NamedTuple):
    """The mark each pixel of a frame shows: its connected component (``labels``) looked up
    in ``lut`` (an index into the frame's marks, -1 for none, the background's label 0
    included). Looked up only where patches sample it (``patch._marks_at``), not over the
    whole frame, most of which no patch reads."""

    labels: NDArray[np.int32]
    lut: NDArray[np.int16]


@dataclass(frozen=True)
class Groups:
    """Candidate indices: per group its centroid (x, y), axis angle in radians (the long
    axis, modulo pi, measured from the image x axis), spread along and across the long axis
    (standard deviations in pixels), ink pixel count and number of marks, and ``ends``
    (N x 2 x 2 x 2): for each sense of the axis (0: as ``theta`` points, 1: turned), the
    centroid (x, y) of the rank (every mark but the last along the axis) and of the suit
    (the last mark); ``parent`` ties variants of one set of marks together."""

    cx: F64
    cy: F64
    theta: F64
    major: F64
    minor: F64
    pixels: F64
    marks: NDArray[np.int64]
    ends: F64
    parent: NDArray[np.int64]  # groups with one parent are variants of one set of marks
    variant: NDArray[np.bool_]  # a part of a larger group of marks
    members: NDArray[np.int64]  # (N x k) the marks of each group, -1 beyond them
    # The mark each pixel of the frame shows, so that a group's patches keep only its own
    # ink (``patch``); None with more marks than an int16 holds.
    mark_map: MarkMap | None = None

    def __len__(self) -> int:
        return len(self.cx)

    def take(self, keep: NDArray[np.bool_] | NDArray[np.int64]) -> Groups:
        """The groups selected by a mask or index array."""
        return Groups(self.cx[keep], self.cy[keep], self.theta[keep], self.major[keep],
                      self.minor[keep], self.pixels[keep], self.marks[keep], self.ends[keep],
                      self.parent[keep], self.variant[keep], self.members[keep], self.mark_map)


class Masks(NamedTuple):
    """A frame's masks (255 where true): ``ink`` (``ink_mask``), ``cards`` (every patch of
    paper, its holes filled: the ink is cut from it) and ``paper`` (``dark_and_paper``)."""

    ink: Image
    cards: Image
    paper: Image


def ink_mask(frame: Image, white_window: int = 15, tied: bool = True,
             sharpen: float = 0.0) -> Image:
    """255 where a pixel is ink: darker than ``INK_RATIO`` of its neighbourhood's white,
    and inside a card (a patch of paper with its holes filled), so the felt is never ink;
    ``tied``: glyphs tied to the felt by a card's edge line too (see ``masks``); ``sharpen``:
    see ``SHARPEN_SIGMA``."""
    return masks(frame, white_window, tied, sharpen).ink


def masks(frame: Image, white_window: int = 15, tied: bool = True,
          sharpen: float = 0.0) -> Masks:
    """The ink mask (``ink_mask``), the cards mask it is cut from (255 inside every patch
    of paper, its holes filled: ink, pictures, but not marks tied to the felt by a card's
    edge line) and the paper mask.

    A glyph that touches the edge line of a card on top (or its shadow) is tied by it to the
    felt, so it is no hole in the paper. Such a glyph's core (darker than ``CORE_RATIO`` of
    the white, which edge lines and shadows are not) is a hole in the paper taken with the
    fainter dark: that core, grown by a pixel into the dark around it, is ink too.
    """
    dark, core, lit = _tones(frame, white_window, sharpen)
    paper = _unmarked(lit, dark)
    inside = filled(paper)
    if not tied:
        return Masks(np.asarray(cv2.bitwise_and(dark, inside), np.uint8), inside, paper)
    # The cores outside the cards mask, cleared where they lie in a gap of the paper taken
    # with the fainter dark that reaches the border (``clear_reaching``), grown by a pixel.
    cores = np.asarray(cv2.bitwise_and(core, cv2.bitwise_not(inside)), np.uint8)
    clear_reaching(_unmarked(lit, core), cores)
    grown = cv2.dilate(cores, np.ones((3, 3), np.uint8))
    ink = cv2.bitwise_and(dark, cv2.bitwise_or(inside, grown))
    return Masks(np.asarray(ink, np.uint8), inside, paper)


def dark_and_paper(frame: Image, white_window: int = 15, sharpen: float = 0.0
                   ) -> tuple[Image, Image]:
    """255 where a pixel is dark (its darkest channel, sharpened by ``sharpen``, below
    ``INK_RATIO`` of the white level around it), and where it is paper (lit, ``WHITE_MIN``,
    and not dark)."""
    dark, _, lit = _tones(frame, white_window, sharpen)
    return dark, _unmarked(lit, dark)


def _unmarked(lit: Image, dark: Image) -> Image:
    """Paper: lit and not ``dark``."""
    return np.asarray(cv2.bitwise_and(cv2.bitwise_not(dark), lit), np.uint8)


def _tones(frame: Image, white_window: int, sharpen: float = 0.0
           ) -> tuple[Image, Image, Image]:
    """Dark (``INK_RATIO``, of the darkest channel sharpened by ``sharpen``: see
    ``SHARPEN_SIGMA``), core (``CORE_RATIO``) and lit (``WHITE_MIN``) masks, by OpenCV: the
    darkest channel, its white level (dilated by a ``white_window`` square, then averaged
    over it), the unsharp mask, the scaled whites and the compares."""
    blue, green, red = cv2.split(frame)  # contiguous planes: quicker than strided views
    low = cv2.min(cv2.min(blue, green), red)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (white_window, white_window))
    white = np.asarray(cv2.blur(cv2.dilate(low, kernel), (white_window, white_window)), np.uint8)
    sharp = low if sharpen <= 0 else cv2.addWeighted(
        low, 1.0 + sharpen, cv2.GaussianBlur(low, (0, 0), SHARPEN_SIGMA), -sharpen, 0.0)
    dark = cv2.compare(sharp, _scaled(white, INK_RATIO), cv2.CMP_LT)
    core = cv2.compare(low, _scaled(white, CORE_RATIO), cv2.CMP_LT)
    lit = cv2.threshold(low, WHITE_MIN, 255, cv2.THRESH_BINARY)[1]
    return np.asarray(dark, np.uint8), np.asarray(core, np.uint8), np.asarray(lit, np.uint8)


# ``_scaled`` rounds ``ratio * v - FLOOR`` to floor ``ratio * v``: the ratios are hundredths,
# so the fraction of a product is a whole number of hundredths, and FLOOR, short of a half by
# less than one, rounds a whole product down to itself.
FLOOR = 0.495


def _scaled(image: Image, ratio: float) -> Image:
    """``ratio`` (0..1, in hundredths) of each pixel of ``image``, rounded down: as a table
    looked up (``cv2.LUT``) would give it, more cheaply than the look-up."""
    return np.asarray(cv2.convertScaleAbs(image, alpha=ratio, beta=-FLOOR), np.uint8)


def find_groups(frame: Image, limits: Limits | None = None, ink: Image | None = None
                ) -> Groups:
    """The candidate corner indices in a BGR frame (whose ``ink_mask`` may be given; by
    default it is found as ``limits`` say, sharpened or not)."""
    limits = limits or Limits()
    mask = ink_mask(frame, sharpen=limits.sharpen) if ink is None else ink
    count, labels, measures = label(mask)
    stats = measures.stats
    big = np.flatnonzero((stats[:, 2] > limits.mark_max) | (stats[:, 3] > limits.mark_max))
    big = big[big > 0]
    first = count
    if len(big):
        # A mark touching a hairline (a picture frame, a card's edge) is lost in one large
        # component: open the large components only, which cuts hairlines and keeps solid
        # marks. The pieces are "cut" marks: they may join a mark above or below, not each
        # other.
        count, measures = opened(labels, measures, big)
        stats = measures.stats
    cut = np.arange(count) >= first
    x, y, w, h, area = (stats[:, i] for i in range(5))
    keep = (
        (h >= limits.mark_min) & (h <= limits.mark_max) & (w <= limits.mark_max)
        & (area >= limits.area_min)
    )
    keep[0] = False
    marks = np.flatnonzero(keep)
    if len(marks) == 0:
        return _empty()
    m = measures.moments[marks]
    links = link_marks(x[marks], y[marks], w[marks], h[marks], cut[marks], m, limits.link)
    members, owners, parent = candidates(links, limits.group_size)
    groups = _aggregate(m, members, owners, len(parent), parent)
    groups = dataclasses.replace(groups, members=_padded(members, owners, len(parent)),
                                 mark_map=_mark_map(labels, marks, count))
    elong = groups.major / np.maximum(groups.minor, 1e-6)
    ok = (
        (groups.marks >= 2) & (groups.marks <= limits.group_marks)
        & (elong >= limits.elongation[0]) & (elong <= limits.elongation[1])
        & (groups.major >= limits.mark_min * 0.6)
    )
    return groups.take(ok)


def _mark_map(labels: NDArray[np.int32], marks: NDArray[np.int64], count: int
              ) -> MarkMap | None:
    """The mark (an index into ``marks``) each pixel shows, -1 for none; None where there
    are more marks than an int16 holds (a frame of noise, not of cards)."""
    if len(marks) > np.iinfo(np.int16).max:
        return None
    lut = np.full(count, -1, np.int16)
    lut[marks] = np.arange(len(marks))
    return MarkMap(labels, lut)


def _padded(members: NDArray[np.int64], owners: NDArray[np.int64], count: int
            ) -> NDArray[np.int64]:
    """Each candidate's marks as one row of ``Groups.members`` (-1 beyond its marks), in
    the order ``members`` lists them."""
    sizes = np.bincount(owners, minlength=count)
    out = np.full((count, max(int(sizes.max()) if count else 1, 1)), -1, np.int64)
    _fill_rows(members, owners, out)
    return out


@numba.njit(cache=True, nogil=True)
def _fill_rows(members, owners, out):  # type: ignore[no-untyped-def]
    used = np.zeros(len(out), np.int64)
    for i in range(len(members)):
        g = owners[i]
        out[g, used[g]] = members[i]
        used[g] += 1


def _aggregate(m: F64, members: NDArray[np.int64], owners: NDArray[np.int64], ngroups: int,
               parent: NDArray[np.int64]) -> Groups:
    """Groups made of marks ``members`` (each in group ``owners``), from mark moments."""
    sums = _sums(m, members, owners, ngroups)
    n, mx, my, theta, major, minor = shape(sums)
    nmarks = np.bincount(owners, minlength=ngroups)
    # numpy's cos and sin, per group: the same values as numpy gives them per member.
    ends = _ends(m, members, owners, sums, mx, my, np.cos(theta), np.sin(theta))
    return Groups(mx, my, theta, major, minor, n, nmarks, ends, parent,
                  np.arange(ngroups) != parent, np.zeros((ngroups, 0), np.int64))


def _sums(m: F64, members: NDArray[np.int64], owners: NDArray[np.int64], ngroups: int
          ) -> F64:
    """Each group's moments: its members' summed (``np.bincount``, in the order ``members``
    lists them)."""
    sums = np.zeros((ngroups, 6))
    for k in range(6):
        sums[:, k] = np.bincount(owners, m[members, k], minlength=ngroups)
    return sums


@numba.njit(cache=True, nogil=True)
def _ends(m, members, owners, sums, mx, my, cos, sin):  # type: ignore[no-untyped-def]
    """Rank and suit centroids of each group, for both senses of its axis (``Groups.ends``):
    the suit is the member lying last along the axis (sense 0: ties to the last listed) or
    first (sense 1: ties to the first listed), the rank the other members together."""
    ngroups = len(mx)
    low = np.full(ngroups, np.inf)
    high = np.full(ngroups, -np.inf)
    first = np.zeros(ngroups, np.int64)
    last = np.zeros(ngroups, np.int64)
    for i in range(len(members)):
        g, k = owners[i], members[i]
        n = max(m[k, 0], 1.0)
        proj = (m[k, 1] / n - mx[g]) * cos[g] + (m[k, 2] / n - my[g]) * sin[g]
        if proj < low[g]:
            low[g], first[g] = proj, k
        if proj >= high[g]:
            high[g], last[g] = proj, k
    ends = np.zeros((ngroups, 2, 2, 2))
    for g in range(ngroups):
        for sense in range(2):
            suit = last[g] if sense == 0 else first[g]
            rest_n = max(sums[g, 0] - m[suit, 0], 1.0)
            n = max(m[suit, 0], 1.0)
            for xy in range(2):
                ends[g, sense, 0, xy] = (sums[g, 1 + xy] - m[suit, 1 + xy]) / rest_n
                ends[g, sense, 1, xy] = m[suit, 1 + xy] / n
    return ends


def _empty() -> Groups:
    z = np.zeros(0)
    zi = np.zeros(0, np.int64)
    return Groups(z, z, z, z, z, z, zi, np.zeros((0, 2, 2, 2)), zi, np.zeros(0, np.bool_),
                  np.zeros((0, 1), np.int64))
