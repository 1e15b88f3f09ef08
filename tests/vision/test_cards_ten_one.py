"""A ten's "1" beside its "0" (``ten_one.one_beside``): a faint stroke with paper on both
sides is one; the margin down to the card's edge, as beside an "A", is none; nor is a
place the frame does not show."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards.ten_one import DIP, one_beside

WIDTH = 90.0  # the table camera's card, in pixels
PAPER = 230
RIGHT, DOWN = np.array([1.0, 0.0]), np.array([0.0, 1.0])


def _index(one: int | None, edge: bool, turn: float = 0.0, half: int = 2
           ) -> tuple[np.ndarray, np.ndarray]:
    """A grey frame of paper with a "0" (a dark ring ``half`` pixels wide each way of its
    centre) and, ``one`` dark, a hairline "1" left of it, or the card's edge (felt beyond)
    left of it where ``edge``, all turned ``turn`` degrees about the "0"; and the "0"'s
    centre."""
    frame = np.full((120, 120), PAPER, np.uint8)
    zero = (70, 60)
    cv2.ellipse(frame, zero, (half, 2 * half), 0, 0, 360, 40, 1)
    if one is not None:
        cv2.line(frame, (zero[0] - half - 4, zero[1] - 4), (zero[0] - half - 4, zero[1] + 4),
                 one, 1)
    if edge:
        frame[:, : zero[0] - half - 6] = 60  # the felt beyond the card's edge
    frame = cv2.GaussianBlur(frame, (3, 3), 0.8)
    turned = cv2.getRotationMatrix2D(zero, turn, 1.0)
    frame = cv2.warpAffine(frame, turned, (120, 120), borderValue=PAPER)
    return frame, np.array(zero, np.float64)


@settings(max_examples=30, deadline=None)
@given(turn=st.floats(-180.0, 180.0))
def test_a_faint_one_is_found_and_an_as_margin_is_not(turn: float) -> None:
    angle = np.radians(-turn)  # the index's axes turned with it (image y points down)
    right = np.array([np.cos(angle), np.sin(angle)])
    down = np.array([-right[1], right[0]])
    faint = int(PAPER * 0.8)  # as the photographed ten's hairline, 0.73-0.93 of its paper
    frame, zero = _index(faint, edge=False, turn=turn)
    assert one_beside(frame, zero, right, down, WIDTH)
    frame, zero = _index(None, edge=False, turn=turn)
    assert not one_beside(frame, zero, right, down, WIDTH)
    frame, zero = _index(None, edge=True, turn=turn)
    assert not one_beside(frame, zero, right, down, WIDTH)


def test_a_glyphs_counter_and_its_own_stroke_are_no_one() -> None:
    # A wide glyph (an "A", a large "0"): the row begins in its counter, paper, and crosses
    # its own stroke before the margin; with a "1" beyond, the "1" is found.
    for edge in (False, True):
        frame, zero = _index(None, edge=edge, half=4)
        assert not one_beside(frame, zero, RIGHT, DOWN, WIDTH)
    frame, zero = _index(int(PAPER * 0.8), edge=False, half=4)
    assert one_beside(frame, zero, RIGHT, DOWN, WIDTH)


def test_a_one_as_faint_as_the_paper_is_none() -> None:
    frame, zero = _index(int(PAPER * (1.0 - DIP / 4)), edge=False)
    assert not one_beside(frame, zero, RIGHT, DOWN, WIDTH)


def test_a_zero_at_the_frames_edge_has_no_one_told() -> None:
    frame, zero = _index(100, edge=False)
    assert one_beside(frame, zero, RIGHT, DOWN, WIDTH)
    assert not one_beside(frame[:, 62:], zero - [62, 0], RIGHT, DOWN, WIDTH)
