"""Rendered table scenes with Pai Gow tiles and their ground truth, for tests and benchmarks.

Built on the shared scene renderer (``vision.scene``): felt, shadows, camera and its effects.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..scene import Camera, Felt, Pose
from ..scene import Scene as Canvas
from .faces import full_set
from .render import ASPECT, Image, TileLook, render_tile

Rect = tuple[tuple[float, float], tuple[float, float], float]


@dataclass(frozen=True, slots=True)
class Truth:
    """One object placed in a scene: its code (None face down), centre and corners in the image."""

    code: str | None
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Scene:
    """A rendered frame and what is on it."""

    image: Image
    truths: tuple[Truth, ...]


def random_look(rng: np.random.Generator, palette: int = 8) -> TileLook:
    """A set's colours, one of ``palette`` variants: black to charcoal, creamy or cold whites.

    A small palette lets drawn tiles be reused between scenes.
    """
    rng = np.random.default_rng(int(rng.integers(palette)))
    b = int(rng.integers(14, 34))
    e = int(rng.integers(55, 85))
    white = tuple(int(v) for v in rng.integers(215, 246, 3))
    red = (int(rng.integers(25, 60)), int(rng.integers(20, 55)), int(rng.integers(170, 225)))
    return TileLook(body=(b, b, b + 2), edge=(e, e, e), white=(white[0], white[1], white[2]),
                    red=red)


def free_spot(rng: np.random.Generator, taken: list[Rect], size: tuple[float, float],
              gap: float, frame: tuple[int, int], margin: float = 60.0,
              ) -> tuple[float, float, float] | None:
    """A centre (x, y) and angle where a ``size`` rectangle keeps ``gap`` from every taken one.

    The angle is counter-clockwise on screen, as ``Pose`` takes it; the centre keeps ``margin``
    plus half the rectangle's length from the frame's edges.
    """
    w, h = frame
    edge = margin + max(size) / 2
    for _ in range(200):
        x, y = float(rng.uniform(edge, w - edge)), float(rng.uniform(edge, h - edge))
        angle = float(rng.uniform(0, 360))
        # OpenCV turns rectangles clockwise on screen, Pose counter-clockwise.
        mine = ((x, y), (size[0] + gap, size[1] + gap), -angle)
        if all(cv2.rotatedRectangleIntersection(mine, other)[0] == cv2.INTERSECT_NONE
               for other in taken):
            taken.append(mine)
            return x, y, angle
    return None


def bgra(image: Image, alpha: Image) -> Image:
    """A BGR image and its alpha mask as one BGRA image."""
    return np.asarray(np.dstack([image, alpha]), np.uint8)


def tile_scene(rng: np.random.Generator, count: int | None = None,
               width: tuple[int, int] = (34, 60), face_down: float = 0.0,
               camera: Camera | None = None, size: tuple[int, int] = (1280, 720),
               touching: int = 1, felt: Felt | None = None) -> Scene:
    """A frame with ``count`` tiles (4-10 by default) drawn from one set.

    ``touching`` tiles lie side by side, long edges together, as a hand is often set (1: each
    tile on its own, apart from the others).  ``width`` bounds the tile width in pixels (its
    length is 2.6 times that); ``face_down`` is the chance a tile shows its back; ``camera``
    sets tilt, light, glare, blur and noise; ``felt`` the cloth (random colour by default).
    """
    n = int(rng.integers(4, 11)) if count is None else count
    codes = [str(c) for c in rng.choice(np.array(full_set()), size=min(n, 32), replace=False)]
    canvas = Canvas(size=size) if felt is None else Canvas(size=size, felt=felt)
    look = random_look(rng)
    taken: list[Rect] = []
    labels: list[str | None] = []
    for first in range(0, len(codes), touching):
        group = codes[first:first + touching]
        tw = int(rng.integers(width[0], width[1] + 1))
        gap = float(rng.uniform(0.0, 1.5)) if len(group) > 1 else 0.0
        spot = free_spot(rng, taken, (len(group) * (tw + gap), tw * ASPECT), 8.0, size)
        if spot is None:
            continue
        x, y, angle = spot
        # The group's own x axis on screen, Pose turning counter-clockwise with y down.
        ux, uy = np.cos(np.radians(angle)), -np.sin(np.radians(angle))
        for i, code in enumerate(group):
            a, b = (int(p) for p in code.split("-"))
            ends = (a, b) if rng.random() < 0.5 else (b, a)
            down = bool(rng.random() < face_down)
            sprite, alpha = render_tile(None if down else ends, tw, look)
            shift = (i - (len(group) - 1) / 2) * (tw + gap)
            pose = Pose(x + shift * ux, y + shift * uy, angle)
            canvas.place(bgra(sprite, alpha), pose, code, "tile")
            labels.append(None if down else code)
    image, placements = canvas.render(rng, camera)
    truths = tuple(Truth(label, p.center, p.corners)
                   for label, p in zip(labels, placements, strict=True))
    return Scene(image, truths)
