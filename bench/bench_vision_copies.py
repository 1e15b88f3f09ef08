"""Benchmark: each hand-written copy of an OpenCV (or numpy) function in the card reader
against the library call it copies, by the whole read's time.

Run: ``taskset -c 0 .venv/bin/python bench/bench_vision_copies.py [--rev REV]
[--styles ...] [--frames N] [--reps R] [--only NAME ...]``.

Issue 33 keeps a copy only where the whole read is at least twice as fast with it. The
copies were measured here and replaced but for ``KEPT``, so this bench reads with the
``vision`` package of ``COPIES``, the last revision holding them all (taken out of git
under another name, as ``bench_vision_pair.py`` does; its compiled kernels compile afresh,
20-40 s). For each copy, it reads the same rendered seven-hand frames (as
``bench_vision_pair.py`` renders them) with that reader as it was and with that one copy
swapped for the library call it copies (``variants``: module attributes replaced for the
duration, nothing else changed; each stand-in is the code that replaced the copy), both in
one process, the order alternating frame by frame, each frame ``--reps`` times after the
caches are flushed, each frame's least thread time kept; ``kept`` swaps the copies kept
(``KEPT``) at once, ``all`` every copy.
Per copy: the whole read's median and 95th percentile over the frames of all styles with
the copy and with the library, the median of the per-frame ratios (library time over copy
time: at least ``KEEP`` to keep the copy), and the frames read differently. This
machine's speed drifts by a third within minutes, which is why both sides are timed frame
by frame in turn, never in two runs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_vision_pair import vision_at  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from controller.config.locations import assets_dir  # noqa: E402
from vision.cards import measure as now_measure  # noqa: E402
from vision.cards import patch as now_patch  # noqa: E402
from vision.cards import slots as now_slots  # noqa: E402
from vision.cards import strips as now_strips  # noqa: E402
from vision.items import Item  # noqa: E402
from vision.memory import keep_freed_memory  # noqa: E402
from vision.scene.hands import table_scene  # noqa: E402

STYLES = ("2color", "4color", "2color-bf", "4color-bf")
KEEP = 2.0  # issue 33: a copy stays only where the whole read is at least this much faster
# The last revision holding the copies (issue 33 replaced them after this bench measured
# them): its ``vision`` package is read with each copy and with its stand-in.
COPIES = "58f162bea6a57262fd80df772ce4fd949043f111"
OTHER = "vision_with_copies"  # that revision's package, by this name
# That package's card modules by their names (``_load``), for the stand-ins and variants.
M: dict[str, ModuleType] = {}
_MODULES = ("cache", "felt", "ink", "measure", "patch", "pyramid", "slots", "strips")

Image = NDArray[np.uint8]
Patch = tuple[object, str, Any]  # a module (or class), an attribute, its stand-in


# --- The library calls each copy copies, with the copy's signature -------------------------
# Where the reader now runs the library call itself under the copy's name (the grids, the
# edges, the large parts, the strips' samples, eyes and edge ratio), the stand-in is this
# tree's own function (``now_patch``, ``now_slots``, ``now_strips``); the rest are written here.

def _label_cv(mask: Image) -> tuple[int, NDArray[np.int32], Any]:
    """``measure.label`` by ``cv2.connectedComponentsWithStatsWithAlgorithm`` (``CCL_BBDT``)
    and the moments by ``np.bincount``."""
    count, found, boxes, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        np.ascontiguousarray(mask), 8, cv2.CV_32S, cv2.CCL_BBDT)
    stats: NDArray[np.int32] = np.asarray(boxes, np.int32)
    labels: NDArray[np.int32] = np.asarray(found, np.int32)
    stats[0, :2] = np.iinfo(np.int32).max  # the copy's background row (no pixel seen)
    stats[0, 2:4] = -np.iinfo(np.int32).max
    stats[0, 4] = 0
    return int(count), labels, M["measure"].Measures(stats, _moments(labels, int(count), 0, 0))


def _moments(labels: NDArray[np.int32], count: int, dx: int, dy: int) -> NDArray[np.float64]:
    """Per label (0 left at zeros): n, sx, sy, sxx, syy, sxy of its pixels, shifted by
    (``dx``, ``dy``)."""
    ys, xs = np.nonzero(labels)
    k = labels[ys, xs]
    x, y = (xs + dx).astype(np.float64), (ys + dy).astype(np.float64)
    out = np.zeros((count, 6), np.float64)
    for i, wts in enumerate((None, x, y, x * x, y * y, x * y)):
        out[:, i] = np.bincount(k, wts, minlength=count)[:count]
    out[0] = 0
    return out


def _opened_cv(labels: NDArray[np.int32], measures: Any, big: NDArray[np.int64]
               ) -> tuple[int, Any]:
    """``measure.opened`` as this tree runs it (``cv2.morphologyEx(MORPH_OPEN)`` and OpenCV's
    labelling, box by box), with the copy's signature: no origins, the revision's
    ``Measures``."""
    count, got, _ = now_measure.opened(labels, now_measure.Measures(*measures), big)
    return count, M["measure"].Measures(got.stats, got.moments)


def _outside(mask: Image, unset: bool) -> NDArray[np.bool_]:
    """The 4-connected components of ``mask``'s set pixels (``unset``: its unset ones) that
    reach its border, by ``cv2.floodFill`` from a rim of such pixels around it."""
    h, w = mask.shape
    padded = np.full((h + 2, w + 2), 0 if unset else 255, np.uint8)
    padded[1:-1, 1:-1] = np.where(mask != 0, 255, 0)
    cv2.floodFill(padded, None, (0, 0), 128, flags=4)
    out: NDArray[np.bool_] = padded[1:-1, 1:-1] == 128
    return out


def _filled_cv(mask: Image) -> Image:
    out = np.full(mask.shape, 255, np.uint8)
    out[_outside(mask, True)] = 0
    return out


def _clear_reaching_cv(mask: Image, out: Image) -> None:
    out[_outside(mask, True)] = 0


def _reaching_border_cv(mask: Image) -> Image:
    return np.where(_outside(mask, False), 255, 0).astype(np.uint8)


def _papers_cv(lit: Image, dark: Image, core: Image, paper: Image, unmarked: Image) -> None:
    cv2.bitwise_and(lit, cv2.bitwise_not(dark), dst=paper)
    cv2.bitwise_and(lit, cv2.bitwise_not(core), dst=unmarked)


def _outside_cv(core: Image, inside: Image, out: Image) -> None:
    cv2.bitwise_and(core, cv2.bitwise_not(inside), dst=out)


def _ink_cv(dark: Image, inside: Image, cores: Image, out: Image) -> None:
    grown = cv2.dilate(cores, np.ones((3, 3), np.uint8))
    cv2.bitwise_and(dark, cv2.bitwise_or(inside, grown), dst=out)


def _mine_at_cv(labels: NDArray[np.int32], lut: NDArray[np.int16], own: NDArray[np.int64],
                order: NDArray[np.int64], mx: NDArray[np.float32], my: NDArray[np.float32],
                out: Image) -> None:
    """``patch._mine_at`` by ``cv2.remap`` of the labels (nearest, a constant border of
    label 0) and the look-up at the points."""
    got = np.empty(mx.shape, np.int32)
    for i in range(0, len(mx), M["patch"].REMAP_ROWS):
        cv2.remap(labels, mx[i:i + M["patch"].REMAP_ROWS], my[i:i + M["patch"].REMAP_ROWS],
                  cv2.INTER_NEAREST, dst=got[i:i + M["patch"].REMAP_ROWS],
                  borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    n, h, w = out.shape
    mine = own[order]
    at = lut[got.astype(np.int64)].reshape(n, h, w, 1)
    out[:] = ((at == mine[:, None, None, :]) & (mine[:, None, None, :] >= 0)).any(axis=3)


def _own_into_cv(patches: Image, mine: Image, order: NDArray[np.int64], top: int, left: int,
                 turned: bool, out: Image, dest: NDArray[np.int64]) -> None:
    """``patch._own_into`` by slicing, ``cv2.dilate`` (3 x 3) and ``np.where``."""
    n, h, w = patches.shape[:3]
    bh, bw = out.shape[1:3]
    r0, c0 = (h - top - bh, w - left - bw) if turned else (top, left)
    box = patches[:, r0:r0 + bh, c0:c0 + bw]
    if turned:
        box = box[:, ::-1, ::-1]
    target = dest[order]
    if mine.shape[0] == 0:
        out[target] = box
        return
    bright = box.max(axis=(1, 2))
    marks = np.zeros((n, bh + 1, bw), np.uint8)  # a row of nothing after each box
    marks[:, :bh] = mine[:, r0:r0 + bh, c0:c0 + bw]
    grown = cv2.dilate(marks.reshape(n * (bh + 1), bw), np.ones((3, 3), np.uint8))
    grown = grown.reshape(n, bh + 1, bw)[:, :bh]
    if turned:
        grown = grown[:, ::-1, ::-1]
    out[target] = np.where(grown[..., None] > 0, box, bright[:, None, None, :])


def _ninetieth_np(values: NDArray[np.float32]) -> np.floating[Any]:
    return np.percentile(values, 90)


def _describe_np(ranks: Image, suits: Image) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """``vectors.describe`` by numpy's float32 steps (what ``_inks``, ``_unit_row`` and
    ``_pairwise`` copy)."""
    n, (rh, rw), (sh, sw) = len(ranks), ranks.shape[1:3], suits.shape[1:3]
    if n == 0:
        return np.zeros((0, rh * rw), np.float32), np.zeros((0, sh * sw * 3), np.float32)
    grey = -ranks.min(axis=3).reshape(n, -1).astype(np.float32)
    soft = cv2.blur(np.ascontiguousarray(suits).reshape(n * sh, sw, 3), (3, 3))
    scale = np.float32(-1.0) / np.maximum(soft.reshape(n, -1, 3).max(axis=1), 1).astype(
        np.float32)
    ink = (suits.reshape(n, -1, 3) * scale[:, None, :]).astype(np.float32).reshape(n, -1)
    for v in (grey, ink):
        v -= v.mean(axis=1, keepdims=True)
        v /= np.maximum(np.sqrt(np.einsum("ij,ij->i", v, v)), np.float32(1e-6))[:, None]
    return grey, ink


def _no_tones(window: int, sharpen: float, sigma: float) -> bool:
    """``tones.compiled`` saying no: ``ink._opencv_tones`` (OpenCV's chain) makes the tones."""
    return False


def variants() -> dict[str, tuple[str, list[Patch]]]:
    """Per copy: what it copies, and the patches that put the library in its place (in the
    loaded revision's modules, ``M``)."""
    ink, patch, slots, strips = M["ink"], M["patch"], M["slots"], M["strips"]
    plain_init = M["pyramid"].Pyramid.__init__

    def whole_levels(self: Any, frame: Image) -> None:
        """``Pyramid`` with every level made whole by ``cv2.pyrDown``, not tile by tile."""
        plain_init(self, frame)
        self._tiled = False

    return {
        "pyramid._shrink": ("cv2.pyrDown, tile by tile where patches read",
                            [(M["pyramid"].Pyramid, "__init__", whole_levels)]),
        "tones.tones": ("split, min, dilate, blur, GaussianBlur, addWeighted, compare",
                        [(ink.tones, "compiled", _no_tones)]),
        "measure.label": ("cv2.connectedComponentsWithStats (CCL_BBDT) and moments",
                          [(ink, "label", _label_cv)]),
        "measure.opened": ("cv2.morphologyEx(MORPH_OPEN) and labelling, per large mark",
                           [(ink, "opened", _opened_cv)]),
        "measure.filled/clear_reaching/reaching_border": (
            "hole filling and border-reaching parts: cv2.floodFill",
            [(ink, "filled", _filled_cv), (ink, "clear_reaching", _clear_reaching_cv),
             (M["felt"], "reaching_border", _reaching_border_cv)]),
        "ink._papers/_outside/_ink": ("cv2.bitwise_and/not/or and cv2.dilate 3 x 3",
                                      [(ink, "_papers", _papers_cv),
                                       (ink, "_outside", _outside_cv), (ink, "_ink", _ink_cv)]),
        "patch._mine_at": ("cv2.remap (nearest) of the labels and a look-up",
                           [(patch, "_mine_at", _mine_at_cv)]),
        "patch._own_into": ("box copy, cv2.dilate 3 x 3, paint by np.where",
                            [(patch, "_own_into", _own_into_cv)]),
        "patch._grid": ("numpy broadcast of the remap grids", [(patch, "_grid", now_patch._grid)]),
        "vectors._inks/_unit_row/_pairwise": ("numpy's float32 min, scale, mean, einsum norm",
                                              [(patch, "describe", _describe_np)]),
        "slots._upright": ("cv2.warpAffine shears, cv2.morphologyEx(MORPH_OPEN) by a column",
                           [(slots, "_edges", now_slots._edges)]),
        "slots._large": ("np.bincount of labels and a look-up",
                         [(slots, "_large", now_slots._large)]),
        "strips._lows": ("numpy's point sampling, rounding, clipping, take and minima",
                         [(strips, "lows", now_strips.lows)]),
        "strips._eyes_show": ("numpy's arrays of points at every shift",
                              [(strips, "_eyes", now_strips._eyes)]),
        "strips._ninetieth": ("np.percentile(values, 90)",
                              [(strips, "_ninetieth", _ninetieth_np)]),
        "strips._edge_ratio": ("numpy min, mean, median",
                               [(strips, "_edge_ratio", now_strips._edge_ratio)]),
    }


# The copies kept (issue 33): none earns twice the speed alone, but together they do.
KEPT = ("measure.label", "measure.filled/clear_reaching/reaching_border", "patch._mine_at",
        "patch._own_into", "vectors._inks/_unit_row/_pairwise")


def _with_groups(table: dict[str, tuple[str, list[Patch]]]
                 ) -> dict[str, tuple[str, list[Patch]]]:
    """``table`` with ``kept`` (the copies kept, swapped at once) and ``all`` (every copy
    swapped at once)."""
    return {**table,
            "kept": ("the copies kept, at once", [p for n in KEPT for p in table[n][1]]),
            "all": ("every copy at once", [p for _, ps in table.values() for p in ps])}


NAMES = ("pyramid._shrink", "tones.tones", "measure.label", "measure.opened",
         "measure.filled/clear_reaching/reaching_border", "ink._papers/_outside/_ink",
         "patch._mine_at", "patch._own_into", "patch._grid",
         "vectors._inks/_unit_row/_pairwise", "slots._upright", "slots._large",
         "strips._lows", "strips._eyes_show", "strips._ninetieth", "strips._edge_ratio",
         "kept", "all")


def _load(rev: str, into: Path) -> ModuleType:
    """``rev``'s ``vision`` package, imported as ``OTHER`` from ``into`` (as
    ``bench_vision_pair`` loads its revision), its card modules put in ``M``; returns its
    ``cards`` package."""
    cards = vision_at(rev, into, OTHER)
    for name in _MODULES:
        M[name] = importlib.import_module(f"{OTHER}.cards.{name}")
    return cards


@contextmanager
def swapped(patches: Sequence[Patch]) -> Iterator[None]:
    """The attributes replaced by their stand-ins, put back after."""
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    try:
        for owner, name, stand_in in patches:
            setattr(owner, name, stand_in)
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


def _items(items: Sequence[Item]) -> list[tuple[object, ...]]:
    """What a read gives of each item, to compare two reads by."""
    return [(i.kind, i.code, i.confidence, i.center, i.corners, i.note) for i in items]


def compare(readers: Sequence[tuple[Any, list[Image]]], patches: Sequence[Patch],
            reps: int) -> tuple[list[float], list[float], int]:
    """Per frame (of all readers' frames) the least thread time of the whole read with the
    copy and with the library, and the number of frames read differently."""
    flush = np.zeros(8 << 20, np.uint8)
    copy_t: list[float] = []
    lib_t: list[float] = []
    differ = 0
    for reader, frames in readers:
        with swapped(patches):
            reader.read(frames[0])  # the stand-ins' first call, untimed
        for k, frame in enumerate(frames):
            best = [float("inf"), float("inf")]
            got: list[list[tuple[object, ...]]] = [[], []]
            for rep in range(reps):
                for side in ((0, 1) if (k + rep) % 2 == 0 else (1, 0)):
                    flush += 1  # out of the caches, as a frame rendered between reads
                    with swapped(patches if side else ()):
                        start = time.thread_time()
                        items = reader.read(frame)
                        best[side] = min(best[side], time.thread_time() - start)
                    got[side] = _items(items)
            copy_t.append(best[0])
            lib_t.append(best[1])
            differ += got[0] != got[1]
    return copy_t, lib_t, differ


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * len(values))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default=COPIES, help="a revision holding the copies")
    parser.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES)
    parser.add_argument("--frames", type=int, default=15, help="frames per style")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="+", choices=NAMES, default=list(NAMES))
    args = parser.parse_args()
    cv2.setNumThreads(1)
    keep_freed_memory()  # as the paigow command does (vision.memory)
    subprocess.run([str(ROOT / "scripts" / "test_assets.sh")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        cards = _load(args.rev, Path(tmp))
        readers: list[tuple[Any, list[Image]]] = []
        for style in args.styles:
            faces = cards.load_faces(assets_dir() / "cards" / style)
            deck = M["cache"].cached_deck(style, faces, assets_dir() / "decks")
            reader = cards.CardReader(deck)
            rng = np.random.default_rng(args.seed)
            frames = [table_scene(faces, rng)[0] for _ in range(args.frames)]
            for frame in frames:  # every path's kernels compiled (or loaded), untimed
                reader.read(frame)
            readers.append((reader, frames))
        print(f"at {args.rev[:12]}: {len(args.styles)} styles x {args.frames} frames, least of "
              f"{args.reps} reads a frame; ratio = library / copy per frame (median); keep "
              f"the copy at {KEEP:g}x")
        print(f"{'copy':<46} {'copy ms':>8} {'p95':>6} {'lib ms':>7} {'p95':>6} {'ratio':>6} "
              f"{'differ':>7}  verdict")
        table = _with_groups(variants())
        for name in args.only:
            copies, patches = table[name]
            copy_t, lib_t, differ = compare(readers, patches, args.reps)
            ratio = statistics.median(b / a for a, b in zip(copy_t, lib_t, strict=True))
            verdict = ("keep" if ratio >= KEEP else "kept with the others in kept"
                       if name in KEPT else "use the library")
            print(f"{name:<46} {1e3 * statistics.median(copy_t):8.1f} "
                  f"{1e3 * _p95(copy_t):6.1f} {1e3 * statistics.median(lib_t):7.1f} "
                  f"{1e3 * _p95(lib_t):6.1f} {ratio:6.3f} {differ:>3}/{len(copy_t):<3} "
                  f"{verdict}   ({copies})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
