"""Render one Pai Gow tile seen from above: a black tile with drilled red and white pips.

The look follows docs/sources.md: [T1], [T2]: black, about 2.6 times as long
as wide, incised pips painted white, red on every one and four, the 6-6 half red.  Sprites are
drawn once large and shrunk, so pip edges are smooth at any size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from .faces import ONE_SCALE, STANDARD_COLOURS, PipColours, layout

Image = npt.NDArray[np.uint8]
ASPECT = 2.6  # length / width
PIP_RADIUS = 0.085  # of the width
MARGIN_ACROSS = 0.14  # pip box inset across, of the width
MARGIN_END = 0.14  # pip box inset at the outer end, of the width
MARGIN_MIDDLE = 0.1  # pip box inset at the middle, of the width
_MASTER = 240  # pixels across the master drawing


@dataclass(frozen=True, slots=True)
class TileLook:
    """Colours of one set (BGR): body, bevelled edge, white and red paint."""

    body: tuple[int, int, int] = (26, 24, 24)
    edge: tuple[int, int, int] = (70, 68, 68)
    white: tuple[int, int, int] = (232, 236, 236)
    red: tuple[int, int, int] = (40, 36, 200)
    colours: PipColours = STANDARD_COLOURS


def pip_centre(u: float, v: float, top: bool, width: float) -> tuple[float, float]:
    """Pixel centre (x, y) on an upright tile ``width`` wide of an end-frame point (u, v)."""
    length = width * ASPECT
    x = width * (MARGIN_ACROSS + u * (1 - 2 * MARGIN_ACROSS))
    y = width * (MARGIN_END + v * (ASPECT / 2 - MARGIN_END - MARGIN_MIDDLE))
    return (x, y) if top else (width - x, length - y)


def render_tile(
    ends: tuple[int, int] | None, width: int, look: TileLook = TileLook()
) -> tuple[Image, Image]:
    """An upright tile ``width`` pixels wide: BGR image and alpha mask (ends None: face down).

    ``ends`` is (top, bottom); the bottom end is drawn half a turn round, as on a real tile.
    """
    image, alpha = _master(ends, look)
    size = (width, round(width * ASPECT))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    small_alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.uint8), np.asarray(small_alpha, np.uint8)


@lru_cache(maxsize=512)
def _master(ends: tuple[int, int] | None, look: TileLook) -> tuple[Image, Image]:
    """The tile drawn large (``_MASTER`` wide), shrunk to size by ``render_tile``."""
    w = _MASTER
    h = round(w * ASPECT)
    alpha = np.zeros((h, w), np.uint8)
    radius = max(2, round(0.1 * w))
    _rounded_rect(alpha, radius)
    # The bevel: a lighter rim that fades into the body over the outer tenth of the width.
    dist = cv2.distanceTransform(alpha, cv2.DIST_L2, 5)
    rim = np.clip(1.0 - dist / (0.07 * w), 0.0, 1.0)[..., None]
    body = np.array(look.body, np.float32)
    edge = np.array(look.edge, np.float32)
    canvas = body * (1 - rim) + edge * rim
    if ends is not None:
        top, bottom = ends
        for pips, other, is_top in ((top, bottom, True), (bottom, top, False)):
            reds = look.colours.red_mask(pips, other)
            for (u, v), red in zip(layout(pips, other), reds, strict=True):
                x, y = pip_centre(u, v, is_top, w)
                r = PIP_RADIUS * w * (ONE_SCALE if pips == 1 else 1.0)
                _drill(canvas, x, y, r, look.red if red else look.white)
    return np.asarray(np.clip(canvas, 0, 255), np.uint8), alpha


def _rounded_rect(mask: Image, radius: int) -> None:
    h, w = mask.shape
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1)


def _drill(canvas: npt.NDArray[np.float32], x: float, y: float, r: float,
           colour: tuple[int, int, int]) -> None:
    """Paint a drilled pip: the paint, a shadow crescent on the lit side's wall, a dark rim."""
    h, w = canvas.shape[:2]
    x0, x1 = max(0, int(x - r - 2)), min(w, int(x + r + 3))
    y0, y1 = max(0, int(y - r - 2)), min(h, int(y + r + 3))
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d = np.hypot(xx - x, yy - y)
    inside = np.clip(r - d + 0.5, 0.0, 1.0)
    shadow = np.clip(r - np.hypot(xx - x + 0.25 * r, yy - y + 0.25 * r) + 0.5, 0.0, 1.0)
    shade = 1.0 - 0.35 * (1.0 - shadow) - 0.25 * np.clip((d - 0.8 * r) / (0.2 * r), 0.0, 1.0)
    paint = np.array(colour, np.float32) * shade[..., None]
    patch = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = patch * (1 - inside[..., None]) + paint * inside[..., None]
