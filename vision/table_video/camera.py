"""A table camera fixed above a layout's felt: its pose, its light, and each exposure.

``TableCamera`` holds the ranges a mounting is drawn from; ``TableCamera.mount(layout, rng)``
draws one: the homography from the felt (mm) to a ``size`` frame (the whole felt in view,
seen slightly from the dealer's side, not straight above: the far arc narrower than the
straight edge, a small turn, corners jittered), a light field (a slope and a soft spot, a
colour cast), lamps' glare, lens blur, sensor noise and JPEG quality. The pose and light stay
put for the whole recording, as a camera bolted over a table does; only the sensor noise is
drawn afresh per exposure, so frames of a still felt differ by noise and JPEG alone.

Frames are drawn from a *canvas*: the felt and its rail in felt mm, ``MARGIN`` mm wider on
every side, at ``Mount.px_per_mm`` (chosen about a quarter finer than the camera sees it, so
the view shrinks it, never enlarges it). A canvas pixel's centre ``(u, v)`` is the felt point
``((u + 0.5) / px_per_mm - MARGIN, (v + 0.5) / px_per_mm - MARGIN)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from ..layout import Layout
from ..scene.augment import glare, noise, uneven_light

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
Image = NDArray[np.uint8]
MARGIN = 110.0  # mm of rail (and of the dealer's side, where the arm comes from) round the felt
RAIL_BGR = (32, 44, 62)  # a dark wooden rail
FINER = 1.25  # canvas pixels per camera pixel


@dataclass(frozen=True)
class TableCamera:
    """Ranges of a mounting, each drawn uniformly once per ``mount``.

    ``size``: the frame (width, height); ``fill``: the share of the frame's width (or height)
    the felt spans; ``keystone``: how much narrower the far arc is seen than the straight
    edge; ``turn``: degrees the view is turned; ``jitter``: the largest move of a felt
    corner's image, as a share of the frame; ``light``: gain at the darkest and brightest;
    ``tint``: the largest per-channel colour cast; ``glare``: the most lamp spots and their
    peak (0..255 added); ``blur``: Gaussian sigma (pixels); ``noise``: sensor noise sigma
    (0..255); ``jpeg``: the JPEG quality.
    """

    size: tuple[int, int] = (1280, 720)
    fill: float = 0.9
    keystone: tuple[float, float] = (0.04, 0.1)
    turn: float = 2.0
    jitter: float = 0.01
    light: tuple[float, float] = (0.65, 1.1)
    tint: float = 0.06
    glare: tuple[int, float] = (2, 70.0)
    blur: tuple[float, float] = (0.3, 0.8)
    noise: tuple[float, float] = (2.0, 5.0)
    jpeg: tuple[int, int] = (80, 92)

    def mount(self, layout: Layout, rng: np.random.Generator) -> Mount:
        """One camera fixed over ``layout``'s felt, its pose and light drawn from ``rng``."""
        w, h = layout.felt
        fw, fh = self.size
        scale = self.fill * min(fw / w, fh / h)
        k = float(rng.uniform(*self.keystone))
        # The straight edge (top) at full width, the arc's bottom corners pulled in by k.
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        dst = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [(1 - k) * w / 2, h / 2],
                        [-(1 - k) * w / 2, h / 2]]) * scale
        a = np.radians(rng.uniform(-self.turn, self.turn))
        spin = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        dst = dst @ spin.T + (fw / 2, fh / 2)
        dst += rng.uniform(-self.jitter, self.jitter, (4, 2)) * (fw, fh)
        felt_to_image = cv2.getPerspectiveTransform(src.astype(np.float32),
                                                    dst.astype(np.float32)).astype(np.float64)
        # A whole number of pixels of margin: the printed sheet's pixels land on the canvas's.
        ppm = round(FINER * scale * MARGIN) / MARGIN
        ones = np.ones((fh, fw, 3), np.float32)
        gain = uneven_light(ones, self.light, self.tint, rng)
        shine = glare(np.zeros((fh, fw, 3), np.float32), self.glare[0], self.glare[1], rng)
        return Mount(self.size, felt_to_image, ppm, gain, shine,
                     float(rng.uniform(*self.blur)), float(rng.uniform(*self.noise)),
                     int(rng.integers(self.jpeg[0], self.jpeg[1] + 1)))


@dataclass(frozen=True, eq=False)
class Mount:
    """One camera fixed over a felt: its homography (felt mm to frame pixels), the canvas
    scale it is drawn from, its light (``gain`` times, plus ``shine``), blur, noise, JPEG."""

    size: tuple[int, int]
    felt_to_image: F64
    px_per_mm: float
    gain: F32
    shine: F32
    blur: float
    noise: float
    jpeg: int

    def canvas_for(self, layout: Layout) -> tuple[int, int]:
        """The canvas (width, height) in pixels: the felt and ``MARGIN`` round it."""
        w, h = layout.felt
        return (round((w + 2 * MARGIN) * self.px_per_mm), round((h + 2 * MARGIN) * self.px_per_mm))

    def to_canvas(self, points: F64) -> F64:
        """Felt points (N x 2, mm) as canvas pixel coordinates."""
        return (np.asarray(points, np.float64) + MARGIN) * self.px_per_mm - 0.5

    def to_image(self, points: F64) -> F64:
        """Felt points (N x 2, mm) as frame pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.felt_to_image),
                          np.float64).reshape(-1, 2)

    def view(self, canvas: Image) -> F32:
        """The canvas as the lens sees it, lit: warped, blurred, light and glare applied (no
        noise yet), as float pixels."""
        ppm = self.px_per_mm
        felt_of_canvas = np.array([[1 / ppm, 0, 0.5 / ppm - MARGIN],
                                   [0, 1 / ppm, 0.5 / ppm - MARGIN], [0, 0, 1]])
        # Shrinking by FINER: a little blur first so the warp does not alias the felt's weave.
        soft = cv2.GaussianBlur(canvas, (0, 0), 0.45 * FINER)
        image = cv2.warpPerspective(soft, self.felt_to_image @ felt_of_canvas, self.size,
                                    flags=cv2.INTER_LINEAR, borderValue=RAIL_BGR)
        work = image.astype(np.float32)
        if self.blur > 0.05:
            work = np.asarray(cv2.GaussianBlur(work, (0, 0), self.blur), np.float32)
        work *= self.gain
        work += self.shine
        return work

    def expose(self, lit: F32, rng: np.random.Generator) -> bytes:
        """One exposure of a lit view: sensor noise drawn from ``rng``, then JPEG bytes."""
        work = noise(lit.copy(), self.noise, rng)
        frame = np.clip(work, 0, 255).astype(np.uint8)
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg])
        if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
            raise RuntimeError("OpenCV could not encode a frame as JPEG")
        return bytes(data)


def decode(jpeg: bytes) -> Image:
    """A frame's JPEG bytes as the BGR image a reader of the file gets."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"not a JPEG image ({len(jpeg)} bytes)")
    return np.asarray(image, np.uint8)
