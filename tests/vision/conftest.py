"""Fixtures of the vision tests: the test deck's faces (four styles) and their calibrations.

The faces are drawn by ``scripts/test_assets.sh`` (``scripts/test`` runs it first); when they
are missing the script is run here, and the card tests skip only if it cannot fetch them.
Calibrations are kept in the per-user cache's ``assets/decks`` (``vision.cards.cache``).
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from controller.config.locations import assets_dir
from vision.cards import Deck, load_faces
from vision.cards.cache import cached_deck

ROOT = Path(__file__).resolve().parents[2]
ASSETS = assets_dir()  # the per-user cache (scripts/test_assets.sh fills it)
GOLDEN = ROOT / "tests" / "golden" / "vision"  # crops of bench frames, kept with the tests
STYLES = ("2color", "4color", "2color-bf", "4color-bf")

cv2.setNumThreads(1)


@functools.cache
def _assets() -> Path | None:
    folder = ASSETS / "cards"
    if not all((folder / s / "Jk.png").is_file() for s in STYLES):
        done = subprocess.run([str(ROOT / "scripts" / "test_assets.sh")], check=False)
        if done.returncode != 0:
            return None
    return folder


def faces_dir(style: str) -> Path:
    """The folder of one style's 53 face images (skips the test when there is none)."""
    folder = _assets()
    if folder is None:
        pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")
    return folder / style


@functools.cache
def faces(style: str) -> dict[str, NDArray[np.uint8]]:
    """One style's faces, code -> BGRA."""
    return load_faces(faces_dir(style))


@functools.cache
def deck(style: str) -> Deck:
    """One style's calibration (kept between runs)."""
    return cached_deck(style, faces(style), ASSETS / "decks")


def star(face: NDArray[np.uint8], centre: tuple[float, float], radius: float,
         colour: tuple[int, ...] = (0, 0, 200, 255)) -> NDArray[np.uint8]:
    """``face`` with a solid five-pointed star (``radius`` and ``centre`` in card widths
    from its top-left corner) printed on it, as real decks print in their joker's corner."""
    out = face.copy()
    w = out.shape[1]
    turns = np.pi / 2 + np.arange(10) * np.pi / 5  # points and notches, the first upward
    reach = np.where(np.arange(10) % 2 == 0, radius, 0.4 * radius) * w
    points = np.stack([centre[0] * w + reach * np.cos(turns),
                       centre[1] * w - reach * np.sin(turns)], axis=1)
    cv2.fillPoly(out, [np.round(points).astype(np.int32)], colour[:out.shape[2]],
                 cv2.LINE_AA)
    return out


@functools.cache
def starred_faces() -> dict[str, NDArray[np.uint8]]:
    """The 2color faces with a red star in the joker's top-left and bottom-right corners,
    where the other faces print their index."""
    given = dict(faces("2color"))
    x0, x1, y0, y1 = deck("2color").blank
    joker = given["Jk"]
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    joker = star(joker, centre, 0.06)
    aspect = joker.shape[0] / joker.shape[1]
    given["Jk"] = star(joker, (1 - centre[0], aspect - centre[1]), 0.06)
    return given


@functools.cache
def starred_deck() -> Deck:
    """The calibration of ``starred_faces`` (kept between runs)."""
    return cached_deck("2color-starred", starred_faces(), ASSETS / "decks")


def golden(name: str) -> NDArray[np.uint8]:
    """A stored crop of a bench frame (BGR), from ``tests/golden/vision``."""
    image = cv2.imread(str(GOLDEN / name))
    assert image is not None, f"no golden image {name!r} in {GOLDEN}"
    return np.asarray(image, np.uint8)


def outlined_face(outline: int, seed: int = 0) -> NDArray[np.uint8]:
    """A face 250 x 362 pixels: white, a black printed outline ``outline`` pixels thick
    (none for 0), a rank (a "7") whose top bar lies 2 pixels inside that outline, a suit
    under it and a pip in the middle; ``seed`` moves and widens the rank a little."""
    rng = np.random.default_rng(seed)
    face = np.full((362, 250, 3), 255, np.uint8)
    if outline:
        face[:outline] = face[-outline:] = 0
        face[:, :outline] = face[:, -outline:] = 0
    top = 6
    left, wide = 16 + int(rng.integers(0, 4)), 16 + int(rng.integers(0, 4))
    cv2.rectangle(face, (left, top), (left + wide, top + 4), (0, 0, 0), -1)
    cv2.line(face, (left + wide, top + 4), (left + 6, top + 34), (0, 0, 0), 4)
    cv2.circle(face, (left + wide // 2, top + 50), 8, (0, 0, 0), -1)
    cv2.circle(face, (125, 181), 30, (0, 0, 0), -1)
    return face

