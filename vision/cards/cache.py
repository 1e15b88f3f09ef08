"""Deck calibrations kept on disk, keyed by the faces and by the code that learns and reads.

Calibrating takes seconds; tests and benchmarks calibrate the same decks again and again. A
kept file is used only while the face images and every source file of ``vision.cards`` and
``vision.scene`` are unchanged, so a change to the reader never meets a stale calibration.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ..errors import CalibrationError
from .calibrate import calibrate
from .deck import Deck

Image = NDArray[np.uint8]
SOURCES = (Path(__file__).parent, Path(__file__).parent.parent / "scene")
NOT_READING = {"cache.py", "checks.py", "evaluate.py", "__init__.py"}  # outside the key


def key(faces: Mapping[str, Image]) -> str:
    """A short digest of the faces and of the calibrating and reading code."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted(folder.glob("*.py")):
            if path.name in NOT_READING:
                continue
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for code in sorted(faces):
        digest.update(code.encode())
        digest.update(np.ascontiguousarray(faces[code]).tobytes())
    return digest.hexdigest()[:16]


def cached_deck(name: str, faces: Mapping[str, Image], folder: str | Path) -> Deck:
    """The calibration of ``faces`` from ``folder``, made and kept there when missing."""
    path = Path(folder) / f"{name}-{key(faces)}.npz"
    if path.is_file():
        try:
            return Deck.load(path)
        except CalibrationError:
            path.unlink(missing_ok=True)
    deck = calibrate(faces, name=name)
    path.parent.mkdir(parents=True, exist_ok=True)
    deck.save(path)
    for stale in path.parent.glob(f"{name}-*.npz"):
        if stale != path and len(stale.stem) == len(path.stem):
            stale.unlink(missing_ok=True)  # made by older code or from other faces
    return deck


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.cards.cache FACES_ROOT DECKS_DIR``: calibrate every style folder
    of FACES_ROOT (each holding 53 faces) into DECKS_DIR, unless already kept there."""
    import sys

    from .faces import load_faces

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m vision.cards.cache FACES_ROOT DECKS_DIR", file=sys.stderr)
        return 2
    root, decks = Path(args[0]), Path(args[1])
    for style in sorted(p for p in root.iterdir() if p.is_dir()):
        cached_deck(style.name, load_faces(style), decks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
