"""Read a whole frame: cards, tiles and dice, each placed in a layout region when given one.

``FrameReader`` runs the card reader (when a deck is calibrated) and every other reader it
was handed; ``item_readers()`` offers the tile and dice readers of ``vision.tiles`` and
``vision.dice`` (each ``read_x(image) -> list[Item]``) when those packages are present.
A frame that shows nothing is a clear result, not an error: ``FrameResult.note`` says
"black frame" or "empty table".
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .cards.reader import CardReader
from .errors import ImageError
from .items import Item
from .layout import Layout

Image = NDArray[np.uint8]
ItemReader = Callable[[Image], list[Item]]
DARK = 16.0  # a frame whose brightest 1 % is below this is black (lens cap, camera off)
HOOKS = (("vision.tiles", "read_tiles"), ("vision.dice", "read_dice"))


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


def item_readers() -> list[ItemReader]:
    """The tile and dice readers that are installed (``HOOKS``), in that order."""
    found: list[ItemReader] = []
    for module, name in HOOKS:
        try:
            reader = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
        if callable(reader):
            found.append(reader)
    return found


@dataclass
class FrameReader:
    """Reads frames with a card reader (optional) and other item readers."""

    cards: CardReader | None = None
    others: Sequence[ItemReader] = field(default_factory=tuple)
    layout: Layout | None = None

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
        if self.layout is not None:
            items = self.layout.assign(items)
        return FrameResult(tuple(items), None if items else "empty table")


def _black(image: Image) -> bool:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (64, 36), interpolation=cv2.INTER_AREA)
    return float(np.percentile(small, 99)) < DARK
