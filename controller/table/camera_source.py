"""The table camera's source as a table file configures it: a camera opened at the frame size
asked for, or a recording (a video, or a folder of frames with their times)."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2

from vision.errors import SourceError, VisionError
from vision.sources import CameraSource, Source, open_source

from .camera_config import CameraConfig
from .errors import TableConfigError, TableDeviceError


def open_camera_source(config: CameraConfig) -> Source:
    """The ``[camera]`` source, opened and giving frames of the size asked (a camera is asked
    for it); ``TableDeviceError`` names a source that cannot be opened."""
    where = f"{config.table}: [camera] source {config.source!r}"
    try:
        source = open_source(config.source)
        if isinstance(source, CameraSource) and config.size is not None:
            capture = cv2.VideoCapture(source.device)
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, config.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, config.size[1])
            if not capture.isOpened():
                raise SourceError(f"cannot open camera {source.device!r}")
            source._capture = capture  # the source reads from the capture set up here
    except VisionError as err:
        raise TableDeviceError(f"{where} cannot be opened: {err}") from err
    return source


def recorded_times(source: str) -> list[float]:
    """A recording's frame times, in seconds (``times.csv`` beside its ``frames/`` folder:
    ``docs/recordings.md``, "Camera frames"), else none (then ``fps`` times the frames)."""
    path = Path(source).parent / "times.csv"
    if not (Path(source).is_dir() and path.is_file()):
        return []
    try:
        with path.open(encoding="utf-8", newline="") as f:
            return [float(row["t"]) for row in csv.DictReader(f)]
    except (OSError, ValueError, KeyError) as err:
        raise TableConfigError(f"camera recording times {str(path)!r}: {err}") from err


__all__ = ["open_camera_source", "recorded_times"]
