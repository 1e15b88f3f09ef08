"""Marks printed or blurred together, parted: the parts of a frame's ink marks that
``ink.find_groups`` offers besides the marks themselves.

Glyphs printed a pixel or two apart (a small index's rank and suit, or the index and the pip
or picture frame beside it) blur into one mark. The deeper ink (``ink.DEEP_RATIO``) parts
those whose neck is fainter than their strokes (``parts``); calibration's samples also cut
them where their shape narrows between two solid glyphs (``necks``: a small index suit
touching the pip beside it, as dark as ink at the neck). Where the reader asks for them, a
thin glyph joined to a large solid pip is parted from the pip's body (``pips``,
``ink.Limits.pips``); ``waists`` cuts a rank and suit whose deep ink is one piece.
``markish`` is what size a mark has, and ``holders`` which mark holds each piece of the
deeper ink, shared with ``ink`` and ``waists``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

from .measure import label

if TYPE_CHECKING:
    from .ink import Limits

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]

# A glyph printed touching another (the small club of an index and the large pip beside it,
# Dondorf's and Bonded's clubs 4-10) is tied to it by a neck as dark as ink, which the deeper
# ink does not part: it is parted by its shape instead (``necks``). The deeper ink eroded by
# a disk of NECK_DEPTHS pixels' radius keeps the solid glyphs' cores (pips, index suits) and
# loses the thin strokes (ranks, frames) and the necks narrower than the disk; a mark holding
# two or more such cores at the shallowest depth that parts it is cut where the cores, grown
# back through its ink, meet. Depth 1 parts the necks of sharp renders, 2 those the blur of
# a training sheet widens (crops of Dondorf's 6c in training sheets 86-165 px wide parted at
# 1 or 2 in four of six; at 3 a small index suit 90 px wide left no core).
NECK_DEPTHS = (1, 2)
# A core of fewer than NECK_CORE pixels is none: a stroke's bulge or a serif left by the
# erosion, no glyph (an index suit's core on a card 86 px wide is over 6).
NECK_CORE = 4
# A thin glyph printed close beside a large solid pip (an index's rank or its small suit by
# the first large pip, a court's index by its picture: Tigullio's faces; the small club of
# Bonded's and Dondorf's clubs 4-10 touching the large club's leaf) blurs into it, and its
# strokes are as dark as the pip, so the deeper ink does not part them (``parts``), nor, a
# rank's strokes being thinner than any erosion keeps, the necks (``necks``). The pip is
# found by its body instead (``pips``): a mark whose deep ink is at least PIP_DEPTH pixels
# deep somewhere (the distance to the nearest pixel of no deep ink) is opened by a disk
# PIP_SHARE as deep as it is, which keeps the pip's body and loses what is thinner (the
# glyph, and the pip's points and necks); of what it loses, the glyphs' pieces
# (``GLYPH_AREA``) are parted from the body. On a card of the table camera's 90-110 pixels
# a large pip is 7-9 deep where a deck prints it large, but 4-5 where it prints eight or ten
# in two columns (Bonded's clubs in real light: 4.6 on a card 97 px wide, where its small
# index club is 1.9 deep), an index's suit 2-4, a rank's stroke 1-2: at 4 Bonded's clubs are
# pips (at 5 none was, and their small clubs stayed joined to them). An index suit 4 deep
# counts as one too, which parts from it only a glyph-sized piece joined to it alone (its
# rank), as ``parts`` offers it already where the join is fainter.
PIP_DEPTH = 4.0
PIP_SHARE = 0.6
# OpenCV's 3 x 3 chamfer steps along a row or column by 0.955 of a pixel, so a pixel
# PIP_DEPTH deep has ink PIP_DEPTH pixels each way along its row and column: a mark whose box
# is narrower than PIP_SPAN either way holds no pip body, and ``pips`` does not measure it.
PIP_SPAN = 2 * int(PIP_DEPTH) + 1
# Of the ink the opening loses (``pips``), a piece (a component) of GLYPH_AREA pixels or more
# that touches one piece of the body only is a glyph's, parted from the body; a smaller piece
# is a pip's point or notch (a diamond's tip, a sliver on a leaf's rim: a few pixels at
# the pips' depths), and one touching two or more of the body's pieces joins them (a club's
# middle and stem, between the leaves the opening kept; a heart's waist): they stay joined,
# so the pip is not cut into pieces that compete with the whole for the marks (cut so,
# Bonded's large clubs fell into three leaves each). The smallest glyph it parts, an index
# suit, is 40 pixels or more (Bonded's small club on a card 97 px wide, 55 less the top leaf
# its deeper ink lost); 12 is above a point's few pixels and well below that.
GLYPH_AREA = 12
_AROUND = np.ones((3, 3), np.uint8)
# The candidates that hold a part of a split mark are made of the marks about it: within
# NEAR_PART times its size, two joins' reach (``link.ALONG``) and a glyph between.
NEAR_PART = 2.0

@numba.njit(cache=True, nogil=True)
def near(boxes, parts):  # type: ignore[no-untyped-def]
    """Which ``boxes`` (rows of label statistics) lie within ``NEAR_PART`` times a part's
    size of one of the ``parts`` (the same)."""
    out = np.zeros(len(boxes), np.bool_)
    for j in range(len(parts)):
        px, py, pw, ph = parts[j, 0], parts[j, 1], parts[j, 2], parts[j, 3]
        reach = max(pw, ph) * NEAR_PART
        for i in range(len(boxes)):
            bx, by, bw, bh = boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3]
            gap = max(max(px - bx - bw, bx - px - pw), max(py - by - bh, by - py - ph))
            if gap <= reach:
                out[i] = True
    return out



def markish(stats: NDArray[np.int32], limits: Limits) -> NDArray[np.bool_]:
    """Which components (rows of label statistics) are of a mark's size."""
    h, w, area = stats[:, 3], stats[:, 2], stats[:, 4]
    out: NDArray[np.bool_] = ((h >= limits.mark_min) & (h <= limits.mark_max)
                              & (w <= limits.mark_max) & (area >= limits.area_min))
    return out



class Parts(NamedTuple):
    """The parts of the deeper ink that split marks (``parts``): their labels in ``image``
    (the deeper ink's components), statistics and moments, the ink label each lies in
    (``holder``), the ink labels split (``split``) and each deep component's ink label
    (``ink``)."""

    image: NDArray[np.int32]
    labels: NDArray[np.int64]
    stats: NDArray[np.int32]
    moments: F64
    holder: NDArray[np.int64]
    split: NDArray[np.int64]
    ink: NDArray[np.int64]


def parts(labels: NDArray[np.int32], count: int, big: NDArray[np.int64], deep: Image,
           limits: Limits) -> Parts:
    """The components of the ``deep`` ink of a mark's size (``markish``) that split the ink
    marks (``labels``, ``count`` of them): two or more in one mark, or any in a large mark
    (``big``: those the opening cuts), where a glyph joins a hairline by a faint neck."""
    _, image, measures = label(deep)
    holder = holders(labels, image, measures.stats)
    sized = markish(measures.stats, limits)
    sized[0] = False
    large = np.zeros(count, np.bool_)
    large[big] = True
    n = np.bincount(holder[sized], minlength=count)
    splits = (n >= 2) | ((n >= 1) & large)
    splits[0] = False
    chosen = np.flatnonzero(sized & splits[holder])
    return Parts(image, chosen, measures.stats[chosen], measures.moments[chosen],
                 holder[chosen], np.flatnonzero(splits), holder)


@numba.njit(cache=True, nogil=True)
def holders(labels, deep, stats):  # type: ignore[no-untyped-def]
    """The label of ``labels`` under each component of ``deep`` (labels; 0 for the
    background): under its first pixel in its box's top row. Deep ink is ink, so a deep
    component lies inside one ink component."""
    out = np.zeros(len(stats), np.int64)
    for d in range(1, len(stats)):
        x, y, w = stats[d, 0], stats[d, 1], stats[d, 2]
        for c in range(x, x + w):
            if deep[y, c] == d:
                out[d] = labels[y, c]
                break
    return out


def necks(labels: NDArray[np.int32], marks: NDArray[np.int32], deep: Image, limits: Limits
           ) -> Image:
    """The ``deep`` ink cut where its shape narrows between two solid glyphs
    (``NECK_DEPTHS``): per ink mark (``labels``), the cores the deep ink eroded at the
    shallowest depth leaves two or more of (``NECK_CORE`` pixels or more), grown back through
    the mark's deep ink, each pixel to the core it is nearest to (step by step); where two
    grown cores touch, the pixels on both sides are cleared. A mark with fewer cores is left
    as it is, and so is a large mark (``Limits.mark_max``: a picture, cut by ``opened``).
    ``marks``: the marks' label statistics."""
    out = deep.copy()
    done = np.flatnonzero((marks[:, 2] > limits.mark_max) | (marks[:, 3] > limits.mark_max))
    for depth in NECK_DEPTHS:
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * depth + 1, 2 * depth + 1))
        count, cores, measures = label(np.asarray(cv2.erode(deep, disk), np.uint8))
        if count <= 2:
            continue
        stats = measures.stats
        holder = holders(labels, cores, stats)
        solid = stats[:, 4] >= NECK_CORE
        solid[0] = False
        n = np.bincount(holder[solid], minlength=len(marks))
        n[0] = 0
        n[done] = 0  # parted at a shallower depth
        necked = np.flatnonzero(n >= 2)
        if len(necked) == 0:
            continue
        _cut(labels, marks, deep, cores, stats, holder, solid, necked, out)
        done = np.concatenate([done, necked])
    return out


@numba.njit(cache=True, nogil=True)
def _cut(labels, marks, deep, cores, stats, holder, solid, necked, out):  # type: ignore[no-untyped-def]
    """Grow the ``solid`` cores (labels of ``cores``, statistics ``stats``) of each of the
    ``necked`` marks (labels of ``labels``, statistics ``marks``) through its ``deep`` ink,
    breadth first, and clear in ``out`` the pixels where two grown cores touch
    (``necks``)."""
    for k in necked:
        x0, y0 = marks[k, 0], marks[k, 1]
        x1, y1 = x0 + marks[k, 2], y0 + marks[k, 3]
        owner = np.zeros((y1 - y0, x1 - x0), np.int32)
        queue = np.empty(((y1 - y0) * (x1 - x0), 2), np.int64)
        tail = 0
        for c in range(1, len(stats)):
            if not solid[c] or holder[c] != k:
                continue
            for y in range(stats[c, 1], stats[c, 1] + stats[c, 3]):
                for x in range(stats[c, 0], stats[c, 0] + stats[c, 2]):
                    if cores[y, x] == c:
                        owner[y - y0, x - x0] = c
                        queue[tail, 0], queue[tail, 1] = y, x
                        tail += 1
        head = 0
        while head < tail:
            y, x = queue[head, 0], queue[head, 1]
            head += 1
            mine = owner[y - y0, x - x0]
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    v, u = y + dy, x + dx
                    if (y0 <= v < y1 and x0 <= u < x1 and owner[v - y0, u - x0] == 0
                            and deep[v, u] and labels[v, u] == k):
                        owner[v - y0, u - x0] = mine
                        queue[tail, 0], queue[tail, 1] = v, u
                        tail += 1
        for y in range(y0, y1):
            for x in range(x0, x1):
                mine = owner[y - y0, x - x0]
                if mine == 0:
                    continue
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        v, u = y + dy, x + dx
                        if y0 <= v < y1 and x0 <= u < x1:
                            other = owner[v - y0, u - x0]
                            if other != 0 and other != mine:
                                out[y, x] = 0


def pips(labels: NDArray[np.int32], stats: NDArray[np.int32], deep: Image,
         big: NDArray[np.int64], large: bool = False) -> Image:
    """The ``deep`` ink with the glyphs joined to each large pip parted from its body
    (``PIP_DEPTH``): per ink mark (``labels``, boxed by ``stats`` as ``measure.label`` gives
    them) whose deep ink is at least ``PIP_DEPTH`` deep, the body is its deep ink within
    ``PIP_SHARE`` times that depth of a pixel as deep as that (an opening by a disk of that
    radius); of the deep ink beside the body but not in it, the pixels next to the body
    are cleared where they hold a glyph's piece (``GLYPH_AREA``, ``_glyphs_ring``), which
    parts a thinner glyph joined to the pip from it (``parts`` then offers the mark split)
    and leaves the pip's own points and necks joined to it. A large mark (``big``: a court's
    picture, an edge line) is left as it is: parted so, kde-standard's Qc was read surely as
    Qs (real, 10 frames, seed 2026); with ``large`` it is parted too (``Limits.courts``):
    where a court's or a ten's index joins the large pip beside it, and that pip the
    picture, into one large mark.

    Each mark is measured in its own box, a pixel wider each way: the nearest pixel without
    its ink is within it (another mark's pixel is never the nearest, a pixel of no ink lying
    between), and a chamfer distance between two pixels runs within their box, so the
    distances are those the whole frame would give, at the cost of the marks alone; and
    only the marks that may be that deep (``_may_be_deep``) are, and only a body that leaves
    a glyph's area beside it is parted."""
    marks = (stats[:, 2] >= PIP_SPAN) & (stats[:, 3] >= PIP_SPAN)
    marks[0] = False
    if not large:
        marks[big] = False
    marks &= _may_be_deep(labels, deep, len(stats))
    out: Image | None = None
    rows, cols = deep.shape
    boxes = stats[:, :4].tolist()
    for m in np.flatnonzero(marks).tolist():
        x, y, w, h = boxes[m]
        box = (slice(max(y - 1, 0), min(y + h + 1, rows)),
               slice(max(x - 1, 0), min(x + w + 1, cols)))
        mine = (labels[box] == m) & (deep[box] > 0)
        depth = cv2.distanceTransform(mine.view(np.uint8), cv2.DIST_L2, 3)
        deepest = float(depth.max())
        if deepest < PIP_DEPTH:
            continue
        reach = np.float32(PIP_SHARE * np.float32(deepest))
        seeds = depth < reach  # the distance is to the nearest zero: to the seeds
        body = mine & (cv2.distanceTransform(seeds.view(np.uint8), cv2.DIST_L2, 3) <= reach)
        if np.count_nonzero(mine) - np.count_nonzero(body) < GLYPH_AREA:
            continue  # what the body leaves holds no glyph's piece
        ring = _glyphs_ring(mine, body)
        if not ring.any():
            continue
        if out is None:
            out = deep.copy()
        out[box][ring] = 0
    return deep if out is None else out


# A pixel PIP_DEPTH deep (OpenCV's 3 x 3 chamfer: 0.955 a step along a row or column, 1.3693
# a diagonal one) has ink at every offset nearer than that: within two pixels each way
# (2.74 at (2, 2)) and within four along its row and column (3.82). ``_may_be_deep`` asks
# for that ink about a pixel, a test every pixel that deep passes.
_DEEP_AROUND = (np.ones((5, 5), np.uint8), np.ones((1, 9), np.uint8), np.ones((9, 1), np.uint8))


def _may_be_deep(labels: NDArray[np.int32], deep: Image, count: int) -> NDArray[np.bool_]:
    """Which labels of ``labels`` (``count`` of them) may hold a pixel of ``deep`` ink
    ``PIP_DEPTH`` deep (``pips``): those holding a pixel whose ink reaches as far each way
    as such a pixel's does (``_DEEP_AROUND``). A mark none of whose pixels does holds no
    pip body, and ``pips`` does not measure it: the test is the erosion of the whole frame's
    deep ink by those shapes, a few calls in place of one distance transform per mark."""
    core = np.asarray(cv2.erode(deep, _DEEP_AROUND[0]), np.uint8)
    for shape in _DEEP_AROUND[1:]:
        core &= np.asarray(cv2.erode(deep, shape), np.uint8)
    out = np.zeros(count, np.bool_)
    held = labels[core > 0]
    out[held[held < count]] = True
    return out


def _glyphs_ring(ink: NDArray[np.bool_], body: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The pixels of a mark's deep ``ink`` that part its glyphs from its pip's ``body``: of
    each piece of the ink the body leaves (its components) that is a glyph's
    (``GLYPH_AREA``) and touches one piece of the body only, the pixels next to the
    body."""
    rest = ink & ~body
    count, found, stats, _ = cv2.connectedComponentsWithStats(
        rest.view(np.uint8), connectivity=8, ltype=cv2.CV_32S)
    pieces = np.asarray(found, np.int32)
    if count <= 1:
        return rest
    glyph = np.asarray(stats, np.int32)[:, cv2.CC_STAT_AREA] >= GLYPH_AREA
    glyph[0] = False
    if not glyph.any():
        return np.zeros_like(rest)
    n, labelled = cv2.connectedComponents(body.view(np.uint8), connectivity=8,
                                          ltype=cv2.CV_32S)
    bodies = np.asarray(labelled, np.int32)
    if n <= 2:  # a body in one piece is the only one each piece beside it touches
        out: NDArray[np.bool_] = (cv2.dilate(body.view(np.uint8), _AROUND) > 0) & glyph[pieces]
        return out
    # Beside each pixel: the largest and the smallest label of the body's pieces about it
    # (the background, 0, left out of the smallest): a piece touches one body piece where
    # they agree over all its pixels next to the body.
    most = np.asarray(cv2.dilate(bodies.astype(np.float32), _AROUND), np.float32)
    least = np.asarray(cv2.erode(np.where(body, bodies, n).astype(np.float32), _AROUND),
                       np.float32)
    near = (most > 0) & (pieces > 0)
    high = np.zeros(count, np.float32)
    low = np.full(count, np.inf, np.float32)
    np.maximum.at(high, pieces[near], most[near])
    np.minimum.at(low, pieces[near], least[near])
    glyph &= high == low
    parted: NDArray[np.bool_] = near & glyph[pieces]
    return parted
