"""Marks parted at their waist (``waists.waists``): two glyph-like blobs, a rank over a
suit, joined by a neck as dark as ink are parted there, slanted too, and a single compact
blob (a lone glyph), or a long stroke narrowing nowhere, is left whole."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.cards.ink import Limits
from vision.cards.measure import label
from vision.cards.waists import waists

Image = NDArray[np.uint8]


def _pieces(deep: Image) -> int:
    """How many 8-connected pieces ``deep`` (one ink mark here) is in, and the same mask
    parted at its waists."""
    _, labels, measures = label(deep)
    return label(waists(labels, measures.stats, deep, Limits()))[0] - 1


def _index(angle: float) -> Image:
    """A rank (a solid block 14 x 10) over a suit (a disk 11 across) joined by a neck two
    pixels wide and three long, turned by ``angle`` degrees about the frame's middle."""
    image = np.zeros((80, 80), np.uint8)
    cv2.rectangle(image, (35, 22), (44, 35), 255, -1)
    cv2.rectangle(image, (39, 36), (40, 38), 255, -1)
    cv2.circle(image, (40, 44), 5, 255, -1)
    if angle:
        turn = cv2.getRotationMatrix2D((40.0, 40.0), angle, 1.0)
        image = np.asarray(cv2.warpAffine(image, turn, (80, 80), flags=cv2.INTER_NEAREST),
                           np.uint8)
    return image


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0, 90.0, 160.0])
def test_a_rank_and_suit_joined_by_a_neck_are_parted_at_the_waist(angle: float) -> None:
    deep = _index(angle)
    assert label(deep)[0] - 1 == 1
    assert _pieces(deep) == 2


def test_a_compact_blob_and_a_stroke_are_left_whole() -> None:
    deep = np.zeros((80, 80), np.uint8)
    cv2.circle(deep, (20, 20), 7, 255, -1)  # a lone round glyph
    cv2.ellipse(deep, (55, 30), (5, 8), 0, 0, 360, 255, -1)  # a lone glyph 1.6 as tall
    cv2.rectangle(deep, (20, 45), (27, 70), 255, -1)  # a bar as long, of one width
    assert _pieces(deep) == 3


def test_a_rank_narrowing_between_strokes_is_left_whole() -> None:
    """An "8" of hairline strokes narrows where its bowls cross as an index at its neck,
    but neither half is a suit's solid body."""
    deep = np.zeros((80, 80), np.uint8)
    cv2.ellipse(deep, (40, 30), (5, 6), 0, 0, 360, 255, 1)
    cv2.ellipse(deep, (40, 41), (6, 7), 0, 0, 360, 255, 1)
    assert label(deep)[0] - 1 == 1
    assert _pieces(deep) == 1
