"""Index patches: a group's rank and suit cut out upright, at one size, as unit vectors.

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

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Image = NDArray[np.uint8]
REMAP_ROWS = 32000  # cv2.remap takes maps of fewer than SHRT_MAX (32767) rows
# The frame's map of marks (``Groups.mark_map``) and each patch's own marks (-1 beyond them).
# A patch keeps only its own marks' ink (``_own_into``). Over 1,000 bench frames per style
# (seed 2026) right reads went 99.25, 99.29, 98.70, 98.80 -> 99.32, 99.37, 99.64, 99.65 %
# (2color, 4color, 2color-bf, 4color-bf), wrong reads 2, 2, 3, 3 -> 3, 3, 0, 0. Before the
# "1" of a ten was learned as a part (``codes.TEN_ONE``) the plain styles had 8 and 6 wrong
# (tens read as sevens); keeping the ink of the candidate's whole linked group instead of
# its own marks read 98.68 and 98.64 % with 8 and 9 wrong.
Own = tuple[MarkMap, NDArray[np.int64]]


@dataclass(frozen=True)
class Shape:
    """How patches are cut: ``scale`` patch pixels from the rank's centroid to the suit's,
    and the rank and suit patches' (width, height)."""

    scale: float
    rank: tuple[int, int]
    suit: tuple[int, int]


# Tried on ``bench/bench_vision.py`` (1,000 frames, seed 2026): scale 14, with 28 x 30 and
# 22 x 22 patches and the reader's odds raised from 9 to 15, read 98.37 and 95.40 % of 2color
# and 2color-bf cards right against 98.13 and 93.93 % at 11, but 2.0 and 3.1 in 10,000 wrong
# against 1.0 and 2.0, and took 15-25 % longer; kept at 11. Close calls are cut again at twice
# the resolution (``FINE``) and settled there (``reader``).
COARSE = Shape(11.0, (22, 24), (18, 18))
FINE = Shape(22.0, (44, 48), (36, 36))


def _strip_fits(shape: Shape) -> bool:
    """Whether one strip holds a two-mark group's patches in both senses (``cut_both``): the
    rank and suit grids align when ``scale`` is whole and the patches differ by even sizes."""
    (rw, rh), (sw, sh) = shape.rank, shape.suit
    return (float(shape.scale).is_integer() and rw >= sw and rh >= sh
            and (rw - sw) % 2 == 0 and (rh - sh) % 2 == 0)


class Pyramid:
    """A frame and its half-size copies, made when first needed (to shrink without aliasing)."""

    def __init__(self, frame: Image) -> None:
        self.levels: list[Image] = [frame]

    def level(self, k: int) -> Image:
        """The frame shrunk ``k`` times by half."""
        while len(self.levels) <= k:
            self.levels.append(np.asarray(cv2.pyrDown(self.levels[-1]), np.uint8))
        return self.levels[k]


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


@numba.njit(cache=True, nogil=True)
def _grid(centre, down, step, level, w, h, mx, my):  # type: ignore[no-untyped-def]
    """Into ``mx``, ``my`` ((N * h) x w each): the remap grids of patches w x h centred on
    ``centre`` (original pixels), ``step`` original pixels per patch pixel, in the pyramid
    level ``level`` of each (half the size per level). In float32, each product and sum
    rounded as numpy's broadcast ``cx + u dy + v dx`` rounds them (no fused multiply-adds
    without fastmath): the same grid, without numpy's temporaries (1.32 -> 0.37 ms over the
    cuts of a 2color or 2color-bf frame, on a busy machine)."""
    for n in range(centre.shape[0]):
        f = 1.0
        for _ in range(level[n]):
            f *= 0.5
        scaled = step[n] * f
        dx = np.float32(down[n, 0] * scaled)
        dy = np.float32(down[n, 1] * scaled)
        cx = np.float32((centre[n, 0] + 0.5) * f - 0.5)
        cy = np.float32((centre[n, 1] + 0.5) * f - 0.5)
        for i in range(h):
            v = np.float32(i - (h - 1) / 2)
            vdx, vdy = v * dx, v * dy
            row = n * h + i
            for j in range(w):
                # The patch x axis in the image is (dy, -dx).
                u = np.float32(j - (w - 1) / 2)
                mx[row, j] = (cx + u * dy) + vdx
                my[row, j] = (cy - u * dx) + vdy


def _remap(image: NDArray[Any], mx: NDArray[np.float32], my: NDArray[np.float32],
           interpolation: int, border: int, out: NDArray[Any]) -> None:
    """``cv2.remap`` of ``image`` by maps of any number of rows into ``out``: a busy frame's
    patches are cut in blocks of at most ``REMAP_ROWS`` rows."""
    for i in range(0, len(mx), REMAP_ROWS):
        cv2.remap(image, mx[i:i + REMAP_ROWS], my[i:i + REMAP_ROWS], interpolation,
                  dst=out[i:i + REMAP_ROWS], borderMode=border, borderValue=0)


class Cut(NamedTuple):
    """Patches as ``_by_level`` cuts them, ordered by pyramid level: ``order[j]`` is the
    patch ``j`` is; ``labels``, with a map of marks, the frame's label (``MarkMap.labels``)
    each of their pixels shows (0 beyond the frame)."""

    patches: NDArray[np.uint8]
    labels: NDArray[np.int32] | None
    order: NDArray[np.int64]


def _by_level(pyramid: Pyramid, centre: F64, down: F64, step: F64, size: tuple[int, int],
              mark_map: MarkMap | None = None) -> Cut:
    """Patches of ``size`` centred on ``centre`` (original pixels), ``step`` original pixels
    per patch pixel, each cut from the pyramid level that shrinks the frame as far as the
    patch allows (``_level``), a level's patches in one remap into the stack (ordered by
    level, not put back); with ``mark_map``, the labels their pixels show at the frame's
    own size, nearest pixel (``_marks_at``)."""
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
            _remap(pyramid.level(k), mx[a:b], my[a:b], cv2.INTER_LINEAR,
                   cv2.BORDER_REPLICATE, out[a:b])
    labels = None if mark_map is None else _marks_at(
        mark_map, centre, down, step, size, mx, my, int(ends[1]) if n else 0)
    return Cut(out.reshape(n, h, w, 3), labels, order)


def _marks_at(mark_map: MarkMap, centre: F64, down: F64, step: F64, size: tuple[int, int],
              mx: NDArray[np.float32], my: NDArray[np.float32], frame_rows: int
              ) -> NDArray[np.int32]:
    """The frame's labels at the pixels nearest the patches' (``_by_level``) own pixels:
    by their grid ``mx``, ``my`` for the first ``frame_rows`` rows, cut from the frame
    itself (0.3 ms per 2color frame not made twice), by one at the frame's size for the
    rest."""
    w, h = size
    out = np.empty((len(centre) * h, w), np.int32)
    if frame_rows:
        _remap(mark_map.labels, mx[:frame_rows], my[:frame_rows], cv2.INTER_NEAREST,
               cv2.BORDER_CONSTANT, out[:frame_rows])
    if frame_rows < len(out):
        first = frame_rows // h
        rest = len(centre) - first
        fx, fy = np.empty((rest * h, w), np.float32), np.empty((rest * h, w), np.float32)
        _grid(centre[first:], down[first:], step[first:], np.zeros(rest, np.int64), w, h,
              fx, fy)
        _remap(mark_map.labels, fx, fy, cv2.INTER_NEAREST, cv2.BORDER_CONSTANT,
               out[frame_rows:])
    return out.reshape(len(centre), h, w)


@numba.njit(cache=True, nogil=True)
def _own_into(  # type: ignore[no-untyped-def]
        patches, labels, lut, own, order, top, left, turned, out, dest):
    """Into ``out[dest[order[j]]]``: the box of ``out``'s size at (``top``, ``left``) of
    ``patches[j]`` (turned by half a turn first, when ``turned``), every pixel that is not
    of its own marks (``own[order[j]]``, -1 beyond them; the mark a pixel shows is
    ``lut[labels[j]]``, -1 for none) grown by a pixel (their blurred rims) painted with the
    box's paper (its brightest value per channel); no painting without ``labels`` (an
    empty array)."""
    h, w = patches.shape[1], patches.shape[2]
    bh, bw = out.shape[1], out.shape[2]
    way = -1 if turned else 1
    row0 = h - 1 - top if turned else top
    col0 = w - 1 - left if turned else left
    mine = np.zeros(bw + 2, np.bool_)  # a row's own pixels, a pixel of nothing either side
    across = np.zeros((bh + 2, bw), np.bool_)  # grown along the rows, a row of nothing around
    for j in range(patches.shape[0]):
        i = order[j]
        o = dest[i]
        b, g, r = np.uint8(0), np.uint8(0), np.uint8(0)
        for y in range(bh):
            sy = row0 + way * y
            for x in range(bw):
                sx = col0 + way * x
                out[o, y, x, 0] = patches[j, sy, sx, 0]
                out[o, y, x, 1] = patches[j, sy, sx, 1]
                out[o, y, x, 2] = patches[j, sy, sx, 2]
                b = max(b, patches[j, sy, sx, 0])
                g = max(g, patches[j, sy, sx, 1])
                r = max(r, patches[j, sy, sx, 2])
        if labels.shape[0] == 0:
            continue
        for y in range(bh):
            sy = row0 + way * y
            for x in range(bw):
                mark = lut[labels[j, sy, col0 + way * x]]
                its = False
                if mark >= 0:
                    for k in range(own.shape[1]):
                        its |= own[i, k] == mark
                mine[x + 1] = its
            for x in range(bw):
                across[y + 1, x] = mine[x] | mine[x + 1] | mine[x + 2]
        for y in range(bh):
            for x in range(bw):
                if not (across[y, x] | across[y + 1, x] | across[y + 2, x]):
                    out[o, y, x, 0] = b
                    out[o, y, x, 1] = g
                    out[o, y, x, 2] = r


def _own(groups: Groups) -> Own | None:
    """The frame's map of marks and each group's marks, where the groups carry the map."""
    if groups.mark_map is None:
        return None
    most = int(groups.marks.max()) if len(groups) else 1
    return groups.mark_map, groups.members[:, :most]


_NOTHING = (np.zeros((0, 1, 1), np.int32), np.zeros(1, np.int16), np.zeros((0, 1), np.int64))


def _keep(cut: Cut, own: Own | None, out: NDArray[np.uint8], dest: NDArray[np.int64],
          top: int = 0, left: int = 0, turned: bool = False) -> None:
    """``cut``'s patches, each keeping only its own marks' ink (``_own_into``), put in
    their places (``dest``) of ``out``: one pass, not a copy to reorder, a look-up of the
    marks, a mask, a dilation, a copy to paint and a copy to place them (1.80 ms of
    ``_own_ink`` alone -> 1.77 ms with all of those, over the cuts of a frame)."""
    labels, lut, members = _NOTHING if own is None or cut.labels is None else (
        cut.labels, own[0].lut, own[1])
    _own_into(cut.patches, labels, lut, members, cut.order, top, left, turned, out, dest)


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
    mark_map = None if own is None else own[0]
    _keep(_by_level(pyramid, rank, down, step, shape.rank, mark_map), own, ranks, dest)
    _keep(_by_level(pyramid, suit, down, step, shape.suit, mark_map), own, suits, dest)


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
        rank, _, down, length = geometry(groups.take(pairs), 0)
        # The strip's rows run from the rank's patch top to the turned rank's patch bottom;
        # its centre row lies halfway from the rank to the suit. Its turned patches are its
        # own boxes turned by half a turn.
        mid, step = rank + down * (length / 2)[:, None], length / shape.scale
        own = _own(groups.take(pairs))
        strips = _by_level(pyramid, mid, down, step, (rw, rh + s),
                           None if own is None else own[0])
        for turned, dest in ((False, pairs), (True, pairs + n)):
            _keep(strips, own, ranks, dest, 0, 0, turned)
            _keep(strips, own, suits, dest, s + (rh - sh) // 2, (rw - sw) // 2, turned)
    return describe(ranks[:n], suits[:n]), describe(ranks[n:], suits[n:])


def describe(ranks: NDArray[np.uint8], suits: NDArray[np.uint8]) -> tuple[F32, F32]:
    """Unit vectors: rank patches as grey ink, suit patches as ink per colour channel.

    A rank is compared by shape alone: its darkness, centred and scaled to unit length, so
    the paper's brightness cancels. A suit keeps its colour: each channel is taken relative
    to the patch's paper in that channel (the brightest of its 3 x 3 means) before the
    three are joined.
    """
    n, (sh, sw) = len(ranks), suits.shape[1:3]
    if n == 0:
        return np.zeros((0, ranks.shape[1] * ranks.shape[2]), np.float32), np.zeros(
            (0, sh * sw * 3), np.float32)
    flat = ranks.reshape(-1, 3)
    grey = cv2.min(cv2.min(flat[:, 0], flat[:, 1]), flat[:, 2]).reshape(n, -1)
    soft = cv2.blur(suits.reshape(n * sh, sw, 3), (3, 3)).reshape(n, -1, 3)
    brightest = np.ascontiguousarray(soft.transpose(0, 2, 1)).max(axis=2)  # fast axis last
    scale = -1.0 / np.maximum(brightest, 1).astype(np.float32)
    # One channel at a time: numpy broadcasting over a last axis of 3 runs 3-long inner
    # loops (describe 4.4 -> 3.7 ms per 2color frame, the same vectors).
    plain, ink = suits.reshape(n, -1, 3), np.empty((n, sh * sw, 3), np.float32)
    for c in range(3):
        np.multiply(plain[:, :, c], scale[:, c:c + 1], out=ink[:, :, c])
    return _unit(-grey.astype(np.float32)), _unit(ink.reshape(n, -1))


def _unit(v: F32) -> F32:
    """``v``'s rows centred and scaled to unit length, in place (``v`` is a temporary)."""
    v -= v.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", v, v))
    v /= np.maximum(norm, 1e-6)[:, None]
    return v
