"""Where frames come from, behind one interface: a camera, recorded frames, rendered scenes.

``open_source(spec)`` picks the back end from a text spec, as a pyserial URL picks a port:

- ``camera:0`` or ``0``: an OpenCV camera by index; ``rtsp://...``, ``http(s)://...``: a
  network camera by URL;
- a folder: its images in name order (a recording, for replay);
- a video file (``.mp4``, ``.avi``, ``.mkv``, ``.mov``, ``.webm``): its frames;
- ``scene:FACES_DIR?seed=1&count=10&hands=7``: rendered seven-hand tables with ground truth.

Every source yields ``Frame`` records and keeps a ``history`` of what it handed out (index,
name), so a test can check what a consumer saw. A frame that cannot be decoded raises
``SourceError`` naming it; the end of a recording ends the iteration.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs

import cv2
import numpy as np
from numpy.typing import NDArray

from .errors import ImageError, SourceError
from .scene import Placement

Image = NDArray[np.uint8]
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True)
class Frame:
    """One BGR frame: its number in the source, a name (file, camera), when it was taken
    (``time.monotonic()``, or ``None`` for recordings) and the ground truth of rendered ones."""

    image: Image
    index: int
    name: str
    taken: float | None = None
    truth: tuple[Placement, ...] = ()


class Source(Protocol):
    """What every frame source offers."""

    name: str
    history: list[tuple[int, str]]

    def read(self) -> Frame | None:
        """The next frame, or ``None`` at the end of a recording."""
        ...

    def close(self) -> None:
        """Release the camera or file."""
        ...


@dataclass
class _Base:
    name: str
    history: list[tuple[int, str]] = field(default_factory=list)
    _count: int = 0

    def _hand_out(self, image: Image, name: str, taken: float | None,
                  truth: tuple[Placement, ...] = ()) -> Frame:
        frame = Frame(image, self._count, name, taken, truth)
        self.history.append((self._count, name))
        self._count += 1
        return frame

    def read(self) -> Frame | None:
        """The next frame, or ``None`` at the end (each back end says how)."""
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def __enter__(self) -> _Base:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class CameraSource(_Base):
    """An OpenCV camera by index or URL; a failed grab is a ``SourceError``."""

    device: int | str = 0
    _capture: cv2.VideoCapture | None = None

    def read(self) -> Frame | None:
        """The next frame from the camera."""
        if self._capture is None:
            self._capture = cv2.VideoCapture(self.device)
            if not self._capture.isOpened():
                raise SourceError(f"cannot open camera {self.device!r}")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise SourceError(f"camera {self.device!r} gave no frame")
        return self._hand_out(np.asarray(image, np.uint8), f"{self.name}#{self._count}",
                              time.monotonic())

    def close(self) -> None:
        """Release the camera."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


@dataclass
class FolderSource(_Base):
    """Recorded frames: the images of a folder, in name order."""

    folder: Path = Path(".")
    _files: list[Path] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"{str(self.folder)!r} is not a folder of frames")
        self._files = sorted(p for p in self.folder.iterdir()
                             if p.suffix.lower() in IMAGE_SUFFIXES)

    def read(self) -> Frame | None:
        """The next image of the folder."""
        if self._count >= len(self._files):
            return None
        path = self._files[self._count]
        try:
            image = read_image(path)
        except ImageError as err:
            raise SourceError(str(err)) from err
        return self._hand_out(image, path.name, None)


@dataclass
class VideoSource(_Base):
    """Recorded frames: a video file."""

    path: Path = Path("video.mp4")
    _capture: cv2.VideoCapture | None = None

    def read(self) -> Frame | None:
        """The next frame of the video, ``None`` at its end."""
        if self._capture is None:
            if not self.path.is_file():
                raise SourceError(f"no video at {str(self.path)!r}")
            self._capture = cv2.VideoCapture(str(self.path))
            if not self._capture.isOpened():
                raise SourceError(f"{str(self.path)!r} is not a readable video")
        ok, image = self._capture.read()
        if not ok or image is None:
            return None
        return self._hand_out(np.asarray(image, np.uint8), f"{self.path.name}#{self._count}",
                              None)

    def close(self) -> None:
        """Close the video file."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


@dataclass
class SceneSource(_Base):
    """Rendered seven-hand tables from a folder of card faces, each with its ground truth."""

    faces_dir: Path = Path(".")
    seed: int = 0
    count: int = 1
    hands: int = 7
    _faces: dict[str, Image] = field(default_factory=dict)
    _rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def __post_init__(self) -> None:
        from .cards.faces import load_faces

        try:
            self._faces = load_faces(self.faces_dir)
        except (ValueError, OSError) as err:
            raise SourceError(f"scene faces: {err}") from err
        self._rng = np.random.default_rng(self.seed)

    def read(self) -> Frame | None:
        """The next rendered table, ``None`` after ``count`` of them."""
        from .scene.hands import table_scene

        if self._count >= self.count:
            return None
        image, truth = table_scene(self._faces, self._rng, hands=self.hands)
        return self._hand_out(image, f"scene-{self.seed}-{self._count}", None, tuple(truth))


def read_image(path: str | Path) -> Image:
    """An image file as BGR; ``ImageError`` naming a missing or corrupt file."""
    from .cards.faces import read_image as read

    return read(path)


def open_source(spec: str) -> Source:
    """The frame source a text spec names (see the module docstring)."""
    text = spec.strip()
    if text.isdigit() or text.startswith("camera:"):
        index = text.split(":", 1)[-1]
        if not index.isdigit():
            raise SourceError(f"camera spec {spec!r}: expected camera:INDEX")
        return CameraSource(name=f"camera{index}", device=int(index))
    if text.startswith(("rtsp://", "http://", "https://")):
        return CameraSource(name=text, device=text)
    if text.startswith("scene:"):
        return _scene(text, spec)
    path = Path(text)
    if path.is_dir():
        return FolderSource(name=path.name, folder=path)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoSource(name=path.name, path=path)
    raise SourceError(f"frame source {spec!r}: not a camera, folder, video or scene spec")


def _scene(text: str, spec: str) -> SceneSource:
    body, _, query = text[len("scene:"):].partition("?")
    params = {k: v[-1] for k, v in parse_qs(query).items()}
    unknown = sorted(set(params) - {"seed", "count", "hands"})
    if unknown:
        raise SourceError(f"scene spec {spec!r}: unknown parameter {unknown[0]!r}")
    try:
        numbers = {k: int(v) for k, v in params.items()}
    except ValueError as err:
        raise SourceError(f"scene spec {spec!r}: parameters are whole numbers") from err
    return SceneSource(name="scene", faces_dir=Path(body), seed=numbers.get("seed", 0),
                       count=numbers.get("count", 1), hands=numbers.get("hands", 7))
