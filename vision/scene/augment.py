"""The camera: perspective, uneven light, glare, blur and noise applied to a top-down frame.

``Camera`` holds the ranges; ``Camera.shoot(frame, rng)`` draws one set of effects and returns
the image with the homography it used, so ground truth follows the picture. Each effect is
also a plain function, for recognisers that augment their own crops the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class CameraShot:
    """One picture taken: the image and the homography from scene to image pixels."""

    image: Image
    homography: NDArray[np.float64]

    def project(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Scene points (N x 2) mapped to image pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography), np.float64).reshape(-1, 2)


@dataclass(frozen=True)
class Camera:
    """Ranges of the camera effects; every value is drawn uniformly per shot.

    ``tilt``: the largest move of an image corner, as a fraction of the image size, making a
    perspective view; ``light``: gain at the darkest and brightest side of the frame;
    ``glare``: the largest number of bright spots and their peak brightness (0..255 added);
    ``blur``: Gaussian sigma in pixels; ``noise``: sigma of Gaussian noise (0..255);
    ``tint``: the largest per-channel colour cast of the light (0.05: +-5 %).

    Off by default (the plain camera the tuning figures were measured with), for a camera
    more like a real one: ``defocus``: the radius in pixels of a lens's out-of-focus disk
    (a disk, not a Gaussian: a lens spreads a point over its aperture); ``vignette``: how
    much darker the frame's corners are than its centre; ``shot``: noise growing with the
    light (a sensor counts photons: sigma ``shot`` times the square root of the level);
    ``jpeg``: the range of JPEG quality the frame is compressed at (``None``: not).
    """

    tilt: float = 0.04
    light: tuple[float, float] = (0.6, 1.15)
    glare: tuple[int, float] = (2, 90.0)
    blur: tuple[float, float] = (0.0, 1.0)
    noise: tuple[float, float] = (2.0, 6.0)
    tint: float = 0.05
    defocus: tuple[float, float] = (0.0, 0.0)
    vignette: float = 0.0
    shot: float = 0.0
    jpeg: tuple[int, int] | None = None

    def shoot(self, frame: Image, rng: np.random.Generator) -> CameraShot:
        """The frame as this camera sees it, with the homography used."""
        h, w = frame.shape[:2]
        hom = perspective(w, h, self.tilt, rng)
        image = cv2.warpPerspective(frame, hom, (w, h), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REFLECT)
        work = image.astype(np.float32)
        work = uneven_light(work, self.light, self.tint, rng)
        work = glare(work, self.glare[0], self.glare[1], rng)
        sigma = float(rng.uniform(*self.blur))
        if sigma > 0.05:
            work = np.asarray(cv2.GaussianBlur(work, (0, 0), sigma), np.float32)
        if self.defocus[1] > 0:
            work = defocus(work, float(rng.uniform(*self.defocus)))
        if self.vignette > 0:
            work = vignette(work, float(rng.uniform(0, self.vignette)))
        if self.shot > 0:
            work = shot_noise(work, self.shot, rng)
        work = noise(work, float(rng.uniform(*self.noise)), rng)
        seen: Image = np.asarray(np.clip(work, 0, 255), np.uint8)
        if self.jpeg is not None:
            seen = compress(seen, int(rng.integers(self.jpeg[0], self.jpeg[1] + 1)))
        return CameraShot(seen, hom)


REAL = Camera(tilt=0.04, light=(0.45, 1.15), glare=(2, 90.0), blur=(0.0, 0.8),
              noise=(1.0, 4.0), tint=0.08, defocus=(0.0, 1.6), vignette=0.3, shot=0.5,
              jpeg=(60, 92))
"""A camera more like a real table camera than the plain one: a stronger colour cast and a
dimmer side, a lens out of focus by up to a disk of 1.6 px, darker corners, sensor noise
that grows with the light, and JPEG as a webcam or an IP camera sends it (quality 60-92)."""


def defocus(image: NDArray[np.float32], radius: float) -> NDArray[np.float32]:
    """Blur by a lens out of focus: a uniform disk of ``radius`` pixels (anti-aliased at its
    rim, so a radius under a pixel blurs a little)."""
    if radius < 0.25:
        return image
    r = int(np.ceil(radius))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    disk = np.clip(radius + 0.5 - np.hypot(xs, ys), 0.0, 1.0)
    kernel = (disk / disk.sum()).astype(np.float32)
    return np.asarray(cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT), np.float32)


def vignette(image: NDArray[np.float32], depth: float) -> NDArray[np.float32]:
    """Darken toward the corners: a corner ``depth`` darker than the centre (cos^4 falloff,
    as a lens gives, scaled to the frame's diagonal)."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    field = (1.0 - depth * r2).astype(np.float32)
    image *= cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]
    return image


def shot_noise(image: NDArray[np.float32], scale: float, rng: np.random.Generator
               ) -> NDArray[np.float32]:
    """Add noise of sigma ``scale`` times the square root of each pixel's level, a sensor's
    photon noise: more on the bright paper than in the ink."""
    grain = np.empty(image.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(grain, np.float64(0.0), np.float64(1.0))  # type: ignore[call-overload]
    image += grain * np.sqrt(np.maximum(image, 0.0)) * np.float32(scale)
    return image


def compress(image: Image, quality: int) -> Image:
    """``image`` through JPEG at ``quality``, as a camera sends it."""
    ok, data = cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), quality])
    if not ok:  # OpenCV encodes any 8-bit BGR image; kept as it is if it ever does not
        return image
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def perspective(
    width: int, height: int, tilt: float, rng: np.random.Generator
) -> NDArray[np.float64]:
    """A homography moving each image corner by at most ``tilt`` of the image size."""
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    jitter = rng.uniform(-tilt, tilt, size=(4, 2)) * (width, height)
    dst = (src + jitter).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def uneven_light(
    image: NDArray[np.float32], gains: tuple[float, float], tint: float, rng: np.random.Generator
) -> NDArray[np.float32]:
    """Multiply by a smooth light field: a linear slope plus a soft spot, and a colour cast."""
    h, w = image.shape[:2]
    low, high = gains
    a = rng.uniform(0, 2 * np.pi)
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    ramp = (np.cos(a) * xs / w + np.sin(a) * ys / h).astype(np.float32)
    ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    spot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * (0.4 * w) ** 2)).astype(np.float32)
    field = low + (high - low) * (0.6 * ramp + 0.4 * spot)
    cast = 1.0 + rng.uniform(-tint, tint, size=3).astype(np.float32)
    coarse = (field[:, :, None] * cast[None, None, :]).astype(np.float32)
    image *= cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    return image


def glare(
    image: NDArray[np.float32], most: int, peak: float, rng: np.random.Generator
) -> NDArray[np.float32]:
    """Add up to ``most`` soft white spots (lamps reflected by the felt and the cards)."""
    h, w = image.shape[:2]
    for _ in range(int(rng.integers(0, most + 1))):
        r = rng.uniform(0.03, 0.1) * w
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        x0, x1 = max(cx - int(3 * r), 0), min(cx + int(3 * r), w)
        y0, y1 = max(cy - int(3 * r), 0), min(cy + int(3 * r), h)
        if x1 <= x0 or y1 <= y0:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * r * r)) * rng.uniform(0.3, 1) * peak
        image[y0:y1, x0:x1] += spot[:, :, None]
    return image


def noise(
    image: NDArray[np.float32], sigma: float, rng: np.random.Generator
) -> NDArray[np.float32]:
    """Add Gaussian sensor noise of ``sigma`` (0..255 scale)."""
    if sigma <= 0:
        return image
    grain = np.empty(image.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(grain, np.float64(0.0), np.float64(sigma))  # type: ignore[call-overload]
    image += grain
    return image
