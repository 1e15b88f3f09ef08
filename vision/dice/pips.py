"""Read one straightened die face: dark pips on a white face, matched to a layout or refused."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .faces import layout
from .render import PIP_RADIUS, Image

SIDE = 64
PIP_AREA = np.pi * (PIP_RADIUS * SIDE) ** 2
LAYOUT_TOLERANCE = 0.09  # largest pip offset from its place, in sides (next place: 0.25)
MIN_CONTRAST = 40.0  # pips must be this much darker than the face


@dataclass(frozen=True, slots=True)
class FaceRead:
    """A face's value (None when unsure, with the reason) and how sure the reading is."""

    value: int | None
    confidence: float
    note: str | None = None


def read_face(face: Image) -> FaceRead:
    """The value of a ``SIDE`` x ``SIDE`` straightened die face (BGR), or why not."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    # Black-hat: how much darker than the face around it, at pip scale.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (25, 25))
    hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, kernel).astype(np.float32)
    inset = round(0.1 * SIDE)  # pips keep 0.16 sides from the edges; the shaded rim stays out
    response = np.zeros_like(hat)
    response[inset:SIDE - inset, inset:SIDE - inset] = cv2.GaussianBlur(hat, (3, 3), 0)[
        inset:SIDE - inset, inset:SIDE - inset]
    peak = float(response.max())
    if peak < MIN_CONTRAST:
        return FaceRead(None, 0.0, "no pips")
    binary = np.where(response > 0.3 * peak, 255, 0).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    pips: list[tuple[float, float, float, float]] = []  # x, y, area at half depth, depth
    for i in range(1, count):
        x, y, w, h = (int(v) for v in stats[i, :4])
        sel = labels[y:y + h, x:x + w] == i
        resp = response[y:y + h, x:x + w]
        depth = float(resp[sel].max())
        half = sel & (resp > 0.5 * depth)
        area = float(half.sum())
        if area < 0.12 * PIP_AREA:
            continue
        if x <= inset or y <= inset or x + w >= SIDE - inset or y + h >= SIDE - inset:
            if max(w, h) > 2.5 * min(w, h):
                continue  # the shaded rim of the die, not a pip
            return FaceRead(None, 0.0, "dark mark at the edge of the face")
        if not 0.3 * PIP_AREA <= area <= 2.2 * PIP_AREA:
            return FaceRead(None, 0.0, f"dark blob of {area / PIP_AREA:.2f} pip areas")
        if depth < MIN_CONTRAST:
            return FaceRead(None, 0.0, f"faint pip ({depth:.0f})")
        ys, xs = np.nonzero(half)
        pips.append((x + float(xs.mean()), y + float(ys.mean()), area, depth))
    n = len(pips)
    if not 1 <= n <= 6:
        return FaceRead(None, 0.0, f"{n} pips")
    areas = [p[2] for p in pips]
    if max(areas) > 1.8 * min(areas):
        return FaceRead(None, 0.0, "pips of unequal size")
    error = min(_layout_error(pips, n, turns) for turns in (0, 1))
    if error > LAYOUT_TOLERANCE:
        return FaceRead(None, 0.0, f"{n} pips out of place by {error:.2f}")
    weakest = min(p[3] for p in pips)
    margin = min(1 - error / LAYOUT_TOLERANCE, (weakest - 0.3 * peak) / max(0.7 * peak, 1.0))
    return FaceRead(n, 0.5 + 0.5 * float(np.clip(margin, 0.0, 1.0)))


def _layout_error(pips: list[tuple[float, float, float, float]], value: int,
                  turns: int) -> float:
    """Largest distance (in sides) from a wanted place to the nearest unused pip."""
    seen = [(p[0] / SIDE, p[1] / SIDE) for p in pips]
    free = list(range(len(seen)))
    worst = 0.0
    for u, v in layout(value, turns):
        dists = [float(np.hypot(seen[j][0] - u, seen[j][1] - v)) for j in free]
        k = int(np.argmin(dists))
        worst = max(worst, dists[k])
        free.pop(k)
    return worst
