"""The dealer's arm over the felt: a skin-coloured forearm and hand reaching in from the
dealer's straight edge, with the soft shadow it casts, drawn on a table canvas.

A camera over a live table sees the dealer's hand each time the felt changes: laying packets,
turning hands up, setting the dealer's hand, clearing. It hides part of the felt and moves
from frame to frame; a still-scene detector must wait until it has gone. The arm is drawn on
the felt's plane (its height above the cloth is not modelled: a camera nearly overhead sees it
about where its shadow falls, a little offset).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from .table_camera import MARGIN, Mount

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
SKIN_BGR = (105, 140, 190)
SLEEVE_BGR = (35, 30, 30)  # a dealer's black sleeve, from the elbow up
SHADOW = 0.4  # how much light the arm's shadow takes from the felt
SHADOW_MM = (14.0, 22.0)  # how far from the arm its shadow falls on the felt


@dataclass(frozen=True)
class Arm:
    """An arm's shape (mm): the shoulder on the dealer's side (beyond the felt's straight
    edge, y < 0), the forearm's width, the hand's length and width, the skin's colour."""

    shoulder: tuple[float, float]
    width: float = 85.0
    hand: tuple[float, float] = (120.0, 90.0)
    skin: tuple[int, int, int] = SKIN_BGR

    def draw(self, canvas: Image, mount: Mount, tip: tuple[float, float]) -> Image:
        """A copy of ``canvas`` with the arm reaching from the shoulder to ``tip`` (felt mm)."""
        out = canvas.copy()
        sx, sy = self.shoulder
        dx, dy = tip[0] - sx, tip[1] - sy
        length = math.hypot(dx, dy)
        if length < 1.0:
            return out
        ux, uy = dx / length, dy / length
        palm = (tip[0] - ux * self.hand[0] / 2, tip[1] - uy * self.hand[0] / 2)
        wrist = (tip[0] - ux * self.hand[0], tip[1] - uy * self.hand[0])
        upper = min(length, 0.45 * length + 80)  # the sleeve's length, shoulder to elbow
        elbow = (sx + ux * upper, sy + uy * upper)
        ppm = mount.px_per_mm
        shadow = np.zeros(out.shape[:2], np.uint8)
        self._shape(shadow, mount, palm, wrist, (ux, uy), SHADOW_MM)
        soft = cv2.GaussianBlur(shadow, (0, 0), 8.0 * ppm).astype(np.float32) / 255
        work = out.astype(np.float32) * (1 - SHADOW * soft)[..., None]
        skin = np.zeros(out.shape[:2], np.uint8)
        self._shape(skin, mount, palm, wrist, (ux, uy), (0.0, 0.0))
        sleeve = np.zeros(out.shape[:2], np.uint8)
        _capsule(sleeve, mount, self.shoulder, elbow, self.width * 1.2, (0.0, 0.0))
        # Round, as a forearm is: brightest along its middle, darker at its sides.
        depth = cv2.distanceTransform(skin, cv2.DIST_L2, 3)
        shade = 0.6 + 0.4 * np.clip(depth / (0.35 * self.width * ppm), 0, 1)
        for mask, colour in ((skin, self.skin), (sleeve, SLEEVE_BGR)):
            a = (mask.astype(np.float32) / 255)[..., None]
            paint = np.array(colour, np.float32) * (shade[..., None] if colour == self.skin
                                                    else 1.0)
            work = work * (1 - a) + paint * a
        return np.clip(work, 0, 255).astype(np.uint8)

    def _shape(self, mask: Image, mount: Mount, palm: tuple[float, float],
               wrist: tuple[float, float], along: tuple[float, float],
               offset: tuple[float, float]) -> None:
        _capsule(mask, mount, self.shoulder, wrist, self.width, offset)
        centre = mount.to_canvas(np.array([[palm[0] + offset[0], palm[1] + offset[1]]]))[0]
        ppm = mount.px_per_mm
        axes = (round(self.hand[0] / 2 * ppm), round(self.hand[1] / 2 * ppm))
        angle = math.degrees(math.atan2(along[1], along[0]))
        cv2.ellipse(mask, (round(centre[0]), round(centre[1])), axes, angle, 0, 360, 255, -1,
                    cv2.LINE_AA)


def _capsule(mask: Image, mount: Mount, a: tuple[float, float], b: tuple[float, float],
             width: float, offset: tuple[float, float]) -> None:
    ends = mount.to_canvas(np.array([[a[0] + offset[0], a[1] + offset[1]],
                                     [b[0] + offset[0], b[1] + offset[1]]]))
    p, q = (tuple(round(float(c)) for c in e) for e in ends)
    cv2.line(mask, (p[0], p[1]), (q[0], q[1]), 255, max(1, round(width * mount.px_per_mm)),
             cv2.LINE_AA)


def dealer_arm(felt_width: float, rng: np.random.Generator) -> Arm:
    """The dealer's arm for one reach: the shoulder behind the straight edge near its middle,
    the left or right arm, the skin's tone drawn from ``rng``."""
    side = -1 if rng.random() < 0.5 else 1
    x = felt_width / 2 + side * float(rng.uniform(120, 260))
    tone = float(rng.uniform(0.55, 1.1))
    b, g, r = (round(min(255.0, c * tone)) for c in SKIN_BGR)
    return Arm((x, -MARGIN - 150.0), skin=(b, g, r))
