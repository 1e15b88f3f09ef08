"""Ink on white: the marks printed on cards, grouped into candidate corner indices.

A card's corner index is a rank glyph over a suit pip, printed close together and apart from
the rest of the face. The frame's darkest channel is compared with the local white level, so
black, red, blue and green ink all show and uneven light cancels out; only ink inside a
card's paper counts, and a glyph tied to the felt by the edge line of a card on top counts
by its core. Marks are connected components (a mark lost in a hairline frame is cut
free by opening); ``link`` joins them into groups and offers each group and its plausible
parts as candidates. Glyphs printed a pixel or two apart (a small index's rank and suit,
or the index and the pip or picture frame beside it) blur into one mark; a deck that
meets this often (``calibrate.SPLIT_LEAST``) also offers the candidates of such marks
split where the deeper ink parts them (``find_groups``); calibration's samples also split
them where their shape narrows between two solid glyphs (``Limits.necks``: a small index
suit touching the pip beside it, as dark as ink at the neck), and the reader parts a thin
glyph joined to a large solid pip from the pip's body (``Limits.pips``) and a rank over
its suit at the waist between them (``Limits.waists``). A glyph joined
to the card's thick printed outline is cut from it where a deck needs it (``Limits.bays``).
Every candidate gets its centroid, principal axis and spread from pixel moments, all
computed at once with numpy.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

from .bays import bays_of
from .channels import darkest
from .link import LINK, candidates, link_marks, loose_pairs, shape
from .measure import clear_reaching, filled, label, opened
from .parting import markish, near, necks, pips
from .parting import parts as parts_of
from .waists import waists

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
# (``calibrate.choose_sharpen``); the reader sharpens every frame at least by
# ``reader.READ_SHARPEN``.
SHARPEN_SIGMA = 1.0
# Two glyphs printed a pixel or two apart (an index's rank and suit, a small index and the
# pip or a court's frame beside it) run into one mark where blur fills the gap: the gap
# stays fainter than the glyphs' strokes. Ink darker than DEEP_RATIO of the white (the
# same sharpened darkest channel) is the glyphs without such necks; a mark that holds two
# or more parts of that deeper ink is offered split too (``find_groups``). The necks of
# the hold-out decks' merged indices measure 0.6-0.78 of the white, the strokes of their
# glyphs mostly below 0.5 (``docs/benchmarks.md``, hold-out decks).
DEEP_RATIO = 0.6


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
    split: bool = False  # offer marks split by the deeper ink (``find_groups``; ``calibrate``)
    bays: bool = False  # glyphs joined to the card's outline cut from it (``bays``)
    # Cut the deeper ink at its necks too (``parting.NECK_DEPTHS``): calibration's samples only
    # (``samples.collect``). In the reader it cost Dondorf 29 right reads of 490 (10 frames,
    # seed 2026: 441 without, 412 with, the same deck), the parts of glyphs it cut taking
    # their marks from the whole candidates, and the cards it parts are read without it.
    necks: bool = False
    # Part glyphs joined to a large solid pip from its body (``parting.pips``): the reader's,
    # where the deck splits marks and reading tables of its own faces so named no fewer
    # cards (``trial.parts_more``), or its faces are found only so (``calibrate.rescue``);
    # calibration's samples are found without, so a deck learns as before.
    pips: bool = False
    # Part them from the bodies of large marks too (``parting.pips``' ``large``): where an
    # index joins a large pip and that pip a court's picture, all one large mark. Only where
    # a deck needs it to learn faces it would refuse (``calibrate.rescue``): parting large
    # marks offers many more candidates (a picture's pieces), and made kde-standard read its
    # Qc surely as Qs.
    courts: bool = False
    # Part an index's rank and suit blurred into one mark where it narrows along its length
    # (``waists``): the reader's, where the deck splits marks; calibration's samples
    # are found without, so a deck learns as before.
    waists: bool = False
    elongation: tuple[float, float] = (1.25, 7.0)


class MarkMap(NamedTuple):
    """The mark each pixel of a frame shows: its connected component (``labels``) looked up
    in ``lut`` (an index into the frame's marks, -1 for none, the background's label 0
    included), and the part of a split mark it shows, if any: its component of the deeper
    ink (``parts``) looked up in ``part_lut`` (marks ``first_part`` on). Looked up only
    where patches sample it (``patch._marks_at``), not over the whole frame, most of which
    no patch reads."""

    labels: NDArray[np.int32]
    lut: NDArray[np.int16]
    parts: NDArray[np.int32] = np.zeros((1, 1), np.int32)
    part_lut: NDArray[np.int16] = np.full(1, -1, np.int16)
    first_part: int = np.iinfo(np.int16).max

    def shows(self, marks: list[int]) -> NDArray[np.bool_]:
        """Where the frame's pixels show one of ``marks``."""
        out = np.isin(self.lut[self.labels], marks)
        if any(k >= self.first_part for k in marks):
            out |= np.isin(self.part_lut[self.parts], marks)
        return out


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
    # Per mark of the frame, the mark whose ink it is: the mark split for a part of a split
    # mark (``find_groups``), itself for the rest; None: each its own.
    whole: NDArray[np.int64] | None = None
    # Pairs of marks one over the other more unlike in size than a group's (``link``'s
    # ``SIMILAR_LOOSE``): the reader names them only where the fine cut agrees. None: none.
    unlike: NDArray[np.bool_] | None = None

    def __len__(self) -> int:
        return len(self.cx)

    def take(self, keep: NDArray[np.bool_] | NDArray[np.int64]) -> Groups:
        """The groups selected by a mask or index array."""
        return Groups(self.cx[keep], self.cy[keep], self.theta[keep], self.major[keep],
                      self.minor[keep], self.pixels[keep], self.marks[keep], self.ends[keep],
                      self.parent[keep], self.variant[keep], self.members[keep], self.mark_map,
                      self.whole, None if self.unlike is None else self.unlike[keep])


class Masks(NamedTuple):
    """A frame's masks (255 where true): ``ink`` (``ink_mask``), ``cards`` (every patch of
    paper, its holes filled: the ink is cut from it), ``paper`` (``dark_and_paper``) and
    ``deep``: the ink darker than ``DEEP_RATIO`` of the white (None unless asked for)."""

    ink: Image
    cards: Image
    paper: Image
    deep: Image | None


def ink_mask(frame: Image, white_window: int = 15, tied: bool = True,
             sharpen: float = 0.0, bays: bool = False) -> Image:
    """255 where a pixel is ink: darker than ``INK_RATIO`` of its neighbourhood's white,
    and inside a card (a patch of paper with its holes filled), so the felt is never ink;
    ``tied``: glyphs tied to the felt by a card's edge line too (see ``masks``); ``sharpen``:
    see ``SHARPEN_SIGMA``; ``bays``: see the ``bays`` module."""
    return masks(frame, white_window, tied, sharpen, bays=bays).ink


def masks(frame: Image, white_window: int = 15, tied: bool = True,
          sharpen: float = 0.0, deep: bool = False, bays: bool = False) -> Masks:
    """The ink mask (``ink_mask``), the cards mask it is cut from (255 inside every patch
    of paper, its holes filled: ink, pictures, but not marks tied to the felt by a card's
    edge line) and the paper mask.

    A glyph that touches the edge line of a card on top (or its shadow) is tied by it to the
    felt, so it is no hole in the paper. Such a glyph's core (darker than ``CORE_RATIO`` of
    the white, which edge lines and shadows are not) is a hole in the paper taken with the
    fainter dark: that core, grown by a pixel into the dark around it, is ink too.
    With ``bays``, a glyph joined to the card's printed outline is cut from it (``bays``).
    """
    dark, core, lit, deeper = _tones(frame, white_window, sharpen, deep)
    paper = _unmarked(lit, dark)
    inside = filled(np.asarray(cv2.bitwise_or(paper, bays_of(paper)), np.uint8) if bays else paper)
    if not tied:
        ink = np.asarray(cv2.bitwise_and(dark, inside), np.uint8)
        return Masks(ink, inside, paper, _within(deeper, ink))
    # The cores outside the cards mask, cleared where they lie in a gap of the paper taken
    # with the fainter dark that reaches the border (``clear_reaching``), grown by a pixel.
    cores = np.asarray(cv2.bitwise_and(core, cv2.bitwise_not(inside)), np.uint8)
    clear_reaching(_unmarked(lit, core), cores)
    grown = cv2.dilate(cores, np.ones((3, 3), np.uint8))
    tied_ink = np.asarray(cv2.bitwise_and(dark, cv2.bitwise_or(inside, grown)), np.uint8)
    return Masks(tied_ink, inside, paper, _within(deeper, tied_ink))


def _within(deeper: Image | None, ink: Image) -> Image | None:
    """The ``deeper`` dark that is ink (None without it)."""
    return None if deeper is None else np.asarray(cv2.bitwise_and(deeper, ink), np.uint8)


def dark_and_paper(frame: Image, white_window: int = 15, sharpen: float = 0.0
                   ) -> tuple[Image, Image]:
    """255 where a pixel is dark (its darkest channel, sharpened by ``sharpen``, below
    ``INK_RATIO`` of the white level around it), and where it is paper (lit, ``WHITE_MIN``,
    and not dark)."""
    dark, _, lit, _ = _tones(frame, white_window, sharpen, False)
    return dark, _unmarked(lit, dark)


def _unmarked(lit: Image, dark: Image) -> Image:
    """Paper: lit and not ``dark``."""
    return np.asarray(cv2.bitwise_and(cv2.bitwise_not(dark), lit), np.uint8)


def _tones(frame: Image, white_window: int, sharpen: float = 0.0, deep: bool = False
           ) -> tuple[Image, Image, Image, Image | None]:
    """Dark (``INK_RATIO``, of the darkest channel sharpened by ``sharpen``: see
    ``SHARPEN_SIGMA``), core (``CORE_RATIO``), lit (``WHITE_MIN``) and, with ``deep``, deep
    (``DEEP_RATIO``, as dark) masks, by OpenCV: the darkest channel, its white level
    (dilated by a ``white_window`` square, then averaged over it), the unsharp mask, the
    scaled whites and the compares."""
    low = darkest(frame)  # ``channels``: quicker than three planes split and compared
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (white_window, white_window))
    white = np.asarray(cv2.blur(cv2.dilate(low, kernel), (white_window, white_window)), np.uint8)
    sharp = low if sharpen <= 0 else cv2.addWeighted(
        low, 1.0 + sharpen, cv2.GaussianBlur(low, (0, 0), SHARPEN_SIGMA), -sharpen, 0.0)
    dark = cv2.compare(sharp, _scaled(white, INK_RATIO), cv2.CMP_LT)
    core = cv2.compare(low, _scaled(white, CORE_RATIO), cv2.CMP_LT)
    lit = cv2.threshold(low, WHITE_MIN, 255, cv2.THRESH_BINARY)[1]
    deeper = (np.asarray(cv2.compare(sharp, _scaled(white, DEEP_RATIO), cv2.CMP_LT), np.uint8)
              if deep else None)
    return (np.asarray(dark, np.uint8), np.asarray(core, np.uint8), np.asarray(lit, np.uint8),
            deeper)


# ``_scaled`` rounds ``ratio * v - FLOOR`` to floor ``ratio * v``: the ratios are hundredths,
# so the fraction of a product is a whole number of hundredths, and FLOOR, short of a half by
# less than one, rounds a whole product down to itself.
FLOOR = 0.495


def _scaled(image: Image, ratio: float) -> Image:
    """``ratio`` (0..1, in hundredths) of each pixel of ``image``, rounded down: as a table
    looked up (``cv2.LUT``) would give it, more cheaply than the look-up."""
    return np.asarray(cv2.convertScaleAbs(image, alpha=ratio, beta=-FLOOR), np.uint8)


def find_groups(frame: Image, limits: Limits | None = None, ink: Image | None = None,
                deep: Image | None = None) -> Groups:
    """The candidate corner indices in a BGR frame (whose ``ink_mask`` may be given; by
    default it is found as ``limits`` say, sharpened or not). ``deep``: the ink darker than
    ``DEEP_RATIO`` of the white (``Masks.deep``; found with the ink by default where
    ``limits.split``): a mark it splits in two or more parts of a mark's size, or a large
    mark it splits at all, is offered split too: the candidates that hold a part (``parting.parts``)
    of the marks with those marks replaced by their parts. None is where no ``deep`` is.

    The parts compete with the mark split for the reader (``Groups.whole``), and a
    candidate's patches keep its parts' ink (``MarkMap.parts``): an index whose rank and
    suit blur into one mark, or whose suit (or rank) joins the pip or the picture frame
    printed close beside it, is found by its parts, while every candidate found before is
    offered as before."""
    limits = limits or Limits()
    if ink is None:
        found = masks(frame, sharpen=limits.sharpen, deep=limits.split, bays=limits.bays)
        mask, deep = found.ink, found.deep
    else:
        mask = ink
    count, labels, measures = label(mask)
    stats = measures.stats
    big = np.flatnonzero((stats[:, 2] > limits.mark_max) | (stats[:, 3] > limits.mark_max))
    big = big[big > 0]
    # The parts of the deeper ink (cut at the necks its shape shows where ``limits.necks``),
    # and the marks they split, found before the opening relabels the large marks' pieces.
    if deep is not None and limits.necks:
        deep = necks(labels, stats, deep, limits)
    if deep is not None and limits.pips:
        deep = pips(labels, stats, deep, big, limits.courts)
    if deep is not None and limits.waists:
        deep = waists(labels, stats, deep, limits)
    parts = None if deep is None else parts_of(labels, count, big, deep, limits)
    first = count
    origin = np.zeros(0, np.int64)
    if len(big):
        # A mark touching a hairline (a picture frame, a card's edge) is lost in one large
        # component: open the large components only, which cuts hairlines and keeps solid
        # marks. The pieces are "cut" marks: they may join a mark above or below, not each
        # other.
        count, measures, origin = opened(labels, measures, big)
        stats = measures.stats
    cut = np.arange(count) >= first
    x, y, w, h = (stats[:, i] for i in range(4))
    keep = markish(stats, limits)
    keep[0] = False
    marks = np.flatnonzero(keep)
    if len(marks) == 0:
        return _empty()
    m = measures.moments[marks]
    links = link_marks(x[marks], y[marks], w[marks], h[marks], cut[marks], m, limits.link)
    members, owners, parent = candidates(links, limits.group_size)
    unlike = loose_pairs(links, len(parent))
    mark_map = _mark_map(labels, marks, count)
    whole = None
    if (parts is not None and len(parts.labels) and mark_map is not None
            and len(marks) + len(parts.labels) <= np.iinfo(np.int16).max):
        # The same marks with each split mark (or large mark's pieces) replaced by its
        # parts: the candidates that hold a part are offered too. A large mark's parts are
        # whole glyphs parted from a frame or edge line where it is fainter, no pieces of
        # an opening: they may join each other (a court's rank and suit both touching its
        # frame), as no "cut" marks may.
        split = np.zeros(count, np.bool_)
        split[parts.split] = True
        was = np.concatenate([np.arange(first), origin])
        ps = parts.stats
        # The marks kept as they are, those near enough a part to be of its candidates.
        mine = np.flatnonzero(~split[was[marks]] & near(stats[marks], ps))
        x2 = np.concatenate([x[marks][mine], ps[:, 0]])
        y2 = np.concatenate([y[marks][mine], ps[:, 1]])
        w2 = np.concatenate([w[marks][mine], ps[:, 2]])
        h2 = np.concatenate([h[marks][mine], ps[:, 3]])
        cut2 = np.concatenate([cut[marks][mine], np.zeros(len(parts.labels), np.bool_)])
        m2 = np.concatenate([m[mine], parts.moments])
        links2 = link_marks(x2, y2, w2, h2, cut2, m2, limits.link)
        members2, owners2, parent2 = candidates(links2, limits.group_size)
        # The parts' marks follow the frame's: mark len(marks) + j is part j.
        index2 = np.concatenate([mine, len(marks) + np.arange(len(parts.labels))])
        held = np.zeros(len(parent2), np.bool_)
        held[owners2[members2 >= len(mine)]] = True
        if held.any():
            renumber = np.cumsum(held) - 1 + len(parent)
            row = held[owners2]
            members = np.concatenate([members, index2[members2[row]]])
            owners = np.concatenate([owners, renumber[owners2[row]]])
            parent = np.concatenate([parent, renumber[parent2[held]]])
            unlike = np.concatenate([unlike, loose_pairs(links2, len(parent2))[held]])
            m = np.concatenate([m, parts.moments])
            lut = np.full(len(parts.ink), -1, np.int16)
            lut[parts.labels] = len(marks) + np.arange(len(parts.labels))
            mark_map = MarkMap(labels, mark_map.lut, parts.image, lut, len(marks))
            # A part of a split mark is that mark's ink; a large mark's part its own.
            whole = np.concatenate([np.arange(len(marks)),
                                    mark_map.lut[parts.holder].astype(np.int64)])
            own = whole < 0
            whole[own] = np.flatnonzero(own)
    groups = _aggregate(m, members, owners, len(parent), parent)
    groups = dataclasses.replace(groups, members=_padded(members, owners, len(parent)),
                                 mark_map=mark_map, whole=whole, unlike=unlike)
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
