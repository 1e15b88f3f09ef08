"""A second look at the empty places of spreads, for covered cards the frame's ink missed.

The frame's ink (``ink.masks``) counts only what lies inside a patch of paper, so the felt
never passes for ink. A covered card of a tight spread shows a strip of paper hardly wider
than its index: a thin rank glyph spanning the strip cuts it in two, or one touching the
card's top edge meets the felt, and it is then a hole in no paper and lost; a glyph touching
a card's edge line is read with the line. Where a spread leaves a place empty beside a card
already named (``empty``), the place is cut out upright in that card's frame; the places of
a frame are laid side by side as one image (``cut``), and there ink is whatever is darker
than the paper near it, except the felt (large dark areas, with a margin) and card edges
(long lines, nearly upright in the band: ``ink``). The reader reads that image as a frame
and keeps what a spread would lay there, only where it is read surely (``reads.SURE``): a
looser second look names more covered cards, but some wrongly (figures in
``docs/benchmarks.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from .felt import Felt
from .ink import dark_and_paper

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]

# A named read fills the place beside a card when its centre lies this far across from the
# card's (card widths: a step; two steps of a tight spread are at least 0.4) and this level.
STEP = (0.15, 0.4)
LEVEL = 0.15
# A place is cut from the card's frame, in card widths from its top-left corner: across,
# per side, and down (to where card edges are long enough to tell from the index's strokes).
ACROSS = {-1: (-0.6, 0.08), 1: (0.12, 0.8)}
DOWN = (-0.12, 1.3)
INDEX = 0.72  # an index lies above this, card widths from the top, bf artwork included
SPACING = 40  # pixels between places in the image: no mark links across
FELT = 7  # a dark area this wide (pixels) ...
AREA = 0.05  # ... and this large (card widths squared; a suit pip is smaller) is felt ...
MARGIN = 5  # ... and so is a margin this wide around it
EDGE = 0.9  # a dark line this long (card widths), nearly upright, is a card's edge ...
GAP = 9  # ... though broken by gaps this long (pixels) ...
TILT = np.tan(np.radians(np.arange(-6, 7, 2)))  # ... and leaning up to 6 degrees
# Points down the side a neighbour would lie on, as fractions of a card's height, just
# beyond its edge (BEYOND card widths from its middle): a place where the felt shows at
# no more than ROOM of them may hold a card. (The felt, not the paper's brightness: a
# covered card's pips may lie there.)
_SIDE = np.linspace(0.3, 0.7, 5)
BEYOND = 0.58
ROOM = 0.4


@dataclass(frozen=True)
class Places:
    """The empty places of a frame, each cut upright in the frame of the card beside it, and
    laid side by side in one image."""

    image: Image
    maps: F64  # (n, 2, 3): each place's affine map from image pixels to frame pixels
    starts: NDArray[np.int64]  # each place's first column in the image
    width: float  # the least card width among them, pixels
    search: Image  # 255 where an index may lie: the top of each place (``INDEX``)

    def owner(self, x: float) -> int:
        """The place image column ``x`` lies in."""
        return int(self.owners(np.array([x]))[0])

    def owners(self, x: F64) -> NDArray[np.int64]:
        """The places image columns ``x`` lie in."""
        out: NDArray[np.int64] = np.maximum(
            np.searchsorted(self.starts, x, side="right") - 1, 0)
        return out


def empty(felt: Felt, corners: F64, rights: F64, downs: F64, widths: F64, aspect: float,
          named: NDArray[np.bool_], on_top: NDArray[np.bool_] | None = None
          ) -> list[tuple[int, int]]:
    """(read, side) of every place beside a named read where no named read lies and the
    ``felt`` does not show beyond the card's edge (``ROOM``), so a card may lie there; side
    -1 is left of the card, 1 right of it, in its own frame. Each read's card is given by
    its top-left corner, the unit vectors of its frame, its width in pixels and the deck's
    ``aspect``. A card ``on_top`` (both its indices read) has no place on its right: a card
    whose index lay there would lie on it and hide its far index. (Such places are a third
    of all places and name no card: ``docs/benchmarks.md``.)"""
    rows = np.flatnonzero(named)
    if not len(rows):
        return []
    acrosses, alongs = rights * widths[:, None], downs * (widths * aspect)[:, None]
    centres = corners + acrosses / 2 + alongs / 2
    rel = centres[None, rows, :] - centres[rows, None, :]  # (named, named, xy)
    # Products summed as einsum sums them (x, then y), without einsum's set-up: the same
    # values, more cheaply.
    right_of, down_of = rights[rows][:, None], downs[rows][:, None]
    across = (rel[..., 0] * right_of[..., 0] + rel[..., 1] * right_of[..., 1]) / widths[rows, None]
    level = np.abs(rel[..., 0] * down_of[..., 0] + rel[..., 1] * down_of[..., 1]
                   ) / widths[rows, None] < LEVEL
    corner, right, down = corners[rows], acrosses[rows], alongs[rows]
    out: list[tuple[int, int]] = []
    for side in (-1, 1):
        near = side * across
        free = ~((near > STEP[0]) & (near < STEP[1]) & level).any(axis=1)
        if side == 1 and on_top is not None:
            free &= ~on_top[rows]
        u = 0.5 + BEYOND * side
        pts = corner[:, None] + u * right[:, None] + _SIDE[None, :, None] * down[:, None]
        room = felt.share(pts, outside=True) <= ROOM
        out += [(int(i), side) for i in rows[free & room]]
    return out


def cut(frame: Image, corners: F64, rights: F64, downs: F64, widths: F64,
        sides: Sequence[int]) -> Places:
    """The places on ``sides`` of the cards at ``corners`` (``rights``, ``downs``: the unit
    vectors of their frames; ``widths`` in pixels), cut upright at the frame's scale. Each is
    mirrored into the spacing around it, so it is seen as it would be alone."""
    bands: list[Image] = []
    maps: list[F64] = []
    starts: list[int] = []
    column = 0
    for corner, right, down, width, side in zip(corners, rights, downs, widths, sides,
                                                strict=True):
        x0, x1 = ACROSS[side]
        origin = corner + width * (x0 * right + DOWN[0] * down)
        m = np.array([[right[0], down[0], origin[0]], [right[1], down[1], origin[1]]])
        size = (max(int((x1 - x0) * width), 1), max(int((DOWN[1] - DOWN[0]) * width), 1))
        bands.append(np.asarray(cv2.warpAffine(
            frame, m.astype(np.float32), size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE), np.uint8))
        m[:, 2] -= m[:, 0] * column  # from the image's columns
        maps.append(m)
        starts.append(column)
        column += size[0] + SPACING
    height = max(b.shape[0] for b in bands)
    image = np.zeros((height, column - SPACING, 3), np.uint8)
    search = np.zeros(image.shape[:2], np.uint8)
    pad = SPACING // 2
    for band, start, width in zip(bands, starts, widths, strict=True):
        h, w = band.shape[:2]
        left, right = min(pad, start), min(pad, image.shape[1] - start - w)
        image[:, start - left:start + w + right] = cv2.copyMakeBorder(
            band, 0, height - h, left, right, cv2.BORDER_REFLECT_101)
        search[:round((INDEX - DOWN[0]) * width), start:start + w] = 255
    return Places(image, np.array(maps), np.array(starts, np.int64), float(np.min(widths)),
                  search)


def ink(places: Places, sharpen: float = 0.0) -> Image:
    """Ink in the places' image: dark (``ink.dark_and_paper``, sharpened by ``sharpen``),
    not felt, no card edge, and where an index may lie."""
    dark, paper = dark_and_paper(places.image, sharpen=sharpen)
    width = places.width
    wide = cv2.morphologyEx(cv2.bitwise_not(paper), cv2.MORPH_OPEN,
                            np.ones((FELT, FELT), np.uint8))
    count, labels = cv2.connectedComponents(wide, connectivity=4)
    large = np.zeros(labels.shape, np.uint8)
    _large(np.asarray(labels, np.int32), count, AREA * width * width, large)
    felt = cv2.dilate(large, np.ones((MARGIN, MARGIN), np.uint8))
    shown = np.asarray(cv2.bitwise_and(dark, cv2.bitwise_not(felt)), np.uint8)
    edges = _edges(shown, max(int(EDGE * width), 9))
    out = cv2.bitwise_and(cv2.bitwise_and(shown, places.search), cv2.bitwise_not(edges))
    return np.asarray(out, np.uint8)


def _large(labels: NDArray[np.int32], count: int, area: float, out: Image) -> None:
    """``out`` 255 where ``labels`` (``count`` of them, 0 the background) holds a component
    of at least ``area`` pixels, else 0 (``np.bincount`` and a table looked up by
    ``np.take``, into ``out`` at once: a third of the cost of a mask of the labels and an
    assignment through it)."""
    big = np.bincount(labels.ravel(), minlength=count) >= area
    big[0] = False
    np.take(np.where(big, np.uint8(255), np.uint8(0)), labels, out=out, mode="clip")


def _edges(dark: Image, length: int) -> Image:
    """Where ``dark`` (0 or 255) holds a line at least ``length`` pixels long, nearly upright
    (``TILT``), its gaps (``GAP``) closed; widened by a pixel to the right. Lines are sought
    in rows taken two by two (each pair's union): an edge a card long is long at half the
    rows too, and half the rows cost half, with the same cards read (a few moved by under
    a pixel). Each tilt shears the paired rows (``cv2.warpAffine``, nearest) so that a
    line leaning by it (twice as far per pair) stands upright, keeps the upright runs at
    least half ``length`` long (an opening by a column of that length, border 0) and
    shears them back."""
    joined = cv2.dilate(cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((GAP, 1), np.uint8)),
                        np.ones((1, 3), np.uint8))
    h, w = joined.shape
    even = cv2.copyMakeBorder(joined, 0, h % 2, 0, 0, cv2.BORDER_CONSTANT, value=0)
    rows = cv2.max(even[0::2], even[1::2])
    half = rows.shape[0]
    upright = np.ones((max(length // 2, 2), 1), np.uint8)
    edges = np.zeros_like(rows)
    for tilt in TILT.tolist():
        lean = 2 * tilt
        shear = np.array([[1.0, -lean, lean * half / 2], [0.0, 1.0, 0.0]], np.float32)
        stood = cv2.warpAffine(rows, shear, (w, half), flags=cv2.INTER_NEAREST) if tilt else rows
        runs = cv2.morphologyEx(stood, cv2.MORPH_OPEN, upright,
                                borderType=cv2.BORDER_CONSTANT, borderValue=0)
        if tilt:
            runs = cv2.warpAffine(runs, shear, (w, half),
                                  flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        edges = cv2.bitwise_or(edges, runs)
    return np.asarray(cv2.dilate(np.repeat(edges, 2, axis=0)[:h], np.ones((1, 2), np.uint8)),
                      np.uint8)
