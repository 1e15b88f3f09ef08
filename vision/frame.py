"""Read a whole frame: cards, tiles and dice, each placed in a layout region when given one.

A table plays one game: Pai Gow Poker lays cards and rolls dice, Pai Gow tiles lays tiles and
rolls dice (``GAMES``). ``for_game`` makes the ``FrameReader`` of a game: each reader looks
for its own kind only, since each finds things of the other kinds too: on card frames the
tile reader reports gaps of felt between cards and hands of two cards as unknown "tiles",
and the dice reader hands of two cards, square as a die, as unknown "dice" (or, now and
then, as a die read).

With a layout, dice are sought in its dice area only (``layout.DICE``), as a dice area
alone (``vision.dice.read_dice``'s ``dice_area``: an oblong there is a cocked die). Where
readers of two kinds still see one thing (``one_per_place``), one item stands for it.

A frame that shows nothing is a clear result, not an error: ``FrameResult.note`` says
"black frame" or "empty table".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from .cards.reader import CardReader
from .dice import read_dice
from .errors import CalibrationError, ImageError
from .items import KINDS, Item, Kind
from .layout import DICE, Layout
from .tiles import read_tiles

Image = NDArray[np.uint8]
ItemReader = Callable[[Image], list[Item]]
DiceReader = Callable[[Image, bool], list[Item]]  # (image, the image is a dice area alone)
Game = Literal["poker", "tiles", "any"]
# What each game's table shows; "any": a frame of a table not known, every reader.
GAMES: dict[Game, tuple[Kind, ...]] = {"poker": ("card", "die"), "tiles": ("tile", "die"),
                                       "any": KINDS}
DARK = 16.0  # a frame whose brightest 1 % is below this is black (lens cap, camera off)


@dataclass(frozen=True)
class FrameResult:
    """What one frame showed: the items (cards, tiles, dice) and a note when it showed none."""

    items: tuple[Item, ...]
    note: str | None = None

    def to_json(self, name: str) -> dict[str, Any]:
        """The JSON object of ``vision read --json`` for this frame, named ``name``."""
        counts = {k: sum(1 for i in self.items if i.kind == k) for k in ("card", "tile", "die")}
        return {
            "image": name,
            "note": self.note,
            "counts": counts,
            "unknown": sum(1 for i in self.items if i.code is None),
            "items": [i.to_json() for i in self.items],
        }


@dataclass
class FrameReader:
    """Reads frames with a card reader (optional), other item readers and a dice reader
    (optional; in the ``layout``'s dice area only, where there is a layout)."""

    cards: CardReader | None = None
    others: Sequence[ItemReader] = field(default_factory=tuple)
    layout: Layout | None = None
    dice: DiceReader | None = None

    def read(self, image: Image) -> FrameResult:
        """Every item in a BGR frame, in reading order, regions set when there is a layout."""
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ImageError(f"expected an 8-bit BGR image, got {image.dtype} {image.shape}")
        if _black(image):
            return FrameResult((), "black frame")
        items: list[Item] = []
        if self.cards is not None:
            items += self.cards.read(image)
        for reader in self.others:
            items += reader(image)
        if self.dice is not None:
            items += self._dice(self.dice, image)
        items = one_per_place(items)
        if self.layout is not None:
            items = self.layout.assign(items)
        return FrameResult(tuple(items), None if items else "empty table")

    def _dice(self, dice: DiceReader, image: Image) -> list[Item]:
        """The dice ``dice`` reads: in the whole frame, or with a layout in the box around
        its dice area, read as a dice area alone, those whose centre lies in that area."""
        if self.layout is None:
            return dice(image, False)
        outline = self.layout.outline(DICE)
        h, w = image.shape[:2]
        x0, y0 = np.maximum(np.floor(outline.min(axis=0)), 0).astype(int).tolist()
        x1, y1 = np.minimum(np.ceil(outline.max(axis=0)), (w, h)).astype(int).tolist()
        if x1 - x0 < 2 or y1 - y0 < 2:
            return []  # the dice area lies out of the frame
        crop = np.ascontiguousarray(image[y0:y1, x0:x1])
        found = [d.moved(x0, y0) for d in dice(crop, True)]
        return [d for d in found if self.layout.region_at(d.center) == DICE]


def for_game(game: Game, cards: CardReader | None = None,
             layout: Layout | None = None) -> FrameReader:
    """The frame reader of a table of ``game`` (``GAMES``): its card reader ``cards`` (which
    a game of cards needs, except "any", which then reads no cards) and its ``layout``."""
    if game not in GAMES:
        raise ValueError(f"game {game!r}: expected one of {', '.join(GAMES)}")
    kinds = GAMES[game]
    if game == "poker" and cards is None:
        raise CalibrationError("game 'poker': its cards are read against a deck "
                               "calibration, and none was given")
    return FrameReader(cards=cards if "card" in kinds else None,
                       others=(read_tiles,) if "tile" in kinds else (),
                       layout=layout, dice=read_dice if "die" in kinds else None)


def one_per_place(items: Sequence[Item]) -> list[Item]:
    """``items`` with one item where readers of different kinds saw one thing: two items
    share a place where the centre of either lies inside the other's outline. There an
    unknown item gives way to a named one, and a named tile or die to a named card (a card
    is named by its index, against every face of the deck, its odds and fit checked; a die
    or tile by counting its pips). Items of one kind, two unknown items, and two named items
    neither of them a card all stay: the dealer is asked."""
    if len({i.kind for i in items}) < 2:
        return list(items)
    rank = np.array([0 if i.code is None else 2 if i.kind == "card" else 1 for i in items])
    kind = np.array([KINDS.index(i.kind) for i in items])
    centres = np.array([i.center for i in items], np.float64)
    quads = np.array([i.corners for i in items], np.float64)
    inside = _inside(centres, quads)  # [a, b]: a's centre inside b's outline
    share = (inside | inside.T) & (kind[:, None] != kind[None, :])
    gives_way = (share & (rank[:, None] < rank[None, :])).any(axis=1)
    return [i for i, drop in zip(items, gives_way.tolist(), strict=True) if not drop]


def _inside(points: NDArray[np.float64], quads: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Whether each point (N x 2) lies inside or on each convex quad (M x 4 x 2), N x M;
    either winding, a degenerate quad holds only points on it."""
    edges = np.roll(quads, -1, axis=1) - quads  # (M, 4, 2)
    rel = points[:, None, None, :] - quads[None, :, :, :]  # (N, M, 4, 2)
    cross = edges[None, ..., 0] * rel[..., 1] - edges[None, ..., 1] * rel[..., 0]
    return np.asarray((cross >= 0).all(axis=2) | (cross <= 0).all(axis=2), np.bool_)


def _black(image: Image) -> bool:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (64, 36), interpolation=cv2.INTER_AREA)
    return float(np.percentile(small, 99)) < DARK
