"""Benchmark: the card reader of this tree against that of another revision, paired.

Run: ``.venv/bin/python bench/bench_vision_pair.py REV [--styles ...] [--frames N] [--reps R]``.
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
from vision.items import Item  # noqa: E402
from vision.memory import keep_freed_memory  # noqa: E402
from vision.scene.hands import table_scene  # noqa: E402

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the git revision to compare with (a commit, a tag)")
    parser.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--allow-differences", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    keep_freed_memory()  # as the paigow command does (vision.memory)
    subprocess.run([str(ROOT / "scripts" / "test_assets.sh")], check=True)
    decks = assets_dir() / "decks"
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        other = vision_at(args.rev, Path(tmp))
        for style in args.styles:
            faces = load_faces(assets_dir() / "cards" / style)
            here = CardReader(cached_deck(style, faces, decks))
            there = other.CardReader(
                importlib.import_module(f"{OTHER}.cards.cache").cached_deck(style, faces, decks))
            rng = np.random.default_rng(args.seed)
            frames = [table_scene(faces, rng)[0] for _ in range(args.frames)]
            here.read(frames[0])  # compiled kernels compiled or loaded, untimed
            there.read(frames[0])
            flush = np.zeros(8 << 20, np.uint8)
            times: tuple[list[list[float]], list[list[float]]] = (
                [[] for _ in frames], [[] for _ in frames])
            differ = 0
            for rep in range(args.reps):
                for k, frame in enumerate(frames):
                    got = []
                    for w in ((0, 1) if (k + rep) % 2 == 0 else (1, 0)):
                        flush += 1  # out of the caches, as a frame rendered between reads
                        reader = (here, there)[w]
                        start = time.thread_time()
                        items = reader.read(frame)
                        times[w][k].append(time.thread_time() - start)
                        got.append(_items(items))
                    if rep == 0 and got[0] != got[1]:
                        differ += 1
            best_here = [min(t) for t in times[0]]
            best_there = [min(t) for t in times[1]]
            ratio = statistics.median(a / b for a, b in zip(best_here, best_there, strict=True))
            print(f"{style:<10} {args.frames} frames x {args.reps}: {args.rev} median "
                  f"{1e3 * statistics.median(best_there):.1f} ms, this tree "
                  f"{1e3 * statistics.median(best_here):.1f} ms, per-frame ratio (this / "
                  f"{args.rev}) median {ratio:.3f}; frames read differently: {differ}")
            failed |= differ > 0 and not args.allow_differences
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
