"""Read one straightened tile: find its pips, count each end, check layout and colour, name it.

The tile comes in upright, ``WIDTH`` x ``LENGTH`` pixels.  Every check must pass or the answer
is unknown: pip sizes, each end's count and layout (either diagonal), the red count of each end
against the set's colouring, and a clear gap between pip and body brightness.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .faces import ONE_SCALE, STANDARD_COLOURS, PipColours, code_of, layout
from .render import ASPECT, MARGIN_ACROSS, MARGIN_END, MARGIN_MIDDLE, PIP_RADIUS, Image

WIDTH = 64
LENGTH = round(WIDTH * ASPECT)
PIP_AREA = np.pi * (PIP_RADIUS * WIDTH) ** 2
LAYOUT_TOLERANCE = 0.1  # largest pip offset from its place, in tile widths (a 6 read as 5: 0.17)
RED_SPLIT = 0.4  # redness above: red pip; the band around it is "unsure"
RED_UNSURE = 0.2
MIN_CONTRAST = 30.0  # weakest pip must stand this far above the body


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip found: centre (pixels, upright tile), area, redness, contrast over the body."""

    x: float
    y: float
    area: float
    redness: float
    contrast: float


@dataclass(frozen=True, slots=True)
class TileRead:
    """The reading of one tile: ``code`` None when unsure, with the reason in ``note``."""

    code: str | None
    confidence: float
    ends: tuple[int, int]
    reds: tuple[int, int]
    note: str | None = None


def _unknown(note: str, ends: tuple[int, int] = (0, 0),
             reds: tuple[int, int] = (0, 0)) -> TileRead:
    return TileRead(None, 0.0, ends, reds, note)


def find_pips(tile: Image) -> tuple[list[Pip], float, str | None]:
    """Pips of an upright tile, the threshold used, and why the pips cannot be trusted (or None)."""
    b, g, r = cv2.split(tile)
    top = cv2.max(cv2.max(b, g), r)
    # Top-hat: what stands out above the body at pip scale; slow glare and the rim fall away.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (27, 27))
    hat = cv2.morphologyEx(top, cv2.MORPH_TOPHAT, kernel).astype(np.float32)
    inset = round(0.15 * WIDTH)  # pips keep 0.23 widths from the sides; the rim stays out
    inner = np.zeros_like(top)
    inner[inset:LENGTH - inset, inset:WIDTH - inset] = 1
    response = cv2.GaussianBlur(hat, (3, 3), 0) * inner
    peak = float(response.max())
    # Segment low, then measure each pip at half its own height, so dimmer (red) pips are
    # sized like bright ones.
    threshold = max(MIN_CONTRAST * 0.5, 0.3 * peak)
    binary = np.where(response > threshold, 255, 0).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    body_px = ((labels == 0) & (inner > 0)).astype(np.uint8)
    body = cv2.mean(tile, mask=body_px)[:3]
    pips: list[Pip] = []
    problem = None
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < 0.12 * PIP_AREA:
            continue  # a speck of noise: its half-height area below is smaller still
        x, y, w, h = (int(v) for v in stats[i, :4])
        sel = labels[y:y + h, x:x + w] == i
        resp = response[y:y + h, x:x + w]
        contrast = float(resp[sel].max())
        half = sel & (resp > 0.5 * contrast)
        area = float(half.sum())
        if area < 0.12 * PIP_AREA:
            continue  # a speck of noise
        if x <= inset or y <= inset or x + w >= WIDTH - inset or y + h >= LENGTH - inset:
            if max(w, h) > 2.5 * min(w, h):
                continue  # a strip of the bevelled rim, not a pip
            problem = "blob at the edge"
        if area < 0.3 * PIP_AREA or area > 2.4 * PIP_AREA:
            problem = f"blob of {area / PIP_AREA:.2f} pip areas"
            continue
        ys, xs = np.nonzero(half)
        # The paint's own colour: the pip's core less the body around it, so blur that mixes
        # in the black body does not wash the red out.
        core = sel & (resp > 0.7 * contrast)
        paint = cv2.mean(tile[y:y + h, x:x + w], mask=core.astype(np.uint8))
        pb, pg, pr = (paint[c] - body[c] for c in range(3))
        redness = (pr - max(pg, pb)) / max(pr, 1.0)
        pips.append(Pip(x + float(xs.mean()), y + float(ys.mean()), area, redness, contrast))
    return pips, threshold, problem


def _end_frame(pip: Pip, top: bool) -> tuple[float, float]:
    """A pip's place (u, v) in its end's own frame (inverse of ``render.pip_centre``)."""
    x, y = (pip.x, pip.y) if top else (WIDTH - pip.x, LENGTH - pip.y)
    u = (x / WIDTH - MARGIN_ACROSS) / (1 - 2 * MARGIN_ACROSS)
    v = (y / WIDTH - MARGIN_END) / (ASPECT / 2 - MARGIN_END - MARGIN_MIDDLE)
    return u, v


def layout_error(pips: list[Pip], top: bool, count: int, other: int) -> float:
    """Largest offset (tile widths) of the pips from the end's layout, the better of its mirrors."""
    sx, sy = 1 - 2 * MARGIN_ACROSS, ASPECT / 2 - MARGIN_END - MARGIN_MIDDLE
    seen = [_end_frame(p, top) for p in pips]
    best = float("inf")
    for mirror in (False, True):
        want = [((1 - u) if mirror else u, v) for u, v in layout(count, other)]
        free = list(range(len(seen)))
        worst = 0.0
        for u, v in want:
            dists = [np.hypot((seen[j][0] - u) * sx, (seen[j][1] - v) * sy) for j in free]
            k = int(np.argmin(dists))
            worst = max(worst, float(dists[k]))
            free.pop(k)
        best = min(best, worst)
    return best


def read_face(tile: Image, colours: PipColours = STANDARD_COLOURS) -> TileRead:
    """Name an upright ``WIDTH`` x ``LENGTH`` tile image, or say why it cannot."""
    pips, threshold, problem = find_pips(tile)
    if problem is not None:
        return _unknown(problem)
    if not pips:
        return _unknown("face down or no pips")
    halves = ([p for p in pips if p.y < LENGTH / 2], [p for p in pips if p.y >= LENGTH / 2])
    ends = (len(halves[0]), len(halves[1]))
    if not all(1 <= n <= 6 for n in ends):
        return _unknown(f"{ends[0]} and {ends[1]} pips", ends)
    if any(abs(p.y - LENGTH / 2) < 0.06 * WIDTH for p in pips):
        return _unknown("pip on the middle line", ends)
    reds = tuple(sum(p.redness > RED_SPLIT for p in half) for half in halves)
    red_ends = (reds[0], reds[1])
    margins = [1.0]
    # Pips are drawn alike (ones larger): each is checked against the tile's typical pip.
    typical = float(np.median([p.area / (ONE_SCALE**2 if n == 1 else 1.0)
                               for half, n in zip(halves, ends, strict=True) for p in half]))
    for half, n, other, red, top in ((halves[0], ends[0], ends[1], reds[0], True),
                                     (halves[1], ends[1], ends[0], reds[1], False)):
        error = layout_error(half, top, n, other)
        if error > LAYOUT_TOLERANCE:
            return _unknown(f"{n} pips out of place by {error:.2f}", ends, red_ends)
        if red != colours.red_count(n, other):
            return _unknown(f"{red} red of {n} pips", ends, red_ends)
        margins.append(1 - error / LAYOUT_TOLERANCE)
        for p in half:
            size = p.area / (typical * (ONE_SCALE**2 if n == 1 else 1.0))
            if not 0.5 < size < 2.0:
                return _unknown(f"pip of {size:.2f} times the usual area", ends, red_ends)
            if abs(p.redness - RED_SPLIT) < RED_UNSURE:
                return _unknown(f"pip colour unsure ({p.redness:.2f})", ends, red_ends)
            margins.append(abs(p.redness - RED_SPLIT) / 0.4)
            margins.append((p.contrast - threshold) / max(threshold, 1.0))
    weakest = min(p.contrast for p in pips)
    if weakest < MIN_CONTRAST:
        return _unknown(f"pips too faint ({weakest:.0f})", ends, red_ends)
    confidence = 0.5 + 0.5 * float(np.clip(min(margins), 0.0, 1.0))
    return TileRead(code_of(*ends), confidence, ends, red_ends)

