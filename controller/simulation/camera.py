"""The simulated camera: render what a position set, read it back with the product's reader.

The simulated table tells the camera what each position physically set (``place`` or a
``source`` callable).  ``read(position)`` lays those pieces on the felt with the scene renderer
(the low hand on the left, the high hand on the right), reads the frame with the real reader
(``controller.table.camera``: cards by ``vision.cards.CardReader`` on a deck calibrated once
from the artwork, tiles by ``vision.tiles.read_tiles``) and returns ``LOW / HIGH`` only when
every piece was read with a code and the two hands hold the right counts; otherwise None, and
the engine asks the dealer.
Frames are small (640 x 240 for cards) so a read takes milliseconds; ``read_times`` keeps them.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.scene import Pose, Scene
from vision.scene.hands import Spread, place_spread
from vision.tiles import read_tiles, render_tile

from ..rules.errors import RulesError
from ..table.camera import (
    GAMES,
    CameraRead,
    Image,
    Reader,
    Source,
    card_reader,
    setting_of,
    split_setting,
)
from ..table.errors import CameraInputError, TableConfigError


@dataclass(frozen=True, slots=True)
class CameraLook:
    """How the camera's frames are drawn: frame size (width, height) per game, card width and
    the step between spread cards (as the reader is calibrated for), tile width, card style."""

    card_frame: tuple[int, int] = (640, 240)
    tile_frame: tuple[int, int] = (560, 240)
    card_width: tuple[float, float] = (98.0, 104.0)
    card_step: tuple[float, float] = (0.3, 0.33)
    card_angle: float = 0.0
    tile_width: int = 40
    style: str = "2color"


class VisionCameraPort:
    """A ``CameraPort`` that renders each position's pieces and reads them with real vision."""

    def __init__(self, game: str, reader: Reader, *, faces: Mapping[str, Image] | None = None,
                 seed: int | None = None, source: Source | None = None,
                 look: CameraLook | None = None, name: str = "camera-1") -> None:
        if game not in GAMES:
            raise TableConfigError(f"camera: game {game!r} is not one of {sorted(GAMES)}")
        if game == "poker" and faces is None:
            raise TableConfigError("camera: a card camera needs the card faces it draws")
        self.game = game
        self._reader = reader
        self._faces = faces or {}
        self._rng = np.random.default_rng(secrets.randbits(64) if seed is None else seed)
        self._source = source
        self.look = look or CameraLook()
        self._name = name
        self.placed: dict[int, str] = {}
        self.history: list[CameraRead] = []
        self.last_frame: Image | None = None

    @classmethod
    def for_game(cls, game: str, *, seed: int | None = None, source: Source | None = None,
                 look: CameraLook | None = None, assets: Path | None = None,
                 name: str = "camera-1") -> VisionCameraPort:
        """The camera of a poker or tiles table; poker calibrates the card deck here, once."""
        look = look or CameraLook()
        if game == "poker":
            faces, reader = card_reader(look.style, assets)
            return cls(game, reader, faces=faces, seed=seed, source=source, look=look,
                       name=name)
        return cls(game, read_tiles, seed=seed, source=source, look=look, name=name)

    @property
    def name(self) -> str:
        """The camera's name in the journal."""
        return self._name

    @property
    def read_times(self) -> list[float]:
        """Seconds each read took (render excluded), oldest first."""
        return [r.seconds for r in self.history]

    @property
    def last_read_seconds(self) -> float | None:
        """Seconds the last read took, or None before the first."""
        return self.history[-1].seconds if self.history else None

    def _check_position(self, position: int) -> None:
        count = GAMES[self.game][0]
        if isinstance(position, bool) or not isinstance(position, int) \
                or not 1 <= position <= count:
            raise CameraInputError(f"position {position!r} is not one of 1..{count}")

    def place(self, position: int, setting: str) -> None:
        """What ``position`` physically set (``LOW / HIGH``), as the camera will see it."""
        self._check_position(position)
        try:
            split_setting(self.game, setting)
        except (RulesError, TypeError, AttributeError) as err:
            raise CameraInputError(f"position {position}: setting {setting!r}: {err}") from err
        self.placed[position] = setting

    def remove(self, position: int) -> None:
        """The position's pieces are gone from the felt."""
        self.placed.pop(position, None)

    def clear(self) -> None:
        """Forget every position (a new round)."""
        self.placed.clear()

    def on_felt(self, position: int) -> str | None:
        """What lies at ``position`` now: from the source callable, else from ``place``."""
        if self._source is not None:
            return self._source(position)
        return self.placed.get(position)

    def read(self, position: int) -> str | None:
        """Render the position's pieces, read them back: ``LOW / HIGH``, or None when unsure."""
        self._check_position(position)
        placed = self.on_felt(position)
        if placed is None:
            self.history.append(CameraRead(position, None, None, 0.0, 0))
            return None
        try:
            low, high = split_setting(self.game, placed)
        except RulesError as err:
            raise CameraInputError(f"position {position}: setting {placed!r}: {err}") from err
        frame = self.render(low, high)
        self.last_frame = frame
        start = time.perf_counter()
        items = self._reader(frame)
        seconds = time.perf_counter() - start
        text, unknown = setting_of(self.game, items, frame.shape[1])
        self.history.append(CameraRead(position, placed, text, seconds, unknown))
        return text

    def read_dice(self) -> tuple[int, ...] | None:
        """None: this camera renders the hands it is told of, never the dice area (the
        simulated table's dice come from the shaker alone)."""
        return None

    def render(self, low: Sequence[str], high: Sequence[str]) -> Image:
        """A frame of the low hand (left) and the high hand (right) on the felt."""
        look = self.look
        size = look.card_frame if self.game == "poker" else look.tile_frame
        scene = Scene(size=size)
        w, h = size
        for pieces, x in ((low, 0.2 * w), (high, 0.65 * w)):
            if self.game == "poker":
                self._cards(scene, pieces, x, h / 2)
            else:
                self._tiles(scene, pieces, x, h / 2)
        frame, _ = scene.render(self._rng)
        return frame

    def _cards(self, scene: Scene, codes: Sequence[str], x: float, y: float) -> None:
        look, rng = self.look, self._rng
        spread = Spread(width=look.card_width, step=look.card_step, angle=look.card_angle,
                        card_jitter=(1.0, 0.5), flip=0.0)
        width = float(rng.uniform(*look.card_width))
        angle = float(rng.uniform(-look.card_angle, look.card_angle))
        place_spread(scene, [(c, self._faces[c]) for c in codes], x, y, angle, width, spread,
                     rng)

    def _tiles(self, scene: Scene, codes: Sequence[str], x: float, y: float) -> None:
        width = self.look.tile_width
        gap = 0.3 * width
        for i, code in enumerate(codes):
            a, b = (int(p) for p in code.split("-"))
            ends = (a, b) if self._rng.random() < 0.5 else (b, a)
            sprite, alpha = render_tile(ends, width)
            shift = (i - (len(codes) - 1) / 2) * (width + gap)
            scene.place(np.dstack([sprite, alpha]).astype(np.uint8), Pose(x + shift, y), code,
                        "tile")
