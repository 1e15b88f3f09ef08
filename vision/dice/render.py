"""Render a die seen from above: white with black pips, lying flat or cocked on an edge.

White dice with black pips are what this project draws and reads (docs/sources.md:
[R3]): glare on a glossy white die is a pale smear, never a
dark spot, so it cannot pass for a pip, while on red dice with white pips it can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from .faces import layout

Image = npt.NDArray[np.uint8]
PIP_RADIUS = 0.09  # of the side
_MASTER = 192


@dataclass(frozen=True, slots=True)
class DieLook:
    """Colours of one set of dice (BGR): body and pips."""

    body: tuple[int, int, int] = (236, 238, 240)
    pip: tuple[int, int, int] = (28, 28, 30)


@lru_cache(maxsize=256)
def _face(value: int, turns: int, look: DieLook) -> Image:
    """One face drawn large: rounded edges shade towards the sides; pips slightly drilled."""
    n = _MASTER
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    edge = np.minimum(np.minimum(xx, n - 1 - xx), np.minimum(yy, n - 1 - yy)) / n
    shade = 0.8 + 0.2 * np.clip(edge / 0.1, 0.0, 1.0)
    img = np.array(look.body, np.float32)[None, None, :] * shade[..., None]
    for u, v in layout(value, turns):
        cx, cy, r = u * n, v * n, PIP_RADIUS * n
        d = np.hypot(xx - cx, yy - cy)
        inside = np.clip(r - d + 0.5, 0.0, 1.0)[..., None]
        deep = 1.0 + 0.4 * np.clip((d - 0.6 * r) / (0.4 * r), 0.0, 1.0)[..., None]
        img = img * (1 - inside) + np.array(look.pip, np.float32) * deep * inside
    return np.asarray(np.clip(img, 0, 255), np.uint8)


def _rounded_alpha(w: int, h: int, radius: int) -> Image:
    alpha = np.zeros((h, w), np.uint8)
    radius = max(1, min(radius, w // 2, h // 2))
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, lineType=cv2.LINE_AA)
    return alpha


def render_die(value: int, side: int, look: DieLook = DieLook(), turns: int = 0,
               strip: float = 0.0) -> Image:
    """A die lying flat, ``side`` pixels across, as BGRA.

    ``strip``: the share of the side of a neighbouring face the camera sees below the top
    face (a die seen a little from the side); ``turns``: quarter turns of the layout.
    """
    face = cv2.resize(_face(value, turns % 4, look), (side, side), interpolation=cv2.INTER_AREA)
    extra = round(strip * side)
    if extra:
        wall = np.array(look.body, np.float32) * 0.55
        band = np.broadcast_to(wall, (extra, side, 3)).astype(np.uint8)
        face = np.vstack([face, band])
    alpha = _rounded_alpha(side, side + extra, round(0.12 * side))
    return np.asarray(np.dstack([face, alpha]), np.uint8)


def render_cocked(top: int, front: int, side: int, tilt: float, look: DieLook = DieLook(),
                  turns: int = 0) -> Image:
    """A die cocked ``tilt`` degrees on an edge: its ``front`` face leans up into view, as BGRA.

    Seen from straight above, the top face shrinks by cos(tilt) and the front face shows
    sin(tilt) of its height; each is lit by how squarely it faces the lamp above.
    """
    t = math.radians(tilt)
    top_h = max(1, round(side * math.cos(t)))
    front_h = max(1, round(side * math.sin(t)))
    top_img = cv2.resize(_face(top, turns % 4, look), (side, top_h),
                         interpolation=cv2.INTER_AREA).astype(np.float32)
    front_img = cv2.resize(_face(front, (turns + 1) % 4, look), (side, front_h),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
    top_img *= 0.35 + 0.65 * math.cos(t)
    front_img *= 0.35 + 0.65 * math.sin(t)
    body = np.clip(np.vstack([front_img, top_img]), 0, 255).astype(np.uint8)
    alpha = _rounded_alpha(side, top_h + front_h, round(0.12 * side))
    return np.asarray(np.dstack([body, alpha]), np.uint8)
