"""A timeline's camera frames written as a recording folder, and its truth read back.

The folder (``docs/recordings.md``, "Camera frames", version 1)::

    DIR/camera.json       format, version, layout, game, frame size, fps, seed, frame count,
                          the true felt-to-frame homography
    DIR/frames/NNNNNN.jpg the frames, numbered from 0 (``vision.sources`` opens the folder)
    DIR/times.csv         frame,t,step,arm: each frame's time (seconds), step, arm in view
    DIR/truth/NNNN.json   per step: its time, when the felt is still again, its first and
                          last frame, and the state (``TableState.to_json``)

The JPEG bytes are written as the camera encoded them, so a replay reads exactly the pixels
the recording's reader would have read.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SourceError
from ..layout import Layout
from .camera import TableCamera
from .render import Looks
from .state import TableState
from .timeline import Motion, Step, camera_mount, timeline_frames

FORMAT = "paigow-camera-frames"
VERSION = 1


@dataclass(frozen=True)
class StepTruth:
    """One step of a recording: its time, when its arm has gone (the felt still from then
    on), its first and last frame, and what the felt holds."""

    step: int
    t: float
    settled: float
    first: int
    last: int
    state: TableState

    def to_json(self) -> dict[str, Any]:
        """The step's truth file's object."""
        return {"step": self.step, "t": self.t, "settled": self.settled, "first": self.first,
                "last": self.last, "state": self.state.to_json()}


def write_timeline(out: str | Path, steps: list[Step], layout: Layout, looks: Looks,
                   seed: int, camera: TableCamera | None = None,
                   motion: Motion | None = None, tail: float | None = None) -> list[StepTruth]:
    """Render ``steps`` (``vision.table_video.timeline``) into the new folder ``out``; the truth
    written per step. A ``SourceError`` if ``out`` exists and is not an empty folder."""
    root = Path(out)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise SourceError(f"{str(root)!r} exists: a recording is written to a new folder")
    camera = camera or TableCamera()
    motion = motion or Motion()
    (root / "frames").mkdir(parents=True)
    (root / "truth").mkdir()
    firsts: dict[int, int] = {}
    lasts: dict[int, int] = {}
    settled: dict[int, float] = {}
    count = 0
    with (root / "times.csv").open("w", newline="", encoding="utf-8") as f:
        rows = csv.writer(f)
        rows.writerow(["frame", "t", "step", "arm"])
        for frame in timeline_frames(steps, layout, looks, seed, camera, motion, tail):
            (root / "frames" / f"{frame.index:06d}.jpg").write_bytes(frame.jpeg)
            rows.writerow([frame.index, f"{frame.t:.6f}", frame.step, int(frame.arm)])
            firsts.setdefault(frame.step, frame.index)
            lasts[frame.step] = frame.index
            if not frame.arm:
                settled.setdefault(frame.step, frame.t)
            count += 1
    truths = []
    for i, step in enumerate(steps):
        truth = StepTruth(i, step.t, settled.get(i, step.t), firsts.get(i, -1),
                          lasts.get(i, -1), step.state)
        (root / "truth" / f"{i:04d}.json").write_text(json.dumps(truth.to_json()) + "\n",
                                                      encoding="utf-8")
        truths.append(truth)
    mount = camera_mount(layout, seed, camera)
    header = {"format": FORMAT, "version": VERSION, "layout": layout.name,
              "game": steps[0].state.game, "size": list(camera.size), "fps": motion.fps,
              "seed": seed, "frames": count, "steps": len(steps),
              "felt_to_image": mount.felt_to_image.round(6).tolist()}
    (root / "camera.json").write_text(json.dumps(header, indent=1) + "\n", encoding="utf-8")
    return truths


def read_truth(folder: str | Path) -> tuple[dict[str, Any], list[StepTruth]]:
    """A recording's ``camera.json`` and its steps' truth; a ``SourceError`` naming a file
    that is missing, of another format or version, or malformed."""
    root = Path(folder)
    try:
        header = json.loads((root / "camera.json").read_text(encoding="utf-8"))
        if header.get("format") != FORMAT or header.get("version") != VERSION:
            raise SourceError(f"{str(root / 'camera.json')!r}: not {FORMAT} version {VERSION} "
                              f"(format {header.get('format')!r}, version "
                              f"{header.get('version')!r})")
        steps = []
        for path in sorted((root / "truth").glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            steps.append(StepTruth(int(data["step"]), float(data["t"]), float(data["settled"]),
                                   int(data["first"]), int(data["last"]),
                                   TableState.from_json(data["state"])))
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise SourceError(f"recording {str(root)!r}: {err}") from err
    return header, steps


def read_times(folder: str | Path) -> list[tuple[int, float, int, bool]]:
    """``times.csv``: per frame its number, time, step and whether the arm is in it."""
    path = Path(folder) / "times.csv"
    try:
        with path.open(encoding="utf-8", newline="") as f:
            return [(int(r["frame"]), float(r["t"]), int(r["step"]), r["arm"] == "1")
                    for r in csv.DictReader(f)]
    except (OSError, ValueError, KeyError) as err:
        raise SourceError(f"{str(path)!r}: {err}") from err
