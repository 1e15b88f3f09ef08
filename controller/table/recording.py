"""Recording a table session to a folder: the device lines' bytes, the people's inputs and
the journal, with one time origin, so that a replay can play the session again with no
hardware (``docs/recordings.md``).

A recording folder holds::

    recording.json      {"format": "paigow-recording", "version": 1, "game", "table", ...}
    serial/KIND.jsonl   each device line's bytes (``firmware_interfaces.capture``)
    inputs.jsonl        what people did, in order: panel presses, acts at the display,
                        sign-ins and sign-outs, the loop's reads of the dealer's hand, each
                        with ``t`` (seconds from the start)
    camera/frames/      every frame the felt camera took, NNNNNN.jpg (``CameraRecording``)
    camera/times.csv    each frame's time; beside them the calibration and layout the camera
                        used, copied at the start
    journal.sqlite      the session's journal (when the command is given no other)

The loop's acts are recorded as the loop's: a replay asks them again of the recorded devices
and camera frames, and comparing its journal with the recorded one checks what they did.
A folder that already holds a recording is refused: nothing recorded is ever overwritten.
"""

from __future__ import annotations

import csv
import json
import shutil
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import cv2
import numpy as np

from firmware_interfaces.capture import Recorder
from vision.sources import Frame

from ..round import DeviceLostError, Who
from .camera_config import CameraConfig
from .errors import TableConfigError

if TYPE_CHECKING:
    from ..live import Table
    from .live import LiveLoop

FORMAT = "paigow-recording"
VERSION = 1
HEADER = "recording.json"
INPUTS = "inputs.jsonl"
SERIAL = "serial"
CAMERA = "camera"
FRAMES = f"{CAMERA}/frames"
TIMES = f"{CAMERA}/times.csv"
FRAME_QUALITY = 95
"""The JPEG quality of a recorded frame: above the 80-92 the readers are tested on (the rendered
frames), so recording costs them nothing, at a fraction of a lossless frame's size."""


class SessionRecorder:
    """Writes one session's recording into ``folder`` (made if missing, refused if it already
    holds one); ``close`` when the session ends."""

    def __init__(self, folder: str | Path, *, game: str, table: str,
                 seed: int | None, start: float | None = None) -> None:
        self.folder = Path(folder)
        if (self.folder / HEADER).exists():
            raise TableConfigError(f"recording folder {str(self.folder)!r} already holds a "
                                   f"recording; give a new folder")
        try:
            (self.folder / SERIAL).mkdir(parents=True, exist_ok=True)
            self._inputs: IO[str] = (self.folder / INPUTS).open("x", encoding="utf-8")
        except OSError as err:
            raise TableConfigError(f"recording folder {str(self.folder)!r}: "
                                   f"{err.strerror or err}") from err
        self.start = time.monotonic() if start is None else start
        self._lock = threading.Lock()
        self._lines: list[Recorder] = []
        self._serial: dict[str, str] = {}
        self._camera: CameraRecording | None = None
        self._header: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": game, "table": table, "seed": seed,
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "serial": self._serial, "inputs": INPUTS}
        self._write_header()

    @property
    def journal(self) -> Path:
        """Where the session's journal goes unless the command names another."""
        return self.folder / "journal.sqlite"

    def line(self, kind: str, url: str) -> Recorder:
        """The recorder of device line ``kind`` (``shuffler``, ``shaker``) at ``url``; its
        ``connect`` opens the line for the driver."""
        recorder = Recorder(url, self.folder / SERIAL / f"{kind}.jsonl", kind, start=self.start)
        self._lines.append(recorder)
        self._serial[kind] = f"{SERIAL}/{kind}.jsonl"
        self._write_header()
        return recorder

    def camera(self, config: CameraConfig) -> CameraRecording:
        """Start the camera's part (once): its calibration and layout files copied into
        ``camera/`` (as ``calibration.json`` and under the layout's own name), the header's
        ``camera`` object; the returned tap (``FeltCamera``'s ``tap``) writes each frame the
        camera takes."""
        if self._camera is not None:
            raise TableConfigError(f"recording {str(self.folder)!r}: its camera is already "
                                   f"recorded")
        where = self.folder / CAMERA
        calibration = f"{CAMERA}/calibration.json"  # not its own name: camera.json is taken
        layout = f"{CAMERA}/{config.layout.name}"  # its own: a layout's name may be its file's
        try:
            (where / "frames").mkdir(parents=True)
            shutil.copyfile(config.calibration, self.folder / calibration)
            shutil.copyfile(config.layout, self.folder / layout)
        except OSError as err:
            raise TableConfigError(f"recording the camera into {str(where)!r}: "
                                   f"{err.strerror or err}") from err
        deck = None if config.deck is None else str(config.deck)
        self._header["camera"] = {
            "frames": FRAMES, "times": TIMES,
            "calibration": calibration, "layout": layout, "deck": deck,
            "still_seconds": config.still_seconds, "wait_seconds": config.wait_seconds,
            "fps": config.fps, "dice": config.dice, "source": config.source,
            "quality": FRAME_QUALITY}
        self._camera = CameraRecording(self.folder, self.start)
        self._write_header()
        return self._camera

    def annotate(self, key: str, value: Any) -> None:
        """Add ``key`` to the header (a part of the recording beyond the live ones: a
        synthetic recording's truth and film)."""
        if key in ("format", "version"):
            raise TableConfigError(f"the header's {key!r} is the recorder's own")
        self._header[key] = value
        self._write_header()

    def input(self, what: str, who: Who | None = None, **fields: Any) -> None:
        """Append one input, timed now: ``press`` (a panel button), ``act`` (an act asked at
        the display, or the loop's), ``note`` (a sign-in or sign-out), ``camera`` (the loop's
        read of a position: ``position``, ``setting``)."""
        entry: dict[str, Any] = {"t": round(time.monotonic() - self.start, 6), "input": what}
        if who is not None:
            entry["actor"], entry["role"] = who.actor, who.role.value
        entry.update(fields)
        text = json.dumps(entry, default=str, sort_keys=True)
        with self._lock:
            if self._inputs.closed:
                return
            self._inputs.write(text + "\n")
            self._inputs.flush()  # a crash loses at most the input under way

    def close(self) -> None:
        """Close every part (idempotent)."""
        for recorder in self._lines:
            recorder.close()
        if self._camera is not None:
            self._camera.close()
        with self._lock:
            self._inputs.close()

    def _write_header(self) -> None:
        (self.folder / HEADER).write_text(json.dumps(self._header, indent=1) + "\n",
                                          encoding="utf-8")


class CameraRecording:
    """The camera's frames into a recording (``FeltCamera``'s ``tap``): each frame taken is
    encoded as ``camera/frames/NNNNNN.jpg`` and its time written to ``camera/times.csv``
    (``frame,t,step,arm``, as ``vision.table_video.recording`` writes it; step and arm are 0
    live), and the camera is given back the JPEG decoded and the time as written: what a
    replay reading the folder gets.  A camera's own clock (``Frame.taken``, monotonic) goes on
    the recording's (``start`` is ``t = 0``); a source of recorded frames keeps its times."""

    def __init__(self, folder: Path, start: float) -> None:
        self.frames = folder / FRAMES
        self.start = start
        self.count = 0
        """Frames written."""
        self._lock = threading.Lock()
        try:
            self._times: IO[str] = (folder / TIMES).open("x", encoding="utf-8", newline="")
        except OSError as err:
            raise TableConfigError(f"recording {str(folder / TIMES)!r}: "
                                   f"{err.strerror or err}") from err
        self._rows = csv.writer(self._times)
        self._rows.writerow(["frame", "t", "step", "arm"])
        self._times.flush()

    def __call__(self, frame: Frame, t: float) -> tuple[Frame, float]:
        """Write ``frame`` taken at ``t``; the frame as read back and its time as written."""
        ok, encoded = cv2.imencode(".jpg", frame.image,
                                   [int(cv2.IMWRITE_JPEG_QUALITY), FRAME_QUALITY])
        if not ok:
            raise DeviceLostError(f"recording: frame {frame.name!r} could not be encoded")
        data = encoded.tobytes()
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        text = f"{t - self.start if frame.taken is not None else t:.6f}"
        with self._lock:
            number = self.count
            path = self.frames / f"{number:06d}.jpg"
            try:
                path.write_bytes(data)
                self._rows.writerow([number, text, 0, 0])
                self._times.flush()  # a crash loses at most the frame under way
            except (OSError, ValueError) as err:
                raise DeviceLostError(f"recording frame {str(path)!r}: "
                                       f"{getattr(err, 'strerror', None) or err}") from err
            self.count += 1
        return Frame(np.asarray(image, np.uint8), number, path.name, None, frame.truth), \
            float(text)

    def close(self) -> None:
        """Close the times file (idempotent)."""
        with self._lock:
            self._times.close()


def record_inputs(recorder: SessionRecorder, table: Table, loop: LiveLoop) -> None:
    """Wire ``table`` and ``loop`` to write into ``recorder``'s inputs what people do (acts,
    notes, panel presses) and the loop's own camera reads (the dealer's hand); an act done on
    the loop's thread is marked as the loop's, any other as the display's."""
    def observe(kind: str, who: Who, what: Mapping[str, Any]) -> None:
        by = "loop" if threading.get_ident() == loop.thread else "display"
        recorder.input(kind, who, by=by, **what)

    table.observe = observe
    loop.on_press = lambda button: recorder.input("press", button=button.value)
    loop.on_read = lambda position, setting: recorder.input("camera", position=position,
                                                            setting=setting)


def read_inputs(folder: str | Path) -> list[Mapping[str, Any]]:
    """A recording's inputs, in order; ``TableConfigError`` names a bad line."""
    path = Path(folder) / INPUTS
    out: list[Mapping[str, Any]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as err:
            raise TableConfigError(f"{path}:{number}: not JSON ({err.msg})") from err
        if not isinstance(entry, dict) or "t" not in entry or "input" not in entry:
            raise TableConfigError(f"{path}:{number}: an input needs 't' and 'input'")
        out.append(entry)
    return out


__all__ = ["CAMERA", "FORMAT", "FRAME_QUALITY", "VERSION", "CameraRecording", "SessionRecorder",
           "read_inputs", "record_inputs"]
