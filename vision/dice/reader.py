"""Find and read the dice in a still frame; a cocked or unreadable die means "no game".

``read_dice(image)`` gives one ``Item`` per die (code ``"1"`` .. ``"6"``, None when unsure);
``read_roll(image)`` turns that into a ``DiceRead``: three values, or the reason for no game.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..items import Item, Point
from ..tiles.find import Blob, find_blobs, warp_quad
from .pips import SIDE, read_face
from .render import Image

MIN_SIDE = 16.0  # smaller dice (pixels) are reported unknown: pips under ~3 px
MAX_SIDE = 160.0  # larger bright things are not dice (cards, glare)
MAX_FLAT_ASPECT = 1.17  # a flat die is square; a cocked one shows part of a second face
TWO_TONE = 1.3  # one edge band this much darker or brighter than the opposite: cocked
# (flat dice stay well below it, nearly all dice cocked 8-15 degrees well above)
MIN_BRIGHTNESS = 1.3  # a white die is brighter than the felt (a black tile is darker)
COCKED = "cocked"


@dataclass(frozen=True, slots=True)
class DiceRead:
    """A roll's reading: the values of the dice, or why there is no game (and what was seen)."""

    values: tuple[int, ...] | None
    no_game_reason: str | None
    items: tuple[Item, ...]

    @property
    def total(self) -> int | None:
        """The dice total, or None for no game."""
        return None if self.values is None else sum(self.values)


def is_die(blob: Blob) -> bool:
    """Whether a bright blob is sized and shaped like a die (flat or cocked)."""
    return (blob.aspect <= 1.8 and blob.area >= 0.88 * blob.long_side * blob.short_side
            and blob.short_side >= MIN_SIDE * 0.8 and blob.long_side <= MAX_SIDE
            and blob.brightness >= MIN_BRIGHTNESS)


def _sides(blob: Blob) -> tuple[float, float]:
    q = blob.quad
    a = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])) / 2
    b = (np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])) / 2
    return float(min(a, b)), float(max(a, b))


def two_tone(face: Image) -> float:
    """The larger brightness ratio between opposite edge bands of a straightened die.

    A flat die's face is evenly lit; a cocked die straightened as a square shows its leaning
    face along one edge, lit differently from the top.
    """
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    n = grey.shape[0]
    a, b = round(0.03 * n), round(0.12 * n)
    bands = (grey[a:b, a:n - a], grey[n - b:n - a, a:n - a],
             grey[a:n - a, a:b], grey[a:n - a, n - b:n - a])
    # The 75th percentile skips pips and the shaded rim.
    levels = [max(float(np.percentile(band, 75)), 1.0) for band in bands]
    return max(max(levels[0], levels[1]) / min(levels[0], levels[1]),
               max(levels[2], levels[3]) / min(levels[2], levels[3]))


def _corners(blob: Blob) -> tuple[Point, Point, Point, Point]:
    q = [(float(x), float(y)) for x, y in blob.quad]
    return (q[0], q[1], q[2], q[3])


def read_dice(image: Image, dice_area: bool = False) -> list[Item]:
    """Every die in the frame: value ``"1"`` .. ``"6"``, or None noting "cocked" or why unsure.

    A die cocked about 45 degrees under even light shows two equally lit faces, an oblong
    much like a playing card.  In a whole-table frame such oblongs are taken for cards and
    left out; with ``dice_area`` (a frame or crop of the dice area, where no card lies) every
    die-sized oblong is a cocked die.
    """
    blobs = [b for b in find_blobs(image, bright=True, min_area=MIN_SIDE**2 * 0.6, coarse=8)
             if is_die(b)]
    h, w = image.shape[:2]
    items = []
    for blob in blobs:
        centre = blob.quad.mean(axis=0)
        c = (float(centre[0]), float(centre[1]))
        short, long = _sides(blob)
        x, y, bw, bh = cv2.boundingRect(blob.contour)
        face = warp_quad(image, blob.quad, (SIDE, SIDE))
        toned = two_tone(face) > TWO_TONE
        oblong = long > MAX_FLAT_ASPECT * short
        if oblong and not toned and not dice_area:
            continue  # a bright oblong with no second face: taken for a card
        note: str | None = None
        if x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1:
            note = "cut by the edge of the frame"
        elif oblong or toned:
            note = COCKED
        elif short < MIN_SIDE:
            note = "too small to read"
        if note is not None:
            items.append(Item("die", None, 0.0, c, _corners(blob), note=note))
            continue
        read = read_face(face)
        code = None if read.value is None else str(read.value)
        items.append(Item("die", code, read.confidence, c, _corners(blob), note=read.note))
    items.sort(key=lambda it: (it.center[0], it.center[1]))
    return items


def read_roll(image: Image, count: int = 3, dice_area: bool = True) -> DiceRead:
    """The roll in a still frame of the dice area: ``count`` readable dice lying flat, or no
    game and why (``dice_area``: see ``read_dice``)."""
    items = tuple(read_dice(image, dice_area))
    cocked = sum(it.note == COCKED for it in items)
    if cocked:
        return DiceRead(None, f"{cocked} cocked {'die' if cocked == 1 else 'dice'}", items)
    if len(items) != count:
        return DiceRead(None, f"{len(items)} dice seen, expected {count}", items)
    unread = [it for it in items if it.code is None]
    if unread:
        return DiceRead(None, f"unreadable die ({unread[0].note})", items)
    return DiceRead(tuple(int(it.code) for it in items if it.code is not None), None, items)
