"""Index patches: a group's rank and suit cut out upright, at one size, as unit vectors
(``vectors.describe``).

The same cut is used to learn a deck and to read a frame, so both see an index alike. The
axis runs from the rank's ink centroid to the suit's, which gives the turn and the size
(``Shape.scale`` patch pixels for that distance); the rank patch is centred on the rank, the
suit patch on the suit. Ranks are compared by shape alone (the ink's darkness), suits by shape
and colour. Each group is cut in both senses of its axis; the wrong one matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

from .ink import Groups, MarkMap
from .pyramid import Pyramid
from .vectors import describe

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Image = NDArray[np.uint8]
REMAP_ROWS = 32000  # cv2.remap takes maps of fewer than SHRT_MAX (32767) rows
# The frame's map of marks (``Groups.mark_map``) and each patch's own marks (-1 beyond them).
# A patch keeps only its own marks' ink (``_own_into``), so a neighbour's glyph cut into the
# patch does not sway its read; most of all in the bold styles, whose glyphs lie close.
# Keeping the ink of the candidate's whole linked group instead read fewer right and more
# wrong, and it needs the "1" of a ten learned as a part (``codes.TEN_ONE``), else tens read
# as sevens (figures in ``docs/benchmarks.md``).
Own = tuple[MarkMap, NDArray[np.int64]]


@dataclass(frozen=True)
class Shape:
    """How patches are cut: ``scale`` patch pixels from the rank's centroid to the suit's,
    and the rank and suit patches' (width, height)."""

    scale: float
    rank: tuple[int, int]
    suit: tuple[int, int]


# Scale 11: larger patches read a few more cards right but twice as many wrong, and cost
# more (figures in ``docs/benchmarks.md``). Close calls are cut again at twice the
# resolution (``FINE``) and settled there (``reader``).
COARSE = Shape(11.0, (22, 24), (18, 18))
FINE = Shape(22.0, (44, 48), (36, 36))


def _strip_fits(shape: Shape) -> bool:
    """Whether one strip holds a two-mark group's patches in both senses (``cut_both``): the
    rank and suit grids align when ``scale`` is whole and the patches differ by even sizes."""
    (rw, rh), (sw, sh) = shape.rank, shape.suit
    return (float(shape.scale).is_integer() and rw >= sw and rh >= sh
            and (rw - sw) % 2 == 0 and (rh - sh) % 2 == 0)


def geometry(groups: Groups, sense: int | NDArray[np.int_]) -> tuple[F64, F64, F64, F64]:
    """Rank centroids, suit centroids, unit "down" vectors and rank-to-suit lengths."""
    way = np.broadcast_to(np.asarray(sense), (len(groups),))
    ends = groups.ends[np.arange(len(groups)), way]
    rank = ends[:, 0]
    suit = ends[:, 1]
    axis = suit - rank
    length = np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-6)
    return rank, suit, axis / length[:, None], length


def _level(step: F64) -> NDArray[np.int64]:
    """The pyramid level each patch is cut from: the frame shrunk as far as the patch allows
    (a patch pixel spans at most 1.5 image pixels)."""
    return np.where(step > 1.5, np.floor(np.log2(np.maximum(step, 1.5) / 1.5)) + 1,
                    0).astype(np.int64)


def _grid(centre: F64, down: F64, step: F64, level: NDArray[np.int64], w: int, h: int,
          mx: F32, my: F32) -> None:
    """Into ``mx``, ``my`` ((N * h) x w each): the remap grids of patches w x h centred on
    ``centre`` (original pixels), ``step`` original pixels per patch pixel, in the pyramid
    level ``level`` of each (half the size per level), in float32."""
    n = len(centre)
    f = 0.5 ** level.astype(np.float64)
    scaled = step * f
    dx = (down[:, 0] * scaled).astype(np.float32)[:, None, None]
    dy = (down[:, 1] * scaled).astype(np.float32)[:, None, None]
    cx = ((centre[:, 0] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    cy = ((centre[:, 1] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    v = (np.arange(h) - (h - 1) / 2).astype(np.float32)[None, :, None]
    u = (np.arange(w) - (w - 1) / 2).astype(np.float32)[None, None, :]
    # The patch x axis in the image is (dy, -dx).
    mx[:] = ((cx + u * dy) + v * dx).reshape(n * h, w)
    my[:] = ((cy - u * dx) + v * dy).reshape(n * h, w)


def _remap(image: NDArray[Any], mx: NDArray[np.float32], my: NDArray[np.float32],
           interpolation: int, border: int, out: NDArray[Any]) -> None:
    """``cv2.remap`` of ``image`` by maps of any number of rows into ``out``: a busy frame's
    patches are cut in blocks of at most ``REMAP_ROWS`` rows."""
    for i in range(0, len(mx), REMAP_ROWS):
        cv2.remap(image, mx[i:i + REMAP_ROWS], my[i:i + REMAP_ROWS], interpolation,
                  dst=out[i:i + REMAP_ROWS], borderMode=border, borderValue=0)


class Cut(NamedTuple):
    """Patches as ``_by_level`` cuts them, ordered by pyramid level: ``order[j]`` is the
    patch ``j`` is; ``mine``, with the frame's marks, 1 where a pixel shows one of the
    patch's own marks, else 0 (``_marks_at``)."""

    patches: NDArray[np.uint8]
    mine: NDArray[np.uint8] | None
    order: NDArray[np.int64]


def _by_level(pyramid: Pyramid, centre: F64, down: F64, step: F64, size: tuple[int, int],
              own: Own | None = None) -> Cut:
    """Patches of ``size`` centred on ``centre`` (original pixels), ``step`` original pixels
    per patch pixel, each cut from the pyramid level that shrinks the frame as far as the
    patch allows (``_level``), a level's patches in one remap into the stack (ordered by
    level, not put back); with ``own`` (the frame's marks and each patch's own), where
    their pixels show their own marks at the frame's own size, nearest pixel
    (``_marks_at``)."""
    w, h = size
    n = len(centre)
    level = _level(step)
    order = np.argsort(level, kind="stable")
    level = level[order]
    centre, down, step = centre[order], down[order], step[order]
    mx, my = np.empty((n * h, w), np.float32), np.empty((n * h, w), np.float32)
    _grid(centre, down, step, level, w, h, mx, my)
    out = np.empty((n * h, w, 3), np.uint8)
    ends = np.searchsorted(level, np.arange(int(level[-1]) + 2 if n else 0)) * h
    for k in range(len(ends) - 1):
        if ends[k + 1] > ends[k]:
            a, b = ends[k], ends[k + 1]
            _remap(pyramid.level(k), mx[a:b], my[a:b],
                   cv2.INTER_LINEAR, cv2.BORDER_REPLICATE, out[a:b])
    mine = None if own is None else _marks_at(
        own, order, centre, down, step, size, mx, my, int(ends[1]) if n else 0)
    return Cut(out.reshape(n, h, w, 3), mine, order)


def _marks_at(own: Own, order: NDArray[np.int64], centre: F64, down: F64, step: F64,
              size: tuple[int, int], mx: NDArray[np.float32], my: NDArray[np.float32],
              frame_rows: int) -> NDArray[np.uint8]:
    """Whether the frame's pixels nearest the patches' (``_by_level``, ``order``) own
    pixels show the patches' own marks (``_mine_at``): by their grid ``mx``, ``my`` for
    the first ``frame_rows`` rows, cut from the frame itself (not made twice), by one at the
    frame's size for the rest."""
    (mark_map, members), (w, h) = own, size
    out = np.empty((len(centre), h, w), np.uint8)
    split = bool(len(members)) and int(members.max()) >= mark_map.first_part
    first = frame_rows // h
    if first:
        _mine_at(mark_map.labels, mark_map.lut, members, order[:first], mx[:frame_rows],
                 my[:frame_rows], out[:first])
        if split:
            _parts_at(mark_map.parts, mark_map.part_lut, mark_map.first_part, members,
                      order[:first], mx[:frame_rows], my[:frame_rows], out[:first])
    if first < len(centre):
        rest = len(centre) - first
        fx, fy = np.empty((rest * h, w), np.float32), np.empty((rest * h, w), np.float32)
        _grid(centre[first:], down[first:], step[first:], np.zeros(rest, np.int64), w, h,
              fx, fy)
        _mine_at(mark_map.labels, mark_map.lut, members, order[first:], fx, fy, out[first:])
        if split:
            _parts_at(mark_map.parts, mark_map.part_lut, mark_map.first_part, members,
                      order[first:], fx, fy, out[first:])
    return out


# ``_mine_at`` and ``_own_into`` are kept for speed: with ``measure``'s labelling and
# filling and ``vectors``' passes, compiled copies of OpenCV's and numpy's steps, the whole
# read is over twice as fast as with those library calls (``bench/bench_vision_copies.py``,
# its ``kept`` line; issue 33). Alone, none of them earns that.
# The compiled passes below index flat arrays by unsigned offsets: numba checks every signed
# index for wrapping around from the end, and those checks on computed offsets (and the
# views a row slice makes, counted references each) kept LLVM from vectorising the copies
# and made the loops several times slower.
@numba.njit(cache=True, nogil=True)
def _mine_at(labels, lut, own, order, mx, my, out):  # type: ignore[no-untyped-def]
    """Into ``out[j]`` (h x w): 1 where the frame's pixel nearest (``mx``, ``my``, rows
    ``j h`` on) shows one of its patch's own marks (``own[order[j]]``, -1 beyond them; the
    mark a pixel shows is ``lut[labels]``, -1 for none, label 0 beyond the frame), else 0.
    As ``cv2.remap`` of the labels (nearest, a constant 0 border) and a look-up would: the
    nearest pixel is the grid rounded half to even, as OpenCV rounds it (the same labels at
    every point of 60 frames' grids and of random ones, half-way points, borders and far
    points included). No labels' patches made, kept and read again, and the offsets found
    first, in a loop of their own that LLVM vectorises: cheaper than the labels' remap and
    a mask after it."""
    u = np.uint64
    height, width = labels.shape[0], labels.shape[1]
    fh, fw, zero = np.float32(height), np.float32(width), np.float32(0)
    flat, xs, ys, dst = labels.ravel(), mx.ravel(), my.ravel(), out.ravel()
    area, most = out.shape[1] * out.shape[2], own.shape[1]
    at = np.empty(area, np.int64)  # a patch's offsets into the frame, -1 beyond it
    for j in range(out.shape[0]):
        i = order[j]
        # Up to three marks compared outright, -1 made -2, which no look-up gives.
        o0 = own[i, 0] if most > 0 and own[i, 0] >= 0 else -2
        o1 = own[i, 1] if most > 1 and own[i, 1] >= 0 else -2
        o2 = own[i, 2] if most > 2 and own[i, 2] >= 0 else -2
        base = u(j) * u(area)
        for p in range(area):
            sx, sy = np.rint(xs[base + u(p)]), np.rint(ys[base + u(p)])
            inside = (sx >= zero) & (sx < fw) & (sy >= zero) & (sy < fh)
            at[p] = np.int64(sy) * width + np.int64(sx) if inside else -1
        for p in range(area):
            label = np.int32(0)
            if at[p] >= 0:
                label = flat[u(at[p])]
            mark = np.int64(lut[u(label)])
            its = (mark == o0) | (mark == o1) | (mark == o2)
            for k in range(3, most):
                its |= (mark >= 0) & (own[i, k] == mark)
            dst[base + u(p)] = its


@numba.njit(cache=True, nogil=True)
def _parts_at(parts, part_lut, first_part, own, order, mx, my, out):  # type: ignore[no-untyped-def]
    """Into ``out[j]`` (as ``_mine_at`` made it), for each patch that owns a part of a split
    mark (marks ``first_part`` on): 1 also where the frame's pixel nearest shows one of its
    own parts (``part_lut[parts]``), the pixels of the mark split being no pixel of its."""
    u = np.uint64
    height, width = parts.shape[0], parts.shape[1]
    fh, fw, zero = np.float32(height), np.float32(width), np.float32(0)
    flat, xs, ys, dst = parts.ravel(), mx.ravel(), my.ravel(), out.ravel()
    area, most = out.shape[1] * out.shape[2], own.shape[1]
    for j in range(out.shape[0]):
        i = order[j]
        split = False
        for k in range(most):
            split |= own[i, k] >= first_part
        if not split:
            continue
        base = u(j) * u(area)
        for p in range(area):
            sx, sy = np.rint(xs[base + u(p)]), np.rint(ys[base + u(p)])
            if (sx >= zero) & (sx < fw) & (sy >= zero) & (sy < fh):
                mark = np.int64(part_lut[u(flat[u(np.int64(sy) * width + np.int64(sx))])])
                its = False
                for k in range(most):
                    its |= (mark >= 0) & (own[i, k] == mark)
                dst[base + u(p)] |= its


@numba.njit(cache=True, nogil=True)
def _own_into(  # type: ignore[no-untyped-def]
        patches, mine, order, top, left, turned, out, dest):
    """Into ``out[dest[order[j]]]``: the box of ``out``'s size at (``top``, ``left``) of
    ``patches[j]`` (turned by half a turn first, when ``turned``), every pixel that is not
    of its own marks (``mine[j]``, ``_mine_at``) grown by a pixel (their blurred rims)
    painted with the box's paper (its brightest value per channel); no painting without
    ``mine`` (an empty array). All arrays C-contiguous. The mask is made once per cut, not
    once per box: a two-mark group's strip gives four boxes. The look-up is kept out of the
    boxes' loop and the indexing unsigned, so LLVM vectorises the copies."""
    u = np.uint64
    n, h, w = patches.shape[0], patches.shape[1], patches.shape[2]
    bh, bw = out.shape[1], out.shape[2]
    src, dst, marks = patches.ravel(), out.ravel(), mine.ravel()
    hu, wu, bhu, bwu, three, one = u(h), u(w), u(bh), u(bw), u(3), u(1)
    span = bwu * three
    # The box in the patch's own rows and columns (the turned box ends where it starts).
    r0 = u(h - top - bh if turned else top)
    c0 = u(w - left - bw if turned else left)
    bright = np.empty(bw * 3, np.uint8)
    grown = np.zeros((bh + 2) * bw, np.uint8)  # grown along the rows, a row of nothing around
    for j in range(n):
        o, ju = u(dest[order[j]]), u(j)
        bright[:] = 0
        for y in range(bh):
            yu = u(y)
            db = (o * bhu + yu) * span
            if turned:
                sb = ((ju * hu + r0 + bhu - one - yu) * wu + c0 + bwu - one) * three
                for x in range(bw):
                    xu = u(x) * three
                    dst[db + xu] = src[sb - xu]
                    dst[db + xu + one] = src[sb - xu + one]
                    dst[db + xu + u(2)] = src[sb - xu + u(2)]
            else:
                sb = ((ju * hu + r0 + yu) * wu + c0) * three
                for k in range(bw * 3):
                    dst[db + u(k)] = src[sb + u(k)]
            for k in range(bw * 3):
                bright[k] = max(bright[k], dst[db + u(k)])
        if mine.shape[0] == 0:
            continue
        b, g, r = np.uint8(0), np.uint8(0), np.uint8(0)
        for x in range(bw):
            b = max(b, bright[3 * x])
            g = max(g, bright[3 * x + 1])
            r = max(r, bright[3 * x + 2])
        for a in range(bh):  # the box's rows in the patch, grown along the row
            mb = (ju * hu + r0 + u(a)) * wu + c0
            gb = u(a + 1) * bwu
            for x in range(bw):
                grown[gb + u(x)] = marks[mb + u(x)]
            for x in range(bw - 1):
                grown[gb + u(x) + one] |= marks[mb + u(x)]
            for x in range(bw - 1):
                grown[gb + u(x)] |= marks[mb + u(x) + one]
        for a in range(bh):  # and across the rows
            db = (o * bhu + u(bh - 1 - a if turned else a)) * span
            gb = u(a) * bwu
            for x in range(bw):
                xu = u(x)
                if (grown[gb + xu] | grown[gb + bwu + xu] | grown[gb + bwu + bwu + xu]) == 0:
                    e = db + three * (bwu - one - xu if turned else xu)
                    dst[e] = b
                    dst[e + one] = g
                    dst[e + u(2)] = r


def _own(groups: Groups) -> Own | None:
    """The frame's map of marks and each group's marks, where the groups carry the map."""
    if groups.mark_map is None:
        return None
    most = int(groups.marks.max()) if len(groups) else 1
    return groups.mark_map, groups.members[:, :most]


_NOTHING = np.zeros((0, 1, 1), np.uint8)


def _keep(cut: Cut, out: NDArray[np.uint8], dest: NDArray[np.int64], top: int = 0,
          left: int = 0, turned: bool = False) -> None:
    """``cut``'s patches, each keeping only its own marks' ink (``mine``, ``_own_into``),
    put in their places (``dest``) of ``out``: one pass, not a copy to reorder, a mask, a
    dilation, a copy to paint and a copy to place them."""
    mine = _NOTHING if cut.mine is None else cut.mine
    _own_into(cut.patches, mine, cut.order, top, left, turned, out, dest)


def cut(pyramid: Pyramid, groups: Groups, sense: int | NDArray[np.int_],
        shape: Shape = COARSE) -> tuple[F32, F32]:
    """Rank and suit vectors of every group cut in one sense (see ``describe``); ``sense``
    is one for all groups or one per group."""
    n = len(groups)
    ranks = np.empty((n, shape.rank[1], shape.rank[0], 3), np.uint8)
    suits = np.empty((n, shape.suit[1], shape.suit[0], 3), np.uint8)
    _cut_into(pyramid, groups, sense, shape, ranks, suits, np.arange(n))
    return describe(ranks, suits)


def _cut_into(pyramid: Pyramid, groups: Groups, sense: int | NDArray[np.int_], shape: Shape,
              ranks: NDArray[np.uint8], suits: NDArray[np.uint8], dest: NDArray[np.int64]
              ) -> None:
    """The rank and suit patches (BGR) of every group cut in one sense, into ``ranks`` and
    ``suits`` at ``dest``."""
    rank, suit, down, length = geometry(groups, sense)
    step = length / shape.scale  # image pixels per patch pixel
    own = _own(groups)
    _keep(_by_level(pyramid, rank, down, step, shape.rank, own), ranks, dest)
    _keep(_by_level(pyramid, suit, down, step, shape.suit, own), suits, dest)


def cut_both(pyramid: Pyramid, groups: Groups, shape: Shape = COARSE
             ) -> tuple[tuple[F32, F32], tuple[F32, F32]]:
    """``cut`` in sense 0 and in sense 1. A group of two marks turned is its own marks
    swapped, so its four patches are cut as one strip along its axis, from beyond the rank
    to beyond the suit, sampled once: the same points as ``cut`` samples, at half the cost."""
    n = len(groups)
    (rw, rh), (sw, sh) = shape.rank, shape.suit
    # Both senses' patches in one stack each: sense 0 in the first n, sense 1 after.
    ranks, suits = np.empty((2 * n, rh, rw, 3), np.uint8), np.empty((2 * n, sh, sw, 3), np.uint8)
    two = (groups.marks == 2) if _strip_fits(shape) else np.zeros(n, np.bool_)
    rest = np.flatnonzero(~two)
    if len(rest):
        # Both senses in one cut: each group twice, turned the second time.
        twice = np.concatenate([rest, rest])
        _cut_into(pyramid, groups.take(twice), np.repeat(np.array([0, 1]), len(rest)), shape,
                  ranks, suits, np.concatenate([rest, rest + n]))
    pairs = np.flatnonzero(two)
    if len(pairs):
        s = int(shape.scale)
        paired = groups.take(pairs)
        rank, _, down, length = geometry(paired, 0)
        # The strip's rows run from the rank's patch top to the turned rank's patch bottom;
        # its centre row lies halfway from the rank to the suit. Its turned patches are its
        # own boxes turned by half a turn.
        mid, step = rank + down * (length / 2)[:, None], length / shape.scale
        strips = _by_level(pyramid, mid, down, step, (rw, rh + s), _own(paired))
        for turned, dest in ((False, pairs), (True, pairs + n)):
            _keep(strips, ranks, dest, 0, 0, turned)
            _keep(strips, suits, dest, s + (rh - sh) // 2, (rw - sw) // 2, turned)
    return describe(ranks[:n], suits[:n]), describe(ranks[n:], suits[n:])
