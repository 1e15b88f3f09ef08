"""The simulated camera's card artwork, drawn into the per-user cache on first use.

Real card artwork nobody here drew: the CC0 deck (art by Adrian Kennard) of the npm package
``@heruka_urgyen/react-playing-cards``, four styles of 53 faces as SVG, fetched with ``npm pack``
and drawn to PNG with ``rsvg-convert`` (Debian ``librsvg2-bin``; CairoSVG mis-renders them)::

    ASSETS/cards/<style>/<code>.png   style: 2color 4color 2color-bf 4color-bf; code: As Td Jk
    ASSETS/decks/<style>-<key>.npz    their calibrations (``vision.cards.cache``)

``ASSETS`` is ``controller.config.locations.assets_dir()`` (``$PAIGOW_ASSETS``, else
``~/.cache/paigow/assets``).  A stamp records the package and the drawing settings: nothing is
fetched or drawn again while it matches.  ``python -m controller.table.artwork [DIR]`` fills the
cache and calibrates every style (``scripts/test_assets.sh`` runs it); the camera draws the
artwork itself the first time a card table starts.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from vision.cards import load_faces
from vision.cards.cache import cached_deck
from vision.errors import VisionError

from ..config.locations import assets_dir
from .errors import AssetsMissingError

PACKAGE = "@heruka_urgyen/react-playing-cards@0.5.0"
"""The npm package holding the faces (pinned: the calibrations are keyed by the images)."""

WIDTH = 250
"""The width in pixels each face is drawn at."""

STYLES = ("2color", "4color", "2color-bf", "4color-bf")
"""The package's four face styles, all drawn."""

STAMP = f"{PACKAGE} width={WIDTH} styles={' '.join(STYLES)}"
"""What ``cards/.stamp`` holds once every style is drawn with these settings."""

DRAW_HINT = "python -m controller.table.artwork (scripts/test_assets.sh in a checkout)"
"""How a user draws the artwork, named in the errors."""


def is_drawn(assets: Path) -> bool:
    """True when ``assets`` holds every style drawn with the current settings."""
    try:
        return (assets / "cards" / ".stamp").read_text(encoding="utf-8").strip() == STAMP
    except OSError:
        return False


def face_code(stem: str) -> str:
    """The card code of an SVG face name of the package: ``AS`` -> ``As``, ``2J`` -> ``Jk``."""
    return "Jk" if stem == "2J" else stem[0] + stem[1:].lower()


def _tool(name: str, package: str) -> str:
    """The path of a program the drawing needs; AssetsMissingError names what to install."""
    path = shutil.which(name)
    if path is None:
        raise AssetsMissingError(f"drawing the card artwork needs {name!r} (install {package}), "
                                 f"then run {DRAW_HINT}")
    return path


def _run(argv: list[str], cwd: Path | None = None) -> None:
    """Run one drawing step; AssetsMissingError names the step and its last error line."""
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise AssetsMissingError(f"drawing the card artwork: {' '.join(argv[:2])!r} failed "
                                 f"({last})")


def _fetch(npm: str, folder: Path) -> Path:
    """The package's tarball, fetched into ``folder`` once."""
    folder.mkdir(parents=True, exist_ok=True)
    tarball = folder / "heruka_urgyen-react-playing-cards-0.5.0.tgz"
    if not tarball.is_file():
        print(f"==> fetching {PACKAGE} (npm pack)", file=sys.stderr, flush=True)
        _run([npm, "pack", "--silent", PACKAGE], cwd=folder)
    if not tarball.is_file():
        raise AssetsMissingError(f"npm pack {PACKAGE} made no {tarball.name!r} in {str(folder)!r}")
    return tarball


def _draw_style(rsvg: str, source: Path, target: Path) -> None:
    """Draw one style's 53 faces into ``target`` (built aside, then moved into place, so a
    half-drawn style is never read and two processes drawing at once do not mix)."""
    if not source.is_dir():
        raise AssetsMissingError(f"the package {PACKAGE} has no {source.name!r} faces")
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        for svg in sorted(source.glob("*.svg")):
            _run([rsvg, "-w", str(WIDTH), str(svg), "-o", str(work / f"{face_code(svg.stem)}.png")])
        count = len(list(work.glob("*.png")))
        if count != 53:
            raise AssetsMissingError(f"{source.name}: drew {count} faces, expected 53")
        shutil.rmtree(target, ignore_errors=True)
        work.rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def draw(assets: Path | None = None) -> Path:
    """Fetch and draw every style into ``assets`` (the per-user cache by default) unless the
    stamp says it is done; returns the folder.  AssetsMissingError names what went wrong."""
    folder = assets or assets_dir()
    if is_drawn(folder):
        return folder
    rsvg = _tool("rsvg-convert", "librsvg2-bin")
    npm = _tool("npm", "npm")
    tarball = _fetch(npm, folder / "npm")
    print(f"==> drawing {len(STYLES)} styles of 53 faces to {folder / 'cards'}",
          file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as work:
        with tarfile.open(tarball) as archive:
            archive.extractall(work, filter="data")
        for style in STYLES:
            _draw_style(rsvg, Path(work) / "package" / "src" / "images" / style,
                        folder / "cards" / style)
    (folder / "cards" / ".stamp").write_text(STAMP + "\n", encoding="utf-8")
    return folder


def calibrate(assets: Path) -> None:
    """Calibrate every drawn style into ``assets/decks`` (kept; quick when already there)."""
    for style in STYLES:
        cached_deck(style, load_faces(assets / "cards" / style), assets / "decks")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m controller.table.artwork [DIR]``: draw the artwork into DIR (default the
    per-user cache) and calibrate its decks; a failure is one line and exit status 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: python -m controller.table.artwork [DIR]", file=sys.stderr)
        return 2
    try:
        folder = draw(Path(args[0]) if args else None)
        calibrate(folder)
    except (AssetsMissingError, VisionError, OSError) as err:
        print(f"paigow: error: {err}", file=sys.stderr)
        return 2
    print(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
