"""Benchmark: the card reader of this tree against that of another revision, paired.

Run: ``.venv/bin/python bench/bench_vision_pair.py REV [--styles ...] [--holdout NAME ...]
[--render plain|real] [--frames N] [--reps R]``.
This machine's speed drifts by a third within minutes (the same tree's median frame took
23 and 30 ms a few minutes apart), so two bench runs one after the other do not compare
two trees. Here both readers live in one process: ``REV``'s ``vision`` package is taken
out of git (``git archive``) under another name, both read the same rendered seven-hand
frames in turn (the order alternating frame by frame), each frame ``--reps`` times, after
the caches are flushed, and each frame's least time is kept. The figure is the median over
frames of this tree's time over ``REV``'s: below 1, this tree is the quicker. It also
checks that both read the same items from every frame (``--allow-differences`` to only
count the frames where they do not). ``REV``'s compiled kernels compile afresh each run
(its package lies in a new folder each time): 20-40 s before the first frame.

``--holdout NAME ...`` compares them on hold-out decks (``scripts/holdout_decks.py``) too,
each calibrated by each tree's own code as ``bench_vision.py`` calibrates it
(``vision_decks.calibrate_deck``; ``REV``'s calibration left without the faces this tree's
left out, and kept in a folder of its own, ``decks/pair``, so that neither tree's cache
drops the other's); ``--no-styles`` skips the tuning styles. ``--render`` picks the scenes
(``vision_decks.RENDERS``: plain, or real).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from controller.config.locations import assets_dir  # noqa: E402
from vision.cards import CardReader, load_faces  # noqa: E402
from vision.cards.cache import cached_deck  # noqa: E402
from vision.cards.deck import Deck  # noqa: E402
from vision.items import Item  # noqa: E402
from vision.memory import keep_freed_memory  # noqa: E402
from vision.scene.hands import table_scene  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))
from holdout_decks import DECKS as HOLDOUT  # noqa: E402
from holdout_decks import deck_dir  # noqa: E402
from vision_decks import RENDERS, calibrate_deck  # noqa: E402

Image = np.ndarray[tuple[int, ...], np.dtype[np.uint8]]
STYLES = ("2color", "4color", "2color-bf", "4color-bf")
OTHER = "vision_at_rev"  # the other revision's package, by this name


def vision_at(rev: str, into: Path, name: str = OTHER) -> ModuleType:
    """``rev``'s ``vision`` package, imported as ``name`` from ``into``; returns its
    ``cards`` package (``bench_vision_copies`` loads its revision so too)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "vision"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    (into / "vision").rename(into / name)
    sys.path.insert(0, str(into))
    return importlib.import_module(f"{name}.cards")


def _items(items: Sequence[Item]) -> list[tuple[object, ...]]:
    """What a read gives of each item, to compare two readers by."""
    return [(i.kind, i.code, i.confidence, i.center, i.corners, i.note) for i in items]


def holdout_decks(name: str, other: ModuleType) -> tuple[Deck, object, dict[str, Image]]:
    """Hold-out deck ``name``'s faces and its calibrations by this tree and by ``other``
    (``REV``'s ``cards`` package; see the module's docstring)."""
    folder = deck_dir(name)
    if folder is None:
        raise SystemExit(f"hold-out deck {name} is not drawn (scripts/holdout_decks.py)")
    faces = load_faces(folder)
    here, refused, left_out, _ = calibrate_deck(f"holdout-{name}", faces)
    if here is None:
        raise SystemExit(f"hold-out deck {name}: calibration refused: {refused}")
    decks = assets_dir() / "decks" / "pair"
    if left_out:
        there = importlib.import_module(f"{OTHER}.cards.calibrate").calibrate(
            faces, name=f"holdout-{name}", without=left_out)
    else:
        there = importlib.import_module(f"{OTHER}.cards.cache").cached_deck(
            f"holdout-{name}", faces, decks)
    return here, there, faces


def compare(label: str, here: CardReader, there: object, frames: list[Image], reps: int,
            rev: str) -> int:
    """Time ``here`` and ``there`` (``REV``'s reader) on ``frames`` in turn and print the
    line; the number of frames they read differently."""
    read_there = there.read  # type: ignore[attr-defined]
    here.read(frames[0])  # compiled kernels compiled or loaded, untimed
    read_there(frames[0])
    flush = np.zeros(8 << 20, np.uint8)
    times: tuple[list[list[float]], list[list[float]]] = (
        [[] for _ in frames], [[] for _ in frames])
    differ = 0
    for rep in range(reps):
        for k, frame in enumerate(frames):
            got = []
            for w in ((0, 1) if (k + rep) % 2 == 0 else (1, 0)):
                flush += 1  # out of the caches, as a frame rendered between reads
                read = (here.read, read_there)[w]
                start = time.thread_time()
                items = read(frame)
                times[w][k].append(time.thread_time() - start)
                got.append(_items(items))
            if rep == 0 and got[0] != got[1]:
                differ += 1
    best_here = [min(t) for t in times[0]]
    best_there = [min(t) for t in times[1]]
    ratio = statistics.median(a / b for a, b in zip(best_here, best_there, strict=True))
    print(f"{label:<16} {len(frames)} frames x {reps}: {rev} median "
          f"{1e3 * statistics.median(best_there):.1f} ms, this tree "
          f"{1e3 * statistics.median(best_here):.1f} ms, per-frame ratio (this / "
          f"{rev}) median {ratio:.3f}; frames read differently: {differ}", flush=True)
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the git revision to compare with (a commit, a tag)")
    parser.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES)
    parser.add_argument("--no-styles", action="store_true", help="skip the tuning styles")
    parser.add_argument("--holdout", nargs="+", default=[], choices=[d.name for d in HOLDOUT],
                        help="hold-out decks to compare on too")
    parser.add_argument("--render", choices=sorted(RENDERS), default="plain",
                        help="the scenes: plain (felt, the tuning camera) or real")
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--allow-differences", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    keep_freed_memory()  # as the paigow command does (vision.memory)
    subprocess.run([str(ROOT / "scripts" / "test_assets.sh")], check=True)
    decks = assets_dir() / "decks"
    render = RENDERS[args.render]
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        other = vision_at(args.rev, Path(tmp))
        for style in [] if args.no_styles else args.styles:
            faces = load_faces(assets_dir() / "cards" / style)
            here = CardReader(cached_deck(style, faces, decks))
            there = other.CardReader(importlib.import_module(f"{OTHER}.cards.cache")
                                     .cached_deck(style, faces, decks / "pair"))
            rng = np.random.default_rng(args.seed)
            frames = [table_scene(faces, rng, **render)[0] for _ in range(args.frames)]
            differ += compare(style, here, there, frames, args.reps, args.rev)
        for name in args.holdout:
            deck, other_deck, faces = holdout_decks(name, other)
            rng = np.random.default_rng(args.seed)
            frames = [table_scene(faces, rng, hands=7, **render)[0]
                      for _ in range(args.frames)]
            differ += compare(f"holdout {name}", CardReader(deck),
                              other.CardReader(other_deck), frames, args.reps, args.rev)
    return 1 if differ and not args.allow_differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
