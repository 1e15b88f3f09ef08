"""Find objects lying on coloured felt: a mask of what is not felt, then one blob per object.

Felt is told apart by colour, not brightness: each pixel's colour minus its own grey level,
projected on the felt's colour direction.  Grey things (black tiles, white pips, white dice,
glare added on top) score near zero whatever the light, and the felt's score is compared with
its own neighbourhood, so uneven light across the table does not move the threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from ..errors import ImageError

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float32]  # 4 x 2 corners, clockwise on screen, first edge a short side
MIN_FELT_CHROMA = 8.0  # below this the felt is too grey for its colour to help
FELT_FRACTION = 0.5  # a pixel is felt when it has at least this share of its local felt colour
DARK_FRACTION = 0.55  # darker than this share of the felt's grey: an object (shadows are less)
BRIGHT_FACTOR = 1.4  # brighter than this many times the felt's grey: an object
# Felt colour strong enough that white under a tinted light (5 % tint: about 13) stays clear of
# half of it: only then is "bright but felt-coloured" taken for glare on the felt.
GATE_CHROMA = 35
COARSE = 16  # felt levels are worked out on a grid this many times coarser (tiles: 16, dice: 8)


@dataclass(frozen=True, slots=True)
class Blob:
    """One object on the felt: outline, corners, area and brightness relative to the felt."""

    contour: npt.NDArray[np.int32]
    quad: Quad
    area: float
    long_side: float
    short_side: float
    brightness: float  # median grey inside / the felt's grey level there

    @property
    def aspect(self) -> float:
        """Long side over short side."""
        return self.long_side / max(self.short_side, 1e-6)


def check_image(image: object) -> Image:
    """The image as a BGR uint8 array; ImageError naming the shape or type otherwise."""
    if not isinstance(image, np.ndarray):
        raise ImageError(f"expected a BGR image array, got {type(image).__name__!r}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ImageError(f"expected a BGR uint8 image (H x W x 3), got {image.dtype} "
                         f"array of shape {image.shape!r}")
    return np.asarray(image, np.uint8)


def felt_direction(image: Image) -> npt.NDArray[np.float32] | None:
    """The felt's colour minus its grey level (BGR), from the frame's median; None if grey."""
    small = cv2.resize(image, (image.shape[1] // 8, image.shape[0] // 8),
                       interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)
    chroma = small - small.mean(axis=1, keepdims=True)
    direction = np.median(chroma, axis=0)
    if float(np.linalg.norm(direction)) < MIN_FELT_CHROMA:
        return None
    return np.asarray(direction, np.float32)


def felt_grey(grey: Image, coarse: int = COARSE) -> Image:
    """The felt's grey level around each pixel: a median over about 350 px, so objects (even a
    hand of tiles set side by side) drop out."""
    h, w = grey.shape
    small = cv2.resize(grey, (max(w // coarse, 16), max(h // coarse, 16)),
                       interpolation=cv2.INTER_AREA)
    level = cv2.medianBlur(cv2.medianBlur(small, 15), 15)
    return np.asarray(cv2.resize(level, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)


Chroma = tuple[Image, Image] | None


def felt_chroma(image: Image, coarse: int = COARSE) -> Chroma:
    """How felt-coloured each pixel is (offset by 128), and the felt's own score nearby.

    None on grey felt.  Both are 8-bit images, so the masks below stay cheap.
    """
    direction = felt_direction(image)
    if direction is None:
        return None
    unit = direction / np.linalg.norm(direction)
    weights = unit - unit.sum() / 3.0  # projection of (pixel - its grey) on the felt colour
    matrix = np.append(weights, 128.0).reshape(1, 4).astype(np.float32)
    score = cv2.GaussianBlur(cv2.transform(image, matrix), (5, 5), 0)
    h, w = score.shape[:2]
    # The felt's colour strength nearby: a median over about 350 px, so objects drop out.
    small = cv2.resize(score, (max(w // coarse, 16), max(h // coarse, 16)),
                       interpolation=cv2.INTER_AREA)
    smooth = cv2.subtract(cv2.medianBlur(cv2.medianBlur(small, 15), 15), np.full_like(small, 128))
    strength = cv2.resize(smooth, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(score, np.uint8), np.asarray(strength, np.uint8)


def _scaled(image: Image, factor: float, offset: float = 0.0) -> Image:
    return np.asarray(cv2.convertScaleAbs(image, alpha=factor, beta=offset), np.uint8)


def dark_mask(grey: Image, level: Image, chroma: Chroma) -> Image:
    """255 where the frame is much darker than the felt or, on coloured felt, not felt-coloured."""
    mask = cv2.compare(cv2.GaussianBlur(grey, (5, 5), 0), _scaled(level, DARK_FRACTION),
                       cv2.CMP_LT)
    if chroma is not None:
        score, strength = chroma
        mask = cv2.bitwise_or(
            mask, cv2.compare(score, _scaled(strength, FELT_FRACTION, 128), cv2.CMP_LT))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)


def bright_mask(grey: Image, level: Image, chroma: Chroma) -> Image:
    """255 where the frame is much brighter than the felt around it and, on clearly coloured
    felt, not felt-coloured: white dice and cards, but not lamp glare on the felt."""
    mask = cv2.compare(cv2.GaussianBlur(grey, (3, 3), 0), _scaled(level, BRIGHT_FACTOR),
                       cv2.CMP_GT)
    if chroma is not None:
        score, strength = chroma
        grey_felt = cv2.compare(strength, np.full_like(strength, GATE_CHROMA), cv2.CMP_LT)
        not_felt = cv2.compare(score, _scaled(strength, FELT_FRACTION, 128), cv2.CMP_LT)
        mask = cv2.bitwise_and(mask, cv2.bitwise_or(not_felt, grey_felt))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)


def find_blobs(image: Image, bright: bool = False, min_area: float = 150.0,
               coarse: int = COARSE, darker_than: float | None = None) -> list[Blob]:
    """Objects on the felt at least ``min_area`` pixels large, holes filled.

    Dark or grey objects (tiles) by default; with ``bright``, also objects much brighter
    than the felt (white dice, whose shaded sides are grey).  The felt's level is a median
    over about 22 times ``coarse`` pixels: it must be well over twice the objects' size.
    With ``darker_than``, only objects whose ``brightness`` is below it are kept: a caller
    that wants none brighter (tiles) spares fitting their corners, the costly part.
    """
    image = check_image(image)
    if min(image.shape[:2]) < 64:
        return []
    grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    level = felt_grey(grey, coarse)
    chroma = felt_chroma(image, coarse)
    mask = dark_mask(grey, level, chroma)
    if bright:
        mask = np.asarray(cv2.bitwise_or(mask, bright_mask(grey, level, chroma)), np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    blobs = []
    for found in contours:
        contour = np.asarray(found, np.int32)
        area = float(cv2.contourArea(contour))
        if area < min_area:
            continue
        brightness = _brightness(grey, level, contour)
        if darker_than is not None and brightness >= darker_than:
            continue
        (_, (a, b), _) = cv2.minAreaRect(contour)
        blobs.append(Blob(contour, quad_of(contour), area, max(a, b), min(a, b), brightness))
    return blobs


def _brightness(grey: Image, level: Image, contour: npt.NDArray[np.int32]) -> float:
    """Median grey inside the outline over the felt's level at its middle."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, -1, offset=(-x, -y))
    body = float(np.median(grey[y:y + h, x:x + w][inside > 0]))
    return body / max(float(level[y + h // 2, x + w // 2]), 1.0)


def quad_of(contour: npt.NDArray[np.int32]) -> Quad:
    """Four corners of a roughly rectangular outline, ordered by ``order_quad``.

    The smallest enclosing rectangle is a first guess, refined twice by fitting a line to the
    middle of each side, so rounded corners and a tilted camera do not bend the corners.
    """
    box = order_quad(np.asarray(cv2.boxPoints(cv2.minAreaRect(contour)), np.float32))
    return refine_quad(contour, refine_quad(contour, box))


def refine_quad(contour: npt.NDArray[np.int32], quad: Quad) -> Quad:
    """Corners where lines fitted to the middle 60 % of each side meet; ``quad`` if that fails."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    short = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        side = b - a
        length = float(np.linalg.norm(side))
        if length < 4:
            return quad
        t = (pts - a) @ side / length**2
        normal = np.array([-side[1], side[0]]) / length
        band = max(3.0, 0.12 * short)
        near = (t > 0.2) & (t < 0.8) & (np.abs((pts - a) @ normal) < band)
        if near.sum() < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(pts[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        m = np.array([d, -e]).T
        if abs(float(np.linalg.det(m))) < 1e-3:
            return quad
        s, _ = np.linalg.solve(m, q - p)
        corners.append(p + s * d)
    out = np.asarray(corners, np.float32)
    if float(np.abs(out - quad).max()) > 0.25 * float(np.linalg.norm(quad[1] - quad[0])) + 4:
        return quad
    return out


def order_quad(points: npt.NDArray[np.float32]) -> Quad:
    """Corners clockwise on screen, starting so the first edge is one of the two short sides."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    pts = points[np.argsort(angles)]
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = np.roll(pts, -1, axis=0)
    return np.asarray(pts, np.float32)


def warp_quad(image: Image, quad: Quad, size: tuple[int, int]) -> Image:
    """The quad's content straightened to ``size`` (width, height), first edge along the top."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(quad, dst)
    return np.asarray(cv2.warpPerspective(image, m, size, flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)
