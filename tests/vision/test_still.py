"""The still-felt detector on plain frames: noise and JPEG are still, a moving or slowly
drifting blob is not, the wait is in seconds, and each still period is told once."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.errors import ImageError
from vision.still import StillScene

BASE = np.random.default_rng(0).integers(40, 200, (180, 320, 3)).astype(np.uint8)
BASE = np.asarray(cv2.GaussianBlur(BASE, (0, 0), 3), np.uint8)


def shot(image: np.ndarray, rng: np.random.Generator, sigma: float = 5.0) -> np.ndarray:
    """``image`` with fresh sensor noise, through JPEG."""
    noisy = np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def with_hand(x: float) -> np.ndarray:
    out = BASE.copy()
    cv2.ellipse(out, (round(x), 90), (30, 22), 0, 0, 360, (105, 140, 190), -1)
    return out


@given(st.integers(0, 2**31), st.floats(10, 30))
@settings(max_examples=15, deadline=None)
def test_noise_and_jpeg_are_still(seed: int, fps: float) -> None:
    rng = np.random.default_rng(seed)
    detector = StillScene(hold=0.4)
    frames = math.ceil(0.4 * fps - 1e-9) + 1  # the first frame, then 0.4 s of frames
    found = [detector.feed(shot(BASE, rng), i / fps) for i in range(frames)]
    assert found[-1] is not None and all(f is None for f in found[:-1])
    assert detector.still and found[-1].first == 0


def test_a_slowly_drifting_hand_is_never_still() -> None:
    rng = np.random.default_rng(1)
    detector = StillScene(hold=0.3)
    # 1.5 px a frame: each frame barely differs from the last, but soon from the run's first.
    for i in range(60):
        assert detector.feed(shot(with_hand(60 + 1.5 * i), rng), i / 15) is None
        assert not detector.still


def test_still_once_the_hand_has_gone_and_told_once() -> None:
    rng = np.random.default_rng(2)
    detector = StillScene(hold=0.4)
    frames = [with_hand(40 + 12 * i) for i in range(10)] + [BASE] * 20
    told = [(i, s) for i, f in enumerate(frames)
            if (s := detector.feed(shot(f, rng), i / 10)) is not None]
    assert [i for i, _ in told] == [14]  # frames 10..14: 0.4 s still
    still = told[0][1]
    assert still.first == 10 and still.since == pytest.approx(1.0)
    # The mean of the run is nearer the clean felt than one noisy frame.
    assert np.abs(still.image.astype(float) - BASE).mean() < \
        np.abs(still.last_frame.astype(float) - BASE).mean()


def test_not_an_image() -> None:
    with pytest.raises(ImageError, match="8-bit"):
        StillScene().feed(np.zeros((4, 4), np.float32), 0.0)
    with pytest.raises(ValueError, match="hold"):
        StillScene(hold=-1)
