"""Table surfaces other than felt: wood and laminate, as tables outside casinos are.

Issue 33 wants the card reader to read on "any felt or table surface". A wooden surface is
the hard case: its grain is dark lines on a pale ground, as ink is on paper, and a pale
laminate is nearly as light as a card. ``Wood`` draws boards of grain (stripes whose phase
wanders, a few darker knots' rings) in light to mid browns, as a table top or a parquet.
Every surface has ``render(size, rng)`` as ``Felt`` does, so a ``Scene`` takes either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from .felt import Felt

Image = NDArray[np.uint8]

# BGR wood colours: pale birch or maple laminate, oak, a mid-brown parquet.
WOOD_COLOURS: tuple[tuple[int, int, int], ...] = (
    (170, 205, 225), (120, 170, 210), (80, 130, 185), (60, 100, 150),
)


class Surface(Protocol):
    """What a scene is laid on."""

    def render(self, size: tuple[int, int], rng: np.random.Generator) -> Image:
        """A BGR image of ``size`` (width, height)."""
        ...


@dataclass(frozen=True)
class Wood:
    """Boards of wood grain: ``boards`` (least, most) across the frame's width, the grain's
    depth (the darkest stripe's share below the ground) and its period in pixels."""

    colours: tuple[tuple[int, int, int], ...] = WOOD_COLOURS
    jitter: float = 10.0
    boards: tuple[int, int] = (1, 12)
    depth: tuple[float, float] = (0.08, 0.3)
    period: tuple[float, float] = (6.0, 18.0)

    def render(self, size: tuple[int, int], rng: np.random.Generator) -> Image:
        """A BGR wooden surface of ``size`` (width, height)."""
        w, h = size
        base = np.array(self.colours[int(rng.integers(len(self.colours)))], np.float32)
        base += rng.uniform(-self.jitter, self.jitter, 3).astype(np.float32)
        n = int(rng.integers(self.boards[0], self.boards[1] + 1))
        vertical = bool(rng.random() < 0.5)
        long, across = (h, w) if vertical else (w, h)
        edges = np.linspace(0, across, n + 1).round().astype(int)
        out = np.empty((across, long), np.float32)
        pos = np.arange(long, dtype=np.float32)
        for a, b in pairwise(edges.tolist()):
            rows = b - a
            if rows <= 0:
                continue
            # The grain: stripes along the board, their phase wandering slowly across it.
            wander = cv2.resize(rng.standard_normal((max(rows // 24, 2), max(long // 200, 2)))
                                .astype(np.float32), (long, rows),
                                interpolation=cv2.INTER_CUBIC)
            period = float(rng.uniform(*self.period))
            phase = (np.arange(rows, dtype=np.float32)[:, None] * 2 * np.pi / period
                     + wander * 1.5 + pos[None, :] * np.float32(rng.uniform(-0.01, 0.01)))
            stripe = (0.5 + 0.5 * np.sin(phase)) ** 4
            depth = float(rng.uniform(*self.depth))
            tone = float(rng.uniform(0.85, 1.1))
            out[a:b] = tone * (1.0 - depth * stripe)
            if a > 0:
                out[a] *= 0.75  # the joint between two boards
        if vertical:
            out = np.ascontiguousarray(out.T)
        fine = np.empty((h, w), np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(fine, np.float64(0.0), np.float64(0.02))  # type: ignore[call-overload]
        shade = out + fine
        return np.clip(cv2.merge([shade * float(c) for c in base]), 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class AnySurface:
    """Felt or wood, drawn per scene: wood with probability ``wood``."""

    wood: float = 0.5
    felt: Felt = field(default_factory=Felt)
    boards: Wood = field(default_factory=Wood)

    def render(self, size: tuple[int, int], rng: np.random.Generator) -> Image:
        """A BGR surface of ``size`` (width, height): felt or wood."""
        chosen: Surface = self.boards if rng.random() < self.wood else self.felt
        return chosen.render(size, rng)
