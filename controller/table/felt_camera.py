"""The felt camera: the product's ``LayoutCamera``, reading a real table through OpenCV.

``FeltCamera.from_table(table_file, game, frames_dir)`` opens the ``[camera]`` source of a
table file (``camera_config``), applies the markers' saved calibration to its layout, and for
``read(position)`` takes frames until the felt lies still (``vision.still.StillScene``),
checks that the camera has not moved (``vision.markers.check_still_calibrated``), reads the
position's low and high boxes (the dealer, position 1: ``dealer.low``/``dealer.high``; seat
``P``: ``seatP.low``/``seatP.high``) with the game's reader, and answers ``LOW / HIGH`` only
when each box holds exactly its count of pieces read (2 and 5 cards, 2 and 2 tiles), no piece
twice; anything else is None and the engine asks the dealer (who keys the setting).  The
engine checks a reading once more against what it knows: a poker hand must be the cards the
shuffler dealt that position.

A camera that moved, or whose source fails or ends, raises ``DeviceLostError`` (the engine
journals a ``device_lost`` fault): a moved camera's ``CameraMovedError`` says to calibrate
again, and every read refuses until the calibration file has been written anew.  Every read
keeps its still frame as a JPEG in ``frames_dir`` (beside the journal); ``last_frame`` gives
its path and SHA-256 for the record.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.camera_calibration import MarkerCalibration
from vision.dice.reader import read_roll
from vision.errors import CameraMoved, VisionError
from vision.items import Item
from vision.layout import DICE, Layout
from vision.markers import check_still_calibrated
from vision.sources import Frame, Source
from vision.still import MOVING_SHARE, Still, StillScene, changed_share, signature
from vision.tiles import read_tiles

from ..round.errors import DeviceLostError
from ..rules.errors import RulesError
from .camera import GAMES, CameraRead, Image, Reader, card_reader, faces_reader, split_setting
from .camera_config import CameraConfig, read_camera_config
from .camera_source import open_camera_source, recorded_times
from .errors import (
    AssetsMissingError,
    CameraInputError,
    TableConfigError,
    TableError,
)

log = logging.getLogger(__name__)

DEALER = 1  # the dealer's position (controller.rules.poker.dealing.HOUSE)
DICE_AREA = 0  # a kept frame of the dice area (controller.round.showdown.DICE_AREA)
DIE_MM = 19.0  # a casino die's side (vision.table_video's dice are drawn at it)
DIE_PX = 48.0
"""The side in pixels the dice area is enlarged to give a die, when smaller: the pip reader
tells pips apart at three times the least die it reads (``vision.dice.reader.MIN_SIDE``)."""
RING_SHARE = 0.04
"""The share of the dice area's width taken off its edge: the printed line (a few mm of a
200 mm circle) and the blur round it; a die lying on the line is not read, and the dealer
keeps to the circle."""
JPEG_QUALITY = 92


class CameraMovedError(TableError, DeviceLostError):
    """The camera no longer sees the felt as calibrated: nothing it reads can be placed until
    it is calibrated again (``paigow camera calibrate``)."""


@dataclass(frozen=True, slots=True)
class KeptFrame:
    """A read's still frame as kept: the JPEG's path and SHA-256 (hex), the position read,
    and the source's frame number."""

    path: Path
    sha256: str
    position: int
    frame: int


class FrameTap(Protocol):
    """Sees each frame the camera takes, with its time in seconds, and gives back the frame and
    time the camera reads in their place (a recording stores them: what it returns is what a
    replay will read)."""

    def __call__(self, frame: Frame, t: float) -> tuple[Frame, float]:
        """The frame and time to read instead of ``frame`` taken at ``t``."""
        ...


class FeltCamera:
    """A ``LayoutCamera`` on a real felt: a frame source, a calibrated layout, a reader."""

    def __init__(self, config: CameraConfig, game: str, frames_dir: str | Path, *,
                 name: str = "camera-1", reader: Reader | None = None,
                 source: Source | None = None, tap: FrameTap | None = None) -> None:
        if game not in GAMES:
            raise TableConfigError(f"camera: game {game!r} is not one of {sorted(GAMES)}")
        self.config = config
        self.game = game
        self._name = name
        where = f"{config.table}: [camera]"
        try:
            self.layout = Layout.load(config.layout)
        except VisionError as err:
            raise TableConfigError(f"{where} layout: {err}") from err
        self.calibration = self._load_calibration()
        self.frames_dir = Path(frames_dir)
        try:
            self.frames_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise TableConfigError(f"camera frames folder {str(self.frames_dir)!r}: "
                                   f"{err.strerror or err}") from err
        self._read = reader or self._game_reader()
        self.source = source or open_camera_source(config)
        self._times = recorded_times(config.source)
        self.tap = tap
        """Handed every frame taken, with its time (a recording); None: frames are read as
        taken."""
        self._still = StillScene(hold=config.still_seconds)
        self.placed: dict[int, str] = {}
        self.history: list[CameraRead] = []
        self.last_frame: KeptFrame | None = None
        self._moved: str | None = None
        self._items: tuple[NDArray[np.int16], list[Item]] | None = None
        self._ahead: dict[tuple[Any, ...], Any] = {}

    @classmethod
    def from_table(cls, table: str | Path, game: str, frames_dir: str | Path, *,
                   name: str = "camera-1") -> FeltCamera:
        """The camera a table file's ``[camera]`` section describes (``open_table``'s
        ``camera`` factory: ``lambda: FeltCamera.from_table(path, game, frames_dir)``)."""
        return cls(read_camera_config(table), game, frames_dir, name=name)

    @property
    def name(self) -> str:
        """The camera's name in the journal."""
        return self._name

    @property
    def read_times(self) -> list[float]:
        """Seconds each read took from the still frame to the setting, oldest first."""
        return [r.seconds for r in self.history]

    def place(self, position: int, setting: str) -> None:
        """What ``position`` has physically set, as the table was told (kept beside what the
        camera reads; the camera reads the felt, not this)."""
        self._check_position(position)
        try:
            split_setting(self.game, setting)
        except (RulesError, TypeError, AttributeError) as err:
            raise CameraInputError(f"position {position}: setting {setting!r}: {err}") from err
        self.placed[position] = setting

    def clear(self) -> None:
        """Forget every position (a new round)."""
        self.placed.clear()

    def close(self) -> None:
        """Release the source."""
        self.source.close()

    # --- ahead of the act: the waits for a still felt hold no lock --------------------------

    calls = ("read_camera", "read_dice")
    """The engine's acts whose reads the live table makes ahead (``controller.table.ahead``)."""

    def prepare(self, act: str, *args: Any) -> None:
        """Make the read of ``act`` (``read_camera`` of a position, ``read_dice``) now, outside
        the table's lock, and keep its answer (or its error) for the act."""
        try:
            answer: Any = self.read(*args) if act == "read_camera" else self.read_dice()
        except DeviceLostError as err:
            answer = err
        self._ahead[(act, *args)] = answer

    def forget(self, act: str, *args: Any) -> None:
        """Drop a read its act did not take (the round moved on meanwhile)."""
        self._ahead.pop((act, *args), None)

    def interrupt(self) -> None:
        """Nothing to end: a read ends by its frames, within ``wait_seconds``."""

    def _prepared(self, key: tuple[Any, ...]) -> tuple[bool, Any]:
        if key not in self._ahead:
            return False, None
        answer = self._ahead.pop(key)
        if isinstance(answer, DeviceLostError):
            raise answer
        return True, answer

    def read(self, position: int) -> str | None:
        """The position's setting on the felt (``LOW / HIGH``), or None when unsure; the
        time from the still frame to the setting goes into ``history``.  A read made ahead
        of its act (``prepare``) is that read."""
        made, answer = self._prepared(("read_camera", position))
        if made:
            return answer  # type: ignore[no-any-return]
        self._check_position(position)
        self._check_recalibrated()
        still = self._wait_still()
        if still is None:
            log.info("camera %s: the felt did not lie still within %g s; position %d unread",
                     self.name, self.config.wait_seconds, position)
            self.history.append(CameraRead(position, self.placed.get(position), None, 0.0, 0))
            return None
        self.last_frame = self._keep(still, position)
        start = time.perf_counter()
        text, unknown = self.read_image(still.image, position)
        seconds = time.perf_counter() - start
        self.history.append(CameraRead(position, self.placed.get(position), text, seconds,
                                       unknown))
        return text

    def read_dice(self) -> tuple[int, ...] | None:
        """The three dice lying in the layout's dice area once the felt is still, or None
        when unsure (a cocked die, one hidden, the felt not still in time) or when the table
        file says not to look (``dice = false``).  The frame is kept as every read's is
        (position 0: the dice area) and the markers are checked first."""
        made, answer = self._prepared(("read_dice",))
        if made:
            return answer  # type: ignore[no-any-return]
        if not self.config.dice:
            return None
        self._check_recalibrated()
        still = self._wait_still()
        if still is None:
            log.info("camera %s: the felt did not lie still within %g s; the dice unread",
                     self.name, self.config.wait_seconds)
            return None
        self.last_frame = self._keep(still, DICE_AREA)
        try:
            check_still_calibrated(still.image, self.calibration)
        except CameraMoved as err:
            self._moved = str(err)
            raise self._moved_error() from err
        return self.dice_in(still.image)

    def dice_in(self, image: Image) -> tuple[int, ...] | None:
        """The dice read inside the dice area of ``image``, or None unless all three are.
        Only the area's inside is looked at: the rest, the printed circle included, is
        painted the felt's colour, since a bright ring round the dice would be taken for one
        object holding them."""
        area = np.asarray(self.seen.region(DICE).polygon(), np.float64)
        outline = self.calibration.to_image(area)
        x0, y0 = np.floor(outline.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 2
        h, w = image.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        crop = image[y0:y1, x0:x1].copy()  # painted below: never the frame itself
        inside = np.zeros(crop.shape[:2], np.uint8)
        cv2.fillPoly(inside, [np.round(outline - (x0, y0)).astype(np.int32)], 255)
        ring = max(1, round(RING_SHARE * (x1 - x0)))
        inside = np.asarray(cv2.erode(inside, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (2 * ring + 1, 2 * ring + 1))), np.uint8)
        if not inside.any():
            return None
        crop[inside == 0] = np.median(crop[inside > 0], axis=0).astype(np.uint8)  # the felt
        die_px = DIE_MM * (x1 - x0) / max(float(np.ptp(area[:, 0])), 1.0)
        scale = min(max(DIE_PX / die_px, 1.0), 4.0)
        if scale > 1.0:  # smooth enlargement: the pip reader counts pips a few px across
            crop = np.asarray(cv2.resize(crop, None, fx=scale, fy=scale,
                                         interpolation=cv2.INTER_CUBIC), np.uint8)
        roll = read_roll(crop, 3, dice_area=True)
        return None if roll.values is None else tuple(int(v) for v in roll.values)

    def read_image(self, image: Image, position: int) -> tuple[str | None, int]:
        """The setting read at ``position`` in a frame (or None), and how many pieces in its
        boxes were unknown."""
        low, high = box_names(position)
        boxes: dict[str, list[Item]] = {low: [], high: []}
        for item in self.items_of(image):
            if item.region in boxes:
                boxes[item.region].append(item)
        unknown = sum(1 for b in boxes.values() for i in b if i.code is None)
        known = {name: [i for i in items if i.code is not None] for name, items in boxes.items()}
        # A box must hold exactly its count of pieces read. An unknown mark beside a box so
        # filled is no piece of this hand (a hand holds that many and no more: a court card's
        # picture, a card's far corner, a chip's edge); one beside a box short of its count
        # may be the piece missing, so the position is unread.
        if (len(known[low]), len(known[high])) != GAMES[self.game][1]:
            return None, unknown
        text = " / ".join(" ".join(str(i.code) for i in sorted(known[b], key=_along))
                          for b in (low, high))
        try:
            split_setting(self.game, text)
        except RulesError:
            return None, unknown  # one piece read twice, say: unsure, the dealer is asked
        return text, unknown

    def items_of(self, image: Image) -> list[Item]:
        """Every piece in a frame, placed in the layout's regions, once the markers show the
        camera has not moved (else ``CameraMovedError``).  The whole frame is read (the tile
        reader needs the felt round a hand to part touching tiles) and kept while the felt
        stays as it was, so the positions read after one exposure share one read; a moved
        camera changes the whole frame, so it is never mistaken for the same felt."""
        sig = signature(image)
        if self._items is not None and changed_share(self._items[0], sig) <= MOVING_SHARE:
            return self._items[1]
        try:
            check_still_calibrated(image, self.calibration)
        except CameraMoved as err:
            self._moved = str(err)
            raise self._moved_error() from err
        items = self.seen.assign(self._read(image))
        self._items = (sig, items)
        return items

    # --- inside ----------------------------------------------------------------------------

    @property
    def seen(self) -> Layout:
        """The layout as this camera sees it (its calibration applied)."""
        return self._seen

    def _load_calibration(self) -> MarkerCalibration:
        path = self.config.calibration
        try:
            calibration = MarkerCalibration.load(path)
            self._seen = calibration.apply(self.layout)
        except VisionError as err:
            raise TableConfigError(f"{self.config.table}: [camera] calibration: {err}; "
                                   f"calibrate with: {calibrate_hint(self.config)}") from err
        self._calibrated_at = _mtime(path)
        return calibration

    def _check_recalibrated(self) -> None:
        """After a move, reads stay refused until the calibration file is written anew."""
        if self._moved is None:
            return
        if _mtime(self.config.calibration) == self._calibrated_at:
            raise self._moved_error()
        try:
            self.calibration = self._load_calibration()
        except TableConfigError as err:
            raise CameraMovedError(f"camera {self.name}: {err}") from err
        self._moved = None
        self._items = None
        self._still.reset()

    def _moved_error(self) -> CameraMovedError:
        return CameraMovedError(f"camera {self.name}: {self._moved}; calibrate it again: "
                                f"{calibrate_hint(self.config)}")

    def _game_reader(self) -> Reader:
        if self.game == "tiles":
            return read_tiles
        deck = self.config.deck or "2color"
        try:
            if isinstance(deck, Path):
                return faces_reader(deck)
            return card_reader(deck, warm=True)[1]
        except (AssetsMissingError, VisionError) as err:
            raise TableConfigError(f"{self.config.table}: [camera] deck {str(deck)!r}: "
                                   f"{err}") from err

    def _wait_still(self) -> Still | None:
        """Frames until the felt lies still (a fresh still run: the felt may have changed
        since the last read), or None after ``wait_seconds`` of frames."""
        self._still.reset()
        began: float | None = None
        while True:
            frame = self._grab()
            t = self._time(frame)
            if self.tap is not None:
                frame, t = self.tap(frame, t)
            began = t if began is None else began
            found = self._still.feed(frame.image, t)
            if found is not None:
                return found
            if t - began > self.config.wait_seconds:
                return None

    def _grab(self) -> Frame:
        try:
            frame = self.source.read()
        except VisionError as err:
            raise DeviceLostError(f"camera {self.name}: {err}") from err
        if frame is None:
            raise DeviceLostError(f"camera {self.name}: its source "
                                  f"{self.config.source!r} has no more frames")
        return frame

    def _time(self, frame: Frame) -> float:
        if frame.taken is not None:
            return frame.taken
        if frame.index < len(self._times):
            return self._times[frame.index]
        return frame.index / self.config.fps

    def _keep(self, still: Still, position: int) -> KeptFrame:
        ok, jpeg = cv2.imencode(".jpg", still.last_frame,
                                [int(cv2.IMWRITE_JPEG_QUALITY), JPEG_QUALITY])
        if not ok:
            raise DeviceLostError(f"camera {self.name}: a frame could not be encoded")
        data = jpeg.tobytes()
        digest = hashlib.sha256(data).hexdigest()
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        path = self.frames_dir / f"{stamp}-{len(self.history):05d}-p{position}-{digest[:12]}.jpg"
        try:
            path.write_bytes(data)
        except OSError as err:
            raise DeviceLostError(f"camera {self.name}: cannot keep its frame at "
                                  f"{str(path)!r}: {err.strerror or err}") from err
        return KeptFrame(path, digest, position, still.last)

    def _check_position(self, position: int) -> None:
        count = GAMES[self.game][0]
        if isinstance(position, bool) or not isinstance(position, int) \
                or not 1 <= position <= count:
            raise CameraInputError(f"position {position!r} is not one of 1..{count}")


def box_names(position: int) -> tuple[str, str]:
    """The layout regions of a position's low and high hands."""
    who = "dealer" if position == DEALER else f"seat{position}"
    return f"{who}.low", f"{who}.high"


def calibrate_hint(config: CameraConfig) -> str:
    """The command that calibrates this table's camera."""
    return f"paigow camera calibrate --table {config.table}"


def _along(item: Item) -> tuple[float, float]:
    return item.center


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


__all__ = ["CameraMovedError", "FeltCamera", "FrameTap", "KeptFrame", "box_names"]
