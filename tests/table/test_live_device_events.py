"""What a device sends on its own reaches the floor: the live loop journals it as the system's
``device_event`` note, and the display shows it as an alert to the supervisor and the dealer,
never to the public; a recorded session with such notes replays with no difference (the note
is an input of the recording, noted again by the replay).  The simulated shuffler on its pty;
the display's own table."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.display import Table
from controller.journal import Journal, Record, Role, open_journal
from controller.live import Sight
from controller.profiles.poker import load_profile
from controller.replay.recording import replay_recording
from controller.round import PokerRound, Who
from controller.table import TableDevices, open_table
from controller.table.live import LiveLoop
from controller.table.recording import read_inputs
from firmware_interfaces.events import DeviceEvent
from firmware_interfaces.protocol.common import Cleared, Door, Fault

from .conftest import SIM_TABLE, TIMING
from .test_live import Live
from .test_recording import record_round


def _until(what: Callable[[], bool], said: list[str], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, f"timed out; loop said {said}"
        time.sleep(0.02)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Table, TableDevices, LiveLoop, list[str]]]:
    """A poker table on the simulated devices, its loop on a thread, the display's table."""
    journal = open_journal(tmp_path / "live.sqlite")
    devices = open_table(SIM_TABLE, "poker", seed=4, timing=TIMING, camera=lambda: None)
    assert devices.shuffler is not None
    table = Table(PokerRound(journal, load_profile(), devices.shuffler, devices.dice, None))
    said: list[str] = []
    loop = LiveLoop(table, devices, on_duty={Role.DEALER: Who.dealer("ann")}.get,
                    out=said.append, poll=0.02)
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    try:
        yield table, devices, loop, said
    finally:
        loop.stop()
        thread.join(timeout=10)
        devices.close()
        journal.close()


def _notes(journal: Journal) -> list[Record]:
    return [r for r in journal.records() if r.kind == "device_event"]


def test_a_door_opened_is_journaled_by_the_system_and_alerts_the_floor(
        running: tuple[Table, TableDevices, LiveLoop, list[str]]) -> None:
    table, devices, loop, said = running
    assert devices.shuffler is not None
    assert table.view(Sight.SUPERVISOR)["alerts"] == []
    devices.shuffler.control(door=True)  # the door, then the fault it raises
    _until(lambda: [r.payload()["event"] for r in _notes(table.journal)] == ["door", "fault"],
           said)
    note, fault = _notes(table.journal)
    assert "code=door_open" in fault.payload()["text"]
    assert (note.actor, note.role, note.round_id) == ("table", Role.SYSTEM, None)
    payload = note.payload()
    assert payload["type"] == "device_event" and payload["v"] == 1
    assert payload["device"].startswith("shuffler") and payload["event"] == "door"
    assert "DOOR" in payload["text"] and payload["text"] in loop.summary.events
    for sight in (Sight.SUPERVISOR, Sight.DEALER):
        alerts = [a for a in table.view(sight)["alerts"] if a["kind"] == "device_event"]
        assert [(a["seq"], a["critical"]) for a in alerts] == [(fault.seq, False),
                                                                 (note.seq, False)]
        assert alerts[1]["text"].startswith(payload["device"]) and "DOOR" in alerts[1]["text"]
    assert table.view(Sight.PUBLIC)["alerts"] == []  # the public sees none


def test_only_the_recent_device_events_are_alerts(
        running: tuple[Table, TableDevices, LiveLoop, list[str]]) -> None:
    table, devices, _, said = running
    assert devices.shuffler is not None
    for door in (True, False) * 2:  # eight events (a door and its fault, a door and its
        count = len(_notes(table.journal))  # clearing): the view shows the latest five
        devices.shuffler.control(door=door)
        _until(lambda n=count: len(_notes(table.journal)) >= n + 2, said)  # type: ignore[misc]
    notes = _notes(table.journal)
    assert len(notes) == 8, [r.payload()["text"] for r in notes]
    alerts = [a for a in table.view(Sight.SUPERVISOR)["alerts"] if a["kind"] == "device_event"]
    assert [a["seq"] for a in alerts] == [r.seq for r in reversed(notes)][:5]  # newest first
    table.act("open_round", Who.dealer("ann"))  # a new round: older events are no alert now
    assert not [a for a in table.view(Sight.SUPERVISOR)["alerts"]
                if a["kind"] == "device_event"]


def test_a_recorded_session_with_device_events_replays_with_no_difference(
        tmp_path: Path) -> None:
    folder = tmp_path / "rec"

    def door(live: Live) -> None:
        # What the shuffler's reader thread hands the loop when its door opens and closes
        # (a control command would be the host's bytes on the recorded line, not the device's)
        for record, total in ((Door(open=True), 1), (Fault(code="door_open"), 2),
                              (Door(open=False), 3), (Cleared(code="door_open"), 4)):
            live.devices.events.put(DeviceEvent("shuffler-1", record))
            live.until(lambda n=total: len(_notes(live.table.journal)) == n)  # type: ignore[misc]

    record_round(folder, ((3, 2500),), door)
    notes = [e for e in read_inputs(folder) if e["input"] == "note"]
    assert [(e["actor"], e["role"], e["by"], e["payload"]["event"]) for e in notes] == [
        ("table", "system", "loop", event) for event in ("door", "fault", "door", "cleared")]
    with open_journal(folder / "journal.sqlite", create=False) as recorded:
        assert len(_notes(recorded)) == 4
        result = replay_recording(folder, recorded)
    assert result.differences == [] and result.rounds == 1
