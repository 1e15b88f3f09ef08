"""A scene: items placed on a felt, composited top-down, then seen through a camera.

Items are stacked in the order they are placed (later on top). Each casts a soft shadow on
what lies below, so the edge of a card lying on another card shows, as on a real table.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from ..items import Kind
from .augment import Camera, CameraShot
from .felt import Felt
from .paper import Paper
from .surface import Surface

Image = NDArray[np.uint8]
Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Pose:
    """Where an item lies on the felt, in scene pixels before the camera.

    ``x``, ``y``: the item's centre; ``angle``: degrees the item is turned counter-clockwise
    as seen in the image (0: upright); ``scale``: output pixels per pixel of the item image.
    """

    x: float
    y: float
    angle: float = 0.0
    scale: float = 1.0

    def matrix(self, width: int, height: int) -> NDArray[np.float64]:
        """The 2x3 affine map from item-image pixels to scene pixels."""
        a = math.radians(self.angle)
        c, s = math.cos(a) * self.scale, math.sin(a) * self.scale
        # y points down, so a counter-clockwise turn on screen is (c, s; -s, c).
        m = np.array([[c, s, 0.0], [-s, c, 0.0]])
        cx, cy = (width - 1) / 2, (height - 1) / 2
        m[0, 2] = self.x - (c * cx + s * cy)
        m[1, 2] = self.y - (-s * cx + c * cy)
        return m


@dataclass(frozen=True)
class Placement:
    """Ground truth for one placed item, in output-image pixels (after the camera).

    ``corners``: the item image's corners (top-left, top-right, bottom-right, bottom-left of
    the image as given to ``place``); ``visible``: the fraction of its opaque area not covered
    by items placed later; ``z``: its place in the stack (0 at the bottom).
    """

    label: str
    kind: Kind
    corners: Quad
    center: tuple[float, float]
    visible: float
    z: int
    pose: Pose


@dataclass
class _Entry:
    image: Image
    pose: Pose
    label: str
    kind: Kind


@dataclass
class Scene:
    """A canvas of ``size`` (width, height) pixels to place item images on, then render."""

    size: tuple[int, int] = (1280, 720)
    felt: Surface = field(default_factory=Felt)  # what the items lie on: felt, or wood
    shadow: float = 0.35
    paper: Paper | None = None  # each card's stock finished so when rendered (``Paper``)
    _entries: list[_Entry] = field(default_factory=list)

    def place(self, image_rgba: Image, pose: Pose, label: str, kind: Kind = "card") -> None:
        """Put an item image (BGRA, or BGR for an opaque one) on top of the stack."""
        if image_rgba.ndim != 3 or image_rgba.shape[2] not in (3, 4):
            raise ValueError(
                f"item {label!r}: expected a BGR or BGRA image, got {image_rgba.shape}")
        if image_rgba.shape[2] == 3:
            alpha = np.full((*image_rgba.shape[:2], 1), 255, np.uint8)
            image_rgba = np.concatenate([image_rgba, alpha], axis=2)
        k = int(0.8 / pose.scale) if pose.scale > 0 else 1
        if k >= 2:
            # Shrink first by whole steps with area averaging, as a camera sensor does
            # (warping alone aliases thin lines); whole steps keep it fast.
            image_rgba = np.asarray(cv2.resize(
                image_rgba, None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA
            ), np.uint8)
            pose = dataclasses.replace(pose, scale=pose.scale * k)
        self._entries.append(_Entry(image_rgba, pose, label, kind))

    def render(
        self, rng: np.random.Generator, camera: Camera | None = None
    ) -> tuple[Image, list[Placement]]:
        """The BGR frame and the ground truth of every placed item, bottom to top."""
        w, h = self.size
        canvas = self.felt.render(self.size, rng).astype(np.float32)
        owner = np.full((h, w), -1, np.int16)
        areas: list[int] = []
        quads: list[NDArray[np.float64]] = []
        for index, entry in enumerate(self._entries):
            if self.paper is not None and entry.kind == "card":
                entry = dataclasses.replace(entry, image=self.paper.finish(entry.image, rng))
            quad, area = self._composite(canvas, owner, entry, index)
            quads.append(quad)
            areas.append(area)
        frame = np.clip(canvas, 0, 255).astype(np.uint8)
        shot: CameraShot = (camera or Camera()).shoot(frame, rng)
        counts = np.bincount(owner[owner >= 0].ravel(), minlength=len(self._entries))
        truth = []
        for index, entry in enumerate(self._entries):
            q = shot.project(quads[index])
            corners = tuple((float(x), float(y)) for x, y in q)
            cx, cy = shot.project(quads[index].mean(axis=0, keepdims=True))[0]
            truth.append(
                Placement(
                    label=entry.label,
                    kind=entry.kind,
                    corners=(corners[0], corners[1], corners[2], corners[3]),
                    center=(float(cx), float(cy)),
                    visible=float(counts[index]) / max(areas[index], 1),
                    z=index,
                    pose=entry.pose,
                )
            )
        return shot.image, truth

    def _composite(
        self, canvas: NDArray[np.float32], owner: NDArray[np.int16], entry: _Entry, index: int
    ) -> tuple[NDArray[np.float64], int]:
        ih, iw = entry.image.shape[:2]
        m = entry.pose.matrix(iw, ih)
        src = np.array([[0, 0], [iw - 1, 0], [iw - 1, ih - 1], [0, ih - 1]], np.float64)
        quad = src @ m[:, :2].T + m[:, 2]
        h, w = owner.shape
        pad = 6
        x0 = max(math.floor(quad[:, 0].min()) - pad, 0)
        y0 = max(math.floor(quad[:, 1].min()) - pad, 0)
        x1 = min(math.ceil(quad[:, 0].max()) + pad + 1, w)
        y1 = min(math.ceil(quad[:, 1].max()) + pad + 1, h)
        if x1 <= x0 or y1 <= y0:
            return quad, 0
        local = m.copy()
        local[:, 2] -= (x0, y0)
        patch = cv2.warpAffine(
            entry.image, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        alpha = patch[:, :, 3].astype(np.float32) * np.float32(1 / 255)
        keep = 1.0 - alpha
        if self.shadow > 0:
            size = max(3, round(0.03 * entry.pose.scale * max(iw, ih)) | 1)
            soft = cv2.GaussianBlur(alpha, (size, size), 0)
            soft = np.roll(soft, (1, 1), axis=(0, 1))
            keep *= 1.0 - self.shadow * soft
        roi = canvas[y0:y1, x0:x1]
        roi *= cv2.cvtColor(keep, cv2.COLOR_GRAY2BGR)
        roi += patch[:, :, :3].astype(np.float32) * cv2.cvtColor(alpha, cv2.COLOR_GRAY2BGR)
        opaque = patch[:, :, 3] > 127
        owner[y0:y1, x0:x1][opaque] = index
        return quad, int(np.count_nonzero(opaque))
