"""Faces without a corner index (this artwork's joker): found by their edge strip.

In a spread each covered card shows only its left strip. A face without an index is
sought beside every card already found, in that card's own frame (a spread keeps the turn and
size of its cards): the band left and right of the card is straightened and searched for
the face's left strip, upright or turned, by normalised correlation. The face is named only
where the strip matches well, away from every card already read, and only once per frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from ..items import Item, Point

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]

WIDTH = 40  # card width in band pixels
STRIP = (0.06, 0.24)  # the strip compared, from the card's left edge, in card widths
ROWS = (0.1, 1.02)  # its rows in the band (the card spans 0.06 .. 1.06 band heights)
REACH = (0.16, 0.62)  # where a neighbour's left edge may lie from a card's, in card widths
GAP = 0.42  # a read neighbour nearer than this leaves no room for a strip between
ACCEPT = 0.9  # the least correlation that names the face (false jokers were seen at 0.8)
BLUR = 1.0


def learn(cards: Mapping[str, Image], strip_codes: Sequence[str], aspect: float,
          rng: np.random.Generator, samples: int = 24) -> tuple[F32, float]:
    """Strip templates of ``strip_codes`` (two per face: upright, turned), stacked as
    (2 * len, height, width), and the correlation that names a face.

    Each template is the mean strip of the face rendered ``samples`` times by the training
    camera and straightened from a slightly wrong pose, as a neighbour's pose would give.
    The threshold sits above what the left strips of all other faces reach.
    """
    from .samples import TRAINING_CAMERA  # the one camera of calibration

    if not strip_codes:
        return np.zeros((0, 0, 0), np.float32), 1.0
    height = round(WIDTH * aspect)
    templates = []
    for code in strip_codes:
        for turned in (False, True):
            face = cards[code][::-1, ::-1] if turned else cards[code]
            cuts = [_sample_strip(face, height, rng, TRAINING_CAMERA) for _ in range(samples)]
            templates.append(np.mean(cuts, axis=0).astype(np.float32))
    stack = np.stack(templates)
    others = [c for c in cards if c not in strip_codes]
    worst = 0.0
    for code in rng.choice(others, size=min(len(others), 2 * samples), replace=False):
        face = cards[str(code)]
        strip = _sample_strip(face[::-1, ::-1] if rng.random() < 0.5 else face, height, rng,
                              TRAINING_CAMERA)
        for t in stack:
            worst = max(worst, float(cv2.matchTemplate(strip, t, cv2.TM_CCOEFF_NORMED).max()))
    return stack, max(ACCEPT, worst + 0.1)


def _sample_strip(face: Image, height: int, rng: np.random.Generator, camera: object) -> F32:
    """One strip of ``face`` as the reader would cut it, from a rendered, jittered view."""
    from ..scene import Camera, Pose, Scene

    assert isinstance(camera, Camera)
    width = float(rng.uniform(86, 165))
    side = int(width * 2.2)
    scene = Scene(size=(side, side))
    angle = float(rng.uniform(0, 360))
    scene.place(face, Pose(side / 2, side / 2, angle, width / face.shape[1]), "card")
    image, truth = scene.render(rng, camera)
    quad = np.array(truth[0].corners)
    jitter = np.radians(rng.normal(0, 0.5))
    c, s = np.cos(jitter), np.sin(jitter)
    centre = quad.mean(axis=0) + rng.normal(0, 0.005 * width, 2)
    quad = (quad - centre) @ np.array([[c, -s], [s, c]]).T * rng.normal(1, 0.008) + centre
    band, _ = _band(image, quad, height, (0.0, STRIP[1] + 0.02))
    x0, x1 = (round(f * WIDTH) for f in STRIP)
    r0, r1 = (round(f * height) for f in ROWS)
    return band[r0:r1, x0:x1].copy()


def _band(frame: Image, quad: NDArray[np.float64], height: int,
          span: tuple[float, float]) -> tuple[F32, NDArray[np.float64]]:
    """The band of a card's frame from ``span[0]`` to ``span[1]`` card widths right of its
    left edge (and a little above and below), straightened to ``WIDTH`` pixels per card
    width; with the affine map from band pixels to the image."""
    tl, tr, _, bl = quad
    width = float(np.hypot(*(tr - tl)))
    right = (tr - tl) / width
    down = (bl - tl) / max(float(np.hypot(*(bl - tl))), 1e-6)
    scale = width / WIDTH
    origin = tl + scale * (span[0] * WIDTH * right - 0.06 * height * down)
    m = np.array([[right[0] * scale, down[0] * scale, origin[0]],
                  [right[1] * scale, down[1] * scale, origin[1]]])
    size = (int((span[1] - span[0]) * WIDTH) + 2, int(height * 1.12))
    band = cv2.warpAffine(frame, m.astype(np.float32), size,
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    return _grey(np.asarray(band, np.uint8)), m


def _grey(image: Image) -> F32:
    """The darkest channel, white where the image is transparent, softened."""
    grey = cv2.min(cv2.min(image[:, :, 0], image[:, :, 1]), image[:, :, 2]).astype(np.float32)
    if image.shape[2] == 4:
        grey[image[:, :, 3] < 128] = 255.0
    out: F32 = np.asarray(cv2.GaussianBlur(grey, (0, 0), BLUR), np.float32)
    return out


def find(frame: Image, strip_codes: Sequence[str], templates: F32, accept: float,
         aspect: float, items: Sequence[Item]) -> list[Item]:
    """Cards of ``strip_codes`` beside the card ``items`` already found in ``frame``."""
    if not strip_codes or templates.size == 0 or not items:
        return []
    height = round(WIDTH * aspect)
    found: list[tuple[float, str, np.ndarray, np.ndarray, np.ndarray, float]] = []
    x0 = round(STRIP[0] * WIDTH)
    th, tw = templates.shape[1:]
    need = float(templates.std(axis=(1, 2)).min()) * 0.6
    known = [i for i in items if i.code is not None]
    centres = np.array([i.center for i in known]).reshape(-1, 2)
    for item in known:
        quad = np.array(item.corners)
        width = float(np.hypot(*(quad[1] - quad[0])))
        if width < 20:
            continue
        # Left of a card lies the card it covers; right of it only the top card of a spread
        # can show a strip, so the right side is searched only where no card is read there.
        right_axis = (quad[1] - quad[0]) / width
        down_axis = (quad[3] - quad[0]) / max(float(np.hypot(*(quad[3] - quad[0]))), 1e-6)
        rel = centres - np.array(item.center)
        along, across = rel @ right_axis / width, np.abs(rel @ down_axis) / width
        level = across < 0.3
        covered = bool(((along > REACH[0]) & (along < REACH[1] + 0.1) & level).any())
        # A read card just left of this one shows its own strip there: no room for another.
        filled = bool(((along < -REACH[0]) & (along > -GAP) & level).any())
        if filled and covered:
            continue
        span = (-REACH[1] if not filled else -REACH[0],
                STRIP[1] if covered else REACH[1] + STRIP[1])
        grey, m = _band(frame, quad, height, span)
        # Offsets within REACH only (the card's own edge is no neighbour), and no window
        # much flatter than the face's strip (those correlate by chance).
        mean = cv2.boxFilter(grey, -1, (tw, th))
        std = np.sqrt(np.maximum(cv2.boxFilter(grey * grey, -1, (tw, th)) - mean * mean, 0))
        rows, cols = grey.shape[0] - th + 1, grey.shape[1] - tw + 1
        xs = (np.arange(cols) - x0) / WIDTH + span[0]
        bad = std[th // 2:th // 2 + rows, tw // 2:tw // 2 + cols] < need
        bad |= (np.abs(xs) < REACH[0])[None, :]
        for k, code in enumerate(strip_codes):
            for turn in (0, 1):
                res = cv2.matchTemplate(grey, templates[2 * k + turn], cv2.TM_CCOEFF_NORMED)
                res[bad] = -1.0
                y, x = np.unravel_index(int(np.argmax(res)), res.shape)
                score = float(res[y, x])
                if score < accept:
                    continue
                # The template's top-left, then the card's, in band pixels.
                bx = float(x) - x0 + STRIP[0] * WIDTH
                by = float(y) - round(ROWS[0] * height) + 0.06 * height
                corner = m[:, :2] @ np.array([bx, by]) + m[:, 2]
                right = m[:, 0] / np.hypot(*m[:, 0])
                down = m[:, 1] / np.hypot(*m[:, 1])
                found.append((score, code, corner, right, down, width))
    return _decide(found, aspect, items)


def _decide(found: list[tuple[float, str, np.ndarray, np.ndarray, np.ndarray, float]],
            aspect: float, items: Sequence[Item]) -> list[Item]:
    out: list[Item] = []
    taken = [np.array(i.center) for i in items]
    for score, code, corner, right, down, width in sorted(found, key=lambda f: -f[0]):
        h = width * aspect
        centre = corner + right * width / 2 + down * h / 2
        if any(np.hypot(*(centre - c)) < 0.15 * width for c in taken):
            continue
        taken.append(centre)
        pts = [corner, corner + right * width, corner + right * width + down * h,
               corner + down * h]
        corners: list[Point] = [(float(p[0]), float(p[1])) for p in pts]
        out.append(Item(kind="card", code=code, confidence=max(0.0, min(1.0, score)),
                        center=(float(centre[0]), float(centre[1])),
                        corners=(corners[0], corners[1], corners[2], corners[3])))
    codes = [i.code for i in out]
    return [i.unknown("duplicate") if codes.count(i.code) > 1 else i for i in out]
