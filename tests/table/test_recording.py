"""Recording a live session: the device lines' bytes, the people's inputs in order (the
loop's own acts marked as the loop's), the journal, under one header."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller.commands.table import record_inputs
from controller.journal import Role, open_journal
from controller.replay.recording import replay_recording
from controller.round import Phase, Who
from controller.table import open_table
from controller.table.errors import TableConfigError
from controller.table.recording import FORMAT, SessionRecorder, read_inputs
from firmware_interfaces.capture_file import load_capture
from firmware_interfaces.gpio import PanelButton
from tests.cli_run import run

from .conftest import SIM_TABLE, TIMING
from .test_live import Live

DEALER = Who.dealer("ann")


def record_round(folder: Path) -> None:
    """Record one whole live poker round on the pty simulators into ``folder``."""
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
        for position, wager in ((3, 2500), (6, 1000)):
            live.table.act("take_bet", DEALER, position, wager)
        live.press(PanelButton.CONFIRM)
        live.until(lambda: live.phase() is Phase.DEALT)
        live.press(PanelButton.SHAKE)
        live.until(lambda: live.phase() is Phase.SETTING)
        for position in (3, 6):
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
