"""The image pyramid (``vision.cards.pyramid``) is OpenCV's ``pyrDown``, to the last bit.

Its levels are made in tiles, only where the patches' sampling grids read them, by a
compiled kernel (or by OpenCV whole, where most of a level is asked for at once). Whatever
way a pixel asked for is made, it is the pixel ``cv2.pyrDown`` makes: whole levels on
random images of random sizes (one pixel wide or high, odd sizes), the pixels grids reach
on a rendered frame, asked for in several calls and at two levels, and the places the
kernel alone makes.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from tests.vision.conftest import faces
from vision.cards import pyramid
from vision.cards.patch import _grid
from vision.cards.pyramid import TILE, Pyramid, _mirrored, _reached, _reached_grids
from vision.cards.tones import _reflect
from vision.scene import Camera
from vision.scene.hands import table_scene

Image = NDArray[np.uint8]


def _opencv(image: Image, k: int) -> Image:
    for _ in range(k):
        image = np.asarray(cv2.pyrDown(image), np.uint8)
    return image.reshape(image.shape[0], image.shape[1], -1)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.booleans())
def test_every_level_is_opencvs_on_images_of_any_size(seed: int, tiles_only: bool) -> None:
    """Levels 1 to 3, made whole, by the kernel alone or as OpenCV makes the most."""
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (int(rng.integers(1, 80)), int(rng.integers(1, 80)), 3),
                         dtype=np.uint8)
    saved = pyramid.WHOLE
    try:
        pyramid.WHOLE = 2.0 if tiles_only else saved  # 2: never whole, always the kernel
        levels = Pyramid(image)
        for k in (1, 2, 3):
            assert np.array_equal(levels.level(k), _opencv(image, k))
    finally:
        pyramid.WHOLE = saved


def _grids(rng: np.random.Generator, h: int, w: int, patches: int, area: int
           ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Random patches' sampling points: small squares anywhere, some partly off the image."""
    cx = rng.uniform(-10, w + 10, patches)[:, None]
    cy = rng.uniform(-10, h + 10, patches)[:, None]
    side = rng.uniform(2, 30, patches)[:, None]
    t = rng.random((patches, area))
    return ((cx + side * t).astype(np.float32),
            (cy + side * rng.random((patches, area))).astype(np.float32))


@pytest.mark.parametrize("seed", range(4))
def test_the_pixels_a_grid_reads_are_opencvs_at_two_levels(seed: int) -> None:
    """On a rendered 1280 x 720 frame: the pixels each grid reaches (two more on either
    side of its points' floors), asked for in two calls at level 1, then at level 2 (which
    makes the tiles of level 1 it reads), are OpenCV's; few tiles are made."""
    rng = np.random.default_rng(seed)
    frame, _ = table_scene(faces("2color"), rng, camera=Camera())
    levels = Pyramid(frame)
    for k, calls in ((1, 2), (2, 1)):
        want = _opencv(frame, k)
        h, w = want.shape[:2]
        for _ in range(calls):
            mx, my = _grids(rng, h, w, 6, 24)
            got = levels.sampled(k, mx.ravel(), my.ravel(), 24)
            for xs, ys in zip(mx, my, strict=True):
                x0 = max(int(np.floor(xs.min())) - 2, 0)
                x1 = min(int(np.floor(xs.max())) + 3, w - 1)
                y0 = max(int(np.floor(ys.min())) - 2, 0)
                y1 = min(int(np.floor(ys.max())) + 3, h - 1)
                box = (slice(y0, y1 + 1), slice(x0, x1 + 1))
                assert np.array_equal(got[box], want[box])
    made = levels._made[1]
    assert 0 < made.mean() < 0.5  # tiles, not the whole level
    assert made.shape == (-(-360 // TILE), -(-640 // TILE))


def test_a_grid_with_a_point_that_is_not_a_number_makes_the_whole_level() -> None:
    """A point that is not a number reaches no box: the whole level is made."""
    frame = np.random.default_rng(3).integers(0, 256, (64, 96, 3), dtype=np.uint8)
    mx = np.array([1.0, np.nan, 3.0, 4.0], np.float32)
    my = np.zeros(4, np.float32)
    assert np.array_equal(Pyramid(frame).sampled(1, mx, my, 2), _opencv(frame, 1))


def test_an_image_not_bgr_is_shrunk_whole_by_opencv() -> None:
    """A grey image (no tiles for it) is OpenCV's whole levels, asked for either way."""
    grey = np.random.default_rng(4).integers(0, 256, (50, 70), dtype=np.uint8)
    levels = Pyramid(grey)
    nowhere = np.zeros(4, np.float32)
    assert np.array_equal(levels.sampled(1, nowhere, nowhere, 4), cv2.pyrDown(grey))
    assert np.array_equal(levels.level(2), cv2.pyrDown(cv2.pyrDown(grey)))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_a_grids_corners_flag_every_tile_its_points_reach(seed: int) -> None:
    """Grids made as ``patch`` makes them (any centre, turn, step and level, partly off the
    level or far beyond it): the tiles their corners flag (``width`` given) hold every tile
    their points flag, and at most a tile more on any side of a patch's."""
    rng = np.random.default_rng(seed)
    n, (w, h) = int(rng.integers(1, 12)), (int(rng.integers(2, 40)), int(rng.integers(2, 40)))
    angle = rng.uniform(0, 2 * np.pi, n)
    down = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    centre = rng.uniform(-200, 1500, (n, 2))
    step = rng.uniform(0.3, 9.0, n)
    level = rng.integers(0, 4, n)
    mx, my = np.empty((n * h, w), np.float32), np.empty((n * h, w), np.float32)
    _grid(centre, down, step, level, w, h, mx, my)
    shape = (-(-360 // TILE), -(-640 // TILE))
    every, corners = np.zeros(shape, np.bool_), np.zeros(shape, np.bool_)
    _reached(mx.ravel(), my.ravel(), w * h, 360, 640, TILE, every)
    _reached_grids(mx.ravel(), my.ravel(), w * h, w, 360, 640, TILE, corners)
    assert not (every & ~corners).any()
    grown = cv2.dilate(every.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(np.bool_)
    assert not (corners & ~grown).any()


def test_a_grid_whose_corner_is_not_a_number_makes_the_whole_level() -> None:
    frame = np.random.default_rng(5).integers(0, 256, (64, 96, 3), dtype=np.uint8)
    mx = np.array([[1.0, 2.0], [3.0, np.nan]], np.float32)
    my = np.zeros((2, 2), np.float32)
    assert np.array_equal(Pyramid(frame).sampled(1, mx, my, 4, 2), _opencv(frame, 1))


def test_rows_beyond_the_edges_are_mirrored_as_opencv_reflects_them() -> None:
    """The pyramid's own ``BORDER_REFLECT_101`` rows are ``tones._reflect``'s, for every
    size from one row and rows far beyond either edge."""
    for n in range(1, 40):
        for i in range(-3 * n - 3, 4 * n + 3):
            assert _mirrored(i, n) == _reflect(i, n), (i, n)
