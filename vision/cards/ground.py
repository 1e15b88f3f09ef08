"""Where a read lies: on cards, on white paper, its index in ink.

A card read from its index implies where the card lies; the frame then says whether that is
so. A card lies on cards, not on the felt (``on_cards``); it is printed on paper that is grey
whatever the colour of the light (``on_paper``); its index is printed in ink (``inked``).
Pips, chips, a card's back and the grain of a table pass for an index now and then, and fail
one of these. ``CardReader`` asks them of every read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ..items import Item
from .felt import Felt
from .reads import CLEAN, SURE, Read

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]

# A read named (or guessed) must imply a card lying on cards (``on_cards``): no more than
# OFF_CARDS of the points BODY (a 5 x 8 grid a fifth of a card inside its edges, as an index
# places its card to a tenth or so) may fall on the felt (``felt``): it withdraws cards read
# where no card lies, and spares the right reads (``docs/benchmarks.md``).
BODY = tuple(a.ravel() for a in np.meshgrid(np.linspace(0.2, 0.8, 5), np.linspace(0.15, 0.85, 8)))
OFF_CARDS = 0.1
# A card is printed on white paper, whatever the colour of the light: a read is kept only
# where the paper it implies is near grey, its darkest channel at least PAPER_GREY of its
# brightest (``on_paper``), at the brighter of two places: the card's body (``BODY``) and
# the ring RING around its index (the index shows, so the paper around it shows, though a
# card on top may hide the body; a card's picture may fill the body). At each the brighter
# half of the points in the frame is taken (the paper, not the ink), and their median. The
# paper of the photographed deck's 52 faces, each cut from a photo of warm or dim light,
# measures 0.82-0.98; its cards read right in those photos 0.82 and more, the rendered
# decks' 0.85 and more; a wooden table or floor, where most phantom items and wrong reads
# on those photos lay, 0.5-0.71 (figures in ``docs/benchmarks.md``). A read not on paper
# names no card and is no card: it is dropped, not reported unknown.
PAPER_GREY = 0.75
# And the ring about an index is mostly paper (its ink fills less than half of it): the
# median of all its points is at least RING_GREY grey. The rendered decks' reads measure
# 0.65 and more, the photos' right reads 0.73 and more; a read in the lattice of a card's
# back, its brighter half the back's white border, passed ``PAPER_GREY`` without it
# (``tests/vision/test_cards_not_cards.py``). But a red ten's "10", its heart and the pips
# printed close beside them fill more than half the ring, and red ink is far from grey: a
# read named surely and cleanly (``reads.SURE``, ``reads.CLEAN``), as no read in a lattice is
# (``lattice``), is not held to it (``docs/benchmarks.md``, stops 49 and 55).
RING_GREY = 0.6
# A named read that fits its classes loosely (``Read.fit`` over LOOSE_PAPER, as
# ``reader.LOOSE_ITEM`` bounds an unsure read) is held to the ring about its index alone, as
# a read that names no card is: its card's body is no evidence. In real light a back's
# lattice was read surely as Ks and as 2s (fit 0.37, ring 0.64 and 0.71), the white border
# of the back passing for the body; a right read's ring shows the paper its index is
# printed on (the hold-out decks' real scenes, seven decks: one named read of 8279 that fits
# so loosely has a ring under ``PAPER_GREY``; no right read of the bench was lost, stop 42
# in ``docs/benchmarks.md``).
LOOSE_PAPER = 0.3
# An index is printed in ink: a read is named only where the darkest of its index (the
# INK_SHARE darkest of the points INDEX, the darkest channel) is at most INK_DEPTH of its
# paper (the points' upper quartile): else it is unknown, "faint" (``inked``). The rendered
# decks' reads measure at most 0.39 (blur and all), the photographed cards read right 0.26
# and less but for one in fifty; the grain of a wooden floor under glare, read as a queen,
# 0.8. Half is far from both.
INK_DEPTH, INK_SHARE = 0.5, 0.02
# A real deck's cards, photographed in warm or grey light and seen through the real camera's
# cast, defocus and compression, print fainter: their right reads measure a median of 0.47,
# 0.56 at the 90th percentile and up to 0.72 (the photographed deck, 10 real frames, 475
# index reads; the public decks' real renders up to 0.53). Down to FAINT_DEPTH a read is
# named still, where it is read surely (``reads.SURE``): a faint glyph is more easily taken
# for another, and the wooden grain's 0.8 stays beyond it.
FAINT_DEPTH = 0.65
INDEX = tuple(a.ravel() for a in np.meshgrid(np.linspace(-0.08, 0.08, 11),
                                             np.linspace(-0.22, 0.06, 19)))  # as ``RING``
RING = tuple(a.ravel() for a in np.meshgrid(np.linspace(-0.1, 0.1, 5),
                                            np.linspace(-0.25, 0.1, 6)))  # card widths:
# across and down from the suit's centroid, over the rank and suit and the paper about them


def on_cards(felt: Felt, reads: Sequence[Read], aspect: float) -> NDArray[np.bool_]:
    """Whether the card each read implies lies on cards: on the ``felt`` at no more than
    ``OFF_CARDS`` of the points ``BODY`` (a pip, or a glyph cut by the edge of a card on
    top, read as an index may imply a card reaching onto the felt). Points out of the
    frame count as felt for a read named only by the fine cut or as a guess, not for a
    plain read: a card at the frame's edge is read by its index."""
    if not reads:
        return np.zeros(0, np.bool_)
    corner, across, along = card_frames(reads, aspect)
    pts = np.round(body(corner, across, along))  # (reads, points, xy)
    weak = np.array([r.settled or r.code is None for r in reads])
    on: NDArray[np.bool_] = felt.share(pts, outside=weak) <= OFF_CARDS
    return on

def on_paper(frame: Image, reads: Sequence[Read], aspect: float) -> NDArray[np.bool_]:
    """Whether each read lies on white paper (``PAPER_GREY``): its card's body or the
    ring about its index."""
    if not reads:
        return np.zeros(0, np.bool_)
    corner, across, along = card_frames(reads, aspect)
    points = body(corner, across, along)
    where = np.array([r.indices[0] if r.indices else (r.center, r.right, r.down)
                      for r in reads], np.float64)  # (reads, 3, xy); unringed as placed
    width = np.array([r.width for r in reads], np.float64)
    grey = _greyness(*_tones(frame, points))[0]
    ringed = np.array([bool(r.indices) for r in reads])  # no index to ring: the body alone
    brighter, whole = _greyness(*tones_about(frame, where[ringed], width[ringed], RING))
    # A read that names no card has only its index to show it is one: the ring about
    # it alone must be paper (a card's body beside a mark on a back's lattice or on a
    # wooden floor is no evidence that the mark is an index); so too a read that names one
    # but fits loosely (``LOOSE_PAPER``).
    unnamed = np.array([(r.code is None and r.guess is None and r.pair is None)
                        or r.fit > LOOSE_PAPER for r in reads])[ringed]
    # A read named surely and cleanly is held to the brighter half alone (``RING_GREY``).
    clean = np.array([r.code is not None and r.odds >= SURE and r.fit <= CLEAN
                      for r in reads])[ringed]
    grey[ringed] = np.where((whole >= RING_GREY) | clean,
                            np.where(unnamed, brighter, np.maximum(grey[ringed], brighter)),
                            0.0)
    out: NDArray[np.bool_] = grey >= PAPER_GREY
    return out

def inked(frame: Image, reads: Sequence[Read]) -> NDArray[np.bool_]:
    """Whether each read that names (or may name) a card has an index printed in ink
    (``INK_DEPTH``, or ``FAINT_DEPTH`` for a sure read); True for the rest, and for a read
    with no index to look at."""
    rows = [k for k, r in enumerate(reads) if r.indices and (
        r.code is not None or r.guess is not None or r.pair is not None)]
    out = np.ones(len(reads), np.bool_)
    if not rows:
        return out
    where = np.array([reads[k].indices[0] for k in rows], np.float64)  # (rows, 3, xy)
    width = np.array([reads[k].width for k in rows], np.float64)
    low = tones_about(frame, where, width, INDEX)[0]  # (rows, points)
    n = low.shape[1]
    dark_k, white_k = int(INK_SHARE * n), int(0.75 * n)
    ordered = np.partition(low, (dark_k, white_k), axis=1).astype(np.float64)
    depth = ordered[:, dark_k] / np.maximum(ordered[:, white_k], 1.0)
    sure = np.array([reads[k].odds >= SURE for k in rows], np.bool_)
    out[rows] = (depth <= INK_DEPTH) | ((depth <= FAINT_DEPTH) & sure)
    return out

def card_frames(reads: Sequence[Read], aspect: float) -> tuple[F64, F64, F64]:
    """The cards the reads imply (N x 2 each): their top-left corners and their top and
    left edges (vectors a card's width and height long), as each card is read upright."""
    width = np.array([r.width for r in reads], np.float64)[:, None]
    across = np.array([r.right for r in reads], np.float64) * width
    along = np.array([r.down for r in reads], np.float64) * width * aspect
    centre = np.array([r.center for r in reads], np.float64)
    return centre - across / 2 - along / 2, across, along


def strip_on_felt(felt: Felt, items: Sequence[Item]) -> F64:
    """The share of each item's ``BODY`` points where the felt shows: a face found by its
    edge strip must lie on cards as a read must (``on_cards``); the strip's own
    test of paper is by brightness, which a pale wooden table passes."""
    if not items:
        return np.zeros(0, np.float64)
    quads = np.array([i.corners for i in items], np.float64)  # (items, 4, xy)
    across, along = quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0]
    return felt.share(np.round(body(quads[:, 0], across, along)), outside=True)


def body(corner: F64, across: F64, along: F64) -> F64:
    """The points ``BODY`` of each card (N x P x xy) at ``corner`` (N x xy), its top and left
    edges ``across`` and ``along`` (N x xy, a card's width and height long). Made x and y
    apart (N x P each), so that numpy's loops run along the points rather than over pairs."""
    out: F64 = np.empty((len(corner), len(BODY[0]), 2), np.float64)
    for xy in range(2):
        np.add(corner[:, xy, None] + BODY[0][None, :] * across[:, xy, None],
               BODY[1][None, :] * along[:, xy, None], out=out[..., xy])
    return out


def _tones(frame: Image, points: F64) -> tuple[Image, Image]:
    """``tones_at`` the ``points`` (... x xy), x and y together."""
    return tones_at(frame, points[..., 0], points[..., 1])


def tones_at(frame: Image, px: F64, py: F64) -> tuple[Image, Image]:
    """The darkest and the brightest channel (each of the points' shape) of the pixels of
    ``frame`` (BGR, or grey: its one channel both) nearest the points (``px``, ``py``), x
    and y apart, those outside taken at the frame's edge: each coordinate plus a half,
    clipped to the frame and cut to whole pixels. The channels are gathered one by one from
    the flat frame: a reduction over an axis of three (and the three-wide rows gathered for
    it) cost more than the arithmetic."""
    h, w = frame.shape[:2]
    channels = frame.shape[2] if frame.ndim == 3 else 1
    x = np.clip(px + 0.5, 0, w - 1).astype(np.int64)
    y = np.clip(py + 0.5, 0, h - 1).astype(np.int64)
    at = (y * w + x) * channels
    flat = frame.reshape(-1)
    low = high = flat[at]
    for c in range(1, channels):
        channel = flat[at + c]
        low, high = np.minimum(low, channel), np.maximum(high, channel)
    return low, high


def tones_about(frame: Image, where: F64, width: F64, grid: tuple[F64, ...]
                 ) -> tuple[Image, Image]:
    """``tones_at`` the points ``grid`` (card widths across and down, as ``INDEX``) about
    each index ``where`` (N x (suit's centroid, right, down) x xy) of a card ``width``
    pixels wide (N): ``centroid + width (across right + down down)``, x and y apart (N x P
    each), so that numpy's loops run along the grid's points rather than over pairs."""
    across, down = grid[0][None, :], grid[1][None, :]
    wide = width[:, None]
    x = where[:, 0, 0, None] + wide * (across * where[:, 1, 0, None] + down * where[:, 2, 0, None])
    y = where[:, 0, 1, None] + wide * (across * where[:, 1, 1, None] + down * where[:, 2, 1, None])
    return tones_at(frame, x, y)


def _greyness(darkest: Image, brightest: Image) -> tuple[F64, F64]:
    """Per row of pixels' ``darkest`` and ``brightest`` channels (N x P, ``_tones``): the
    median of each pixel's darkest channel over its brightest, over the brighter half of
    its points, and over all of them."""
    low, high = darkest.astype(np.float64), brightest.astype(np.float64)
    ratio = low / np.maximum(high, 1.0)
    half = darkest.shape[1] // 2
    brighter = np.argpartition(-high, half, axis=1)[:, :half]
    return (np.median(np.take_along_axis(ratio, brighter, axis=1), axis=1),
            np.median(ratio, axis=1))
