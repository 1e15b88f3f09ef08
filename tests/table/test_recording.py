"""Recording a live session: the device lines' bytes, the people's inputs in order (the
loop's own acts marked as the loop's), the camera's frames, the journal, under one header;
and replaying it with no hardware, the camera reading the recorded frames."""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from controller.commands.table import _live_setup, _recorder
from controller.journal import Role, open_journal
from controller.replay.recording import RecordingReplay, replay_recording
from controller.round import Phase, Who
from controller.table import open_table, read_hardware
from controller.table.camera_config import CameraConfig
from controller.table.errors import TableConfigError
from controller.table.recording import FORMAT, SessionRecorder, read_inputs, record_inputs
from firmware_interfaces.capture_file import load_capture
from firmware_interfaces.gpio import PanelButton
from tests.cli_run import run
from vision.camera_calibration import MarkerCalibration
from vision.layout import Layout
from vision.sources import FolderSource, Frame
from vision.table_video.recording import read_times

from .conftest import ROOT, SIM_TABLE, TIMING
from .test_felt_camera import SHARP, calibrate, render_table
from .test_live import Live
from .test_live_camera import FELT, HOUSE, SEATS, LiveFelt, felt_state

DEALER = Who.dealer("ann")


def record_round(folder: Path, bets: tuple[tuple[int, int], ...] = ((3, 2500), (6, 1000)),
                 while_betting: Callable[[Live], None] | None = None) -> None:
    """Record one whole live poker round on the pty simulators into ``folder``: ``bets``
    keyed (each seat set by the house way), ``while_betting`` done before the bets close."""
    recorder = SessionRecorder(folder, game="poker", table=str(SIM_TABLE), seed=4)
    journal = open_journal(recorder.journal)
    devices = open_table(SIM_TABLE, "poker", seed=4, timing=TIMING, camera=lambda: None,
                         recorder=recorder)
    live = Live(devices, journal, {Role.DEALER: DEALER})
    record_inputs(recorder, live.table, live.loop)
    live.thread.start()
    try:
        live.press(PanelButton.NEW_ROUND)
        live.until(lambda: live.phase() is Phase.BETTING)
        for position, wager in bets:
            live.table.act("take_bet", DEALER, position, wager)
        if while_betting is not None:
            while_betting(live)
        live.press(PanelButton.CONFIRM)
        live.until(lambda: live.phase() is Phase.DEALT)
        live.press(PanelButton.SHAKE)
        live.until(lambda: live.phase() is Phase.SETTING)
        for position, _ in bets:
            live.table.act("set_hand", DEALER, position)
        live.press(PanelButton.CONFIRM)
        live.until(lambda: live.phase() is Phase.EXPOSED)
        live.press(PanelButton.CONFIRM)
        live.until(lambda: live.loop.summary.settled == 1)
    finally:
        live.loop.stop()
        live.thread.join(timeout=10)
        devices.close()
        journal.close()
        recorder.close()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("recorded") / "rec"
    record_round(folder)
    return folder


def test_a_recorded_round_replays_with_no_device_and_no_difference(recorded: Path) -> None:
    with open_journal(recorded / "journal.sqlite", create=False) as journal:
        result = replay_recording(recorded, journal)
    assert result.differences == [] and result.rounds == 1
    assert result.to_json()["differences"] == 0


def test_a_replay_names_the_first_difference(recorded: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(recorded, copy)
    inputs = (copy / "inputs.jsonl").read_text().replace('"args": [6, 1000]',
                                                         '"args": [6, 2000]')
    (copy / "inputs.jsonl").write_text(inputs)
    with open_journal(copy / "journal.sqlite", create=False) as journal:
        result = replay_recording(copy, journal)
    assert result.rounds == 1 and len(result.differences) == 1
    assert "(bet)" in result.differences[0] and "1000" in result.differences[0]


def test_a_live_round_is_recorded_with_its_inputs_and_device_lines(recorded: Path) -> None:
    folder = recorded
    header = json.loads((folder / "recording.json").read_text())
    assert header["format"] == FORMAT and header["version"] == 1 and header["game"] == "poker"
    assert header["serial"] == {"shuffler": "serial/shuffler.jsonl",
                                "shaker": "serial/shaker.jsonl"}
    for kind in ("shuffler", "shaker"):
        capture = load_capture(folder / header["serial"][kind])
        ops = [step.op for step in capture.steps]
        assert capture.header.device == kind and ops[0] == "open" and ops[-1] == "close"
        assert "write" in ops and "read" in ops
    inputs = read_inputs(folder)
    presses = [i["button"] for i in inputs if i["input"] == "press"]
    assert presses == ["new_round", "confirm", "shake", "confirm", "confirm"]
    display = [i for i in inputs if i["input"] == "act" and i["by"] == "display"]
    assert [(i["act"], i["args"], i["actor"]) for i in display] == [
        ("take_bet", [3, 2500], "ann"), ("take_bet", [6, 1000], "ann"),
        ("set_hand", [3], "ann"), ("set_hand", [6], "ann")]
    loop = {i["act"] for i in inputs if i["input"] == "act" and i["by"] == "loop"}
    assert {"open_round", "close_bets", "shuffle", "deal_packet", "roll", "expose_dealer",
            "settle"} <= loop
    times = [i["t"] for i in inputs]
    assert times == sorted(times)
    with open_journal(folder / "journal.sqlite", create=False) as kept:
        assert "packet" in [r.kind for r in kept.records()]


def test_a_folder_already_recorded_is_refused(tmp_path: Path) -> None:
    SessionRecorder(tmp_path, game="tiles", table="t.toml", seed=None).close()
    with pytest.raises(TableConfigError, match="already holds a recording"):
        SessionRecorder(tmp_path, game="tiles", table="t.toml", seed=None)


def test_a_bad_inputs_line_is_named(tmp_path: Path) -> None:
    SessionRecorder(tmp_path, game="tiles", table="t.toml", seed=None).close()
    (tmp_path / "inputs.jsonl").write_text('{"t": 0.1, "input": "press"}\nnot json\n')
    with pytest.raises(TableConfigError, match=r"inputs\.jsonl:2: not JSON"):
        read_inputs(tmp_path)


def test_run_refuses_a_recorded_folder_before_any_device_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    SessionRecorder(tmp_path / "rec", game="poker", table="t.toml", seed=None).close()
    code, _, err = run(capsys, "run", "--table", str(SIM_TABLE), "--port", "0", "--record",
                       str(tmp_path / "rec"), "--journal", str(tmp_path / "j.sqlite"))
    assert code == 2 and err.count("\n") == 1 and "already holds a recording" in err
    assert not (tmp_path / "j.sqlite").exists()


def test_paigow_replay_dir_reports_one_json_object(recorded: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(recorded), "--json")
    assert code == 0
    last = json.loads(out.strip().splitlines()[-1])
    assert last["rounds"] == 1 and last["differences"] == 0 and last["camera_frames"] == 0


def test_paigow_replay_dir_exits_1_naming_the_difference(recorded: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(recorded, copy)
    (copy / "inputs.jsonl").write_text((copy / "inputs.jsonl").read_text().replace(
        '"args": [3, 2500]', '"args": [3, 2600]'))
    code, _, err = run(capsys, "replay", str(copy))
    assert code == 1 and "differs: record" in err and "2500" in err


def test_paigow_replay_of_a_folder_without_a_recording_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "holds no recording" in err


# --- a table with a camera: its frames recorded, and read again by the replay -----------------

CAMERA_FRAMES = 8
"""Frames the felt needs: four reads (the dealer's hand for its exposure, then each of the
three playing positions) of two frames each (``tests/table/test_live_camera.py``)."""


def play_camera_round(live: LiveFelt) -> None:
    """The dealer plays the round through; the felt camera reads every position."""
    live.to_exposed(FELT)
    live.until(lambda: set(live.state().camera) == {HOUSE, *SEATS})
    live.press(PanelButton.CONFIRM)
    live.until(lambda: live.loop.summary.settled == 1)


def record_camera_round(table: Path, folder: Path,
                        play: Callable[[LiveFelt], None] = play_camera_round) -> None:
    """Record one live tiles round on the felt camera, played by ``play``, wired as ``paigow
    run --record`` wires it (``_recorder``, ``_live_setup``'s camera factory,
    ``record_inputs``)."""
    args = argparse.Namespace(record=str(folder), game="tiles", seed=4, table=str(table),
                              staff=None, no_display=False, rounds=None)
    recorder = _recorder(args, table)
    assert recorder is not None
    journal = open_journal(recorder.journal)
    setup = _live_setup(args, read_hardware(table), None)
    devices = open_table(table, "tiles", seed=4, timing=TIMING,
                         camera=lambda: setup.camera(str(recorder.journal)), recorder=recorder)
    live = LiveFelt(devices, journal)
    record_inputs(recorder, live.table, live.loop)
    live.thread.start()
    try:
        play(live)
    finally:
        live.loop.stop()
        live.thread.join(timeout=10)
        devices.close()
        journal.close()
        recorder.close()


@pytest.fixture(scope="module")
def camera_recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A recorded tiles round whose camera read a rendered felt (as few frames as it needs)."""
    table = render_table(tmp_path_factory.mktemp("felt"), felt_state(), 0, SHARP,
                         CAMERA_FRAMES)
    done = calibrate(table)
    assert done.returncode == 0, done.stderr
    folder = tmp_path_factory.mktemp("camera-recorded") / "rec"
    record_camera_round(table, folder)
    return folder


def replay(folder: Path) -> RecordingReplay:
    with open_journal(folder / "journal.sqlite", create=False) as journal:
        return replay_recording(folder, journal)


def test_a_recording_keeps_every_frame_the_camera_took_with_its_time(
        camera_recorded: Path) -> None:
    folder = camera_recorded
    header = json.loads((folder / "recording.json").read_text())
    camera = header["camera"]
    assert (camera["frames"], camera["times"]) == ("camera/frames", "camera/times.csv")
    assert camera["deck"] == "2color" and camera["still_seconds"] == 0.4
    # the calibration and layout the camera used, copied: a replay needs nothing else
    assert MarkerCalibration.load(folder / camera["calibration"]).layout == "paigow-tiles"
    assert Layout.load(folder / camera["layout"]).name == "paigow-tiles"
    frames = sorted((folder / "camera" / "frames").glob("*.jpg"))
    assert [p.name for p in frames] == [f"{n:06d}.jpg" for n in range(CAMERA_FRAMES)]
    times = read_times(folder / "camera")  # the format vision.table_video writes
    assert [row[0] for row in times] == list(range(CAMERA_FRAMES))
    assert [row[1] for row in times] == sorted(row[1] for row in times)
    # The loop's own read of the dealer's hand is an input, before the exposure it sets.
    inputs = read_inputs(folder)
    [read] = [i for i in inputs if i["input"] == "camera"]
    exposed = next(i for i in inputs if i.get("act") == "expose_dealer")
    assert read["position"] == HOUSE and exposed["args"] == [read["setting"]]
    assert inputs.index(read) < inputs.index(exposed)
    with open_journal(folder / "journal.sqlite", create=False) as kept:
        records = list(kept.records())
    [dealer] = [r.payload() for r in records if r.kind == "dealer_exposed"]
    assert dealer["setting"] == FELT[HOUSE]
    reads = [r.payload() for r in records if r.kind == "camera_read"]
    assert {r["position"]: r["setting"] for r in reads} == {p: FELT[p] for p in (HOUSE, *SEATS)}


def test_a_recording_with_a_camera_replays_from_its_frames(camera_recorded: Path) -> None:
    result = replay(camera_recorded)
    assert result.differences == [] and result.rounds == 1
    assert result.camera_frames == CAMERA_FRAMES


def test_a_recorded_frame_replaced_is_a_difference(camera_recorded: Path,
                                                   tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(camera_recorded, copy)
    frames = copy / "camera" / "frames"
    # The last frame is the last read's still frame: the one its camera_read names.
    (frames / f"{CAMERA_FRAMES - 1:06d}.jpg").write_bytes((frames / "000000.jpg").read_bytes())
    result = replay(copy)
    assert len(result.differences) == 1
    assert "(camera_read)" in result.differences[0] and "sha256" in result.differences[0]


def test_a_camera_input_read_otherwise_is_a_difference_naming_it(camera_recorded: Path,
                                                                 tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(camera_recorded, copy)
    lines = (copy / "inputs.jsonl").read_text().splitlines()
    number = next(n for n, line in enumerate(lines) if '"input": "camera"' in line)
    entry = json.loads(lines[number])
    seen = entry["setting"]
    entry["setting"] = "1-3 1-4 / 6-6 3-4"
    lines[number] = json.dumps(entry, sort_keys=True)
    (copy / "inputs.jsonl").write_text("\n".join(lines) + "\n")
    result = replay(copy)
    assert len(result.differences) == 1
    difference = result.differences[0]
    assert difference.startswith(f"input {number + 1} (camera, position 1)")
    assert f"the replay's camera {seen!r}" in difference and "1-3 1-4 / 6-6 3-4" in difference


def test_a_recording_without_a_camera_replays_with_none(recorded: Path) -> None:
    header = json.loads((recorded / "recording.json").read_text())
    assert "camera" not in header  # a table without a camera, as every older recording
    result = replay(recorded)
    assert result.differences == [] and result.camera_frames == 0


def test_paigow_replay_dir_counts_the_camera_frames(camera_recorded: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(camera_recorded), "--json")
    last = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and last["differences"] == 0 and last["camera_frames"] == CAMERA_FRAMES


def test_a_camera_frame_is_read_as_recorded_on_the_recording_clock(tmp_path: Path) -> None:
    calibration = tmp_path / "cal.json"
    calibration.write_text("{}")
    config = CameraConfig(tmp_path / "t.toml", "camera:0",
                          ROOT / "config" / "layouts" / "paigow-tiles.toml", calibration,
                          None, None)
    recorder = SessionRecorder(tmp_path / "rec", game="tiles", table="t.toml", seed=None,
                               start=100.0)
    tap = recorder.camera(config)
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    frame, t = tap(Frame(image, 7, "camera0#7", taken=101.2345678), 101.2345678)
    recorder.close()
    # A camera's monotonic time goes on the recording's clock, as written to the microsecond.
    assert t == 1.234568 and frame.index == 0 and frame.taken is None
    assert (tmp_path / "rec" / "camera" / "times.csv").read_text().splitlines() == \
        ["frame,t,step,arm", "0,1.234568,0,0"]
    # The camera reads what a replay reads from the folder: the JPEG decoded, not the frame.
    again = FolderSource(name="frames", folder=tmp_path / "rec" / "camera" / "frames").read()
    assert again is not None and np.array_equal(again.image, frame.image)
    assert not np.array_equal(frame.image, image)
    header = json.loads((tmp_path / "rec" / "recording.json").read_text())
    assert header["camera"]["calibration"] == "camera/calibration.json"
    assert (tmp_path / "rec" / "camera" / "calibration.json").read_text() == "{}"


def lose_camera_at_the_exposure(live: LiveFelt) -> None:
    """The camera's source ends while the dealer's hand is read: the supervisor voids."""
    live.to_setting(SEATS[:1])
    live.press(PanelButton.CONFIRM)
    live.until(lambda: any(r.kind == "fault_raised" for r in live.table.journal.records()))
    live.table.act("void", Who.supervisor("sue"), "the camera was lost")
    live.until(lambda: live.loop.summary.voided == 1)


def test_a_camera_lost_at_the_exposure_replays_as_recorded(tmp_path: Path) -> None:
    table = render_table(tmp_path / "felt", felt_state(), 0, SHARP, 1)  # never a still felt
    assert calibrate(table).returncode == 0
    folder = tmp_path / "rec"
    record_camera_round(table, folder, lose_camera_at_the_exposure)
    with open_journal(folder / "journal.sqlite", create=False) as kept:
        [fault] = [r for r in kept.records() if r.kind == "fault_raised"]
    assert (fault.actor, fault.payload()["act"]) == ("camera-1", "expose_dealer")
    inputs = read_inputs(folder)
    assert [i["act"] for i in inputs if i.get("act") == "device_lost"] == ["device_lost"]
    result = replay(folder)
    assert result.differences == [] and result.camera_frames == 1
