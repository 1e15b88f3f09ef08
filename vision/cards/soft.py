"""A face image softer than its deck's others, sharpened back to them.

A face cut from a blurred photograph shows its thin rank strokes washed out: the renders
calibration learns from (``calibrate``) then too seldom show its index, and the face would be
refused. Where such a face is far softer than its deck's others (``softness``, beyond the
deck's own spread), it is sharpened back to its deck's median sharpness (``sharpened``), as
a crisp print of it would be: the renders add the camera's blur back. A face refused for any
other cause (an index on a picture, or joined to a pip) is as sharp as its deck's others,
and is not sharpened.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

# A face the renders show too seldom (``calibrate.SEEN_LEAST``) is sharpened (``sharpened``) where
# its image is softer (``softness``) than its deck's faces spread to: beyond Tukey's fence, the
# upper quartile and SOFT_FENCE times the interquartile range, the usual bound of an outlier. A
# deck's faces differ in softness by what they print (a red pip shows less edge than a black court);
# a face beyond the fence is blurred in its image. None of the rendered decks' refused faces lies
# beyond it (their softest faces lie at 1.2-1.3 times their median, the fence at 1.2-1.5); the
# photographed deck's 7d does (1.74, the fence 1.65).
SOFT_FENCE = 1.5
# It is sharpened by an unsharp mask whose Gaussian has a sigma of RESTORE_SIGMA card
# widths, a pixel of the training sheets' middle card (``samples.TRAINING_SPREAD``: 86-165
# px wide): blur finer than a camera pixel never reaches the reader, and a wider mask would
# sharpen a glyph's outline, not its strokes.
RESTORE_SIGMA = 0.008
# The mask's weight is the least multiple of RESTORE_STEP that brings the face's softness
# down to its deck's median (a step a ninth of the weight the photographed 7d needs, 2.25),
# at most RESTORE_MOST: a face that needs more has lost its strokes, not softened them, and
# a weight of four already magnifies the image's pixel noise fivefold.
RESTORE_STEP, RESTORE_MOST = 0.25, 4.0


def softness(face: Image, width: int) -> float:
    """How blurred a face's image is: the Crete-Roffet no-reference blur measure (0 sharp,
    1 blurred: how little blurring it again by a 9-pixel mean changes the differences of
    neighbouring pixels, the worse of across and down) of its darkest channel (where red ink
    and black both show), over the card inside a margin (no rounded corners, no cut edge),
    scaled ``width`` pixels wide (its deck's median) so that faces compare alike."""
    image = face[..., :3].min(axis=2)
    if image.shape[1] != width:
        image = cv2.resize(image, (width, round(image.shape[0] * width / image.shape[1])),
                           interpolation=cv2.INTER_AREA)
    h, w = image.shape
    card = image[h // 25:h - h // 25, w // 25:w - w // 25].astype(np.float32)
    worst = 0.0
    for axis, size in ((0, (1, 9)), (1, (9, 1))):
        plain = np.abs(np.diff(card, axis=axis))
        again = np.abs(np.diff(cv2.blur(card, size), axis=axis))
        total = float(plain.sum())
        kept = total - float(np.maximum(plain - again, 0.0).sum())
        worst = max(worst, kept / max(total, 1e-6))
    return worst


def soft_faces(cards: Mapping[str, Image], refused: Collection[str]) -> dict[str, float]:
    """Of the faces ``refused``, those softer than their deck's faces spread to
    (``softness``, ``SOFT_FENCE``), each with the least mask weight (``sharpened``) that
    brings it to the deck's median; none that needs more than ``RESTORE_MOST``."""
    width = int(np.median([face.shape[1] for face in cards.values()]))
    soft_of = {code: softness(face, width) for code, face in cards.items()}
    low, median, high = np.percentile(list(soft_of.values()), [25, 50, 75])
    fence = high + SOFT_FENCE * (high - low)
    soft: dict[str, float] = {}
    for code in refused:
        if soft_of[code] <= fence:
            continue
        steps = round(RESTORE_MOST / RESTORE_STEP)
        weight = next((k * RESTORE_STEP for k in range(1, steps + 1)
                       if softness(sharpened(cards[code], k * RESTORE_STEP), width) <= median),
                      None)
        if weight is not None:
            soft[code] = weight
    return soft


def sharpened(face: Image, weight: float) -> Image:
    """A face's image unsharp-masked: ``weight`` times its difference from itself blurred by
    a Gaussian of ``RESTORE_SIGMA`` card widths added to it (its alpha kept)."""
    colour = face[..., :3].astype(np.float32)
    blurred = cv2.GaussianBlur(colour, (0, 0), RESTORE_SIGMA * face.shape[1])
    out = face.copy()
    out[..., :3] = np.clip(colour + weight * (colour - blurred), 0, 255).astype(np.uint8)
    return out
