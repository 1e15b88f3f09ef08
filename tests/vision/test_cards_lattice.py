"""A read whose index lies in a card back's lattice is withdrawn (``vision.cards.lattice``);
a real index, fanned among others, is not."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from tests.vision.conftest import faces
from vision.cards.ink import masks
from vision.cards.lattice import LATTICE, REPEATS, repeated, withdrawn
from vision.cards.reads import Read

Image = NDArray[np.uint8]
WIDTH = 75  # a card's width in pixels, as the table camera sees a card
RIGHT, DOWN = np.array([1.0, 0.0]), np.array([0.0, 1.0])


def _read(suit: tuple[float, float], odds: float = 30.0, fit: float = 0.37) -> Read:
    """A read named Qd at ``suit`` (its suit's centroid), by default sure but loose, as the
    photographed back's lattice was read."""
    at = np.array(suit, np.float64)
    return Read("Qd", 1.0, at + np.array([0.35, 0.5]) * WIDTH, RIGHT, DOWN, float(WIDTH), None,
                odds, fit, indices=((at, RIGHT, DOWN),))


def _back() -> Image:
    """A white frame holding a red card back printed as real backs are: diamonds a twentieth
    of a card across, parted by white lines."""
    frame = np.full((240, 240, 3), 245, np.uint8)
    cv2.rectangle(frame, (40, 40), (200, 200), (60, 40, 220), -1)
    for k in range(-200, 440, 7):
        cv2.line(frame, (k, 40), (k + 160, 200), (245, 245, 245), 2, cv2.LINE_AA)
        cv2.line(frame, (k, 40), (k - 160, 200), (245, 245, 245), 2, cv2.LINE_AA)
    frame[:40], frame[200:], frame[:, :40], frame[:, 200:] = 245, 245, 245, 245
    return frame


def _fan(codes: list[str]) -> tuple[Image, list[tuple[float, float]]]:
    """A white frame of the 2color faces ``codes`` fanned left to right, a third of a card
    apart, each on top of the last; and each card's index suit's centroid (the lower of the
    marks wholly in its top-left corner)."""
    frame = np.full((200, 80 + WIDTH * len(codes) // 3 + WIDTH, 3), 245, np.uint8)
    ink_at: list[tuple[int, int]] = []
    for k, code in enumerate(codes):
        face = faces("2color")[code]
        h = round(WIDTH * face.shape[0] / face.shape[1])
        small = cv2.resize(face, (WIDTH, h), interpolation=cv2.INTER_AREA).astype(np.float64)
        x, y = 40 + k * WIDTH // 3, 40
        alpha = small[..., 3:] / 255.0
        under = frame[y:y + h, x:x + WIDTH].astype(np.float64)
        frame[y:y + h, x:x + WIDTH] = np.round(alpha * small[..., :3] + (1 - alpha) * under)
        ink_at.append((x, y))
    ink = masks(frame).ink
    suits = []
    for x, y in ink_at:
        corner = ink[y:y + int(0.45 * WIDTH), x:x + int(0.2 * WIDTH)]
        n, _, stats, centres = cv2.connectedComponentsWithStats(corner, connectivity=8)
        marks = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 4
                 and stats[k, 0] + stats[k, 2] < corner.shape[1]]  # not a pip cut in
        low = max(marks, key=lambda k: centres[k, 1])
        suits.append((x + float(centres[low, 0]), y + float(centres[low, 1])))
    return frame, suits


def test_a_loose_read_in_a_back_lattice_is_withdrawn() -> None:
    """A read sure but loose, its index among the diamonds of a back, lies among dozens of
    marks like its suit and is withdrawn: it names nothing and is noted ``LATTICE``."""
    frame = _back()
    read = _read((120.0, 120.0))
    assert repeated(masks(frame).ink, [read])[0] >= REPEATS
    out = withdrawn(masks(frame).ink, [read])[0]
    assert (out.code, out.guess, out.note) == (None, None, LATTICE)


def test_a_sure_and_clean_read_is_not_looked_at() -> None:
    """A read sure and clean is never a lattice's: it stands wherever it lies."""
    read = _read((120.0, 120.0), odds=40.0, fit=0.1)
    assert withdrawn(masks(_back()).ink, [read])[0] is read


def test_the_indices_of_a_fanned_hand_are_kept() -> None:
    """The indices of a hand fanned a third of a card apart, read loosely, are kept: the
    marks like each suit about it are the other cards' indices, far fewer than a lattice's
    (at most half ``REPEATS``)."""
    frame, suits = _fan(["Qd", "4d", "9h", "Ad", "Kh"])
    ink = masks(frame).ink
    reads = [_read(s) for s in suits]
    assert max(repeated(ink, reads).tolist()) < REPEATS / 2
    assert [r.code for r in withdrawn(ink, reads)] == ["Qd"] * len(reads)
