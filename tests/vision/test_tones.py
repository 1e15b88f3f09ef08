"""The compiled tones (``vision.cards.tones``) are OpenCV's to the last bit.

The dark, core and lit masks made in one compiled pass equal those of the OpenCV steps they
replace (written out here as ``_opencv``: split, minima, dilation, box blur, Gaussian
sharpening, scaled white, compares), on random images of random sizes (smaller than the
window, one pixel wide or high, odd widths), every odd window compiled, sharpening amounts
the kernel computes itself and others it leaves to OpenCV; and on golden crops and a
rendered 1280 x 720 frame with the amounts the decks use.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from tests.vision.conftest import faces, golden
from vision.cards import ink, tones
from vision.cards.ink import CORE_RATIO, INK_RATIO, SHARPEN_SIGMA, WHITE_MIN
from vision.scene import Camera, Pose, Scene

Image = NDArray[np.uint8]
STILL = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(1.0, 1.0))


def _opencv(frame: Image, window: int, sharpen: float) -> tuple[Image, Image, Image]:
    """The masks as OpenCV made them before the kernel (``ink._tones`` at that time)."""
    blue, green, red = cv2.split(frame)
    low = cv2.min(cv2.min(blue, green), red)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (window, window))
    white = cv2.blur(cv2.dilate(low, kernel), (window, window))
    sharp = low if sharpen <= 0 else cv2.addWeighted(
        low, 1.0 + sharpen, cv2.GaussianBlur(low, (0, 0), SHARPEN_SIGMA), -sharpen, 0.0)
    ink_white = cv2.convertScaleAbs(white, alpha=INK_RATIO, beta=-0.495)
    core_white = cv2.convertScaleAbs(white, alpha=CORE_RATIO, beta=-0.495)
    dark = cv2.compare(sharp, ink_white, cv2.CMP_LT)
    core = cv2.compare(low, core_white, cv2.CMP_LT)
    lit = cv2.threshold(low, WHITE_MIN, 255, cv2.THRESH_BINARY)[1]
    return dark, core, lit


def _image(seed: int, height: int, width: int) -> Image:
    """A random BGR image: noise, or paper with dark strokes, grey shades and colour (the
    white levels and ink the thresholds meet on cards)."""
    rng = np.random.default_rng(seed)
    if seed % 2:
        return rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    paper = rng.integers(150, 256, (height, width, 1))
    image = np.repeat(paper, 3, axis=2) - rng.integers(0, 30, (height, width, 3))
    strokes = rng.random((height, width)) < 0.2
    image[strokes] = rng.integers(0, 120, (int(strokes.sum()), 3))
    return np.clip(image, 0, 255).astype(np.uint8)


def _same(got: tuple[Image, Image, Image], want: tuple[Image, Image, Image]) -> None:
    for name, g, w in zip(("dark", "core", "lit"), got, want, strict=True):
        assert g.shape == w.shape and g.dtype == np.uint8, name
        assert np.array_equal(g, w), f"{name}: {int((g != w).sum())} pixels differ"


def _compiled(frame: Image, window: int, sharpen: float) -> tuple[Image, Image, Image]:
    return tones.tones(frame, window, sharpen, SHARPEN_SIGMA, round(INK_RATIO * 100),
                       round(CORE_RATIO * 100), WHITE_MIN)


sizes = st.integers(min_value=1, max_value=48)
windows = st.sampled_from([15, 15, 1, 3, 5, 7, 9, 11, 13, 17, 21, 31])
# Amounts the kernel computes itself: whole numbers of 2**-14 up to 2 (the decks use 1).
# Halves and quarters tie often: they check the rounding to even.
exact_amounts = st.one_of(st.just(0.0), st.just(1.0), st.sampled_from([0.25, 0.5, 1.5, 2.0]),
                          st.integers(1, 2 << tones.SHARPEN_BITS).map(
                              lambda n: n / (1 << tones.SHARPEN_BITS)))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), sizes, sizes, windows, exact_amounts)
def test_the_compiled_masks_are_opencvs(seed: int, height: int, width: int, window: int,
                                        sharpen: float) -> None:
    assert tones.compiled(window, sharpen, SHARPEN_SIGMA)
    frame = _image(seed, height, width)
    _same(_compiled(frame, window, sharpen), _opencv(frame, window, sharpen))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), sizes, sizes,
       st.sampled_from([15, 15, 2, 4, 14, 16, 33]),
       st.one_of(exact_amounts, st.floats(0.0, 2.0)))
def test_inks_tones_are_opencvs_for_any_window_and_amount(
        seed: int, height: int, width: int, window: int, sharpen: float) -> None:
    # compiled where it can be, OpenCV otherwise: the same masks either way
    frame = _image(seed, height, width)
    _same(ink._tones(frame, window, sharpen), _opencv(frame, window, sharpen))


def test_the_decks_amounts_and_window_are_compiled() -> None:
    for sharpen in (0.0, 1.0, 0.5):
        assert tones.compiled(15, sharpen, SHARPEN_SIGMA)
    for window, sharpen in ((14, 0.0), (15, 0.3), (15, 2.5), (15, float("nan"))):
        assert not tones.compiled(window, sharpen, SHARPEN_SIGMA)
    with pytest.raises(ValueError):
        _compiled(np.zeros((4, 4, 3), np.uint8), 14, 0.0)
    with pytest.raises(ValueError):  # shares of the white: hundredths up to 100
        tones.tones(np.zeros((4, 4, 3), np.uint8), 15, 0.0, SHARPEN_SIGMA, 101, 40, WHITE_MIN)


def test_the_gaussian_taps_are_opencvs() -> None:
    # A vertical line of 255 blurred: each column's value is 255/256 of a tap, so the
    # rounded values are the taps (all below 128 but the centre, 102).
    line = np.zeros((21, 21), np.uint8)
    line[:, 10] = 255
    blurred = cv2.GaussianBlur(line, (0, 0), SHARPEN_SIGMA)[10, 7:14]
    assert blurred.tolist() == tones._fixed_kernel(SHARPEN_SIGMA).tolist()
    assert int(tones._fixed_kernel(SHARPEN_SIGMA).sum()) == 256


@pytest.mark.parametrize("name", ["2color-frame11-thin.png", "2color-bf-frame1-tied.png",
                                  "4color-frame332-felt.png"])
@pytest.mark.parametrize("sharpen", [0.0, 1.0])
def test_golden_crops_give_opencvs_masks(name: str, sharpen: float) -> None:
    frame = golden(name)
    _same(ink._tones(frame, 15, sharpen), _opencv(frame, 15, sharpen))


@pytest.mark.parametrize("sharpen", [0.0, 1.0])
def test_a_rendered_frame_gives_opencvs_masks(sharpen: float) -> None:
    scene = Scene(size=(1280, 720))
    for k, code in enumerate(("7c", "Td", "Qh")):
        face = faces("2color")[code]
        scene.place(face, Pose(300.0 + 300 * k, 360.0, 20.0 * k, 160.0 / face.shape[1]), code)
    frame, _ = scene.render(np.random.default_rng(3), STILL)
    assert frame.shape == (720, 1280, 3)
    _same(_compiled(frame, 15, sharpen), _opencv(frame, 15, sharpen))
    dark, _, _ = _compiled(frame, 15, sharpen)
    assert 0 < int((dark > 0).sum()) < dark.size  # some ink, not all
