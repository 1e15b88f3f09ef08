"""Where a read lies (``vision.cards.ground``): an index is printed in ink (``inked``); the
pixels looked at about an index, and their darkest and brightest channels, and the points of
a card's body are those numpy's broadcasting gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from vision.cards.ground import (
    BODY,
    FAINT_DEPTH,
    INDEX,
    INK_DEPTH,
    LOOSE_PAPER,
    PAPER_GREY,
    RING,
    RING_GREY,
    _tones,
    body,
    inked,
    on_paper,
    tones_about,
    tones_at,
)
from vision.cards.reads import CLEAN, SURE, Read

PAPER = 200


def _read(odds: float, fit: float = 0.0) -> Read:
    """A read of As, its index's suit centroid at (100, 100), 100 pixels a card width."""
    centre = np.array([100.0, 100.0])
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    return Read(code="As", score=1.0, center=centre + np.array([40.0, 60.0]), right=right,
                down=down, width=100.0, note=None, odds=odds, indices=((centre, right, down),),
                fit=fit)


def _frame(depth: float) -> np.ndarray:
    """Paper with a glyph across the index whose ink is ``depth`` of the paper."""
    frame = np.full((200, 200, 3), PAPER, np.uint8)
    frame[85:100, 95:105] = round(depth * PAPER)
    return frame


@pytest.mark.parametrize("odds", [SURE - 1, SURE + 1])
def test_an_index_in_dark_ink_is_inked_however_surely_read(odds: float) -> None:
    assert inked(_frame(INK_DEPTH - 0.05), [_read(odds)]).tolist() == [True]


def test_a_faint_index_is_inked_only_where_it_is_read_surely() -> None:
    """A real deck in warm light through a real camera prints fainter than ``INK_DEPTH``:
    such an index is named still where it is read surely, never where it is not, and an
    index fainter than ``FAINT_DEPTH`` (a wooden table's grain) never."""
    between = (INK_DEPTH + FAINT_DEPTH) / 2
    assert inked(_frame(between), [_read(SURE + 1), _read(SURE - 1)]).tolist() == [True, False]
    assert inked(_frame(FAINT_DEPTH + 0.05), [_read(SURE + 50)]).tolist() == [False]


def _numpy_pixels(frame: NDArray[np.uint8], points: NDArray[np.float64]) -> NDArray[np.uint8]:
    """The frame's pixels (... x 3) nearest ``points`` by numpy's steps: a half added,
    clipped to the frame, cut to whole pixels."""
    h, w = frame.shape[:2]
    x = np.clip(points[..., 0] + 0.5, 0, w - 1).astype(np.int64)
    y = np.clip(points[..., 1] + 0.5, 0, h - 1).astype(np.int64)
    out: NDArray[np.uint8] = frame.reshape(-1, frame.shape[2])[y * w + x]
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 30), st.sampled_from([INDEX, RING]))
def test_the_tones_about_an_index_are_numpys(
        seed: int, n: int, grid: tuple[NDArray[np.float64], ...]) -> None:
    """Random frames and indices, in and beyond the frame, some on half-way points: the
    darkest and brightest channels at the grid's points about each index are those of the
    pixels numpy's broadcasting and clipping find, and so for points given outright."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (int(rng.integers(1, 60)), int(rng.integers(1, 60)), 3),
                         dtype=np.uint8)
    turn = rng.uniform(0, 2 * np.pi, n)
    right = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    down = np.stack([-right[:, 1], right[:, 0]], axis=1)
    centroid = np.where(rng.random((n, 1)) < 0.3, rng.integers(-5, 65, (n, 2)) + 0.5,
                        rng.uniform(-20, 80, (n, 2)))
    where = np.stack([centroid, right, down], axis=1)
    width = rng.uniform(5, 120, n)
    points = where[:, None, 0] + width[:, None, None] * (
        grid[0][None, :, None] * where[:, None, 1] + grid[1][None, :, None] * where[:, None, 2])
    pixels = _numpy_pixels(frame, points)
    low, high = tones_about(frame, where, width, grid)
    np.testing.assert_array_equal(low, pixels.min(axis=-1))
    np.testing.assert_array_equal(high, pixels.max(axis=-1))
    low, high = _tones(frame, points)
    np.testing.assert_array_equal(low, pixels.min(axis=-1))
    np.testing.assert_array_equal(high, pixels.max(axis=-1))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_a_grey_frames_tones_are_its_pixels(seed: int, strided: bool) -> None:
    """A grey frame (``ten_one`` reads grey frames too), contiguous or a strided view: at
    points in and beyond the frame, some on half-way points, its one channel is the darkest
    and the brightest, that of the pixels numpy's clipping finds."""
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 60)), int(rng.integers(1, 60))
    frame = rng.integers(0, 256, (h, 2 * w if strided else w), dtype=np.uint8)
    if strided:
        frame = frame[:, ::2]
    points = np.where(rng.random((7, 5, 1)) < 0.3, rng.integers(-5, 65, (7, 5, 2)) + 0.5,
                      rng.uniform(-20, 80, (7, 5, 2)))
    pixels = _numpy_pixels(frame[..., None], points)[..., 0]
    low, high = tones_at(frame, points[..., 0], points[..., 1])
    np.testing.assert_array_equal(low, pixels)
    np.testing.assert_array_equal(high, pixels)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_a_card_s_body_points_are_numpys_broadcast_bit_for_bit(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    corner = rng.uniform(-100, 1400, (n, 2))
    across, along = rng.uniform(-120, 120, (n, 2)), rng.uniform(-170, 170, (n, 2))
    want = (corner[:, None] + BODY[0][None, :, None] * across[:, None]
            + BODY[1][None, :, None] * along[:, None])
    assert body(corner, across, along).tobytes() == want.tobytes()


def test_a_loose_read_whose_index_lies_on_no_paper_is_not_on_paper() -> None:
    """A named read's card may show its paper on its body where a card on top hides the
    paper about its index; but a read that fits its classes loosely (``LOOSE_PAPER``) and
    whose index lies on a coloured ground (a back's lattice) is not on paper, however white
    the body it implies (the back's border, a pale table)."""
    frame = np.full((300, 300, 3), PAPER, np.uint8)
    # A pale green ground about the index, grey enough for ``RING_GREY``, not for
    # ``PAPER_GREY``: as the lattices read as Ks and 2s measured.
    frame[60:120, 80:120] = (140, 200, 140)
    close, loose = _read(SURE + 10, LOOSE_PAPER - 0.1), _read(SURE + 10, LOOSE_PAPER + 0.1)
    assert on_paper(frame, [close, loose], aspect=1.4).tolist() == [True, False]
    assert RING_GREY < 140 / 200 < PAPER_GREY
    frame[:] = PAPER
    assert on_paper(frame, [close, loose], aspect=1.4).tolist() == [True, True]


def test_a_red_index_filling_most_of_its_ring_is_on_paper_where_read_surely_and_cleanly(
        ) -> None:
    """A red ten's "10", its heart and the pips beside them fill more than half the ring
    about its index, and red ink is far from grey: the whole ring's median falls under
    ``RING_GREY`` though its brighter half and the card's body are paper. A read named
    surely and cleanly (``reads.SURE``, ``reads.CLEAN``) is held to those alone; a read
    less sure, or less clean, still to the whole ring (a back's lattice)."""
    frame = np.full((300, 300, 3), PAPER, np.uint8)
    frame[70:115, 88:103] = (40, 40, 200)  # red ink over three of the ring's five columns
    sure, loose, unsure = (_read(SURE + 10, CLEAN - 0.05), _read(SURE + 10, CLEAN + 0.05),
                           _read(SURE - 1, CLEAN - 0.05))
    assert on_paper(frame, [sure, loose, unsure], aspect=1.4).tolist() == [True, False, False]
    frame[:] = PAPER
    assert on_paper(frame, [sure, loose, unsure], aspect=1.4).tolist() == [True, True, True]
