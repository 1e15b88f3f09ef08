"""The camera's reading side, the product's: a frame read with real vision into ``LOW / HIGH``.

Cards are read by ``vision.cards.CardReader`` on a deck calibrated once from the artwork
(``card_reader``), tiles by ``vision.tiles.read_tiles``; ``setting_of`` turns the items read
into a setting only when every piece was read with a code and the two hands hold the right
counts (else None, and the engine asks the dealer).  The camera that renders what it is told
and reads it back with these is the simulation's (``controller.simulation.camera``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.cards import CardReader, load_faces
from vision.cards.cache import cached_deck
from vision.errors import VisionError
from vision.items import Item

from ..rules.errors import RulesError
from ..rules.poker.setting import Setting
from ..rules.tiles.setting import TileSetting
from .errors import AssetsMissingError

Image = NDArray[np.uint8]
Reader = Callable[[Image], list[Item]]
Source = Callable[[int], str | None]
GAMES = {"poker": (7, (2, 5)), "tiles": (8, (2, 2))}


class LayoutCamera(Protocol):
    """The table's camera as the devices hold it: named, told what lies at a position, read."""

    @property
    def name(self) -> str:
        """The camera's name in the journal."""

    def place(self, position: int, setting: str) -> None:
        """What ``position`` has physically set."""

    def clear(self) -> None:
        """Forget every position (a new round)."""

    def read(self, position: int) -> str | None:
        """The position's setting as read (``LOW / HIGH``), or None when unsure."""

    def read_dice(self) -> tuple[int, ...] | None:
        """The dice in the dice area as read, or None when unsure (or not looking)."""


@dataclass(frozen=True, slots=True)
class CameraRead:
    """One read: the position, what was on the felt, what came back and how long it took."""

    position: int
    placed: str | None
    read: str | None
    seconds: float
    unknown: int


def split_setting(game: str, text: str) -> tuple[list[str], list[str]]:
    """The low and high hands' pieces of a setting text; RulesError names a bad one."""
    setting: Setting | TileSetting = (Setting.parse(text) if game == "poker"
                                      else TileSetting.parse(text))
    return [str(p) for p in setting.low], [str(p) for p in setting.high]


def card_reader(style: str = "2color", assets: Path | None = None, *, warm: bool = False
                ) -> tuple[Mapping[str, Image], Reader]:
    """The artwork's faces and a reader of its deck, calibrated once (kept in ``assets``).
    Without ``assets``, the per-user cache's artwork, drawn there on first use (``artwork``);
    a folder given is read as it is. ``warm``: the reader has read once already
    (``CardReader.warm``), as a live table's must before its first exposure."""
    from . import artwork  # here: ``python -m controller.table.artwork`` runs it as __main__

    if assets is None:
        assets = artwork.draw()
    folder = assets / "cards" / style
    if not (folder / "Jk.png").is_file():
        raise AssetsMissingError(f"card artwork {str(folder)!r} is missing: draw it with "
                                 f"{artwork.DRAW_HINT}")
    try:
        faces = load_faces(folder)
        deck = cached_deck(style, faces, assets / "decks")
    except VisionError as err:
        raise AssetsMissingError(f"card artwork {str(folder)!r} is unusable ({err}): draw it "
                                 f"again with {artwork.DRAW_HINT}") from err
    reader = CardReader(deck)
    if warm:
        reader.warm(faces)
    return faces, reader.read


def faces_reader(folder: Path) -> Reader:
    """A card reader of the deck drawn in ``folder`` (53 face images), calibrated once and kept
    in the assets' ``decks`` folder by the folder's name, and warmed (``CardReader.warm``):
    the table's first exposure does not wait on the reader's compiled steps."""
    from ..config.locations import assets_dir

    faces = load_faces(folder)
    reader = CardReader(cached_deck(folder.name, faces, assets_dir() / "decks"))
    reader.warm(faces)
    return reader.read


def setting_of(game: str, items: Sequence[Item], width: int) -> tuple[str | None, int]:
    """The read setting (low hand left of 0.4 of the frame's ``width``) when every piece is
    known and each hand holds its count, else None; and how many pieces were unknown."""
    unknown = sum(1 for item in items if item.code is None)
    low = [i for i in items if i.center[0] < 0.4 * width]
    high = [i for i in items if i.center[0] >= 0.4 * width]
    want = GAMES[game][1]
    if unknown or (len(low), len(high)) != want:
        return None, unknown
    text = " ".join(str(i.code) for i in sorted(low, key=lambda i: i.center[0])) + " / " \
        + " ".join(str(i.code) for i in sorted(high, key=lambda i: i.center[0]))
    try:
        split_setting(game, text)
    except RulesError:
        return None, unknown  # e.g. one card read twice: unsure, ask the dealer
    return text, unknown
