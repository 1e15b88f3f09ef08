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

from .camera import MARGIN, Mount

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
    width: float = 80.0
    hand: tuple[float, float] = (140.0, 105.0)
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
        # Only the box round the arm and its shadow is worked on: a fraction of the canvas.
        blur = 8.0 * ppm
        pad = (max(self.width * 1.2, self.hand[0]) / 2 + max(SHADOW_MM)) * ppm + 3 * blur
        ends = mount.to_canvas(np.array([self.shoulder, tip]))
        h, w = out.shape[:2]
        x0, y0 = (max(0, math.floor(float(ends[:, k].min()) - pad)) for k in (0, 1))
        x1 = min(w, math.ceil(float(ends[:, 0].max()) + pad))
        y1 = min(h, math.ceil(float(ends[:, 1].max()) + pad))
        if x1 <= x0 or y1 <= y0:
            return out
        roi = out[y0:y1, x0:x1]
        at = (float(x0), float(y0))
        shadow = np.zeros(roi.shape[:2], np.uint8)
        self._shape(shadow, mount, at, palm, wrist, (ux, uy), SHADOW_MM)
        soft = cv2.GaussianBlur(shadow, (0, 0), blur).astype(np.float32) / 255
        work = roi.astype(np.float32) * (1 - SHADOW * soft)[..., None]
        skin = np.zeros(roi.shape[:2], np.uint8)
        self._shape(skin, mount, at, palm, wrist, (ux, uy), (0.0, 0.0))
        sleeve = np.zeros(roi.shape[:2], np.uint8)
        _capsule(sleeve, mount, at, self.shoulder, elbow, self.width * 1.2, (0.0, 0.0))
        # Round, as a forearm is: brightest along its middle, darker at its sides.
        depth = cv2.distanceTransform(skin, cv2.DIST_L2, 3)
        shade = 0.6 + 0.4 * np.clip(depth / (0.35 * self.width * ppm), 0, 1)
        for mask, paint in ((skin, np.array(self.skin, np.float32) * shade[..., None]),
                            (sleeve, np.array(SLEEVE_BGR, np.float32))):
            a = (mask.astype(np.float32) / 255)[..., None]
            work = work * (1 - a) + paint * a
        roi[:] = np.clip(work, 0, 255).astype(np.uint8)
        return out

    def _shape(self, mask: Image, mount: Mount, at: tuple[float, float],
               palm: tuple[float, float], wrist: tuple[float, float],
               along: tuple[float, float], offset: tuple[float, float]) -> None:
        _capsule(mask, mount, at, self.shoulder, wrist, self.width, offset)
        centre = mount.to_canvas(np.array([[palm[0] + offset[0], palm[1] + offset[1]]]))[0]
        ppm = mount.px_per_mm
        axes = (round(self.hand[0] / 2 * ppm), round(self.hand[1] / 2 * ppm))
        angle = math.degrees(math.atan2(along[1], along[0]))
        cv2.ellipse(mask, (round(centre[0] - at[0]), round(centre[1] - at[1])), axes, angle,
                    0, 360, 255, -1, cv2.LINE_AA)


def _capsule(mask: Image, mount: Mount, at: tuple[float, float], a: tuple[float, float],
             b: tuple[float, float], width: float, offset: tuple[float, float]) -> None:
    """A thick line from ``a`` to ``b`` (felt mm, moved by ``offset``) drawn on ``mask``,
    whose top-left pixel is the canvas pixel ``at``."""
    ends = mount.to_canvas(np.array([[a[0] + offset[0], a[1] + offset[1]],
                                     [b[0] + offset[0], b[1] + offset[1]]])) - at
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
