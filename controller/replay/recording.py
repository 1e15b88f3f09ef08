"""Replaying a recorded session (``paigow replay DIR``): the same engine and device drivers,
the serial lines answering from the captured bytes, the recorded inputs done in order, and the
journal it writes compared with the recorded one.

Each act of the inputs (``docs/recordings.md``) is asked again, by the same person and role,
in the order it was asked, the machine's acts too: the drivers then make the same requests,
and the capture replays (``firmware_interfaces.replay_port``) check every byte the host
writes and answer with what the device said.  Device bytes are released up to the time of the
next input, so an event the device sent between two inputs arrives between them again.  The
replay writes into a scratch journal (unkeyed, thrown away); the first record that differs from
the recording, in kind, actor, role or payload, is the difference reported.  It runs as fast as
the engine goes: no recorded wait is kept.

A recording with a camera (its header's ``camera`` object) is replayed with the live camera
code, a ``FeltCamera``, reading the recorded frames (``camera/frames``, their times, the
calibration, layout and deck recorded): the machine's ``read_camera`` acts read it through
the engine, and each ``camera`` input (the loop's own read of the dealer's hand) reads it at
that position, a different setting being the difference.  The frames it keeps go into the
scratch folder; a kept frame's file name holds the time it was kept, so the journals are
compared without it, by its SHA-256.  A header without ``camera`` replays with no camera.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_interfaces.capture_file import CaptureFileError
from firmware_interfaces.errors import DeviceError
from firmware_interfaces.identity import Expected
from firmware_interfaces.replay_port import Replay
from firmware_interfaces.shaker import ShakerDriver
from firmware_interfaces.shuffler import ShufflerDriver

from ..errors import ControllerError
from ..journal import UNKEYED, Journal, Record, Role, StepClock, open_journal
from ..live import Table
from ..profiles.poker import load_profile
from ..profiles.tiles import load_tile_profile
from ..round import PokerRound, TileRound, Who
from ..round.errors import DeviceLostError, IllegalActError, PortError
from ..round.oversight import OversightEngine
from ..table.camera_config import CameraConfig
from ..table.dice_port import SerialDicePort
from ..table.errors import TableError
from ..table.felt_camera import FeltCamera
from ..table.recording import FORMAT, HEADER, VERSION, read_inputs
from ..table.shuffler_port import SerialShufflerPort
from .truth import TruthCheck, TruthError, check_truth, read_truth


class RecordingError(ControllerError):
    """A recording that cannot be replayed: a bad header, a missing part; one line."""


@dataclass
class RecordingReplay:
    """What a recording's replay found: rounds replayed, the differences (the first one
    stops it), and the recorded camera frames the replay's camera took."""

    rounds: int = 0
    differences: list[str] = field(default_factory=list)
    camera_frames: int = 0
    inputs: int = 0
    truth: TruthCheck | None = None
    """A synthetic recording's truth checked against the replay's journal (None: no truth)."""

    @property
    def ok(self) -> bool:
        """True when the replay wrote what was recorded, and settled as the truth says."""
        return not self.differences and (self.truth is None or self.truth.ok)

    def to_json(self) -> dict[str, Any]:
        """``paigow replay DIR --json``'s last line."""
        return {"rounds": self.rounds, "differences": len(self.differences),
                "first_difference": self.differences[0] if self.differences else None,
                "camera_frames": self.camera_frames, "inputs": self.inputs,
                "truth": None if self.truth is None else self.truth.to_json()}


def read_header(folder: Path) -> Mapping[str, Any]:
    """The recording's header, checked."""
    path = folder / HEADER
    try:
        header = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordingError(f"{str(folder)!r} holds no recording ({HEADER} is missing)") \
            from None
    except (OSError, json.JSONDecodeError) as err:
        raise RecordingError(f"{path}: cannot be read: {err}") from err
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordingError(f"{path}: not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise RecordingError(f"{path}: version {header.get('version')!r}; this reads "
                             f"version {VERSION}")
    if header.get("game") not in ("poker", "tiles"):
        raise RecordingError(f"{path}: game {header.get('game')!r} is not poker or tiles")
    return header


class _Clock:
    """The replay's place on the recording's time line (device bytes wait for it)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def replay_recording(folder: str | Path, recorded: Journal, *,
                     make_table: Callable[[OversightEngine[Any]], Table] = Table,
                     pace: Callable[[float], None] | None = None) -> RecordingReplay:
    """Replay the recording in ``folder`` against its journal ``recorded``.

    ``make_table`` makes the table the inputs are done on (``paigow demo --recording`` gives
    the display's, served while the replay runs); ``pace`` is told each input's recorded time
    before it is done (the demo waits for it; a check runs as fast as it can)."""
    root = Path(folder)
    header = read_header(root)
    inputs = read_inputs(root)
    try:
        truth = read_truth(root)
    except TruthError as err:
        raise RecordingError(str(err)) from err
    opened = [r for r in recorded.records() if r.kind == "round_opened"]
    profile_name = str(opened[0].payload().get("profile")) if opened else None
    clock = _Clock()
    # The lines were opened (their hellos answered) before the first input came.
    clock.now = float(inputs[0]["t"]) if inputs else float("inf")
    replays: dict[str, Replay] = {}
    drivers: list[ShufflerDriver | ShakerDriver] = []
    result = RecordingReplay(inputs=len(inputs))
    with (tempfile.TemporaryDirectory(prefix="paigow-replay-") as scratch,
          open_journal(Path(scratch) / "replay.db", clock=StepClock(), key=UNKEYED) as into):
        camera = _camera(header, root, Path(scratch) / "frames")
        try:
            engine = _engine(header, profile_name, root, into, clock, replays, drivers, camera)
            table = make_table(engine)
            for number, entry in enumerate(inputs):
                if pace is not None:
                    pace(float(entry["t"]))
                clock.now = float(inputs[number + 1]["t"]) if number + 1 < len(inputs) \
                    else float("inf")
                difference = _do(table, entry, number, camera)
                if difference is not None:
                    result.differences.append(difference)
                    break
        finally:
            for driver in drivers:
                driver.close()
            if camera is not None:
                result.camera_frames = len(camera.source.history)
                camera.close()
        if result.ok:
            for kind, replay in replays.items():
                try:
                    replay.check_complete()
                except DeviceError as err:
                    result.differences.append(f"the {kind} line: {err}")
                    break
        if result.ok:
            difference = _compare(list(recorded.records()), list(into.records()))
            if difference is not None:
                result.differences.append(difference)
        result.rounds = sum(1 for r in into.records() if r.kind == "round_opened")
        if truth is not None:
            result.truth = check_truth(truth, into.records())
    return result


def _camera(header: Mapping[str, Any], root: Path, frames_dir: Path) -> FeltCamera | None:
    """The recording's camera rebuilt over its recorded frames (None: it has no camera),
    keeping the frames it reads in ``frames_dir``."""
    part = header.get("camera")
    if part is None:
        return None
    where = root / HEADER
    if not isinstance(part, dict):
        raise RecordingError(f"{where}: camera must be an object, not {part!r}")
    try:
        frames = root / str(part["frames"])
        if root / str(part["times"]) != frames.parent / "times.csv":
            raise RecordingError(f"{where}: camera times {part['times']!r} must be the "
                                 f"times.csv beside its frames {part['frames']!r}")
        deck = part.get("deck")
        config = CameraConfig(
            where, str(frames), root / str(part["layout"]), root / str(part["calibration"]),
            None if deck is None else Path(deck) if "/" in deck or deck.startswith(".")
            else str(deck), None, float(part["still_seconds"]), float(part["wait_seconds"]),
            float(part["fps"]), bool(part.get("dice", False)))
    except (KeyError, TypeError, ValueError) as err:
        raise RecordingError(f"{where}: camera: a bad or missing key ({err!r})") from err
    if not frames.is_dir():
        raise RecordingError(f"{where}: camera frames {str(frames)!r} are missing")
    try:
        return FeltCamera(config, str(header["game"]), frames_dir)
    except TableError as err:
        raise RecordingError(f"the recorded camera: {err}") from err


def _engine(header: Mapping[str, Any], profile_name: str | None, root: Path, into: Journal,
            clock: _Clock, replays: dict[str, Replay],
            drivers: list[ShufflerDriver | ShakerDriver],
            camera: FeltCamera | None) -> OversightEngine[Any]:
    """The engine as ``paigow run`` makes it (a dealer's hand off the house way held for the
    supervisor), on the recorded lines and camera."""
    serial = header.get("serial") or {}

    def line(kind: str) -> Replay:
        if kind not in serial:
            raise RecordingError(f"the recording holds no {kind} line")
        try:
            replays[kind] = Replay(root / str(serial[kind]), clock=clock)
        except (CaptureFileError, OSError) as err:
            raise RecordingError(f"the {kind} line: {err}") from err
        return replays[kind]

    shaker = ShakerDriver.open(line("shaker").connect, Expected("shaker"), name="shaker-1")
    drivers.append(shaker)
    dice = SerialDicePort(shaker)
    engine: OversightEngine[Any]
    if header["game"] == "tiles":
        tiles = load_tile_profile(profile_name) if profile_name else load_tile_profile()
        engine = TileRound(into, tiles, dice, camera)
    else:
        shuffler = ShufflerDriver.open(line("shuffler").connect, Expected("shuffler"),
                                       name="shuffler-1")
        drivers.append(shuffler)
        poker = load_profile(profile_name) if profile_name else load_profile()
        engine = PokerRound(into, poker, SerialShufflerPort(shuffler), dice, camera)
    engine.hold_deviations = True  # as paigow run has it: only paigow run records
    return engine


def _do(table: Table, entry: Mapping[str, Any], number: int,
        camera: FeltCamera | None) -> str | None:
    """Do one recorded input again; a refusal, or a camera reading otherwise, is the
    difference."""
    kind = entry["input"]
    if kind == "press":
        return None  # the act the loop did for it follows in the inputs
    if kind == "camera":
        return _read(camera, entry, number)
    try:
        who = Who(str(entry["actor"]), Role(str(entry["role"])))
    except (KeyError, ValueError) as err:
        return f"input {number + 1}: no valid actor and role ({err})"
    try:
        if kind == "note":
            table.note(dict(entry.get("payload") or {}), who)
        elif kind == "act":
            table.act(str(entry["act"]), who, *entry.get("args", []),
                      **dict(entry.get("kwargs") or {}))
    except (IllegalActError, PortError) as err:
        return f"input {number + 1} ({entry.get('act', kind)}): the replay refused: {err}"
    except DeviceError as err:
        return f"input {number + 1} ({entry.get('act', kind)}): a device line differs: {err}"
    return None


def _read(camera: FeltCamera | None, entry: Mapping[str, Any], number: int) -> str | None:
    """The loop's read of a position, made again by the replay's camera (a read that fails
    reads nothing, as the loop took it); a different setting is the difference."""
    position, recorded = entry.get("position"), entry.get("setting")
    where = f"input {number + 1} (camera, position {position!r})"
    if camera is None:
        return f"{where}: the recording holds no camera"
    if not isinstance(position, int):
        return f"{where}: a position is a whole number"
    try:
        seen = camera.read(position)
    except (DeviceLostError, PortError):
        seen = None
    except TableError as err:
        return f"{where}: the replay's camera refused: {err}"
    if seen != recorded:
        return f"{where}: the recording read {recorded!r}, the replay's camera {seen!r}"
    return None


def _compared(record: Record) -> tuple[str, str, str, dict[str, Any]]:
    """What of a record must be the same in the replay: a kept camera frame by its SHA-256
    (its file name holds the time it was kept)."""
    payload = dict(record.payload())
    frame = payload.get("frame")
    if record.kind in ("camera_read", "camera_dice") and isinstance(frame, dict):
        payload["frame"] = {k: v for k, v in frame.items() if k != "file"}
    return record.kind, record.actor, record.role, payload


def _compare(recorded: list[Record], replayed: list[Record]) -> str | None:
    """The first record that differs, or None."""
    for old, new in zip(recorded, replayed, strict=False):
        if _compared(old) != _compared(new):
            return f"record {old.seq} ({old.kind}): recorded {old.event}, replayed {new.event}"
    if len(recorded) != len(replayed):
        return f"the recording has {len(recorded)} records, the replay wrote {len(replayed)}"
    return None


__all__ = ["RecordingError", "RecordingReplay", "read_header", "replay_recording"]
