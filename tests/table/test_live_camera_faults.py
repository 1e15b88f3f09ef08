"""The live table when its devices fail: Pai Gow tiles rounds played from the panel on the
simulators over ptys (as ``tests/table/test_live_camera_sets.py``), the ``FeltCamera`` reading
the rendered showdown of ``tests/table/test_live_camera.py`` as a video file or a folder.

- A video file is a camera source like any other: the camera sets every seat from it.
- A source that ends or fails while the round reads the felt is a lost camera: a critical
  ``device_lost`` fault, the tower light red, settling refused; the supervisor voids the round
  and nothing is guessed.  Lost while it reads the dealer's hand for the exposure, nothing is
  exposed: the loop says so and the exposure is refused (no fault is journaled until a later
  read, since only the engine's acts journal faults).
- A camera moved mid-round (its later frames shifted on the felt) is a lost camera that says to
  calibrate again, and it reads nothing until ``paigow camera calibrate`` has been run.
- A shaker lost mid-round is a fault for the supervisor too.

Only one showdown is rendered (the ``felt`` fixture: 13 frames at 2560 x 1440, each read
taking two); every source here is made from its frames.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from controller.journal import Role, open_journal
from controller.round import Phase
from controller.table import open_table
from controller.table.felt_camera import FeltCamera
from firmware_interfaces.gpio import PanelButton
from firmware_interfaces.gpio.tower_light import ALL_OFF, LOCKED
from vision.sources import VideoSource

from .conftest import SIM_TABLE, TIMING
from .test_felt_camera import ROOT
from .test_live_camera import (
    DEALER,
    FELT,
    HOUSE,
    SEATS,
    SUPERVISOR,
    LiveFelt,
    felt,
    open_live,
    records,
)
from .test_live_camera_sets import seat_settings, to_exposed_unset

__all__ = ["felt"]  # the rendered showdown, a fixture of this module too

Image = NDArray[np.uint8]
FPS = 2.5
"""The rendered frames' rate (``tests/table/test_felt_camera.py``'s ``SLOW``): a video carries
no times, so the table file gives it (``fps``)."""
SHIFT = (30, 20)
"""How far (x, y pixels) the moved camera sees the felt slide: ten times the markers'
tolerance."""
BEFORE_SEATS = 4
"""Frames the round takes before it reads a seat: two for the dealer's hand at its exposure,
two for the dealer's position read after it."""


@pytest.fixture(scope="module")
def frames(felt: Path) -> list[Path]:
    """The rendered showdown's frames, in order."""
    found = sorted((felt.parent / "camera" / "frames").glob("*.jpg"))
    assert len(found) >= 3 * 2 + BEFORE_SEATS - 1, found
    return found


def image(path: Path) -> Image:
    """A rendered frame, as BGR."""
    read = cv2.imread(str(path))
    assert read is not None, path
    return np.asarray(read, np.uint8)


def moved(frame: Image) -> Image:
    """The frame as a camera knocked ``SHIFT`` pixels aside would see it."""
    shift = np.array([[1, 0, SHIFT[0]], [0, 1, SHIFT[1]]], np.float32)
    height, width = frame.shape[:2]
    return np.asarray(cv2.warpAffine(frame, shift, (width, height),
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def write_video(path: Path, images: Sequence[Image]) -> Path:
    """``images`` as a Motion-JPEG ``.avi`` (a codec this OpenCV both writes and reads), checked
    to read back as the same frames."""
    height, width = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), FPS, (width, height))
    assert writer.isOpened(), f"OpenCV cannot write MJPG to {path}"
    for each in images:
        writer.write(each)
    writer.release()
    back = VideoSource(name=path.name, path=path)
    got = list(back)
    back.close()
    assert len(got) == len(images), (len(got), len(images))
    for frame, want in zip(got, images, strict=True):
        assert frame.image.shape == want.shape
        assert np.abs(frame.image.astype(np.int16) - want).mean() < 4  # JPEG's loss only
    return path


def camera_table(felt: Path, folder: Path, source: Path, *,
                 calibration: Path | None = None) -> Path:
    """A table file in ``folder`` like the felt's, its camera reading ``source`` (a video or a
    folder) at ``FPS`` with the felt's calibration (or ``calibration``)."""
    calibration = calibration or felt.parent / "calibration" / "camera.json"
    text = felt.read_text(encoding="utf-8")
    for old, new in (('source = "camera/frames"', f'source = "{source}"'),
                     ('calibration = "calibration/camera.json"', f'calibration = "{calibration}"')):
        assert old in text, old
        text = text.replace(old, new)
    table = folder / "table.toml"
    table.write_text(f"{text}fps = {FPS}\n", encoding="utf-8")
    return table


Start = Callable[[Path], tuple[LiveFelt, Path]]


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Start]:
    """Starts the live table on the simulators with a table file's camera (once a test); gives
    the table and its kept frames' folder, and closes them after the test."""
    opened: list[Iterator[tuple[LiveFelt, Path]]] = []

    def start(table: Path) -> tuple[LiveFelt, Path]:
        assert not opened, "one live table a test"
        run = open_live(table, tmp_path)
        opened.append(run)
        return next(run)

    yield start
    for run in opened:
        next(run, None)


def light(table: LiveFelt) -> Any:
    """The tower light's pattern now."""
    panel = table.devices.panel
    assert panel is not None
    return panel.light.pattern


def faults(table: LiveFelt, code: str) -> list[dict[str, Any]]:
    """The faults of ``code`` journaled, oldest first."""
    return [f for f in records(table, "fault_raised") if f["code"] == code]


def test_the_camera_sets_every_seat_from_a_video_file(felt: Path, frames: list[Path],
                                                      live: Start, tmp_path: Path) -> None:
    video = write_video(tmp_path / "felt.avi", [image(p) for p in frames])
    table, kept_dir = live(camera_table(felt, tmp_path, video))
    camera = table.devices.camera
    assert isinstance(camera, FeltCamera) and isinstance(camera.source, VideoSource)
    to_exposed_unset(table)
    table.until(lambda: set(table.state().camera) == {HOUSE, *SEATS})
    table.press(PanelButton.CONFIRM)  # pay and take
    table.until(lambda: table.loop.summary.settled == 1)
    sets = [r for r in table.table.journal.records() if r.kind == "set"]
    assert sorted(r.payload()["position"] for r in sets) == sorted(SEATS)
    assert all(r.role is Role.CAMERA and r.payload()["source"] == "camera" for r in sets)
    [settle] = records(table, "settle")
    assert seat_settings(settle) == {seat: FELT[seat] for seat in SEATS}
    reads = {r["position"]: r for r in records(table, "camera_read")}
    assert sorted(reads) == sorted((HOUSE, *SEATS))
    for position, read in reads.items():
        kept = kept_dir / read["frame"]["file"]
        assert hashlib.sha256(kept.read_bytes()).hexdigest() == read["frame"]["sha256"]
        if position != HOUSE:
            assert read["setting"] == FELT[position]
    # every frame the camera took came from the video, two a read
    assert [name for _, name in camera.source.history] == [f"felt.avi#{i}" for i in range(8)]
    assert faults(table, "device_lost") == [] and table.loop.summary.refused == []


def ended(frames: list[Path], folder: Path) -> Path:
    """A video that ends before the round reads its seats."""
    return write_video(folder / "short.avi", [image(p) for p in frames[:BEFORE_SEATS]])


def failing(frames: list[Path], folder: Path) -> Path:
    """A folder of frames whose next frame after the dealer's reads cannot be decoded."""
    out = folder / "frames"
    out.mkdir()
    for path in frames[:BEFORE_SEATS]:
        (out / path.name).write_bytes(path.read_bytes())
    (out / f"{BEFORE_SEATS:06d}.jpg").write_bytes(b"\xff\xd8 not a whole JPEG")
    return out


@pytest.mark.parametrize(("source", "says"), [(ended, "has no more frames"),
                                              (failing, "000004.jpg")])
def test_a_camera_lost_mid_round_locks_the_table_until_the_supervisor_voids(
        felt: Path, frames: list[Path], live: Start, tmp_path: Path,
        source: Callable[[list[Path], Path], Path], says: str) -> None:
    table, _ = live(camera_table(felt, tmp_path, source(frames, tmp_path)))
    to_exposed_unset(table)
    table.until(lambda: bool(faults(table, "device_lost")))
    [lost] = faults(table, "device_lost")
    camera = table.devices.camera
    assert camera is not None
    assert (lost["device"], lost["act"], lost["position"]) == (camera.name, "read_camera",
                                                               SEATS[0])
    assert lost["critical"] and says in lost["text"], lost
    [raised] = [r for r in table.table.journal.records() if r.kind == "fault_raised"
                and r.payload()["code"] == "device_lost"]
    assert (raised.actor, raised.role) == (camera.name, Role.DEVICE)
    table.until(lambda: light(table) == LOCKED)
    assert not table.table.engine.can_settle(DEALER)
    table.press(PanelButton.CONFIRM)
    table.until(lambda: bool(table.loop.summary.refused))
    assert table.loop.summary.refused[0].startswith("settle: ")
    assert "is active" in table.loop.summary.refused[0]
    # Nothing was guessed: no seat set, no seat read.
    assert table.state().settings == {}
    assert set(table.state().camera) == {HOUSE}
    assert [r for r in table.table.journal.records() if r.kind == "set"] == []
    table.table.act("void", SUPERVISOR, "the camera was lost during the showdown")
    table.until(lambda: table.loop.summary.voided == 1)
    [void] = records(table, "round_voided")
    assert void["reason"] == "the camera was lost during the showdown"
    assert records(table, "settle") == [] and table.loop.summary.settled == 0
    table.until(lambda: light(table) == ALL_OFF)


def test_a_camera_lost_at_the_exposure_is_a_fault_and_exposes_no_guess(
        felt: Path, frames: list[Path], live: Start, tmp_path: Path) -> None:
    video = write_video(tmp_path / "one.avi", [image(frames[0])])  # no still felt: it ends
    table, _ = live(camera_table(felt, tmp_path, video))
    table.to_setting(SEATS[:1])
    table.press(PanelButton.CONFIRM)  # the dealer's hand: the camera ends before it is still
    table.until(lambda: bool(records(table, "fault_raised")))
    fault = records(table, "fault_raised")[0]
    assert (fault["code"], fault["critical"], fault["act"]) == ("device_lost", True,
                                                                "expose_dealer")
    assert "has no more frames" in fault["text"]
    by = next(r for r in table.table.journal.records() if r.kind == "fault_raised")
    assert (by.actor, by.role) == ("camera-1", Role.DEVICE)
    table.until(lambda: table.devices.panel.light.pattern == LOCKED)
    # The dealer's hand is not set by a guess: nothing is exposed, nothing read.
    assert table.phase() is Phase.SETTING and table.state().exposure is None
    assert records(table, "dealer_exposed") == [] and records(table, "camera_read") == []
    table.table.act("void", SUPERVISOR, "the camera was lost")
    table.until(lambda: table.loop.summary.voided == 1)


def calibrate_from(table: Path, frame: Path) -> subprocess.CompletedProcess[str]:
    """``paigow camera calibrate --table TABLE --frame FRAME`` in its own process."""
    return subprocess.run([sys.executable, "-m", "controller.cli", "camera", "calibrate",
                           "--table", str(table), "--frame", str(frame)], capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=120)


def test_a_camera_moved_mid_round_reads_nothing_until_calibrated_again(
        felt: Path, frames: list[Path], live: Start, tmp_path: Path) -> None:
    images = [image(p) for p in frames]
    after = [moved(i) for i in images[BEFORE_SEATS:]]
    video = write_video(tmp_path / "moved.avi", images[:BEFORE_SEATS] + after)
    calibration = tmp_path / "calibration.json"
    calibration.write_bytes((felt.parent / "calibration" / "camera.json").read_bytes())
    path = camera_table(felt, tmp_path, video, calibration=calibration)
    table, _ = live(path)
    camera = table.devices.camera
    assert isinstance(camera, FeltCamera)
    to_exposed_unset(table)
    table.until(lambda: bool(faults(table, "device_lost")))
    [lost] = faults(table, "device_lost")
    assert (lost["device"], lost["position"], lost["critical"]) == (camera.name, SEATS[0], True)
    assert "moved" in lost["text"]
    assert f"calibrate it again: paigow camera calibrate --table {path}" in lost["text"]
    table.until(lambda: light(table) == LOCKED)
    assert set(table.state().camera) == {HOUSE} and table.state().settings == {}
    # The supervisor clears it without calibrating: the read is refused again, no frame taken.
    taken = len(camera.source.history)
    table.table.act("clear_fault", SUPERVISOR, lost["fault"], "try again")
    table.until(lambda: len(faults(table, "device_lost")) == 2)
    again = faults(table, "device_lost")[1]
    assert "calibrate it again" in again["text"] and again["position"] == SEATS[0]
    assert len(camera.source.history) == taken
    table.until(lambda: light(table) == LOCKED)
    # Calibrated from what the moved camera sees now, the camera reads the seats again.
    now = tmp_path / "now.png"
    assert cv2.imwrite(str(now), after[0])
    done = calibrate_from(path, now)
    assert done.returncode == 0, done.stderr
    table.table.act("clear_fault", SUPERVISOR, again["fault"], "the camera is calibrated again")
    table.until(lambda: set(table.state().camera) == {HOUSE, *SEATS})
    table.press(PanelButton.CONFIRM)
    table.until(lambda: table.loop.summary.settled == 1)
    [settle] = records(table, "settle")
    assert seat_settings(settle) == {seat: FELT[seat] for seat in SEATS}
    assert len(faults(table, "device_lost")) == 2
    # The moved reads journaled no reading: each seat was read once, after the calibration.
    reads = [r for r in records(table, "camera_read") if r["position"] != HOUSE]
    assert sorted((r["position"], r["setting"]) for r in reads) == [(s, FELT[s]) for s in SEATS]


def test_a_shaker_lost_mid_round_is_a_fault_for_the_supervisor(tmp_path: Path) -> None:
    journal = open_journal(tmp_path / "live.sqlite")
    devices = open_table(SIM_TABLE, "tiles", seed=4, timing=TIMING, camera=lambda: None)
    table = LiveFelt(devices, journal)
    table.thread.start()
    try:
        table.to_woodpile(SEATS[:1])
        devices.dice.inject("lost")  # silent through every retry of the next shake
        table.press(PanelButton.SHAKE)
        table.until(lambda: bool(faults(table, "device_lost")))
        [lost] = faults(table, "device_lost")
        assert (lost["device"], lost["act"], lost["critical"]) == (devices.dice.name, "roll",
                                                                   True)
        assert records(table, "roll") == []
        table.until(lambda: light(table) == LOCKED)
        assert any("device lost during roll" in line for line in table.lines)
        table.press(PanelButton.SHAKE)  # shaken again while the fault stands: refused
        table.until(lambda: bool(table.loop.summary.refused))
        assert table.loop.summary.refused[0].startswith("roll: ")
        assert "is active" in table.loop.summary.refused[0]
        table.table.act("void", SUPERVISOR, "the shaker stopped answering")
        table.until(lambda: table.loop.summary.voided == 1)
    finally:
        table.loop.stop()
        table.thread.join(timeout=10)
        devices.close()
        journal.close()
