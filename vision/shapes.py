"""The shapes of a layout's regions on the felt: boxes (turned or not) and circles.

A table's hand boxes follow its arc, so a box may be turned about its centre; a bet spot is a
circle. Every shape answers whether it holds a felt point, its area (the smallest region
holding a point wins) and its outline as a polygon, which the camera's homography maps to
image pixels. Units are the layout's (mm); y runs down the felt, so a positive angle turns a
box clockwise as the felt is drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
CIRCLE_SIDES = 64  # a circle's outline as a polygon: within 0.13 % of its radius


@dataclass(frozen=True)
class Box:
    """A rectangle ``width`` x ``height`` centred on ``center``, turned by ``angle`` degrees."""

    center: tuple[float, float]
    width: float
    height: float
    angle: float = 0.0

    @classmethod
    def from_rect(cls, x: float, y: float, width: float, height: float) -> Box:
        """The upright box with top-left corner ``(x, y)``."""
        return cls((x + width / 2, y + height / 2), width, height)

    @property
    def area(self) -> float:
        """Its area."""
        return self.width * self.height

    def corners(self) -> F64:
        """Its four corners (4 x 2): top-left, top-right, bottom-right, bottom-left of the
        upright box, turned."""
        hw, hh = self.width / 2, self.height / 2
        local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float64)
        return local @ _rotation(self.angle).T + np.array(self.center, np.float64)

    def polygon(self) -> F64:
        """Its outline: its corners."""
        return self.corners()

    def contains(self, x: float, y: float) -> bool:
        """Whether the felt point lies inside or on its edge."""
        # Into the box's own axes: turn the offset back by the box's angle.
        u, v = (float(c) for c in
                _rotation(-self.angle) @ np.array([x - self.center[0], y - self.center[1]]))
        eps = 1e-9 * max(self.width, self.height)
        return abs(u) <= self.width / 2 + eps and abs(v) <= self.height / 2 + eps


@dataclass(frozen=True)
class Circle:
    """A circle of ``radius`` about ``center``."""

    center: tuple[float, float]
    radius: float

    @property
    def area(self) -> float:
        """Its area."""
        return math.pi * self.radius**2

    def polygon(self) -> F64:
        """Its outline: a regular polygon of ``CIRCLE_SIDES`` sides on the circle."""
        a = np.linspace(0.0, 2 * math.pi, CIRCLE_SIDES, endpoint=False)
        return np.stack([self.center[0] + self.radius * np.cos(a),
                         self.center[1] + self.radius * np.sin(a)], axis=1)

    def contains(self, x: float, y: float) -> bool:
        """Whether the felt point lies inside or on the circle."""
        return math.hypot(x - self.center[0], y - self.center[1]) <= self.radius * (1 + 1e-9)


Shape = Box | Circle
FELT_SHAPES = ("rectangle", "semicircle")


@dataclass(frozen=True)
class Felt:
    """The felt: a ``width`` x ``height`` rectangle, or the half disc of a semicircle table,
    its straight edge (the dealer's) along the top, ``y = 0``, and its arc's radius
    ``height`` (so ``width`` is twice ``height``)."""

    width: float
    height: float
    shape: str = "rectangle"

    def outline(self) -> F64:
        """Its edge as a polygon (the arc as ``CIRCLE_SIDES`` segments)."""
        if self.shape == "semicircle":
            a = np.linspace(0.0, math.pi, CIRCLE_SIDES // 2 + 1)
            r = self.height
            return np.stack([self.width / 2 + r * np.cos(a), r * np.sin(a)], axis=1)
        return Box.from_rect(0, 0, self.width, self.height).corners()

    def holds_point(self, x: float, y: float) -> bool:
        """Whether a felt point lies on the felt (edges included)."""
        eps = 1e-9 * max(self.width, self.height)
        if self.shape == "semicircle":
            return y >= -eps and math.hypot(x - self.width / 2, y) <= self.height + eps
        return -eps <= x <= self.width + eps and -eps <= y <= self.height + eps

    def holds(self, shape: Shape) -> bool:
        """Whether a whole region lies on the felt. Both felts are convex, so a box lies on
        one when its corners do; a circle needs its radius clear of every edge."""
        if isinstance(shape, Box):
            return all(self.holds_point(float(x), float(y)) for x, y in shape.corners())
        (cx, cy), r = shape.center, shape.radius
        if self.shape == "semicircle":
            return cy >= r and math.hypot(cx - self.width / 2, cy) + r <= self.height * (1 + 1e-9)
        return r <= cx <= self.width - r and r <= cy <= self.height - r


def _rotation(degrees: float) -> F64:
    a = math.radians(degrees)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float64)
