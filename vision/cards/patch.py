"""Index patches: a group's rank and suit cut out upright, at one size, as unit vectors.

The same cut is used to learn a deck and to read a frame, so both see an index alike. The
axis runs from the rank's ink centroid to the suit's, which gives the turn and the size
(``Shape.scale`` patch pixels for that distance); the rank patch is centred on the rank, the
suit patch on the suit. Ranks are compared by shape alone (the ink's darkness), suits by shape
and colour. Each group is cut in both senses of its axis; the wrong one matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from .ink import Groups

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Image = NDArray[np.uint8]
REMAP_ROWS = 32000  # cv2.remap takes maps of fewer than SHRT_MAX (32767) rows


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


def _sample(image: Image, centre: F64, down: F64, step: F64, f: float,
            size: tuple[int, int]) -> NDArray[np.uint8]:
    """Patches of ``size`` centred on ``centre`` (original pixels), ``step`` image pixels per
    patch pixel, from ``image`` (a pyramid level ``f`` times the original size), at once."""
    w, h = size
    u = np.arange(w, dtype=np.float32) - (w - 1) / 2
    v = np.arange(h, dtype=np.float32) - (h - 1) / 2
    dx = (down[:, 0] * step).astype(np.float32)[:, None, None]
    dy = (down[:, 1] * step).astype(np.float32)[:, None, None]
    cx = ((centre[:, 0] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    cy = ((centre[:, 1] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    uu, vv = u[None, None, :], v[None, :, None]
    # The patch x axis in the image is (dy, -dx).
    mx = cx + uu * dy + vv * dx
    my = cy - uu * dx + vv * dy
    n = len(centre)
    out = np.empty((n, h, w, 3), np.uint8)
    # A busy frame's patches are cut in blocks of at most REMAP_ROWS rows.
    block = max(REMAP_ROWS // h, 1)
    for i in range(0, n, block):
        k = min(n - i, block)
        out[i:i + k] = np.asarray(cv2.remap(
            image, mx[i:i + k].reshape(k * h, w), my[i:i + k].reshape(k * h, w),
            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8).reshape(k, h, w, 3)
    return out


def cut(pyramid: Pyramid, groups: Groups, sense: int | NDArray[np.int_],
        shape: Shape = COARSE) -> tuple[F32, F32]:
    """Rank and suit vectors of every group cut in one sense (see ``describe``); ``sense``
    is one for all groups or one per group."""
    return describe(*_patches(pyramid, groups, sense, shape))


def _patches(pyramid: Pyramid, groups: Groups, sense: int | NDArray[np.int_], shape: Shape
             ) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The rank and suit patches (BGR) of every group cut in one sense."""
    rank, suit, down, length = geometry(groups, sense)
    step = length / shape.scale  # image pixels per patch pixel
    return (_by_level(pyramid, rank, down, step, shape.rank),
            _by_level(pyramid, suit, down, step, shape.suit))


def _by_level(pyramid: Pyramid, centre: F64, down: F64, step: F64, size: tuple[int, int]
              ) -> NDArray[np.uint8]:
    """Patches of ``size`` (see ``_sample``), each cut from the pyramid level that shrinks
    the frame as far as the patch allows: a patch pixel spans at most 1.5 image pixels."""
    w, h = size
    out = np.empty((len(centre), h, w, 3), np.uint8)
    level = np.where(step > 1.5, np.floor(np.log2(np.maximum(step, 1.5) / 1.5)) + 1, 0)
    for k in np.unique(level).astype(int).tolist():
        sel = level == k
        f = 0.5**k
        out[sel] = _sample(pyramid.level(k), centre[sel], down[sel], step[sel] * f, f, size)
    return out


def cut_both(pyramid: Pyramid, groups: Groups, shape: Shape = COARSE
             ) -> tuple[tuple[F32, F32], tuple[F32, F32]]:
    """``cut`` in sense 0 and in sense 1. A group of two marks turned is its own marks
    swapped, so its four patches are cut as one strip along its axis, from beyond the rank
    to beyond the suit, sampled once: the same points as ``cut`` samples, at half the cost."""
    n = len(groups)
    out = [(np.empty((n, shape.rank[1], shape.rank[0], 3), np.uint8),
            np.empty((n, shape.suit[1], shape.suit[0], 3), np.uint8)) for _ in range(2)]
    two = (groups.marks == 2) if _strip_fits(shape) else np.zeros(n, np.bool_)
    rest = ~two
    if rest.any():
        # Both senses in one cut: each group twice, turned the second time.
        which = np.flatnonzero(rest)
        m = len(which)
        ranks, suits = _patches(pyramid, groups.take(np.concatenate([which, which])),
                                np.repeat(np.array([0, 1]), m), shape)
        for sense in (0, 1):
            out[sense][0][rest] = ranks[sense * m:(sense + 1) * m]
            out[sense][1][rest] = suits[sense * m:(sense + 1) * m]
    if two.any():
        (rw, rh), (sw, sh) = shape.rank, shape.suit
        s = int(shape.scale)
        rank, _, down, length = geometry(groups.take(two), 0)
        # The strip's rows run from the rank's patch top to the turned rank's patch bottom;
        # its centre row lies halfway from the rank to the suit.
        strips = _by_level(pyramid, rank + down * (length / 2)[:, None], down,
                           length / shape.scale, (rw, rh + s))
        top, side = (rh - sh) // 2, (rw - sw) // 2
        turned = strips[:, ::-1, ::-1]
        out[0][0][two] = strips[:, :rh]
        out[0][1][two] = strips[:, s + top:s + top + sh, side:side + sw]
        out[1][0][two] = turned[:, :rh]
        out[1][1][two] = turned[:, s + top:s + top + sh, side:side + sw]
    return describe(*out[0]), describe(*out[1])


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
    white = np.maximum(brightest[:, None, :], 1).astype(np.float32)
    ink = suits.reshape(n, -1, 3) * (-1.0 / white)
    return _unit(-grey.astype(np.float32)), _unit(ink.reshape(n, -1))


def _unit(v: F32) -> F32:
    """``v``'s rows centred and scaled to unit length, in place (``v`` is a temporary)."""
    v -= v.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", v, v))
    v /= np.maximum(norm, 1e-6)[:, None]
    return v
