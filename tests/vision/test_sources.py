"""Frame sources: recorded folders and videos, rendered scenes, and the spec that picks one."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.conftest import faces_dir
from vision.errors import SourceError
from vision.sources import FolderSource, SceneSource, VideoSource, open_source


def write_frames(folder: Path, count: int) -> None:
    for i in range(count):
        image = np.full((48, 64, 3), 40 * i, np.uint8)
        cv2.imwrite(str(folder / f"frame{i:03d}.png"), image)


def test_folder_replays_in_name_order_and_keeps_history(tmp_path: Path) -> None:
    write_frames(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("not a frame")
    with open_source(str(tmp_path)) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 40, 80]
    assert isinstance(source, FolderSource)
    assert source.history == [(0, "frame000.png"), (1, "frame001.png"), (2, "frame002.png")]


def test_corrupt_frame_is_named(tmp_path: Path) -> None:
    write_frames(tmp_path, 1)
    (tmp_path / "frame001.png").write_bytes(b"\x89PNG garbage")
    source = open_source(str(tmp_path))
    assert source.read() is not None
    with pytest.raises(SourceError, match=r"frame001\.png"):
        source.read()


def test_video_replay(tmp_path: Path) -> None:
    path = tmp_path / "round.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build writes no MJPG video")
    for i in range(4):
        writer.write(np.full((48, 64, 3), 50 * i, np.uint8))
    writer.release()
    source = open_source(str(path))
    assert isinstance(source, VideoSource)
    frames = list(source)
    source.close()
    assert len(frames) == 4 and frames[0].image.shape == (48, 64, 3)


def test_scene_source_has_truth() -> None:
    spec = f"scene:{faces_dir('2color')}?seed=3&count=2&hands=2"
    source = open_source(spec)
    assert isinstance(source, SceneSource)
    frames = list(source)
    assert len(frames) == 2
    assert frames[0].image.shape == (720, 1280, 3)
    assert len(frames[0].truth) == 14 and {t.kind for t in frames[0].truth} == {"card"}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("/no/such/place.txt", "not a camera, folder, video or scene"),
        ("camera:x", "camera:INDEX"),
        ("scene:/nowhere?seed=1", "scene faces"),
        ("scene:/nowhere?speed=1", "unknown parameter 'speed'"),
        ("/no/such/video.mp4", "no video"),
    ],
)
def test_bad_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        source = open_source(spec)
        source.read()


def test_camera_that_is_not_there() -> None:
    source = open_source("camera:97")
    with pytest.raises(SourceError, match="camera 97"):
        source.read()
    source.close()
